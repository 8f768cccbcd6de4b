"""Group membership of kafka.aio.AIOKafkaConsumer against the embedded broker.

Tansu answers a JoinGroup only after about half the member's session
timeout (see test/consumer/test_group_broker.py), so the members here use a
6 s session timeout and 1 s heartbeats; a rebalance takes a few seconds.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Dict, List, Set, Tuple

import pytest

from kafka.aio import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener
from kafka.structs import TopicPartition
from test.aio.helpers import run
from test.support.topics import new_topic

GROUP_KW = dict(session_timeout_ms=6000, heartbeat_interval_ms=1000, auto_offset_reset="earliest",
                auto_commit_interval_ms=500, metadata_max_age_ms=2000)


# Tansu, the embedded broker, can hold a JoinGroup for 20 s or more on a loaded machine
# (seen with kafka-python's clients too), and a member that stops while one is held waits
# behind it: the tests below allow 120 s a run for that.


def group_name() -> str:
    return "aio-group-%s" % uuid.uuid4().hex[:8]


async def fill(bootstrap: str, topic: str, partitions: int, per_partition: int, start: int = 0) -> Set[bytes]:
    """Produce ``per_partition`` records to every partition; their values."""
    values = set()
    async with AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=2) as producer:
        for p in range(partitions):
            for i in range(start, start + per_partition):
                value = b"%d-%d" % (p, i)
                await producer.send(topic, value, partition=p)
                values.add(value)
        await producer.flush()
    return values


def member(broker: Any, group: str, *topics: str, **kw: Any) -> AIOKafkaConsumer:
    settings = dict(GROUP_KW, **kw)
    return AIOKafkaConsumer(*topics, bootstrap_servers=broker.bootstrap_servers, group_id=group, **settings)


async def wait_assigned(consumer: AIOKafkaConsumer, count: int, timeout: float = 40.0,
                        seen: List[Any] = None) -> None:
    """Poll (getmany, keeping what it hands out in ``seen``) until ``count`` partitions are assigned."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(consumer.assignment()) != count:
        assert loop.time() < deadline, "assignment %s, not %d partitions" % (consumer.assignment(), count)
        got = await consumer.getmany(timeout_ms=200)
        if seen is not None:
            for records in got.values():
                seen.extend(records)


async def drain(consumers: List[AIOKafkaConsumer], want: int, seen: List[Any], timeout: float = 40.0) -> None:
    """getmany on every consumer until ``want`` records were seen in all."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(seen) < want:
        assert loop.time() < deadline, "%d of %d records" % (len(seen), want)
        for c in consumers:
            got = await c.getmany(timeout_ms=100)
            for records in got.values():
                seen.extend(records)


async def wait_split(consumers: List[AIOKafkaConsumer], each: int, seen: List[Any], timeout: float = 60.0) -> None:
    """Poll every member (keeping what they hand out in ``seen``) until each holds ``each`` partitions."""
    async def polling() -> None:
        while not all(len(c.assignment()) == each for c in consumers):
            for c in consumers:
                for records in (await c.getmany(timeout_ms=100)).values():
                    seen.extend(records)
    await asyncio.wait_for(polling(), timeout)


def test_two_members_split_six_partitions_and_read_each_record_once(broker) -> None:
    topic = new_topic(broker, partitions=6, prefix="aio-grp")
    group = group_name()

    async def main() -> Tuple[List[Set[TopicPartition]], List[Any], Set[bytes]]:
        values = await fill(broker.bootstrap_servers, topic, 6, 20)
        a = member(broker, group, topic)
        b = member(broker, group, topic)
        seen: List[Any] = []
        await a.start()
        await b.start()
        try:
            await wait_split([a, b], 3, seen)
            split = [a.assignment(), b.assignment()]
            await drain([a, b], len(values), seen)
            for c in (a, b):  # nothing more comes
                for records in (await c.getmany(timeout_ms=600)).values():
                    seen.extend(records)
        finally:
            await a.stop()
            await b.stop()
        return split, seen, values

    split, seen, values = run(main(), timeout=120)
    assert not split[0] & split[1] and len(split[0] | split[1]) == 6
    assert sorted(r.value for r in seen) == sorted(values)


def test_a_stopped_member_hands_its_partitions_over_and_no_record_is_lost(broker) -> None:
    topic = new_topic(broker, partitions=6, prefix="aio-grp")
    group = group_name()

    async def main() -> Tuple[Set[TopicPartition], List[Any], Set[bytes]]:
        values = await fill(broker.bootstrap_servers, topic, 6, 10)
        a = member(broker, group, topic)
        b = member(broker, group, topic)
        seen: List[Any] = []
        await a.start()
        await b.start()
        try:
            await wait_split([a, b], 3, seen)
            await drain([a, b], len(values), seen)
            await b.stop()  # commits its positions and leaves
            values |= await fill(broker.bootstrap_servers, topic, 6, 10, start=10)
            await wait_assigned(a, 6, seen=seen)
            taken = a.assignment()
            await drain([a], len(values), seen)
            for records in (await a.getmany(timeout_ms=500)).values():
                seen.extend(records)
            await a.commit()
            committed = {tp: await a.committed(tp) for tp in taken}
        finally:
            await a.stop()
            await b.stop()
        assert committed == {TopicPartition(topic, p): 20 for p in range(6)}
        return taken, seen, values

    taken, seen, values = run(main(), timeout=120)
    assert taken == {TopicPartition(topic, p) for p in range(6)}
    assert sorted(r.value for r in seen) == sorted(values)


class Recorder:
    """Notes every hook call as (name, sorted partitions)."""

    def __init__(self) -> None:
        self.calls: List[Tuple[str, List[Tuple[str, int]]]] = []

    def on_partitions_revoked(self, revoked: Set[Any]) -> None:
        self.calls.append(("revoked", sorted((tp.topic, tp.partition) for tp in revoked)))

    def on_partitions_assigned(self, assigned: Set[Any]) -> None:
        self.calls.append(("assigned", sorted((tp.topic, tp.partition) for tp in assigned)))


async def _listener_story(consumer_class: Any, listener_class: Any, broker: Any, topic: str) -> List[Any]:
    """A first member alone, then a second one joins: the calls the first one's listener saw."""
    group = group_name()
    first = consumer_class(bootstrap_servers=broker.bootstrap_servers, group_id=group, **GROUP_KW)
    second = consumer_class(bootstrap_servers=broker.bootstrap_servers, group_id=group, **GROUP_KW)
    listener = type("Listener", (Recorder, listener_class), {})()
    await first.start()
    await second.start()
    try:
        first.subscribe([topic], listener=listener)
        await wait_assigned(first, 4)
        second.subscribe([topic])
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while not (len(first.assignment()) == 2 and len(second.assignment()) == 2):
            assert loop.time() < deadline
            await asyncio.gather(first.getmany(timeout_ms=100), second.getmany(timeout_ms=100))
    finally:
        await second.stop()
        await first.stop()
    return [(name, [p for _, p in parts]) for name, parts in listener.calls]


