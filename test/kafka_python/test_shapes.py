"""Values shaped as kafka-python 3 shapes them, so ordinary code written for it runs.

Serializer objects are called through their methods, RecordMetadata unpacks
into kafka-python's nine names, committed metadata keeps the broker's null, and the error classes derive
from what kafka-python's do (the full comparison against kafka-python itself
is in test_api_surface.py).
"""

from __future__ import annotations

import uuid
from typing import Any, List, Optional, Tuple

import pytest

import kafka
from kafka import errors
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.serializer import DefaultSerializer, Deserializer, JsonSerializer, Serializer, conversion
from kafka.structs import OffsetAndMetadata, TopicPartition
from test.support.topics import new_topic




# -- serializer objects -------------------------------------------------------------------


def test_default_serializer_refuses_what_is_not_text() -> None:
    with pytest.raises(AttributeError):
        DefaultSerializer().serialize("t", [], 42)
    assert DefaultSerializer().serialize("t", [], "é") == "é".encode()
    assert DefaultSerializer().serialize("t", [], b"raw") == b"raw"
    assert DefaultSerializer().deserialize("t", [], b"msg 0") == "msg 0"


def test_serializer_objects_are_not_plain_callables() -> None:
    # As in kafka-python: the object interface is the methods, so a
    # DefaultSerializer (both interfaces at once) cannot be called the wrong way.
    assert not callable(DefaultSerializer())
    assert not callable(JsonSerializer())


class Recording(Serializer, Deserializer):
    """Remembers what each method saw; adds a header when serializing."""

    def __init__(self) -> None:
        self.seen: List[Tuple[str, Any, Any, Any]] = []
        self.closed = 0

    def serialize(self, topic: Optional[str], headers: Any, data: Any) -> Optional[bytes]:
        self.seen.append(("serialize", topic, list(headers), data))
        headers.append(("added", b"1"))
        return None if data is None else ("<%s>" % data).encode()

    def deserialize(self, topic: Optional[str], headers: Any, data: Optional[bytes]) -> Any:
        self.seen.append(("deserialize", topic, headers, data))
        return None if data is None else data.decode().strip("<>")

    def close(self) -> None:
        self.closed += 1


class TwoArgument(Deserializer):
    """An older Deserializer whose method takes (topic, data), which kafka-python 3 still calls."""

    def deserialize(self, topic, data):  # type: ignore[no-untyped-def, override]
        return (topic, data)


def test_conversion_is_decided_once_per_kind() -> None:
    plain = conversion(bytes.upper, "deserialize")
    assert plain is not None and not plain.contextual and plain.fn is bytes.upper
    assert conversion(None, "serialize") is None
    obj = Recording()
    made = conversion(obj, "deserialize")
    assert made is not None and made.contextual and made("t", [], b"<x>") == "x"
    assert obj.seen == [("deserialize", "t", [], b"<x>")]
    old = conversion(TwoArgument(), "deserialize")
    assert old is not None and old("t", [("h", b"v")], b"d") == ("t", b"d")


def test_config_accepts_objects_only_for_their_direction(broker: Any) -> None:
    with pytest.raises(errors.KafkaConfigurationError):
        kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, value_serializer=TwoArgument())


def test_serializer_and_deserializer_objects_end_to_end(broker: Any) -> None:
    topic = new_topic(broker)
    ser = Recording()
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, value_serializer=ser,
                                   key_serializer=DefaultSerializer())
    try:
        producer.send(topic, "msg 0", key="k").get(timeout=60)
        producer.send(topic, "msg 1", headers=[("given", b"g")]).get(timeout=60)
    finally:
        producer.close()
    assert ser.closed == 1  # closed with the producer, as kafka-python does
    assert ser.seen == [("serialize", topic, [], "msg 0"), ("serialize", topic, [("given", b"g")], "msg 1")]

    des = Recording()
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                                   value_deserializer=des, key_deserializer=DefaultSerializer())
    try:
        consumer.assign([TopicPartition(topic, 0)])
        records: List[Any] = []
        while len(records) < 2:
            for batch in consumer.poll(timeout_ms=30000).values():
                records.extend(batch)
    finally:
        consumer.close()
    assert des.closed == 1
    # The DefaultSerializer given as key_deserializer deserializes: str, not bytes.
    assert [(r.key, r.value) for r in records] == [("k", "msg 0"), (None, "msg 1")]
    # What the serializer appended to the headers was sent with the record.
    assert [list(r.headers) for r in records] == [[("added", b"1")], [("given", b"g"), ("added", b"1")]]
    assert [s[:2] for s in des.seen] == [("deserialize", topic)] * 2
    assert list(des.seen[1][2]) == [("given", b"g"), ("added", b"1")]


