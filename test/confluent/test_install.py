"""install_as_confluent_kafka(): an unchanged confluent-kafka program runs on kafkawire."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from test.support.topics import new_topic

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROGRAM = textwrap.dedent("""
    import sys
    sys.path[:] = [{repo!r}] + [p for p in sys.path if "site-packages" not in p]
    try:
        import confluent_kafka  # noqa: F401
        raise SystemExit("the real confluent_kafka is importable")
    except ImportError:
        pass
    import kafka.confluent
    assert kafka.confluent.__file__.startswith({repo!r}), kafka.confluent.__file__
    kafka.confluent.install_as_confluent_kafka()

    # --- an unchanged confluent-kafka program from here on ---
    from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
    from confluent_kafka.admin import ClusterMetadata

    delivered = []
    p = Producer({{"bootstrap.servers": {servers!r}}})
    p.produce({topic!r}, value="hello", key="k", on_delivery=lambda err, msg: delivered.append(err))
    assert p.flush(30) == 0 and delivered == [None]
    assert isinstance(p.list_topics(timeout=10), ClusterMetadata)
    c = Consumer({{"bootstrap.servers": {servers!r}, "group.id": "g-install", "auto.offset.reset": "earliest",
                  "enable.partition.eof": True}})
    c.assign([TopicPartition({topic!r}, 0, 0)])
    got = []
    while True:
        msg = c.poll(10)
        assert msg is not None
        if msg.error():
            assert msg.error().code() == KafkaError._PARTITION_EOF
            break
        got.append((msg.key(), msg.value()))
    c.close()
    print(got, confluent_kafka.__name__ if False else sys.modules["confluent_kafka"].__name__)
""")


def test_program_imports_confluent_kafka_and_runs_on_kafkawire(broker):
    topic = new_topic(broker, partitions=1, prefix="cf-install")
    code = PROGRAM.format(repo=REPO, servers=broker.bootstrap_servers, topic=topic)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[(b'k', b'hello')] kafka.confluent"


MODULES = textwrap.dedent("""
    import sys
    sys.path[:] = [{repo!r}] + [p for p in sys.path if "site-packages" not in p]
    import kafka.confluent
    kafka.confluent.install_as_confluent_kafka()

    import confluent_kafka.cimpl
    from confluent_kafka.cimpl import KafkaError, Producer
    from confluent_kafka.serialization import StringSerializer, SerializationContext, MessageField
    from confluent_kafka.serializing_producer import SerializingProducer
    from confluent_kafka.deserializing_consumer import DeserializingConsumer
    from confluent_kafka.error import KeySerializationError
    from confluent_kafka.admin import AdminClient
    from confluent_kafka.schema_registry import SchemaRegistryClient, Schema
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.schema_registry.error import SchemaRegistryError
    assert Producer is kafka.confluent.Producer and KafkaError is kafka.confluent.KafkaError
    assert SerializingProducer is kafka.confluent.SerializingProducer
    assert DeserializingConsumer is kafka.confluent.DeserializingConsumer
    assert StringSerializer()("x", SerializationContext("t", MessageField.VALUE)) == b"x"
    from confluent_kafka.avro import AvroConsumer, AvroProducer, CachedSchemaRegistryClient, load, loads
    from confluent_kafka.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError
    from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
    from confluent_kafka.avro.error import ClientError
    from confluent_kafka.avro.cached_schema_registry_client import CachedSchemaRegistryClient as Cached
    from confluent_kafka.avro.load import loads as loads_too
    assert Cached is CachedSchemaRegistryClient and loads_too is loads
    assert issubclass(AvroProducer, Producer) and issubclass(KeySerializerError, SerializerError)
    from confluent_kafka import Consumer
    assert issubclass(AvroConsumer, Consumer)
    from confluent_kafka.aio import AIOConsumer, AIOProducer
    import kafka.confluent.aio
    assert AIOProducer is kafka.confluent.aio.AIOProducer and AIOConsumer is kafka.confluent.aio.AIOConsumer
    try:  # fastavro is out of reach here: parsing a schema says which extra brings it
        loads('"string"')
        raise SystemExit("loads worked without fastavro")
    except ImportError as exc:
        assert "kafkawire[avro]" in str(exc), exc
    print(sorted(name for name in sys.modules if name.startswith("confluent_kafka")))
""")


def test_the_submodules_programs_import_are_registered():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-I", "-c", MODULES.format(repo=REPO)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    for name in ("confluent_kafka", "confluent_kafka.cimpl", "confluent_kafka.serialization",
                 "confluent_kafka.serializing_producer", "confluent_kafka.deserializing_consumer",
                 "confluent_kafka.error", "confluent_kafka.admin", "confluent_kafka.schema_registry",
                 "confluent_kafka.schema_registry.avro", "confluent_kafka.schema_registry.json_schema",
                 "confluent_kafka.avro", "confluent_kafka.avro.serializer",
                 "confluent_kafka.avro.serializer.message_serializer", "confluent_kafka.avro.error",
                 "confluent_kafka.avro.load", "confluent_kafka.avro.cached_schema_registry_client",
                 "confluent_kafka.aio"):
        assert "'%s'" % name in done.stdout


LEGACY_AVRO = textwrap.dedent("""
    import sys
    sys.path.insert(0, {repo!r})
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)
    import kafka.confluent
    kafka.confluent.install_as_confluent_kafka()

    # --- an unchanged program written for confluent_kafka.avro from here on ---
    from confluent_kafka import TopicPartition
    from confluent_kafka.avro import AvroConsumer, AvroProducer, loads
    from confluent_kafka.avro.serializer import ValueSerializerError

    key_schema = loads('{{"type": "record", "name": "Key", "fields": [{{"name": "id", "type": "int"}}]}}')
    value_schema = loads('{{"type": "record", "name": "Value", "fields": [{{"name": "text", "type": "string"}}]}}')
    producer = AvroProducer({{"bootstrap.servers": {servers!r}, "schema.registry.url": {registry!r}}},
                            default_key_schema=key_schema, default_value_schema=value_schema)
    producer.produce(topic={topic!r}, key={{"id": 1}}, value={{"text": "hello"}})
    try:
        producer.produce(topic={topic!r}, value={{"text": "no schema"}}, value_schema=None)
    except ValueSerializerError as exc:
        print("refused:", exc)
    assert producer.flush(30) == 0
    consumer = AvroConsumer({{"bootstrap.servers": {servers!r}, "group.id": "g-legacy-avro",
                             "schema.registry.url": {registry!r}}})
    consumer.assign([TopicPartition({topic!r}, 0, 0)])
    msg = None
    while msg is None:
        msg = consumer.poll(10)
    consumer.close()
    print(msg.key(), msg.value(), sys.modules["confluent_kafka.avro"].__name__)
""")


def test_a_legacy_avro_program_runs_on_kafkawire(broker):
    pytest.importorskip("fastavro")
    from kafka.testing.schema_registry import SchemaRegistryServer

    topic = new_topic(broker, partitions=1, prefix="cf-install-avro")
    with SchemaRegistryServer() as registry:
        code = LEGACY_AVRO.format(repo=REPO, servers=broker.bootstrap_servers, registry=registry.url, topic=topic)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["refused: Avro schema required for values",
                                        "{'id': 1} {'text': 'hello'} kafka.confluent.avro"]
