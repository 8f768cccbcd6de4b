"""The 0.9 KafkaConnection and collect_hosts.

KafkaConnection moves frames encoded by ``KafkaProtocol.encode_*`` to the
embedded broker and hands the response frames to the ``decode_*`` methods;
misbehaving peers are played by small local socket servers.
"""

from __future__ import annotations

import random
import select
import socket
import threading
import time
import uuid

import pytest

import kafka.simple.common
import kafka.conn
from kafka.simple.common import FetchRequest, ProduceRequest
from kafka.conn import DEFAULT_KAFKA_PORT, DEFAULT_SOCKET_TIMEOUT_SECONDS, KafkaConnection, collect_hosts
from kafka.errors import KafkaConnectionError
from kafka.protocol import KafkaProtocol, create_message
from kafka.testing import free_port


# -- collect_hosts ------------------------------------------------------------------------


def test_collect_hosts_parses_strings_and_lists():
    assert collect_hosts("kafka1:9092, kafka2:9093 ,kafka3", randomize=False) == [
        ("kafka1", 9092), ("kafka2", 9093), ("kafka3", DEFAULT_KAFKA_PORT)]
    assert collect_hosts(["a:1", "b"], randomize=False) == [("a", 1), ("b", 9092)]
    assert collect_hosts(b"a:1,b:2", randomize=False) == [("a", 1), ("b", 2)]
    assert collect_hosts([("a", 1), (b"b", "2")], randomize=False) == [("a", 1), ("b", 2)]
    assert collect_hosts("[::1]:9094,127.0.0.1:9095", randomize=False) == [("::1", 9094), ("127.0.0.1", 9095)]
    assert collect_hosts("a:1,,b:2,", randomize=False) == [("a", 1), ("b", 2)]
    assert collect_hosts("", randomize=False) == []
    with pytest.raises(ValueError):
        collect_hosts("a:notaport")


def test_collect_hosts_randomizes_by_default():
    hosts = ",".join("h%d:%d" % (i, 9000 + i) for i in range(8))
    in_order = collect_hosts(hosts, randomize=False)
    assert in_order == [("h%d" % i, 9000 + i) for i in range(8)]
    orders = {tuple(collect_hosts(hosts)) for _ in range(30)}
    assert all(sorted(order) == sorted(in_order) for order in orders)
    assert len(orders) > 1  # 30 identical shuffles of 8 hosts: about 1 in 10^137
    random.seed(7)
    first = collect_hosts(hosts)
    random.seed(7)
    assert collect_hosts(hosts) == first  # shuffled with the random module


def test_simple_names():
    assert kafka.simple.common.ConnectionError is KafkaConnectionError
    assert kafka.conn.KafkaConnection is KafkaConnection and "collect_hosts" in dir(kafka.conn)
    assert DEFAULT_SOCKET_TIMEOUT_SECONDS == 120
    with pytest.raises(AttributeError):
        kafka.conn.no_such_name  # noqa: B018


# -- against the embedded broker ------------------------------------------------------------


def test_send_and_recv_a_metadata_request(broker):
    conn = KafkaConnection(broker.host, broker.port)
    try:
        assert conn.connected and conn.timeout == 120
        for correlation_id in (1, 2, 3):
            conn.send(correlation_id, KafkaProtocol.encode_metadata_request(b"kafka-python", correlation_id, []))
            frame = conn.recv(correlation_id)
            assert int.from_bytes(frame[:4], "big") == correlation_id
            metadata = KafkaProtocol.decode_metadata_response(frame)
            assert [(b.host, b.port) for b in metadata.brokers] == [(broker.host, broker.port)]
    finally:
        conn.close()
    assert not conn.connected


def test_produce_and_fetch_frames(broker):
    topic = "simple-conn-" + uuid.uuid4().hex[:8]
    conn = KafkaConnection(broker.host, broker.port, timeout=10)
    try:
        # Metadata v0 auto-creates the topic on Tansu; wait until it has a leader.
        deadline = time.monotonic() + 10
        while True:
            conn.send(1, KafkaProtocol.encode_metadata_request(b"c", 1, [topic]))
            [meta] = KafkaProtocol.decode_metadata_response(conn.recv(1)).topics
            if meta.error == 0 and meta.partitions or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert meta.error == 0
        conn.send(2, KafkaProtocol.encode_produce_request(
            b"c", 2, [ProduceRequest(topic, 0, [create_message(b"hello", b"k")])]))
        [produced] = KafkaProtocol.decode_produce_response(conn.recv(2))
        assert (produced.error, produced.offset) == (0, 0)
        conn.send(3, KafkaProtocol.encode_fetch_request(b"c", 3, [FetchRequest(topic, 0, 0, 65536)],
                                                        max_wait_time=100, min_bytes=1))
        [fetched] = KafkaProtocol.decode_fetch_response(conn.recv(3))
        assert [(m.offset, m.message.key, m.message.value) for m in fetched.messages] == [(0, b"k", b"hello")]
    finally:
        conn.close()


