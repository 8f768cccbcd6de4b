"""Options of the ``kafkawire`` Spark data source, parsed and checked on the driver.

The names and meanings mirror Spark's built-in Kafka connector (the
"Structured Streaming + Kafka Integration Guide"): ``kafka.*`` settings go to
our client under its own names, exactly one of ``subscribe`` /
``subscribePattern`` / ``assign`` names the partitions, offsets are given as
``earliest`` / ``latest`` or Spark's JSON form ``{"topic": {"0": 23}}`` with
-2 for earliest and -1 for latest. Nothing here imports pyspark: the parsed
options are plain, picklable values.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple, Union

from kafka import errors
from kafka.consumer.modern import DEFAULT_CONFIG as CONSUMER_CONFIG
from kafka.producer.kafka import DEFAULT_CONFIG as PRODUCER_CONFIG

EARLIEST, LATEST = -2, -1

#: Kafka settings Spark's connector refuses, because it manages them itself.
REJECTED_KAFKA_KEYS = {
    "auto.offset.reset": "set startingOffsets instead",
    "key.deserializer": "keys are always returned as binary",
    "value.deserializer": "values are always returned as binary",
    "key.serializer": "cast the key column to binary or string",
    "value.serializer": "cast the value column to binary or string",
    "enable.auto.commit": "offsets are tracked by Spark's checkpoint",
    "interceptor.classes": "interceptors are not supported",
}
#: Taken out of the client settings: ``kafka.group.id`` is handled as Spark
#: does (see :attr:`SourceOptions.group_id`), not passed on as is.
IGNORED_KAFKA_KEYS = {"group.id"}
#: Spark's default prefix of the group ids it generates for a query.
DEFAULT_GROUP_ID_PREFIX = "spark-kafka-source"
#: Java client names that differ from ours.
KAFKA_KEY_ALIASES = {
    "ssl.truststore.location": "ssl_cafile",
    "ssl.endpoint.identification.algorithm": None,  # handled in _kafka_settings
    "sasl.jaas.config": None,  # handled in _kafka_settings
}
KNOWN_CLIENT_KEYS = set(CONSUMER_CONFIG) | set(PRODUCER_CONFIG)
# Values that arrive as strings from Spark and must become numbers/booleans for our client.
_INT_KEYS = {k for k, v in list(CONSUMER_CONFIG.items()) + list(PRODUCER_CONFIG.items())
             if isinstance(v, int) and not isinstance(v, bool)}
_BOOL_KEYS = {k for k, v in list(CONSUMER_CONFIG.items()) + list(PRODUCER_CONFIG.items()) if isinstance(v, bool)}
_BOOL_KEYS.add("enable_idempotence")

# An offset spec: a single -2/-1 for every partition, or a per-partition mapping.
OffsetSpec = Union[int, Dict[Tuple[str, int], int]]


class TimestampSpec(NamedTuple):
    """Offsets looked up by timestamp: one for all partitions, or per partition."""

    all_partitions: Optional[int]
    per_partition: Optional[Dict[Tuple[str, int], int]]


class SourceOptions(NamedTuple):
    """Parsed options of a read (batch or streaming)."""

    client: Dict[str, Any]          # settings for our consumer, our names
    subscribe: Optional[List[str]]
    pattern: Optional[str]
    assign: Optional[List[Tuple[str, int]]]
    starting: OffsetSpec
    ending: OffsetSpec
    starting_ts: Optional[TimestampSpec]
    ending_ts: Optional[TimestampSpec]
    starting_ts_strategy: str       # "error" or "latest"
    fail_on_data_loss: bool
    min_partitions: Optional[int]
    include_headers: bool
    max_offsets_per_trigger: Optional[int]
    min_offsets_per_trigger: Optional[int]
    max_trigger_delay_ms: int
    poll_timeout_ms: int
    group_id: Optional[str] = None  # kafka.group.id, given by the user: the group our consumers use
    group_id_prefix: str = DEFAULT_GROUP_ID_PREFIX
    fetch_offset_retries: int = 3   # fetchOffset.numRetries
    fetch_offset_retry_interval_ms: int = 10  # fetchOffset.retryIntervalMs
    max_records_per_partition: Optional[int] = None


class SinkOptions(NamedTuple):
    """Parsed options of a write."""

    client: Dict[str, Any]          # settings for our producer, our names
    topic: Optional[str]
    include_headers: bool = True    # includeHeaders=false leaves a headers column out of the records


def _lower(options: Mapping[str, str]) -> Dict[str, str]:
    # Spark hands options over case-insensitively; keys are compared in lower case.
    return {str(k).lower(): v for k, v in options.items()}


def _fail(message: str) -> "errors.KafkaConfigurationError":
    return errors.KafkaConfigurationError("kafkawire: " + message)


def _parse_jaas(value: str) -> Dict[str, Any]:
    """username/password of a PlainLoginModule or ScramLoginModule JAAS line."""
    found = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', value))
    if "username" not in found or "password" not in found:
        raise _fail("kafka.sasl.jaas.config must give username=\"...\" and password=\"...\"")
    return {"sasl_plain_username": found["username"], "sasl_plain_password": found["password"]}


def _convert(key: str, value: str) -> Any:
    if key in _BOOL_KEYS:
        lowered = str(value).strip().lower()
        if lowered not in ("true", "false"):
            raise _fail("kafka option for %s must be true or false, not %r" % (key, value))
        return lowered == "true"
    if key in _INT_KEYS:
        try:
            return int(value)
        except ValueError:
            raise _fail("kafka option for %s must be an integer, not %r" % (key, value)) from None
    if key == "acks":
        if value == "all":
            return value
        try:
            return int(value)
        except ValueError:
            raise _fail("kafka option for acks must be all, 0, 1 or -1, not %r" % (value,)) from None
    return value


def kafka_settings(options: Mapping[str, str], role: str) -> Dict[str, Any]:
    """The ``kafka.*`` options as our client's settings for ``role`` ('consumer' or 'producer')."""
    known = CONSUMER_CONFIG if role == "consumer" else PRODUCER_CONFIG
    out: Dict[str, Any] = {}
    for raw_key, value in _lower(options).items():
        if not raw_key.startswith("kafka."):
            continue
        key = raw_key[len("kafka."):]
        if key in REJECTED_KAFKA_KEYS:
            raise _fail("option kafka.%s is not supported: %s" % (key, REJECTED_KAFKA_KEYS[key]))
        if key in IGNORED_KAFKA_KEYS:
            continue
        if key == "sasl.jaas.config":
            out.update(_parse_jaas(value))
            continue
        if key == "ssl.endpoint.identification.algorithm":
            out["ssl_check_hostname"] = bool(value.strip())
            continue
        ours = KAFKA_KEY_ALIASES.get(key) or key.replace(".", "_")
        if ours not in KNOWN_CLIENT_KEYS:
            raise _fail("unknown Kafka setting kafka.%s" % key)
        if ours in known:
            out[ours] = _convert(ours, value)
    if not out.get("bootstrap_servers"):
        raise _fail("option kafka.bootstrap.servers is required")
    return out


