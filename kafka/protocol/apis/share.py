"""Share groups (KIP-932): queue-like consumption where a partition is read by many members.

Version 0 of these APIs was Kafka 4.0's early-access draft and was removed
in Kafka 4.1; version 1 is the first stable one and the only one declared
here (v2 adds acquire modes and lock renewal, KIP-1206/KIP-1222). Every
version is flexible.
"""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, INT64, RECORDS, STRING, UUID

_NO_AUTHORIZED_OPERATIONS = -2147483648

# A partition's leader as a ShareFetch/ShareAcknowledge answer reports it, and
# the address of every leader so named (for NOT_LEADER_OR_FOLLOWER).
_LEADER = Struct(
    "LeaderIdAndEpoch",
    Field("leader_id", INT32),
    Field("leader_epoch", INT32),
)
_NODE_ENDPOINT = Struct(
    "NodeEndpoint",
    Field("node_id", INT32),
    Field("host", STRING),
    Field("port", INT32),
    Field("rack", STRING, nullable="0+", default=None),
)


def _acknowledged_topics(topic_struct: str, partition_struct: str) -> Array:
    """Topics, partitions and the acknowledgement batches of each: offsets first..last
    (inclusive) with one type each, or one type for the whole range (0 gap, 1 accept,
    2 release, 3 reject)."""
    return Array(Struct(
        topic_struct,
        Field("topic_id", UUID),
        Field("partitions", Array(Struct(
            partition_struct,
            Field("partition_index", INT32),
            Field("acknowledgement_batches", Array(Struct(
                "AcknowledgementBatch",
                Field("first_offset", INT64),
                Field("last_offset", INT64),
                Field("acknowledge_types", Array(INT8)),
            ))),
        ))),
    ))


# ShareGroupHeartbeat (key 76): join (epoch 0), stay in (the current epoch)
# or leave (epoch -1) a share group; the coordinator answers with the
# member's assignment whenever it changed. Null fields are unchanged since
# the last heartbeat. From v1 the member generates its own id (KIP-1082).
SHARE_GROUP_HEARTBEAT = Api(
    "ShareGroupHeartbeat", 76, (1, 1), flexible=0, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "ShareGroupHeartbeatRequest",
        Field("group_id", STRING),
        Field("member_id", STRING),
        Field("member_epoch", INT32),
        Field("rack_id", STRING, nullable="0+", default=None),
        Field("subscribed_topic_names", Array(STRING), nullable="0+", default=None),
    ),
    response=Struct(
        "ShareGroupHeartbeatResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=None),
        Field("member_id", STRING, nullable="0+", default=None),
        Field("member_epoch", INT32),
        Field("heartbeat_interval_ms", INT32),
        Field("assignment", Struct(
            "Assignment",
            Field("topic_partitions", Array(Struct(
                "TopicPartitions",
                Field("topic_id", UUID),
                Field("partitions", Array(INT32)),
            ))),
        ), nullable="0+", default=None),
    ),
)

# ShareGroupDescribe (key 77): the members of share groups and what each is
# assigned. (librdkafka's mock cluster does not serve it.)
SHARE_GROUP_DESCRIBE = Api(
    "ShareGroupDescribe", 77, (1, 1), flexible=0, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "ShareGroupDescribeRequest",
        Field("group_ids", Array(STRING)),
        Field("include_authorized_operations", BOOLEAN),
    ),
    response=Struct(
        "ShareGroupDescribeResponse",
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
                Field("rack_id", STRING, nullable="0+", default=None),
                Field("member_epoch", INT32),
                Field("client_id", STRING),
                Field("client_host", STRING),
                Field("subscribed_topic_names", Array(STRING)),
                Field("assignment", Struct(
                    "Assignment",
                    Field("topic_partitions", Array(Struct(
                        "TopicPartitions",
                        Field("topic_id", UUID),
                        Field("topic_name", STRING),
                        Field("partitions", Array(INT32)),
                    ))),
                )),
            ))),
            Field("authorized_operations", INT32, default=_NO_AUTHORIZED_OPERATIONS),
        ))),
    ),
)

# ShareFetch (key 78): fetch records from a partition leader within a share
# session, acquiring them for this member for a time-limited lock, and
# acknowledge earlier deliveries in the same request. Session epoch 0 opens
# the session (the partitions listed join it), -1 closes it, anything else
# counts up by one per request; the partitions stay in the session until
# forgotten.
SHARE_FETCH = Api(
    "ShareFetch", 78, (1, 1), flexible=0, route=Route.LEADER,
    request=Struct(
        "ShareFetchRequest",
        Field("group_id", STRING, nullable="0+", default=None),
        Field("member_id", STRING, nullable="0+"),
        Field("share_session_epoch", INT32),
        Field("max_wait_ms", INT32),
        Field("min_bytes", INT32),
        Field("max_bytes", INT32, default=0x7fffffff),
        Field("max_records", INT32),
        Field("batch_size", INT32),
        Field("topics", _acknowledged_topics("FetchTopic", "FetchPartition")),
        Field("forgotten_topics_data", Array(Struct(
            "ForgottenTopic",
            Field("topic_id", UUID),
            Field("partitions", Array(INT32)),
        ))),
    ),
    response=Struct(
        "ShareFetchResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=None),
        Field("acquisition_lock_timeout_ms", INT32),
        Field("responses", Array(Struct(
            "ShareFetchableTopicResponse",
            Field("topic_id", UUID),
            Field("partitions", Array(Struct(
                "PartitionData",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+", default=None),
                Field("acknowledge_error_code", INT16),
                Field("acknowledge_error_message", STRING, nullable="0+", default=None),
                Field("current_leader", _LEADER),
                Field("records", RECORDS, nullable="0+"),
                Field("acquired_records", Array(Struct(
                    "AcquiredRecords",
                    Field("first_offset", INT64),
                    Field("last_offset", INT64),
                    Field("delivery_count", INT16),
                ))),
            ))),
        ))),
        Field("node_endpoints", Array(_NODE_ENDPOINT)),
    ),
)

# ShareAcknowledge (key 79): acknowledge deliveries without fetching, within
# the same share session as ShareFetch (epoch -1 acknowledges and closes it).
SHARE_ACKNOWLEDGE = Api(
    "ShareAcknowledge", 79, (1, 1), flexible=0, route=Route.LEADER,
    request=Struct(
        "ShareAcknowledgeRequest",
        Field("group_id", STRING, nullable="0+", default=None),
        Field("member_id", STRING, nullable="0+"),
        Field("share_session_epoch", INT32),
        Field("topics", _acknowledged_topics("AcknowledgeTopic", "AcknowledgePartition")),
    ),
    response=Struct(
        "ShareAcknowledgeResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=None),
        Field("responses", Array(Struct(
            "ShareAcknowledgeTopicResponse",
            Field("topic_id", UUID),
            Field("partitions", Array(Struct(
                "PartitionData",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+", default=None),
                Field("current_leader", _LEADER),
            ))),
        ))),
        Field("node_endpoints", Array(_NODE_ENDPOINT)),
    ),
)
