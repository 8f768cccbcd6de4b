"""Consumer groups: coordinator lookup, the classic join/sync protocol, KIP-848 heartbeats, admin calls."""

import struct
from typing import Any

from kafka.errors import ProtocolError, UnsupportedVersionError
from kafka.protocol import types as T
from kafka.protocol.schema import Api, Field, Route, Struct, StructValue
from kafka.protocol.types import Array, BOOLEAN, BYTES, INT8, INT16, INT32, STRING, UUID

# Sentinel meaning "authorized operations were not requested".
_NO_AUTHORIZED_OPERATIONS = -2147483648

# FindCoordinator (key 10): which broker coordinates a group or a transactional
# id. v1 adds the key type, v3 goes flexible, v4 looks up many keys at once
# (the single-key fields then give way to the Coordinators array). v5 and v6
# only admit new error codes / key types.
FIND_COORDINATOR = Api(
    "FindCoordinator", 10, (0, 6), flexible=3, route=Route.ANY,
    request=Struct(
        "FindCoordinatorRequest",
        Field("key", STRING, "0-3"),
        Field("key_type", INT8, "1+", default=0),
        Field("coordinator_keys", Array(STRING), "4+"),
    ),
    response=Struct(
        "FindCoordinatorResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16, "0-3"),
        Field("error_message", STRING, "1-3", nullable="1-3", ignorable=True),
        Field("node_id", INT32, "0-3"),
        Field("host", STRING, "0-3"),
        Field("port", INT32, "0-3"),
        Field("coordinators", Array(Struct(
            "Coordinator",
            Field("key", STRING, "4+"),
            Field("node_id", INT32, "4+"),
            Field("host", STRING, "4+"),
            Field("port", INT32, "4+"),
            Field("error_code", INT16, "4+"),
            Field("error_message", STRING, "4+", nullable="4+", ignorable=True),
        )), "4+"),
    ),
)

# JoinGroup (key 11): enter a classic group and offer protocol metadata; the
# leader receives every member's metadata. v5 adds static membership, v7 echoes
# the protocol type, v8 a join reason, v9 lets the leader skip assignment.
JOIN_GROUP = Api(
    "JoinGroup", 11, (0, 9), flexible=6, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "JoinGroupRequest",
        Field("group_id", STRING),
        Field("session_timeout_ms", INT32),
        Field("rebalance_timeout_ms", INT32, "1+", default=-1, ignorable=True),
        Field("member_id", STRING),
        Field("group_instance_id", STRING, "5+", nullable="5+", default=None),
        Field("protocol_type", STRING),
        Field("protocols", Array(Struct(
            "JoinGroupRequestProtocol",
            Field("name", STRING),
            Field("metadata", BYTES),
        ))),
        Field("reason", STRING, "8+", nullable="8+", default=None, ignorable=True),
    ),
    response=Struct(
        "JoinGroupResponse",
        Field("throttle_time_ms", INT32, "2+", ignorable=True),
        Field("error_code", INT16),
        Field("generation_id", INT32, default=-1),
        Field("protocol_type", STRING, "7+", nullable="7+", default=None, ignorable=True),
        Field("protocol_name", STRING, nullable="7+"),
        Field("leader", STRING),
        Field("skip_assignment", BOOLEAN, "9+", default=False),
        Field("member_id", STRING),
        Field("members", Array(Struct(
            "JoinGroupResponseMember",
            Field("member_id", STRING),
            Field("group_instance_id", STRING, "5+", nullable="5+", default=None, ignorable=True),
            Field("metadata", BYTES),
        ))),
    ),
)

# Heartbeat (key 12): keep a classic group membership alive; the answer says
# when a rebalance is under way. v3 adds the static instance id.
HEARTBEAT = Api(
    "Heartbeat", 12, (0, 4), flexible=4, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "HeartbeatRequest",
        Field("group_id", STRING),
        Field("generation_id", INT32),
        Field("member_id", STRING),
        Field("group_instance_id", STRING, "3+", nullable="3+", default=None),
    ),
    response=Struct(
        "HeartbeatResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16),
    ),
)

