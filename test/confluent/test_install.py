"""install_as_confluent_kafka(): an unchanged confluent-kafka program runs on kafkawire."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

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
                 "confluent_kafka.schema_registry.avro", "confluent_kafka.schema_registry.json_schema"):
        assert "'%s'" % name in done.stdout
