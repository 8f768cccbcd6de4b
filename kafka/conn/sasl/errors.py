"""The exception raised when a SASL exchange fails on the client side."""

from __future__ import annotations

from kafka.errors import SaslAuthenticationFailedError


class SaslAuthenticationError(SaslAuthenticationFailedError):
    """A SASL exchange failed, as detected by the client's mechanism.

    Raised for a server message that is malformed or breaks the mechanism's
    rules (a SCRAM nonce not extending ours, an iteration count out of
    bounds), for a server that cannot prove it knows the password (bad
    SCRAM server signature), and for errors the server reports inside the
    SASL exchange itself (SCRAM ``e=``, an OAUTHBEARER error challenge).

    It subclasses :class:`kafka.errors.SaslAuthenticationFailedError` (broker
    error code 58, which a broker returns in a SaslAuthenticate response), so
    ``except SaslAuthenticationFailedError`` catches both a refusal reported
    by the broker and a failure noticed by the client. It carries the same
    ``errno`` (58) but is not registered in the broker error table:
    :func:`kafka.errors.for_code` still returns the parent class.

    Messages never contain a password, a token or any value derived from
    them.
    """
