"""HTTP to a Schema Registry: the client configuration, TLS, credentials, retries and fail-over.

:class:`RestClient` reads the configuration keys of confluent-kafka's
``SchemaRegistryClient`` and sends JSON requests with the standard library
(``urllib.request``), so the client needs no package of its own. A request
is tried on each URL of ``url`` in turn; on one URL it is retried up to
``max.retries`` times, after a random wait of at most
``retries.wait.ms * 2**attempt`` (capped at ``retries.max.wait.ms``), when
the connection fails or the answer is 408, 429, 500, 502, 503 or 504. An
unsuccessful answer raises :class:`SchemaRegistryError`; a connection that
fails on every URL raises the last ``OSError`` (``urllib.error.URLError``).
"""

from __future__ import annotations

import base64
import json
import os
import random
import ssl
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import quote, unquote, urlencode, urlsplit, urlunsplit

from kafka.confluent.schema_registry.error import SchemaRegistryError

_ACCEPT = "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json"
_CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
_RETRIABLE = (408, 429, 500, 502, 503, 504)
#: ``basic.auth.credentials.source`` values (confluent-kafka's legacy client read this key).
_CREDENTIAL_SOURCES = ("URL", "USER_INFO", "SASL_INHERIT")
_BEARER_SOURCES = ("STATIC_TOKEN", "CUSTOM")


def path_part(value: Any) -> str:
    """``value`` escaped as one path segment (a subject may hold ``/``)."""
    return quote(str(value), safe="")


def _number(conf: Dict[str, Any], key: str, default: Any) -> Any:
    value = conf.pop(key, None)
    if value is None:
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError("%s must be a number, not %s" % (key, type(value)))
    return value


def _ssl_context(conf: Dict[str, Any]) -> ssl.SSLContext:
    ca = conf.pop("ssl.ca.location", None)
    key = conf.pop("ssl.key.location", None)
    key_password = conf.pop("ssl.key.password", None)
    certificate = conf.pop("ssl.certificate.location", None)
    if ca is False:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    elif isinstance(ca, str):
        context = ssl.create_default_context(capath=ca) if os.path.isdir(ca) else ssl.create_default_context(cafile=ca)
    else:
        context = ssl.create_default_context()  # the system's CAs (SSL_CERT_FILE and SSL_CERT_DIR apply)
    if certificate is not None:
        context.load_cert_chain(certfile=certificate, keyfile=key, password=key_password)
    elif key is not None or key_password is not None:
        raise ValueError("ssl.certificate.location required when configuring ssl.key.location or "
                         "ssl.key.password")
    return context


def _bearer(conf: Dict[str, Any]) -> Optional[Callable[[], Dict[str, Any]]]:
    """What gives the bearer fields, for ``bearer.auth.credentials.source`` STATIC_TOKEN or CUSTOM."""
    source = conf.pop("bearer.auth.credentials.source", None)
    if source is None:
        return None
    if source not in _BEARER_SOURCES:
        raise ValueError("Unrecognized bearer.auth.credentials.source (kafkawire supports %s)"
                         % ", ".join(_BEARER_SOURCES))
    if source == "CUSTOM":
        missing = [k for k in ("bearer.auth.custom.provider.function", "bearer.auth.custom.provider.config")
                   if k not in conf]
        if missing:
            raise ValueError("Missing required custom OAuth configuration properties: %s" % ", ".join(missing))
        function = conf.pop("bearer.auth.custom.provider.function")
        config = conf.pop("bearer.auth.custom.provider.config")
        if not callable(function):
            raise TypeError("bearer.auth.custom.provider.function must be a callable, not %s" % type(function))
        if not isinstance(config, dict):
            raise TypeError("bearer.auth.custom.provider.config must be a dict, not %s" % type(config))
        return lambda: function(config)
    if "bearer.auth.logical.cluster" not in conf:
        raise ValueError("Missing required bearer configuration properties: bearer.auth.logical.cluster")
    if "bearer.auth.token" not in conf:
        raise ValueError("Missing bearer.auth.token")
    fields = {"bearer.auth.logical.cluster": conf.pop("bearer.auth.logical.cluster"),
              "bearer.auth.token": conf.pop("bearer.auth.token")}
    pool = conf.pop("bearer.auth.identity.pool.id", None)
    if isinstance(pool, list):
        pool = ",".join(pool)
    if pool is not None:
        fields["bearer.auth.identity.pool.id"] = pool
    return lambda: dict(fields)


