"""BlockingConnection against a real broker and against peers that are not Kafka."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from kafka.conn.blocking import BlockingConnection, parse_address
from kafka.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError, ProtocolError
from kafka.protocol.apis import API_VERSIONS


class _Peer:
    """A loopback TCP server that answers each connection with ``behaviour``."""

    def __init__(self, behaviour):
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(4)
        self.port = self._listener.getsockname()[1]
        self._behaviour = behaviour
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        self._listener.settimeout(0.2)
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with conn:
                self._behaviour(conn, self._stop)

    def close(self):
        self._stop.set()
        self._listener.close()
        self._thread.join(5)


def _http(conn, stop):
    conn.recv(1024)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _silent(conn, stop):
    stop.wait(10)


def _hang_up(conn, stop):
    conn.recv(1024)


@pytest.mark.parametrize("behaviour,error", [
    (_http, ProtocolError),
    (_silent, KafkaTimeoutError),
    (_hang_up, KafkaConnectionError),
])
def test_non_kafka_peers_fail_clearly_and_in_time(behaviour, error):
    peer = _Peer(behaviour)
    try:
        started = time.monotonic()
        with pytest.raises(error):
            BlockingConnection("127.0.0.1", peer.port, timeout=1.0)
        # Well past the 1 s timeout on a loaded machine, still short of the 10 s the silent peer stays.
        assert time.monotonic() - started < 8.0
    finally:
        peer.close()


def test_closed_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    with pytest.raises(KafkaConnectionError, match=str(port)):
        BlockingConnection("127.0.0.1", port, timeout=1.0)


def test_negotiates_with_the_embedded_broker(broker):
    with BlockingConnection(broker.host, broker.port) as conn:
        assert conn.versions.supports(API_VERSIONS)
        response = conn.request(API_VERSIONS, {})
        assert response.error_code == 0
        assert any(e.api_key == 0 for e in response.api_keys)


def test_parse_address():
    assert parse_address("h:1") == ("h", 1)
    assert parse_address("[::1]:9093") == ("::1", 9093)
    assert parse_address("host") == ("host", 9092)
    with pytest.raises(ValueError):
        parse_address("h:x")
    assert issubclass(KafkaConnectionError, KafkaError)
