"""Consumer groups against librdkafka's mock cluster: joins, rebalances, failures, offsets.

Each member is a :class:`ConsumerCoordinator` over its own client and
:class:`SubscriptionState`, driven by a thread that calls ``poll`` the way
a consumer's poll loop does; test code that must run in that thread
(commits, seeks) goes through :meth:`Member.call`.

What the mock does differently from Kafka, and how the tests live with it:

- JoinGroup v6+, SyncGroup v4+ (flexible versions) and LeaveGroup v3+ are
  advertised but not implemented (the connection is closed, or the answer
  cannot be decoded): the ``cluster`` fixture narrows the advertised
  ranges to JoinGroup v0-5, SyncGroup v0-3, LeaveGroup v0-2, as an older
  broker would.
- It completes a generation the moment every member has an assignment,
  i.e. as soon as the leader's SyncGroup arrives; a follower whose
  SyncGroup comes later is answered INVALID_REQUEST (Kafka answers it
  with its assignment). Followers send SyncGroup straight from the
  JoinGroup answer and the leader refreshes metadata before assigning,
  which makes this rare; a refused follower rejoins. To keep the tests
  deterministic, the leader's assignor pauses 0.2 s (:class:`SlowLeader`)
  except in the test of that fallback.
- A member joining a stable group makes it wait ``session_timeout_ms -
  1 s`` for the others to rejoin, so rebalances take a second or two with
  the session timeout used here.
- The classic group has no static membership (a restarted static member
  is a new member); the KIP-848 group does, and is tested for it.
"""

from __future__ import annotations

import ctypes
import queue
import threading
import time
from typing import Any, Callable, List, Optional, Sequence, Set, Tuple

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.consumer.group import CommitFailedError, ConsumerCoordinator, GroupMetadata
from kafka.consumer.subscription import SubscriptionState
from kafka.structs import MemberState, OffsetAndMetadata, TopicPartition
from test.support import waiting
from test.support.groups import narrow_group_versions

from .grp_support import Recorder, SlowLeader

TOPIC = "events"
ALL = {TopicPartition(TOPIC, p) for p in range(6)}
SESSION_MS = 2500
HEARTBEAT_MS = 250

# Error codes used with push_request_errors.
COORDINATOR_LOAD_IN_PROGRESS = 14
NOT_COORDINATOR = 16
ILLEGAL_GENERATION = 22
UNKNOWN_MEMBER_ID = 25
REBALANCE_IN_PROGRESS = 27
MEMBER_ID_REQUIRED = 79


@pytest.fixture
def cluster(mock_cluster):
    return narrow_group_versions(mock_cluster, TOPIC, 6)


def set_consumer_group_timing(cluster: Any, session_ms: int, heartbeat_ms: int) -> None:
    """The KIP-848 session timeout and heartbeat interval of the mock's brokers (they decide both)."""
    lib = __import__("kafka.testing.mock_cluster", fromlist=["load_librdkafka"]).load_librdkafka()
    for name, value in (("rd_kafka_mock_set_group_consumer_session_timeout_ms", session_ms),
                        ("rd_kafka_mock_set_group_consumer_heartbeat_interval_ms", heartbeat_ms)):
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = [ctypes.c_void_p, ctypes.c_int], None
        fn(cluster._handle(), value)


