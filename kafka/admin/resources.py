"""Value classes describing what to create or change: topics, partitions, configs.

They check their arguments when built, so a mistake is reported before any
request is sent.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

from kafka.errors import IllegalArgumentError
from kafka.structs import TopicPartition
from kafka.topic_names import check_topic_name


def check_int(value: Any, what: str, minimum: int, allow_default: bool = False) -> int:
    """Return ``value`` if it is an int >= ``minimum`` (or -1 when ``allow_default``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalArgumentError("%s must be an integer, got %r" % (what, value))
    if allow_default and value == -1:
        return value
    if value < minimum:
        raise IllegalArgumentError("%s must be at least %d%s, got %d"
                                   % (what, minimum, " (or -1 for the broker default)" if allow_default else "",
                                      value))
    return value


def check_configs(configs: Any, what: str, allow_none: bool = True) -> Dict[str, Optional[str]]:
    """Return ``configs`` as a ``{name: value}`` dict of strings (values may be None)."""
    if configs is None:
        return {}
    if not isinstance(configs, Mapping):
        raise IllegalArgumentError("%s must be a mapping of config names to values, got %r" % (what, configs))
    out: Dict[str, Optional[str]] = {}
    for key, value in configs.items():
        if not isinstance(key, str) or not key:
            raise IllegalArgumentError("%s: config names must be non-empty strings, got %r" % (what, key))
        if value is None:
            if not allow_none:
                raise IllegalArgumentError("%s: config %r has no value" % (what, key))
            out[key] = None
        elif isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, (str, int, float)):
            out[key] = str(value)
        else:
            raise IllegalArgumentError("%s: config %r must be a string or a number, got %r" % (what, key, value))
    return out


def check_partitions(partitions: Any, what: str) -> List[TopicPartition]:
    """Return ``partitions`` as a list of distinct, valid :class:`TopicPartition`."""
    try:
        out = [TopicPartition(*tp) for tp in partitions]
    except TypeError:
        raise IllegalArgumentError("%s takes a list of TopicPartition, got %r" % (what, partitions)) from None
    for tp in out:
        check_topic_name(tp.topic)
        if isinstance(tp.partition, bool) or not isinstance(tp.partition, int) or tp.partition < 0:
            raise IllegalArgumentError("%s: bad partition number in %r" % (what, tp))
    if len(set(out)) != len(out):
        raise IllegalArgumentError("%s names a partition twice" % what)
    return out


def _check_broker_ids(ids: Any, what: str) -> List[int]:
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence) or not ids:
        raise IllegalArgumentError("%s must be a non-empty list of broker ids, got %r" % (what, ids))
    checked = [check_int(i, what, 0) for i in ids]
    if len(set(checked)) != len(checked):
        raise IllegalArgumentError("%s names a broker twice: %r" % (what, list(ids)))
    return checked


class NewTopic:
    """A topic to create with :meth:`KafkaAdminClient.create_topics`.

    :param name: the topic name.
    :param num_partitions: number of partitions, or -1 for the broker's default.
    :param replication_factor: replicas per partition, or -1 for the broker's default.
    :param replica_assignments: optional ``{partition: [broker_id, ...]}`` placing
        every partition's replicas explicitly (then the two counts are implied).
    :param topic_configs: optional ``{config name: value}``, e.g. ``{"cleanup.policy": "compact"}``.
    """

    def __init__(self, name: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignments: Optional[Mapping[int, Sequence[int]]] = None,
                 topic_configs: Optional[Mapping[str, Any]] = None) -> None:
        self.name = check_topic_name(name)
        self.num_partitions = check_int(num_partitions, "num_partitions of %s" % name, 1, allow_default=True)
        self.replication_factor = check_int(replication_factor, "replication_factor of %s" % name, 1,
                                            allow_default=True)
        self.replica_assignments: Dict[int, List[int]] = {}
        if replica_assignments:
            if not isinstance(replica_assignments, Mapping):
                raise IllegalArgumentError("replica_assignments of %s must map partitions to broker ids" % name)
            for partition, ids in replica_assignments.items():
                check_int(partition, "partition of replica_assignments of %s" % name, 0)
                self.replica_assignments[partition] = _check_broker_ids(
                    ids, "replica assignment of %s partition %s" % (name, partition))
            if sorted(self.replica_assignments) != list(range(len(self.replica_assignments))):
                raise IllegalArgumentError("replica_assignments of %s must cover partitions 0..N-1, got %r"
                                           % (name, sorted(self.replica_assignments)))
            if self.num_partitions not in (-1, len(self.replica_assignments)):
                raise IllegalArgumentError("num_partitions of %s (%d) does not match its %d replica assignments"
                                           % (name, self.num_partitions, len(self.replica_assignments)))
        self.topic_configs = check_configs(topic_configs, "topic_configs of %s" % name, allow_none=False)

    def __repr__(self) -> str:
        return ("NewTopic(name=%r, num_partitions=%d, replication_factor=%d, replica_assignments=%r, "
                "topic_configs=%r)" % (self.name, self.num_partitions, self.replication_factor,
                                       self.replica_assignments, self.topic_configs))


