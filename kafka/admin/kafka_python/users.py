"""kafka-python 3's SCRAM credential methods and the values they take (KIP-554).

The client never sends a password: an upsertion carries the salt, the
iteration count and the salted password (RFC 5802's ``Hi``, computed here
as the SASL login computes it), which is what the broker stores.
"""

from __future__ import annotations

import enum
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.kafka_python.forms import kafkawire_form
from kafka.admin.kafka_python.shapes import error_text
from kafka.admin.results import finish
from kafka.conn.sasl.scram import salted_password
from kafka.protocol.apis import ALTER_USER_SCRAM_CREDENTIALS, DESCRIBE_USER_SCRAM_CREDENTIALS

#: Salt length of a new credential, in bytes.
_SALT_BYTES = 24


class ScramMechanism(enum.IntEnum):
    """A SCRAM variant, by its protocol number."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2

    @property
    def hash_name(self) -> str:
        """The hashlib name of the variant's hash function."""
        return {ScramMechanism.SCRAM_SHA_256: "sha256", ScramMechanism.SCRAM_SHA_512: "sha512"}[self]

    @property
    def sasl_name(self) -> str:
        """The SASL mechanism name, e.g. ``"SCRAM-SHA-256"``."""
        return self.name.replace("_", "-")


def _mechanism(value: Union[ScramMechanism, int, str]) -> ScramMechanism:
    try:
        if isinstance(value, str):
            return ScramMechanism[value.upper().replace("-", "_")]
        return ScramMechanism(value)
    except (KeyError, ValueError):
        raise errors.IllegalArgumentError("unknown SCRAM mechanism %r (expected SCRAM-SHA-256 or SCRAM-SHA-512)"
                                          % (value,)) from None


class UserScramCredentialDeletion:
    """Remove ``user``'s credential for ``mechanism`` (a ScramMechanism, its value or name)."""

    def __init__(self, user: str, mechanism: Union[ScramMechanism, int, str]) -> None:
        self.user = user
        self.mechanism = _mechanism(mechanism)

    def __repr__(self) -> str:
        return "UserScramCredentialDeletion(%s, %s)" % (self.user, self.mechanism.name)


class UserScramCredentialUpsertion:
    """Create or replace ``user``'s credential for ``mechanism`` from ``password``.

    ``iterations`` defaults to 4096 (RFC 7677's minimum); ``salt`` to 24
    random bytes. The salted password is derived at once, so the object
    never keeps the password.
    """

    DEFAULT_ITERATIONS = 4096

    def __init__(self, user: str, mechanism: Union[ScramMechanism, int, str], password: Union[str, bytes],
                 iterations: Optional[int] = None, salt: Optional[bytes] = None) -> None:
        self.user = user
        self.mechanism = _mechanism(mechanism)
        if self.mechanism is ScramMechanism.UNKNOWN:
            raise errors.IllegalArgumentError("the SCRAM mechanism of an upsertion must not be UNKNOWN")
        self.iterations = self.DEFAULT_ITERATIONS if iterations is None else iterations
        if not isinstance(self.iterations, int) or isinstance(self.iterations, bool) or self.iterations < 1:
            raise errors.IllegalArgumentError("iterations must be a positive int, not %r" % (iterations,))
        self.salt = os.urandom(_SALT_BYTES) if salt is None else bytes(salt)
        secret = password.encode("utf-8") if isinstance(password, str) else bytes(password)
        self.salted_password = salted_password(self.mechanism.sasl_name, secret, self.salt, self.iterations)

    def __repr__(self) -> str:
        return "UserScramCredentialUpsertion(%s, %s, iterations=%d)" % (self.user, self.mechanism.name,
                                                                       self.iterations)


def _error_text(code: int, message: Optional[str]) -> str:
    """The broker's text (kafka-python's value), or the error's name when the broker sent none."""
    return message or error_text(code, None)


