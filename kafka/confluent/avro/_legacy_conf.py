"""The legacy client's configuration, checked as confluent-kafka checks it and turned into ours.

``CachedSchemaRegistryClient`` accepts ``url`` (required, ``http...``),
``ssl.ca.location``, ``ssl.certificate.location`` with
``ssl.key.location`` (both or neither), ``ssl.key.password``,
``basic.auth.credentials.source`` (``URL``, the default: credentials in the
URL; ``USER_INFO`` with ``basic.auth.user.info``; ``SASL_INHERIT`` with
``sasl.mechanism``, ``sasl.username`` and ``sasl.password``) and
``auto.register.schemas``. Anything else raises ``ValueError``.
:func:`registry_conf` answers the configuration of kafkawire's
:class:`~kafka.confluent.schema_registry.SchemaRegistryClient` that does the
same, tried once per request as the legacy client does.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple
from urllib.parse import unquote, urlsplit, urlunsplit

VALID_AUTH_PROVIDERS = ["URL", "USER_INFO", "SASL_INHERIT"]


def _split_credentials(url: str) -> Tuple[str, Tuple[str, str]]:
    """``url`` without its user info and fragment, and the user info's (user, password)."""
    parts = urlsplit(url)
    credentials = (unquote(parts.username or ""), unquote(parts.password or ""))
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, "")), credentials


def _auth(conf: Dict[str, Any], url_credentials: Tuple[str, str]) -> Tuple[str, ...]:
    source = str(conf.pop("basic.auth.credentials.source", "URL")).upper()
    if source not in VALID_AUTH_PROVIDERS:
        raise ValueError("schema.registry.basic.auth.credentials.source must be one of %s" % VALID_AUTH_PROVIDERS)
    if source == "SASL_INHERIT":
        if str(conf.pop("sasl.mechanism", "")).upper() == "GSSAPI":
            raise ValueError("SASL_INHERIT does not support SASL mechanism GSSAPI")
        return (conf.pop("sasl.username", ""), conf.pop("sasl.password", ""))
    if source == "USER_INFO":
        return tuple(str(conf.pop("basic.auth.user.info", "")).split(":"))
    return url_credentials


def registry_conf(conf: Dict[str, Any]) -> Tuple[str, bool, Dict[str, Any]]:
    """(the URL as the legacy client shows it, ``auto.register.schemas``, kafkawire's client configuration)."""
    conf = dict(conf)
    url = conf.pop("url", "")
    if not isinstance(url, str):
        raise TypeError("URL must be of type str")
    if not url.startswith("http"):
        raise ValueError("Invalid URL provided for Schema Registry")
    bare_url, url_credentials = _split_credentials(url.rstrip("/"))
    ours: Dict[str, Any] = {"url": bare_url, "max.retries": 0}
    ca_location = conf.pop("ssl.ca.location", None)
    if ca_location is not None:
        ours["ssl.ca.location"] = ca_location
    certificate, key = conf.pop("ssl.certificate.location", None), conf.pop("ssl.key.location", None)
    if bool(certificate) != bool(key):
        raise ValueError("Both schema.registry.ssl.certificate.location and schema.registry.ssl.key.location "
                         "must be set")
    if certificate:
        ours["ssl.certificate.location"] = certificate
        ours["ssl.key.location"] = key
    auth = _auth(conf, url_credentials)
    key_password = conf.pop("ssl.key.password", None)
    if key_password is not None and certificate:
        ours["ssl.key.password"] = key_password
    auto_register = conf.pop("auto.register.schemas", True)
    if conf:
        raise ValueError("Unrecognized configuration properties: {}".format(conf.keys()))
    if len(auth) == 2 and auth[0] != "" and auth[1] != "":
        ours["basic.auth.user.info"] = "%s:%s" % (auth[0], auth[1])
    return bare_url, bool(auto_register), ours


__all__ = ["registry_conf", "VALID_AUTH_PROVIDERS"]
