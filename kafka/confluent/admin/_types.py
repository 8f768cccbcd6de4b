"""Values the confluent-style :class:`~kafka.confluent.admin.AdminClient` takes and returns.

Names, attributes, ``repr`` and equality follow confluent-kafka 2.16's
``confluent_kafka.admin`` classes, so programs written for it keep working.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar, Union

from kafka.admin import acl_resource as engine_acl
from kafka.confluent.message import TopicPartition

E = TypeVar("E", bound=Enum)


class _OrderedEnum(Enum):
    """An Enum whose members sort by value (confluent-kafka's enums do)."""

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.value < other.value


def to_enum(value: Any, enum: Type[E], what: str) -> E:
    """``value`` as a member of ``enum``: a member, its name (any case) or its value."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum[value.upper()]
        except KeyError:
            raise ValueError("Unknown value \"%s\": should be a %s" % (value, enum.__name__)) from None
    if isinstance(value, int):
        return enum(value)
    raise TypeError("%s must be a %s, got %r" % (what, enum.__name__, value))


# The ACL enums carry the protocol values of the engine's (kafka.admin.acl_resource) under
# confluent-kafka's names: plain Enums (their repr and str are confluent-kafka's, not
# an IntEnum's), with only the members confluent-kafka 2.16 has.

class ResourceType(_OrderedEnum):
    """The kind of resource an ACL or a config applies to.

    :class:`kafka.admin.acl_resource.ResourceType`; CLUSTER is BROKER.
    """

    UNKNOWN = engine_acl.ResourceType.UNKNOWN.value
    ANY = engine_acl.ResourceType.ANY.value
    TOPIC = engine_acl.ResourceType.TOPIC.value
    GROUP = engine_acl.ResourceType.GROUP.value
    BROKER = engine_acl.ResourceType.CLUSTER.value
    TRANSACTIONAL_ID = engine_acl.ResourceType.TRANSACTIONAL_ID.value


class ResourcePatternType(_OrderedEnum):
    """How an ACL's resource name matches resources (:class:`kafka.admin.acl_resource.ACLResourcePatternType`)."""

    UNKNOWN = engine_acl.ACLResourcePatternType.UNKNOWN.value
    ANY = engine_acl.ACLResourcePatternType.ANY.value
    MATCH = engine_acl.ACLResourcePatternType.MATCH.value
    LITERAL = engine_acl.ACLResourcePatternType.LITERAL.value
    PREFIXED = engine_acl.ACLResourcePatternType.PREFIXED.value


class AclOperation(_OrderedEnum):
    """The operation an ACL allows or denies.

    :class:`kafka.admin.acl_resource.ACLOperation`, up to IDEMPOTENT_WRITE.
    """

    UNKNOWN = engine_acl.ACLOperation.UNKNOWN.value
    ANY = engine_acl.ACLOperation.ANY.value
    ALL = engine_acl.ACLOperation.ALL.value
    READ = engine_acl.ACLOperation.READ.value
    WRITE = engine_acl.ACLOperation.WRITE.value
    CREATE = engine_acl.ACLOperation.CREATE.value
    DELETE = engine_acl.ACLOperation.DELETE.value
    ALTER = engine_acl.ACLOperation.ALTER.value
    DESCRIBE = engine_acl.ACLOperation.DESCRIBE.value
    CLUSTER_ACTION = engine_acl.ACLOperation.CLUSTER_ACTION.value
    DESCRIBE_CONFIGS = engine_acl.ACLOperation.DESCRIBE_CONFIGS.value
    ALTER_CONFIGS = engine_acl.ACLOperation.ALTER_CONFIGS.value
    IDEMPOTENT_WRITE = engine_acl.ACLOperation.IDEMPOTENT_WRITE.value


class AclPermissionType(_OrderedEnum):
    """Whether an ACL allows or denies (:class:`kafka.admin.acl_resource.ACLPermissionType`)."""

    UNKNOWN = engine_acl.ACLPermissionType.UNKNOWN.value
    ANY = engine_acl.ACLPermissionType.ANY.value
    DENY = engine_acl.ACLPermissionType.DENY.value
    ALLOW = engine_acl.ACLPermissionType.ALLOW.value


class ConfigSource(_OrderedEnum):
    """Where a described config value comes from."""

    UNKNOWN_CONFIG = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    GROUP_CONFIG = 8


class AlterConfigOpType(_OrderedEnum):
    """What ``incremental_alter_configs`` does with a :class:`ConfigEntry`."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ConsumerGroupState(_OrderedEnum):
    """A consumer group's state as the coordinator reports it."""

    UNKNOWN = 0
    PREPARING_REBALANCING = 1
    COMPLETING_REBALANCING = 2
    STABLE = 3
    DEAD = 4
    EMPTY = 5


class ConsumerGroupType(_OrderedEnum):
    """A consumer group's protocol generation."""

    UNKNOWN = 0
    CONSUMER = 1
    CLASSIC = 2


class IsolationLevel(_OrderedEnum):
    """Whether ``list_offsets`` counts records of open transactions."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class ElectionType(_OrderedEnum):
    """Which replica ``elect_leaders`` makes leader."""

    PREFERRED = 0  #: the preferred (first assigned) replica, when in sync
    UNCLEAN = 1  #: any live replica, even one out of sync


_GROUP_STATES = {"PreparingRebalance": ConsumerGroupState.PREPARING_REBALANCING,
                 "CompletingRebalance": ConsumerGroupState.COMPLETING_REBALANCING,
                 "Stable": ConsumerGroupState.STABLE, "Dead": ConsumerGroupState.DEAD,
                 "Empty": ConsumerGroupState.EMPTY}


def group_state(text: str) -> ConsumerGroupState:
    """The :class:`ConsumerGroupState` of a broker's state string."""
    return _GROUP_STATES.get(text, ConsumerGroupState.UNKNOWN)


class Node:
    """A broker: ``id``, ``id_string``, ``host``, ``port``, ``rack``."""

    def __init__(self, id: int, host: str, port: int, rack: Optional[str] = None) -> None:
        self.id = id
        self.id_string = str(id)
        self.host = host
        self.port = port
        self.rack = rack

    def __str__(self) -> str:
        return "(%d) %s:%d %s" % (self.id, self.host, self.port, "(Rack - %s)" % self.rack if self.rack else "")


class TopicCollection:
    """The topic names given to ``describe_topics``."""

    def __init__(self, topic_names: List[str]) -> None:
        self.topic_names = topic_names


class TopicPartitionInfo:
    """A described partition: ``id``, ``leader`` (a Node), ``replicas`` and ``isr`` (Nodes)."""

    def __init__(self, id: int, leader: Optional[Node], replicas: List[Node], isr: List[Node]) -> None:
        self.id = id
        self.leader = leader
        self.replicas = replicas
        self.isr = isr


class ConsumerGroupTopicPartitions:
    """A group id and some of its partitions (offsets in the TopicPartitions)."""

    def __init__(self, group_id: str, topic_partitions: Optional[List[TopicPartition]] = None) -> None:
        self.group_id = group_id
        self.topic_partitions = topic_partitions


class NewTopic:
    """A topic to create: ``NewTopic(topic, num_partitions=-1, replication_factor=-1,
    replica_assignment=None, config=None)``; -1 takes the broker's default."""

    def __init__(self, topic: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignment: Optional[List[List[int]]] = None,
                 config: Optional[Dict[str, str]] = None) -> None:
        if not isinstance(topic, str):
            raise TypeError("topic must be str")
        for what, value in (("num_partitions", num_partitions), ("replication_factor", replication_factor)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("%s must be int" % what)
        if replica_assignment is not None and not isinstance(replica_assignment, list):
            raise TypeError("replica_assignment must be a list")
        if config is not None and not isinstance(config, dict):
            raise TypeError("config must be a dict")
        self.topic = topic
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.replica_assignment = replica_assignment
        self.config = config

    def _key(self) -> Tuple[str, int]:
        return (self.topic, self.num_partitions)

    def __repr__(self) -> str:
        if self.num_partitions == -1:
            return "NewTopic(topic=%s)" % self.topic
        return "NewTopic(topic=%s,num_partitions=%d)" % (self.topic, self.num_partitions)

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NewTopic) and self._key() == other._key()

    def __lt__(self, other: "NewTopic") -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class NewPartitions:
    """A topic's new partition count: ``NewPartitions(topic, new_total_count, replica_assignment=None)``."""

    def __init__(self, topic: str, new_total_count: int,
                 replica_assignment: Optional[List[List[int]]] = None) -> None:
        if not isinstance(topic, str):
            raise TypeError("topic must be str")
        if isinstance(new_total_count, bool) or not isinstance(new_total_count, int):
            raise TypeError("new_total_count must be int")
        self.topic = topic
        self.new_total_count = new_total_count
        self.replica_assignment = replica_assignment

    def _key(self) -> Tuple[str, int]:
        return (self.topic, self.new_total_count)

    def __repr__(self) -> str:
        return "NewPartitions(topic=%s,new_total_count=%d)" % (self.topic, self.new_total_count)

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NewPartitions) and self._key() == other._key()

    def __lt__(self, other: "NewPartitions") -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class ConfigEntry:
    """One config property: ``name``, ``value``, ``source``, flags, ``synonyms`` and, for
    ``incremental_alter_configs``, ``incremental_operation``."""

    def __init__(self, name: str, value: Optional[str], source: ConfigSource = ConfigSource.UNKNOWN_CONFIG,
                 is_read_only: bool = False, is_default: bool = False, is_sensitive: bool = False,
                 is_synonym: bool = False, synonyms: Optional[Dict[str, "ConfigEntry"]] = None,
                 incremental_operation: Optional[AlterConfigOpType] = None) -> None:
        self.name = name
        self.value = value
        self.source = source
        self.is_read_only = bool(is_read_only)
        self.is_default = bool(is_default)
        self.is_sensitive = bool(is_sensitive)
        self.is_synonym = bool(is_synonym)
        self.synonyms = {} if synonyms is None else synonyms
        self.incremental_operation = incremental_operation

    def __repr__(self) -> str:
        return 'ConfigEntry(%s="%s")' % (self.name, self.value)

    def __str__(self) -> str:
        return '%s="%s"' % (self.name, self.value)


