"""Schema Registry serializers through a broker: kafkawire's clients one way, confluent-kafka's the other.

A ``SerializingProducer`` with one library's Avro or JSON serializer writes
to the embedded broker; a ``DeserializingConsumer`` with the other library's
deserializer reads the records back, both sides using the test registry.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Dict, List

import pytest

from kafka.testing.schema_registry import SchemaRegistryServer
from test.confluent.schema_registry_support import libs, registry  # noqa: F401 - fixtures

pytest.importorskip("fastavro")
pytest.importorskip("jsonschema")

SCHEMA = json.dumps({"type": "record", "name": "Reading", "namespace": "kw.test", "fields": [
    {"name": "sensor", "type": "string"}, {"name": "value", "type": "double"},
    {"name": "note", "type": ["null", "string"], "default": None}]})
JSON_SCHEMA = json.dumps({"title": "Reading", "type": "object", "required": ["sensor", "value"],
                          "properties": {"sensor": {"type": "string"}, "value": {"type": "number"}}})
RECORDS = [{"sensor": "s%d" % i, "value": i * 1.5, "note": None if i % 2 else "n\u00e9"} for i in range(3)]


def _produce(client_lib: Any, sr_lib: Dict[str, Any], serializer: Any, broker: Any, topic: str,
             records: List[Dict[str, Any]]) -> None:
    producer = client_lib.SerializingProducer({"bootstrap.servers": broker.bootstrap_servers,
                                               "key.serializer": sr_lib["serialization"].StringSerializer(),
                                               "value.serializer": serializer})
    for number, record in enumerate(records):
        producer.produce(topic, key="k%d" % number, value=record)
    assert producer.flush(30) == 0


def _consume(client_lib: Any, sr_lib: Dict[str, Any], deserializer: Any, broker: Any, topic: str,
             count: int) -> List[Any]:
    consumer = client_lib.DeserializingConsumer({
        "bootstrap.servers": broker.bootstrap_servers, "group.id": "g-" + topic, "auto.offset.reset": "earliest",
        "session.timeout.ms": 6000, "key.deserializer": sr_lib["serialization"].StringDeserializer(),
        "value.deserializer": deserializer})
    consumer.subscribe([topic])
    got: List[Any] = []
    try:
        for _ in range(120):
            msg = consumer.poll(0.5)
            if msg is not None:
                got.append((msg.key(), msg.value()))
            if len(got) == count:
                break
    finally:
        consumer.close()
    return sorted(got)


@pytest.mark.parametrize("kind", ["avro", "json"])
def test_records_cross_between_the_libraries(broker: Any, ck: Any, kc: Any, libs: Any,
                                             registry: SchemaRegistryServer, kind: str) -> None:
    theirs, ours = libs
    expected = sorted(("k%d" % n, r) for n, r in enumerate(RECORDS))
    if kind == "json":
        records = [{"sensor": r["sensor"], "value": r["value"]} for r in RECORDS]
        expected = sorted(("k%d" % n, r) for n, r in enumerate(records))
    else:
        records = RECORDS

    def serializer(lib: Dict[str, Any]) -> Any:
        client = lib["sr"].SchemaRegistryClient({"url": registry.url})
        if kind == "avro":
            return lib["avro"].AvroSerializer(client, SCHEMA)
        return lib["json_schema"].JSONSerializer(JSON_SCHEMA, client)

    def deserializer(lib: Dict[str, Any]) -> Any:
        client = lib["sr"].SchemaRegistryClient({"url": registry.url})
        if kind == "avro":
            return lib["avro"].AvroDeserializer(client)
        return lib["json_schema"].JSONDeserializer(None, schema_registry_client=client)

    for writer, writer_lib, reader, reader_lib in ((ours, kc, theirs, ck), (theirs, ck, ours, kc)):
        topic = "sr-%s-%s" % (kind, uuid.uuid4().hex[:8])
        _produce(writer_lib, writer, serializer(writer), broker, topic, records)
        assert _consume(reader_lib, reader, deserializer(reader), broker, topic, len(records)) == expected