class Member:
    """A coordinator driven by its own poll-loop thread."""

    def __init__(self, cluster: Any, group: str = "g", topics: Sequence[str] = (TOPIC,), pattern: Optional[str] = None,
                 strategy: str = "range", listener: Any = None, client_config: Optional[dict] = None,
                 **config: Any) -> None:
        self.client = KafkaClient(bootstrap_servers=cluster.bootstrap_servers, **(client_config or {}))
        self.subscription = SubscriptionState("earliest")
        self.subscription.subscribe(() if pattern else topics, pattern=pattern, listener=listener)
        self.listener = listener
        config.setdefault("session_timeout_ms", SESSION_MS)
        config.setdefault("heartbeat_interval_ms", HEARTBEAT_MS)
        if config.get("group_protocol", "classic") == "classic":
            config.setdefault("partition_assignment_strategy", [SlowLeader(strategy)])
        self.coordinator = ConsumerCoordinator(self.client, self.subscription, group_id=group, **config)
        self.errors: List[BaseException] = []
        self._calls: "queue.Queue[Tuple[Callable[[], Any], queue.Queue]]" = queue.Queue()
        self._polling = threading.Event()
        self._polling.set()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True, name="member-%s" % group)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            while not self._calls.empty():
                fn, reply = self._calls.get()
                try:
                    reply.put((True, fn()))
                except BaseException as exc:  # noqa: BLE001 - handed to the caller
                    reply.put((False, exc))
            if not self._polling.is_set():
                self._polling.wait(0.02)  # returns at resume(); wakes meanwhile for calls
                continue
            try:
                self.coordinator.poll(100)
            except errors.KafkaError as exc:
                self.errors.append(exc)
                time.sleep(0.05)
            time.sleep(0.005)

    def call(self, fn: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Run ``fn`` in the member's poll thread (between polls) and return its result."""
        reply: "queue.Queue" = queue.Queue()
        self._calls.put((fn, reply))
        ok, value = reply.get(timeout=timeout)
        if not ok:
            raise value
        return value

    def pause(self) -> None:
        """Stop calling poll (the heartbeat thread keeps running)."""
        self._polling.clear()

    def resume(self) -> None:
        self._polling.set()

    @property
    def assignment(self) -> Set[TopicPartition]:
        return self.subscription.assigned_partitions()

    def stable(self) -> bool:
        return self.coordinator.is_stable()

    def stop(self) -> None:
        self._stop = True
        self._thread.join(10)

    def crash(self) -> None:
        """Vanish without leaving: no more polls, heartbeats or connections."""
        self.stop()
        self.coordinator._stop_heartbeat_thread()
        self.client.close()

    def close(self, timeout_ms: float = 5000) -> None:
        self.stop()
        try:
            self.coordinator.close(timeout_ms=timeout_ms)
        finally:
            self.client.close()


@pytest.fixture
def members():
    """Start members with ``members(cluster, **kw)``; all are closed after the test."""
    started: List[Member] = []

    def start(cluster: Any, **kwargs: Any) -> Member:
        m = Member(cluster, **kwargs)
        started.append(m)
        return m

    yield start
    for m in started:
        try:
            if not m._stop:
                m.close(timeout_ms=2000)
        except Exception:  # noqa: BLE001 - best effort
            pass


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> float:
    """:func:`test.support.waiting.wait_for`, looking often: some tests time what they wait for."""
    return waiting.wait_for(condition, timeout, what, interval=0.02)


def auto_commit_rounds_since(member: Member, since: float, rounds: int = 2) -> bool:
    """Whether ``member`` considered auto-committing ``rounds`` times since ``since`` and no commit is in flight."""
    co = member.coordinator
    interval = co.config["auto_commit_interval_ms"] / 1000.0
    # Each round sets the next one an interval ahead of when it ran.
    return co._next_auto_commit > since + rounds * interval and (co._auto_commit is None or co._auto_commit.is_done)


def settled(group: Sequence[Member], partitions: Set[TopicPartition] = ALL) -> bool:
    """Every member stable and every partition owned by exactly one of them."""
    if not all(m.stable() for m in group):
        return False
    owned = [tp for m in group for tp in m.assignment]
    return len(owned) == len(set(owned)) and set(owned) == partitions


def no_errors(*group: Member) -> None:
    for m in group:
        assert not m.errors, m.errors


# -- joining and splitting -----------------------------------------------------------------------


def test_one_member_gets_every_partition(cluster, members):
    m = members(cluster)
    wait_for(lambda: settled([m]), 10, "the first join")
    assert m.assignment == ALL
    assert m.coordinator.generation >= 0 and m.coordinator.member_id
    assert not m.coordinator.need_rejoin()
    no_errors(m)


def test_three_members_split_the_partitions(cluster, members):
    group = [members(cluster) for _ in range(3)]
    wait_for(lambda: settled(group), 20, "three members to settle")
    assert sorted(len(m.assignment) for m in group) == [2, 2, 2]
    assert len({m.coordinator.generation for m in group}) == 1
    no_errors(*group)


@pytest.mark.slow
def test_groups_settle_without_a_slow_leader(cluster, members):
    # Plain assignor names: followers may now be refused by the mock (see
    # the module notes) and must rejoin until everyone got an assignment.
    group = [members(cluster, partition_assignment_strategy=["range"]) for _ in range(3)]
    wait_for(lambda: settled(group), 30, "three members to settle")
    no_errors(*group)


@pytest.mark.slow
def test_member_that_stops_heartbeating_is_replaced(cluster, members):
    group = [members(cluster) for _ in range(3)]
    wait_for(lambda: settled(group), 20, "three members to settle")
    dead = group.pop()
    orphaned = dead.assignment
    dead.crash()
    # Session timeout, plus the mock's 1 s session check and its rebalance wait:
    # about 3 s; the limit only guards against a hang.
    took = wait_for(lambda: settled(group), 15, "the others to take over")
    assert orphaned <= set().union(*(m.assignment for m in group))
    print("partitions of a crashed member taken over after %.1f s (session timeout %.1f s)" % (took, SESSION_MS / 1000))
    no_errors(*group)


def test_eager_rebalance_revokes_everything_first(cluster, members):
    first = members(cluster, listener=Recorder())
    wait_for(lambda: settled([first]), 10, "the first member")
    # Eager: the first join too starts with a revoke, of nothing, as with kafka-python.
    assert first.listener.events == [("revoked", set()), ("assigned", ALL)]
    second = members(cluster, listener=Recorder())
    wait_for(lambda: settled([first, second]), 20, "two members")
    assert first.listener.events[2] == ("revoked", ALL)
    assert first.listener.events[-1] == ("assigned", first.assignment)
    assert second.listener.events[-1] == ("assigned", second.assignment)
    no_errors(first, second)


@pytest.mark.slow
def test_cooperative_sticky_revokes_only_partitions_that_move(cluster, members):
    a = members(cluster, strategy="cooperative-sticky", listener=Recorder())
    b = members(cluster, strategy="cooperative-sticky", listener=Recorder())
    wait_for(lambda: settled([a, b]), 20, "two members")
    before = {"a": set(a.assignment), "b": set(b.assignment)}
    assert sorted(len(p) for p in before.values()) == [3, 3]
    mark = {"a": len(a.listener.events), "b": len(b.listener.events)}
    c = members(cluster, strategy="cooperative-sticky", listener=Recorder())
    wait_for(lambda: settled([a, b, c]), 20, "three members")
    assert sorted(len(m.assignment) for m in (a, b, c)) == [2, 2, 2]
    moved: Set[TopicPartition] = set()
    for name, m in (("a", a), ("b", b)):
        later = m.listener.events[mark[name]:]
        revoked = set().union(*[p for k, p in later if k == "revoked"]) if later else set()
        # Only what left is revoked; what stays was never given up.
        assert revoked == before[name] - m.assignment
        assert m.assignment <= before[name]
        assert "lost" not in m.listener.kinds()
        moved |= revoked
    assert moved == c.assignment
    # The newcomer only received partitions once their owners had revoked them.
    assert [k for k, p in c.listener.events if p] == ["assigned"]
    no_errors(a, b, c)


def test_pattern_subscription(cluster, members):
    cluster.create_topic("metrics-a", 2)
    cluster.create_topic("metrics-b", 3)
    m = members(cluster, pattern=r"metrics-.*")
    expected = {TopicPartition("metrics-a", p) for p in range(2)} | {TopicPartition("metrics-b", p) for p in range(3)}
    wait_for(lambda: settled([m], expected), 10, "the pattern's partitions")
    assert m.subscription.subscription == {"metrics-a", "metrics-b"}
    no_errors(m)


def test_pattern_subscription_picks_up_new_topics(cluster, members):
    cluster.create_topic("metrics-a", 2)
    m = members(cluster, pattern=r"metrics-.*", client_config={"metadata_max_age_ms": 300}, listener=Recorder())
    first = {TopicPartition("metrics-a", p) for p in range(2)}
    wait_for(lambda: settled([m], first), 10, "the pattern's partitions")
    cluster.create_topic("metrics-b", 2)
    both = first | {TopicPartition("metrics-b", p) for p in range(2)}
    wait_for(lambda: settled([m], both), 15, "the new topic's partitions (a rebalance)")
    no_errors(m)


# -- offsets -------------------------------------------------------------------------------------


def test_committed_offsets_round_trip(cluster, members):
    m = members(cluster, enable_auto_commit=False)
    wait_for(lambda: settled([m]), 10, "the join")
    co = m.coordinator
    offsets = {TopicPartition(TOPIC, 0): OffsetAndMetadata(42, "meta", -1), TopicPartition(TOPIC, 3): 7}
    m.call(lambda: co.commit_offsets_sync(offsets, 5000))
    found = m.call(lambda: co.fetch_committed_offsets(ALL, 5000))
    assert found[TopicPartition(TOPIC, 0)].offset == 42 and found[TopicPartition(TOPIC, 0)].metadata == "meta"
    assert found[TopicPartition(TOPIC, 3)].offset == 7
    assert found[TopicPartition(TOPIC, 1)] is None

    # Positions come from the committed offsets; the rest ask for a reset.
    m.call(lambda: co.refresh_committed_offsets(ALL, 5000))
    assert m.subscription.position(TopicPartition(TOPIC, 0)) == 42
    assert m.subscription.state(TopicPartition(TOPIC, 0)).committed.offset == 42
    assert m.subscription.partitions_needing_reset() == {TopicPartition(TOPIC, p): "earliest" for p in (1, 2, 4, 5)}

    done = []
    future = m.call(lambda: co.commit_offsets_async({TopicPartition(TOPIC, 1): 9},
                                                    lambda offsets, exc: done.append((offsets, exc))))
    wait_for(lambda: done, 5, "the commit callback (run by a later poll)")
    assert future.succeeded() and done == [({TopicPartition(TOPIC, 1): OffsetAndMetadata(9, "")}, None)]
    assert m.call(lambda: co.fetch_committed_offsets([TopicPartition(TOPIC, 1)], 5000)) == {
        TopicPartition(TOPIC, 1): OffsetAndMetadata(9, "", found[TopicPartition(TOPIC, 3)].leader_epoch)}
    no_errors(m)


def test_commits_are_ordered_and_retries_do_not_go_backwards(cluster, members):
    m = members(cluster, enable_auto_commit=False)
    wait_for(lambda: settled([m]), 10, "the join")
    co = m.coordinator
    tp = TopicPartition(TOPIC, 2)
    futures = []

    def burst():
        # Asynchronous commits of rising offsets, one failing on the way,
        # then a synchronous one that the coordinator first refuses.
        for offset in range(1, 6):
            futures.append(co.commit_offsets_async({tp: offset * 10}))
        cluster.push_request_errors("OffsetCommit", COORDINATOR_LOAD_IN_PROGRESS)
        co.commit_offsets_sync({tp: 100}, 5000)
        futures.append(co.commit_offsets_async({tp: 110}))
        co.commit_offsets_sync({}, 5000)  # waits for the asynchronous ones

    m.call(burst)
    assert all(f.is_done for f in futures)
    assert m.call(lambda: co.fetch_committed_offsets([tp], 5000))[tp].offset == 110
    no_errors(m)


def test_auto_commit_does_not_overwrite_a_newer_owner(cluster, members):
    a = members(cluster, auto_commit_interval_ms=200)
    wait_for(lambda: settled([a]), 10, "the first member")
    a.call(lambda: [a.subscription.seek(tp, 5) for tp in ALL])
    wait_for(lambda: a.call(lambda: all(o is not None and o.offset == 5 for o in
                                        a.coordinator.fetch_committed_offsets(ALL, 5000).values())),
             5, "the auto-commit of 5")
    b = members(cluster, auto_commit_interval_ms=200)
    wait_for(lambda: settled([a, b]), 20, "two members")
    moved = set(b.assignment)
    b.call(lambda: b.coordinator.refresh_committed_offsets(moved, 5000))
    assert all(b.subscription.position(tp) == 5 for tp in moved)
    b.call(lambda: [b.subscription.seek(tp, 50) for tp in moved])
    b.call(lambda: b.coordinator.commit_offsets_sync(b.subscription.all_consumed(), 5000))
    committed_at = time.monotonic()
    wait_for(lambda: auto_commit_rounds_since(a, committed_at) and auto_commit_rounds_since(b, committed_at),
             10, "two auto-commit rounds of both members")
    committed = b.call(lambda: b.coordinator.fetch_committed_offsets(ALL, 5000))
    assert {tp: o.offset for tp, o in committed.items()} == {tp: 50 if tp in moved else 5 for tp in ALL}
    no_errors(a, b)


def test_close_commits_and_leaves(cluster, members):
    a = members(cluster, strategy="roundrobin")
    b = members(cluster, strategy="roundrobin")
    wait_for(lambda: settled([a, b]), 20, "two members")
    mine = set(b.assignment)
    b.call(lambda: [b.subscription.seek(tp, 3) for tp in mine])
    cluster.start_request_tracking()
    b.close()
    assert cluster.requests("LeaveGroup"), "a dynamic member leaves on close"
    # A LeaveGroup lets the other member take over well before a session timeout.
    took = wait_for(lambda: settled([a]), 10, "the takeover after LeaveGroup")
    committed = a.call(lambda: a.coordinator.fetch_committed_offsets(mine, 5000))
    assert {o.offset for o in committed.values()} == {3}
    print("takeover after a LeaveGroup: %.1f s" % took)
    no_errors(a)


# -- injected errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("code", [NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, REBALANCE_IN_PROGRESS,
                                  UNKNOWN_MEMBER_ID, MEMBER_ID_REQUIRED])
