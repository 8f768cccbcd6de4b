"""SASL client mechanisms: RFC test vectors, an in-test SCRAM server, failure paths, secrecy."""

from __future__ import annotations

import base64
import json
import logging
import re
from typing import List, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from kafka.conn.sasl import (
    SUPPORTED_MECHANISMS, OAuthBearerMechanism, PlainMechanism, SaslAuthenticationError, SaslMechanism,
    SaslPrepError, ScramMechanism, create_mechanism, escape_saslname, reauthentication_delay_ms, saslprep,
)
from kafka.errors import (
    IllegalStateError, KafkaConfigurationError, KafkaError, SaslAuthenticationFailedError, for_code,
)
from test.support.scram_server import ScramServer

PASSWORD = "S3cr3t-pa55"
TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.T0k3nZZZ-q9"


# ---------------------------------------------------------------------------
# The RFC 5802 SCRAM server (test/support/scram_server.py) as a real peer
# ---------------------------------------------------------------------------

def run_scram(mechanism: ScramMechanism, server: ScramServer) -> None:
    """Drive a whole exchange; raises whatever the client raises."""
    client_final = mechanism.respond(server.server_first(mechanism.initial_response()))
    assert client_final is not None
    assert mechanism.respond(server.server_final(client_final)) is None


# ---------------------------------------------------------------------------
# SCRAM: RFC test vectors
# ---------------------------------------------------------------------------