# LeaveGroup (key 13): leave a classic group. From v3 a batch of members
# (member id and/or static instance id) replaces the single member id; v5 adds
# a reason per member.
LEAVE_GROUP = Api(
    "LeaveGroup", 13, (0, 5), flexible=4, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "LeaveGroupRequest",
        Field("group_id", STRING),
        Field("member_id", STRING, "0-2"),
        Field("members", Array(Struct(
            "MemberIdentity",
            Field("member_id", STRING, "3+"),
            Field("group_instance_id", STRING, "3+", nullable="3+", default=None),
            Field("reason", STRING, "5+", nullable="5+", default=None, ignorable=True),
        )), "3+"),
    ),
    response=Struct(
        "LeaveGroupResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16),
        Field("members", Array(Struct(
            "MemberResponse",
            Field("member_id", STRING, "3+"),
            Field("group_instance_id", STRING, "3+", nullable="3+"),
            Field("error_code", INT16, "3+"),
        )), "3+"),
    ),
)

# SyncGroup (key 14): the leader hands out assignments, every member receives
# its own. v3 adds the static instance id, v5 the protocol type and name.
SYNC_GROUP = Api(
    "SyncGroup", 14, (0, 5), flexible=4, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "SyncGroupRequest",
        Field("group_id", STRING),
        Field("generation_id", INT32),
        Field("member_id", STRING),
        Field("group_instance_id", STRING, "3+", nullable="3+", default=None),
        Field("protocol_type", STRING, "5+", nullable="5+", default=None, ignorable=True),
        Field("protocol_name", STRING, "5+", nullable="5+", default=None, ignorable=True),
        Field("assignments", Array(Struct(
            "SyncGroupRequestAssignment",
            Field("member_id", STRING),
            Field("assignment", BYTES),
        ))),
    ),
    response=Struct(
        "SyncGroupResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16),
        Field("protocol_type", STRING, "5+", nullable="5+", default=None, ignorable=True),
        Field("protocol_name", STRING, "5+", nullable="5+", default=None, ignorable=True),
        Field("assignment", BYTES),
    ),
)

# DescribeGroups (key 15): state, protocol and members of classic groups.
# v3 can ask for authorized operations, v4 reports instance ids, v6 adds a
# per-group error message (and GROUP_ID_NOT_FOUND).
DESCRIBE_GROUPS = Api(
    "DescribeGroups", 15, (0, 6), flexible=5, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "DescribeGroupsRequest",
        Field("groups", Array(STRING)),
        Field("include_authorized_operations", BOOLEAN, "3+"),
    ),
    response=Struct(
        "DescribeGroupsResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("groups", Array(Struct(
            "DescribedGroup",
            Field("error_code", INT16),
            Field("error_message", STRING, "6+", nullable="6+", default=None),
            Field("group_id", STRING),
            Field("group_state", STRING),
            Field("protocol_type", STRING),
            Field("protocol_data", STRING),
            Field("members", Array(Struct(
                "DescribedGroupMember",
                Field("member_id", STRING),
                Field("group_instance_id", STRING, "4+", nullable="4+", default=None, ignorable=True),
                Field("client_id", STRING),
                Field("client_host", STRING),
                Field("member_metadata", BYTES),
                Field("member_assignment", BYTES),
            ))),
            Field("authorized_operations", INT32, "3+", default=_NO_AUTHORIZED_OPERATIONS),
        ))),
    ),
)

# ListGroups (key 16): the groups one broker coordinates. v4 filters by state
# and reports it, v5 filters by group type (classic, consumer, ...) and reports it.
LIST_GROUPS = Api(
    "ListGroups", 16, (0, 5), flexible=3, route=Route.ANY,
    request=Struct(
        "ListGroupsRequest",
        Field("states_filter", Array(STRING), "4+"),
        Field("types_filter", Array(STRING), "5+"),
    ),
    response=Struct(
        "ListGroupsResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16),
        Field("groups", Array(Struct(
            "ListedGroup",
            Field("group_id", STRING),
            Field("protocol_type", STRING),
            Field("group_state", STRING, "4+", ignorable=True),
            Field("group_type", STRING, "5+", ignorable=True),
        ))),
    ),
)

