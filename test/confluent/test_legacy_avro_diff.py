"""The legacy ``confluent_kafka.avro`` package: kafkawire's against confluent-kafka's, call for call.

confluent-kafka's legacy package stands on the ``avro`` package; kafkawire's
on fastavro and its own Schema Registry client. Each check runs the same
calls on both (on two fresh test registries when the calls change the
registry, on one shared registry and the embedded broker when records must
cross) and compares what they answer or raise: the same registered texts and
schema ids, the same framed bytes, the same errors and messages, and each
side decoding what the other produced.
"""

from __future__ import annotations

import importlib
import json
import uuid
import warnings
from types import ModuleType
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

from kafka.testing.schema_registry import SchemaRegistryServer
from test.support.topics import new_topic

pytest.importorskip("fastavro")
pytest.importorskip("avro")  # what confluent-kafka's legacy package parses schemas with

READING = {"type": "record", "name": "Reading", "namespace": "kw.legacy", "doc": "one reading", "fields": [
    {"name": "sensor", "type": "string", "doc": "where"},
    {"name": "value", "type": "double"},
    {"name": "unit", "type": {"type": "enum", "name": "Unit", "symbols": ["C", "F"]}, "default": "C"},
    {"name": "tags", "type": {"type": "map", "values": "string"}, "default": {}},
    {"name": "note", "type": ["null", "string"], "default": None}]}
READING_V2 = dict(READING, fields=READING["fields"] + [{"name": "seq", "type": "long", "default": 0}])
KEY = {"type": "record", "name": "Key", "fields": [{"name": "id", "type": "int"}]}
RECORDS = [{"sensor": "s%d" % n, "value": n * 1.25, "unit": "F" if n % 2 else "C", "tags": {"n": str(n)},
            "note": None if n % 2 else "n\u00e9"} for n in range(3)]

