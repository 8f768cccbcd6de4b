"""KafkaConsumer refuses bad topics where they come in, before they reach its metadata requests.

A topic of the wrong type used to land in the client's set of tracked
topics, and every metadata refresh after that failed sorting the set.
"""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.consumer import KafkaConsumer
from kafka.structs import TopicPartition
from kafka.testing.scripted_peer import ScriptedPeer

BAD_PARTITIONS = [TopicPartition(b"t", 0), TopicPartition(None, 0), ("bad topic", 0), ("", 0),
                  TopicPartition("t", 1.0), TopicPartition("t", -1), TopicPartition("t", True), "t", None]


@pytest.fixture
def consumer():
    with ScriptedPeer(topics={"t": 2}) as peer:
        made = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000,
                             enable_auto_commit=False)
        try:
            yield made
        finally:
            made.close(autocommit=False)


def _still_reads_metadata(consumer):
    assert consumer.partitions_for_topic("t") == {0, 1}


@pytest.mark.parametrize("partition", BAD_PARTITIONS, ids=repr)
def test_assign_refuses_a_bad_partition(consumer, partition):
    with pytest.raises(errors.IllegalArgumentError):
        consumer.assign([TopicPartition("t", 0), partition])
    assert consumer.assignment() == set()
    _still_reads_metadata(consumer)


@pytest.mark.parametrize("topics", [[None], [b"t"], b"t", ["bad topic"], [""], ["a" * 250]], ids=repr)
def test_subscribe_refuses_a_bad_topic(consumer, topics):
    with pytest.raises(errors.IllegalArgumentError):
        consumer.subscribe(topics)
    assert consumer.subscription() == set()
    _still_reads_metadata(consumer)


def test_a_pattern_is_a_regex_not_a_topic_name(consumer):
    consumer.subscribe(pattern="^t.*$")
    assert consumer.subscription() == set()  # filled from metadata, never a name check
    consumer.unsubscribe()
    with pytest.raises(errors.IllegalArgumentError, match="regex"):
        consumer.subscribe(pattern="([")
    with pytest.raises(TypeError):
        consumer.subscribe(pattern=b"t.*")


def test_partition_arguments_are_checked_everywhere(consumer):
    consumer.assign([TopicPartition("t", 0)])
    bad = TopicPartition(b"t", 0)
    calls = [
        lambda: consumer.seek(bad, 0),
        lambda: consumer.seek_to_beginning(bad),
        lambda: consumer.seek_to_end(bad),
        lambda: consumer.position(bad),
        lambda: consumer.highwater(bad),
        lambda: consumer.pause(bad),
        lambda: consumer.resume(bad),
        lambda: consumer.beginning_offsets([bad]),
        lambda: consumer.end_offsets([bad]),
        lambda: consumer.offsets_for_times({bad: 0}),
        lambda: consumer.partitions_for_topic(None),
        lambda: consumer.partitions_for_topic("bad topic"),
    ]
    for call in calls:
        with pytest.raises(errors.IllegalArgumentError):
            call()
    _still_reads_metadata(consumer)


def test_the_constructor_checks_its_topics():
    with ScriptedPeer(topics={"t": 1}) as peer:
        with pytest.raises(errors.IllegalArgumentError):
            KafkaConsumer(b"t", bootstrap_servers=peer.bootstrap)


def test_a_topic_name_of_the_longest_legal_length_goes_end_to_end(broker):
    from kafka import KafkaProducer
    from kafka.topic_names import MAX_TOPIC_NAME_LENGTH, check_topic_name
    from test.support.topics import create_topic

    name = ("long-" + "x" * 300)[:MAX_TOPIC_NAME_LENGTH]
    assert len(name) == 249 and check_topic_name(name) == name
    create_topic(broker.bootstrap_servers, name, 1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        assert producer.send(name, b"v").get(30).topic == name
    reader = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, auto_offset_reset="earliest",
                           consumer_timeout_ms=10000)
    try:
        reader.assign([TopicPartition(name, 0)])
        record = next(reader)
        assert (record.topic, record.value) == (name, b"v")
    finally:
        reader.close()