def test_join_group_errors_are_recovered(cluster, members, code):
    cluster.push_request_errors("JoinGroup", code, code)
    m = members(cluster)
    wait_for(lambda: settled([m]), 15, "a join after JoinGroup errors %d" % code)
    no_errors(m)


@pytest.mark.slow
@pytest.mark.parametrize("code", [NOT_COORDINATOR, REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID])
def test_sync_group_errors_are_recovered(cluster, members, code):
    cluster.push_request_errors("SyncGroup", code)
    m = members(cluster)
    wait_for(lambda: settled([m]), 15, "a join after a SyncGroup error %d" % code)
    no_errors(m)


@pytest.mark.slow
@pytest.mark.parametrize("code", [NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, REBALANCE_IN_PROGRESS,
                                  ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID])
def test_heartbeat_errors_are_recovered(cluster, members, code):
    m = members(cluster, listener=Recorder())
    wait_for(lambda: settled([m]), 10, "the join")
    generation = m.coordinator.generation
    cluster.start_request_tracking()
    cluster.push_request_errors("Heartbeat", code, code)
    wait_for(lambda: len(cluster.requests("Heartbeat")) >= 3, 15, "heartbeats after the errors")
    wait_for(lambda: settled([m]), 15, "a stable group again")
    if code in (NOT_COORDINATOR,):
        assert cluster.requests("FindCoordinator"), "the coordinator is looked up again"
    if code in (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID):
        assert m.coordinator.generation != generation, "the member rejoined"
    if code in (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID):
        assert ("lost", ALL) in m.listener.events  # the old generation's partitions are lost, not revoked
    # And it can commit again.
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 1}, 5000))
    no_errors(m)