SCHEMAS = [
    READING, READING_V2, KEY, "string", {"type": "string"}, ["null", "long"], {"type": "array", "items": "int"},
    {"type": "int", "logicalType": "date"}, {"type": "bytes", "logicalType": "decimal", "precision": 6},
    {"type": "record", "name": "a.b.Outer", "namespace": "ignored", "x-extra": 1, "fields": [
        {"name": "inner", "type": {"type": "record", "name": "Inner", "fields": [{"name": "i", "type": "int"}]}},
        {"name": "again", "type": "Inner", "order": "descending"},
        {"name": "fx", "aliases": ["f"], "type": {"type": "fixed", "name": "Hash", "namespace": "", "size": 4}}]},
    {"type": "record", "name": "R", "namespace": "p", "fields": [
        {"name": "s", "type": {"type": "record", "name": "S", "namespace": "", "fields": []}},
        {"name": "d", "type": {"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 5}}]},
]
BAD_SCHEMAS = ["{not json", '{"type": "record"}', '"Nope"', json.dumps({"type": "record", "name": "R", "fields": [
    {"name": "a", "type": "Unknown"}]})]


@pytest.fixture(scope="module")
def real() -> ModuleType:
    import confluent_kafka.avro as legacy

    return legacy


@pytest.fixture(scope="module")
def ours() -> ModuleType:
    import kafka.confluent.avro as legacy

    return legacy


@pytest.fixture
def registry() -> Iterator[SchemaRegistryServer]:
    with SchemaRegistryServer() as server:
        yield server


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def plain(value: Any) -> Any:
    """An answer as data both libraries' answers can be compared as: a schema as its text."""
    if isinstance(value, BaseException):
        return (type(value).__name__, str(value))
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if value is None or isinstance(value, (int, float, str, bool, dict)):
        return value
    return ("schema", str(value))


def outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("ok", plain(call()))
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return ("raised", plain(exc))


def _text(schema: Any) -> str:
    return schema if isinstance(schema, str) and schema.startswith("{") else json.dumps(schema)


def test_parsed_schemas_read_as_the_same_text(real: ModuleType, ours: ModuleType) -> None:
    for schema in SCHEMAS:
        theirs, mine = real.loads(_text(schema)), ours.loads(_text(schema))
        assert str(mine) == str(theirs), schema
        assert mine == ours.loads(str(mine)) and hash(mine) == hash(ours.loads(str(mine)))


def test_schemas_that_do_not_parse_raise_client_error(real: ModuleType, ours: ModuleType, tmp_path: Any) -> None:
    for text in BAD_SCHEMAS:
        theirs, mine = outcome(lambda: real.loads(text)), outcome(lambda: ours.loads(text))
        assert mine[0] == theirs[0] == "raised"
        assert mine[1][0] == theirs[1][0] == "ClientError"
        assert mine[1][1].startswith("Schema parse failed: ") and theirs[1][1].startswith("Schema parse failed: ")
    path = tmp_path / "reading.avsc"
    path.write_text(json.dumps(READING))
    assert str(ours.load(str(path))) == str(real.load(str(path)))
    assert plain(outcome(lambda: ours.load(str(tmp_path / "missing.avsc")))) == \
        plain(outcome(lambda: real.load(str(tmp_path / "missing.avsc"))))


def _registry_script(legacy: ModuleType, url: str) -> List[Any]:
    """A run of the legacy client's calls on a fresh registry; every answer and error, in order."""
    client = legacy.CachedSchemaRegistryClient({"url": url})
    v1, v2, key = (legacy.loads(json.dumps(s)) for s in (READING, READING_V2, KEY))
    narrower = legacy.loads(json.dumps(dict(READING, fields=READING["fields"][:1] + [
        {"name": "value", "type": "string"}])))
    calls: List[Callable[[], Any]] = [
        lambda: client.check_registration("t-value", v1),
        lambda: client.get_version("t-value", v1),
        lambda: client.get_latest_schema("t-value"),
        lambda: client.get_by_id(1),
        lambda: client.register("t-value", v1),
        lambda: client.register("t-value", v1),
        lambda: client.register("t-key", key),
        lambda: client.register("other-value", v1),
        lambda: client.check_registration("t-value", v1),
        lambda: client.get_by_id(1),
        lambda: client.get_by_id(99),
        lambda: client.test_compatibility("t-value", v2),
        lambda: client.test_compatibility("t-value", narrower),
        lambda: client.test_compatibility("nothing-value", v2),
        lambda: client.register("t-value", narrower),
        lambda: client.register("t-value", v2),
        lambda: client.get_latest_schema("t-value"),
        lambda: client.get_by_version("t-value", 1),
        lambda: client.get_by_version("t-value", 7),
        lambda: client.get_version("t-value", v2),
        lambda: client.get_compatibility(),
        lambda: client.update_compatibility("FULL", "t-value"),
        lambda: client.get_compatibility("t-value"),
        lambda: client.update_compatibility("SIDEWAYS"),
        lambda: client.update_compatibility("NONE"),
        lambda: client.get_compatibility(),
        lambda: client.get_compatibility("t-key"),
        lambda: client.delete_subject("t-key"),
        lambda: client.delete_subject("t-key"),
        lambda: client.check_registration("t-key", key),
        lambda: client.register("t-value", '{"type": "record", "name": "Text", "fields": []}'),
        lambda: sorted(client.subject_to_schema_ids["t-value"].values()),
    ]
    answers = [outcome(call) for call in calls]
    client.close()
    return answers


def test_registry_client_answers_and_errors(real: ModuleType, ours: ModuleType) -> None:
    with SchemaRegistryServer() as theirs_server, SchemaRegistryServer() as our_server:
        theirs = _registry_script(real, theirs_server.url)
        mine = _registry_script(ours, our_server.url)
    for number, (got, expected) in enumerate(zip(mine, theirs)):
        assert got == expected, "call %d" % number


CONFIGS: List[Any] = [
    {"url": 8081},
    {"url": "localhost:8081"},
    {"url": "http://h:1", "bogus": 1},
    {"url": "http://h:1", "basic.auth.credentials.source": "NOPE"},
    {"url": "http://h:1", "basic.auth.credentials.source": "SASL_INHERIT", "sasl.mechanism": "GSSAPI"},
    {"url": "http://h:1", "basic.auth.user.info": "u:p"},
    {"url": "http://h:1", "ssl.certificate.location": "/c.pem"},
    {"url": "http://u:p@h:1/#frag", "auto.register.schemas": False},
    {"url": "http://h:1/", "basic.auth.credentials.source": "USER_INFO", "basic.auth.user.info": "u:p"},
]


def test_registry_client_configurations(real: ModuleType, ours: ModuleType) -> None:
    def made(legacy: ModuleType, conf: Dict[str, Any]) -> Any:
        client = legacy.CachedSchemaRegistryClient(dict(conf))
        return (client.url, client.auto_register_schemas)

    for conf in CONFIGS:
        assert outcome(lambda: made(ours, conf)) == outcome(lambda: made(real, conf)), conf
    deprecated = outcome(lambda: ours.CachedSchemaRegistryClient("http://h:1").url)
    assert deprecated == outcome(lambda: real.CachedSchemaRegistryClient("http://h:1").url)
    for legacy in (real, ours):
        with pytest.raises(ValueError, match="Cannot pass schema_registry along with schema.registry.url config"):
            legacy.AvroProducer({"schema.registry.url": "http://h:1"},
                                schema_registry=legacy.CachedSchemaRegistryClient({"url": "http://h:1"}))


def _serializers(legacy: ModuleType, url: str, **readers: Any) -> Any:
    return legacy.MessageSerializer(legacy.CachedSchemaRegistryClient({"url": url}), **readers)


def test_message_serializers_frame_the_same_bytes(real: ModuleType, ours: ModuleType,
                                                  registry: SchemaRegistryServer) -> None:
    theirs, mine = _serializers(real, registry.url), _serializers(ours, registry.url)
    their_schema, our_schema = real.loads(json.dumps(READING)), ours.loads(json.dumps(READING))
    for record in RECORDS:
        expected = theirs.encode_record_with_schema("t", their_schema, record)
        got = mine.encode_record_with_schema("t", our_schema, record)
        assert got == expected and got[:1] == b"\x00"
        assert mine.decode_message(expected) == theirs.decode_message(got) == record
    key = mine.encode_record_with_schema("t", ours.loads(json.dumps(KEY)), {"id": 7}, is_key=True)
    assert key == theirs.encode_record_with_schema("t", real.loads(json.dumps(KEY)), {"id": 7}, is_key=True)
    assert mine.decode_message(key, is_key=True) == {"id": 7}
    known_id = int.from_bytes(key[1:5], "big")
    assert mine.encode_record_with_schema_id(known_id, {"id": 8}) == \
        theirs.encode_record_with_schema_id(known_id, {"id": 8})
    for broken in (b"\x00\x00\x00", b"\x01\x00\x00\x00\x01\x02", b"\x00\x00\x00\x03\xe7\x02"):
        assert outcome(lambda: mine.decode_message(broken)) == outcome(lambda: theirs.decode_message(broken))
    assert outcome(lambda: mine.encode_record_with_schema_id(999, {"id": 1}))[1][0] == "ValueSerializerError"
    assert mine.decode_message(None) is theirs.decode_message(None) is None


def test_reader_schemas_resolve_old_records(real: ModuleType, ours: ModuleType,
                                            registry: SchemaRegistryServer) -> None:
    writer = _serializers(real, registry.url)
    framed = writer.encode_record_with_schema("r", real.loads(json.dumps(READING)), RECORDS[0])
    theirs = _serializers(real, registry.url, reader_value_schema=real.loads(json.dumps(READING_V2)))
    mine = _serializers(ours, registry.url, reader_value_schema=ours.loads(json.dumps(READING_V2)))
    assert mine.decode_message(framed) == theirs.decode_message(framed) == dict(RECORDS[0], seq=0)


def test_auto_register_off_looks_the_schema_up(real: ModuleType, ours: ModuleType,
                                               registry: SchemaRegistryServer) -> None:
    def attempt(legacy: ModuleType) -> Any:
        client = legacy.CachedSchemaRegistryClient({"url": registry.url, "auto.register.schemas": False})
        return outcome(lambda: legacy.MessageSerializer(client).encode_record_with_schema(
            "unregistered", legacy.loads(json.dumps(KEY)), {"id": 1}))

    assert attempt(ours) == attempt(real) == ("raised", ("ClientError", "Schema or subject not found:404"))


def _producer(lib: ModuleType, broker: Any, registry: SchemaRegistryServer, **schemas: Any) -> Any:
    return lib.AvroProducer({"bootstrap.servers": broker.bootstrap_servers, "schema.registry.url": registry.url},
                            **schemas)


def _read(consumer: Any, count: int) -> List[Tuple[Any, Any]]:
    """(key, value) of the first ``count`` messages ``consumer`` polls (within a minute); closes it."""
    got: List[Tuple[Any, Any]] = []
    try:
        for _ in range(120):
            msg = consumer.poll(0.5)
            if msg is not None and not msg.error():
                got.append((msg.key(), msg.value()))
            if len(got) == count:
                break
    finally:
        consumer.close()
    return got


def _consume_raw(ck: Any, broker: Any, topic: str, count: int) -> List[Tuple[Any, Any]]:
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "raw-" + topic,
                            "auto.offset.reset": "earliest"})
    consumer.assign([ck.TopicPartition(topic, 0, 0)])
    return _read(consumer, count)


def _avro_consumer(lib: ModuleType, broker: Any, registry: SchemaRegistryServer, topic: str) -> Any:
    """``lib``'s AvroConsumer assigned ``topic``'s partition 0 from its start (no group join to wait for)."""
    consumer = lib.AvroConsumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": uuid.uuid4().hex,
                                 "schema.registry.url": registry.url})
    client_lib = importlib.import_module("confluent_kafka" if lib.__name__.startswith("confluent_kafka")
                                         else "kafka.confluent")
    consumer.assign([client_lib.TopicPartition(topic, 0, 0)])
    return consumer


