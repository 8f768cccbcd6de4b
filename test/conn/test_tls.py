"""TLS (``security_protocol='SSL'``) against Tansu behind a TLS-terminating proxy.

Tansu 0.6 cannot serve TLS itself, so :class:`~test.conn.tls_support.TlsProxy`
(OpenSSL through Python's ``ssl``) listens on its own port, terminates TLS and
relays to the broker's plaintext port; the broker advertises the proxy's port,
so every connection the client opens - bootstrap and leaders - is TLS. One
broker and one proxy serve the module; each test picks the certificate (and
client-certificate policy) the proxy presents to new connections.

Certificates, keys and the CRL are generated for the run by
:func:`~test.conn.tls_support.make_pki` (``cryptography`` package).
"""

from __future__ import annotations

import logging
import os
import socket
import socketserver
import ssl
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from typing import Iterator, NamedTuple

import pytest

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.admin import KafkaAdminClient
from kafka.client import KafkaClient
from kafka.conn.connection import HANDSHAKE, BrokerConnection
from kafka.protocol.apis import FETCH, METADATA, PRODUCE
from kafka.record import MemoryRecords, MemoryRecordsBuilder
from kafka.structs import TopicPartition
from kafka.testing import EmbeddedBroker
from test.support.topics import create_topic_with as create_topic
from test.support.waiting import wait_until

from .tls_support import KEY_PASSWORD, Pki, TlsProxy, make_pki

#: Time a failing connection attempt is given; a test must end soon after.
FAIL_TIMEOUT_MS = 1500
#: Slack allowed on top of FAIL_TIMEOUT_MS before "bounded time" is violated: room for a loaded
#: machine, still far below the 20 s the clients wait for anything retriable.
SLACK_S = 5.0


class TlsCluster(NamedTuple):
    proxy: TlsProxy
    broker: EmbeddedBroker


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(str(tmp_path_factory.mktemp("tls-pki")))


@pytest.fixture(scope="module")
def tls_cluster(pki: Pki, broker_binary: str) -> Iterator[TlsCluster]:
    with TlsProxy(pki.server_cert, pki.server_key) as proxy:
        with EmbeddedBroker(binary=broker_binary, advertised_port=proxy.port) as broker:
            proxy.upstream = (broker.host, broker.port)
            yield TlsCluster(proxy, broker)


@pytest.fixture
def proxy(tls_cluster: TlsCluster, pki: Pki) -> Iterator[TlsProxy]:
    """The module's proxy, serving the good server certificate, counters reset."""
    proxy = tls_cluster.proxy
    proxy.configure(pki.server_cert, pki.server_key)
    proxy.reset_stats()
    yield proxy
    proxy.configure(pki.server_cert, pki.server_key)


@contextmanager
def tls_client(proxy: TlsProxy, **overrides: object) -> Iterator[KafkaClient]:
    config = dict(bootstrap_servers=proxy.address, security_protocol="SSL", request_timeout_ms=10000,
                  socket_connection_setup_timeout_ms=FAIL_TIMEOUT_MS, reconnect_backoff_ms=50,
                  reconnect_backoff_max_ms=250)
    config.update(overrides)
    client = KafkaClient(**config)
    try:
        yield client
    finally:
        client.close()


def metadata(client: KafkaClient, timeout_ms: int = 10000):
    return client.send_to_any(METADATA.Request(topics=[]), timeout_ms=timeout_ms)


def connection_failure(proxy: TlsProxy, **config: object) -> errors.KafkaError:
    """The error a client configured with ``config`` gets; asserts it came in bounded time."""
    with tls_client(proxy, **config) as client:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError) as info:
            metadata(client, timeout_ms=FAIL_TIMEOUT_MS)
        elapsed = time.monotonic() - started
    assert elapsed < FAIL_TIMEOUT_MS / 1000.0 + SLACK_S, "took %.1f s" % elapsed
    return info.value


def wait_for_failures(proxy: TlsProxy, timeout: float = 3.0) -> list:
    """The proxy's handshake failures, once it has recorded at least one.

    The client gives up as soon as it reads the alert, which can be before
    the proxy's own thread has noted the failure.
    """
    wait_until(lambda: proxy.handshake_failures, timeout, interval=0.01)
    return proxy.handshake_failures