# DeleteGroups (key 42): delete empty groups and their committed offsets.
# v1 is the same as v0; Kafka 4.x still accepts both.
DELETE_GROUPS = Api(
    "DeleteGroups", 42, (0, 2), flexible=2, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "DeleteGroupsRequest",
        Field("groups_names", Array(STRING)),
    ),
    response=Struct(
        "DeleteGroupsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "DeletableGroupResult",
            Field("group_id", STRING),
            Field("error_code", INT16),
        ))),
    ),
)

# Topic id plus partition numbers, shared by the KIP-848 heartbeat answer.
_HEARTBEAT_TOPIC_PARTITIONS = Struct(
    "TopicPartitions",
    Field("topic_id", UUID),
    Field("partitions", Array(INT32)),
)

# ConsumerGroupHeartbeat (key 68): the KIP-848 consumer protocol's single
# call: join, heartbeat, report owned partitions and receive the assignment.
# Fields the member leaves null are unchanged since its last heartbeat.
# v1 adds regex subscriptions (and member ids generated by the client).
CONSUMER_GROUP_HEARTBEAT = Api(
    "ConsumerGroupHeartbeat", 68, (0, 1), flexible=0, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "ConsumerGroupHeartbeatRequest",
        Field("group_id", STRING),
        Field("member_id", STRING),
        Field("member_epoch", INT32),
        Field("instance_id", STRING, nullable="0+", default=None),
        Field("rack_id", STRING, nullable="0+", default=None),
        Field("rebalance_timeout_ms", INT32, default=-1),
        Field("subscribed_topic_names", Array(STRING), nullable="0+", default=None),
        Field("subscribed_topic_regex", STRING, "1+", nullable="1+", default=None),
        Field("server_assignor", STRING, nullable="0+", default=None),
        Field("topic_partitions", Array(Struct(
            "TopicPartitions",
            Field("topic_id", UUID),
            Field("partitions", Array(INT32)),
        )), nullable="0+", default=None),
    ),
    response=Struct(
        "ConsumerGroupHeartbeatResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=None),
        Field("member_id", STRING, nullable="0+", default=None),
        Field("member_epoch", INT32),
        Field("heartbeat_interval_ms", INT32),
        Field("assignment", Struct(
            "Assignment",
            Field("topic_partitions", Array(_HEARTBEAT_TOPIC_PARTITIONS)),
        ), nullable="0+", default=None),
    ),
)

# Topic id, name and partitions, and the assignment made of them, shared by
# the members' current and target assignments in ConsumerGroupDescribe.
_DESCRIBE_TOPIC_PARTITIONS = Struct(
    "TopicPartitions",
    Field("topic_id", UUID),
    Field("topic_name", STRING),
    Field("partitions", Array(INT32)),
)
_DESCRIBE_ASSIGNMENT = Struct(
    "Assignment",
    Field("topic_partitions", Array(_DESCRIBE_TOPIC_PARTITIONS)),
)

# ConsumerGroupDescribe (key 69): describe KIP-848 consumer groups, with each
# member's subscription and current/target assignment. v1 adds the member type.
CONSUMER_GROUP_DESCRIBE = Api(
    "ConsumerGroupDescribe", 69, (0, 1), flexible=0, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "ConsumerGroupDescribeRequest",
        Field("group_ids", Array(STRING)),
        Field("include_authorized_operations", BOOLEAN),
    ),
    response=Struct(
        "ConsumerGroupDescribeResponse",
        Field("throttle_time_ms", INT32),
        Field("groups", Array(Struct(
            "DescribedGroup",
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+", default=None),
            Field("group_id", STRING),
            Field("group_state", STRING),
            Field("group_epoch", INT32),
            Field("assignment_epoch", INT32),
            Field("assignor_name", STRING),
            Field("members", Array(Struct(
                "Member",
                Field("member_id", STRING),
                Field("instance_id", STRING, nullable="0+", default=None),
                Field("rack_id", STRING, nullable="0+", default=None),
                Field("member_epoch", INT32),
                Field("client_id", STRING),
                Field("client_host", STRING),
                Field("subscribed_topic_names", Array(STRING)),
                Field("subscribed_topic_regex", STRING, nullable="0+", default=None),
                Field("assignment", _DESCRIBE_ASSIGNMENT),
                Field("target_assignment", _DESCRIBE_ASSIGNMENT),
                Field("member_type", INT8, "1+", default=-1, ignorable=True),
            ))),
            Field("authorized_operations", INT32, default=_NO_AUTHORIZED_OPERATIONS),
        ))),
    ),
)


