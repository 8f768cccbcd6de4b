"""confluent-kafka's SASL/SCRAM credential values (``confluent_kafka.admin``) and their checks.

An upsertion carries the password; the admin client salts it (RFC 5802's
``Hi``, as librdkafka does) before anything is sent, with a random salt when
none is given.
"""

from __future__ import annotations

from typing import Any, List, Optional

from kafka.confluent.admin._types import _OrderedEnum
from kafka.confluent.kafka_error import KafkaError, KafkaException

#: Length of the random salt of an upsertion given none (librdkafka's).
DEFAULT_SALT_BYTES = 64


class ScramMechanism(_OrderedEnum):
    """A SASL/SCRAM mechanism."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2


class ScramCredentialInfo:
    """The ``mechanism`` (:class:`ScramMechanism`) and ``iterations`` of one credential."""

    def __init__(self, mechanism: ScramMechanism, iterations: int) -> None:
        self.mechanism = mechanism
        self.iterations = iterations


class UserScramCredentialsDescription:
    """A user's credentials: ``user`` and ``scram_credential_infos`` (a list of :class:`ScramCredentialInfo`)."""

    def __init__(self, user: str, scram_credential_infos: List[ScramCredentialInfo]) -> None:
        self.user = user
        self.scram_credential_infos = scram_credential_infos


class UserScramCredentialAlteration:
    """Base of the two alterations; ``user`` names the user."""

    def __init__(self, user: str) -> None:
        self.user = user


class UserScramCredentialUpsertion(UserScramCredentialAlteration):
    """Create or replace ``user``'s credential described by ``scram_credential_info`` from ``password`` (bytes).

    ``salt`` (bytes) defaults to :data:`DEFAULT_SALT_BYTES` random bytes.
    """

    def __init__(self, user: str, scram_credential_info: ScramCredentialInfo, password: bytes,
                 salt: Optional[bytes] = None) -> None:
        super().__init__(user)
        self.scram_credential_info = scram_credential_info
        self.password = password
        self.salt = salt


class UserScramCredentialDeletion(UserScramCredentialAlteration):
    """Remove ``user``'s credential for ``mechanism`` (a :class:`ScramMechanism`)."""

    def __init__(self, user: str, mechanism: ScramMechanism) -> None:
        super().__init__(user)
        self.mechanism = mechanism


def _check_user(user: Any) -> None:
    if user is None:
        raise TypeError("'user' cannot be None")
    if not isinstance(user, str):
        raise TypeError("'user' must be a string")
    if not user:
        raise ValueError("'user' cannot be empty")


def check_users(users: Any) -> None:
    """Raise TypeError/ValueError, as confluent-kafka does, for a bad ``users`` argument (None is fine)."""
    if users is None:
        return
    if not isinstance(users, list):
        raise TypeError("Expected input to be list of String")
    for user in users:
        _check_user(user)


def duplicate_users_error(users: List[str]) -> Optional[KafkaException]:
    """The error librdkafka fails every future with when ``users`` names a user twice."""
    if len(set(users)) == len(users):
        return None
    return KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                     "Duplicate users aren't allowed in the same request"))


def check_alterations(alterations: Any) -> None:
    """Raise TypeError/ValueError, as confluent-kafka does, for bad alterations."""
    if not isinstance(alterations, list):
        raise TypeError("Expected input to be list")
    if not alterations:
        raise ValueError("Expected at least one alteration")
    for alteration in alterations:
        if not isinstance(alteration, UserScramCredentialAlteration):
            raise TypeError("Expected each element of list to be subclass of UserScramCredentialAlteration")
        _check_user(alteration.user)
        if isinstance(alteration, UserScramCredentialUpsertion):
            _check_upsertion(alteration)
        elif isinstance(alteration, UserScramCredentialDeletion):
            if not isinstance(alteration.mechanism, ScramMechanism):
                raise TypeError("Expected the mechanism to be ScramMechanism Type")
        else:
            raise TypeError("Expected each element of list 'alterations' to be either a "
                            "UserScramCredentialUpsertion or a UserScramCredentialDeletion")


def _check_upsertion(upsertion: UserScramCredentialUpsertion) -> None:
    if upsertion.password is None:
        raise TypeError("'password' cannot be None")
    if not isinstance(upsertion.password, bytes):
        raise TypeError("'password' must be bytes")
    if not upsertion.password:
        raise ValueError("'password' cannot be empty")
    # An empty salt of any type is refused as empty (ValueError) before its type is looked at.
    if upsertion.salt is not None and not upsertion.salt:
        raise ValueError("'salt' can be None but cannot be empty")
    if upsertion.salt is not None and not isinstance(upsertion.salt, bytes):
        raise TypeError("'salt' must be bytes")
    info = upsertion.scram_credential_info
    if not isinstance(info, ScramCredentialInfo):
        raise TypeError("Expected credential_info to be ScramCredentialInfo Type")
    if info.iterations < 1:  # a value that cannot be compared with 1 raises TypeError here
        raise ValueError("Iterations should be positive")
    if not isinstance(info.mechanism, ScramMechanism):
        raise TypeError("Expected the mechanism to be ScramMechanism Type")


def unknown_mechanism_error(alterations: List[UserScramCredentialAlteration]) -> Optional[KafkaException]:
    """The error librdkafka fails every future with, before sending anything, when an alteration's
    mechanism is UNKNOWN."""
    for index, alteration in enumerate(alterations):
        info = getattr(alteration, "scram_credential_info", None)
        mechanism = info.mechanism if info is not None else getattr(alteration, "mechanism", None)
        if mechanism is ScramMechanism.UNKNOWN:
            return KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                             "SCRAM mechanism must be specified at index %d" % index))
    return None


__all__ = ["ScramMechanism", "ScramCredentialInfo", "UserScramCredentialsDescription",
           "UserScramCredentialAlteration", "UserScramCredentialUpsertion", "UserScramCredentialDeletion",
           "check_users", "check_alterations", "duplicate_users_error", "unknown_mechanism_error",
           "DEFAULT_SALT_BYTES"]
