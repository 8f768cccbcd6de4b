"""kafka.confluent.serialization and error, SerializingProducer/DeserializingConsumer vs confluent_kafka's."""

from __future__ import annotations

import math
import uuid

import pytest


@pytest.fixture(scope="module")
def pair():
    ck_ser = pytest.importorskip("confluent_kafka.serialization")
    import kafka.confluent.serialization as kw_ser

    return ck_ser, kw_ser


INTS = [0, 1, -1, 255, 256, 2 ** 31 - 1, -(2 ** 31), 123456789, None]
DOUBLES = [0.0, -0.0, 1.5, -2.25, 1e300, -1e-300, math.inf, -math.inf, 3.141592653589793, None]
TEXTS = ["", "abc", "h\u00e9llo", "\u65e5\u672c", "emoji \U0001F600", None]
CODECS = ["utf_8", "utf-16", "latin-1", "ascii"]


def _same(make_theirs, make_ours, values, ctx_args=("t", "value")):
    for value in values:
        results = []
        for make in (make_theirs, make_ours):
            try:
                results.append(("ok", make()(value, None)))
            except Exception as exc:  # noqa: BLE001
                results.append(("err", type(exc).__name__))
        assert results[0] == results[1], value


def test_integer_bytes_match(pair):
    ck, kw = pair
    _same(ck.IntegerSerializer, kw.IntegerSerializer, INTS + [2 ** 31, "x", 1.5])
    blobs = [ck.IntegerSerializer()(v) for v in INTS if v is not None] + [b"", b"\x00\x01", b"12345", None]
    _same(ck.IntegerDeserializer, kw.IntegerDeserializer, blobs)


def test_double_bytes_match(pair):
    ck, kw = pair
    _same(ck.DoubleSerializer, kw.DoubleSerializer, DOUBLES + ["x"])
    blobs = [ck.DoubleSerializer()(v) for v in DOUBLES if v is not None] + [b"\x00" * 7, None]
    _same(ck.DoubleDeserializer, kw.DoubleDeserializer, blobs)
    nan = kw.DoubleSerializer()(math.nan)
    assert nan == ck.DoubleSerializer()(math.nan)
    assert math.isnan(kw.DoubleDeserializer()(nan))


@pytest.mark.parametrize("codec", CODECS)
def test_string_bytes_match(pair, codec):
    ck, kw = pair
    _same(lambda: ck.StringSerializer(codec), lambda: kw.StringSerializer(codec), TEXTS + [5])
    blobs = [b"abc", b"\xc3\xa9", b"\xff\xfe", b"", None]
    _same(lambda: ck.StringDeserializer(codec), lambda: kw.StringDeserializer(codec), blobs)


def test_errors_are_serialization_errors(pair):
    ck, kw = pair
    with pytest.raises(kw.SerializationError):
        kw.IntegerSerializer()(2 ** 40)
    with pytest.raises(kw.SerializationError):
        kw.StringDeserializer("ascii")(b"\xff")
    with pytest.raises(LookupError):  # not wrapped, as in confluent-kafka
        kw.StringSerializer("no-such-codec")("x")
    import kafka.confluent

    assert issubclass(kw.SerializationError, kafka.confluent.KafkaException)


def test_context_and_field(pair):
    ck, kw = pair
    for lib in (ck, kw):
        ctx = lib.SerializationContext("t", lib.MessageField.KEY, [("h", b"1")])
        assert (ctx.topic, str(ctx.field), ctx.headers) == ("t", "key", [("h", b"1")])
        assert lib.MessageField.VALUE == "value"
        with pytest.raises(NotImplementedError):
            lib.Serializer()(1)
        with pytest.raises(NotImplementedError):
            lib.Deserializer()(b"1")


def test_error_classes_match():
    ck_err = pytest.importorskip("confluent_kafka.error")
    import kafka.confluent.error as kw_err

    for name in ("ConsumeError", "ProduceError", "KeySerializationError", "ValueSerializationError",
                 "KeyDeserializationError", "ValueDeserializationError"):
        assert issubclass(getattr(kw_err, name), kw_err.KafkaException)
    cause = ValueError("bad")
    for name in ("KeySerializationError", "ValueSerializationError"):
        theirs, ours = getattr(ck_err, name)(cause), getattr(kw_err, name)(cause)
        assert (theirs.code, theirs.name, theirs.exception) == (ours.code, ours.name, ours.exception)
        assert ours.args[0].str() == theirs.args[0].str()
    for name in ("KeyDeserializationError", "ValueDeserializationError"):
        theirs, ours = getattr(ck_err, name)(cause, "m"), getattr(kw_err, name)(cause, "m")
        assert (theirs.code, theirs.name, theirs.kafka_message) == (ours.code, ours.name, ours.kafka_message)
    assert issubclass(kw_err.KeySerializationError, kw_err.ProduceError)
    import kafka.confluent.serialization as kw_ser

    assert issubclass(kw_err.ValueDeserializationError, kw_ser.SerializationError)