def one_record_batch(*values: bytes) -> bytes:
    builder = MemoryRecordsBuilder()
    for offset, value in enumerate(values):
        builder.append(offset, None, b"key-%d" % offset, value)
    return builder.build()


def build_produce(node_id, version, items):
    per_topic = {}
    for tp, blob in items:
        per_topic.setdefault(tp.topic, []).append(
            PRODUCE.Request.TopicProduceData.PartitionProduceData(index=tp.partition, records=blob))
    return PRODUCE.Request(acks=-1, timeout_ms=10000, topic_data=[
        PRODUCE.Request.TopicProduceData(name=name, partition_data=parts) for name, parts in per_topic.items()])


def parse_produce(response):
    return {(t.name, p.index): (p.error_code, p.base_offset)
            for t in response.responses for p in t.partition_responses}


def fetch_values(client: KafkaClient, tp: TopicPartition, until: int, timeout: float = 10.0):
    """Every record value of ``tp`` from offset 0 to ``until`` (exclusive), fetched through TLS."""
    leader = client.leader_for(tp, 10000)
    topic_id = client.cluster.topic_id(tp.topic)
    values, offset = [], 0
    deadline = time.monotonic() + timeout
    while offset < until:
        assert time.monotonic() < deadline, "fetched only up to offset %d of %d" % (offset, until)
        request = FETCH.Request(
            max_wait_ms=200, min_bytes=1, max_bytes=4 << 20, isolation_level=0,
            topics=[FETCH.Request.FetchTopic(topic=tp.topic, topic_id=topic_id, partitions=[
                FETCH.Request.FetchTopic.FetchPartition(partition=tp.partition, fetch_offset=offset,
                                                        partition_max_bytes=4 << 20)])])
        response = client.send_and_wait(leader, request, timeout_ms=10000)
        assert response.error_code == 0
        [part] = [p for t in response.responses for p in t.partitions]
        assert part.error_code == 0
        for record in MemoryRecords(part.records or b"").records():
            if record.offset >= offset:
                values.append(record.value)
                offset = record.offset + 1
    return values


# ---------------------------------------------------------------------------
# Working connections
# ---------------------------------------------------------------------------

def test_create_produce_and_fetch_through_tls(proxy: TlsProxy, tls_cluster: TlsCluster, pki: Pki) -> None:
    topic = "tls-" + uuid.uuid4().hex[:10]
    big = os.urandom(300 * 1024)  # spans many TLS records and several reads on both sides
    with tls_client(proxy, ssl_cafile=pki.ca) as client:
        create_topic(client, topic, partitions=2)
        client.ensure_topics([topic], timeout_ms=10000)
        # Metadata sends the client back to the proxy, never to the plaintext port.
        [broker] = client.cluster.brokers()
        assert (broker.host, broker.port) == ("127.0.0.1", proxy.port) != (broker.host, tls_cluster.broker.port)

        items = [(TopicPartition(topic, 0), one_record_batch(b"zero-a", b"zero-b")),
                 (TopicPartition(topic, 1), one_record_batch(b"one-a")),
                 (TopicPartition(topic, 0), one_record_batch(big)),
                 (TopicPartition(topic, 1), one_record_batch(b"one-b", b"one-c", b"one-d"))]
        outcomes = client.dispatch_by_leader(PRODUCE, items, build_produce, parse_produce, timeout_ms=15000)
        assert [o.error for o in outcomes] == [None] * 4
        assert sorted(o.value for o in outcomes) == [0, 0, 1, 2]

        assert fetch_values(client, TopicPartition(topic, 0), 3) == [b"zero-a", b"zero-b", big]
        assert fetch_values(client, TopicPartition(topic, 1), 4) == [b"one-a", b"one-b", b"one-c", b"one-d"]
    assert proxy.handshakes >= 1 and not proxy.handshake_failures


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_server_certificate_matches_ip_and_dns_name(proxy: TlsProxy, pki: Pki, host: str) -> None:
    with tls_client(proxy, ssl_cafile=pki.ca, bootstrap_servers="%s:%d" % (host, proxy.port)) as client:
        assert metadata(client).brokers
    assert not proxy.handshake_failures


def test_many_clients_at_once(proxy: TlsProxy, pki: Pki) -> None:
    failures = []

    def worker() -> None:
        try:
            with tls_client(proxy, ssl_cafile=pki.ca) as client:
                for _ in range(5):
                    assert metadata(client, timeout_ms=20000).brokers
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures
    assert proxy.handshakes >= 12 and not proxy.handshake_failures
    assert wait_until(lambda: proxy.open_connections() == 0, 5, interval=0.02)


