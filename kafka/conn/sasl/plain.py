"""SASL PLAIN (RFC 4616): the user name and password in one message.

PLAIN sends the password as it is; use it only over TLS (or on a trusted
network, as in tests). Kafka brokers reject an authorization identity that
differs from the user name, so none is sent.
"""

from __future__ import annotations

from typing import Optional

from kafka.conn.sasl.base import SaslMechanism, check_text
from kafka.conn.sasl.errors import SaslAuthenticationError
from kafka.errors import KafkaConfigurationError


class PlainMechanism(SaslMechanism):
    """The PLAIN mechanism: one message ``\\0username\\0password`` (UTF-8).

    :param username: the authentication identity; non-empty, no NUL.
    :param password: non-empty, no NUL.
    :raises kafka.errors.KafkaConfigurationError: for an invalid argument.

    The server answers success with no data: pass ``b""`` to
    :meth:`respond`, which then returns ``None``. Any data from the server is
    a protocol violation and raises :class:`SaslAuthenticationError`.
    """

    name = "PLAIN"

    def __init__(self, username: str, password: str) -> None:
        check_text(username, "PLAIN username")
        check_text(password, "PLAIN password")
        if "\0" in username:
            raise KafkaConfigurationError("PLAIN username must not contain NUL")
        if "\0" in password:
            raise KafkaConfigurationError("PLAIN password must not contain NUL")
        super().__init__(username)
        self._password = password

    def renew(self) -> "PlainMechanism":
        return PlainMechanism(self.username or "", self._password)

    def _start(self) -> bytes:
        # message = [authzid] UTF8NUL authcid UTF8NUL passwd
        return b"\0" + (self.username or "").encode("utf-8") + b"\0" + self._password.encode("utf-8")

    def _step(self, challenge: bytes) -> Optional[bytes]:
        if challenge:
            raise SaslAuthenticationError(
                "PLAIN: the server sent {0} unexpected bytes after the credentials".format(len(challenge)))
        return None
