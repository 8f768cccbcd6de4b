"""The simple producers refuse a topic or partition no request can carry, at the call.

In asynchronous mode such a message used to be queued: a bad topic was
retried until ``stop()`` gave up on it, and a partition of the wrong type
failed the whole batch, dropping the other partitions' messages with it.
"""

from __future__ import annotations

import threading
import time

import pytest

from kafka import KafkaClient, KeyedProducer, SimpleProducer, errors
from kafka.simple.producer import Producer
from test.support.scripted_produce import producing_peer

BAD_TOPICS = [b"", "", b"bad topic", "t/1", "a" * 250, b"\xff"]
BAD_PARTITIONS = [None, "0", 1.0, True, -1]


@pytest.fixture
def peer():
    scripted, log = producing_peer({"t": 2})
    with scripted:
        yield scripted, log


@pytest.fixture
def client(peer):
    made = KafkaClient(peer[0].bootstrap, timeout=3)
    yield made
    made.close()


def _stops_quickly(producer, within=3.0):
    stopper = threading.Thread(target=producer.stop, kwargs={"timeout": 10}, daemon=True)
    started = time.monotonic()
    stopper.start()
    stopper.join(within + 5)
    assert not stopper.is_alive()
    assert time.monotonic() - started < within, "stop() waited on an undeliverable message"


@pytest.mark.parametrize("topic", BAD_TOPICS, ids=repr)
@pytest.mark.parametrize("async_send", [False, True], ids=["sync", "async"])
def test_a_bad_topic_is_refused_by_every_simple_producer(peer, client, topic, async_send):
    _, log = peer
    producers = [Producer(client, async_send=async_send, batch_send_every_t=0.05),
                 SimpleProducer(client, async_send=async_send, batch_send_every_t=0.05),
                 KeyedProducer(client, async_send=async_send, batch_send_every_t=0.05)]
    for producer in producers:
        with pytest.raises(errors.IllegalArgumentError):
            if isinstance(producer, KeyedProducer):
                producer.send_messages(topic, b"k", b"x")
            elif isinstance(producer, SimpleProducer):
                producer.send_messages(topic, b"x")
            else:
                producer.send_messages(topic, 0, b"x")
    producers[0].send_messages("t", 0, b"good")
    for producer in producers:
        _stops_quickly(producer)
    assert log.values("t", 0) == [b"good"]


@pytest.mark.parametrize("partition", BAD_PARTITIONS, ids=repr)
def test_a_bad_partition_does_not_drop_other_messages_of_the_batch(peer, client, partition):
    _, log = peer
    producer = Producer(client, async_send=True, batch_send_every_t=0.2)
    producer.send_messages("t", 1, b"good-1")
    with pytest.raises(errors.IllegalArgumentError):
        producer.send_messages("t", partition, b"bad")
    producer.send_messages("t", 0, b"good-0")
    _stops_quickly(producer)
    assert log.values("t", 0) == [b"good-0"] and log.values("t", 1) == [b"good-1"]