def test_send_batch_hands_headers_to_serializer_objects(broker: Any) -> None:
    topic = new_topic(broker)
    ser = Recording()
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers, value_serializer=ser)
    try:
        producer.send_batch(topic, ["a", "b"], headers=[[("h", b"1")], None]).get(timeout=60)
    finally:
        producer.close()
    assert [(s[1], s[2], s[3]) for s in ser.seen] == [(topic, [("h", b"1")], "a"), (topic, [], "b")]


# -- RecordMetadata and ConsumerRecord shapes ---------------------------------------------


def test_record_metadata_unpacks_as_kafka_python(broker: Any) -> None:
    topic = new_topic(broker)
    producer = kafka.KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    try:
        md = producer.send(topic, b"v", key=b"kk", headers=[("h", b"12")]).get(timeout=60)
    finally:
        producer.close()
    topic_, partition, tp, offset, ts, crc, ks, vs, hs = md
    assert (topic_, partition, tp, offset, crc, ks, vs, hs) == (topic, 0, TopicPartition(topic, 0), 0, None, 2, 1, 3)
    assert ts > 0 and len(md) == 9


def _batch(headers: Any, count: int = 3, epoch: int = 0) -> RecordBatch:
    builder = RecordBatchBuilder(partition_leader_epoch=epoch)
    for i in range(count):
        builder.append(i, timestamp=1000 + i, key=None, value=b"v", headers=headers)
    return RecordBatch(builder.build())


def test_consumer_record_leader_epoch_is_the_batch_epoch(broker: Any) -> None:
    from kafka.consumer.fetcher import ConsumerRecord

    assert {r.leader_epoch for r in _batch(None, epoch=0).rows(ConsumerRecord, ("t", 0, 0))} == {0}


def test_committed_metadata_keeps_the_brokers_value(broker: Any) -> None:
    topic = new_topic(broker)
    group = "g-" + uuid.uuid4().hex[:8]
    tp = TopicPartition(topic, 0)
    consumer = kafka.KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                   enable_auto_commit=False)
    try:
        consumer.assign([tp])
        consumer.commit({tp: OffsetAndMetadata(0, "note", -1)})
        # The embedded broker keeps no commit metadata and answers null: the
        # consumer hands on None, as kafka-python does, not "".
        assert consumer.committed(tp, metadata=True).metadata is None
    finally:
        consumer.close()


# -- error classes ------------------------------------------------------------------------


@pytest.mark.parametrize("cls, bases", [
    (errors.CorrelationIdError, (errors.KafkaProtocolError, errors.RetriableError)),
    (errors.InvalidReceiveError, (errors.KafkaProtocolError,)),
    (errors.CorruptRecordError, (errors.BrokerResponseError, errors.KafkaProtocolError)),
    (errors.ChecksumError, (errors.CorruptRecordError,)),
    (errors.CorruptMessageError, (errors.CorruptRecordError,)),
    (errors.ElectionNotNeededError, (errors.InvalidMetadataError,)),
    (errors.EligibleLeadersNotAvailableError, (errors.InvalidMetadataError,)),
    (errors.PreferredLeaderNotAvailableError, (errors.InvalidMetadataError,)),
])
def test_error_bases(cls: type, bases: Tuple[type, ...]) -> None:
    for base in bases:
        assert issubclass(cls, base), (cls, base)


def test_error_codes_of_bases() -> None:
    assert errors.BrokerResponseError.errno is None and errors.AuthorizationError.errno is None
    assert errors.CorruptRecordError.errno == 2 and errors.CorruptRecordException is errors.CorruptRecordError
    assert errors.for_code(2) is errors.CorruptMessageError
    assert str(errors.BrokerResponseError("x")) == "[Error None] BrokerResponseError: x"
    assert errors.KafkaProtocolError.__name__ == "KafkaProtocolError" and errors.ProtocolError is errors.KafkaProtocolError
