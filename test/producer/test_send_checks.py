"""send() refuses what the sender could not encode or send; a bad record never stalls good ones.

Every test runs a real producer against a scripted peer that accepts
Produce requests (``test/support/scripted_produce.py``), and ends by
checking that the producer still delivers and closes within a bound.
"""

from __future__ import annotations

import threading
import time

import pytest

from kafka import errors
from kafka.producer import KafkaProducer
from kafka.producer.future import header_size
from kafka.producer.partitioner import murmur2_partition
from kafka.protocol.apis import by_name
from kafka.record.memory_records import MemoryRecords
from kafka.structs import TopicPartition
from test.support.scripted_produce import producing_peer

BAD_TOPICS = [None, b"t", 123, ["t"], "", "a" * 250, "bad topic", "t/1", "caf\u00e9", ".", ".."]


@pytest.fixture
def peer():
    scripted, log = producing_peer({"t": 2, "u": 1})
    with scripted:
        yield scripted, log


def _producer(peer, **configs):
    settings = dict(bootstrap_servers=peer.bootstrap, acks=1, max_block_ms=3000, delivery_timeout_ms=5000,
                    request_timeout_ms=3000, linger_ms=5)
    settings.update(configs)
    return KafkaProducer(**settings)


def _closes_in_time(producer, within=10.0):
    """Close ``producer`` on a thread; fail if it is still closing after ``within`` s."""
    closer = threading.Thread(target=producer.close, daemon=True)
    closer.start()
    closer.join(within)
    assert not closer.is_alive(), "close() did not return within %.0f s" % within


def _still_delivers(producer, log, value=b"after"):
    meta = producer.send("t", value, partition=1).get(5)
    assert meta.topic == "t" and meta.partition == 1
    assert value in log.values("t", 1)


@pytest.mark.parametrize("topic", BAD_TOPICS, ids=repr)
def test_a_bad_topic_is_refused_at_send_and_does_not_wedge_the_producer(peer, topic):
    scripted, log = peer
    producer = _producer(scripted, max_block_ms=30000)
    try:
        started = time.monotonic()
        with pytest.raises(errors.IllegalArgumentError):
            producer.send(topic, b"v")
        assert time.monotonic() - started < 10  # at once, not after max_block_ms waiting for metadata
        with pytest.raises(errors.IllegalArgumentError):
            producer.partitions_for(topic)
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


def test_a_wrong_topic_type_is_also_a_type_error(peer):
    scripted, _ = peer
    producer = _producer(scripted)
    try:
        with pytest.raises(TypeError):
            producer.send(None, b"v")
        with pytest.raises(TypeError):
            producer.send(b"t", b"v")
        with pytest.raises(ValueError):
            producer.send("bad topic", b"v")
    finally:
        _closes_in_time(producer)


BAD_ARGUMENTS = [
    dict(timestamp_ms="now"),
    dict(timestamp_ms=1.5),
    dict(timestamp_ms=2 ** 70),
    dict(timestamp_ms=2 ** 63),
    dict(timestamp_ms=-5),
    dict(timestamp_ms=-1),
    dict(timestamp_ms=True),
    dict(headers=[("k\ud800", b"v")]),
    dict(headers=[("k", "text")]),
    dict(headers=[(b"k", b"v")]),
    dict(headers=[("k",)]),
    dict(headers=["kv"]),
    dict(headers={"k": b"v"}),
    dict(headers=5),
    dict(partition=1.0),
    dict(partition=True),
    dict(partition=-1),
    dict(partition=-2),
    dict(partition="0"),
    dict(partition=2),
    dict(key="text"),
    dict(key=7),
]


@pytest.mark.parametrize("arguments", BAD_ARGUMENTS, ids=repr)
def test_bad_arguments_are_refused_at_send(peer, arguments):
    scripted, log = peer
    producer = _producer(scripted, linger_ms=50)
    try:
        # A good record of another partition waits in its batch meanwhile: a
        # bad record accepted now would join the same produce request.
        good = producer.send("t", b"good", partition=0)
        with pytest.raises(errors.IllegalArgumentError):
            producer.send("t", b"v", **arguments)
        assert good.get(5).partition == 0
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


@pytest.mark.parametrize("arguments", BAD_ARGUMENTS, ids=repr)
def test_bad_arguments_of_keyed_records_are_refused_on_the_keyed_fast_path_too(peer, arguments):
    scripted, log = peer
    producer = _producer(scripted)
    try:
        producer.send("t", b"first", key=b"k").get(5)
        assert "t" in producer.pipeline.key_routes  # so the next keyed records take send()'s keyed fast path
        with pytest.raises(errors.IllegalArgumentError):
            producer.send("t", b"v", **dict(dict(key=b"k"), **arguments))
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


