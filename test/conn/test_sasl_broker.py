"""SASL against a real server: the embedded Tansu broker with authentication on.

Tansu 0.6 accepts SCRAM-SHA-256/512 and OAUTHBEARER handshakes when started
with ``--authentication``, but keeps users in memory and refuses every
request before login, so no user can exist: these tests drive our SASL
exchange through the real handshake and check that a refused login fails
fast and clearly, with no secret in the error. A successful login is covered
against the RFC-derived server in ``test_sasl.py``.
"""

from __future__ import annotations

import time

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.protocol.apis import METADATA
from kafka.testing import EmbeddedBroker

SECRET = "S3cr3t-pa55-broker"


@pytest.fixture(scope="module")
def auth_broker(broker_binary):
    with EmbeddedBroker(binary=broker_binary, extra_args=["--authentication"]) as running:
        yield running


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_exchange_runs_and_an_unknown_user_is_refused(auth_broker, mechanism):
    client = KafkaClient(bootstrap_servers=auth_broker.bootstrap_servers, security_protocol="SASL_PLAINTEXT",
                         sasl_mechanism=mechanism, sasl_plain_username="nobody", sasl_plain_password=SECRET,
                         reconnect_backoff_ms=50)
    try:
        started = time.monotonic()
        with pytest.raises(errors.KafkaError) as info:
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=3000)
        assert time.monotonic() - started < 5
        node = next(iter(client._conns))
        cause = client.connection_error(node)
        # The server answered the SCRAM exchange with e=unknown-user: our
        # state machine got that far and refused to treat it as success.
        assert isinstance(cause, errors.SaslAuthenticationFailedError), cause
        assert "unknown-user" in str(cause)
        assert SECRET not in str(info.value) and SECRET not in str(cause) and SECRET not in repr(client)
    finally:
        client.close()


def test_a_mechanism_the_broker_does_not_offer_fails_clearly(auth_broker):
    client = KafkaClient(bootstrap_servers=auth_broker.bootstrap_servers, security_protocol="SASL_PLAINTEXT",
                         sasl_mechanism="PLAIN", sasl_plain_username="u", sasl_plain_password=SECRET)
    try:
        with pytest.raises(errors.KafkaError) as info:
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=2000)
        assert SECRET not in str(info.value)
        cause = client.connection_error(next(iter(client._conns)))
        assert cause is not None and SECRET not in str(cause)
    finally:
        client.close()


def test_sasl_against_a_broker_without_sasl_is_refused_clearly(broker):
    client = KafkaClient(bootstrap_servers=broker.bootstrap_servers, security_protocol="SASL_PLAINTEXT",
                         sasl_mechanism="SCRAM-SHA-256", sasl_plain_username="u", sasl_plain_password=SECRET)
    try:
        with pytest.raises(errors.KafkaError):
            client.send_to_any(METADATA.Request(topics=[]), timeout_ms=2000)
        cause = client.connection_error(next(iter(client._conns)))
        assert isinstance(cause, errors.UnsupportedSaslMechanismError) or "SASL" in str(cause), cause
        assert SECRET not in str(cause)
    finally:
        client.close()


def test_sasl_settings_are_validated_up_front():
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(bootstrap_servers="127.0.0.1:1", security_protocol="SASL_PLAINTEXT")
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(bootstrap_servers="127.0.0.1:1", security_protocol="SASL_PLAINTEXT",
                    sasl_mechanism="SCRAM-SHA-256", sasl_plain_username="u")
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(bootstrap_servers="127.0.0.1:1", security_protocol="TLS")