@pytest.mark.parametrize("code", [NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS])
def test_offset_commit_retriable_errors_are_retried(cluster, members, code):
    m = members(cluster, enable_auto_commit=False)
    wait_for(lambda: settled([m]), 10, "the join")
    cluster.push_request_errors("OffsetCommit", code, code)
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 11}, 10000))
    cluster.push_request_errors("OffsetFetch", code)
    assert m.call(lambda: m.coordinator.fetch_committed_offsets(ALL, 10000))[TopicPartition(TOPIC, 0)].offset == 11
    no_errors(m)


@pytest.mark.slow
@pytest.mark.parametrize("code,raised", [(REBALANCE_IN_PROGRESS, errors.RebalanceInProgressError),
                                         (ILLEGAL_GENERATION, CommitFailedError),
                                         (UNKNOWN_MEMBER_ID, CommitFailedError)])
def test_offset_commit_after_a_rebalance_fails_then_recovers(cluster, members, code, raised):
    m = members(cluster, enable_auto_commit=False)
    wait_for(lambda: settled([m]), 10, "the join")
    generation = m.coordinator.generation
    cluster.push_request_errors("OffsetCommit", code)
    with pytest.raises(raised):
        m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 12}, 5000))
    wait_for(lambda: settled([m]) and m.coordinator.generation != generation, 15, "the rejoin")
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 12}, 5000))
    no_errors(m)