def _credentials(conf: Dict[str, Any], first_url: str) -> Optional[Tuple[str, str]]:
    parts = urlsplit(first_url)
    from_url = (unquote(parts.username or ""), unquote(parts.password or ""))
    source = conf.pop("basic.auth.credentials.source", None)
    if source is not None:
        source = str(source).upper()
        if source not in _CREDENTIAL_SOURCES:
            raise ValueError("basic.auth.credentials.source must be one of %s" % list(_CREDENTIAL_SOURCES))
    if source == "SASL_INHERIT":  # the Kafka client's SASL credentials, given in the same dict
        mechanisms = (conf.pop("sasl.mechanism", None), conf.pop("sasl.mechanisms", None))
        if any(str(m or "").upper() == "GSSAPI" for m in mechanisms):
            raise ValueError("SASL_INHERIT does not support SASL mechanism GSSAPI")
        conf.pop("basic.auth.user.info", None)
        return (str(conf.pop("sasl.username", "") or ""), str(conf.pop("sasl.password", "") or ""))
    if source == "URL":
        conf.pop("basic.auth.user.info", None)
        return from_url if from_url != ("", "") else None
    if "basic.auth.user.info" in conf:
        if from_url != ("", ""):
            raise ValueError("basic.auth.user.info configured with userinfo credentials in the URL. Remove "
                             "userinfo credentials from the url or remove basic.auth.user.info from the "
                             "configuration")
        user, colon, password = str(conf.pop("basic.auth.user.info") or "").partition(":")
        if not colon:
            raise ValueError("basic.auth.user.info must be in the form of {username}:{password}")
        return (user, password) if (user, password) != ("", "") else None
    if source == "USER_INFO":
        raise ValueError("basic.auth.credentials.source USER_INFO needs basic.auth.user.info")
    return from_url if from_url != ("", "") else None


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


class _Answer:
    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        self.body = body


