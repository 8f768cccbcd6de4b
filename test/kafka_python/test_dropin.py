"""kafka-python programs' first lines run unchanged: config keys, imports, errors, methods."""

from __future__ import annotations

import importlib
import os
import re
import uuid
from typing import Any, Optional, Set

import pytest

import kafka
from kafka import compat_config, errors
from kafka.admin import KafkaAdminClient
from kafka.structs import TopicPartition
from test.support.topics import new_topic

# -- configuration keys ------------------------------------------------------------------


@pytest.mark.parametrize("kind,cls", [("producer", kafka.KafkaProducer), ("consumer", kafka.KafkaConsumer)])
def test_ignored_keys_accepted_with_their_defaults(kind: str, cls: Any) -> None:
    ignored = dict(compat_config.IGNORED[kind])
    client = cls(bootstrap_servers="127.0.0.1:1", **ignored)
    try:
        for key, value in ignored.items():
            assert client.config[key] == value
    finally:
        client.close()


def test_admin_accepts_ignored_keys(broker: Any) -> None:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers, api_version=(3, 9),
                             metric_reporters=[], selector=None, client_dns_lookup="use_all_dns_ips",
                             sasl_kerberos_service_name="kafka", receive_message_max_bytes=8 * 1024 * 1024)
    try:
        assert admin.config["api_version"] == (3, 9)
        assert admin._client.config["max_frame_size"] == 8 * 1024 * 1024
    finally:
        admin.close()


def test_api_version_string_and_tuple() -> None:
    assert compat_config.parse_api_version("2.5.0") == (2, 5, 0)
    assert compat_config.parse_api_version((0, 10, 1)) == (0, 10, 1)
    assert compat_config.parse_api_version("auto") is None
    with pytest.raises(errors.KafkaConfigurationError):
        compat_config.parse_api_version("two")


def test_receive_message_max_bytes_is_honoured() -> None:
    consumer = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", receive_message_max_bytes=123456)
    try:
        assert consumer._client.config["max_frame_size"] == 123456
    finally:
        consumer.close()


def test_gssapi_refused_with_a_reason() -> None:
    with pytest.raises(errors.KafkaConfigurationError, match="GSSAPI.*not implemented"):
        kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", security_protocol="SASL_PLAINTEXT",
                            sasl_mechanism="GSSAPI")


def test_proxy_refused_with_a_reason() -> None:
    with pytest.raises(errors.KafkaConfigurationError, match="proxy"):
        kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", socks5_proxy="socks5://127.0.0.1:1080")


def test_unknown_key_still_refused() -> None:
    with pytest.raises(errors.KafkaConfigurationError, match="no_such_key"):
        kafka.KafkaProducer(bootstrap_servers="127.0.0.1:1", no_such_key=1)


def test_consumer_request_timeout_follows_kafka_python_3() -> None:
    assert kafka.KafkaConsumer.DEFAULT_CONFIG["request_timeout_ms"] == 30000  # type: ignore[attr-defined]


# -- names -------------------------------------------------------------------------------


@pytest.mark.parametrize("module,name", [
    ("kafka.errors", "CommitFailedError"), ("kafka.errors", "RetriableError"),
    ("kafka.errors", "InvalidMetadataError"), ("kafka.errors", "AuthorizationError"),
    ("kafka.errors", "KafkaProtocolError"), ("kafka.errors", "NoError"), ("kafka.errors", "kafka_errors"),
    ("kafka", "ConsumerRebalanceListener"), ("kafka.consumer.subscription_state", "ConsumerRebalanceListener"),
    ("kafka.serializer", "Serializer"), ("kafka.serializer", "Deserializer"),
    ("kafka.coordinator.assignors.range", "RangePartitionAssignor"),
    ("kafka.coordinator.assignors.roundrobin", "RoundRobinPartitionAssignor"),
    ("kafka.coordinator.assignors.sticky.sticky_assignor", "StickyPartitionAssignor"),
    ("kafka.partitioner", "DefaultPartitioner"),
    ("kafka.producer", "SimpleProducer"), ("kafka.producer", "KeyedProducer"),
    ("kafka.producer.base", "Producer"), ("kafka.producer.simple", "SimpleProducer"),
    ("kafka.producer.keyed", "KeyedProducer"), ("kafka.consumer.base", "Consumer"),
    ("kafka.consumer.simple", "SimpleConsumer"), ("kafka.consumer.multiprocess", "MultiProcessConsumer"),
    ("kafka.consumer.multiprocess", "Events"),
])
def test_kafka_python_import_paths(module: str, name: str) -> None:
    assert getattr(importlib.import_module(module), name) is not None