class KafkaPythonUsers(AdminBase):
    """Describe and change users' SCRAM credentials."""

    def alter_user_scram_credentials(
            self, alterations: Iterable[Union[UserScramCredentialDeletion, UserScramCredentialUpsertion]],
            raise_error: Optional[bool] = None) -> Dict[str, Any]:
        """Delete and create/replace SCRAM credentials; ``{user: None or the error text}``.

        kafkawire's ``raise_error`` instead gives ``{user: None or error}``
        (raising :class:`~kafka.admin.AdminResultError` on failures when True).
        """
        R = ALTER_USER_SCRAM_CREDENTIALS.Request
        deletions, upsertions = [], []
        for alt in alterations:
            if isinstance(alt, UserScramCredentialDeletion):
                deletions.append(R.ScramCredentialDeletion(name=alt.user, mechanism=int(alt.mechanism)))
            elif isinstance(alt, UserScramCredentialUpsertion):
                upsertions.append(R.ScramCredentialUpsertion(
                    name=alt.user, mechanism=int(alt.mechanism), iterations=alt.iterations, salt=alt.salt,
                    salted_password=alt.salted_password))
            else:
                raise errors.IllegalArgumentError("alterations must be UserScramCredentialDeletion or "
                                                  "UserScramCredentialUpsertion, not %s" % type(alt).__name__)
        response = self._send_to_controller(
            ALTER_USER_SCRAM_CREDENTIALS, lambda v: R(deletions=deletions, upsertions=upsertions),
            lambda r: next((x.error_code for x in r.results if x.error_code), 0), self._deadline())
        found = {r.user: broker_error(r.error_code, r.error_message, "user %s" % r.user) if r.error_code else None
                 for r in response.results}
        if kafkawire_form(raise_error):
            return finish("alter_user_scram_credentials", found, bool(raise_error))
        return {r.user: _error_text(r.error_code, r.error_message) if r.error_code else None
                for r in response.results}

    def describe_user_scram_credentials(self, users: Optional[Sequence[str]] = None,
                                        raise_error: Optional[bool] = None) -> Dict[str, Any]:
        """``{user: {'error': None or text, 'credential_infos': [{'mechanism': ScramMechanism,
        'iterations': n}]}}`` for ``users`` (default: every user with a credential).

        A top-level error is raised. kafkawire's ``raise_error`` instead
        gives ``{user: [(ScramMechanism, iterations)] or error}`` (raising
        :class:`~kafka.admin.AdminResultError` on failures when True).
        """
        if isinstance(users, (str, bytes)):
            raise errors.IllegalArgumentError("users must be a list of user names, not the string %r" % (users,))
        R = DESCRIBE_USER_SCRAM_CREDENTIALS.Request
        names = None if users is None else [R.UserName(name=u) for u in users]
        response = self._send_any(DESCRIBE_USER_SCRAM_CREDENTIALS, lambda v: R(users=names))
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "describe_user_scram_credentials")
        if kafkawire_form(raise_error):
            found: Dict[str, Any] = {
                r.user: broker_error(r.error_code, r.error_message, "user %s" % r.user) if r.error_code
                else [(_known_mechanism(c.mechanism), c.iterations) for c in r.credential_infos]
                for r in response.results}
            return finish("describe_user_scram_credentials", found, bool(raise_error))
        out: Dict[str, Dict[str, Any]] = {}
        for result in response.results:
            infos: List[Dict[str, Any]] = []
            if not result.error_code:
                infos = [{"mechanism": _known_mechanism(c.mechanism), "iterations": c.iterations}
                         for c in result.credential_infos]
            out[result.user] = {"error": _error_text(result.error_code, result.error_message)
                                if result.error_code else None, "credential_infos": infos}
        return out


def _known_mechanism(value: int) -> ScramMechanism:
    try:
        return ScramMechanism(value)
    except ValueError:
        return ScramMechanism.UNKNOWN


__all__ = ["KafkaPythonUsers", "ScramMechanism", "UserScramCredentialDeletion", "UserScramCredentialUpsertion"]