class RestClient:
    """Sends requests to the registry URLs of a ``SchemaRegistryClient`` configuration.

    The configuration is read as confluent-kafka reads it (the same keys,
    defaults, type checks and errors); any key left over raises
    ``ValueError("Unrecognized properties: ...")``.
    """

    def __init__(self, conf: Dict[str, Any]) -> None:
        conf = dict(conf)
        base_url = conf.pop("url", None)
        if base_url is None:
            raise ValueError("Missing required configuration property url")
        if not isinstance(base_url, str):
            raise TypeError("url must be a str, not " + str(type(base_url)))
        self.base_urls: List[str] = []
        for url in base_url.split(","):
            url = url.strip().rstrip("/")
            if not url.startswith("http"):
                raise ValueError("Invalid url {}".format(url))
            self.base_urls.append(url)
        self.auth = _credentials(conf, self.base_urls[0])
        self.base_urls = [_without_userinfo(u) for u in self.base_urls]
        self.ssl_context = _ssl_context(conf)
        self.proxy: Optional[str] = conf.pop("proxy", None)
        self.timeout: Optional[float] = conf.pop("timeout", None)
        self.cache_capacity = int(_number(conf, "cache.capacity", 1000))
        self.cache_latest_ttl_sec: Optional[float] = _number(conf, "cache.latest.ttl.sec", None)
        self.max_retries = int(_number(conf, "max.retries", 3))
        self.retries_wait_ms = int(_number(conf, "retries.wait.ms", 1000))
        self.retries_max_wait_ms = int(_number(conf, "retries.max.wait.ms", 20000))
        self.bearer = _bearer(conf)
        if conf:
            raise ValueError("Unrecognized properties: {}".format(", ".join(conf)))
        handlers: List[urllib.request.BaseHandler] = [urllib.request.HTTPSHandler(context=self.ssl_context)]
        if self.proxy is not None:
            handlers.append(urllib.request.ProxyHandler({"http": self.proxy, "https": self.proxy}))
        self._opener = urllib.request.build_opener(*handlers)

    def _headers(self, has_body: bool) -> Dict[str, str]:
        headers = {"Accept": _ACCEPT}
        if has_body:
            headers["Content-Type"] = _CONTENT_TYPE
        if self.auth is not None:
            token = base64.b64encode(("%s:%s" % self.auth).encode("utf-8")).decode("ascii")
            headers["Authorization"] = "Basic " + token
        if self.bearer is not None:
            fields = self.bearer()
            missing = [k for k in ("bearer.auth.token", "bearer.auth.logical.cluster") if k not in fields]
            if missing:
                raise ValueError("Missing required bearer auth fields, needs to be set in config or custom "
                                 "function: %s" % ", ".join(missing))
            headers["Authorization"] = "Bearer %s" % fields["bearer.auth.token"]
            headers["target-sr-cluster"] = str(fields["bearer.auth.logical.cluster"])
            if "bearer.auth.identity.pool.id" in fields:
                headers["Confluent-Identity-Pool-Id"] = str(fields["bearer.auth.identity.pool.id"])
        return headers

    def _send_once(self, url: str, method: str, headers: Dict[str, str], data: Optional[bytes]) -> _Answer:
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return _Answer(response.status, response.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return _Answer(exc.code, exc.read())

    def _send(self, url: str, method: str, headers: Dict[str, str], data: Optional[bytes]) -> _Answer:
        """One URL, with retries of connection failures and retriable answers."""
        attempt = 0
        while True:
            try:
                answer = self._send_once(url, method, headers, data)
            except OSError:  # URLError, refused or reset connections, timeouts, TLS failures
                if attempt >= self.max_retries:
                    raise
            else:
                if 200 <= answer.status <= 299 or answer.status not in _RETRIABLE or attempt >= self.max_retries:
                    return answer
            base = self.retries_wait_ms * (2.0 ** attempt)
            time.sleep(random.random() * min(base, self.retries_max_wait_ms) / 1000.0)
            attempt += 1

    def request(self, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None) -> Any:
        """Send ``method`` ``path`` (relative to each URL) and answer the decoded JSON (None when empty)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = self._headers(data is not None)
        if query:
            pairs = []
            for key, value in query.items():
                for item in value if isinstance(value, list) else [value]:
                    pairs.append((key, str(item).lower() if isinstance(item, bool) else str(item)))
            path += ("&" if "?" in path else "?") + urlencode(pairs)
        answer: Optional[_Answer] = None
        for index, base_url in enumerate(self.base_urls):
            last = index == len(self.base_urls) - 1
            try:
                answer = self._send(base_url + "/" + path.lstrip("/"), method, headers, data)
            except OSError:
                if last:
                    raise
                continue
            if 200 <= answer.status <= 299:
                if answer.status == 204 or not answer.body:
                    return None
                return json.loads(answer.body)
            if answer.status not in _RETRIABLE or last:
                break
        assert answer is not None
        try:
            document = json.loads(answer.body)
            code, message = document.get("error_code"), document.get("message")
        except (ValueError, AttributeError):
            raise SchemaRegistryError(answer.status, -1, "Unknown Schema Registry Error: " + str(answer.body)) \
                from None
        raise SchemaRegistryError(answer.status, code, message)

    def close(self) -> None:
        """Nothing stays open between requests; kept for the client's ``close()``."""


__all__ = ["RestClient", "path_part"]
