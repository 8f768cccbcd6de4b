"""set_sasl_credentials(): the next login uses the new credentials (confluent_kafka as the oracle)."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.testing import ScriptedPeer
from test.confluent.support import deliver_one
from test.support.peer_answers import counting_produce
from test.support.sasl_peer import SaslLogin

TOPIC = "cf-sasl"


def _rotate(lib: Any) -> Any:
    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("Produce", counting_produce(7))
        login = SaslLogin(peer, "PLAIN", {"alice": "first"})
        producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "security.protocol": "SASL_PLAINTEXT",
                                 "sasl.mechanism": "PLAIN", "sasl.username": "alice", "sasl.password": "first",
                                 "linger.ms": 0})
        before = deliver_one(producer, TOPIC, b"before")
        logins_before = len(login.authenticated)
        login.users = {"alice": "second"}  # the broker now wants the new password
        producer.set_sasl_credentials("alice", "second")
        peer.close_connections()
        after = deliver_one(producer, TOPIC, b"after")
        relogged = len(login.authenticated) > logins_before
        producer.flush(5)
        peer.errors.clear()
        return before, after, relogged, login.unauthenticated_requests(peer) == []


def test_set_sasl_credentials_is_used_by_the_next_login(ck, kc):
    results = {lib.__name__: _rotate(lib) for lib in (ck, kc)}
    assert results["confluent_kafka"] == results["kafka.confluent"] == (
        [(None, 7)], [(None, 8)], True, True)


@pytest.mark.parametrize("arguments", [(1, "x"), ("x", None)])
def test_set_sasl_credentials_wants_strings(ck, kc, arguments):
    messages = []
    for lib in (ck, kc):
        producer = lib.Producer({"bootstrap.servers": "127.0.0.1:9"})
        with pytest.raises(TypeError) as info:
            producer.set_sasl_credentials(*arguments)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
