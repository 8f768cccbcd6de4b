"""The examples of confluent-kafka's documentation (the seed reference) run on kafka.confluent.

The two examples are copied here as the document writes them, only the broker
address changes ('mybroker.com' becomes the embedded broker). When the
reference document is found beside the repository, the copies are checked
against it.
"""

from __future__ import annotations

import logging
import os
import time
import uuid

import pytest

from test.support.topics import new_topic

CONSUMER_EXAMPLE = """\
  conf = {'bootstrap.servers': 'mybroker.com',
          'group.id': 'mygroup', 'session.timeout.ms': 6000,
          'on_commit': my_commit_callback,
          'default.topic.config': {'auto.offset.reset': 'smallest'}}
  consumer = confluent_kafka.Consumer(conf)
"""

LOGGER_EXAMPLE = """\
  mylogger = logging.getLogger()
  mylogger.addHandler(logging.StreamHandler())
  producer = confluent_kafka.Producer({'bootstrap.servers': 'mybroker.com'},
                                      logger=mylogger)
"""


def _seed_text():
    here = os.path.dirname(os.path.abspath(__file__))
    while True:
        seeds = os.path.join(here, "shared", "seeds")
        if os.path.isdir(seeds):
            for entry in sorted(os.listdir(seeds)):
                with open(os.path.join(seeds, entry), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if "confluent_kafka.Consumer(conf)" in text:
                    return text
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def test_examples_are_the_documents():
    text = _seed_text()
    if text is None:
        pytest.skip("the seed reference is not beside the repository")
    assert CONSUMER_EXAMPLE in text
    assert LOGGER_EXAMPLE in text


def _run(example, broker, **names):
    import kafka.confluent as confluent_kafka

    code = "\n".join(line[2:] for line in example.splitlines())
    code = code.replace("mybroker.com", broker.bootstrap_servers)
    scope = dict(confluent_kafka=confluent_kafka, logging=logging, **names)
    exec(compile(code, "<seed example>", "exec"), scope)  # noqa: S102 - the document's own code
    return scope


def test_consumer_configuration_example(broker):
    topic = new_topic(broker, partitions=1, prefix="cf-seed")
    commits = []
    scope = _run(CONSUMER_EXAMPLE, broker, my_commit_callback=lambda err, parts: commits.append((err, parts)))
    consumer = scope["consumer"]
    import kafka.confluent as confluent_kafka

    producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers})
    producer.produce(topic, b"seed")
    assert producer.flush(30) == 0
    # 'smallest' from default.topic.config: the record written before joining is read.
    consumer.subscribe([topic])
    deadline = time.monotonic() + 60
    msg = None
    while msg is None and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
    assert msg is not None and msg.error() is None and msg.value() == b"seed"
    consumer.commit(asynchronous=True)
    while not commits and time.monotonic() < deadline:
        consumer.poll(0.2)
    assert commits and commits[0][0] is None and commits[0][1][0].offset == 1
    consumer.close()


def test_producer_logger_example(broker):
    topic = new_topic(broker, partitions=1, prefix="cf-seed-log-%s" % uuid.uuid4().hex[:4])
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        producer = _run(LOGGER_EXAMPLE, broker)["producer"]
        producer.produce(topic, b"logged")
        assert producer.flush(30) == 0
    finally:
        root.handlers[:] = before