def test_coordinator_briefly_down(cluster, members):
    cluster.set_coordinator("group", "g", 2)
    m = members(cluster)
    wait_for(lambda: settled([m]), 10, "the join")
    generation = m.coordinator.generation
    cluster.broker_down(2)
    time.sleep(SESSION_MS / 2000.0)  # shorter than the session timeout: the membership survives
    cluster.broker_up(2)
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 1}, 10000))
    assert settled([m]) and m.coordinator.generation == generation
    no_errors(m)


@pytest.mark.slow
def test_coordinator_down_longer_than_the_session(cluster, members):
    cluster.set_coordinator("group", "g", 2)
    m = members(cluster, listener=Recorder())
    wait_for(lambda: settled([m]), 10, "the join")
    generation = m.coordinator.generation
    cluster.broker_down(2)
    time.sleep(SESSION_MS / 1000.0 + 1.5)  # down past the session timeout and the mock's 1 s session check
    cluster.broker_up(2)
    # The coordinator dropped the member meanwhile: it finds out, loses its
    # partitions and joins again.
    wait_for(lambda: settled([m]) and m.coordinator.generation != generation, 20, "a new generation")
    assert "lost" in m.listener.kinds()
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 0): 1}, 10000))
    no_errors(m)


# -- poll interval, static members, leaving ------------------------------------------------------