@pytest.mark.parametrize("arguments", [a for a in BAD_ARGUMENTS if "headers" in a or "timestamp_ms" in a], ids=repr)
def test_bad_headers_and_timestamps_are_refused_on_the_explicit_partition_fast_path_too(peer, arguments):
    scripted, log = peer
    producer = _producer(scripted)
    try:
        producer.send("t", b"first", partition=1).get(5)  # the partition is now cached
        with pytest.raises(errors.IllegalArgumentError):
            producer.send("t", b"v", partition=1, **arguments)
        with pytest.raises(errors.IllegalArgumentTypeError, match="header"):  # before the timestamp, as in _send
            producer.send("t", b"v", partition=1, timestamp_ms=-5, headers=[("k", "text")])
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


def _received(log, topic, partition):
    """(key, value, headers) of each record a partition of the scripted peer received."""
    with log._lock:
        raw = list(log.batches.get((topic, partition), ()))
    return [(r.key, r.value, list(r.headers)) for data in raw for batch in MemoryRecords(data) for r in batch]


@pytest.mark.parametrize("explicit", [False, True], ids=["by key", "explicit partition"])
def test_records_with_headers_of_every_kind_on_the_fast_paths(peer, explicit):
    scripted, log = peer
    producer = _producer(scripted)
    headers = [None, [], [("h", None), ("\u00e9", bytearray(b"x"))], (("h", b"1"),), [["l", b"2"]],
               iter([("it", b"3")]), [("trace-id", b"abc"), ("n", memoryview(b"4"))]]
    try:
        producer.send("t", b"first", key=b"k").get(5)
        producer.send("t", b"first", partition=0).get(5)
        producer.send("t", b"first", partition=1).get(5)
        assert "t" in producer.pipeline.key_routes and ("t", 1) in producer.pipeline.tps  # both fast paths are open
        where = [dict(partition=i % 2) if explicit else {} for i in range(len(headers))]
        futures = [producer.send("t", b"v%d" % i, key=b"key-%d" % i, headers=h, **where[i])
                   for i, h in enumerate(headers)]
        metas = [f.get(5) for f in futures]
        expected = [[(k, bytes(v) if v is not None else None) for k, v in h or ()]
                    for h in (None, [], [("h", None), ("\u00e9", b"x")], (("h", b"1"),), [["l", b"2"]],
                              [("it", b"3")], [("trace-id", b"abc"), ("n", b"4")])]
        for i, meta in enumerate(metas):
            assert meta.partition == (i % 2 if explicit else murmur2_partition(b"key-%d" % i, 2))
            assert meta.serialized_header_size == (header_size(expected[i]) if expected[i] else -1)
            assert meta.serialized_key_size == len(b"key-%d" % i)
            record = [r for r in _received(log, "t", meta.partition) if r[0] == b"key-%d" % i]
            assert record == [(b"key-%d" % i, b"v%d" % i, [tuple(kv) for kv in expected[i]])]
    finally:
        _closes_in_time(producer)


def test_good_arguments_of_every_kind_are_accepted(peer):
    scripted, log = peer
    producer = _producer(scripted)
    try:
        futures = [
            producer.send("t", bytearray(b"ba"), key=memoryview(b"mv"), partition=0),
            producer.send("t", None, key=b"tombstone", partition=0, timestamp_ms=0),
            producer.send("t", b"v", headers=[("h", None), ("\u00e9", bytearray(b"x"))], partition=0,
                          timestamp_ms=2 ** 63 - 1),
            producer.send("t", b"v", headers=(("h", b"1"),), partition=0),
            producer.send("u", b"v", headers=[]),
        ]
        for future in futures:
            future.get(5)
        assert log.values("t", 0) == [b"ba", None, b"v", b"v"]
    finally:
        _closes_in_time(producer)


def test_a_custom_partitioner_choosing_a_missing_partition_is_refused(peer):
    scripted, log = peer
    producer = _producer(scripted, partitioner=lambda key, all_parts, available: 7)
    try:
        with pytest.raises(errors.IllegalArgumentError, match="partitioner chose 7"):
            producer.send("t", b"v", key=b"k")
    finally:
        _closes_in_time(producer)


def test_a_batch_that_cannot_be_encoded_fails_alone(peer):
    # send() refuses such records now, so the bad record goes straight into
    # the accumulator, as one that slipped past the checks would.
    scripted, log = peer
    producer = _producer(scripted, linger_ms=200)
    try:
        good = [producer.send("t", b"good-%d" % i, partition=0) for i in range(3)]
        bad, _, _ = producer._accumulator.append(TopicPartition("t", 1), "now", None, b"bad", None, 1.0)
        producer.flush(10)
        assert [f.get(5).offset for f in good] == [0, 1, 2]
        with pytest.raises(errors.KafkaError, match="could not be encoded"):
            bad.get(5)
        assert log.values("t", 0) == [b"good-0", b"good-1", b"good-2"]
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