def test_rfc7677_scram_sha256_vector() -> None:
    m = create_mechanism("SCRAM-SHA-256", username="user", password="pencil", nonce="rOprNGfwEbeRWgbNEkqO")
    assert m.initial_response() == b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    server_first = (b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                    b"s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
    assert m.respond(server_first) == (b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                                       b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    assert not m.complete
    assert m.respond(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=") is None
    assert m.complete and m.failure is None


def test_rfc5802_scram_sha1_vector() -> None:
    # SCRAM-SHA-1 exists in the class only for this vector; the factory refuses it.
    m = ScramMechanism("SCRAM-SHA-1", "user", "pencil", nonce="fyko+d2lbbFgONRv9qkxdawL")
    assert m.initial_response() == b"n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL"
    assert m.respond(b"r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096") == (
        b"c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=")
    assert m.respond(b"v=rmF9pqV8S7suAoZWja4dJRkFsKQ=") is None
    assert m.complete
    with pytest.raises(KafkaConfigurationError, match="unsupported SASL mechanism"):
        create_mechanism("SCRAM-SHA-1", username="user", password="pencil")


# ---------------------------------------------------------------------------
# SCRAM against the in-test server
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,hash_name", [("SCRAM-SHA-512", "sha512"), ("SCRAM-SHA-256", "sha256")])
def test_scram_against_server(name: str, hash_name: str) -> None:
    server = ScramServer(hash_name, {"alice": PASSWORD})
    m = create_mechanism(name, username="alice", password=PASSWORD)
    assert m.name == name
    run_scram(m, server)
    assert m.complete and server.user == "alice" and server.extensions == []


def test_scram_sha512_wrong_password_is_refused_by_server() -> None:
    server = ScramServer("sha512", {"alice": PASSWORD})
    m = create_mechanism("SCRAM-SHA-512", username="alice", password="not-the-password")
    with pytest.raises(SaslAuthenticationError, match="invalid-proof"):
        run_scram(m, server)
    assert not m.complete and isinstance(m.failure, SaslAuthenticationError)


def test_scram_sha512_higher_iteration_count() -> None:
    server = ScramServer("sha512", {"alice": PASSWORD}, iterations=16384)
    run_scram(create_mechanism("SCRAM-SHA-512", username="alice", password=PASSWORD), server)


@pytest.mark.parametrize("user,escaped", [
    ("a=b", "a=3Db"), ("a,b", "a=2Cb"), ("=,=", "=3D=2C=3D"), ("=2C", "=3D2C"), ("plain", "plain"),
])
def test_saslname_escaping(user: str, escaped: str) -> None:
    assert escape_saslname(user) == escaped
    m = create_mechanism("SCRAM-SHA-512", username=user, password=PASSWORD, nonce="abc")
    assert m.initial_response() == b"n,,n=" + escaped.encode() + b",r=abc"
    server = ScramServer("sha512", {user: PASSWORD})
    run_scram(create_mechanism("SCRAM-SHA-512", username=user, password=PASSWORD), server)
    assert server.user == user


def test_scram_token_auth_extension() -> None:
    m = create_mechanism("SCRAM-SHA-256", username="token-id", password="token-hmac", nonce="xyz",
                         token_auth=True)
    assert m.initial_response() == b"n,,n=token-id,r=xyz,tokenauth=true"
    server = ScramServer("sha256", {"token-id": "token-hmac"})
    run_scram(create_mechanism("SCRAM-SHA-256", username="token-id", password="token-hmac", token_auth=True),
              server)
    assert server.extensions == [b"tokenauth=true"]


def test_scram_default_nonce_is_random_and_renew_gives_a_fresh_exchange() -> None:
    first = create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD)
    other = first.renew()
    assert isinstance(other, ScramMechanism) and other.name == "SCRAM-SHA-256" and not other.started
    a, b = first.initial_response(), other.initial_response()
    nonce_a, nonce_b = a.split(b",r=")[1], b.split(b",r=")[1]
    assert nonce_a != nonce_b
    assert len(nonce_a) >= 24 and re.fullmatch(rb"[\x21-\x2b\x2d-\x7e]+", nonce_a)
    # A renewed mechanism still authenticates.
    server = ScramServer("sha256", {"alice": PASSWORD})
    run_scram(first.renew(), server)


# ---------------------------------------------------------------------------
# SCRAM: a hostile or broken server
# ---------------------------------------------------------------------------

SALT = base64.b64encode(b"0123456789abcdef").decode()


def _started(nonce: str = "clientnonce", **kw: object) -> ScramMechanism:
    m = create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD, nonce=nonce, **kw)
    assert isinstance(m, ScramMechanism)
    m.initial_response()
    return m


@pytest.mark.parametrize("server_first,match", [
    ("r=othernonceSRV,s={salt},i=4096", "nonce"),             # does not start with ours
    ("r=clientnonce,s={salt},i=4096", "nonce"),                # server added nothing
    ("r=clientnonce\x7fX,s={salt},i=4096", "nonce"),           # not printable
    ("r=clientnonceSRV,s=@@@@,i=4096", "base64"),
    ("r=clientnonceSRV,s=,i=4096", "empty salt"),
    ("r=clientnonceSRV,s={salt},i=1000000000", "iterations"),  # absurd: CPU exhaustion
    ("r=clientnonceSRV,s={salt},i=99999999999999999999999", "absurd iteration count"),
    ("r=clientnonceSRV,s={salt},i=4095", "iterations"),        # below RFC 7677's minimum
    ("r=clientnonceSRV,s={salt},i=0", "iterations"),
    ("r=clientnonceSRV,s={salt},i=-4096", "not a number"),
    ("r=clientnonceSRV,s={salt},i= 4096", "not a number"),
    ("r=clientnonceSRV,s={salt},i=\u0664\u0660\u0669\u0666", "not a number"),  # Arabic-Indic digits
    ("r=clientnonceSRV,s={salt}", "expected r=, s=, i="),
    ("s={salt},r=clientnonceSRV,i=4096", "expected r=, s=, i="),
    ("m=ext,r=clientnonceSRV,s={salt},i=4096", "mandatory extension"),
    ("garbage", "malformed"),
    ("", "malformed"),
    ("r=clientnonceSRV,,s={salt},i=4096", "malformed"),
    ("e=unknown-user", "unknown-user"),
])
def test_scram_rejects_bad_server_first(server_first: str, match: str) -> None:
    m = _started()
    with pytest.raises(SaslAuthenticationError, match=match):
        m.respond(server_first.format(salt=SALT).encode("utf-8"))
    assert not m.complete and m.failure is not None
    # The exchange stays failed.
    with pytest.raises(SaslAuthenticationError):
        m.respond(b"v=AAAA")


def test_scram_accepts_trailing_extensions_in_server_first() -> None:
    m = _started()
    assert m.respond("r=clientnonceSRV,s={0},i=4096,x=ext".format(SALT).encode()) is not None


def test_scram_iteration_bounds_are_configurable() -> None:
    m = _started(max_iterations=5000)
    with pytest.raises(SaslAuthenticationError, match="8192 iterations; accepted range is 4096 to 5000"):
        m.respond("r=clientnonceSRV,s={0},i=8192".format(SALT).encode())
    m = _started(min_iterations=1)
    assert m.respond("r=clientnonceSRV,s={0},i=1".format(SALT).encode()) is not None


def _at_server_final() -> ScramMechanism:
    m = _started()
    assert m.respond("r=clientnonceSRV,s={0},i=4096".format(SALT).encode()) is not None
    return m


def test_scram_bad_server_signature() -> None:
    m = _at_server_final()
    with pytest.raises(SaslAuthenticationError, match="server signature does not verify"):
        m.respond(b"v=" + base64.b64encode(b"\0" * 32))
    assert not m.complete
    with pytest.raises(SaslAuthenticationError, match="server signature"):
        m.respond(b"v=")  # stays failed, re-raises the same failure


@pytest.mark.parametrize("server_final,match", [
    (b"e=invalid-proof", "refused the client proof: invalid-proof"),
    (b"e=other-error,x=1", "other-error"),
    (b"v=not base64!", "base64"),
    (b"x=1", "expected v= or e="),
    (b"", "malformed"),
])
def test_scram_server_final_errors(server_final: bytes, match: str) -> None:
    m = _at_server_final()
    with pytest.raises(SaslAuthenticationError, match=match):
        m.respond(server_final)


def test_scram_server_error_text_is_sanitised() -> None:
    m = _at_server_final()
    with pytest.raises(SaslAuthenticationError) as info:
        m.respond(b"e=bad\x1b[31m" + b"x" * 1000)
    text = str(info.value)
    assert "\x1b" not in text and len(text) < 300


def test_scram_state_errors() -> None:
    m = create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD)
    with pytest.raises(IllegalStateError):
        m.respond(b"r=x")
    m.initial_response()
    with pytest.raises(IllegalStateError):
        m.initial_response()
    with pytest.raises(TypeError):
        m.respond("r=text")  # type: ignore[arg-type]
    server = ScramServer("sha256", {"alice": PASSWORD})
    m = create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD)
    run_scram(m, server)
    with pytest.raises(IllegalStateError):
        m.respond(b"")