# --------------------------------------------------------------------------
# The classic "consumer" protocol's payloads: the subscription a member puts
# in JoinGroup's protocol metadata and the assignment the leader sends through
# SyncGroup. Both are classic-encoded (never flexible) and prefixed by their
# own int16 version. A reader meeting a newer version than it knows reads it
# as the newest it knows and ignores whatever follows, as Kafka's does.
# --------------------------------------------------------------------------

#: Highest ConsumerProtocolSubscription / ConsumerProtocolAssignment version declared.
CONSUMER_PROTOCOL_MAX_VERSION = 3

# Subscription: v1 adds owned partitions, v2 the generation they were owned
# in, v3 the member's rack.
CONSUMER_PROTOCOL_SUBSCRIPTION = Struct(
    "ConsumerProtocolSubscription",
    Field("topics", Array(STRING)),
    Field("user_data", BYTES, nullable="0+", default=None),
    Field("owned_partitions", Array(Struct(
        "TopicPartition",
        Field("topic", STRING, "1+"),
        Field("partitions", Array(INT32), "1+"),
    )), "1+", ignorable=True),
    Field("generation_id", INT32, "2+", default=-1, ignorable=True),
    Field("rack_id", STRING, "3+", nullable="3+", default=None, ignorable=True),
)

# Assignment: the same layout in every version (v1-3 follow the subscription's bumps).
CONSUMER_PROTOCOL_ASSIGNMENT = Struct(
    "ConsumerProtocolAssignment",
    Field("assigned_partitions", Array(Struct(
        "TopicPartition",
        Field("topic", STRING),
        Field("partitions", Array(INT32)),
    ))),
    Field("user_data", BYTES, nullable="0+", default=None),
)


def _encode_payload(schema: Struct, value: Any, version: int) -> bytes:
    if not 0 <= version <= CONSUMER_PROTOCOL_MAX_VERSION:
        raise UnsupportedVersionError("%s v%d is outside the versions this client knows (0-%d)"
                                      % (schema.name, version, CONSUMER_PROTOCOL_MAX_VERSION))
    out = bytearray()
    T.INT16.write(out, version)
    schema.writer(version, False)(out, value)
    return bytes(out)


def _decode_payload(schema: Struct, data: bytes) -> StructValue:
    try:
        version, pos = T.INT16.read(data, 0)
        if version < 0:
            raise ProtocolError("%s has unsupported version %d" % (schema.name, version))
        version = min(version, CONSUMER_PROTOCOL_MAX_VERSION)
        value, _ = schema.reader(version, False)(data, pos)
    except ProtocolError:
        raise
    except (ValueError, IndexError, TypeError, KeyError, OverflowError,
            struct.error, MemoryError, RecursionError) as exc:
        raise ProtocolError("cannot decode %s: %s" % (schema.name, exc)) from None
    return value


def encode_subscription(value: Any, version: int) -> bytes:
    """JoinGroup protocol metadata for the "consumer" protocol type: version prefix and subscription."""
    return _encode_payload(CONSUMER_PROTOCOL_SUBSCRIPTION, value, version)


def decode_subscription(data: bytes) -> StructValue:
    """Read a consumer subscription (any version; newer ones as the newest known, trailing bytes ignored)."""
    return _decode_payload(CONSUMER_PROTOCOL_SUBSCRIPTION, data)


def encode_assignment(value: Any, version: int) -> bytes:
    """SyncGroup assignment bytes for the "consumer" protocol type: version prefix and assignment."""
    return _encode_payload(CONSUMER_PROTOCOL_ASSIGNMENT, value, version)


def decode_assignment(data: bytes) -> StructValue:
    """Read a consumer assignment (any version; newer ones as the newest known, trailing bytes ignored)."""
    return _decode_payload(CONSUMER_PROTOCOL_ASSIGNMENT, data)
