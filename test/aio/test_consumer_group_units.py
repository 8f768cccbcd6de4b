"""subscribe()'s checks and the asyncio group's pieces, without a broker."""

from __future__ import annotations

import asyncio
from typing import Any, List, Set

import pytest

from kafka import errors
from kafka.aio import AIOKafkaConsumer, ConsumerRebalanceListener
from kafka.aio.group import eager_assignors
from kafka.aio.group_listener import call_hook
from kafka.aio.group_subscription import Subscription
from kafka.group.payloads import assigned_partitions, assignment_payload
from kafka.structs import TopicPartition


def test_subscribe_wants_topics_or_a_pattern_not_both() -> None:
    consumer = AIOKafkaConsumer(group_id="g")
    with pytest.raises(TypeError):
        consumer.subscribe()
    with pytest.raises(TypeError):
        consumer.subscribe(["a"], pattern="a.*")
    with pytest.raises(ValueError):
        consumer.subscribe(pattern="(")
    with pytest.raises(TypeError):
        consumer.subscribe(["a"], listener=object())


def test_assign_and_subscribe_exclude_each_other() -> None:
    consumer = AIOKafkaConsumer("t", group_id="g")
    assert consumer.subscription() == frozenset({"t"})
    with pytest.raises(errors.IllegalStateError):
        consumer.assign([TopicPartition("t", 0)])
    other = AIOKafkaConsumer(group_id="g")
    other.assign([TopicPartition("t", 0)])
    with pytest.raises(errors.IllegalStateError):
        other.subscribe(["t"])


def test_cooperative_assignors_are_refused_and_the_others_taken() -> None:
    with pytest.raises(errors.KafkaConfigurationError):
        AIOKafkaConsumer(group_id="g", partition_assignment_strategy=["cooperative-sticky"])
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    names = [a.name for a in eager_assignors([RangePartitionAssignor, "roundrobin", "sticky"])]
    assert names == ["range", "roundrobin", "sticky"]


def test_a_pattern_matches_from_the_start_and_skips_internal_topics() -> None:
    sub = Subscription(pattern="ev.*")
    assert sub.match_cluster(["events", "evicted", "my-events", "__consumer_offsets"])
    assert sub.topics == {"events", "evicted"}
    assert not sub.match_cluster(["events", "evicted"])


def test_assignment_payload_round_trip() -> None:
    parts = [TopicPartition("b", 1), TopicPartition("a", 0), TopicPartition("a", 2)]
    assert assigned_partitions(assignment_payload(parts, 3)) == sorted(parts)
    assert assigned_partitions(b"") == []


def test_hooks_may_be_coroutines_and_their_errors_are_logged(caplog: Any) -> None:
    calls: List[Any] = []

    class Listener(ConsumerRebalanceListener):
        async def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
            await asyncio.sleep(0)
            calls.append(("revoked", revoked))

        def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
            raise RuntimeError("boom")

    async def main() -> None:
        await call_hook(Listener(), "on_partitions_revoked", {TopicPartition("t", 0)}, "g")
        await call_hook(Listener(), "on_partitions_assigned", set(), "g")

    asyncio.run(main())
    assert calls == [("revoked", {TopicPartition("t", 0)})]
    assert "on_partitions_assigned" in caplog.text


def test_without_a_group_id_a_subscription_reads_every_partition(broker: Any) -> None:
    from test.aio.helpers import run
    from test.support.topics import new_topic
    topic = new_topic(broker, partitions=3, prefix="aio-nogroup")

    async def main() -> Set[TopicPartition]:
        async with AIOKafkaConsumer(topic, bootstrap_servers=broker.bootstrap_servers) as consumer:
            for _ in range(100):
                if len(consumer.assignment()) == 3:
                    break
                await consumer.getmany(timeout_ms=100)
            return consumer.assignment()

    assert run(main(), timeout=120) == {TopicPartition(topic, p) for p in range(3)}
