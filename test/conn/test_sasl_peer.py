"""SASL logins over real sockets, against a scripted peer that checks the credentials.

:class:`~test.support.sasl_peer.SaslLogin` answers SaslHandshake and
SaslAuthenticate on a :class:`~kafka.testing.ScriptedPeer`: PLAIN is checked
against its user table, SCRAM runs the RFC 5802 server. A working login must
carry a producer's records over the authenticated connection (over TLS too,
for SASL_SSL); a refused one must reach the user as the broker's refusal,
:class:`~kafka.errors.SaslAuthenticationFailedError`, from the send future,
``poll()``, the consumer's and the admin client's constructors, without
waiting for a timeout.
"""

from __future__ import annotations

import gc
import time
import warnings
from typing import Any, Dict, Iterator

import pytest

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.admin import KafkaAdminClient
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.peer_answers import counting_produce, init_producer_id
from test.support.sasl_peer import SaslLogin

from .tls_support import Pki, make_pki, server_context

TOPIC = "sasl-peer"
USER, PASSWORD = "alice", "Al1ce-S3cret"
#: A refused login must be reported well before any client timeout (20 s here) would fire.
FAST_S = 8.0


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(str(tmp_path_factory.mktemp("sasl-pki")))


def sasl_config(peer: ScriptedPeer, mechanism: str, password: str = PASSWORD, **extra: Any) -> Dict[str, Any]:
    config: Dict[str, Any] = dict(bootstrap_servers=peer.bootstrap, security_protocol="SASL_PLAINTEXT",
                                  sasl_mechanism=mechanism, sasl_plain_username=USER,
                                  sasl_plain_password=password, request_timeout_ms=20000)
    config.update(extra)
    return config


def broker_peer(**options: Any) -> ScriptedPeer:
    # Produce v13 names topics by id, which another change handles; stay below it.
    peer = ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}, **options)
    peer.on("InitProducerId", init_producer_id)
    peer.on("Produce", counting_produce(7))
    return peer


# ---------------------------------------------------------------------------
# Working logins
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_producer_sends_through_a_completed_login(mechanism: str) -> None:
    with broker_peer() as peer:
        login = SaslLogin(peer, mechanism, {USER: PASSWORD})
        producer = KafkaProducer(**sasl_config(peer, mechanism))
        try:
            metadata = producer.send(TOPIC, b"through the login").get(timeout=10)
            assert (metadata.topic, metadata.offset) == (TOPIC, 7)
        finally:
            producer.close(timeout=5)
        # Metadata, InitProducerId and Produce all came on logged-in connections.
        assert peer.received("Metadata") and peer.received("Produce")
        assert login.unauthenticated_requests(peer) == []
        assert len(login.authenticated) >= 2  # the bootstrap connection and the leader's
        assert not peer.errors


def test_producer_sends_through_a_completed_login_over_tls(pki: Pki) -> None:
    context = server_context(pki.server_cert, pki.server_key)
    with broker_peer(ssl_context=context) as peer:
        login = SaslLogin(peer, "SCRAM-SHA-512", {USER: PASSWORD})
        producer = KafkaProducer(**sasl_config(peer, "SCRAM-SHA-512", security_protocol="SASL_SSL",
                                               ssl_cafile=pki.ca))
        try:
            assert producer.send(TOPIC, b"tls and scram").get(timeout=10).offset == 7
        finally:
            producer.close(timeout=5)
        assert login.unauthenticated_requests(peer) == [] and peer.received("Produce")
        assert not peer.tls_failures and not peer.errors


# ---------------------------------------------------------------------------
# Refused logins reach the user as what they are
# ---------------------------------------------------------------------------

@pytest.fixture(params=["PLAIN", "SCRAM-SHA-256"])
def refusing_peer(request: pytest.FixtureRequest) -> Iterator[ScriptedPeer]:
    with broker_peer() as peer:
        SaslLogin(peer, request.param, {USER: PASSWORD})
        peer.mechanism = request.param  # type: ignore[attr-defined]
        yield peer


def wrong_password(peer: ScriptedPeer, **extra: Any) -> Dict[str, Any]:
    return sasl_config(peer, peer.mechanism, password="not-" + PASSWORD, **extra)  # type: ignore[attr-defined]


@pytest.mark.parametrize("acks", [1, "all"])
def test_producer_future_fails_with_the_refusal(refusing_peer: ScriptedPeer, acks: Any) -> None:
    producer = KafkaProducer(acks=acks, max_block_ms=20000, **wrong_password(refusing_peer))
    try:
        started = time.monotonic()
        with pytest.raises(errors.SaslAuthenticationFailedError) as info:
            producer.send(TOPIC, b"x").get(timeout=20)
        assert time.monotonic() - started < FAST_S
        assert "not-" + PASSWORD not in str(info.value)
    finally:
        producer.close(timeout=2)
    assert not refusing_peer.received("Produce")