def test_error_hierarchy_as_kafka_python() -> None:
    assert errors.kafka_errors[0] is errors.NoError
    assert errors.kafka_errors[36] is errors.TopicAlreadyExistsError
    assert issubclass(errors.NotLeaderForPartitionError, errors.InvalidMetadataError)
    assert issubclass(errors.RequestTimedOutError, errors.RetriableError)
    assert issubclass(errors.TopicAuthorizationFailedError, errors.AuthorizationError)
    assert issubclass(errors.KafkaTimeoutError, errors.RetriableError)
    assert errors.CorrelationIdError.retriable
    assert not issubclass(errors.TopicAlreadyExistsError, errors.RetriableError)
    from kafka.consumer.group import CommitFailedError

    assert CommitFailedError is errors.CommitFailedError


def test_assignor_classes_accepted_as_strategy() -> None:
    from kafka.consumer.group.assignors import lookup_all
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

    assert [a.name for a in lookup_all((RangePartitionAssignor, RoundRobinPartitionAssignor))] == \
        ["range", "roundrobin"]


def test_serializer_objects_serialize_through_their_methods() -> None:
    from kafka.serializer import DefaultSerializer, JsonSerializer

    assert JsonSerializer().serialize("t", [], {"a": 1}) == b'{"a": 1}'
    assert JsonSerializer().serialize("t", [], None) is None
    assert DefaultSerializer().deserialize("t", None, b"x") == "x"
    assert JsonSerializer().deserialize("t", None, b"[1]") == [1]


# -- behaviour against a broker -------------------------------------------------------------


def test_get_on_lingering_batch_sends_it(broker: Any) -> None:
    topic = new_topic(broker)
    # With a linger of ten minutes, only get() itself can make the batch leave.
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=600000)
    try:
        for i in range(3):
            metadata = producer.send(topic, b"v%d" % i).get(timeout=60)
            assert metadata.offset == i
        assert producer.bootstrap_connected()
    finally:
        producer.close(null_logger=True)


def test_consumer_methods(broker: Any) -> None:
    topic = new_topic(broker)
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    producer.send(topic, b"x").get(timeout=60)
    producer.close()
    group = "g-" + uuid.uuid4().hex[:8]
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                   auto_offset_reset="earliest", enable_auto_commit=False,
                                   session_timeout_ms=6000, heartbeat_interval_ms=1000)
    try:
        assert consumer.bootstrap(timeout_ms=30000)
        assert consumer.bootstrap_connected()
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        assert consumer.poll(timeout_ms=30000)
        consumer.commit()
        assert consumer.committed(tp, timeout_ms=30000) == 1
    finally:
        consumer.close()


def test_create_existing_topic_caught_as_topic_already_exists(broker: Any) -> None:
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        name = "dropin-" + uuid.uuid4().hex[:8]
        (created,) = admin.create_topics([name])["topics"]
        assert (created["name"], created["error_code"]) == (name, 0) and created["num_partitions"] > 0
        with pytest.raises(errors.TopicAlreadyExistsError):
            admin.create_topics({name: {"num_partitions": 1}})
        (again,) = admin.create_topics([name], raise_errors=False)["topics"]
        assert again["error_code"] == errors.TopicAlreadyExistsError.errno
        # kafkawire's own form, chosen by its raise_error keyword.
        assert isinstance(admin.create_topics([name], raise_error=False)[name], errors.TopicAlreadyExistsError)
        admin.wait_for_topics([name], timeout_ms=30000)
        (deleted,) = admin.delete_topics([name], raise_errors=True)["topics"]
        assert (deleted["name"], deleted["error_code"]) == (name, 0)
    finally:
        admin.close()


def test_admin_group_names(broker: Any) -> None:
    topic = new_topic(broker)
    group = "g-" + uuid.uuid4().hex[:8]
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        tp = TopicPartition(topic, 0)
        assert admin.alter_group_offsets(group, {tp: 0}) == {tp: errors.NoError}
        listed: Set[str] = {g["group_id"] for g in admin.list_groups()}
        assert group in listed
        offsets = admin.list_group_offsets(group)
        assert offsets[group][tp].offset == 0
        described = admin.describe_groups([group])[group]
        assert described["group_id"] == group and described["error"] is None
        assert admin.delete_groups([group]) == {group: "OK"}
    finally:
        admin.close()