@pytest.mark.slow
def test_poll_interval_exceeded_leaves_then_rejoins(cluster, members):
    a = members(cluster)
    b = members(cluster, max_poll_interval_ms=1500, listener=Recorder())
    wait_for(lambda: settled([a, b]), 20, "two members")
    b.pause()  # the application stops polling; heartbeats go on
    wait_for(lambda: a.assignment == ALL and a.stable(), 15, "the other member to take everything")
    b.resume()
    wait_for(lambda: settled([a, b]), 20, "two members again")
    assert "lost" in b.listener.kinds()
    no_errors(a, b)


def test_unsubscribe_leaves_the_group(cluster, members):
    a = members(cluster)
    b = members(cluster, listener=Recorder())
    wait_for(lambda: settled([a, b]), 20, "two members")
    had = set(b.assignment)
    cluster.start_request_tracking()
    b.call(b.subscription.unsubscribe)
    # It leaves (rather than letting its session expire), so the takeover needs no session timeout.
    wait_for(lambda: settled([a]), 10, "the remaining member to take everything")
    assert cluster.requests("LeaveGroup"), "unsubscribe() sends a LeaveGroup"
    assert b.subscription.assigned_partitions() == set()
    assert had  # (the listener was dropped with the subscription)
    no_errors(a, b)