def _consume_avro(lib: ModuleType, broker: Any, registry: SchemaRegistryServer, topic: str,
                  count: int) -> List[Tuple[Any, Any]]:
    return _read(_avro_consumer(lib, broker, registry, topic), count)


def test_producers_write_the_same_records_and_consumers_read_each_other(
        broker: Any, ck: Any, real: ModuleType, ours: ModuleType, registry: SchemaRegistryServer) -> None:
    topics = {}
    for name, lib in (("real", real), ("ours", ours)):
        topic = new_topic(broker, partitions=1, prefix="legacy-avro-" + name)
        producer = _producer(lib, broker, registry, default_key_schema=lib.loads(json.dumps(KEY)),
                             default_value_schema=lib.loads(json.dumps(READING)))
        for number, record in enumerate(RECORDS):
            producer.produce(topic=topic, value=record, key={"id": number})
        producer.produce(topic=topic, value=None, key={"id": 9})
        assert producer.flush(30) == 0
        topics[name] = topic
    count = len(RECORDS) + 1
    written = _consume_raw(ck, broker, topics["ours"], count)
    assert written == _consume_raw(ck, broker, topics["real"], count)
    expected = [({"id": n}, r) for n, r in enumerate(RECORDS)] + [({"id": 9}, None)]
    assert _consume_avro(ours, broker, registry, topics["real"], count) == expected
    assert _consume_avro(real, broker, registry, topics["ours"], count) == expected