def test_tombstones_and_kafka_python_none_handling(broker: Any) -> None:
    """Default: None stays a tombstone; serialize_none/deserialize_none call the (de)serializers as kafka-python."""
    import json

    topic = new_topic(broker)
    tombstone = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, key_serializer=str.encode,
                                    value_serializer=lambda v: json.dumps(v).encode())
    like_kafka_python = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, key_serializer=str.encode,
                                            value_serializer=lambda v: json.dumps(v).encode(),
                                            serialize_none=True)
    try:
        first = tombstone.send(topic, None, key="a", headers=[("h", b"12")]).get(timeout=60)
        assert first.serialized_value_size == -1 and first.serialized_header_size == 3
        second = like_kafka_python.send(topic, None, key="b").get(timeout=60)
        assert second.serialized_value_size == 4 and second.serialized_header_size == -1
        assert second[:5] == (topic, 0, TopicPartition(topic, 0), 1, second.timestamp)
    finally:
        tombstone.close()
        like_kafka_python.close()
    seen = {}
    for deserialize_none in (False, True):
        consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                                       value_deserializer=lambda b: "null!" if b is None else json.loads(b),
                                       deserialize_none=deserialize_none)
        try:
            consumer.assign([TopicPartition(topic, 0)])
            records = []
            while len(records) < 2:
                for batch in consumer.poll(timeout_ms=30000).values():
                    records.extend(batch)
            seen[deserialize_none] = [(r.key, r.value, r.serialized_header_size) for r in records]
        finally:
            consumer.close()
    assert seen[False] == [(b"a", None, 3), (b"b", None, -1)]
    assert seen[True] == [(b"a", "null!", 3), (b"b", None, -1)]


def test_client_rack_goes_into_fetch_requests(broker: Any) -> None:
    topic = new_topic(broker)
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, client_rack="rack-a",
                                   auto_offset_reset="earliest")
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.poll(timeout_ms=1000)  # positions known, metadata loaded
        request, _, _ = consumer._fetcher._fetch_request([(tp, None)])
        assert request.rack_id == "rack-a"
    finally:
        consumer.close()


def test_list_partition_offsets_and_reset_group_offsets(broker: Any) -> None:
    from kafka.enums import OffsetSpec

    topic = new_topic(broker)
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    for i in range(3):
        producer.send(topic, b"%d" % i).get(timeout=60)  # one record per batch (see Tansu's quirks)
    producer.close()
    tp = TopicPartition(topic, 0)
    group = "g-" + uuid.uuid4().hex[:8]
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
    try:
        found = admin.list_partition_offsets({tp: OffsetSpec.EARLIEST})
        assert found[tp].offset == 0
        assert admin.reset_group_offsets(group, {tp: OffsetSpec.EARLIEST}) == {tp: {"error": errors.NoError,
                                                                                     "offset": 0}}
        assert admin.list_group_offsets(group)[group][tp].offset == 0
        # A plain int is an offset, clamped to the partition's range.
        assert admin.reset_group_offsets(group, {tp: 99}) == {tp: {"error": errors.NoError, "offset": 3}}
        with pytest.raises(errors.IllegalArgumentError, match="OffsetSpec"):
            admin.reset_group_offsets(group, {tp: "earliest"})
    finally:
        admin.close()


def _seed(prefix: str) -> Optional[str]:
    """The seed document ``shared/seeds/<prefix>*`` beside the repository (or a worktree's repository)."""
    here = os.path.dirname(os.path.abspath(__file__))
    while True:
        seeds = os.path.join(here, "shared", "seeds")
        if os.path.isdir(seeds):
            for entry in sorted(os.listdir(seeds)):
                if entry.startswith(prefix):
                    return os.path.join(seeds, entry)
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def test_kafka_python_1_3_consumer_keys_accepted() -> None:
    """Every keyword argument of kafka-python 1.3's KafkaConsumer document constructs a consumer."""
    path = _seed("003_")
    if path is None:
        pytest.skip("the seed reference is not beside the repository")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("Keyword Arguments:"):text.index("assign(partitions)")]
    keys = re.findall(r"^\s*\u2022 ([a-z_]+) ", section, re.M)
    assert len(keys) > 40 and "skip_double_compressed_messages" in keys
    missing = [k for k in keys if k not in kafka.KafkaConsumer.DEFAULT_CONFIG]  # type: ignore[attr-defined]
    assert missing == []
    ignored = {k: v for k, v in compat_config.IGNORED["consumer"].items() if k in keys}
    consumer = kafka.KafkaConsumer(bootstrap_servers="127.0.0.1:1", **ignored)
    consumer.close()