# ---------------------------------------------------------------------------
# SASLprep
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("given,expected", [
    # RFC 4013 section 3 examples.
    ("I\u00adX", "IX"),          # soft hyphen mapped to nothing
    ("user", "user"),
    ("USER", "USER"),            # case preserved
    ("\u00aa", "a"),             # NFKC
    ("\u2168", "IX"),            # NFKC
    # More.
    ("a\u00a0b", "a b"),         # non-ASCII space mapped to space
    ("\ufb01", "fi"),            # ligature
    ("e\u0301", "\u00e9"),       # composed
    ("\u05d0\u05d1", "\u05d0\u05d1"),  # right-to-left only: fine
    ("", ""),
])
def test_saslprep(given: str, expected: str) -> None:
    assert saslprep(given) == expected


@pytest.mark.parametrize("given,reason", [
    ("\u0007", "control character"),         # RFC 4013 example 6
    ("\u0627\u0031", "right-to-left"),       # RFC 4013 example 7
    ("a\u05d0", "mixes"),
    ("\ue000", "private use"),
    ("a\ufffeb", "non-character"),
    ("\u200e", "changes display"),
    ("\U000e0001", "tagging"),
])
def test_saslprep_rejects(given: str, reason: str) -> None:
    with pytest.raises(SaslPrepError, match=reason):
        saslprep(given)