def _bool(options: Dict[str, str], name: str, default: bool) -> bool:
    value = options.get(name.lower())
    if value is None:
        return default
    lowered = str(value).strip().lower()
    if lowered not in ("true", "false"):
        raise _fail("option %s must be true or false, not %r" % (name, value))
    return lowered == "true"


def _int(options: Dict[str, str], name: str, minimum: int = 1) -> Optional[int]:
    value = options.get(name.lower())
    if value is None:
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise _fail("option %s must be an integer, not %r" % (name, value)) from None
    if number < minimum:
        raise _fail("option %s must be at least %d, not %d" % (name, minimum, number))
    return number


_DURATION = re.compile(r"^\s*(\d+)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?)?\s*$", re.I)
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60000, "h": 3600000}


def parse_duration_ms(name: str, value: str) -> int:
    """``"15m"``, ``"30s"``, ``"250ms"`` or a bare number of seconds... into milliseconds."""
    match = _DURATION.match(str(value))
    if not match:
        raise _fail("option %s must be a duration such as 15m, 30s or 500ms, not %r" % (name, value))
    unit = (match.group(2) or "s").lower()
    key = "ms" if unit.startswith("ms") or unit.startswith("milli") else unit[0]
    return int(match.group(1)) * _UNIT_MS[key]


