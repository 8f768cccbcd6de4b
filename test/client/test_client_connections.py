"""Connection details: address families, several addresses per name, socket options, metadata upkeep."""

from __future__ import annotations

import socket
import time

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.conn import connection as connection_module
from kafka.protocol.apis import METADATA
from kafka.testing import EmbeddedBroker


def test_ipv6_bootstrap(broker_binary):
    with EmbeddedBroker(host="::1", binary=broker_binary) as v6:
        client = KafkaClient(bootstrap_servers="[::1]:%d" % v6.port)
        try:
            response = client.send_to_any(METADATA.Request(topics=[]), timeout_ms=10000)
            assert response.brokers
            node = next(iter(client._conns))
            assert client._conns[node].sock is None or client._conns[node].sock.family == socket.AF_INET6
        finally:
            client.close()


def test_a_name_with_several_addresses_falls_through_to_one_that_answers(broker, monkeypatch):
    # As when "localhost" resolves to ::1 first but the broker listens on 127.0.0.1 only.
    def resolve(host, port):
        return [(socket.AF_INET6, ("::1", port, 0, 0)), (socket.AF_INET, ("127.0.0.1", port))]

    monkeypatch.setattr(connection_module, "resolve_addresses", resolve)
    client = KafkaClient(bootstrap_servers="broker.invalid:%d" % broker.port, reconnect_backoff_ms=10)
    try:
        assert client.send_to_any(METADATA.Request(topics=[]), timeout_ms=10000).brokers
    finally:
        client.close()


def test_unresolvable_host_is_a_clear_error():
    client = KafkaClient(bootstrap_servers="no-such-host.invalid:9092")
    try:
        with pytest.raises(Exception, match="cannot resolve no-such-host.invalid"):
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=1500)
    finally:
        client.close()


def test_send_to_any_with_build_needs_the_api():
    # build(version) needs a version, and only the api can choose it.
    client = KafkaClient(bootstrap_servers="no-such-host.invalid:9092")
    try:
        with pytest.raises(TypeError, match="build needs api"):
            client.send_to_any(None, build=lambda version: METADATA.Request(topics=[]), timeout_ms=1500)
    finally:
        client.close()


def test_socket_options_and_buffer_sizes_are_applied(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, send_buffer_bytes=65536,
                         receive_buffer_bytes=131072,
                         socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
                                         (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)],
                         client_id="options-test")
    try:
        node = client.least_loaded_node()
        assert client.await_ready(node, 5000)
        sock = client._conns[node].sock
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        # Linux doubles the requested size for bookkeeping.
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) >= 65536
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) >= 131072
        assert client._conns[node].config["client_id"] == "options-test"
    finally:
        client.close()


def test_metadata_is_refreshed_on_max_age(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, metadata_max_age_ms=200)
    try:
        client.add_topic("anything")
        client.refresh_metadata(5000)
        first = client.cluster.version
        deadline = time.monotonic() + 5
        while client.cluster.version < first + 2 and time.monotonic() < deadline:
            client.poll(100)
        assert client.cluster.version >= first + 2
    finally:
        client.close()


def test_new_and_removed_brokers_are_picked_up(mock_cluster):
    client = KafkaClient(bootstrap_servers=mock_cluster.bootstrap_servers, retry_backoff_ms=20)
    try:
        client.refresh_metadata(5000)
        assert {b.nodeId for b in client.cluster.brokers()} == {1, 2, 3}
        mock_cluster.add_broker(4)
        client.refresh_metadata(5000)
        assert 4 in {b.nodeId for b in client.cluster.brokers()}
        assert client.await_ready(4, 5000)
        mock_cluster.decommission_broker(4)
        deadline = time.monotonic() + 5
        while 4 in {b.nodeId for b in client.cluster.brokers()} and time.monotonic() < deadline:
            client.refresh_metadata(5000)
        assert 4 not in {b.nodeId for b in client.cluster.brokers()}
        assert 4 not in client._conns  # its connection was closed and dropped
    finally:
        client.close()


def test_an_empty_bootstrap_list_is_a_client_that_knows_no_broker():
    from kafka.client.network import parse_bootstrap

    assert parse_bootstrap([]) == []
    for nothing in ("", " , ", [""]):
        with pytest.raises(errors.KafkaConfigurationError):
            parse_bootstrap(nothing)
