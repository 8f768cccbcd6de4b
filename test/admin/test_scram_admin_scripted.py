"""SCRAM credential administration (KIP-554) against a scripted peer, and the salted password per RFC 7677.

The embedded broker announces the SCRAM credential APIs but answers them
malformed, so a :class:`~kafka.testing.ScriptedPeer` plays the broker.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any, Dict

import pytest

from kafka import errors
from kafka.admin import (AdminResultError, KafkaAdminClient, ScramMechanism, UserScramCredentialDeletion,
                         UserScramCredentialUpsertion)
from kafka.testing import ScriptedPeer


def _admin(peer: ScriptedPeer) -> KafkaAdminClient:
    return KafkaAdminClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=3000)


def test_upsertion_salts_the_password_as_rfc_7677s_example_does():
    # RFC 7677 section 3: user "user", password "pencil", this salt and 4096
    # iterations give the client proof below; derive it from our salted password.
    salt = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
    upsertion = UserScramCredentialUpsertion("user", "SCRAM-SHA-256", "pencil", iterations=4096, salt=salt)
    client_key = hmac.new(upsertion.salted_password, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    auth_message = (b"n=user,r=rOprNGfwEbeRWgbNEkqO,"
                    b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,"
                    b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0")
    signature = hmac.new(stored_key, auth_message, hashlib.sha256).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, signature))
    assert base64.b64encode(proof) == b"dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="


def test_upsertion_defaults_and_mechanism_names():
    upsertion = UserScramCredentialUpsertion("alice", 2, b"secret")
    assert upsertion.mechanism is ScramMechanism.SCRAM_SHA_512
    assert upsertion.iterations == 4096 and len(upsertion.salt) == 24
    assert len(upsertion.salted_password) == 64  # a SHA-512 digest
    assert UserScramCredentialDeletion("bob", "scram_sha_256").mechanism is ScramMechanism.SCRAM_SHA_256


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-1", 0, 7])
def test_upsertion_refuses_mechanisms_that_are_not_scram_sha_256_or_512(mechanism: Any):
    with pytest.raises(errors.IllegalArgumentError):
        UserScramCredentialUpsertion("alice", mechanism, "secret")


def test_alter_user_scram_credentials_sends_deletions_and_salted_upsertions():
    upsertion = UserScramCredentialUpsertion("alice", ScramMechanism.SCRAM_SHA_256, "secret", iterations=8192,
                                             salt=b"0123456789")
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            [deletion] = request.body.deletions
            assert (deletion.name, deletion.mechanism) == ("bob", 2)
            [sent] = request.body.upsertions
            assert (sent.name, sent.mechanism, sent.iterations, sent.salt) == ("alice", 1, 8192, b"0123456789")
            assert sent.salted_password == hashlib.pbkdf2_hmac("sha256", b"secret", b"0123456789", 8192)
            return {"throttle_time_ms": 0, "results": [
                {"user": "alice", "error_code": 0, "error_message": None},
                {"user": "bob", "error_code": 91, "error_message": "no SHA-512 credential"}]}
        peer.on("AlterUserScramCredentials", answer)
        with _admin(peer) as admin:
            result = admin.alter_user_scram_credentials([UserScramCredentialDeletion("bob", "SCRAM-SHA-512"),
                                                         upsertion])
        assert result == {"alice": None, "bob": "no SHA-512 credential"}


def test_alter_user_scram_credentials_names_the_error_when_the_broker_gives_no_text():
    with ScriptedPeer() as peer:
        peer.on("AlterUserScramCredentials", lambda request: {"throttle_time_ms": 0, "results": [
            {"user": "alice", "error_code": 93, "error_message": None}]})
        with _admin(peer) as admin:
            result = admin.alter_user_scram_credentials([UserScramCredentialUpsertion("alice", 1, "x")])
        assert result == {"alice": "[Error 93] UnacceptableCredentialError"}


def test_alter_user_scram_credentials_refuses_other_values():
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.alter_user_scram_credentials([("alice", "secret")])  # type: ignore[list-item]
    assert not peer.received("AlterUserScramCredentials")


def _describe_answer(top: int = 0):
    def answer(request: Any) -> Dict[str, Any]:
        assert [u.name for u in request.body.users] == ["alice", "nobody"]
        return {"throttle_time_ms": 0, "error_code": top, "error_message": "denied" if top else None, "results": [
            {"user": "alice", "error_code": 0, "error_message": None, "credential_infos": [
                {"mechanism": 1, "iterations": 4096}, {"mechanism": 2, "iterations": 8192}]},
            {"user": "nobody", "error_code": 91, "error_message": "no credentials", "credential_infos": []}]}
    return answer


def test_describe_user_scram_credentials_gives_mechanisms_and_per_user_errors():
    with ScriptedPeer() as peer:
        peer.on("DescribeUserScramCredentials", _describe_answer())
        with _admin(peer) as admin:
            result = admin.describe_user_scram_credentials(["alice", "nobody"])
        assert result == {
            "alice": {"error": None, "credential_infos": [
                {"mechanism": ScramMechanism.SCRAM_SHA_256, "iterations": 4096},
                {"mechanism": ScramMechanism.SCRAM_SHA_512, "iterations": 8192}]},
            "nobody": {"error": "no credentials", "credential_infos": []}}


def test_describe_user_scram_credentials_of_every_user_sends_null():
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            assert request.body.users is None
            return {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "results": []}
        peer.on("DescribeUserScramCredentials", answer)
        with _admin(peer) as admin:
            assert admin.describe_user_scram_credentials() == {}


def test_describe_user_scram_credentials_refuses_a_single_string():
    with ScriptedPeer() as peer, _admin(peer) as admin, pytest.raises(errors.IllegalArgumentError):
        admin.describe_user_scram_credentials("alice")  # type: ignore[arg-type]
    assert not peer.received("DescribeUserScramCredentials")


def test_describe_user_scram_credentials_in_kafkawires_form():
    with ScriptedPeer() as peer:
        peer.on("DescribeUserScramCredentials", _describe_answer())
        with _admin(peer) as admin:
            found = admin.describe_user_scram_credentials(["alice", "nobody"], raise_error=False)
            with pytest.raises(AdminResultError) as raised:
                admin.describe_user_scram_credentials(["alice", "nobody"], raise_error=True)
        assert found["alice"] == [(ScramMechanism.SCRAM_SHA_256, 4096), (ScramMechanism.SCRAM_SHA_512, 8192)]
        assert isinstance(found["nobody"], errors.ResourceNotFoundError)
        assert isinstance(raised.value.results["nobody"], errors.ResourceNotFoundError)


def test_describe_user_scram_credentials_raises_the_top_level_error():
    with ScriptedPeer() as peer:
        peer.on("DescribeUserScramCredentials", _describe_answer(top=31))
        with _admin(peer) as admin, pytest.raises(errors.ClusterAuthorizationFailedError, match="denied"):
            admin.describe_user_scram_credentials(["alice", "nobody"])