def test_saslprep_unassigned_code_points() -> None:
    unassigned = "\u0221"  # unassigned in Unicode 3.2
    assert saslprep(unassigned) == unassigned
    with pytest.raises(SaslPrepError, match="unassigned"):
        saslprep(unassigned, allow_unassigned=False)


def test_scram_applies_saslprep_unless_disabled() -> None:
    server_first = "r=clientnonceSRV,s={0},i=4096".format(SALT).encode()
    plain = _started().respond(server_first)
    assert _started_with(password="\u2168").respond(server_first) == _started_with(password="IX").respond(
        server_first)
    assert _started_with(password="I\u00adX", saslprep=False).respond(server_first) != \
        _started_with(password="IX", saslprep=False).respond(server_first)
    assert plain is not None
    # A username is prepared too.
    m = create_mechanism("SCRAM-SHA-256", username="\u2168", password=PASSWORD, nonce="n")
    assert m.initial_response() == b"n,,n=IX,r=n"
    m = create_mechanism("SCRAM-SHA-256", username="\u2168", password=PASSWORD, nonce="n", saslprep=False)
    assert m.initial_response() == "n,,n=\u2168,r=n".encode("utf-8")


def _started_with(**kw: object) -> ScramMechanism:
    args = dict(username="alice", password=PASSWORD, nonce="clientnonce")
    args.update(kw)  # type: ignore[arg-type]
    m = create_mechanism("SCRAM-SHA-256", **args)  # type: ignore[arg-type]
    assert isinstance(m, ScramMechanism)
    m.initial_response()
    return m


def test_scram_saslprep_rejection_does_not_echo_password() -> None:
    with pytest.raises(KafkaConfigurationError) as info:
        create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD + "\u0007")
    assert "SASLprep" in str(info.value) and PASSWORD not in str(info.value)
    with pytest.raises(KafkaConfigurationError, match="SCRAM username .*position 3"):
        create_mechanism("SCRAM-SHA-256", username="bob\u0007", password=PASSWORD)
    with pytest.raises(KafkaConfigurationError, match="empty after SASLprep"):
        create_mechanism("SCRAM-SHA-256", username="alice", password="\u00ad")


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(user=_text.filter(lambda u: "\0" not in u), password=_text)
def test_scram_round_trip_any_text_without_saslprep(user: str, password: str) -> None:
    server = ScramServer("sha256", {user: password})
    run_scram(create_mechanism("SCRAM-SHA-256", username=user, password=password, saslprep=False), server)
    assert server.user == user


@settings(max_examples=40, deadline=None)
@given(user=_text, password=_text)
def test_scram_round_trip_any_text_with_saslprep(user: str, password: str) -> None:
    try:
        prepared_user, prepared_password = saslprep(user), saslprep(password)
    except SaslPrepError:
        with pytest.raises(KafkaConfigurationError):
            create_mechanism("SCRAM-SHA-256", username=user, password=password)
        return
    if not prepared_user or not prepared_password:
        return
    server = ScramServer("sha256", {prepared_user: prepared_password})
    run_scram(create_mechanism("SCRAM-SHA-256", username=user, password=password), server)


# ---------------------------------------------------------------------------
# PLAIN
# ---------------------------------------------------------------------------

def test_plain() -> None:
    m = create_mechanism("PLAIN", username="alice", password=PASSWORD)
    assert isinstance(m, PlainMechanism) and m.name == "PLAIN"
    assert m.initial_response() == b"\0alice\0" + PASSWORD.encode()
    assert not m.complete
    assert m.respond(b"") is None
    assert m.complete


