"""Partition assignors: concrete assignments from Kafka's Java documentation and tests, and properties.

Range and round-robin must hand out exactly what the Java client does for
the same group (member order: static members by instance id, then dynamic
members by member id), since a group may mix clients. The sticky assignors
are checked for the properties they promise: every partition to exactly
one subscribed member, balance, stickiness, and (cooperative) that a
partition never moves without first being revoked.
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Sequence, Set

import pytest
from hypothesis import given, settings, strategies as st

from kafka import errors
from kafka.consumer.group.assignors import (
    CooperativeStickyAssignor, MemberSubscription, RangeAssignor, RoundRobinAssignor, StickyAssignor, lookup,
    lookup_all, rebalance_protocol)
from kafka.consumer.group.assignors.sticky import (
    decode_cooperative_user_data, decode_sticky_user_data, encode_cooperative_user_data, encode_sticky_user_data)
from kafka.structs import TopicPartition as TP


def tps(spec: str) -> List[TP]:
    """``"t0p0 t1p2"`` -> [TP("t0", 0), TP("t1", 2)]."""
    out = []
    for item in spec.split():
        topic, _, part = item.rpartition("p")
        out.append(TP(topic, int(part)))
    return sorted(out)


def subs(**members: Sequence[str]) -> Dict[str, MemberSubscription]:
    return {m: MemberSubscription(tuple(topics)) for m, topics in members.items()}


# -- range ----------------------------------------------------------------------------------------


def test_range_java_doc_example():
    # RangeAssignor javadoc: C0, C1; t0, t1 with 3 partitions each.
    got = RangeAssignor().assign({"t0": 3, "t1": 3}, subs(C0=["t0", "t1"], C1=["t0", "t1"]))
    assert got == {"C0": tps("t0p0 t0p1 t1p0 t1p1"), "C1": tps("t0p2 t1p2")}


def test_range_one_consumer_cases():
    assert RangeAssignor().assign({}, subs(c=[])) == {"c": []}
    assert RangeAssignor().assign({"other": 3}, subs(c=["missing"])) == {"c": []}
    assert RangeAssignor().assign({"topic": 3, "other": 3}, subs(c=["topic"])) == {"c": tps("topicp0 topicp1 topicp2")}
    assert RangeAssignor().assign({"t1": 1, "t2": 2}, subs(c=["t1", "t2"])) == {"c": tps("t1p0 t2p0 t2p1")}


def test_range_two_consumers_small_topics():
    assert RangeAssignor().assign({"t": 1}, subs(c1=["t"], c2=["t"])) == {"c1": tps("tp0"), "c2": []}
    assert RangeAssignor().assign({"t": 2}, subs(c1=["t"], c2=["t"])) == {"c1": tps("tp0"), "c2": tps("tp1")}


def test_range_mixed_subscriptions():
    # RangeAssignorTest.testMultipleConsumersMixedTopics
    got = RangeAssignor().assign({"t1": 3, "t2": 2}, subs(c1=["t1"], c2=["t1", "t2"], c3=["t1"]))
    assert got == {"c1": tps("t1p0"), "c2": tps("t1p1 t2p0 t2p1"), "c3": tps("t1p2")}


def test_range_uneven_split_first_members_get_more():
    got = RangeAssignor().assign({"t": 7}, subs(a=["t"], b=["t"], c=["t"]))
    assert got == {"a": tps("tp0 tp1 tp2"), "b": tps("tp3 tp4"), "c": tps("tp5 tp6")}


def test_range_static_members_first_by_instance_id():
    members = {
        "a-dynamic": MemberSubscription(("t",)),
        "z-static": MemberSubscription(("t",), group_instance_id="instance-1"),
        "m-static": MemberSubscription(("t",), group_instance_id="instance-2"),
    }
    got = RangeAssignor().assign({"t": 3}, members)
    assert got == {"z-static": tps("tp0"), "m-static": tps("tp1"), "a-dynamic": tps("tp2")}
    # A restart gives the static members new member ids; the assignment stays.
    restarted = {"b-new": members["z-static"], "a-new": members["m-static"], "a-dynamic": members["a-dynamic"]}
    again = RangeAssignor().assign({"t": 3}, restarted)
    assert again == {"b-new": tps("tp0"), "a-new": tps("tp1"), "a-dynamic": tps("tp2")}


# -- round robin ----------------------------------------------------------------------------------


def test_roundrobin_java_doc_examples():
    rr = RoundRobinAssignor()
    assert rr.assign({"t0": 3, "t1": 3}, subs(C0=["t0", "t1"], C1=["t0", "t1"])) == {
        "C0": tps("t0p0 t0p2 t1p1"), "C1": tps("t0p1 t1p0 t1p2")}
    # The javadoc's uneven subscriptions.
    assert rr.assign({"t0": 1, "t1": 2, "t2": 3}, subs(C0=["t0"], C1=["t0", "t1"], C2=["t0", "t1", "t2"])) == {
        "C0": tps("t0p0"), "C1": tps("t1p0"), "C2": tps("t1p1 t2p0 t2p1 t2p2")}


def test_roundrobin_mixed_subscriptions():
    # RoundRobinAssignorTest.testMultipleConsumersMixedTopics
    got = RoundRobinAssignor().assign({"t1": 3, "t2": 2}, subs(c1=["t1"], c2=["t1", "t2"], c3=["t1"]))
    assert got == {"c1": tps("t1p0"), "c2": tps("t1p1 t2p0 t2p1"), "c3": tps("t1p2")}


def test_roundrobin_static_member_comes_first():
    # RoundRobinAssignorTest.testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions, with member
    # ids chosen so that plain member-id order would be the other way round.
    members = {"consumer-b": MemberSubscription(("t1", "t2"), group_instance_id="instance1"),
               "consumer-a": MemberSubscription(("t1", "t2"))}
    got = RoundRobinAssignor().assign({"t1": 3, "t2": 3}, members)
    assert got == {"consumer-b": tps("t1p0 t1p2 t2p1"), "consumer-a": tps("t1p1 t2p0 t2p2")}


def test_assignors_accept_cluster_metadata():
    class Cluster:
        def partitions_for_topic(self, topic):
            return {"t": {0, 1, 2, 3}}.get(topic)

    assert RangeAssignor().assign(Cluster(), {"a": (["t"], [], None), "b": (["t", "gone"], [], None)}) == {
        "a": tps("tp0 tp1"), "b": tps("tp2 tp3")}


# -- sticky ---------------------------------------------------------------------------------------


def test_sticky_java_doc_example():
    # StickyAssignor javadoc: C0..C2 subscribed to t0..t3 (2 partitions each), then C1 leaves.
    topics = ["t0", "t1", "t2", "t3"]
    parts = {t: 2 for t in topics}
    first = StickyAssignor().assign(parts, subs(C0=topics, C1=topics, C2=topics))
    assert first == {"C0": tps("t0p0 t1p1 t3p0"), "C1": tps("t0p1 t2p0 t3p1"), "C2": tps("t1p0 t2p1")}
    members = {m: MemberSubscription(tuple(topics), user_data=encode_sticky_user_data(first[m], 1))
               for m in ("C0", "C2")}
    second = StickyAssignor().assign(parts, members)
    assert second == {"C0": tps("t0p0 t1p1 t3p0 t2p0"), "C2": tps("t1p0 t2p1 t0p1 t3p1")}


def test_sticky_user_data_layouts():
    parts = tps("a0p1 a0p0 b1p3")
    data = encode_sticky_user_data(parts, 7)
    assert decode_sticky_user_data(data) == (sorted(parts), 7)
    # v0 (no generation), as older Java clients wrote it, still reads.
    v0 = data[:-4]
    assert decode_sticky_user_data(v0) == (sorted(parts), -1)
    assert decode_sticky_user_data(None) == ([], -1)
    assert decode_sticky_user_data(b"\x01") == ([], -1)
    assert decode_cooperative_user_data(encode_cooperative_user_data(12)) == 12
    assert encode_cooperative_user_data(12) == b"\x00\x00\x00\x0c"


def test_sticky_metadata_remembers_previous_assignment():
    assignor = StickyAssignor()
    assert assignor.metadata(["t"], []) is None
    assignor.on_assignment(tps("tp1 tp0"), 5)
    assert decode_sticky_user_data(assignor.metadata(["t"], [])) == (tps("tp0 tp1"), 5)


def test_sticky_claims_from_newest_generation_win():
    parts = {"t": 4}
    members = {
        "old": MemberSubscription(("t",), user_data=encode_sticky_user_data(tps("tp0 tp1"), 3)),
        "new": MemberSubscription(("t",), user_data=encode_sticky_user_data(tps("tp1 tp2"), 4)),
    }
    got = StickyAssignor().assign(parts, members)
    assert TP("t", 1) in got["new"] and TP("t", 0) in got["old"]
    assert sorted(got["old"] + got["new"]) == tps("tp0 tp1 tp2 tp3")


def test_cooperative_sticky_holds_back_moving_partitions():
    parts = {"t": 6}
    owned = {"a": tps("tp0 tp1 tp2"), "b": tps("tp3 tp4 tp5")}
    members = {m: MemberSubscription(("t",), tuple(owned.get(m, ())), generation_id=3) for m in ("a", "b", "c")}
    round1 = CooperativeStickyAssignor().assign(parts, members)
    # a and b keep two each; c gets nothing yet: its partitions must be revoked first.
    assert len(round1["a"]) == 2 and set(round1["a"]) <= set(owned["a"])
    assert len(round1["b"]) == 2 and set(round1["b"]) <= set(owned["b"])
    assert round1["c"] == []
    members2 = {m: MemberSubscription(("t",), tuple(round1[m]), generation_id=4) for m in round1}
    round2 = CooperativeStickyAssignor().assign(parts, members2)
    assert round2["a"] == round1["a"] and round2["b"] == round1["b"]
    assert sorted(round2["c"]) == sorted(set(tps("tp0 tp1 tp2 tp3 tp4 tp5")) - set(round1["a"]) - set(round1["b"]))


def test_lookup_and_protocols():
    assert isinstance(lookup("range"), RangeAssignor)
    assert isinstance(lookup("org.apache.kafka.clients.consumer.CooperativeStickyAssignor"), CooperativeStickyAssignor)
    assert isinstance(lookup(RoundRobinAssignor), RoundRobinAssignor)
    custom = StickyAssignor()
    assert lookup(custom) is custom
    with pytest.raises(errors.KafkaConfigurationError):
        lookup("nope")
    with pytest.raises(errors.KafkaConfigurationError):
        lookup_all(["range", "range"])
    assert rebalance_protocol(lookup_all(["cooperative-sticky"])) == "cooperative"
    # A mixed list (the upgrade path) behaves eagerly, as in Java.
    assert rebalance_protocol(lookup_all(["cooperative-sticky", "range"])) == "eager"
    assert rebalance_protocol(lookup_all("range")) == "eager"


# -- properties -----------------------------------------------------------------------------------

TOPICS = ["a", "b", "c", "d"]


@st.composite
def groups(draw, same_subscription: bool = False):
    counts = {t: draw(st.integers(0, 7)) for t in draw(st.lists(st.sampled_from(TOPICS), min_size=1, unique=True))}
    n = draw(st.integers(1, 6))
    members = {}
    topics_all = sorted(counts)
    for i in range(n):
        if same_subscription:
            topics = topics_all
        else:
            topics = draw(st.lists(st.sampled_from(topics_all + ["missing"]), unique=True))
        static = draw(st.booleans())
        members["m%02d" % draw(st.integers(0, 99))] = MemberSubscription(
            tuple(topics), group_instance_id="i%d" % i if static else None)
    return counts, members


def all_partitions(counts: Mapping[str, int], members: Mapping[str, MemberSubscription]) -> Set[TP]:
    wanted = set().union(*(set(s.topics) for s in members.values()))
    return {TP(t, p) for t, n in counts.items() if t in wanted for p in range(n)}


def check_valid(counts, members, assignment, complete=True):
    assert set(assignment) == set(members)
    seen: List[TP] = [tp for parts in assignment.values() for tp in parts]
    assert len(seen) == len(set(seen)), "a partition was assigned twice"
    for member_id, parts in assignment.items():
        for tp in parts:
            assert tp.topic in members[member_id].topics, "%s got %s without subscribing to it" % (member_id, tp)
    if complete:
        assert set(seen) == all_partitions(counts, members)


def no_single_move_improves(members, assignment):
    load = {m: len(p) for m, p in assignment.items()}
    for owner, parts in assignment.items():
        for tp in parts:
            for other, sub in members.items():
                if tp.topic in sub.topics:
                    assert load[owner] - load[other] <= 1, (owner, other, tp)


ASSIGNORS = [RangeAssignor, RoundRobinAssignor, StickyAssignor, CooperativeStickyAssignor]


@pytest.mark.parametrize("cls", ASSIGNORS, ids=lambda c: c.name)
@settings(max_examples=150, deadline=None)
@given(group=groups())
def test_every_partition_once_to_a_subscriber(cls, group):
    counts, members = group
    check_valid(counts, members, cls().assign(counts, members))


@pytest.mark.parametrize("cls", [RoundRobinAssignor, StickyAssignor, CooperativeStickyAssignor], ids=lambda c: c.name)
@settings(max_examples=150, deadline=None)
@given(group=groups(same_subscription=True))
def test_balanced_within_one_when_subscriptions_are_equal(cls, group):
    counts, members = group
    loads = [len(p) for p in cls().assign(counts, members).values()]
    assert max(loads) - min(loads) <= 1


@settings(max_examples=150, deadline=None)
@given(group=groups(same_subscription=True))
def test_range_balanced_per_topic(group):
    counts, members = group
    got = RangeAssignor().assign(counts, members)
    for topic in counts:
        per = [sum(1 for tp in parts if tp.topic == topic) for parts in got.values()]
        assert max(per) - min(per) <= 1


@settings(max_examples=200, deadline=None)
@given(group=groups())
def test_sticky_no_single_move_improves_balance(group):
    counts, members = group
    no_single_move_improves(members, StickyAssignor().assign(counts, members))


@settings(max_examples=200, deadline=None)
@given(group=groups(same_subscription=True), data=st.data())
def test_sticky_keeps_what_it_can_when_members_change(group, data):
    counts, members = group
    first = StickyAssignor().assign(counts, members)
    survivors = data.draw(st.lists(st.sampled_from(sorted(members)), unique=True, min_size=1))
    joined = data.draw(st.integers(0, 3))
    members2 = {m: MemberSubscription(members[m].topics, user_data=encode_sticky_user_data(first[m], 1))
                for m in survivors}
    for i in range(joined):
        members2["new%d" % i] = MemberSubscription(members[survivors[0]].topics)
    second = StickyAssignor().assign(counts, members2)
    check_valid(counts, members2, second)
    loads = [len(p) for p in second.values()]
    assert max(loads) - min(loads) <= 1
    total = len(all_partitions(counts, members2))
    floor = total // len(members2)
    for m in survivors:
        kept = len(set(first[m]) & set(second[m]))
        assert kept >= min(len(first[m]), floor), (m, first[m], second[m])
    if not joined and set(survivors) == set(members):
        assert second == first  # nothing changed: nothing moves


@settings(max_examples=200, deadline=None)
@given(group=groups(), data=st.data())
def test_cooperative_two_phase_rebalance(group, data):
    counts, members = group
    start = CooperativeStickyAssignor().assign(counts, members)
    # Some members leave, some join; owners report what they hold.
    survivors = data.draw(st.lists(st.sampled_from(sorted(members)), unique=True, min_size=1))
    joined = data.draw(st.integers(0, 3))
    members1 = {m: MemberSubscription(members[m].topics, tuple(start[m]), generation_id=1) for m in survivors}
    for i in range(joined):
        members1["new%d" % i] = MemberSubscription(members[survivors[0]].topics, generation_id=-1)
    round1 = CooperativeStickyAssignor().assign(counts, members1)
    check_valid(counts, members1, round1, complete=False)
    for m, parts in round1.items():
        for tp in parts:  # nothing arrives while someone else still holds it
            assert all(tp not in members1[o].owned_partitions for o in members1 if o != m)
    # Each member revokes what it lost and rejoins with what it kept.
    members2 = {m: sub._replace(owned_partitions=tuple(round1[m]), generation_id=2) for m, sub in members1.items()}
    round2 = CooperativeStickyAssignor().assign(counts, members2)
    check_valid(counts, members2, round2)
    for m in round2:
        assert set(round1[m]) <= set(round2[m]), "the follow-up rebalance took partitions away"
    no_single_move_improves(members2, round2)


def test_plain_tuples_accepted():
    got = RoundRobinAssignor().assign({"t": 2}, {"a": (["t"], [], None), "b": (["t"], [], b"")})
    assert got == {"a": tps("tp0"), "b": tps("tp1")}
