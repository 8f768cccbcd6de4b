"""SASL OAUTHBEARER (RFC 7628, Kafka KIP-255 and KIP-342), client side.

The client sends a bearer token obtained from a user-supplied provider, with
optional SASL extensions (KIP-342), in one message::

    n,,\\x01auth=Bearer <token>\\x01key=value\\x01...\\x01\\x01

The server answers success with no data. On failure it sends a JSON error
challenge (``{"status": "invalid_token", ...}``) to which the client must
reply ``\\x01``; the broker then ends the exchange with an error code.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any, Callable, Dict, Mapping, Optional

from kafka.conn.sasl.base import SaslMechanism, log
from kafka.conn.sasl.errors import SaslAuthenticationError
from kafka.errors import KafkaConfigurationError

_SEPARATOR = b"\x01"
# RFC 6750 b64token: the characters a bearer token may contain.
_TOKEN_RE = re.compile(r"[A-Za-z0-9\-._~+/]+=*\Z")
# RFC 7628 section 3.1: key = 1*(ALPHA); value = *(VCHAR / SP / HTAB / CR / LF)
_EXTENSION_KEY_RE = re.compile(r"[A-Za-z]+\Z")
_EXTENSION_VALUE_RE = re.compile(r"[\x21-\x7e \t\r\n]*\Z")
_MAX_ERROR_TEXT = 300
# A server could echo the token in its error; hide it then. Shorter tokens
# are not looked for, since they would match ordinary words ("tok" in
# "invalid_token") and garble the message.
_MIN_REDACTED_TOKEN = 8


class OAuthBearerMechanism(SaslMechanism):
    """The OAUTHBEARER mechanism.

    :param token_provider: where tokens come from. Either an object with a
        ``token()`` method (like kafka-python's ``AbstractTokenProvider``),
        optionally with an ``extensions()`` method returning a dict of SASL
        extensions, or a plain callable returning the token. It is called
        afresh by every :meth:`initial_response`, so a re-authentication
        (:meth:`renew`) sends a current token. It must be synchronous and
        return a ``str``.
    :param extensions: fixed SASL extensions sent with every token; those
        returned by the provider's ``extensions()`` take precedence.
    :raises kafka.errors.KafkaConfigurationError: for an invalid provider or
        extension; also from :meth:`initial_response` when the provider
        returns something that is not a valid token or extension dict.
    :raises SaslAuthenticationError: from :meth:`initial_response` when the
        provider itself raises (the original exception is chained).

    On an error challenge :meth:`respond` returns ``b"\\x01"`` (the reply
    RFC 7628 requires) and records :attr:`failure`, whose message holds the
    server's status; the next :meth:`respond` call raises it. The connection
    layer should raise :attr:`failure` when the broker then returns an error.
    """

    name = "OAUTHBEARER"

    def __init__(self, token_provider: Any, *, extensions: Optional[Mapping[str, str]] = None) -> None:
        token_method = getattr(token_provider, "token", None)
        if callable(token_method):
            self._get_token: Callable[[], Any] = token_method
        elif callable(token_provider):
            self._get_token = token_provider
        else:
            raise KafkaConfigurationError(
                "oauth_token_provider must have a token() method or be callable, not {0}".format(
                    type(token_provider).__name__))
        extensions_method = getattr(token_provider, "extensions", None)
        if extensions_method is not None and not callable(extensions_method):
            raise KafkaConfigurationError("oauth_token_provider.extensions must be a method")
        self._get_extensions: Optional[Callable[[], Any]] = extensions_method
        self._static_extensions = _check_extensions(extensions or {}, "extensions")
        super().__init__(None)
        self._provider = token_provider
        self._token = ""

    def renew(self) -> "OAuthBearerMechanism":
        """A fresh exchange with the same provider; it fetches a new token."""
        return OAuthBearerMechanism(self._provider, extensions=self._static_extensions)

    def _start(self) -> bytes:
        token = self._call_provider(self._get_token, "token()")
        if not isinstance(token, str):
            raise KafkaConfigurationError(
                "the OAUTHBEARER token provider returned {0}, not a str".format(type(token).__name__))
        if not _TOKEN_RE.match(token):
            raise KafkaConfigurationError(
                "the OAUTHBEARER token provider returned a malformed token "
                "(a bearer token is 1 or more of A-Z a-z 0-9 - . _ ~ + / followed by optional '='; "
                "do not include 'Bearer ')")
        extensions = dict(self._static_extensions)
        if self._get_extensions is not None:
            provided = self._call_provider(self._get_extensions, "extensions()")
            if provided is not None:
                extensions.update(_check_extensions(provided, "the token provider's extensions()"))
        self._token = token
        message = b"n,," + _SEPARATOR + b"auth=Bearer " + token.encode("ascii")
        for key, value in extensions.items():
            message += _SEPARATOR + key.encode("ascii") + b"=" + value.encode("ascii")
        return message + _SEPARATOR + _SEPARATOR

    def _step(self, challenge: bytes) -> Optional[bytes]:
        if not challenge:
            self._token = ""
            return None
        self._fail_after_reply(SaslAuthenticationError(self._describe_error(challenge)))
        self._token = ""
        return _SEPARATOR

    def _call_provider(self, method: Callable[[], Any], what: str) -> Any:
        try:
            result = method()
        except Exception as exc:
            raise SaslAuthenticationError(
                "the OAUTHBEARER token provider's {0} raised {1}".format(what, type(exc).__name__)) from exc
        if inspect.isawaitable(result):
            close = getattr(result, "close", None)
            if close is not None:
                close()  # a coroutine: avoid the "never awaited" warning
            raise KafkaConfigurationError(
                "the OAUTHBEARER token provider's {0} returned an awaitable; it must be synchronous".format(what))
        return result

    def _describe_error(self, challenge: bytes) -> str:
        """The failure message for an error challenge: the server's status, never the token."""
        try:
            document = json.loads(challenge.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            document = None
        if isinstance(document, dict) and isinstance(document.get("status"), str):
            text = "server status {0!r}".format(document["status"])
            for key in ("scope", "openid-configuration"):
                if isinstance(document.get(key), str):
                    text += ", {0} {1!r}".format(key, document[key])
        else:
            text = "malformed error challenge ({0} bytes)".format(len(challenge))
        text = text[:_MAX_ERROR_TEXT]
        if len(self._token) >= _MIN_REDACTED_TOKEN and self._token in text:
            text = text.replace(self._token, "<token>")
        return "OAUTHBEARER: authentication failed: " + text


def _check_extensions(extensions: Any, what: str) -> Dict[str, str]:
    """Validate SASL extensions (RFC 7628 key/value syntax); values are not echoed."""
    if not isinstance(extensions, Mapping):
        raise KafkaConfigurationError("{0} must be a dict, not {1}".format(what, type(extensions).__name__))
    checked: Dict[str, str] = {}
    for key, value in extensions.items():
        if not isinstance(key, str) or not _EXTENSION_KEY_RE.match(key):
            raise KafkaConfigurationError("{0}: extension names must be ASCII letters only".format(what))
        if key == "auth":
            raise KafkaConfigurationError("{0}: 'auth' is reserved and cannot be an extension".format(what))
        if not isinstance(value, str) or not _EXTENSION_VALUE_RE.match(value):
            raise KafkaConfigurationError(
                "{0}: the value of extension {1!r} must be a str of printable ASCII, space, tab, CR or LF".format(
                    what, key))
        checked[key] = value
    return checked