def test_plain_utf8_and_renew() -> None:
    m = create_mechanism("plain", username="j\u00fcrgen", password="p\u00e4ss")
    assert m.initial_response() == b"\0j\xc3\xbcrgen\0p\xc3\xa4ss"
    assert m.renew().initial_response() == b"\0j\xc3\xbcrgen\0p\xc3\xa4ss"


def test_plain_rejects_server_data() -> None:
    m = create_mechanism("PLAIN", username="alice", password=PASSWORD)
    m.initial_response()
    with pytest.raises(SaslAuthenticationError, match="unexpected"):
        m.respond(b"surprise")


@pytest.mark.parametrize("username,password,match", [
    ("al\0ice", PASSWORD, "username must not contain NUL"),
    ("alice", PASSWORD + "\0", "password must not contain NUL"),
    ("", PASSWORD, "username must not be empty"),
    ("alice", "", "password must not be empty"),
    ("alice", b"bytes", "password must be a str, not bytes"),
])
def test_plain_argument_errors(username: object, password: object, match: str) -> None:
    with pytest.raises(KafkaConfigurationError, match=match) as info:
        create_mechanism("PLAIN", username=username, password=password)  # type: ignore[arg-type]
    assert PASSWORD not in str(info.value)


# ---------------------------------------------------------------------------
# OAUTHBEARER
# ---------------------------------------------------------------------------

class Provider:
    """Like kafka-python's AbstractTokenProvider."""

    def __init__(self, token: object = TOKEN, extensions: object = None) -> None:
        self._token = token
        self._extensions = extensions
        self.calls = 0

    def token(self) -> object:
        self.calls += 1
        return self._token

    def extensions(self) -> object:
        return self._extensions


def test_oauthbearer_bytes_with_extensions() -> None:
    provider = Provider(extensions={"traceId": "abc 123", "logicalCluster": "lkc-1"})
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=provider)
    assert isinstance(m, OAuthBearerMechanism) and m.username is None
    assert m.initial_response() == (b"n,,\x01auth=Bearer " + TOKEN.encode()
                                    + b"\x01traceId=abc 123\x01logicalCluster=lkc-1\x01\x01")
    assert m.respond(b"") is None and m.complete


def test_oauthbearer_plain_callable_and_static_extensions() -> None:
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=lambda: TOKEN, extensions={"a": "1"})
    assert m.initial_response() == b"n,,\x01auth=Bearer " + TOKEN.encode() + b"\x01a=1\x01\x01"
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=lambda: "t0k")
    assert m.initial_response() == b"n,,\x01auth=Bearer t0k\x01\x01"
    # Provider extensions take precedence over static ones.
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider("t", {"a": "2"}), extensions={"a": "1", "b": "x"})
    assert m.initial_response() == b"n,,\x01auth=Bearer t\x01a=2\x01b=x\x01\x01"


def test_oauthbearer_fetches_a_token_per_exchange() -> None:
    provider = Provider()
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=provider)
    assert provider.calls == 0  # not at construction
    m.initial_response()
    m.renew().initial_response()
    assert provider.calls == 2


def test_oauthbearer_server_error_challenge() -> None:
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider())
    m.initial_response()
    challenge = json.dumps({"status": "invalid_token", "scope": "kafka",
                            "openid-configuration": "https://idp.example/.well-known/openid-configuration"})
    assert m.respond(challenge.encode()) == b"\x01"
    assert not m.complete
    assert isinstance(m.failure, SaslAuthenticationError)
    assert "invalid_token" in str(m.failure) and "kafka" in str(m.failure)
    with pytest.raises(SaslAuthenticationError, match="server status 'invalid_token'") as info:
        m.respond(b"")
    assert TOKEN not in str(info.value)