def test_produce_refusals(broker: Any, real: ModuleType, ours: ModuleType, registry: SchemaRegistryServer) -> None:
    def refusals(lib: ModuleType) -> List[Any]:
        producer = _producer(lib, broker, registry)
        schema = lib.loads(json.dumps(KEY))
        return [
            outcome(lambda: producer.produce(value={"id": 1}, value_schema=schema)),
            outcome(lambda: producer.produce(topic="", value={"id": 1}, value_schema=schema)),
            outcome(lambda: producer.produce(topic="t", value={"id": 1})),
            outcome(lambda: producer.produce(topic="t", key={"id": 1}, value={"id": 1}, value_schema=schema)),
            outcome(lambda: producer.produce("t", {"id": 1})),
            outcome(lambda: producer.produce(topic="t", value={"id": "x"}, value_schema=schema)),
        ]

    assert refusals(ours) == refusals(real)


def test_consumer_names_the_record_it_cannot_decode(broker: Any, ck: Any, real: ModuleType, ours: ModuleType,
                                                    registry: SchemaRegistryServer) -> None:
    topic = new_topic(broker, partitions=1, prefix="legacy-avro-bad")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap_servers})
    producer.produce(topic, value=b"not avro at all")
    producer.produce(topic, value=b"\x00\x00\x00")
    assert producer.flush(30) == 0

    def errors(lib: ModuleType) -> List[Any]:
        consumer = _avro_consumer(lib, broker, registry, topic)
        seen: List[Any] = []
        try:
            for _ in range(120):
                result = outcome(lambda: consumer.poll(0.5))
                if result[0] == "raised":
                    seen.append(result)
                if len(seen) == 2:
                    break
        finally:
            consumer.close()
        return seen

    expected = [("raised", ("SerializerError", "Message deserialization failed for message at %s [0] offset %d: %s"
                            % (topic, offset, reason)))
                for offset, reason in ((0, "message does not start with magic byte"),
                                       (1, "message is too small to decode"))]
    assert errors(ours) == errors(real) == expected