def test_install_points_at_error_module():
    import sys

    import kafka.confluent
    import kafka.confluent.error

    saved = {k: v for k, v in sys.modules.items() if k == "confluent_kafka" or k.startswith("confluent_kafka.")}
    try:
        kafka.confluent.install_as_confluent_kafka()
        import confluent_kafka.error
        import confluent_kafka.serialization

        assert confluent_kafka.error is kafka.confluent.error
        assert confluent_kafka.serialization.StringSerializer is kafka.confluent.serialization.StringSerializer
        assert confluent_kafka.SerializingProducer is kafka.confluent.SerializingProducer
    finally:
        for k in [k for k in sys.modules if k == "confluent_kafka" or k.startswith("confluent_kafka.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_serializing_round_trip_both_ways(broker, ck, kc):
    """Our SerializingProducer -> confluent DeserializingConsumer and the reverse give the same records."""
    import confluent_kafka.serialization as cs

    import kafka.confluent.serialization as ks

    def run(P, C, ser, suffix):
        topic = "ser-" + suffix
        reports = []
        producer = P({"bootstrap.servers": broker.bootstrap_servers, "key.serializer": ser.IntegerSerializer(),
                      "value.serializer": ser.StringSerializer()})
        for i in range(3):
            producer.produce(topic, key=i, value="v\u00e9%d" % i, headers=[("h", b"x")],
                             on_delivery=lambda err, msg: reports.append(err))
        assert producer.flush(30) == 0
        assert reports == [None, None, None]
        with pytest.raises(Exception) as info:
            producer.produce(topic, key="not an int", value="v")
        assert type(info.value).__name__ == "KeySerializationError"
        consumer = C({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g-" + suffix,
                      "auto.offset.reset": "earliest", "session.timeout.ms": 6000,
                      "key.deserializer": ser.IntegerDeserializer(),
                      "value.deserializer": ser.StringDeserializer()})
        consumer.subscribe([topic])
        got = []
        for _ in range(120):
            msg = consumer.poll(0.5)
            if msg is not None:
                got.append((msg.key(), msg.value(), msg.headers()))
            if len(got) == 3:
                break
        consumer.close()
        return sorted(got)

    a = run(kc.SerializingProducer, ck.DeserializingConsumer, ks, uuid.uuid4().hex[:8])
    b = run(ck.SerializingProducer, kc.DeserializingConsumer, cs, uuid.uuid4().hex[:8])
    assert a == b == [(i, "v\u00e9%d" % i, [("h", b"x")]) for i in range(3)]


def test_deserializer_failure_raises_value_deserialization_error(broker, kc):
    import kafka.confluent.error as kw_err
    import kafka.confluent.serialization as ks

    topic = "deser-" + uuid.uuid4().hex[:8]
    producer = kc.Producer({"bootstrap.servers": broker.bootstrap_servers})
    producer.produce(topic, b"\x01\x02", b"\x00\x00\x00\x07")
    assert producer.flush(30) == 0
    consumer = kc.DeserializingConsumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": topic,
                                         "auto.offset.reset": "earliest", "session.timeout.ms": 6000,
                                         "key.deserializer": ks.IntegerDeserializer(),
                                         "value.deserializer": ks.IntegerDeserializer()})
    consumer.subscribe([topic])
    try:
        with pytest.raises(kw_err.ValueDeserializationError) as info:
            for _ in range(120):
                consumer.poll(0.5)
        # As in confluent-kafka the message keeps its raw key when the value fails.
        assert info.value.kafka_message.key() == b"\x00\x00\x00\x07"
        assert info.value.code == kw_err.KafkaError._VALUE_DESERIALIZATION
        with pytest.raises(NotImplementedError):
            consumer.consume()
    finally:
        consumer.close()