def test_oauthbearer_error_challenge_never_echoes_the_token() -> None:
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider())
    m.initial_response()
    assert m.respond(json.dumps({"status": "bad token " + TOKEN}).encode()) == b"\x01"
    assert TOKEN not in str(m.failure) and "<token>" in str(m.failure)
    # A very short token is not redacted from ordinary words.
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=lambda: "tok")
    m.initial_response()
    m.respond(json.dumps({"status": "invalid_token"}).encode())
    assert "'invalid_token'" in str(m.failure)


def test_oauthbearer_malformed_error_challenge() -> None:
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider())
    m.initial_response()
    assert m.respond(b"\xff not json") == b"\x01"
    with pytest.raises(SaslAuthenticationError, match="malformed error challenge"):
        m.respond(b"")


@pytest.mark.parametrize("token,match", [
    ("Bearer " + TOKEN, "malformed token"),
    (TOKEN + "\x01", "malformed token"),
    ("", "malformed token"),
    ("t\u00f6ken", "malformed token"),
    (b"bytes-token", "not a str"),
    (None, "not a str"),
])
def test_oauthbearer_bad_token(token: object, match: str) -> None:
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider(token))
    with pytest.raises(KafkaConfigurationError, match=match) as info:
        m.initial_response()
    assert TOKEN not in str(info.value)
    with pytest.raises(IllegalStateError):
        m.initial_response()


def test_oauthbearer_provider_failures() -> None:
    def broken() -> str:
        raise OSError("identity provider unreachable")

    m = create_mechanism("OAUTHBEARER", oauth_token_provider=broken)
    with pytest.raises(SaslAuthenticationError, match="raised OSError") as info:
        m.initial_response()
    assert isinstance(info.value.__cause__, OSError)

    async def async_token() -> str:
        return TOKEN

    m = create_mechanism("OAUTHBEARER", oauth_token_provider=async_token)
    with pytest.raises(KafkaConfigurationError, match="awaitable"):
        m.initial_response()


@pytest.mark.parametrize("extensions,match", [
    ({"auth": "x"}, "reserved"),
    ({"a1": "x"}, "letters"),
    ({"": "x"}, "letters"),
    ({"a": "x\x01y"}, "extension 'a'"),
    ({"a": 1}, "extension 'a'"),
    (["a"], "must be a dict"),
])
def test_oauthbearer_bad_extensions(extensions: object, match: str) -> None:
    with pytest.raises(KafkaConfigurationError, match=match):
        create_mechanism("OAUTHBEARER", oauth_token_provider=Provider(), extensions=extensions)
    m = create_mechanism("OAUTHBEARER", oauth_token_provider=Provider(extensions=extensions))
    with pytest.raises(KafkaConfigurationError, match=match):
        m.initial_response()


