"""kafka.aio over SASL and TLS, against a scripted peer that checks the login for real.

Neither test broker completes a SASL login, so the peer of
:mod:`test.support.sasl_peer` answers SaslHandshake / SaslAuthenticate
(PLAIN checked against its users, SCRAM by an RFC 5802 server) and Produce.
"""

from __future__ import annotations

import ssl
import time
from typing import Any, Dict

import pytest

from kafka.aio import AIOKafkaProducer
from kafka.errors import KafkaConnectionError, SaslAuthenticationFailedError
from kafka.testing import ScriptedPeer
from test.aio.helpers import run
from test.conn.tls_support import Pki, make_pki, server_context
from test.support.peer_answers import counting_produce
from test.support.sasl_peer import SaslLogin

TOPIC = "aio-sasl-peer"
USER, PASSWORD = "alice", "Al1ce-S3cret"


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(str(tmp_path_factory.mktemp("aio-pki")))


def _peer(**options: Any) -> ScriptedPeer:
    peer = ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}, **options)
    peer.on("Produce", counting_produce(7))
    return peer


def _config(peer: ScriptedPeer, mechanism: str, password: str = PASSWORD, **extra: Any) -> Dict[str, Any]:
    config: Dict[str, Any] = dict(bootstrap_servers=peer.bootstrap, security_protocol="SASL_PLAINTEXT",
                                  sasl_mechanism=mechanism, sasl_plain_username=USER, sasl_plain_password=password,
                                  request_timeout_ms=10000)
    config.update(extra)
    return config


async def _send_one(config: Dict[str, Any]) -> Any:
    async with AIOKafkaProducer(**config) as producer:
        return await producer.send_and_wait(TOPIC, b"through the login")


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_records_go_through_a_completed_login(mechanism: str) -> None:
    with _peer() as peer:
        login = SaslLogin(peer, mechanism, {USER: PASSWORD})
        metadata = run(_send_one(_config(peer, mechanism)))
        assert (metadata.topic, metadata.offset) == (TOPIC, 7)
        assert peer.received("Metadata") and peer.received("Produce")
        assert login.unauthenticated_requests(peer) == []
        assert not peer.errors


def test_sasl_over_tls(pki: Pki) -> None:
    with _peer(ssl_context=server_context(pki.server_cert, pki.server_key)) as peer:
        login = SaslLogin(peer, "SCRAM-SHA-512", {USER: PASSWORD})
        context = ssl.create_default_context(cafile=pki.ca)
        metadata = run(_send_one(_config(peer, "SCRAM-SHA-512", security_protocol="SASL_SSL",
                                         ssl_context=context)))
        assert metadata.offset == 7
        assert login.unauthenticated_requests(peer) == [] and not peer.tls_failures and not peer.errors


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
def test_a_refused_login_fails_start_at_once_as_aiokafka_s_bootstrap_error(mechanism: str) -> None:
    with _peer() as peer:
        SaslLogin(peer, mechanism, {USER: PASSWORD})
        started = time.monotonic()
        # aiokafka's class for any bootstrap failure; the refusal is its cause.
        with pytest.raises(KafkaConnectionError) as info:
            run(_send_one(_config(peer, mechanism, password="not-" + PASSWORD)))
        assert isinstance(info.value.__cause__, SaslAuthenticationFailedError)
        assert time.monotonic() - started < 8
        assert "not-" + PASSWORD not in str(info.value)
        assert not peer.received("Produce")
