"""kafka.testing: locating Tansu and running it as an embedded broker."""

from __future__ import annotations

import os
import socket
import struct
import sys

import pytest

from kafka.errors import KafkaError, ProtocolError
from kafka.testing import (
    BrokerBinaryNotFoundError,
    EmbeddedBroker,
    EmbeddedBrokerError,
    find_broker_binary,
)
from kafka.testing.broker import port_in_use
from kafka.testing.probe import decode_api_versions_v0, encode_api_versions_v0

API_VERSIONS = 18


def refuses_connections(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1.0).close()
    except ConnectionRefusedError:
        return True
    return False


# -- pure parts ----------------------------------------------------------------

def test_request_frame_layout() -> None:
    frame = encode_api_versions_v0(7, b"me")
    assert frame == struct.pack(">ihhih", 12, 18, 0, 7, 2) + b"me"


def test_response_decoding() -> None:
    payload = struct.pack(">ihi", 7, 0, 2) + struct.pack(">hhh", 0, 0, 9) + struct.pack(">hhh", 18, 0, 3)
    assert decode_api_versions_v0(payload, 7) == {0: (0, 9), 18: (0, 3)}
    with pytest.raises(ProtocolError):
        decode_api_versions_v0(payload, 8)
    with pytest.raises(ProtocolError):
        decode_api_versions_v0(payload[:-1], 7)
    with pytest.raises(ProtocolError):
        decode_api_versions_v0(struct.pack(">ihi", 7, 35, 0), 7)


def test_missing_binary_is_a_clear_kafka_error(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: object) -> None:
    monkeypatch.setenv("KAFKAWIRE_TANSU_BIN", os.path.join(str(tmp_path), "no-such-tansu"))
    with pytest.raises(BrokerBinaryNotFoundError) as info:
        find_broker_binary()
    assert isinstance(info.value, KafkaError)
    with pytest.raises(BrokerBinaryNotFoundError):
        EmbeddedBroker().start()


def test_not_installed_message_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import kafka.testing.locate as locate

    monkeypatch.delenv("KAFKAWIRE_TANSU_BIN", raising=False)
    monkeypatch.setattr(locate, "_bundled_candidates", lambda: iter(()))
    monkeypatch.setenv("PATH", "")
    with pytest.raises(BrokerBinaryNotFoundError, match=r"kafkawire\[broker\]") as info:
        find_broker_binary()
    if sys.version_info < (3, 10):
        assert "KAFKAWIRE_TANSU_BIN" in str(info.value)


def test_invalid_port_is_rejected() -> None:
    with pytest.raises(ValueError):
        EmbeddedBroker(port=70000)


# -- with the real broker ----------------------------------------------------------

def test_start_answers_api_versions_and_stop_frees_the_port(broker_binary: str) -> None:
    broker = EmbeddedBroker(binary=broker_binary)
    assert not broker.running
    broker.start(timeout=30)
    try:
        assert broker.running
        assert broker.bootstrap_servers == "127.0.0.1:{0}".format(broker.port)
        ranges = broker.api_versions()
        assert API_VERSIONS in ranges
        assert 0 in ranges and 3 in ranges  # Produce and Metadata
        pid = broker.pid
        assert pid is not None
    finally:
        broker.stop(timeout=10)
    assert not broker.running
    assert broker.pid is None
    with pytest.raises(OSError):  # reaped: no such process any more
        os.kill(pid, 0)
    assert refuses_connections(broker.host, broker.port)
    assert not port_in_use(broker.host, broker.port)
    broker.stop()  # a second stop is harmless


def test_restart_on_the_same_port(fresh_broker: EmbeddedBroker) -> None:
    port, old_pid = fresh_broker.port, fresh_broker.pid
    fresh_broker.restart()
    assert fresh_broker.port == port
    assert fresh_broker.pid != old_pid
    assert API_VERSIONS in fresh_broker.api_versions()


def test_kill_then_start_again(fresh_broker: EmbeddedBroker) -> None:
    port = fresh_broker.port
    fresh_broker.kill()
    assert not fresh_broker.running
    assert refuses_connections(fresh_broker.host, port)
    fresh_broker.start()
    assert fresh_broker.port == port
    assert API_VERSIONS in fresh_broker.api_versions()


def test_two_brokers_at_once(broker_binary: str) -> None:
    with EmbeddedBroker(binary=broker_binary) as first, \
            EmbeddedBroker(binary=broker_binary) as second:
        assert first.port != second.port
        assert first.pid != second.pid
        assert API_VERSIONS in first.api_versions()
        assert API_VERSIONS in second.api_versions()
        first.stop()
        assert API_VERSIONS in second.api_versions()
    assert not second.running


def test_a_taken_port_is_reported(broker: EmbeddedBroker, broker_binary: str) -> None:
    other = EmbeddedBroker(port=broker.port, binary=broker_binary)
    with pytest.raises(EmbeddedBrokerError, match="already in use"):
        other.start(timeout=5)
    assert not other.running
    assert API_VERSIONS in broker.api_versions()


def test_session_broker_fixture(broker: EmbeddedBroker) -> None:
    assert broker.running
    host, port = broker.bootstrap_servers.rsplit(":", 1)
    assert (host, int(port)) == (broker.host, broker.port)


def test_an_answer_from_whoever_took_the_port_is_not_taken_for_ours(
        broker: EmbeddedBroker, broker_binary: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another broker binds the port after the free-port check and before ours starts (as a
    # parallel test worker can): its ApiVersions answer must not make start() return, since our
    # process cannot bind; start() reports the taken port instead.
    import kafka.testing.broker as broker_module

    monkeypatch.setattr(broker_module, "port_in_use", lambda host, port: False)
    late = EmbeddedBroker(port=broker.port, binary=broker_binary)
    with pytest.raises(EmbeddedBrokerError, match="in use|could not bind|exited"):
        late.start(timeout=5)
    assert not late.running
    assert API_VERSIONS in broker.api_versions()
