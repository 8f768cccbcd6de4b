"""Build a SASL mechanism from configuration, validating every argument."""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, Optional

from kafka.conn.sasl.base import SaslMechanism
from kafka.conn.sasl.oauth import OAuthBearerMechanism
from kafka.conn.sasl.plain import PlainMechanism
from kafka.conn.sasl.scram import ScramMechanism
from kafka.errors import KafkaConfigurationError

#: Mechanism names :func:`create_mechanism` accepts, as brokers spell them.
SUPPORTED_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")

_SCRAM_OPTIONS: FrozenSet[str] = frozenset(
    ("nonce", "min_iterations", "max_iterations", "saslprep", "token_auth"))
_OPTIONS: Dict[str, FrozenSet[str]] = {
    "PLAIN": frozenset(),
    "SCRAM-SHA-256": _SCRAM_OPTIONS,
    "SCRAM-SHA-512": _SCRAM_OPTIONS,
    "OAUTHBEARER": frozenset(("extensions",)),
}


def create_mechanism(name: str, *, username: Optional[str] = None, password: Optional[str] = None,
                     oauth_token_provider: Any = None, **options: Any) -> SaslMechanism:
    """Return a new, unstarted client mechanism for ``name``.

    :param name: one of :data:`SUPPORTED_MECHANISMS` (case-insensitive).
    :param username: required for PLAIN and SCRAM; not accepted for
        OAUTHBEARER.
    :param password: required for PLAIN and SCRAM; not accepted for
        OAUTHBEARER.
    :param oauth_token_provider: required for OAUTHBEARER, refused otherwise:
        an object with ``token()`` (and optionally ``extensions()``), or a
        callable returning the token string.
    :param options: mechanism-specific options. SCRAM: ``nonce``,
        ``min_iterations``, ``max_iterations``, ``saslprep``, ``token_auth``
        (see :class:`ScramMechanism`). OAUTHBEARER: ``extensions`` (see
        :class:`OAuthBearerMechanism`). PLAIN: none.
    :raises kafka.errors.KafkaConfigurationError: for an unknown mechanism,
        a missing, superfluous or unknown argument, or an invalid value.
        Messages name the offending argument, never a credential's value.
    """
    if not isinstance(name, str):
        raise KafkaConfigurationError("SASL mechanism name must be a str, not {0}".format(type(name).__name__))
    mechanism = name.upper()
    if mechanism not in _OPTIONS:
        hint = " (Kerberos is not supported by kafkawire)" if mechanism == "GSSAPI" else ""
        raise KafkaConfigurationError("unsupported SASL mechanism {0!r}{1}; supported: {2}".format(
            name, hint, ", ".join(SUPPORTED_MECHANISMS)))
    unknown = sorted(set(options) - _OPTIONS[mechanism])
    if unknown:
        raise KafkaConfigurationError("unknown option(s) for SASL {0}: {1}".format(mechanism, ", ".join(unknown)))

    if mechanism == "OAUTHBEARER":
        for value, what in ((username, "username"), (password, "password")):
            if value is not None:
                raise KafkaConfigurationError(
                    "SASL OAUTHBEARER takes no {0}: the identity comes from the token".format(what))
        if oauth_token_provider is None:
            raise KafkaConfigurationError("SASL OAUTHBEARER needs oauth_token_provider")
        return OAuthBearerMechanism(oauth_token_provider, **options)

    if oauth_token_provider is not None:
        raise KafkaConfigurationError("oauth_token_provider is only used by SASL OAUTHBEARER")
    for value, what in ((username, "username"), (password, "password")):
        if value is None:
            raise KafkaConfigurationError("SASL {0} needs a {1}".format(mechanism, what))
    assert username is not None and password is not None
    if mechanism == "PLAIN":
        return PlainMechanism(username, password)
    return ScramMechanism(mechanism, username, password, **options)
