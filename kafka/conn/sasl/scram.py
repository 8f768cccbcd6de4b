"""SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677), client side.

Four messages, two each way::

    client-first   n,,n=<user>,r=<client nonce>[,tokenauth=true]
    server-first   r=<client nonce + server nonce>,s=<base64 salt>,i=<iterations>
    client-final   c=biws,r=<combined nonce>,p=<base64 client proof>
    server-final   v=<base64 server signature>     or     e=<error>

The client proves it knows the password without sending it, and the
server's signature proves the server knows it too: a server signature that
does not verify fails the exchange. No channel binding is used (``c=biws``
is base64 of the GS2 header ``n,,``).

Kafka delegation tokens authenticate with SCRAM plus the ``tokenauth=true``
extension: the token id is the user name and the token HMAC the password.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
from typing import Any, Dict, List, Optional, Tuple

from kafka.conn.sasl.base import SaslMechanism, check_text, log
from kafka.conn.sasl.errors import SaslAuthenticationError
from kafka.conn.sasl.saslprep import SaslPrepError, saslprep
from kafka.errors import KafkaConfigurationError

#: Hash function (hashlib name) of each supported SCRAM variant. SCRAM-SHA-1
#: is here only so that the RFC 5802 test vector can be checked; Kafka brokers
#: never offer it and :func:`kafka.conn.sasl.create_mechanism` refuses it.
SCRAM_HASHES = {
    "SCRAM-SHA-256": "sha256",
    "SCRAM-SHA-512": "sha512",
    "SCRAM-SHA-1": "sha1",
}

#: RFC 7677 asks for at least 4096 iterations.
DEFAULT_MIN_ITERATIONS = 4096
#: A server may choose the iteration count, and each iteration costs the
#: client one HMAC: refuse absurd counts rather than burn CPU on them. Kafka
#: itself never uses more than 16384.
DEFAULT_MAX_ITERATIONS = 1_000_000

_GS2_HEADER = b"n,,"
_CHANNEL_BINDING = base64.b64encode(_GS2_HEADER)  # b"biws"
# printable = %x21-2B / %x2D-7E  (printable ASCII except ",")
_NONCE_RE = re.compile(rb"[\x21-\x2b\x2d-\x7e]+\Z")
_ITERATIONS_RE = re.compile(rb"[0-9]+\Z")
_MAX_ITERATION_DIGITS = 10
_ATTRIBUTE_RE = re.compile(rb"[A-Za-z]=")
_MAX_ERROR_TEXT = 200


def salted_password(mechanism: str, password: bytes, salt: bytes, iterations: int) -> bytes:
    """RFC 5802's ``Hi(password, salt, iterations)`` for ``mechanism`` ("SCRAM-SHA-256" or "SCRAM-SHA-512").

    The key both sides derive a login's proofs from, and what a broker
    stores (with the salt and count) as a user's SCRAM credential.
    """
    return hashlib.pbkdf2_hmac(SCRAM_HASHES[mechanism], password, salt, iterations)


def escape_saslname(name: str) -> str:
    """Escape a user name for SCRAM: ``=`` becomes ``=3D`` and ``,`` becomes ``=2C``."""
    return name.replace("=", "=3D").replace(",", "=2C")


def _attributes(message: bytes, what: str) -> List[Tuple[bytes, bytes]]:
    """Split ``a=value,b=value`` into pairs, checking the attribute syntax."""
    pairs = []
    for part in message.split(b","):
        if not _ATTRIBUTE_RE.match(part):
            raise SaslAuthenticationError("SCRAM: malformed {0} message".format(what))
        pairs.append((part[:1], part[2:]))
    return pairs


def _b64decode(value: bytes, what: str) -> bytes:
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise SaslAuthenticationError("SCRAM: {0} is not valid base64".format(what)) from None


def _server_error(value: bytes, step: str) -> SaslAuthenticationError:
    text = value[:_MAX_ERROR_TEXT].decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return SaslAuthenticationError("SCRAM: the server refused the {0}: {1}".format(step, text))


class ScramMechanism(SaslMechanism):
    """A SCRAM client: SCRAM-SHA-256 or SCRAM-SHA-512.

    :param mechanism: ``"SCRAM-SHA-256"`` or ``"SCRAM-SHA-512"``
        (``"SCRAM-SHA-1"`` is accepted for RFC 5802's test vector only).
    :param username: the user name (for delegation tokens, the token id).
    :param password: the password (for delegation tokens, the token HMAC).
    :param nonce: the client nonce; by default 32 random characters from
        :mod:`secrets`. Only tests should set it.
    :param min_iterations: smallest iteration count accepted from the server.
    :param max_iterations: largest iteration count accepted from the server.
    :param saslprep: prepare the user name and password with SASLprep
        (RFC 4013) as RFC 5802 requires. Set ``False`` to send them as plain
        UTF-8, which is what Apache Kafka's own tools do when they store
        credentials: only then do non-ASCII passwords that SASLprep changes
        (compatibility characters, non-NFKC text, non-ASCII spaces, soft
        hyphens) match a Java-created credential. ASCII is unaffected except
        that SASLprep rejects control characters.
    :param token_auth: add the ``tokenauth=true`` extension (Kafka
        delegation tokens).
    :raises kafka.errors.KafkaConfigurationError: for an invalid argument.
    """

    def __init__(self, mechanism: str, username: str, password: str, *,
                 nonce: Optional[str] = None,
                 min_iterations: int = DEFAULT_MIN_ITERATIONS,
                 max_iterations: int = DEFAULT_MAX_ITERATIONS,
                 saslprep: bool = True,
                 token_auth: bool = False) -> None:
        if mechanism not in SCRAM_HASHES:
            raise KafkaConfigurationError("unknown SCRAM mechanism {0!r}".format(mechanism))
        check_text(username, "SCRAM username")
        check_text(password, "SCRAM password")
        if "\0" in username:
            raise KafkaConfigurationError("SCRAM username must not contain NUL")
        for flag, what in ((saslprep, "saslprep"), (token_auth, "token_auth")):
            if not isinstance(flag, bool):
                raise KafkaConfigurationError("{0} must be a bool".format(what))
        for bound, what in ((min_iterations, "min_iterations"), (max_iterations, "max_iterations")):
            if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
                raise KafkaConfigurationError("{0} must be a positive int".format(what))
        if max_iterations < min_iterations:
            raise KafkaConfigurationError("max_iterations must not be smaller than min_iterations")
        if nonce is not None:
            check_text(nonce, "SCRAM nonce")
            if not _NONCE_RE.match(nonce.encode("utf-8")):
                raise KafkaConfigurationError("SCRAM nonce must be printable ASCII without ','")
        super().__init__(username)
        self.name = mechanism
        self._hash = SCRAM_HASHES[mechanism]
        self._raw_password = password
        self._options: Dict[str, Any] = dict(min_iterations=min_iterations, max_iterations=max_iterations,
                                             saslprep=saslprep, token_auth=token_auth)
        self._min_iterations = min_iterations
        self._max_iterations = max_iterations
        self._token_auth = token_auth
        if saslprep:
            prepared_user = _saslprep_or_raise(username, "SCRAM username", quote=True)
            prepared_password = _saslprep_or_raise(password, "SCRAM password", quote=False)
        else:
            prepared_user, prepared_password = username, password
        self._saslname = escape_saslname(prepared_user).encode("utf-8")
        self._password = prepared_password.encode("utf-8")
        self._nonce = (nonce or secrets.token_urlsafe(24)).encode("ascii")
        self._client_first_bare = b""
        # Set once the client-final message is built: the signature the
        # server must return in server-final.
        self._server_signature: Optional[bytes] = None

    def renew(self) -> "ScramMechanism":
        """A fresh exchange with the same settings and a new random nonce."""
        return ScramMechanism(self.name, self.username or "", self._raw_password, **self._options)

    def _start(self) -> bytes:
        bare = b"n=" + self._saslname + b",r=" + self._nonce
        if self._token_auth:
            bare += b",tokenauth=true"
        self._client_first_bare = bare
        return _GS2_HEADER + bare

    def _step(self, challenge: bytes) -> Optional[bytes]:
        if self._server_signature is None:
            return self._client_final(challenge)
        self._verify_server_final(challenge)
        return None

    # -- server-first -> client-final --------------------------------------------

    def _client_final(self, server_first: bytes) -> bytes:
        attributes = _attributes(server_first, "server-first")
        if attributes[0][0] == b"e":
            raise _server_error(attributes[0][1], "client-first message")
        if attributes[0][0] == b"m":
            raise SaslAuthenticationError("SCRAM: the server requires an unsupported mandatory extension")
        if [key for key, _ in attributes[:3]] != [b"r", b"s", b"i"]:
            raise SaslAuthenticationError("SCRAM: malformed server-first message (expected r=, s=, i=)")
        nonce, salt_b64, iterations_text = (value for _, value in attributes[:3])

        if not _NONCE_RE.match(nonce) or not nonce.startswith(self._nonce) or len(nonce) == len(self._nonce):
            raise SaslAuthenticationError("SCRAM: the server nonce does not extend the client nonce")
        salt = _b64decode(salt_b64, "the salt")
        if not salt:
            raise SaslAuthenticationError("SCRAM: the server sent an empty salt")
        if not _ITERATIONS_RE.match(iterations_text):
            raise SaslAuthenticationError("SCRAM: the iteration count is not a number")
        if len(iterations_text) > _MAX_ITERATION_DIGITS:
            raise SaslAuthenticationError(
                "SCRAM: the server asked for an absurd iteration count ({0} digits)".format(len(iterations_text)))
        iterations = int(iterations_text)
        if not self._min_iterations <= iterations <= self._max_iterations:
            raise SaslAuthenticationError(
                "SCRAM: the server asked for {0} iterations; accepted range is {1} to {2}".format(
                    iterations, self._min_iterations, self._max_iterations))
        log.debug("%r: server-first accepted: %d iterations, %d-byte salt", self, iterations, len(salt))

        salted = salted_password(self.name, self._password, salt, iterations)
        client_key = self._hmac(salted, b"Client Key")
        stored_key = hashlib.new(self._hash, client_key).digest()
        without_proof = b"c=" + _CHANNEL_BINDING + b",r=" + nonce
        auth_message = self._client_first_bare + b"," + server_first + b"," + without_proof
        client_signature = self._hmac(stored_key, auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, client_signature))
        server_key = self._hmac(salted, b"Server Key")
        self._server_signature = self._hmac(server_key, auth_message)
        return without_proof + b",p=" + base64.b64encode(proof)

    # -- server-final --------------------------------------------------------------

    def _verify_server_final(self, server_final: bytes) -> None:
        attributes = _attributes(server_final, "server-final")
        key, value = attributes[0]
        if key == b"e":
            raise _server_error(value, "client proof")
        if key != b"v":
            raise SaslAuthenticationError("SCRAM: malformed server-final message (expected v= or e=)")
        signature = _b64decode(value, "the server signature")
        if not hmac.compare_digest(signature, self._server_signature or b""):
            raise SaslAuthenticationError(
                "SCRAM: the server signature does not verify; the server does not know the password")
        log.debug("%r: server signature verified", self)

    def _hmac(self, key: bytes, message: bytes) -> bytes:
        return hmac.new(key, message, self._hash).digest()


def _saslprep_or_raise(value: str, what: str, quote: bool) -> str:
    try:
        prepared = saslprep(value)
    except SaslPrepError as exc:
        detail = str(exc) if quote else exc.reason
        raise KafkaConfigurationError("{0} is not allowed by SASLprep: {1}".format(what, detail)) from None
    if not prepared:
        raise KafkaConfigurationError("{0} is empty after SASLprep".format(what))
    return prepared