# ---------------------------------------------------------------------------
# Server certificate verification
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("host,mismatch", [("127.0.0.1", "IP address mismatch"), ("localhost", "Hostname mismatch")])
def test_hostname_mismatch_is_rejected(proxy: TlsProxy, pki: Pki, host: str, mismatch: str) -> None:
    proxy.configure(pki.wrong_name_cert, pki.wrong_name_key)
    error = connection_failure(proxy, ssl_cafile=pki.ca, bootstrap_servers="%s:%d" % (host, proxy.port))
    message = str(error)
    assert "TLS certificate of %s:%d rejected" % (host, proxy.port) in message
    assert mismatch in message
    assert proxy.handshakes == 0  # no byte ever reached the broker


def test_hostname_check_can_be_disabled_but_the_chain_is_still_verified(proxy: TlsProxy, pki: Pki) -> None:
    proxy.configure(pki.wrong_name_cert, pki.wrong_name_key)
    with tls_client(proxy, ssl_cafile=pki.ca, ssl_check_hostname=False) as client:
        assert metadata(client).brokers
    # Without the hostname check, an untrusted chain is still refused.
    proxy.configure(pki.untrusted_cert, pki.untrusted_key)
    error = connection_failure(proxy, ssl_cafile=pki.ca, ssl_check_hostname=False)
    assert "rejected" in str(error) and "unable to get local issuer certificate" in str(error)


@pytest.mark.parametrize("trust", ["other-ca", "system-roots"])
def test_untrusted_server_certificate_is_rejected(proxy: TlsProxy, pki: Pki, trust: str) -> None:
    if trust == "other-ca":
        # The server's certificate is signed by a CA the client does not know.
        proxy.configure(pki.untrusted_cert, pki.untrusted_key)
        config = dict(ssl_cafile=pki.ca)
    else:
        # No ssl_cafile: the system roots do not know our test CA.
        config = {}
    error = connection_failure(proxy, **config)
    assert "TLS certificate of 127.0.0.1:%d rejected" % proxy.port in str(error)
    assert "unable to get local issuer certificate" in str(error)
    assert wait_for_failures(proxy) and all("UNKNOWN_CA" in f for f in proxy.handshake_failures)


def test_crl_rejects_a_revoked_server_certificate(proxy: TlsProxy, pki: Pki) -> None:
    # The CRL does not get in the way of a certificate it does not list...
    with tls_client(proxy, ssl_cafile=pki.ca, ssl_crlfile=pki.crl) as client:
        assert metadata(client).brokers
    proxy.configure(pki.revoked_server_cert, pki.revoked_server_key)
    # ...the revoked certificate is accepted when no CRL is given...
    with tls_client(proxy, ssl_cafile=pki.ca) as client:
        assert metadata(client).brokers
    # ...and refused with it.
    error = connection_failure(proxy, ssl_cafile=pki.ca, ssl_crlfile=pki.crl)
    assert "TLS certificate of 127.0.0.1:%d rejected: certificate revoked" % proxy.port in str(error)


# ---------------------------------------------------------------------------
# Client certificates
# ---------------------------------------------------------------------------

def test_missing_client_certificate_is_refused(proxy: TlsProxy, pki: Pki) -> None:
    proxy.configure(pki.server_cert, pki.server_key, client_cafile=pki.ca)
    error = connection_failure(proxy, ssl_cafile=pki.ca)
    # With TLS 1.3 the client's handshake is over before the server checks
    # it, so the refusal arrives as an alert on the first read.
    assert "certificate required" in str(error)
    assert isinstance(error, errors.SslCertificateError), repr(error)  # not a retriable connection error
    assert proxy.handshakes == 0
    assert wait_for_failures(proxy) and all("PEER_DID_NOT_RETURN_A_CERTIFICATE" in f
                                            for f in proxy.handshake_failures)


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain-key", "password-key"])
def test_client_certificate_is_accepted(proxy: TlsProxy, pki: Pki, encrypted: bool) -> None:
    proxy.configure(pki.server_cert, pki.server_key, client_cafile=pki.ca)
    if encrypted:
        key = dict(ssl_keyfile=pki.client_key_encrypted, ssl_password=KEY_PASSWORD)
    else:
        key = dict(ssl_keyfile=pki.client_key)
    with tls_client(proxy, ssl_cafile=pki.ca, ssl_certfile=pki.client_cert, **key) as client:
        assert metadata(client).brokers
    assert proxy.client_subjects and all("commonName=kafkawire-client" in (s or "") for s in proxy.client_subjects)
    assert not proxy.handshake_failures