def test_listener_calls_come_in_aiokafkas_order(broker) -> None:
    aiokafka = pytest.importorskip("aiokafka")
    topic = new_topic(broker, partitions=4, prefix="aio-grp")
    ours = run(_listener_story(AIOKafkaConsumer, ConsumerRebalanceListener, broker, topic), timeout=120)
    theirs = run(_listener_story(aiokafka.AIOKafkaConsumer, aiokafka.ConsumerRebalanceListener, broker, topic),
                 timeout=120)
    assert ours[:3] == [("revoked", []), ("assigned", [0, 1, 2, 3]), ("revoked", [0, 1, 2, 3])]
    assert ours[3][0] == "assigned" and len(ours[3][1]) == 2
    assert [name for name, _ in ours] == [name for name, _ in theirs]
    assert ours[:3] == theirs[:3]


def test_a_member_of_ours_and_one_of_aiokafka_share_a_group(broker) -> None:
    aiokafka = pytest.importorskip("aiokafka")
    topic = new_topic(broker, partitions=6, prefix="aio-grp")
    group = group_name()

    async def main() -> Tuple[Set[Any], Set[Any], List[Any], Set[bytes]]:
        values = await fill(broker.bootstrap_servers, topic, 6, 10)
        ours = member(broker, group, topic)
        theirs = aiokafka.AIOKafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                           **GROUP_KW)
        seen: List[Any] = []
        await ours.start()
        await theirs.start()
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not (len(ours.assignment()) == 3 and len(theirs.assignment()) == 3):
                assert loop.time() < deadline, (ours.assignment(), theirs.assignment())
                for c in (ours, theirs):
                    for records in (await c.getmany(timeout_ms=100)).values():
                        seen.extend(records)
            split = (set(ours.assignment()), {TopicPartition(tp.topic, tp.partition) for tp in theirs.assignment()})
            await drain([ours, theirs], len(values), seen)  # type: ignore[list-item]
        finally:
            await ours.stop()
            await theirs.stop()
        return split[0], split[1], seen, values

    mine, other, seen, values = run(main(), timeout=120)
    assert not mine & other and len(mine | other) == 6
    assert sorted(r.value for r in seen) == sorted(values)