@pytest.mark.slow
def test_static_member_restart_keeps_its_partitions(cluster, members):
    a = members(cluster, group_instance_id="instance-a")
    b = members(cluster, group_instance_id="instance-b")
    wait_for(lambda: settled([a, b]), 20, "two static members")
    assert a.coordinator.group_metadata().group_instance_id == "instance-a"
    before = {"a": set(a.assignment), "b": set(b.assignment)}
    cluster.start_request_tracking()
    b.close()
    assert not cluster.requests("LeaveGroup"), "a static member does not leave on close"
    restarted = members(cluster, group_instance_id="instance-b")
    # The mock's classic groups treat the restarted instance as a new member
    # (Kafka would swap it in without a rebalance); range orders static
    # members by instance id, so each instance still gets its partitions back.
    wait_for(lambda: settled([a, restarted]) and restarted.assignment == before["b"], 20,
             "the restarted instance to get its partitions back")
    assert a.assignment == before["a"]
    no_errors(a, restarted)


def test_group_metadata(cluster, members):
    m = members(cluster)
    wait_for(lambda: settled([m]), 10, "the join")
    meta = m.coordinator.group_metadata()
    assert isinstance(meta, GroupMetadata)
    assert meta == GroupMetadata("g", m.coordinator.generation, m.coordinator.member_id, None, MemberState.STABLE)
    assert meta.generation_id >= 0 and meta.member_id
    # kafka-python 3 shows the member state on the snapshot and on the coordinator, as its strings
    assert meta.state is MemberState.STABLE and meta.state == "<stable>"
    assert m.coordinator.state is MemberState.STABLE


def test_commit_before_joining_is_refused(cluster):
    client = KafkaClient(bootstrap_servers=cluster.bootstrap_servers)
    sub = SubscriptionState()
    sub.subscribe([TOPIC])
    co = ConsumerCoordinator(client, sub, group_id="g")
    try:
        with pytest.raises(CommitFailedError):
            co.commit_offsets_sync({TopicPartition(TOPIC, 0): 1}, 5000)
    finally:
        co.close(timeout_ms=1000)
        client.close()


def test_manual_assignment_commits_without_joining(cluster):
    client = KafkaClient(bootstrap_servers=cluster.bootstrap_servers)
    sub = SubscriptionState()
    sub.assign_from_user([TopicPartition(TOPIC, 0)])
    co = ConsumerCoordinator(client, sub, group_id="manual", auto_commit_interval_ms=100)
    try:
        sub.seek(TopicPartition(TOPIC, 0), 17)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            co.poll(50)
            found = co.fetch_committed_offsets([TopicPartition(TOPIC, 0)], 5000)
            if found[TopicPartition(TOPIC, 0)] is not None:
                break
        assert found[TopicPartition(TOPIC, 0)].offset == 17  # auto-committed
        assert co.group_metadata() == GroupMetadata("manual", -1, "", None)
        assert co.state is MemberState.UNJOINED  # manual assignment never joins
    finally:
        co.close(timeout_ms=1000)
        client.close()


# -- KIP-848 ----------------------------------------------------------------------------------------


def consumer_members(cluster: Any, members: Any, n: int, **kw: Any) -> List[Member]:
    return [members(cluster, group_protocol="consumer", **kw) for _ in range(n)]


def test_kip848_join_split_and_leave(cluster, members):
    set_consumer_group_timing(cluster, 3000, 300)
    first, = consumer_members(cluster, members, 1, listener=Recorder())
    wait_for(lambda: settled([first]), 10, "the first member")
    assert first.listener.events == [("assigned", ALL)]
    assert first.coordinator.generation > 0  # the member epoch
    others = consumer_members(cluster, members, 2, listener=Recorder())
    group = [first] + others
    wait_for(lambda: settled(group), 20, "three members")
    assert sorted(len(m.assignment) for m in group) == [2, 2, 2]
    # The first member only gave up what moved, and kept the rest.
    revoked = set().union(*[p for k, p in first.listener.events if k == "revoked"])
    assert revoked == ALL - first.assignment
    leaving = group.pop()
    had = set(leaving.assignment)
    leaving.close()
    assert leaving.listener.events[-1] == ("revoked", had)  # given up on close
    took = wait_for(lambda: settled(group), 10, "the takeover after leaving")
    print("KIP-848 takeover after a leave: %.1f s" % took)
    no_errors(*group)


