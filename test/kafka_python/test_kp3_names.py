"""kafka-python 3's public names that programs (and its own test suite) import, and what they do here.

Each test checks behaviour, not only that a name imports: the member states a
group reports, awaiting a future, the codec checks the record reader honours,
the broker release a consumer reports, the producer's and consumer's class
attributes, the admin enumerations and the topic-name helpers.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any, List, Set
from unittest import mock

import pytest

import kafka
from kafka.errors import IncompatibleBrokerVersion, UnrecognizedBrokerVersion, UnsupportedCodecError
from kafka.future import Future
from kafka.record import codecs
from kafka.record.batch import RecordBatchBuilder
from kafka.record.memory_records import MemoryRecords
from kafka.structs import TopicPartition

# -- names that must import ---------------------------------------------------------------


@pytest.mark.parametrize("module,names", [
    ("kafka", ["AsyncConsumerRebalanceListener", "ConsumerRebalanceListener", "OffsetSpec"]),
    ("kafka.admin", ["OffsetSpec", "OffsetTimestamp", "GroupState", "GroupType", "ConfigType",
                     "ConfigSourceType", "ConfigFilterType"]),
    ("kafka.coordinator.base", ["MemberState"]),
    ("kafka.structs", ["MemberState"]),
    ("kafka.protocol.broker_version_data", ["BrokerVersionData"]),
    ("kafka.partitioner", ["StickyPartitioner", "DefaultPartitioner"]),
    ("kafka.net.compat", ["KafkaNetClient"]),
    ("kafka.net", ["KafkaNetClient"]),
    ("kafka.util", ["TOPIC_LEGAL_CHARS", "TOPIC_MAX_LENGTH", "ensure_valid_topic_name"]),
])
def test_kafka_python_3_names_import(module: str, names: List[str]) -> None:
    mod = __import__(module, fromlist=names)
    for name in names:
        assert getattr(mod, name) is not None, "%s.%s" % (module, name)


def test_member_state_is_one_class_under_both_paths() -> None:
    from kafka.coordinator.base import MemberState as from_coordinator
    from kafka.structs import MemberState

    assert from_coordinator is MemberState
    assert (MemberState.UNJOINED, MemberState.REBALANCING, MemberState.STABLE) == \
        ("<unjoined>", "<rebalancing>", "<stable>")


def test_group_metadata_without_group_is_unjoined() -> None:
    from kafka.structs import MemberState

    consumer = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", group_id=None)
    try:
        meta = consumer.group_metadata()
        assert meta.group_id is None and meta.generation_id == -1 and meta.member_id == ""
        assert meta.state is MemberState.UNJOINED
    finally:
        consumer.close()


# -- kafka.future.Future is awaitable ------------------------------------------------------


def test_await_resolved_future_gives_value() -> None:
    done: Future[int] = Future()
    done.success(7)

    async def main() -> int:
        return await done

    assert asyncio.run(main()) == 7


def test_await_failed_future_raises() -> None:
    failed: Future[int] = Future()
    failed.failure(KeyError("gone"))

    async def main() -> int:
        return await failed

    with pytest.raises(KeyError):
        asyncio.run(main())


def test_await_pending_future_yields_it_then_finishes() -> None:
    pending: Future[str] = Future()
    steps = pending.__await__()
    assert next(steps) is pending  # handed to the driver until resolved
    pending.success("later")
    with pytest.raises(StopIteration) as stop:
        next(steps)
    assert stop.value.value == "later"


# -- kafka.codec, and the record reader honouring it ------------------------------------------------


def _gzip_batch() -> bytes:
    builder = RecordBatchBuilder(compression_type=codecs.GZIP)
    for i in range(3):
        builder.append(i, 1000 + i, b"k%d" % i, b"value %d" % i, ())
    return bytes(builder.build())


def test_codec_is_a_module_of_its_own_name() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import kafka; print(kafka.codec.__name__, kafka.codec.has_gzip())"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["kafka.codec", "True"]
    import kafka.simple.codec

    assert kafka.simple.codec is kafka.codec  # the 0.9 path is the same module object


def test_patched_has_gzip_makes_reader_refuse_gzip_batch() -> None:
    import kafka.codec

    data = _gzip_batch()
    assert [r.value for b in MemoryRecords(data) for r in b.records()] == [b"value 0", b"value 1", b"value 2"]
    with mock.patch.object(kafka.codec, "has_gzip", return_value=False) as check:
        with pytest.raises(UnsupportedCodecError, match="Libraries for gzip compression codec not found"):
            [r for b in MemoryRecords(data) for r in b.records()]
        assert check.call_count == 1  # asked once for the batch, not once per record
    assert len([r for b in MemoryRecords(data) for r in b.records()]) == 3


def test_consumer_reports_missing_codec_from_patched_module(broker: Any) -> None:
    import kafka.codec

    topic = "codec-" + uuid.uuid4().hex[:8]
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, compression_type="gzip")
    producer.send(topic, b"x" * 500, partition=0).get(timeout=30)
    producer.close()
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, 0)])
        with mock.patch.object(kafka.codec, "has_gzip", return_value=False):
            with pytest.raises(UnsupportedCodecError, match="gzip"):
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    consumer.poll(timeout_ms=500)
        records = consumer.poll(timeout_ms=5000)  # the same batch reads once the codec is back
        assert [r.value for rs in records.values() for r in rs] == [b"x" * 500]
    finally:
        consumer.close()


# -- the broker's release ----------------------------------------------------------------------


def test_broker_version_data_names_known_releases() -> None:
    from kafka.protocol.broker_version_data import BrokerVersionData

    assert BrokerVersionData((3, 9, 0)).broker_version == (3, 9)
    assert BrokerVersionData((0, 10)).broker_version == (0, 10, 0)
    assert BrokerVersionData((2, 8, 1)).broker_version == (2, 8)
    assert BrokerVersionData("3.4.0").broker_version == (3, 4)
    with pytest.raises(UnrecognizedBrokerVersion):
        BrokerVersionData((0, 7))
    with pytest.raises(ValueError):
        BrokerVersionData()


def test_broker_version_data_infers_release_from_ranges() -> None:
    from kafka.protocol.apis import METADATA
    from kafka.protocol.broker_version_data import BrokerVersionData

    ranges = {0: (0, 11), 1: (0, 17), 2: (0, 9), 3: (0, 12)}  # Fetch 17 but not ListOffsets 10: Kafka 3.9
    data = BrokerVersionData(api_versions=ranges)
    assert data.broker_version == (3, 9) and data.broker_version_str == "3.9"
    assert data.api_version(METADATA) == min(12, METADATA.max_version)
    assert data.api_version(METADATA, max_version=4) == 4
    with pytest.raises(IncompatibleBrokerVersion):
        data.api_version(35)  # DescribeLogDirs: not offered
    assert BrokerVersionData(api_versions={18: (0, 3)}).broker_version == (0, 10, 0)
    assert BrokerVersionData((2, 0)) < BrokerVersionData((3, 0))


def test_consumer_shows_negotiated_release_when_api_version_none(broker: Any) -> None:
    from kafka.protocol.broker_version_data import KNOWN_RELEASES

    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, api_version=None)
    try:
        assert consumer.config["api_version"] in KNOWN_RELEASES
        assert consumer.config["api_version"] >= (2, 0)
    finally:
        consumer.close()
    # Left out, the consumer stays lazy: the release shows after bootstrap().
    lazy = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers)
    try:
        assert lazy.config["api_version"] is None
        assert lazy.bootstrap(timeout_ms=10000)
        assert lazy.config["api_version"] in KNOWN_RELEASES
    finally:
        lazy.close()
    # A configured version is kept as given.
    fixed = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, api_version=(2, 5, 0))
    try:
        fixed.bootstrap(timeout_ms=10000)
        assert fixed.config["api_version"] == (2, 5, 0)
    finally:
        fixed.close()


def test_net_client_checks_version(broker: Any) -> None:
    from kafka.net.compat import KafkaNetClient
    from kafka.protocol.broker_version_data import KNOWN_RELEASES

    client = KafkaNetClient(bootstrap_servers=broker.bootstrap_servers, client_id="net", metrics_enabled=False)
    try:
        assert client.check_version(timeout_ms=10000) in KNOWN_RELEASES
        assert client.config["metrics_enabled"] is False  # kafka-python keys are kept
    finally:
        client.close()


# -- class attributes of the producer and consumer -----------------------------------------------------


def test_producer_class_attributes() -> None:
    assert kafka.KafkaProducer.DEPRECATED_CONFIGS == ()
    magic = kafka.KafkaProducer.max_usable_produce_magic
    assert [magic(v) for v in [(0, 9), (0, 10, 0), (0, 10, 2), (0, 11), (3, 9)]] == [0, 1, 1, 2, 2]


def test_consumer_pre_kip_735_session_timeout() -> None:
    assert kafka.KafkaConsumer.DEFAULT_SESSION_TIMEOUT_MS_PRE_KIP_735 == 30000
    old = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", api_version=(2, 8))
    chosen = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", api_version=(2, 8), session_timeout_ms=12000)
    new = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", api_version=(3, 0))
    try:
        assert old.config["session_timeout_ms"] == 30000
        assert chosen.config["session_timeout_ms"] == 12000
        assert new.config["session_timeout_ms"] == 45000
    finally:
        for c in (old, chosen, new):
            c.close()


# -- admin enumerations, partitioner, topic names, async listener ----------------------------------------


def test_admin_enums_lookups() -> None:
    from kafka.admin import ConfigFilterType, ConfigSourceType, ConfigType, GroupState, GroupType

    assert str(GroupState.STABLE) == "Stable" and GroupState.build_from("preparing-rebalance") \
        is GroupState.PREPARING_REBALANCE
    assert GroupType.value_for("CONSUMER") == "consumer"
    assert ConfigType.build_from(9) is ConfigType.PASSWORD
    assert not ConfigSourceType.DEFAULT_CONFIG.is_modified() and ConfigSourceType.DYNAMIC_TOPIC_CONFIG.is_modified()
    assert ConfigFilterType.MODIFIED.should_skip(ConfigSourceType.DEFAULT_CONFIG)
    assert not ConfigFilterType.DEFAULT.should_skip(5)
    assert ConfigFilterType.STATIC.should_skip(1) and not ConfigFilterType.STATIC.should_skip(4)
    assert not ConfigFilterType.ALL.should_skip(1)
    with pytest.raises(ValueError):
        GroupState.build_from("nonsense")


class _Cluster:
    def __init__(self, parts: Set[int], available: Set[int]) -> None:
        self.parts, self.available = parts, available

    def topics(self) -> Set[str]:
        return {"t"}

    def partitions_for_topic(self, topic: str) -> Set[int]:
        return self.parts

    def available_partitions_for_topic(self, topic: str) -> Set[int]:
        return self.available


def test_sticky_partitioner_sticks_until_new_batch() -> None:
    from kafka.partitioner import DefaultPartitioner, StickyPartitioner
    from kafka.producer.partitioner import murmur2_partition

    p = StickyPartitioner()
    assert isinstance(p, DefaultPartitioner)  # the producer's own sticky path serves it
    cluster = _Cluster({0, 1, 2, 3}, {0, 1, 2, 3})
    first = p.partition("t", None, None, None, b"v", cluster)
    assert all(p.partition("t", None, None, None, b"v", cluster) == first for _ in range(20))
    p.on_new_batch("t", cluster, first)
    assert p.partition("t", None, None, None, b"v", cluster) != first
    assert p.partition("t", "k", b"k", None, b"v", cluster) == murmur2_partition(b"k", 4)
    with pytest.raises(ValueError):
        p.partition("other", None, None, None, b"v", cluster)


def test_topic_name_helpers() -> None:
    from kafka.util import TOPIC_LEGAL_CHARS, TOPIC_MAX_LENGTH, ensure_valid_topic_name

    assert TOPIC_MAX_LENGTH == 249
    assert TOPIC_LEGAL_CHARS.match("a.b_c-1") and not TOPIC_LEGAL_CHARS.match("a b")
    ensure_valid_topic_name("fine.topic")
    for bad, exc in [(None, TypeError), (3, TypeError), ("", ValueError), (".", ValueError),
                     ("..", ValueError), ("x" * 250, ValueError), ("sp ace", ValueError)]:
        with pytest.raises(exc):
            ensure_valid_topic_name(bad)


def test_async_listener_hooks_run_to_completion() -> None:
    from kafka import AsyncConsumerRebalanceListener
    from kafka.consumer.group.common import call_listener

    seen: List[Any] = []

    class Listener(AsyncConsumerRebalanceListener):
        async def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
            await asyncio.sleep(0)
            seen.append(("revoked", sorted(revoked)))

        async def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
            await asyncio.sleep(0.01)
            seen.append(("assigned", sorted(assigned)))

    class Sub:
        listener = Listener()

    tp = TopicPartition("t", 0)
    assert call_listener(Sub, "on_partitions_assigned", [tp]) is None
    assert call_listener(Sub, "on_partitions_lost", [tp]) is None  # defaults to revoked
    assert seen == [("assigned", [tp]), ("revoked", [tp])]
    with pytest.raises(TypeError):
        AsyncConsumerRebalanceListener()  # type: ignore[abstract]


def test_offsets_for_times_on_missing_partition_times_out(broker: Any) -> None:
    # kafka-python raises KafkaTimeoutError once request_timeout_ms has passed; the cause is kept.
    from kafka.errors import KafkaTimeoutError, UnknownTopicOrPartitionError

    topic = "oft-" + uuid.uuid4().hex[:8]
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    producer.send(topic, b"v", partition=0).get(timeout=30)
    producer.close()
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, request_timeout_ms=1500)
    try:
        with pytest.raises(KafkaTimeoutError) as caught:
            consumer.offsets_for_times({TopicPartition(topic, 100): 0})
        assert isinstance(caught.value.__cause__, UnknownTopicOrPartitionError)
        with pytest.raises(ValueError):
            consumer.offsets_for_times({TopicPartition(topic, 0): -1})
        found = consumer.offsets_for_times({TopicPartition(topic, 0): 0})
        assert found[TopicPartition(topic, 0)].offset == 0
    finally:
        consumer.close()
