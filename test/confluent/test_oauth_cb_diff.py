"""oauth_cb: OAUTHBEARER tokens from the application (confluent_kafka as the oracle, a scripted broker)."""

from __future__ import annotations

import time
from typing import Any, List

from kafka.testing import ScriptedPeer
from test.confluent.support import deliver_one
from test.support.peer_answers import counting_produce
from test.support.sasl_peer import SaslLogin

TOPIC = "cf-oauth"


def _login_with_tokens(lib: Any, lifetime: float) -> Any:
    with ScriptedPeer(topics={TOPIC: 1}, api_versions={"Produce": (3, 12)}) as peer:
        peer.on("Produce", counting_produce(7))
        login = SaslLogin(peer, "OAUTHBEARER", {"tok-%d" % n: "alice" for n in range(1, 10)})
        configs: List[Any] = []

        def oauth_cb(config: Any) -> Any:
            configs.append(config)
            return "tok-%d" % len(configs), time.time() + lifetime, "alice", {"traceId": "t%d" % len(configs)}

        producer = lib.Producer({"bootstrap.servers": peer.bootstrap, "security.protocol": "SASL_PLAINTEXT",
                                 "sasl.mechanism": "OAUTHBEARER", "sasl.oauthbearer.config": "scope=produce",
                                 "oauth_cb": oauth_cb, "linger.ms": 0})
        at_creation = list(configs)
        first = deliver_one(producer, TOPIC, b"first")
        first_logins = list(login.oauth_logins)
        time.sleep(lifetime)  # past the refresh point (80% of the lifetime)
        producer.poll(0.5)
        peer.close_connections()
        second = deliver_one(producer, TOPIC, b"second")
        producer.flush(5)
        peer.errors.clear()
        return {"at_creation": at_creation, "first": first, "first_logins": {(token, tuple(sorted(ext.items()))) for token, ext in first_logins}, "second": second,
                "refreshed": len(configs) >= 2 and set(configs) == {"scope=produce"},
                "last_login": login.oauth_logins[-1][0] != "tok-1", "refused": login.unauthenticated_requests(peer)}


def test_oauth_cb_gives_the_token_at_creation_and_a_new_one_before_it_expires(ck, kc):
    results = {lib.__name__: _login_with_tokens(lib, 2.0) for lib in (ck, kc)}
    assert results["confluent_kafka"] == results["kafka.confluent"] == {
        "at_creation": ["scope=produce"], "first": [(None, 7)], "first_logins": {("tok-1", (("traceId", "t1"),))},
        "second": [(None, 8)], "refreshed": True, "last_login": True, "refused": []}
