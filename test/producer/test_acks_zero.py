"""acks=0: a record counts as sent only once its request is written to the socket.

Regression tests for a loss found in about 1 run in 12: the connection
resolved a fire-and-forget request's future as soon as its frame was queued,
the sender then completed the batch, and ``close()`` shut the socket with the
frame still unsent.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import struct
import time
import uuid

import pytest

from kafka import direct, errors
from kafka.conn.blocking import BlockingConnection
from kafka.conn.connection import BrokerConnection
from kafka.producer import KafkaProducer
from kafka.protocol.apis import PRODUCE

RUNS = 30
RECORDS = 200


# -- end to end, embedded broker ------------------------------------------------------


def test_acks_zero_close_right_after_send_loses_nothing(broker):
    """Fresh producers send then close at once; every record lands, in order."""
    topic = "acks0-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, topic, partitions=1)
    for run in range(RUNS):
        # A small batch_size makes several Produce requests per run, so the
        # last ones are still being written when close() is called.
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=0, linger_ms=0,
                                 batch_size=2048)
        futures = [producer.send(topic, value=b"%03d-%04d-" % (run, i) + b"x" * 100, partition=0)
                   for i in range(RECORDS)]
        producer.close(timeout=30)
        for future in futures:
            # acks=0 returns no offset; each record must have been delivered, not failed.
            assert future.get(timeout=0).offset == -1
    expected = [b"%03d-%04d-" % (run, i) + b"x" * 100 for run in range(RUNS) for i in range(RECORDS)]
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        blobs = direct.fetch_all(conn, info, 0, 0, len(expected), max_rounds=60)
    values = [r.value for r in direct.batches_to_records(blobs, 0, len(expected))]
    missing = sorted(set(expected) - set(values))
    assert not missing, "%d records missing, first %r" % (len(missing), missing[:3])
    assert values == expected


def test_acks_zero_flush_waits_until_written(broker):
    """flush() returns only after the sender saw the requests written."""
    topic = "acks0-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, topic, partitions=1)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, acks=0, batch_size=4096) as producer:
        futures = [producer.send(topic, value=b"%05d" % i, partition=0) for i in range(1000)]
        producer.flush(timeout=30)
        assert all(f.is_done and f.succeeded() for f in futures)
        assert not producer._accumulator.has_incomplete()
        conns = list(producer._client._conns.values())
        assert conns and not any(c.wants_write() or c.unwritten_count() for c in conns)
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        blobs = direct.fetch_all(conn, info, 0, 0, 1000, max_rounds=60)
    assert [r.value for r in direct.batches_to_records(blobs, 0, 1000)] == [b"%05d" % i for i in range(1000)]


def test_acks_zero_batches_wait_for_a_stalled_broker_then_retry(fresh_broker, caplog):
    """A broker that stops reading holds acks=0 batches back; they are retried once it resumes."""
    caplog.set_level(logging.DEBUG, logger="kafka.producer.sender")
    topic = "acks0-" + uuid.uuid4().hex[:8]
    with BlockingConnection(fresh_broker.host, fresh_broker.port) as conn:
        direct.create_topic(conn, topic, partitions=1)
    producer = KafkaProducer(bootstrap_servers=fresh_broker.bootstrap_servers, acks=0, linger_ms=0,
                             batch_size=256 * 1024, send_buffer_bytes=16384, request_timeout_ms=1500,
                             socket_connection_setup_timeout_ms=1000, retries=100, retry_backoff_ms=50)
    stopped = False
    try:
        producer.send(topic, value=b"warm-up", partition=0).get(timeout=10)
        os.kill(fresh_broker.pid, signal.SIGSTOP)
        stopped = True
        # 16 MB: more than the stopped broker's receive buffer and ours take.
        values = [b"%04d-" % i + b"v" * (200 * 1024) for i in range(80)]
        futures = [producer.send(topic, value=v, partition=0) for v in values]
        with pytest.raises(errors.KafkaTimeoutError):
            producer.flush(timeout=1)
        assert not all(f.is_done for f in futures)
        # Past request_timeout_ms the unwritten request fails, and its batches are retried.
        deadline = time.monotonic() + 15
        while not any("timed out" in r.getMessage() for r in caplog.records if r.name == "kafka.producer.sender"):
            assert time.monotonic() < deadline, "the unwritten request never timed out"
            time.sleep(0.05)
        assert not any(f.is_done and f.failed() for f in futures)
        os.kill(fresh_broker.pid, signal.SIGCONT)
        stopped = False
        producer.flush(timeout=60)
        assert all(f.succeeded() for f in futures)
    finally:
        if stopped:
            os.kill(fresh_broker.pid, signal.SIGCONT)
        producer.close(timeout=10)
    with BlockingConnection(fresh_broker.host, fresh_broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        blobs = direct.fetch_all(conn, info, 0, 0, 81, max_rounds=60)
    got = [r.value for r in direct.batches_to_records(blobs, 1)]
    assert set(values) <= set(got)


# -- connection layer, a real socket whose peer does not read -------------------------


class _StalledPeer:
    """A TCP listener whose accepted socket reads only when told to."""

    def __init__(self) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Small buffers (set before accept, so the accepted socket inherits
        # them) let the kernel fill up after a few KB.
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.peer: socket.socket = None  # type: ignore[assignment]
        self.received = bytearray()

    def accept(self) -> None:
        self.peer, _ = self.listener.accept()
        self.peer.setblocking(False)

    def read_some(self) -> int:
        try:
            data = self.peer.recv(1 << 20)
        except BlockingIOError:
            return 0
        self.received += data
        return len(data)

    def frames(self) -> list:
        out, pos = [], 0
        while pos + 4 <= len(self.received):
            size = struct.unpack_from(">i", self.received, pos)[0]
            if pos + 4 + size > len(self.received):
                break
            out.append(bytes(self.received[pos + 4:pos + 4 + size]))
            pos += 4 + size
        return out

    def close(self) -> None:
        if self.peer is not None:
            self.peer.close()
        self.listener.close()


@pytest.fixture
def stalled():
    peer = _StalledPeer()
    conn = BrokerConnection(1, "127.0.0.1", peer.port, api_version_request=False, send_buffer_bytes=4096)
    deadline = time.monotonic() + 5
    conn.connect()
    peer.accept()
    while not conn.connected():
        assert time.monotonic() < deadline, conn.last_error
        conn.connect()
        time.sleep(0.001)
    try:
        yield conn, peer
    finally:
        conn.close()
        peer.close()


def _produce(marker: bytes, size: int):
    return PRODUCE.Request(
        transactional_id=None, acks=0, timeout_ms=1000,
        topic_data=[PRODUCE.Request.TopicProduceData(
            name="t", topic_id=None,
            partition_data=[PRODUCE.Request.TopicProduceData.PartitionProduceData(
                index=0, records=marker + b"\0" * size)])])


def _fill(conn):
    """Write until the kernel takes no more; return what completed meanwhile."""
    completed = []
    for _ in range(100):
        done = conn.send_pending()
        completed.extend(done)
        if not done and conn.wants_write():
            break
    return completed


def test_fire_and_forget_pending_until_fully_written(stalled):
    conn, peer = stalled
    small = conn.send(PRODUCE, _produce(b"small", 10), version=3, expect_response=False)
    completed = _fill(conn)
    assert [f for f, _ in completed] == [small]  # written at once: handed back, not resolved here
    assert not small.is_done
    big = conn.send(PRODUCE, _produce(b"big", 4 << 20), version=3, expect_response=False)
    after = conn.send(PRODUCE, _produce(b"after", 10), version=3, expect_response=False)
    assert _fill(conn) == []
    assert conn.wants_write(), "the kernel took a 4 MB frame from a peer that does not read"
    assert not big.is_done and not after.is_done
    assert conn.unwritten_count() == 2
    assert conn.in_flight_count() == 0  # nothing awaits a response

    # The peer reads; the frame leaves in pieces and the futures come back
    # only once their last byte is written, in order.
    deadline = time.monotonic() + 30
    while conn.wants_write():
        assert time.monotonic() < deadline
        peer.read_some()
        completed.extend(conn.send_pending())
        if [f for f, _ in completed] != [small, big, after]:
            assert after not in [f for f, _ in completed]
    assert [f for f, _ in completed] == [small, big, after]
    assert all(response is None for _, response in completed)
    assert conn.unwritten_count() == 0 and conn.connected()
    while len(peer.frames()) < 3:
        assert time.monotonic() < deadline
        peer.read_some()
    sizes = [len(frame) for frame in peer.frames()]
    assert sizes[1] > 4 << 20 and sizes[0] < 200 and sizes[2] < 200


def test_fire_and_forget_fails_when_closed_before_written(stalled):
    conn, peer = stalled
    first = conn.send(PRODUCE, _produce(b"first", 10), version=3, expect_response=False)
    written = [f for f, _ in _fill(conn)]
    assert written == [first]
    first.success(None)
    big = conn.send(PRODUCE, _produce(b"big", 4 << 20), version=3, expect_response=False)
    queued = conn.send(PRODUCE, _produce(b"queued", 10), version=3, expect_response=False)
    assert _fill(conn) == []
    assert not big.is_done and not queued.is_done
    # An unwritten frame also counts for the request timeout.
    assert conn.timed_out(time.monotonic() + 60) is not None
    conn.close(errors.KafkaConnectionError("gone"))
    assert big.failed() and queued.failed()
    assert isinstance(big.exception, errors.KafkaConnectionError) and "gone" in str(big.exception)
    assert queued.exception is big.exception
    assert first.succeeded()
    assert conn.unwritten_count() == 0 and conn.timed_out(time.monotonic() + 60) is None

