"""Cluster maintenance APIs: partition reassignments (key 46), SCRAM credentials (keys 50, 51)
and paged topic descriptions (key 75). All four are flexible from v0.

The SCRAM credential APIs serve the admin clients' ``describe_user_scram_credentials``
and ``alter_user_scram_credentials``.
"""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, BYTES, INT8, INT16, INT32, STRING, UUID

# Sentinel meaning "authorized operations were not requested".
_NO_AUTHORIZED_OPERATIONS = -2147483648

# ListPartitionReassignments: the reassignments in progress (null topics: all of them).
LIST_PARTITION_REASSIGNMENTS = Api(
    "ListPartitionReassignments", 46, (0, 0), flexible=0, route=Route.CONTROLLER,
    request=Struct(
        "ListPartitionReassignmentsRequest",
        Field("timeout_ms", INT32, default=60000),
        Field("topics", Array(Struct(
            "ListPartitionReassignmentsTopics",
            Field("name", STRING),
            Field("partition_indexes", Array(INT32)),
        )), nullable="0+", default=None),
    ),
    response=Struct(
        "ListPartitionReassignmentsResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=""),
        Field("topics", Array(Struct(
            "OngoingTopicReassignment",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "OngoingPartitionReassignment",
                Field("partition_index", INT32),
                Field("replicas", Array(INT32)),
                Field("adding_replicas", Array(INT32)),
                Field("removing_replicas", Array(INT32)),
            ))),
        ))),
    ),
)

# DescribeUserScramCredentials: mechanisms and iteration counts per user (null users: all).
DESCRIBE_USER_SCRAM_CREDENTIALS = Api(
    "DescribeUserScramCredentials", 50, (0, 0), flexible=0, route=Route.ANY,
    request=Struct(
        "DescribeUserScramCredentialsRequest",
        Field("users", Array(Struct(
            "UserName",
            Field("name", STRING),
        )), nullable="0+"),
    ),
    response=Struct(
        "DescribeUserScramCredentialsResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=""),
        Field("results", Array(Struct(
            "DescribeUserScramCredentialsResult",
            Field("user", STRING),
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+", default=""),
            Field("credential_infos", Array(Struct(
                "CredentialInfo",
                Field("mechanism", INT8),
                Field("iterations", INT32),
            ))),
        ))),
    ),
)

# AlterUserScramCredentials: delete and insert/update salted credentials.
ALTER_USER_SCRAM_CREDENTIALS = Api(
    "AlterUserScramCredentials", 51, (0, 0), flexible=0, route=Route.CONTROLLER,
    request=Struct(
        "AlterUserScramCredentialsRequest",
        Field("deletions", Array(Struct(
            "ScramCredentialDeletion",
            Field("name", STRING),
            Field("mechanism", INT8),
        ))),
        Field("upsertions", Array(Struct(
            "ScramCredentialUpsertion",
            Field("name", STRING),
            Field("mechanism", INT8),
            Field("iterations", INT32),
            Field("salt", BYTES),
            Field("salted_password", BYTES),
        ))),
    ),
    response=Struct(
        "AlterUserScramCredentialsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "AlterUserScramCredentialsResult",
            Field("user", STRING),
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+", default=""),
        ))),
    ),
)

_CURSOR_FIELDS = (Field("topic_name", STRING), Field("partition_index", INT32))

# DescribeTopicPartitions: topics and their partitions a page at a time (KIP-966).
DESCRIBE_TOPIC_PARTITIONS = Api(
    "DescribeTopicPartitions", 75, (0, 0), flexible=0, route=Route.ANY,
    request=Struct(
        "DescribeTopicPartitionsRequest",
        Field("topics", Array(Struct(
            "TopicRequest",
            Field("name", STRING),
        ))),
        Field("response_partition_limit", INT32, default=2000),
        Field("cursor", Struct("Cursor", *_CURSOR_FIELDS), nullable="0+", default=None),
    ),
    response=Struct(
        "DescribeTopicPartitionsResponse",
        Field("throttle_time_ms", INT32, ignorable=True),
        Field("topics", Array(Struct(
            "DescribeTopicPartitionsResponseTopic",
            Field("error_code", INT16),
            Field("name", STRING, nullable="0+"),
            Field("topic_id", UUID, ignorable=True),
            Field("is_internal", BOOLEAN, default=False, ignorable=True),
            Field("partitions", Array(Struct(
                "DescribeTopicPartitionsResponsePartition",
                Field("error_code", INT16),
                Field("partition_index", INT32),
                Field("leader_id", INT32),
                Field("leader_epoch", INT32, default=-1, ignorable=True),
                Field("replica_nodes", Array(INT32)),
                Field("isr_nodes", Array(INT32)),
                Field("eligible_leader_replicas", Array(INT32), nullable="0+", default=None),
                Field("last_known_elr", Array(INT32), nullable="0+", default=None),
                Field("offline_replicas", Array(INT32), ignorable=True),
            ))),
            Field("topic_authorized_operations", INT32, default=_NO_AUTHORIZED_OPERATIONS),
        ))),
        Field("next_cursor", Struct("Cursor", *_CURSOR_FIELDS), nullable="0+", default=None),
    ),
)
