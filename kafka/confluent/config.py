"""librdkafka configuration properties: validation and translation to engine settings.

The property table (names, types, ranges, aliases) is librdkafka's own, in
:mod:`kafka.confluent._tables`. :func:`parse` checks a configuration dict the
way confluent-kafka does at construction (an unknown property or a bad value
raises :class:`~kafka.confluent.kafka_error.KafkaException` with ``_INVALID_ARG``); :func:`producer_settings`
and :func:`consumer_settings` turn the result into ``KafkaProducer`` /
``KafkaConsumer`` keyword arguments. Properties that have no counterpart in
kafkawire are accepted and listed by :func:`ignored`.
"""

from __future__ import annotations

import logging
import re
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple

from kafka.confluent._oauth import OAuthCallbackProvider
from kafka.confluent._tables import PROPERTIES
from kafka.confluent.kafka_error import KafkaError, KafkaException

log = logging.getLogger(__name__)

#: name -> (scope, level, type, range, default, canonical name)
TABLE: Dict[str, Tuple[str, str, str, str, str, str]] = {}
for _row in PROPERTIES:
    TABLE.setdefault(_row[0], (_row[1], _row[2], _row[3], _row[4], _row[5], _row[6] or _row[0]))
del _row

#: Properties the Python binding handles itself (callables and the like).
CALLBACKS = ("error_cb", "throttle_cb", "stats_cb", "oauth_cb")
PARTITIONERS = ("random", "consistent", "consistent_random", "murmur2", "murmur2_random", "fnv1a", "fnv1a_random")
#: builtin.features values this library cannot provide (as librdkafka built without them refuses them).
UNSUPPORTED_FEATURES = ("sasl_gssapi",)
_BOOL_TRUE = ("true", "t", "1")
_BOOL_FALSE = ("false", "f", "0")

#: Canonical properties kafkawire honours (everything else valid is accepted and ignored).
HONOURED_COMMON = frozenset([
    "metadata.broker.list", "client.id", "security.protocol", "ssl.ca.location",
    "ssl.certificate.location", "ssl.key.location", "ssl.key.password", "ssl.cipher.suites",
    "ssl.crl.location", "enable.ssl.certificate.verification", "ssl.endpoint.identification.algorithm",
    "sasl.mechanisms", "sasl.username", "sasl.password", "sasl.oauthbearer.config", "retry.backoff.ms", "reconnect.backoff.ms",
    "reconnect.backoff.max.ms", "topic.metadata.refresh.interval.ms", "allow.auto.create.topics",
    "socket.connection.setup.timeout.ms", "connections.max.idle.ms", "group.id", "statistics.interval.ms",
])
HONOURED_PRODUCER = frozenset([
    "queue.buffering.max.ms", "batch.size", "compression.codec", "request.required.acks", "enable.idempotence",
    "transactional.id", "transaction.timeout.ms", "message.timeout.ms", "partitioner", "queue.buffering.max.messages",
    "queue.buffering.max.kbytes", "message.send.max.retries", "max.in.flight.requests.per.connection",
    "message.max.bytes", "request.timeout.ms", "delivery.report.only.error", "sticky.partitioning.linger.ms",
])
HONOURED_CONSUMER = frozenset([
    "group.instance.id", "auto.offset.reset", "enable.auto.commit", "auto.commit.interval.ms",
    "enable.auto.offset.store", "session.timeout.ms", "heartbeat.interval.ms", "max.poll.interval.ms",
    "partition.assignment.strategy", "group.protocol", "isolation.level", "enable.partition.eof",
    "fetch.min.bytes", "fetch.wait.max.ms", "fetch.max.bytes", "max.partition.fetch.bytes",
    "check.crcs",
])


HONOURED_COMMON, HONOURED_PRODUCER, HONOURED_CONSUMER = (
    frozenset(TABLE[name][5] for name in names) for names in (HONOURED_COMMON, HONOURED_PRODUCER, HONOURED_CONSUMER))