class ConfigResource:
    """A broker, topic or group whose configs to describe or alter.

    ``ConfigResource(restype, name, set_config=None, described_configs=None,
    error=None, incremental_configs=None)``; ``restype`` is a
    :class:`ResourceType`, its name or its value. Resources are equal when
    type and name are.
    """

    Type = ResourceType

    def __init__(self, restype: Union[ResourceType, str, int], name: str,
                 set_config: Optional[Dict[str, str]] = None, described_configs: Any = None,
                 error: Any = None, incremental_configs: Optional[List[ConfigEntry]] = None) -> None:
        if name is None:
            raise ValueError("Expected resource name to be a string")
        kind: Any = restype
        if isinstance(restype, str):
            try:
                kind = ResourceType[restype.upper()]
            except KeyError:
                raise ValueError('Unknown resource type "%s": should be a ConfigResource.Type' % restype) from None
        elif isinstance(restype, int) and not isinstance(restype, bool):
            kind = ResourceType(restype)
        self.restype: ResourceType = kind
        self.restype_int = int(kind.value)
        self.name = name
        self.set_config_dict = dict(set_config) if set_config is not None else {}
        self.incremental_configs = list(incremental_configs or [])
        self.configs = described_configs
        self.error = error

    def __repr__(self) -> str:
        if self.error is not None:
            return "ConfigResource(%s,%s,%r)" % (self.restype, self.name, self.error)
        return "ConfigResource(%s,%s)" % (self.restype, self.name)

    def __hash__(self) -> int:
        return hash((self.restype, self.name))

    def __lt__(self, other: "ConfigResource") -> bool:
        if self.restype != other.restype:
            return self.restype.value < other.restype.value
        return self.name < other.name

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return self.restype == other.restype and self.name == other.name

    def __len__(self) -> int:
        return len(self.set_config_dict)

    def set_config(self, name: str, value: str, overwrite: bool = True) -> None:
        """Set a property for ``alter_configs`` (kept when present and ``overwrite`` is False)."""
        if not overwrite and name in self.set_config_dict:
            return
        self.set_config_dict[name] = value

    def add_incremental_config(self, config_entry: ConfigEntry) -> None:
        """Add a :class:`ConfigEntry` with an ``incremental_operation`` for ``incremental_alter_configs``."""
        self.incremental_configs.append(config_entry)