def test_copy_is_unconnected_and_reinit_connects(broker):
    conn = KafkaConnection(broker.host, broker.port, timeout=5)
    try:
        twin = conn.copy()
        assert not twin.connected and (twin.host, twin.port, twin.timeout) == (conn.host, conn.port, 5)
        twin.reinit()
        assert twin.connected
        first = twin.get_connected_socket()
        twin.reinit()  # closes the old socket and opens a new one
        assert twin.get_connected_socket() is not first and first.fileno() == -1
        twin.close()
        twin.close()  # closing twice is fine
        # send() reconnects a closed connection, as in 0.9.x.
        twin.send(9, KafkaProtocol.encode_metadata_request(b"c", 9, []))
        assert KafkaProtocol.decode_metadata_response(twin.recv(9)).brokers
        twin.close()
        assert "KafkaConnection" in repr(conn) and str(broker.port) in repr(conn)
    finally:
        conn.close()


def test_each_thread_gets_its_own_socket(broker):
    conn = KafkaConnection(broker.host, broker.port, timeout=5)
    try:
        mine = conn.get_connected_socket()
        theirs = []

        def other_thread():
            sock = conn.get_connected_socket()
            conn.send(5, KafkaProtocol.encode_metadata_request(b"c", 5, []))
            theirs.append((sock, KafkaProtocol.decode_metadata_response(conn.recv(5))))
            conn.close()

        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join(10)
        [(sock, metadata)] = theirs
        assert sock is not mine and metadata.brokers
        assert conn.get_connected_socket() is mine  # untouched by the other thread's close()
    finally:
        conn.close()


# -- failures --------------------------------------------------------------------------------


def test_nothing_listening():
    port = free_port()
    started = time.monotonic()
    with pytest.raises(KafkaConnectionError) as info:
        KafkaConnection("127.0.0.1", port, timeout=2)
    assert "127.0.0.1:%d" % port in str(info.value)
    assert time.monotonic() - started < 5
    with pytest.raises(kafka.simple.common.ConnectionError):  # the 0.9 name catches it too
        KafkaConnection("127.0.0.1", port, timeout=2)


class FakePeer:
    """A one-connection TCP server that runs ``behave(conn)`` on what it accepts."""

    def __init__(self, behave):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.behave = behave
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            peer, _ = self.server.accept()
        except OSError:
            return
        with peer:
            self.behave(peer)

    def close(self):
        self.server.close()
        self.thread.join(5)


def test_receive_times_out_within_the_timeout():
    release = threading.Event()
    peer = FakePeer(lambda sock: release.wait(10))  # accepts, never answers
    try:
        conn = KafkaConnection("127.0.0.1", peer.port, timeout=0.3)
        conn.send(1, KafkaProtocol.encode_metadata_request(b"c", 1, []))
        started = time.monotonic()
        with pytest.raises(KafkaConnectionError) as info:
            conn.recv(1)
        assert 0.2 < time.monotonic() - started < 6  # the peer would keep silent for 10 s
        assert "within 0.3 s" in str(info.value)
        assert not conn.connected  # a half-read stream is not reused
    finally:
        release.set()
        peer.close()


def test_a_trickle_of_bytes_does_not_extend_the_timeout():
    def trickle(sock):
        sock.sendall(b"\x00\x00\x00\x40")  # announces 64 bytes, then sends one every 0.2 s (12.8 s)
        for _ in range(64):
            time.sleep(0.2)
            try:
                sock.sendall(b"x")
            except OSError:
                return

    peer = FakePeer(trickle)
    try:
        conn = KafkaConnection("127.0.0.1", peer.port, timeout=0.5)
        started = time.monotonic()
        with pytest.raises(KafkaConnectionError):
            conn.recv(1)
        assert time.monotonic() - started < 6  # the 0.5 s timeout, not the whole trickle
    finally:
        peer.close()


def test_peer_closing_mid_frame():
    peer = FakePeer(lambda sock: sock.sendall(b"\x00\x00\x00\x08\x00\x00"))  # 2 of 8 bytes, then EOF
    try:
        conn = KafkaConnection("127.0.0.1", peer.port, timeout=5)
        with pytest.raises(KafkaConnectionError) as info:
            conn.recv(4)
        assert "closed the connection" in str(info.value) and "request 4" in str(info.value)
        assert not conn.connected
    finally:
        peer.close()


@pytest.mark.parametrize("size", [b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00\x00\x02"])
def test_a_frame_size_no_kafka_response_has(size):
    done = threading.Event()
    peer = FakePeer(lambda sock: (sock.sendall(size), done.wait(60)))
    try:
        conn = KafkaConnection("127.0.0.1", peer.port, timeout=60)
        started = time.monotonic()
        with pytest.raises(KafkaConnectionError) as info:
            conn.recv(1)
        assert "not a Kafka response" in str(info.value)
        assert time.monotonic() - started < 30  # refused on the size, not after the 60 s timeout
    finally:
        done.set()
        peer.close()


def test_sending_to_a_closed_peer():
    peer = FakePeer(lambda sock: None)  # accepts and closes at once
    try:
        conn = KafkaConnection("127.0.0.1", peer.port, timeout=2)
        peer.thread.join(5)
        # The peer's FIN has reached our socket once it reads as ready.
        assert select.select([conn._sock], [], [], 5)[0]
        with pytest.raises(KafkaConnectionError):
            # The first write may still succeed; the kernel reports the reset on a later one.
            for _ in range(50):
                conn.send(1, b"\x00" * 65536)
                time.sleep(0.01)
        assert not conn.connected
    finally:
        peer.close()