def invalid(text: str) -> KafkaException:
    """A KafkaException with code ``_INVALID_ARG``."""
    return KafkaException(KafkaError(KafkaError._INVALID_ARG, text))  # type: ignore[attr-defined]


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


_INT_RE = re.compile(r"\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
_FLOAT_RE = re.compile(r"\s*[+-]?(0[xX][0-9a-fA-F]+|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)")


def _parse_int(text: str) -> Optional[int]:
    """C ``strtoll(text, base=0)`` of the longest valid prefix, stored in an int: None if nothing parses."""
    match = _INT_RE.match(text)
    if not match:
        return None
    digits = match.group(2)
    number = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if digits.startswith("0") else \
        int(digits)
    if match.group(1) == "-":
        number = -number
    number = max(min(number, 2 ** 63 - 1), -2 ** 63)
    number &= 0xFFFFFFFF
    return number - 2 ** 32 if number >= 2 ** 31 else number


def _parse_float(text: str) -> Optional[float]:
    match = _FLOAT_RE.match(text)
    if not match:
        return None
    found = match.group(0).strip()
    return float.fromhex(found) if "x" in found.lower() else float(found)


def _range(spec: str) -> Optional[Tuple[float, float]]:
    if ".." not in spec:
        return None
    low, high = spec.split("..")
    return float(low), float(high)


def check_value(name: str, value: Any) -> str:
    """The property's value as text, or raise KafkaException(_INVALID_ARG)."""
    entry = TABLE.get(name)
    if entry is None:
        raise invalid('No such configuration property: "%s"' % name)
    _scope, _level, kind, spec, _default, canonical = entry
    text = _as_text(value)
    if kind == "api":
        raise invalid('Property "%s" must be set through dedicated .._set_..() function' % name)
    if kind == "string":
        if canonical == "partitioner" and text not in PARTITIONERS:
            raise invalid('Invalid value for configuration property "partitioner": %s' % text)
        return text
    if text == "" and kind != "pattern":
        raise invalid('Configuration property "%s" cannot be set to empty value' % canonical)
    if kind == "boolean":
        if text.lower() not in _BOOL_TRUE + _BOOL_FALSE:
            raise invalid('Expected bool value for "%s": true or false' % name)
        return "true" if text.lower() in _BOOL_TRUE else "false"
    if kind in ("integer", "float"):
        if canonical == "request.required.acks" and text.strip().lower() == "all":
            return "-1"
        number = _parse_int(text) if kind == "integer" else _parse_float(text)
        if number is None:
            raise invalid('Invalid value for configuration property "%s"' % canonical)
        bounds = _range(spec)
        if bounds is not None and not bounds[0] <= number <= bounds[1]:
            raise invalid('Configuration property "%s" value %s is outside allowed range %s' % (
                canonical, number, spec.replace(" ", "")))
        return str(number)
    if kind == "enum":
        allowed = [v.strip() for v in spec.split(",")]
        for choice in allowed:
            if text.strip().lower() == choice.lower():
                return choice
        raise invalid('Invalid value "%s" for configuration property "%s"' % (text, canonical))
    if kind == "flags":
        allowed_flags = {v.strip().lower() for v in spec.split(",")}
        tokens = [t.strip().lower() for t in text.split(",") if t.strip()]
        for token in tokens:
            if token not in allowed_flags:
                raise invalid('Invalid value "%s" for configuration property "%s"' % (token, canonical))
        return ",".join(tokens)
    if kind == "pattern":
        for pattern in text.split(","):
            if pattern:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        re.compile(pattern)
                except re.error as exc:
                    raise invalid('Failed to parse pattern "%s": %s' % (pattern, exc)) from None
        return text
    return text


class Config:
    """A checked configuration: canonical property -> text, plus the Python-level callbacks."""

    def __init__(self, props: Dict[str, str], callbacks: Dict[str, Callable[..., Any]], given: List[str]) -> None:
        self.props = props
        self.callbacks = callbacks
        self.given = given

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        """The value set for ``name`` (any alias), else librdkafka's default, else ``default``."""
        canonical = TABLE[name][5] if name in TABLE else name
        if canonical in self.props:
            return self.props[canonical]
        entry = TABLE.get(canonical)
        if entry is not None and entry[4] not in ("",):
            return entry[4]
        return default

    def is_set(self, name: str) -> bool:
        """True when the application gave ``name`` (or an alias of it)."""
        return (TABLE[name][5] if name in TABLE else name) in self.props

    def get_int(self, name: str) -> int:
        return int(float(self.get(name) or 0))

    def get_bool(self, name: str) -> bool:
        return self.get(name) == "true"


#: The default of a client's ``conf`` argument: nothing given (``None`` is refused when given).
NOT_GIVEN: Any = object()


def from_arguments(conf: Any, kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """The configuration a client was given: the ``conf`` dict, then keyword arguments over it.

    As in confluent-kafka, ``conf`` must be a dict when given (``None``
    included), and one of the two must be given: ``TypeError`` otherwise.
    """
    if conf is NOT_GIVEN:
        if not kwargs:
            raise TypeError("expected configuration dict")
        conf = {}
    if not isinstance(conf, dict):
        raise TypeError("expected configuration dict")
    merged = dict(conf)
    merged.update(kwargs)
    return merged


def _check_idempotence(props: Dict[str, str]) -> None:
    """Refuse the producer settings librdkafka refuses with idempotence (``transactional.id`` implies it)."""
    transactional = bool(props.get("transactional.id"))
    idempotent = props.get("enable.idempotence") == "true"
    if transactional and props.get("enable.idempotence") == "false":
        raise invalid("Failed to create producer: `transactional.id` requires `enable.idempotence=true`")
    if not (transactional or idempotent):
        return
    if int(props.get("max.in.flight.requests.per.connection", "5")) > 5:
        raise invalid("Failed to create producer: `max.in.flight` must be set <= 5 when `enable.idempotence` is true")
    if int(props.get("request.required.acks", "-1")) != -1:
        raise invalid("Failed to create producer: `acks` must be set to `all` when `enable.idempotence` is true")
    if int(props.get("message.send.max.retries", "1")) < 1:
        raise invalid("Failed to create producer: `retries` must be set >= 1 when `enable.idempotence` is true")
    if props.get("queuing.strategy", "fifo") != "fifo":
        raise invalid("Failed to create producer: `queuing.strategy` must be set to `fifo` when "
                      "`enable.idempotence` is true")


def parse(conf: Any, role: str) -> Config:
    """Check ``conf`` for a ``'producer'`` or ``'consumer'``; raise as confluent-kafka would."""
    if not isinstance(conf, dict):
        raise TypeError("expected configuration dict")
    conf = dict(conf)
    topic_conf = conf.pop("default.topic.config", None)
    if topic_conf is not None:
        # As in librdkafka, the topic configuration is applied last: its properties win
        # over the same ones given at the top level, wherever the dict has them.
        conf.update(dict(topic_conf))
    props: Dict[str, str] = {}
    callbacks: Dict[str, Callable[..., Any]] = {}
    for name, value in conf.items():
        if not isinstance(name, str):
            raise TypeError("expected configuration property name as type str")
        if name in CALLBACKS:
            if value is not None and not callable(value):
                raise TypeError("expected %s property as a callable function" % name)
            if value is not None:
                callbacks[name] = value
            continue
        if name == "logger":
            if value is not None:
                callbacks[name] = value
            continue
        if (name == "on_delivery" and role == "producer") or (name == "on_commit" and role == "consumer"):
            if value is not None and not callable(value):
                raise invalid("%s requires a callable object" % name)
            if value is not None:
                callbacks[name] = value
            continue
        if name == "delivery.report.only.error" and not isinstance(value, bool):
            # The Python binding reads this one itself and wants a real bool.
            raise TypeError("Expected delivery.report.only.error to be bool type, not %s" % type(value).__name__)
        text = check_value(name, value)
        if name == "builtin.features":
            missing = [f for f in text.split(",") if f in UNSUPPORTED_FEATURES]
            if missing:
                raise invalid('Unsupported value "%s" for configuration property "builtin.features"' % missing[0])
        props[TABLE[name][5]] = text
    if props.get("sasl.oauthbearer.metadata.authentication.type") == "aws_iam" and \
            props.get("sasl.oauthbearer.method") != "oidc":
        raise ValueError("sasl.oauthbearer.metadata.authentication.type=aws_iam requires sasl.oauthbearer.method=oidc")
    if role == "consumer" and not props.get("group.id"):
        raise ValueError("Failed to create consumer: group.id must be set")
    if role == "producer":
        _check_idempotence(props)
    return Config(props, callbacks, list(conf))


def ignored(config: Config, role: str) -> List[str]:
    """The properties given that kafkawire accepts but does not act on."""
    honoured = HONOURED_COMMON | (HONOURED_PRODUCER if role == "producer" else HONOURED_CONSUMER)
    return sorted(name for name in config.props if name not in honoured)


def _common_settings(config: Config, role: str) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    servers = config.get("bootstrap.servers") or ""
    # No bootstrap servers: librdkafka knows no broker (the engine's default would be localhost).
    out["bootstrap_servers"] = [s.strip() for s in servers.split(",") if s.strip()]
    out["client_id"] = config.get("client.id")
    out["retry_backoff_ms"] = config.get_int("retry.backoff.ms")
    out["reconnect_backoff_ms"] = config.get_int("reconnect.backoff.ms")
    out["reconnect_backoff_max_ms"] = config.get_int("reconnect.backoff.max.ms")
    out["socket_connection_setup_timeout_ms"] = config.get_int("socket.connection.setup.timeout.ms")
    out["connections_max_idle_ms"] = config.get_int("connections.max.idle.ms") or 9 * 60 * 1000
    refresh = config.get_int("topic.metadata.refresh.interval.ms")
    if refresh > 0:
        out["metadata_max_age_ms"] = refresh
    if config.is_set("allow.auto.create.topics"):
        out["allow_auto_create_topics"] = config.get_bool("allow.auto.create.topics")
    else:
        out["allow_auto_create_topics"] = role == "producer"  # librdkafka's defaults differ per client
    protocol = (config.get("security.protocol") or "plaintext").upper()
    out["security_protocol"] = protocol
    if protocol in ("SSL", "SASL_SSL"):
        out["ssl_cafile"] = config.get("ssl.ca.location") or None
        out["ssl_certfile"] = config.get("ssl.certificate.location") or None
        out["ssl_keyfile"] = config.get("ssl.key.location") or None
        out["ssl_password"] = config.get("ssl.key.password") or None
        out["ssl_crlfile"] = config.get("ssl.crl.location") or None
        out["ssl_ciphers"] = config.get("ssl.cipher.suites") or None
        out["ssl_check_hostname"] = (config.get_bool("enable.ssl.certificate.verification") and
                                     config.get("ssl.endpoint.identification.algorithm") == "https")
    if protocol.startswith("SASL"):
        out["sasl_mechanism"] = (config.get("sasl.mechanisms") or "GSSAPI").upper()
        out["sasl_plain_username"] = config.get("sasl.username") or None
        out["sasl_plain_password"] = config.get("sasl.password") or None
        oauth_cb = config.callbacks.get("oauth_cb")
        if out["sasl_mechanism"] == "OAUTHBEARER" and oauth_cb is not None:
            provider = OAuthCallbackProvider(oauth_cb, config.get("sasl.oauthbearer.config") or None)
            provider.refresh()  # confluent-kafka asks for the first token when the client is created
            out["sasl_oauth_token_provider"] = provider
            out["sasl_plain_username"] = out["sasl_plain_password"] = None
    return out


def producer_settings(config: Config) -> Dict[str, Any]:
    """``KafkaProducer`` keyword arguments for a checked producer configuration (librdkafka defaults)."""
    out = _common_settings(config, "producer")
    acks = config.get_int("request.required.acks")
    out["acks"] = "all" if acks < 0 else acks
    out["linger_ms"] = float(config.get("queue.buffering.max.ms") or 5)
    out["batch_size"] = config.get_int("batch.size")
    codec = config.get("compression.codec") or "none"
    if codec in ("inherit", "none"):
        codec = config.get("compression.type") or "none"
    out["compression_type"] = None if codec in ("none", "inherit") else codec
    out["enable_idempotence"] = config.get_bool("enable.idempotence")
    txn = config.get("transactional.id")
    if txn:
        out["transactional_id"] = txn
        out["enable_idempotence"] = True
        out["acks"] = "all"
    out["transaction_timeout_ms"] = config.get_int("transaction.timeout.ms")
    out["delivery_timeout_ms"] = config.get_int("message.timeout.ms") or 2 ** 31 - 1
    out["request_timeout_ms"] = config.get_int("request.timeout.ms")
    out["retries"] = config.get_int("message.send.max.retries")
    out["max_request_size"] = config.get_int("message.max.bytes")
    out["max_in_flight_requests_per_connection"] = min(config.get_int("max.in.flight.requests.per.connection"),
                                                       5 if out["enable_idempotence"] else 1000)
    # librdkafka's queue limit bounds memory; our wrapper enforces it too, the engine just gets room for it.
    # (plus headroom for batch overhead, so that the engine never blocks before the wrapper refuses).
    out["buffer_memory"] = config.get_int("queue.buffering.max.kbytes") * 1024 + 16 * 1024 * 1024
    out["max_block_ms"] = 0
    return out


_RESETS = {"smallest": "earliest", "earliest": "earliest", "beginning": "earliest",
           "largest": "latest", "latest": "latest", "end": "latest", "error": "none"}
_ASSIGNORS = {"range": "range", "roundrobin": "roundrobin", "cooperative-sticky": "cooperative-sticky"}


def consumer_settings(config: Config) -> Dict[str, Any]:
    """``KafkaConsumer`` keyword arguments for a checked consumer configuration."""
    out = _common_settings(config, "consumer")
    out["group_id"] = config.get("group.id")
    instance = config.get("group.instance.id")
    if instance:
        out["group_instance_id"] = instance
    out["auto_offset_reset"] = _RESETS[config.get("auto.offset.reset") or "largest"]
    out["enable_auto_commit"] = config.get_bool("enable.auto.commit")
    out["auto_commit_interval_ms"] = config.get_int("auto.commit.interval.ms")
    out["session_timeout_ms"] = session = config.get_int("session.timeout.ms")
    out["heartbeat_interval_ms"] = heartbeat = config.get_int("heartbeat.interval.ms")
    if heartbeat >= session:
        # librdkafka takes this (a session timeout below the default 3 s heartbeat is a common
        # test setting); the engine needs heartbeats within the session, so a third of it.
        out["heartbeat_interval_ms"] = max(session // 3, 1)
        if config.is_set("heartbeat.interval.ms"):
            log.warning("heartbeat.interval.ms (%d) is not below session.timeout.ms (%d): heartbeats are sent "
                        "every %d ms", heartbeat, session, out["heartbeat_interval_ms"])
    out["max_poll_interval_ms"] = config.get_int("max.poll.interval.ms")
    strategies = [s.strip() for s in (config.get("partition.assignment.strategy") or "range,roundrobin").split(",")]
    out["partition_assignment_strategy"] = tuple(_ASSIGNORS.get(s, s) for s in strategies if s)
    out["group_protocol"] = config.get("group.protocol") or "classic"
    out["isolation_level"] = config.get("isolation.level") or "read_committed"
    out["fetch_min_bytes"] = config.get_int("fetch.min.bytes")
    out["fetch_max_wait_ms"] = config.get_int("fetch.wait.max.ms")
    out["fetch_max_bytes"] = config.get_int("fetch.max.bytes")
    out["max_partition_fetch_bytes"] = config.get_int("max.partition.fetch.bytes")
    out["check_crcs"] = config.get_bool("check.crcs")
    return out