def test_consumer_constructor_raises_the_refusal(refusing_peer: ScriptedPeer) -> None:
    started = time.monotonic()
    with pytest.raises(errors.SaslAuthenticationFailedError):
        KafkaConsumer(TOPIC, **wrong_password(refusing_peer))
    assert time.monotonic() - started < FAST_S


def test_a_consumer_constructor_that_raises_leaves_no_socket_open(refusing_peer: ScriptedPeer) -> None:
    gc.collect()  # what earlier tests left for the collector is finalized here, not below
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        try:
            KafkaConsumer(TOPIC, **wrong_password(refusing_peer))
        except errors.SaslAuthenticationFailedError:
            pass
        else:
            pytest.fail("the constructor did not raise")
        gc.collect()
    assert [str(w.message) for w in caught if w.category is ResourceWarning] == []


def test_consumer_poll_raises_the_refusal(refusing_peer: ScriptedPeer) -> None:
    consumer = KafkaConsumer(**wrong_password(refusing_peer))
    try:
        consumer.assign([TopicPartition(TOPIC, 0)])
        started = time.monotonic()
        with pytest.raises(errors.SaslAuthenticationFailedError):
            consumer.poll(timeout_ms=20000)
        assert time.monotonic() - started < FAST_S
    finally:
        consumer.close()


def test_group_consumer_poll_raises_the_refusal(refusing_peer: ScriptedPeer) -> None:
    consumer = KafkaConsumer(TOPIC, group_id="refused-group", **wrong_password(refusing_peer))
    try:
        started = time.monotonic()
        with pytest.raises(errors.SaslAuthenticationFailedError):
            consumer.poll(timeout_ms=20000)
        assert time.monotonic() - started < FAST_S
    finally:
        consumer.close()


def test_admin_constructor_raises_the_refusal(refusing_peer: ScriptedPeer) -> None:
    started = time.monotonic()
    with pytest.raises(errors.SaslAuthenticationFailedError):
        KafkaAdminClient(bootstrap_timeout_ms=20000, **wrong_password(refusing_peer))
    assert time.monotonic() - started < FAST_S


def leader_refuses_login() -> ScriptedPeer:
    """A peer letting the first (bootstrap) connection log in, refusing every later one."""
    peer = broker_peer()
    SaslLogin(peer, "PLAIN", {USER: PASSWORD}, refuse=range(1, 1000))
    return peer


def test_queued_records_fail_with_the_refusal_of_their_leader() -> None:
    with leader_refuses_login() as peer:
        producer = KafkaProducer(acks=1, delivery_timeout_ms=60000, **sasl_config(peer, "PLAIN"))
        try:
            started = time.monotonic()
            with pytest.raises(errors.SaslAuthenticationFailedError):
                producer.send(TOPIC, b"queued").get(timeout=20)
            assert time.monotonic() - started < FAST_S  # not after delivery_timeout_ms
        finally:
            producer.close(timeout=2)
        assert not peer.received("Produce")


def test_consumer_poll_raises_the_refusal_of_the_leader() -> None:
    with leader_refuses_login() as peer:
        peer.on("ListOffsets", lambda request: {"topics": [
            {"name": TOPIC, "partitions": [{"partition_index": 0, "error_code": 0, "timestamp": -1,
                                            "offset": 0, "leader_epoch": 0}]}]})
        consumer = KafkaConsumer(**sasl_config(peer, "PLAIN"))
        try:
            consumer.assign([TopicPartition(TOPIC, 0)])
            started = time.monotonic()
            with pytest.raises(errors.SaslAuthenticationFailedError):
                consumer.poll(timeout_ms=20000)
            assert time.monotonic() - started < FAST_S
        finally:
            consumer.close()


def test_an_untrusted_certificate_reaches_producer_consumer_and_admin(pki: Pki) -> None:
    context = server_context(pki.untrusted_cert, pki.untrusted_key)
    with broker_peer(ssl_context=context) as peer:
        config = dict(bootstrap_servers=peer.bootstrap, security_protocol="SSL", ssl_cafile=pki.ca)
        producer = KafkaProducer(acks=1, max_block_ms=20000, **config)
        try:
            started = time.monotonic()
            with pytest.raises(errors.SslCertificateError, match="rejected"):
                producer.send(TOPIC, b"x").get(timeout=20)
            assert time.monotonic() - started < FAST_S
        finally:
            producer.close(timeout=2)
        started = time.monotonic()
        with pytest.raises(errors.SslCertificateError):
            KafkaConsumer(TOPIC, **config)
        consumer = KafkaConsumer(**config)
        try:
            consumer.assign([TopicPartition(TOPIC, 0)])
            with pytest.raises(errors.SslCertificateError):
                consumer.poll(timeout_ms=20000)
        finally:
            consumer.close()
        with pytest.raises(errors.SslCertificateError):
            KafkaAdminClient(bootstrap_timeout_ms=20000, **config)
        assert time.monotonic() - started < 2 * FAST_S
        assert not peer.requests  # no byte of Kafka protocol crossed the refused connections