#: An ACL binding's enum attributes, their enums, and the engine's names of those fields.
_ACL_FIELDS: Tuple[Tuple[str, Type[Enum], str], ...] = (
    ("restype", ResourceType, "resource_type"), ("resource_pattern_type", ResourcePatternType, "pattern_type"),
    ("operation", AclOperation, "operation"), ("permission_type", AclPermissionType, "permission_type"))
_ACL_ENUMS: Tuple[Tuple[str, Type[Enum]], ...] = tuple((attr, enum) for attr, enum, _ in _ACL_FIELDS)
#: The enum values only a filter may hold (ANY, and MATCH for the pattern type): the engine's rule,
#: :data:`kafka.admin.acl_resource.FILTER_ONLY`.
_FILTER_ONLY: Dict[str, Tuple[Enum, ...]] = {
    attr: tuple(enum(int(value)) for value in sorted(engine_acl.FILTER_ONLY[field]))
    for attr, enum, field in _ACL_FIELDS}
_ACL_STRINGS = ("name", "principal", "host")


def acl_problem(binding: "AclBinding", as_filter: bool) -> Optional[str]:
    """Why ``binding`` cannot be sent as an ACL (``as_filter`` False) or as a filter, or None.

    These are librdkafka's rules for the bindings an admin call is given,
    read, as confluent-kafka reads them, from the strings and the enums'
    ``*_int`` values: the strings must be strings (a filter's may be None), no
    enum may be UNKNOWN or out of range, and only a filter may use ANY (or
    MATCH).
    """
    for attr in _ACL_STRINGS:
        value = getattr(binding, attr, None)
        if not isinstance(value, str) and not (as_filter and value is None):
            return "Invalid %s %r" % (attr, value)
    for attr, enum in _ACL_ENUMS:
        value = getattr(binding, attr + "_int", None)
        member = next((m for m in enum if type(value) is int and m.value == value), None)
        if member is None or member.name == "UNKNOWN" or (not as_filter and member in _FILTER_ONLY[attr]):
            return "Invalid %s %r" % (attr, value)
    return None