def test_kip848_member_that_stops_heartbeating_is_replaced(cluster, members):
    set_consumer_group_timing(cluster, 2000, 300)
    group = consumer_members(cluster, members, 2)
    wait_for(lambda: settled(group), 20, "two members")
    dead = group.pop()
    dead.crash()
    took = wait_for(lambda: settled(group), 15, "the takeover")
    print("KIP-848 takeover after a crash: %.1f s (session timeout 2.0 s)" % took)
    no_errors(*group)


def test_kip848_commits_with_the_member_epoch(cluster, members):
    set_consumer_group_timing(cluster, 3000, 300)
    m, = consumer_members(cluster, members, 1, enable_auto_commit=False)
    wait_for(lambda: settled([m]), 10, "the join")
    m.call(lambda: m.coordinator.commit_offsets_sync({TopicPartition(TOPIC, 4): 44}, 5000))
    assert m.call(lambda: m.coordinator.fetch_committed_offsets(ALL, 5000))[TopicPartition(TOPIC, 4)].offset == 44
    meta = m.coordinator.group_metadata()
    assert meta.generation_id > 0 and meta.member_id == m.coordinator.member_id
    no_errors(m)


def test_kip848_fenced_member_rejoins(cluster, members):
    set_consumer_group_timing(cluster, 3000, 300)
    m, = consumer_members(cluster, members, 1, listener=Recorder())
    wait_for(lambda: settled([m]), 10, "the join")
    cluster.push_request_errors("ConsumerGroupHeartbeat", 110)  # FENCED_MEMBER_EPOCH
    wait_for(lambda: "lost" in m.listener.kinds(), 10, "the loss to be reported")
    wait_for(lambda: settled([m]), 10, "the rejoin")
    assert m.listener.events[-1] == ("assigned", ALL)
    no_errors(m)


def test_kip848_static_member_restart_without_rebalance(cluster, members):
    set_consumer_group_timing(cluster, 5000, 300)
    a, b = (members(cluster, group_protocol="consumer", group_instance_id=i, listener=Recorder())
            for i in ("instance-a", "instance-b"))
    wait_for(lambda: settled([a, b]), 20, "two static members")
    kept = set(b.assignment)
    epoch_a = a.coordinator.generation
    events_a = len(a.listener.events)
    b.close()
    restarted = members(cluster, group_protocol="consumer", group_instance_id="instance-b", listener=Recorder())
    wait_for(lambda: settled([a, restarted]), 10, "the restarted instance")
    assert restarted.assignment == kept
    # The other member saw nothing: no revocation, no new epoch.
    assert a.listener.events[events_a:] == []
    assert a.coordinator.generation == epoch_a
    no_errors(a, restarted)


def test_kip848_refused_by_a_broker_without_it(cluster):
    cluster.set_apiversion("ConsumerGroupHeartbeat", -1, -1)
    client = KafkaClient(bootstrap_servers=cluster.bootstrap_servers)
    sub = SubscriptionState()
    sub.subscribe([TOPIC])
    co = ConsumerCoordinator(client, sub, group_id="g", group_protocol="consumer")
    try:
        with pytest.raises(errors.UnsupportedVersionError, match="group_protocol='classic'"):
            for _ in range(50):
                co.poll(100)
    finally:
        co.close(timeout_ms=1000)
        client.close()


def test_configuration_errors(cluster):
    client = KafkaClient(bootstrap_servers=cluster.bootstrap_servers)
    sub = SubscriptionState()
    try:
        with pytest.raises(errors.KafkaConfigurationError):
            ConsumerCoordinator(client, sub, group_id="g", group_protocol="nope")
        with pytest.raises(errors.KafkaConfigurationError):
            ConsumerCoordinator(client, sub, group_id="g", heartbeat_interval_ms=5000, session_timeout_ms=5000)
        with pytest.raises(errors.KafkaConfigurationError):
            ConsumerCoordinator(client, sub, group_id="g", partition_assignment_strategy=["nope"])
        with pytest.raises(errors.KafkaConfigurationError):
            ConsumerCoordinator(client, sub, group_id="")
    finally:
        client.close()