class NewPartitions:
    """The new total partition count of a topic, for :meth:`KafkaAdminClient.create_partitions`.

    :param total_count: the partition count after the call (must exceed the current one).
    :param new_assignments: optional list, one entry per *new* partition, of the
        broker ids holding its replicas.
    """

    def __init__(self, total_count: int, new_assignments: Optional[Sequence[Sequence[int]]] = None) -> None:
        self.total_count = check_int(total_count, "total_count", 1)
        self.new_assignments: Optional[List[List[int]]] = None
        if new_assignments is not None:
            if isinstance(new_assignments, (str, bytes)) or not isinstance(new_assignments, Sequence):
                raise IllegalArgumentError("new_assignments must be a list of broker id lists")
            self.new_assignments = [_check_broker_ids(ids, "new assignment %d" % i)
                                    for i, ids in enumerate(new_assignments)]

    def __repr__(self) -> str:
        return "NewPartitions(total_count=%d, new_assignments=%r)" % (self.total_count, self.new_assignments)


class ConfigResourceType(IntEnum):
    """The kind of resource a config belongs to (protocol values)."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class AlterConfigOp(IntEnum):
    """What :meth:`KafkaAdminClient.incremental_alter_configs` does with one config entry."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


def _resource_type(value: Any) -> ConfigResourceType:
    if isinstance(value, ConfigResourceType):
        return value
    if isinstance(value, str):
        try:
            return ConfigResourceType[value.upper()]
        except KeyError:
            pass
    elif isinstance(value, int) and not isinstance(value, bool):
        try:
            return ConfigResourceType(value)
        except ValueError:
            pass
    raise IllegalArgumentError("unknown config resource type %r (expected one of %s)"
                               % (value, ", ".join(t.name for t in ConfigResourceType if t)))


class ConfigResource:
    """A resource whose configs are described or altered.

    :param resource_type: a :class:`ConfigResourceType` (or its name, e.g. ``"TOPIC"``).
    :param name: the topic name, or the broker id as a string for ``BROKER``.
    :param configs: for describe, an optional list (or mapping) of the config
        names wanted (all when None); for alter, ``{name: value}``; for
        incremental alter, ``{name: value}`` (SET), ``{name: None}`` (DELETE)
        or ``{name: (AlterConfigOp, value)}``.
    """

    def __init__(self, resource_type: Any, name: Union[str, int], configs: Any = None) -> None:
        self.resource_type = _resource_type(resource_type)
        if self.resource_type is ConfigResourceType.UNKNOWN:
            raise IllegalArgumentError("a config resource needs a known type, not UNKNOWN")
        if isinstance(name, int) and not isinstance(name, bool):
            name = str(name)
        if not isinstance(name, str):
            raise IllegalArgumentError("a config resource name must be a string, got %r" % (name,))
        if self.resource_type is ConfigResourceType.TOPIC:
            check_topic_name(name)
        if self.resource_type is ConfigResourceType.BROKER and name and not name.isdigit():
            raise IllegalArgumentError("a BROKER config resource is named by the broker id, got %r" % name)
        self.name = name
        self.configs = configs

    @property
    def key(self) -> Tuple["ConfigResourceType", str]:
        """``(resource_type, name)``: the key of this resource in result mappings."""
        return (self.resource_type, self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConfigResource) and self.key == other.key and self.configs == other.configs

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return "ConfigResource(%s, %r, configs=%r)" % (self.resource_type.name, self.name, self.configs)


class ConfigSource(IntEnum):
    """Where a config value comes from, as DescribeConfigs reports it."""

    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7
    GROUP_CONFIG = 8


class ConfigEntry(NamedTuple):
    """One config of a described resource."""

    name: str
    value: Optional[str]
    source: int = -1
    read_only: bool = False
    is_default: bool = False
    is_sensitive: bool = False
    synonyms: Tuple[Tuple[str, Optional[str], int], ...] = ()


__all__ = ["NewTopic", "NewPartitions", "ConfigResource", "ConfigResourceType", "AlterConfigOp",
           "ConfigEntry", "ConfigSource", "check_topic_name", "check_partitions"]