class AclBinding:
    """An ACL: ``AclBinding(restype, name, resource_pattern_type, principal, host, operation,
    permission_type)``; enums may also be given by name (any case) or value.

    None is refused (ValueError) before a wrong type (TypeError), and the
    ANY/MATCH values only a filter may hold are refused last (ValueError);
    UNKNOWN is accepted, as in the ACLs a broker describes.
    """

    #: The attributes that must not be None.
    _NOT_NONE: Tuple[str, ...] = ("restype", "name", "resource_pattern_type", "principal", "host", "operation",
                                  "permission_type")
    #: The enum values this class refuses.
    _REFUSED: Dict[str, Tuple[Enum, ...]] = _FILTER_ONLY

    def __init__(self, restype: Any, name: Optional[str], resource_pattern_type: Any, principal: Optional[str],
                 host: Optional[str], operation: Any, permission_type: Any) -> None:
        given = {"restype": restype, "name": name, "resource_pattern_type": resource_pattern_type,
                 "principal": principal, "host": host, "operation": operation, "permission_type": permission_type}
        for attr in self._NOT_NONE:
            if given[attr] is None:
                raise ValueError("Expected %s to be not None" % attr)
        for attr in _ACL_STRINGS:
            if given[attr] is not None and not isinstance(given[attr], str):
                raise TypeError("Expected %s to be a string" % attr)
        self.name = name
        self.principal = principal
        self.host = host
        self.restype = to_enum(restype, ResourceType, "restype")
        self.resource_pattern_type = to_enum(resource_pattern_type, ResourcePatternType, "resource_pattern_type")
        self.operation = to_enum(operation, AclOperation, "operation")
        self.permission_type = to_enum(permission_type, AclPermissionType, "permission_type")
        for attr, refused in self._REFUSED.items():
            value = getattr(self, attr)
            if value in refused:
                raise ValueError("Cannot use enum %s, value %s in this class" % (attr, value.name))
        self.restype_int = self.restype.value
        self.resource_pattern_type_int = self.resource_pattern_type.value
        self.operation_int = self.operation.value
        self.permission_type_int = self.permission_type.value

    def _to_tuple(self) -> Tuple[Any, ...]:
        return (self.restype, self.name, self.resource_pattern_type, self.principal, self.host, self.operation,
                self.permission_type)

    def __repr__(self) -> str:
        return "%s(%s,%s,%s,%s,%s,%s,%s)" % ((type(self).__name__,) + self._to_tuple())

    __str__ = __repr__

    def __hash__(self) -> int:
        return hash(self._to_tuple())

    def __lt__(self, other: "AclBinding") -> bool:
        key = lambda b: tuple("" if v is None else v for v in b._to_tuple())  # noqa: E731
        return key(self) < key(other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        return type(self) is type(other) and self._to_tuple() == other._to_tuple()


class AclBindingFilter(AclBinding):
    """A pattern matching ACLs; ``None`` strings and the ``ANY`` (and ``MATCH``) enums match anything.

    Its strings may be None; its enums may not be UNKNOWN (ValueError).
    """

    _NOT_NONE = ("restype", "resource_pattern_type", "operation", "permission_type")
    _REFUSED = {"restype": (ResourceType.UNKNOWN,), "resource_pattern_type": (ResourcePatternType.UNKNOWN,),
                "operation": (AclOperation.UNKNOWN,), "permission_type": (AclPermissionType.UNKNOWN,)}


class ConsumerGroupListing:
    """One group of ``list_consumer_groups``: ``group_id``, ``is_simple_consumer_group``, ``state``, ``type``."""

    def __init__(self, group_id: str, is_simple_consumer_group: bool,
                 state: Optional[ConsumerGroupState] = None, type: Optional[ConsumerGroupType] = None) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        if state is not None:
            self.state = state
        if type is not None:
            self.type = type


class ListConsumerGroupsResult:
    """``valid`` (ConsumerGroupListings) and ``errors`` (KafkaErrors of brokers that could not answer)."""

    def __init__(self, valid: Optional[List[ConsumerGroupListing]] = None, errors: Optional[List[Any]] = None) -> None:
        self.valid = valid
        self.errors = errors


class MemberAssignment:
    """The partitions assigned to a group member."""

    def __init__(self, topic_partitions: Optional[List[TopicPartition]]) -> None:
        self.topic_partitions = topic_partitions or []


class MemberDescription:
    """A group member: ``member_id``, ``client_id``, ``host``, ``assignment``, ``group_instance_id``,
    ``target_assignment``."""

    def __init__(self, member_id: str, client_id: str, host: str, assignment: MemberAssignment,
                 group_instance_id: Optional[str] = None, target_assignment: Optional[MemberAssignment] = None) -> None:
        self.member_id = member_id
        self.client_id = client_id
        self.host = host
        self.assignment = assignment
        self.target_assignment = target_assignment
        self.group_instance_id = group_instance_id


class ConsumerGroupDescription:
    """A described group: ``group_id``, ``is_simple_consumer_group``, ``members``,
    ``partition_assignor``, ``state``, ``type``, ``coordinator`` (a Node), ``authorized_operations``."""

    def __init__(self, group_id: str, is_simple_consumer_group: bool, members: List[MemberDescription],
                 partition_assignor: str, state: Optional[ConsumerGroupState], coordinator: Optional[Node],
                 authorized_operations: Optional[List[AclOperation]] = None,
                 type: ConsumerGroupType = ConsumerGroupType.UNKNOWN) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.members = members
        self.authorized_operations = authorized_operations
        self.partition_assignor = partition_assignor
        if state is not None:
            self.state = state
        self.type = type
        self.coordinator = coordinator


class TopicDescription:
    """A described topic: ``name``, ``topic_id``, ``is_internal``, ``partitions`` (TopicPartitionInfo),
    ``authorized_operations``."""

    def __init__(self, name: str, topic_id: Any, is_internal: bool, partitions: List[TopicPartitionInfo],
                 authorized_operations: Optional[List[AclOperation]] = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = partitions
        self.authorized_operations = authorized_operations


class DescribeClusterResult:
    """``cluster_id``, ``controller`` (a Node), ``nodes`` and ``authorized_operations``."""

    def __init__(self, controller: Optional[Node], nodes: List[Node], cluster_id: Optional[str] = None,
                 authorized_operations: Optional[List[AclOperation]] = None) -> None:
        self.cluster_id = cluster_id
        self.controller = controller
        self.nodes = nodes
        self.authorized_operations = authorized_operations


class OffsetSpec:
    """Which offset ``list_offsets`` asks for: :meth:`earliest`, :meth:`latest`,
    :meth:`max_timestamp` or :meth:`for_timestamp`."""

    _value = 0

    @classmethod
    def earliest(cls) -> "OffsetSpec":
        """The log start offset."""
        return _EARLIEST

    @classmethod
    def latest(cls) -> "OffsetSpec":
        """The high watermark (next offset)."""
        return _LATEST

    @classmethod
    def max_timestamp(cls) -> "OffsetSpec":
        """The offset of the record with the largest timestamp."""
        return _MAX_TIMESTAMP

    @classmethod
    def for_timestamp(cls, timestamp: int) -> "OffsetSpec":
        """The first offset whose timestamp is at or after ``timestamp`` (ms)."""
        return TimestampSpec(timestamp)

    def __lt__(self, other: "OffsetSpec") -> bool:
        return self._value < other._value


class EarliestSpec(OffsetSpec):
    """:meth:`OffsetSpec.earliest`."""

    _value = -2


class LatestSpec(OffsetSpec):
    """:meth:`OffsetSpec.latest`."""

    _value = -1


class MaxTimestampSpec(OffsetSpec):
    """:meth:`OffsetSpec.max_timestamp`."""

    _value = -3


class TimestampSpec(OffsetSpec):
    """:meth:`OffsetSpec.for_timestamp`; ``timestamp`` in ms."""

    def __init__(self, timestamp: int) -> None:
        self.timestamp = timestamp
        self._value = timestamp


_EARLIEST, _LATEST, _MAX_TIMESTAMP = EarliestSpec(), LatestSpec(), MaxTimestampSpec()


class ListOffsetsResultInfo:
    """What ``list_offsets`` found: ``offset``, ``timestamp`` and ``leader_epoch`` (None when unknown)."""

    def __init__(self, offset: int, timestamp: int, leader_epoch: Optional[int]) -> None:
        self.offset = offset
        self.timestamp = timestamp
        self.leader_epoch = None if leader_epoch is None or leader_epoch < 0 else leader_epoch


class DeletedRecords:
    """The partition's new log start offset after ``delete_records``."""

    def __init__(self, low_watermark: int) -> None:
        self.low_watermark = low_watermark


class GroupMember:
    """A member in the legacy ``list_groups`` answer."""

    def __init__(self) -> None:
        self.id: Optional[str] = None
        self.client_id: Optional[str] = None
        self.client_host: Optional[str] = None
        self.metadata: Optional[bytes] = None
        self.assignment: Optional[bytes] = None


class GroupMetadata:
    """A group in the legacy ``list_groups`` answer."""

    def __init__(self) -> None:
        self.broker: Any = None
        self.id: Optional[str] = None
        self.error: Any = None
        self.state: Optional[str] = None
        self.protocol_type: Optional[str] = None
        self.protocol: Optional[str] = None
        self.members: List[GroupMember] = []

    def __repr__(self) -> str:
        if self.error is not None:
            return "GroupMetadata(%s, %s)" % (self.id, self.error)
        return "GroupMetadata(%s)" % self.id

    def __str__(self) -> str:
        return str(self.id)