def test_a_coroutine_listener_is_awaited_before_records_come(broker) -> None:
    topic = new_topic(broker, partitions=2, prefix="aio-grp")

    class Slow(ConsumerRebalanceListener):
        def __init__(self) -> None:
            self.events: List[str] = []

        async def on_partitions_revoked(self, revoked: Set[Any]) -> None:
            await asyncio.sleep(0.2)
            self.events.append("revoked")

        async def on_partitions_assigned(self, assigned: Set[Any]) -> None:
            await asyncio.sleep(0.5)
            self.events.append("assigned %d" % len(assigned))

    async def main() -> List[str]:
        await fill(broker.bootstrap_servers, topic, 2, 3)
        listener = Slow()
        consumer = member(broker, group_name())
        await consumer.start()
        try:
            consumer.subscribe(topics=[topic], listener=listener)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while True:
                assert loop.time() < deadline
                got = await consumer.getmany(timeout_ms=200)
                if got:
                    listener.events.append("records")
                    break
        finally:
            await consumer.stop()
        return listener.events

    assert run(main(), timeout=120) == ["revoked", "assigned 2", "records"]


def test_a_pattern_subscription_picks_up_new_matching_topics(broker) -> None:
    prefix = "aio-pat-%s" % uuid.uuid4().hex[:6]
    first = new_topic(broker, partitions=2, name=prefix + "-a")
    new_topic(broker, partitions=1, prefix="other")

    async def main() -> Tuple[Set[TopicPartition], Set[TopicPartition], frozenset]:
        consumer = member(broker, group_name())
        await consumer.start()
        try:
            consumer.subscribe(pattern=prefix + "-.*")
            await wait_assigned(consumer, 2)
            before = consumer.assignment()
            second = new_topic(broker, partitions=3, name=prefix + "-b")
            await fill(broker.bootstrap_servers, second, 3, 1)
            await wait_assigned(consumer, 5)
            return before, consumer.assignment(), consumer.subscription()
        finally:
            await consumer.stop()

    before, after, subscribed = run(main(), timeout=120)
    assert before == {TopicPartition(first, 0), TopicPartition(first, 1)}
    assert {tp.topic for tp in after} == {prefix + "-a", prefix + "-b"}
    assert subscribed == frozenset({prefix + "-a", prefix + "-b"})


def test_unsubscribe_leaves_the_group(broker) -> None:
    topic = new_topic(broker, partitions=4, prefix="aio-grp")
    group = group_name()

    async def main() -> Tuple[Set[Any], frozenset, Set[Any]]:
        a = member(broker, group, topic)
        b = member(broker, group, topic)
        await a.start()
        await b.start()
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not (len(a.assignment()) == 2 and len(b.assignment()) == 2):
                assert loop.time() < deadline
                await asyncio.gather(a.getmany(timeout_ms=100), b.getmany(timeout_ms=100))
            a.unsubscribe()
            left = (a.assignment(), a.subscription())
            start = loop.time()
            await wait_assigned(b, 4, timeout=20)
            took = loop.time() - start
            # LeaveGroup: the other member rebalances without waiting out a's session timeout
            assert took < GROUP_KW["session_timeout_ms"] / 1000.0, took
            return left[0], left[1], b.assignment()
        finally:
            await a.stop()
            await b.stop()

    gone, subscribed, kept = run(main(), timeout=120)
    assert gone == set() and subscribed == frozenset()
    assert len(kept) == 4


def test_cancelled_getmany_during_a_rebalance_loses_and_repeats_nothing(broker) -> None:
    topic = new_topic(broker, partitions=6, prefix="aio-grp")
    group = group_name()

    async def main() -> Tuple[List[Any], Set[bytes], int]:
        values = await fill(broker.bootstrap_servers, topic, 6, 30)
        a = member(broker, group, topic, max_poll_records=5)
        b = member(broker, group, topic, max_poll_records=5)
        seen: List[Any] = []
        cancelled = 0
        await a.start()
        try:
            await wait_assigned(a, 6, seen=seen)
            await b.start()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not (len(a.assignment()) == 3 and len(b.assignment()) == 3):
                assert loop.time() < deadline
                try:  # cut short again and again, across the rebalance
                    got = await asyncio.wait_for(a.getmany(timeout_ms=1000), 0.01)
                except asyncio.TimeoutError:
                    cancelled += 1
                    continue
                for records in got.values():
                    seen.extend(records)
            await drain([a, b], len(values), seen)
            for c in (a, b):
                for records in (await c.getmany(timeout_ms=300)).values():
                    seen.extend(records)
        finally:
            await a.stop()
            await b.stop()
        return seen, values, cancelled

    seen, values, cancelled = run(main(), timeout=120)
    assert cancelled > 0
    assert sorted(r.value for r in seen) == sorted(values)


def test_a_static_member_joins_and_comes_back_to_its_partitions(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aio-grp")
    group = group_name()

    async def main() -> List[Set[TopicPartition]]:
        found = []
        for _ in range(2):  # no LeaveGroup at stop: the second start takes the same place
            consumer = member(broker, group, topic, group_instance_id="static-1")
            await consumer.start()
            try:
                await wait_assigned(consumer, 3)
                found.append(consumer.assignment())
            finally:
                await consumer.stop()
        return found

    first, second = run(main(), timeout=120)
    assert first == second == {TopicPartition(topic, p) for p in range(3)}