def test_revoked_client_certificate_is_refused_by_the_server(proxy: TlsProxy, pki: Pki) -> None:
    proxy.configure(pki.server_cert, pki.server_key, client_cafile=pki.ca, client_crlfile=pki.crl)
    error = connection_failure(proxy, ssl_cafile=pki.ca, ssl_certfile=pki.revoked_client_cert,
                               ssl_keyfile=pki.revoked_client_key)
    assert "certificate revoked" in str(error)
    assert isinstance(error, errors.SslCertificateError), repr(error)
    assert proxy.handshakes == 0


def test_wrong_key_password_is_a_configuration_error_without_the_secret(pki: Pki, caplog) -> None:
    wrong = "not-the-Passw0rd-%s" % uuid.uuid4().hex
    caplog.set_level(logging.DEBUG)
    with pytest.raises(errors.KafkaConfigurationError) as info:
        KafkaClient(bootstrap_servers="127.0.0.1:9", security_protocol="SSL", ssl_cafile=pki.ca,
                    ssl_certfile=pki.client_cert, ssl_keyfile=pki.client_key_encrypted, ssl_password=wrong)
    error = info.value
    shown = [str(error), repr(error), str(error.__cause__), str(error.__context__), caplog.text]
    assert not any(wrong in text for text in shown)
    assert not any(KEY_PASSWORD in text for text in shown)




def test_encrypted_key_without_password_fails_without_prompting(pki: Pki) -> None:
    # On a terminal OpenSSL would ask for the pass phrase and wait forever.
    import pty
    import subprocess

    code = ("from kafka.conn.tls import build_ssl_context\n"
            "try:\n"
            "    build_ssl_context({'security_protocol': 'SSL', 'ssl_certfile': %r, 'ssl_keyfile': %r})\n"
            "except Exception as exc:\n"
            "    print('ERROR', type(exc).__name__, exc)\n" % (pki.client_cert, pki.client_key_encrypted))
    main, child = pty.openpty()
    try:
        result = subprocess.run([sys.executable, "-c", code], stdin=child, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, timeout=20, text=True)
    finally:
        os.close(main)
        os.close(child)
    assert "ERROR KafkaConfigurationError" in result.stdout
    assert "ssl_password" in result.stdout and "pass phrase" not in result.stdout


@pytest.mark.parametrize("option", ["ssl_cafile", "ssl_certfile", "ssl_crlfile"])
def test_missing_files_are_named_in_the_error(pki: Pki, option: str) -> None:
    config = dict(security_protocol="SSL", ssl_cafile=pki.ca)
    config[option] = "/nonexistent/%s.pem" % option
    with pytest.raises(errors.KafkaConfigurationError, match=option) as info:
        KafkaClient(bootstrap_servers="127.0.0.1:9", **config)
    assert "/nonexistent/%s.pem" % option in str(info.value)


def test_ssl_context_is_used_as_given(proxy: TlsProxy, pki: Pki) -> None:
    context = ssl.create_default_context(cafile=pki.ca)
    with tls_client(proxy, ssl_context=context, ssl_cafile="/nonexistent.pem") as client:
        assert client._ssl_context is context
        assert metadata(client).brokers
    trusting_nothing = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    error = connection_failure(proxy, ssl_context=trusting_nothing, ssl_cafile=pki.ca)
    assert "rejected" in str(error)
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(bootstrap_servers=proxy.address, security_protocol="SSL", ssl_context="not a context")


def test_rejected_certificate_fails_at_once_instead_of_retrying(proxy: TlsProxy, pki: Pki) -> None:
    proxy.configure(pki.wrong_name_cert, pki.wrong_name_key)
    with tls_client(proxy, ssl_cafile=pki.ca) as client:
        started = time.monotonic()
        with pytest.raises(errors.SslCertificateError):
            metadata(client, timeout_ms=20000)
        assert time.monotonic() - started < 8.0  # not after the 20 s allowed for retries


