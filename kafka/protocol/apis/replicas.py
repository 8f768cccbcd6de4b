"""Replica placement: log directories (keys 34, 35), leader elections (key 43)
and partition reassignments (key 45)."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, INT64, STRING

# AlterReplicaLogDirs (key 34): move replicas a broker hosts into other log
# directories of the same broker. Kafka 4.0 dropped v0.
ALTER_REPLICA_LOG_DIRS = Api(
    "AlterReplicaLogDirs", 34, (1, 2), flexible=2, route=Route.LEADER,
    request=Struct(
        "AlterReplicaLogDirsRequest",
        Field("dirs", Array(Struct(
            "AlterReplicaLogDir",
            Field("path", STRING),
            Field("topics", Array(Struct(
                "AlterReplicaLogDirTopic",
                Field("name", STRING),
                Field("partitions", Array(INT32)),
            ))),
        ))),
    ),
    response=Struct(
        "AlterReplicaLogDirsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "AlterReplicaLogDirTopicResult",
            Field("topic_name", STRING),
            Field("partitions", Array(Struct(
                "AlterReplicaLogDirPartitionResult",
                Field("partition_index", INT32),
                Field("error_code", INT16),
            ))),
        ))),
    ),
)

# DescribeLogDirs (key 35): a broker's log directories and the size and lag
# of each replica in them (null topics: every replica). Kafka 4.0 dropped v0.
DESCRIBE_LOG_DIRS = Api(
    "DescribeLogDirs", 35, (1, 5), flexible=2, route=Route.LEADER,
    request=Struct(
        "DescribeLogDirsRequest",
        Field("topics", Array(Struct(
            "DescribableLogDirTopic",
            Field("topic", STRING),
            Field("partitions", Array(INT32)),
        )), nullable="0+"),
    ),
    response=Struct(
        "DescribeLogDirsResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16, "3+", ignorable=True),
        Field("results", Array(Struct(
            "DescribeLogDirsResult",
            Field("error_code", INT16),
            Field("log_dir", STRING),
            Field("topics", Array(Struct(
                "DescribeLogDirsTopic",
                Field("name", STRING),
                Field("partitions", Array(Struct(
                    "DescribeLogDirsPartition",
                    Field("partition_index", INT32),
                    Field("partition_size", INT64),
                    Field("offset_lag", INT64),
                    Field("is_future_key", BOOLEAN),
                ))),
            ))),
            Field("total_bytes", INT64, "4+", default=-1, ignorable=True),
            Field("usable_bytes", INT64, "4+", default=-1, ignorable=True),
            Field("is_cordoned", BOOLEAN, "5+", ignorable=True),
        ))),
    ),
)

# ElectLeaders (key 43): elect the preferred (type 0) or any live (type 1,
# unclean) replica leader of partitions (null: every partition).
ELECT_LEADERS = Api(
    "ElectLeaders", 43, (0, 2), flexible=2, route=Route.CONTROLLER,
    request=Struct(
        "ElectLeadersRequest",
        Field("election_type", INT8, "1+"),
        Field("topic_partitions", Array(Struct(
            "TopicPartitions",
            Field("topic", STRING),
            Field("partitions", Array(INT32)),
        )), nullable="0+"),
        Field("timeout_ms", INT32, default=60000),
    ),
    response=Struct(
        "ElectLeadersResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16, "1+"),
        Field("replica_election_results", Array(Struct(
            "ReplicaElectionResult",
            Field("topic", STRING),
            Field("partition_result", Array(Struct(
                "PartitionResult",
                Field("partition_id", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+"),
            ))),
        ))),
    ),
)

# AlterPartitionReassignments (key 45): start (replicas given) or cancel
# (replicas null) moving partitions to other brokers.
ALTER_PARTITION_REASSIGNMENTS = Api(
    "AlterPartitionReassignments", 45, (0, 1), flexible=0, route=Route.CONTROLLER,
    request=Struct(
        "AlterPartitionReassignmentsRequest",
        Field("timeout_ms", INT32, default=60000),
        Field("allow_replication_factor_change", BOOLEAN, "1+", default=True),
        Field("topics", Array(Struct(
            "ReassignableTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "ReassignablePartition",
                Field("partition_index", INT32),
                Field("replicas", Array(INT32), nullable="0+", default=None),
            ))),
        ))),
    ),
    response=Struct(
        "AlterPartitionReassignmentsResponse",
        Field("throttle_time_ms", INT32),
        Field("allow_replication_factor_change", BOOLEAN, "1+", default=True, ignorable=True),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+"),
        Field("responses", Array(Struct(
            "ReassignableTopicResponse",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "ReassignablePartitionResponse",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+"),
            ))),
        ))),
    ),
)