# ---------------------------------------------------------------------------
# The factory's argument checks
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name,kwargs,match", [
    ("GSSAPI", dict(username="a", password="b"), "Kerberos is not supported"),
    ("SCRAM-SHA-384", dict(username="a", password="b"), "supported: PLAIN, SCRAM-SHA-256"),
    (17, dict(username="a", password="b"), "must be a str"),
    ("PLAIN", dict(password="b"), "needs a username"),
    ("SCRAM-SHA-256", dict(username="a"), "needs a password"),
    ("PLAIN", dict(username="a", password="b", oauth_token_provider=lambda: "t"), "only used by SASL OAUTHBEARER"),
    ("OAUTHBEARER", dict(), "needs oauth_token_provider"),
    ("OAUTHBEARER", dict(username="a", oauth_token_provider=lambda: "t"), "takes no username"),
    ("OAUTHBEARER", dict(password="b", oauth_token_provider=lambda: "t"), "takes no password"),
    ("OAUTHBEARER", dict(oauth_token_provider="a-token-string"), "token\\(\\) method or be callable"),
    ("OAUTHBEARER", dict(oauth_token_provider=lambda: "t", nonce="x"), "unknown option.*nonce"),
    ("PLAIN", dict(username="a", password="b", saslprep=False), "unknown option.*saslprep"),
    ("SCRAM-SHA-512", dict(username="a", password="b", extensions={}), "unknown option.*extensions"),
    ("SCRAM-SHA-512", dict(username="a", password="b", min_iterations=0), "min_iterations must be a positive"),
    ("SCRAM-SHA-512", dict(username="a", password="b", max_iterations=True), "max_iterations must be a positive"),
    ("SCRAM-SHA-512", dict(username="a", password="b", max_iterations=100), "must not be smaller"),
    ("SCRAM-SHA-512", dict(username="a", password="b", saslprep="yes"), "saslprep must be a bool"),
    ("SCRAM-SHA-512", dict(username="a", password="b", token_auth=1), "token_auth must be a bool"),
    ("SCRAM-SHA-512", dict(username="a", password="b", nonce="has,comma"), "nonce must be printable"),
    ("SCRAM-SHA-512", dict(username="a", password="b", nonce=""), "nonce must not be empty"),
    ("SCRAM-SHA-512", dict(username=None, password="b"), "needs a username"),
    ("SCRAM-SHA-512", dict(username="a\0b", password="b", saslprep=False), "username must not contain NUL"),
    ("SCRAM-SHA-512", dict(username="a", password=1234), "password must be a str, not int"),
])
def test_factory_argument_errors(name: object, kwargs: dict, match: str) -> None:
    with pytest.raises(KafkaConfigurationError, match=match):
        create_mechanism(name, **kwargs)  # type: ignore[arg-type]


def test_factory_names() -> None:
    assert SUPPORTED_MECHANISMS == ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
    assert create_mechanism("scram-sha-512", username="a", password="b").name == "SCRAM-SHA-512"
    for name in SUPPORTED_MECHANISMS:
        kwargs = dict(oauth_token_provider=Provider()) if name == "OAUTHBEARER" else dict(username="a", password="b")
        m = create_mechanism(name, **kwargs)  # type: ignore[arg-type]
        assert isinstance(m, SaslMechanism) and m.name == name and not m.started and not m.complete


def test_lone_surrogate_password_is_refused_without_echo() -> None:
    for name in ("PLAIN", "SCRAM-SHA-256"):
        with pytest.raises(KafkaConfigurationError, match="lone surrogate") as info:
            create_mechanism(name, username="alice", password=PASSWORD + "\ud800")
        assert PASSWORD not in str(info.value)
        assert info.value.__cause__ is None and info.value.__suppress_context__


# ---------------------------------------------------------------------------
# Errors and session lifetime
# ---------------------------------------------------------------------------

def test_error_class_fits_the_hierarchy() -> None:
    err = SaslAuthenticationError("SCRAM: nope")
    assert isinstance(err, SaslAuthenticationFailedError) and isinstance(err, KafkaError)
    assert err.errno == 58 and not err.retriable
    assert for_code(58) is SaslAuthenticationFailedError
    assert str(err) == "[Error 58] SaslAuthenticationError: SCRAM: nope"


