"""kafka-python configuration keys that kafkawire accepts without using them.

Programs written for kafka-python pass keys that only make sense inside
kafka-python (its metrics registry, its selector class, its version probe,
its Kerberos settings ...).  The clients accept every such key so those
programs run unchanged; this module holds the tables of those keys and the
one function the constructors call.

A key listed here is *accepted and ignored*: its value shows in the
client's ``config`` but changes nothing.  Values that could only be honoured
by a feature kafkawire lacks raise :class:`~kafka.errors.KafkaConfigurationError`
naming the missing feature instead of being silently dropped.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

from kafka import errors

# Keys the three clients share, with kafka-python 3's defaults.
_COMMON: Dict[str, Any] = {
    # The broker's ApiVersions answer is always preferred: version
    # negotiation picks the highest version both sides support.
    "api_version": None,
    "api_version_auto_timeout_ms": 2000,
    # Read by the producer and the consumer for metrics() (kafka.metric_registry).
    "metric_reporters": [],
    "metrics_num_samples": 2,
    "metrics_sample_window_ms": 30000,
    "metrics_enabled": True,
    # The network loop uses selectors.DefaultSelector.
    "selector": None,
    # Every address a name resolves to is tried, as 'use_all_dns_ips' does.
    "client_dns_lookup": "use_all_dns_ips",
    # Only GSSAPI uses these, and GSSAPI is refused below.
    "sasl_kerberos_name": None,
    "sasl_kerberos_service_name": "kafka",
    "sasl_kerberos_domain_name": None,
    # Proxies are not supported: a value other than None is refused below.
    "proxy_url": None,
    "socks5_proxy": None,
    # kafka-python's own client class; kafkawire's clients build their own.
    "kafka_client": None,
}

PRODUCER_ONLY: Dict[str, Any] = {
    # The producer connects lazily; the first send waits up to max_block_ms.
    "bootstrap_timeout_ms": 2000,
}

CONSUMER_ONLY: Dict[str, Any] = {
    "bootstrap_timeout_ms": 2000,
    "metric_group_prefix": "consumer",
    # Fetch sessions (KIP-227) are not used; every fetch is a full fetch.
    "enable_incremental_fetch_sessions": True,
    # kafka-python 1.3: message-format v0/v1 double compression is decoded
    # the same way whatever this says.
    "skip_double_compressed_messages": False,
}

ADMIN_ONLY: Dict[str, Any] = {}

#: Ignored keys (with kafka-python's defaults) per client kind.
IGNORED: Dict[str, Dict[str, Any]] = {
    "producer": dict(_COMMON, **PRODUCER_ONLY),
    "consumer": dict(_COMMON, **CONSUMER_ONLY),
    "admin": dict(_COMMON, **ADMIN_ONLY),
}
# The admin client honours kafka_client (a class building its network client).
del IGNORED["admin"]["kafka_client"]
del IGNORED["admin"]["metrics_enabled"]

#: Keys honoured under another name: kafka-python key -> kafkawire key.
RENAMED: Dict[str, str] = {
    "receive_message_max_bytes": "max_frame_size",
}


def split(kind: str, configs: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """Split ``configs`` into the keys the client uses and the ignored ones.

    ``kind`` is ``"producer"``, ``"consumer"`` or ``"admin"``.  Renamed keys
    come back under kafkawire's name.  Raises
    :class:`~kafka.errors.KafkaConfigurationError` for a value that asks for
    a feature kafkawire does not have.
    """
    ignored_keys = IGNORED[kind]
    used: Dict[str, Any] = {}
    ignored: Dict[str, Any] = {}
    for key, value in configs.items():
        if key in ignored_keys:
            ignored[key] = value
        elif key in RENAMED:
            used[RENAMED[key]] = value
        else:
            used[key] = value
    _refuse_unsupported(configs)
    if "api_version" in ignored:
        ignored["api_version"] = parse_api_version(ignored["api_version"])
    return used, ignored


def _refuse_unsupported(configs: Dict[str, Any]) -> None:
    mechanism = configs.get("sasl_mechanism")
    if isinstance(mechanism, str) and mechanism.upper() == "GSSAPI":
        raise errors.KafkaConfigurationError(
            "sasl_mechanism='GSSAPI' (Kerberos) is not implemented in kafkawire; "
            "use PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER")
    for key in ("proxy_url", "socks5_proxy"):
        if configs.get(key) is not None:
            raise errors.KafkaConfigurationError(
                "%s: connecting through a proxy is not implemented in kafkawire" % key)


def parse_api_version(value: Any) -> Any:
    """``"2.5.0"`` or ``(2, 5)`` as a tuple of ints; ``None`` and ``"auto"`` stay ``None``.

    The value is checked and kept, but not used: version negotiation always
    follows the broker's ApiVersions answer.
    """
    if value is None or value == "auto":
        return None
    if isinstance(value, str):
        try:
            return tuple(int(part) for part in value.split("."))
        except ValueError:
            raise errors.KafkaConfigurationError("api_version %r is not a version like '2.5.0'" % (value,)) from None
    if isinstance(value, (tuple, list)) and all(isinstance(part, int) for part in value):
        return tuple(value)
    raise errors.KafkaConfigurationError("api_version must be a tuple of ints or a string, not %r" % (value,))


def kafka_python_defaults(kind: str, defaults: Dict[str, Any]) -> Dict[str, Any]:
    """``defaults`` plus the ignored and renamed keys: the ``DEFAULT_CONFIG`` class attribute."""
    out = dict(defaults)
    for key, value in IGNORED[kind].items():
        out.setdefault(key, value)
    for old, new in RENAMED.items():
        if new in defaults:
            out.setdefault(old, defaults[new])
    return out


__all__ = ["IGNORED", "RENAMED", "split", "parse_api_version", "kafka_python_defaults"]