def test_an_idempotent_producer_keeps_its_sequence_after_a_batch_fails_to_encode():
    scripted, log = producing_peer({"t": 1})
    scripted.on("InitProducerId", lambda req: {"error_code": 0, "producer_id": 7, "producer_epoch": 0,
                                               "throttle_time_ms": 0})
    with scripted:
        producer = _producer(scripted, acks="all", enable_idempotence=True)
        try:
            producer.send("t", b"first").get(5)
            tp = TopicPartition("t", 0)
            bad, _, _ = producer._accumulator.append(tp, "now", None, b"bad", None, 1.0)
            with pytest.raises(errors.KafkaError):
                bad.get(5)
            assert producer.send("t", b"second").get(5).offset == 1
            assert producer._identity.next_sequence(tp) == 2
            assert len(scripted.received("InitProducerId")) == 1  # no new epoch was needed
        finally:
            _closes_in_time(producer)


# -- record size -----------------------------------------------------------------------------------


@pytest.mark.parametrize("limits", [dict(max_request_size=10000), dict(buffer_memory=10000, batch_size=1000)],
                         ids=["max_request_size", "buffer_memory"])
def test_a_record_too_large_for_a_request_or_the_buffer_is_refused_at_once(peer, limits):
    scripted, log = peer
    producer = _producer(scripted, max_block_ms=30000, **limits)
    try:
        producer.send("t", b"small").get(5)  # the fast path now knows the topic
        producer.send("t", b"small", key=b"k").get(5)  # and so does the keyed one
        name = list(limits)[0]
        for kwargs in (dict(), dict(key=b"k"), dict(headers=[("h", b"x")]), dict(key=b"k", headers=[("h", b"x")])):
            started = time.monotonic()
            with pytest.raises(errors.MessageSizeTooLargeError, match=name):
                producer.send("t", b"x" * 10001, **kwargs)
            assert time.monotonic() - started < 10  # at once, not after max_block_ms waiting for room
        with pytest.raises(errors.MessageSizeTooLargeError):
            producer.send("t", b"x" * 6000, key=b"k" * 6000)
        with pytest.raises(errors.MessageSizeTooLargeError):  # header keys count three bytes a character
            producer.send("t", b"x" * 9850, key=b"k", headers=[("h" * 40, b"")])
        producer.send("t", b"x" * 5000).get(5)
        sizes = [len(r.raw) for r in scripted.received("Produce")]
        assert max(sizes) < 10000
    finally:
        _closes_in_time(producer)


# -- transactions -----------------------------------------------------------------------------------


def test_send_offsets_to_transaction_checks_its_partitions_before_any_request():
    scripted, _ = producing_peer({"t": 1})
    scripted.api_versions[by_name("FindCoordinator").key] = (1, 3)
    scripted.on("FindCoordinator", lambda req: {"error_code": 0, "node_id": scripted.node_id,
                                                "host": "127.0.0.1", "port": scripted.port,
                                                "throttle_time_ms": 0})
    scripted.on("InitProducerId", lambda req: {"error_code": 0, "producer_id": 7, "producer_epoch": 0,
                                               "throttle_time_ms": 0})
    with scripted:
        producer = _producer(scripted, acks="all", transactional_id="tx-checks")
        try:
            producer.init_transactions()
            producer.begin_transaction()
            for bad in (TopicPartition(b"t", 0), TopicPartition("t", -1), ("bad topic", 0)):
                with pytest.raises(errors.IllegalArgumentError):
                    producer.send_offsets_to_transaction({bad: 5}, "group")
            assert scripted.received("AddOffsetsToTxn") == []
        finally:
            _closes_in_time(producer)


def test_a_serializer_returning_text_is_named_in_the_error(peer):
    scripted, log = peer
    producer = _producer(scripted, value_serializer=lambda v: v if isinstance(v, bytes) else str(v))
    try:
        with pytest.raises(errors.IllegalArgumentTypeError, match="value_serializer returned str"):
            producer.send("t", 5)
        _still_delivers(producer, log)
    finally:
        _closes_in_time(producer)


def test_integer_types_other_than_int_are_taken_for_partition_and_timestamp(peer):
    numpy = pytest.importorskip("numpy")
    scripted, log = peer
    producer = _producer(scripted)
    try:
        meta = producer.send("t", b"np", partition=numpy.int64(1), timestamp_ms=numpy.int64(1234)).get(5)
        assert (meta.partition, meta.timestamp) == (1, 1234)
    finally:
        _closes_in_time(producer)


def test_a_value_over_the_default_max_request_size_is_refused(peer):
    scripted, _ = peer
    producer = KafkaProducer(bootstrap_servers=scripted.bootstrap, acks=1)
    try:
        with pytest.raises(errors.MessageSizeTooLargeError, match="max_request_size"):
            producer.send("t", b"x" * (2 * 1024 * 1024))
        assert scripted.received("Produce") == []
    finally:
        _closes_in_time(producer)