def test_session_lifetime() -> None:
    m = create_mechanism("PLAIN", username="a", password="b")
    assert m.session_lifetime_ms is None and m.reauthenticate_after_ms is None
    assert m.set_session_lifetime(60_000, rand=lambda: 0.0) == 51_000
    assert m.session_lifetime_ms == 60_000 and m.reauthenticate_after_ms == 51_000
    assert m.set_session_lifetime(60_000, rand=lambda: 0.999999) == 56_999
    assert m.set_session_lifetime(0) is None and m.reauthenticate_after_ms is None
    assert reauthentication_delay_ms(-5) is None
    assert reauthentication_delay_ms(1, rand=lambda: 0.0) == 1
    for _ in range(100):
        delay = reauthentication_delay_ms(10_000)
        assert delay is not None and 8_500 <= delay < 9_500
    with pytest.raises(TypeError):
        reauthentication_delay_ms(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Credentials never leak: repr, exception messages, DEBUG logs
# ---------------------------------------------------------------------------

SECRETS = (PASSWORD, TOKEN)


def _assert_no_secret(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, "a credential leaked into: " + text


def test_reprs_show_only_name_and_username() -> None:
    cases = [
        (create_mechanism("PLAIN", username="alice", password=PASSWORD), "<PlainMechanism PLAIN username='alice'>"),
        (create_mechanism("SCRAM-SHA-256", username="alice", password=PASSWORD),
         "<ScramMechanism SCRAM-SHA-256 username='alice'>"),
        (create_mechanism("SCRAM-SHA-512", username="alice", password=PASSWORD, token_auth=True),
         "<ScramMechanism SCRAM-SHA-512 username='alice'>"),
        (create_mechanism("OAUTHBEARER", oauth_token_provider=Provider()), "<OAuthBearerMechanism OAUTHBEARER>"),
    ]
    for mechanism, expected in cases:
        assert repr(mechanism) == expected and str(mechanism) == expected
        mechanism.initial_response()  # the token is fetched now: still not shown
        assert repr(mechanism) == expected


def _exchanges() -> List[Tuple[SaslMechanism, List[bytes]]]:
    """Mechanisms with the server messages of a full exchange (successful or not)."""
    out: List[Tuple[SaslMechanism, List[bytes]]] = []
    out.append((create_mechanism("PLAIN", username="alice", password=PASSWORD), [b""]))
    out.append((create_mechanism("PLAIN", username="alice", password=PASSWORD), [b"junk"]))
    out.append((create_mechanism("OAUTHBEARER", oauth_token_provider=Provider()), [b""]))
    out.append((create_mechanism("OAUTHBEARER", oauth_token_provider=Provider()),
                [json.dumps({"status": "invalid_token"}).encode(), b""]))
    return out


def test_no_credentials_in_logs_or_exceptions(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="kafka")
    texts: List[str] = []

    def drive(mechanism: SaslMechanism, replies: List[bytes]) -> None:
        mechanism.initial_response()
        for reply in replies:
            try:
                mechanism.respond(reply)
            except KafkaError as exc:
                texts.append(str(exc))
                texts.append(repr(exc))
                return

    for mechanism, replies in _exchanges():
        drive(mechanism, replies)
    # SCRAM: success, wrong password, bad server signature, server error.
    for password, tamper in ((PASSWORD, False), ("wrong-" + PASSWORD, False), (PASSWORD, True)):
        server = ScramServer("sha512", {"alice": PASSWORD})
        m = create_mechanism("SCRAM-SHA-512", username="alice", password=password)
        try:
            final = m.respond(server.server_first(m.initial_response()))
            assert final is not None
            server_final = server.server_final(final)
            if tamper:
                server_final = b"v=" + base64.b64encode(b"\0" * 64)
            m.respond(server_final)
        except KafkaError as exc:
            texts.append(str(exc))
    # Configuration errors.
    for bad in (PASSWORD + "\0", PASSWORD + "\u0007", PASSWORD + "\ud800"):
        for name in ("PLAIN", "SCRAM-SHA-256"):
            try:
                create_mechanism(name, username="alice", password=bad)
            except KafkaError as exc:
                texts.append(str(exc))
    for token in ("Bearer " + TOKEN, TOKEN + " x"):
        try:
            create_mechanism("OAUTHBEARER", oauth_token_provider=Provider(token)).initial_response()
        except KafkaError as exc:
            texts.append(str(exc))

    assert len(texts) >= 12
    assert caplog.records, "the mechanisms log their progress at DEBUG"
    for record in caplog.records:
        texts.append(record.getMessage())
        texts.append(repr(record.args))
    for text in texts:
        _assert_no_secret(text)
