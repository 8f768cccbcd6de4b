"""SASL client mechanisms as sans-IO state machines.

Each mechanism turns server bytes into client bytes and nothing more: the
connection layer wraps them in SaslHandshake / SaslAuthenticate requests (see
:mod:`kafka.protocol.apis.sasl`). Supported: PLAIN, SCRAM-SHA-256,
SCRAM-SHA-512 and OAUTHBEARER. Build one with :func:`create_mechanism`::

    mechanism = create_mechanism("SCRAM-SHA-256", username="alice", password=secret)
    token = mechanism.initial_response()
    ...  # send token, get the server's reply
    token = mechanism.respond(server_bytes)   # None once complete

Credentials never appear in ``repr()``, in the ``kafka.conn.sasl`` logger's
records or in exception messages.
"""

from kafka.conn.sasl.base import SaslMechanism, reauthentication_delay_ms
from kafka.conn.sasl.errors import SaslAuthenticationError
from kafka.conn.sasl.factory import SUPPORTED_MECHANISMS, create_mechanism
from kafka.conn.sasl.oauth import OAuthBearerMechanism
from kafka.conn.sasl.plain import PlainMechanism
from kafka.conn.sasl.saslprep import SaslPrepError, saslprep
from kafka.conn.sasl.scram import ScramMechanism, escape_saslname

__all__ = [
    "SUPPORTED_MECHANISMS",
    "OAuthBearerMechanism",
    "PlainMechanism",
    "SaslAuthenticationError",
    "SaslMechanism",
    "SaslPrepError",
    "ScramMechanism",
    "create_mechanism",
    "escape_saslname",
    "reauthentication_delay_ms",
    "saslprep",
]