@pytest.mark.parametrize("user", ["producer", "consumer-constructor", "consumer-poll", "admin"])
def test_a_rejected_certificate_reaches_users_as_itself(proxy: TlsProxy, pki: Pki, user: str) -> None:
    # Not a timeout, not NoBrokersAvailable naming it: the error's class is the cause.
    proxy.configure(pki.untrusted_cert, pki.untrusted_key)
    config = dict(bootstrap_servers=proxy.address, security_protocol="SSL", ssl_cafile=pki.ca)
    started = time.monotonic()
    with pytest.raises(errors.SslCertificateError, match="unable to get local issuer certificate"):
        if user == "producer":
            producer = KafkaProducer(acks=1, max_block_ms=20000, **config)
            try:
                producer.send("tls-refused", b"x").get(timeout=20)
            finally:
                producer.close(timeout=2)
        elif user == "consumer-constructor":
            KafkaConsumer("tls-refused", **config)
        elif user == "consumer-poll":
            consumer = KafkaConsumer(**config)
            try:
                consumer.assign([TopicPartition("tls-refused", 0)])
                consumer.poll(timeout_ms=20000)
            finally:
                consumer.close()
        else:
            KafkaAdminClient(bootstrap_timeout_ms=20000, **config)
    assert time.monotonic() - started < 8.0  # the clients wait 20 s for anything retriable
    assert proxy.handshakes == 0


def test_plaintext_client_on_the_tls_port_fails_in_bounded_time(proxy: TlsProxy) -> None:
    client = KafkaClient(bootstrap_servers=proxy.address, request_timeout_ms=FAIL_TIMEOUT_MS,
                         socket_connection_setup_timeout_ms=FAIL_TIMEOUT_MS, reconnect_backoff_ms=50)
    try:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError):
            metadata(client, timeout_ms=FAIL_TIMEOUT_MS)
        assert time.monotonic() - started < FAIL_TIMEOUT_MS / 1000.0 + SLACK_S
    finally:
        client.close()


def test_tls_client_on_the_plaintext_port_fails_and_the_broker_lives_on(tls_cluster: TlsCluster, pki: Pki) -> None:
    broker = tls_cluster.broker
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, security_protocol="SSL", ssl_cafile=pki.ca,
                         socket_connection_setup_timeout_ms=FAIL_TIMEOUT_MS, reconnect_backoff_ms=50)
    try:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError):
            metadata(client, timeout_ms=FAIL_TIMEOUT_MS)
        assert time.monotonic() - started < FAIL_TIMEOUT_MS / 1000.0 + SLACK_S
    finally:
        client.close()
    assert broker.api_versions()  # still answering plaintext clients


class _Silent(socketserver.ThreadingTCPServer):
    """Accepts connections and never sends a byte."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        stop = self.stop = threading.Event()

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                stop.wait(10)

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.stop.set()
        self.shutdown()
        self.server_close()


def test_handshake_waits_for_reads_without_asking_for_writability(pki: Pki) -> None:
    silent = _Silent()
    try:
        conn = BrokerConnection(0, "127.0.0.1", silent.server_address[1], security_protocol="SSL",
                                ssl_context=ssl.create_default_context(cafile=pki.ca))
        deadline = time.monotonic() + 2
        while conn.state != HANDSHAKE and time.monotonic() < deadline:
            conn.connect()
            time.sleep(0.01)
        conn.connect()  # sends the ClientHello, then waits for the server
        assert conn.state == HANDSHAKE
        assert not conn.wants_write()
        conn.close()
    finally:
        silent.close()


def test_waiting_for_a_silent_peer_does_not_spin(pki: Pki) -> None:
    silent = _Silent()
    client = KafkaClient(bootstrap_servers="127.0.0.1:%d" % silent.server_address[1], security_protocol="SSL",
                         ssl_cafile=pki.ca, socket_connection_setup_timeout_ms=5000)
    calls = []
    select = client._selector.select

    def counting_select(timeout=None):
        calls.append(timeout)
        return select(timeout)

    client._selector.select = counting_select
    try:
        node = client.least_loaded_node()
        assert not client.await_ready(node, 1000)
        # A spinning wait calls the selector thousands of times a second. The
        # count does not depend on the machine's load, unlike CPU seconds,
        # which benchmarks/idle_cpu.py measures.
        assert len(calls) < 200, "%d selector waits in one second" % len(calls)
    finally:
        client.close()
        silent.close()
