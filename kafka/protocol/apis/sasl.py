"""SASL authentication on a new connection: SaslHandshake, SaslAuthenticate."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BYTES, INT16, INT64, STRING

# SaslHandshake (key 17): pick a SASL mechanism. With v0 the SASL tokens then
# travel as raw size-prefixed frames; with v1 they travel in SaslAuthenticate.
# Never flexible: its version cannot be bumped without breaking old clients.
SASL_HANDSHAKE = Api(
    "SaslHandshake", 17, (0, 1), flexible=None, route=Route.CONNECTION,
    request=Struct(
        "SaslHandshakeRequest",
        Field("mechanism", STRING),
    ),
    response=Struct(
        "SaslHandshakeResponse",
        Field("error_code", INT16),
        Field("mechanisms", Array(STRING)),
    ),
)

# SaslAuthenticate (key 36): carry one SASL token each way; v1 adds the
# session lifetime after which the client must re-authenticate.
SASL_AUTHENTICATE = Api(
    "SaslAuthenticate", 36, (0, 2), flexible=2, route=Route.CONNECTION,
    request=Struct(
        "SaslAuthenticateRequest",
        Field("auth_bytes", BYTES),
    ),
    response=Struct(
        "SaslAuthenticateResponse",
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+"),
        Field("auth_bytes", BYTES),
        Field("session_lifetime_ms", INT64, "1+", default=0, ignorable=True),
    ),
)