def _json(name: str, value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError as exc:
        raise _fail("option %s is not valid JSON (%s): %r" % (name, exc, value)) from None


def _partition_map(name: str, value: str) -> Dict[Tuple[str, int], int]:
    parsed = _json(name, value)
    if not isinstance(parsed, dict):
        raise _fail('option %s must be a JSON object like {"topic":{"0":23}}' % name)
    out: Dict[Tuple[str, int], int] = {}
    for topic, parts in parsed.items():
        if not isinstance(parts, dict):
            raise _fail('option %s must be a JSON object like {"topic":{"0":23}}' % name)
        for part, number in parts.items():
            try:
                partition = int(part)
            except ValueError:
                raise _fail("option %s: partition %r of topic %r is not a number" % (name, part, topic)) from None
            if not isinstance(number, int) or isinstance(number, bool):
                raise _fail("option %s: the value for %s-%s must be an integer" % (name, topic, part))
            out[(topic, partition)] = number
    return out


def parse_offsets(name: str, value: Optional[str], default: int) -> OffsetSpec:
    """``earliest`` / ``latest`` / JSON per partition into -2, -1 or ``{(topic, partition): offset}``."""
    if value is None:
        return default
    text = str(value).strip()
    if text.lower() == "earliest":
        return EARLIEST
    if text.lower() == "latest":
        return LATEST
    spec = _partition_map(name, text)
    for (topic, partition), offset in spec.items():
        if offset < -2:
            raise _fail("option %s: offset %d for %s-%d is invalid" % (name, offset, topic, partition))
    return spec


def _timestamps(options: Dict[str, str], prefix: str) -> Optional[TimestampSpec]:
    single = options.get(prefix.lower() + "timestamp")
    per = options.get(prefix.lower() + "offsetsbytimestamp")
    if per is not None:
        spec = _partition_map(prefix + "OffsetsByTimestamp", per)
        for tp, ts in spec.items():
            if ts < 0:
                raise _fail("option %sOffsetsByTimestamp: timestamp for %s-%d must be >= 0" % ((prefix,) + tp))
        return TimestampSpec(None, spec)
    if single is not None:
        try:
            ts = int(str(single).strip())
        except ValueError:
            raise _fail("option %sTimestamp must be a number of milliseconds, not %r" % (prefix, single)) from None
        if ts < 0:
            raise _fail("option %sTimestamp must be >= 0" % prefix)
        return TimestampSpec(ts, None)
    return None


def _assign(value: str) -> List[Tuple[str, int]]:
    parsed = _json("assign", value)
    if not isinstance(parsed, dict) or not parsed:
        raise _fail('option assign must be a JSON object like {"topicA":[0,1]}')
    out: List[Tuple[str, int]] = []
    for topic, parts in parsed.items():
        if not isinstance(parts, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
            raise _fail("option assign: partitions of %r must be a list of integers" % topic)
        out.extend((topic, p) for p in parts)
    return out


def parse_source_options(options: Mapping[str, str], streaming: bool) -> SourceOptions:
    """Check and parse the options of a read; raises KafkaConfigurationError with the reason."""
    opts = _lower(options)
    client = kafka_settings(options, "consumer")
    chosen = [name for name in ("subscribe", "subscribePattern", "assign") if opts.get(name.lower()) is not None]
    if len(chosen) != 1:
        raise _fail("exactly one of the options subscribe, subscribePattern and assign must be given"
                    + (" (got %s)" % ", ".join(chosen) if chosen else ""))
    subscribe = pattern = assign = None
    if chosen[0] == "subscribe":
        subscribe = [t.strip() for t in opts["subscribe"].split(",") if t.strip()]
        if not subscribe:
            raise _fail("option subscribe names no topic")
    elif chosen[0] == "subscribePattern":
        pattern = opts["subscribepattern"]
        try:
            re.compile(pattern)
        except re.error as exc:
            raise _fail("option subscribePattern is not a valid regex: %s" % exc) from None
    else:
        assign = _assign(opts["assign"])

    starting = parse_offsets("startingOffsets", opts.get("startingoffsets"), LATEST if streaming else EARLIEST)
    ending = parse_offsets("endingOffsets", opts.get("endingoffsets"), LATEST)
    starting_ts = _timestamps(opts, "starting")
    ending_ts = _timestamps(opts, "ending")
    if streaming:
        for name in ("endingoffsets", "endingtimestamp", "endingoffsetsbytimestamp"):
            if name in opts:
                raise _fail("option %s is for batch queries only" % name)
    else:
        if starting == LATEST or (isinstance(starting, dict) and LATEST in starting.values()):
            raise _fail("startingOffsets may not be latest (-1) for batch queries")
        if ending == EARLIEST or (isinstance(ending, dict) and EARLIEST in ending.values()):
            raise _fail("endingOffsets may not be earliest (-2) for batch queries")
        for name in ("maxoffsetspertrigger", "minoffsetspertrigger", "maxtriggerdelay"):
            if name in opts:
                raise _fail("option %s is for streaming queries only" % name)
    strategy = str(opts.get("startingoffsetsbytimestampstrategy", "error")).strip().lower()
    if strategy not in ("error", "latest"):
        raise _fail("option startingOffsetsByTimestampStrategy must be 'error' or 'latest', not %r" % strategy)
    delay = opts.get("maxtriggerdelay")
    group_id = _group_id(options)
    if group_id is not None:
        client["group_id"] = group_id
    return SourceOptions(
        client=client, subscribe=subscribe, pattern=pattern, assign=assign,
        starting=starting, ending=ending, starting_ts=starting_ts, ending_ts=ending_ts,
        starting_ts_strategy=strategy,
        fail_on_data_loss=_bool(opts, "failOnDataLoss", True),
        min_partitions=_int(opts, "minPartitions"),
        include_headers=_bool(opts, "includeHeaders", False),
        max_offsets_per_trigger=_int(opts, "maxOffsetsPerTrigger"),
        min_offsets_per_trigger=_int(opts, "minOffsetsPerTrigger"),
        max_trigger_delay_ms=parse_duration_ms("maxTriggerDelay", delay) if delay is not None else 15 * 60 * 1000,
        poll_timeout_ms=_int(opts, "kafkaConsumer.pollTimeoutMs") or 120000,
        group_id=group_id,
        group_id_prefix=_prefix(opts),
        fetch_offset_retries=_default(_int(opts, "fetchOffset.numRetries", minimum=0), 3),
        fetch_offset_retry_interval_ms=_default(_int(opts, "fetchOffset.retryIntervalMs", minimum=0), 10),
        max_records_per_partition=_int(opts, "maxRecordsPerPartition"),
    )


def _default(value: Optional[int], default: int) -> int:
    return default if value is None else value


def _group_id(options: Mapping[str, str]) -> Optional[str]:
    value = _lower(options).get("kafka.group.id")
    if value is not None and not str(value).strip():
        raise _fail("option kafka.group.id is empty")
    return value


def _prefix(opts: Dict[str, str]) -> str:
    value = opts.get("groupidprefix", DEFAULT_GROUP_ID_PREFIX)
    if not str(value).strip():
        raise _fail("option groupIdPrefix is empty")
    return str(value)


def parse_sink_options(options: Mapping[str, str]) -> SinkOptions:
    """Check and parse the options of a write."""
    opts = _lower(options)
    client = kafka_settings(options, "producer")
    topic = opts.get("topic")
    if topic is not None and not str(topic).strip():
        raise _fail("option topic is empty")
    return SinkOptions(client=client, topic=topic, include_headers=_bool(opts, "includeHeaders", True))
