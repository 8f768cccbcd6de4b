"""``oauth_cb``: OAUTHBEARER tokens from the application, for the engine's SASL logins.

confluent-kafka calls ``oauth_cb(sasl.oauthbearer.config)`` when the client
is created and again before the token expires; the callback returns
``(token, expiry)`` or ``(token, expiry, principal[, extensions])``, expiry
being seconds since the epoch. :class:`OAuthCallbackProvider` is the
engine's ``sasl_oauth_token_provider``: it keeps the last token and asks the
callback again once 80% of the token's lifetime has passed (librdkafka's
refresh point), or when the token was refused and a new login starts.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, Optional

from kafka.confluent.kafka_error import KafkaError, KafkaException

#: Part of a token's lifetime after which a new one is asked for.
_REFRESH_AT = 0.8


def _invalid(text: str) -> KafkaException:
    return KafkaException(KafkaError(KafkaError._INVALID_ARG, text))  # type: ignore[attr-defined]


class OAuthCallbackProvider:
    """Tokens from ``oauth_cb``, cached until their refresh point."""

    def __init__(self, oauth_cb: Callable[[Optional[str]], Any], oauthbearer_config: Optional[str]) -> None:
        self._callback = oauth_cb
        self._config = oauthbearer_config
        self._lock = threading.Lock()
        self._token: Optional[str] = None
        self._refresh_at = 0.0
        self._extensions: Dict[str, str] = {}
        self.principal: Optional[str] = None

    def refresh(self) -> None:
        """Call ``oauth_cb`` now and keep what it returns (raises KafkaException for a bad result)."""
        result = self._callback(self._config)
        if not isinstance(result, tuple) or not 2 <= len(result) <= 4:
            raise _invalid("oauth_cb must return (token, expiry[, principal[, extensions]])")
        token, expiry = result[0], result[1]
        principal = result[2] if len(result) > 2 else None
        extensions = result[3] if len(result) > 3 else None
        if not isinstance(token, str) or not token:
            raise _invalid("oauth_cb must return the token as a non-empty str")
        if isinstance(expiry, bool) or not isinstance(expiry, (int, float)):
            raise _invalid("oauth_cb must return the token's expiry as seconds since the epoch")
        if extensions is not None and not isinstance(extensions, dict):
            raise _invalid("oauth_cb must return the SASL extensions as a dict")
        now = time.time()
        with self._lock:
            self._token = token
            self._refresh_at = time.monotonic() + max(float(expiry) - now, 0.0) * _REFRESH_AT
            self.principal = principal if isinstance(principal, str) else None
            self._extensions = {str(k): str(v) for k, v in (extensions or {}).items()}

    def token(self) -> str:
        """The engine asks for a token at each login: the cached one, or a new one when due."""
        with self._lock:
            due = self._token is None or time.monotonic() >= self._refresh_at
        if due:
            self.refresh()
        with self._lock:
            assert self._token is not None
            return self._token

    def extensions(self) -> Dict[str, str]:
        """The SASL extensions (KIP-342) returned with the current token."""
        with self._lock:
            return dict(self._extensions)
