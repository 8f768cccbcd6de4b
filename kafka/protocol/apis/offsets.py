"""Offset APIs: look up, commit, fetch, validate and delete offsets and records."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, INT64, STRING, UUID

# ListOffsets: the offset for a timestamp (or earliest/latest/... sentinel) per
# partition. v0 returned a list of offsets; Kafka 4.0 accepts v1 and later.
LIST_OFFSETS = Api(
    "ListOffsets", 2, (0, 11), flexible=6, min_send=1, route=Route.LEADER,
    request=Struct(
        "ListOffsetsRequest",
        Field("replica_id", INT32),
        Field("isolation_level", INT8, "2+"),
        Field("topics", Array(Struct(
            "ListOffsetsTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "ListOffsetsPartition",
                Field("partition_index", INT32),
                Field("current_leader_epoch", INT32, "4+", default=-1, ignorable=True),
                Field("timestamp", INT64),
                Field("max_num_offsets", INT32, "0", default=1),
            ))),
        ))),
        Field("timeout_ms", INT32, "10+", ignorable=True),
    ),
    response=Struct(
        "ListOffsetsResponse",
        Field("throttle_time_ms", INT32, "2+", ignorable=True),
        Field("topics", Array(Struct(
            "ListOffsetsTopicResponse",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "ListOffsetsPartitionResponse",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("old_style_offsets", Array(INT64), "0"),
                Field("timestamp", INT64, "1+", default=-1),
                Field("offset", INT64, "1+", default=-1),
                Field("leader_epoch", INT32, "4+", default=-1),
            ))),
        ))),
    ),
)

# OffsetCommit: store committed offsets for a group. v10 names topics by id;
# Kafka 4.0 accepts v2 and later.
OFFSET_COMMIT = Api(
    "OffsetCommit", 8, (0, 10), flexible=8, min_send=2, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "OffsetCommitRequest",
        Field("group_id", STRING),
        Field("generation_id_or_member_epoch", INT32, "1+", default=-1, ignorable=True),
        Field("member_id", STRING, "1+", ignorable=True),
        Field("group_instance_id", STRING, "7+", nullable="7+", default=None),
        Field("retention_time_ms", INT64, "2-4", default=-1, ignorable=True),
        Field("topics", Array(Struct(
            "OffsetCommitRequestTopic",
            Field("name", STRING, "0-9", ignorable=True),
            Field("topic_id", UUID, "10+", ignorable=True),
            Field("partitions", Array(Struct(
                "OffsetCommitRequestPartition",
                Field("partition_index", INT32),
                Field("committed_offset", INT64),
                Field("committed_leader_epoch", INT32, "6+", default=-1, ignorable=True),
                Field("commit_timestamp", INT64, "1", default=-1),
                Field("committed_metadata", STRING, nullable="0+"),
            ))),
        ))),
    ),
    response=Struct(
        "OffsetCommitResponse",
        Field("throttle_time_ms", INT32, "3+", ignorable=True),
        Field("topics", Array(Struct(
            "OffsetCommitResponseTopic",
            Field("name", STRING, "0-9", ignorable=True),
            Field("topic_id", UUID, "10+", ignorable=True),
            Field("partitions", Array(Struct(
                "OffsetCommitResponsePartition",
                Field("partition_index", INT32),
                Field("error_code", INT16),
            ))),
        ))),
    ),
)

# OffsetFetch: read committed offsets. v8 batches several groups per request,
# v10 names topics by id; Kafka 4.0 accepts v1 and later.
OFFSET_FETCH = Api(
    "OffsetFetch", 9, (0, 10), flexible=6, min_send=1, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "OffsetFetchRequest",
        Field("group_id", STRING, "0-7"),
        Field("topics", Array(Struct(
            "OffsetFetchRequestTopic",
            Field("name", STRING, "0-7"),
            Field("partition_indexes", Array(INT32), "0-7"),
        )), "0-7", nullable="2-7"),
        Field("groups", Array(Struct(
            "OffsetFetchRequestGroup",
            Field("group_id", STRING, "8+"),
            Field("member_id", STRING, "9+", nullable="9+", default=None, ignorable=True),
            Field("member_epoch", INT32, "9+", default=-1, ignorable=True),
            Field("topics", Array(Struct(
                "OffsetFetchRequestTopics",
                Field("name", STRING, "8-9", ignorable=True),
                Field("topic_id", UUID, "10+", ignorable=True),
                Field("partition_indexes", Array(INT32), "8+"),
            )), "8+", nullable="8+"),
        )), "8+"),
        Field("require_stable", BOOLEAN, "7+", default=False),
    ),
    response=Struct(
        "OffsetFetchResponse",
        Field("throttle_time_ms", INT32, "3+", ignorable=True),
        Field("topics", Array(Struct(
            "OffsetFetchResponseTopic",
            Field("name", STRING, "0-7"),
            Field("partitions", Array(Struct(
                "OffsetFetchResponsePartition",
                Field("partition_index", INT32, "0-7"),
                Field("committed_offset", INT64, "0-7"),
                Field("committed_leader_epoch", INT32, "5-7", default=-1, ignorable=True),
                Field("metadata", STRING, "0-7", nullable="0-7"),
                Field("error_code", INT16, "0-7"),
            )), "0-7"),
            # Not nullable in Kafka's definition; librdkafka's mock cluster
            # answers null when asked for every partition.
        )), "0-7", nullable="0-7"),
        Field("error_code", INT16, "2-7", default=0, ignorable=True),
        Field("groups", Array(Struct(
            "OffsetFetchResponseGroup",
            Field("group_id", STRING, "8+"),
            Field("topics", Array(Struct(
                "OffsetFetchResponseTopics",
                Field("name", STRING, "8-9", ignorable=True),
                Field("topic_id", UUID, "10+", ignorable=True),
                Field("partitions", Array(Struct(
                    "OffsetFetchResponsePartitions",
                    Field("partition_index", INT32, "8+"),
                    Field("committed_offset", INT64, "8+"),
                    Field("committed_leader_epoch", INT32, "8+", default=-1, ignorable=True),
                    Field("metadata", STRING, "8+", nullable="8+"),
                    Field("error_code", INT16, "8+"),
                )), "8+"),
            )), "8+"),
            Field("error_code", INT16, "8+", default=0),
        )), "8+"),
    ),
)

# OffsetForLeaderEpoch: the end offset of a leader epoch, used to detect log
# truncation. Kafka 4.0 accepts v2 and later.
OFFSET_FOR_LEADER_EPOCH = Api(
    "OffsetForLeaderEpoch", 23, (0, 4), flexible=4, min_send=2, route=Route.LEADER,
    request=Struct(
        "OffsetForLeaderEpochRequest",
        Field("replica_id", INT32, "3+", default=-2, ignorable=True),
        Field("topics", Array(Struct(
            "OffsetForLeaderTopic",
            Field("topic", STRING),
            Field("partitions", Array(Struct(
                "OffsetForLeaderPartition",
                Field("partition", INT32),
                Field("current_leader_epoch", INT32, "2+", default=-1, ignorable=True),
                Field("leader_epoch", INT32),
            ))),
        ))),
    ),
    response=Struct(
        "OffsetForLeaderEpochResponse",
        Field("throttle_time_ms", INT32, "2+", ignorable=True),
        Field("topics", Array(Struct(
            "OffsetForLeaderTopicResult",
            Field("topic", STRING),
            Field("partitions", Array(Struct(
                "EpochEndOffset",
                Field("error_code", INT16),
                Field("partition", INT32),
                Field("leader_epoch", INT32, "1+", default=-1, ignorable=True),
                Field("end_offset", INT64, default=-1),
            ))),
        ))),
    ),
)

# DeleteRecords: move the log start offset of partitions forward.
DELETE_RECORDS = Api(
    "DeleteRecords", 21, (0, 2), flexible=2, route=Route.LEADER,
    request=Struct(
        "DeleteRecordsRequest",
        Field("topics", Array(Struct(
            "DeleteRecordsTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "DeleteRecordsPartition",
                Field("partition_index", INT32),
                Field("offset", INT64),
            ))),
        ))),
        Field("timeout_ms", INT32),
    ),
    response=Struct(
        "DeleteRecordsResponse",
        Field("throttle_time_ms", INT32),
        Field("topics", Array(Struct(
            "DeleteRecordsTopicResult",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "DeleteRecordsPartitionResult",
                Field("partition_index", INT32),
                Field("low_watermark", INT64),
                Field("error_code", INT16),
            ))),
        ))),
    ),
)

# OffsetDelete: remove committed offsets of partitions from a group (classic only).
OFFSET_DELETE = Api(
    "OffsetDelete", 47, (0, 0), flexible=None, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "OffsetDeleteRequest",
        Field("group_id", STRING),
        Field("topics", Array(Struct(
            "OffsetDeleteRequestTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "OffsetDeleteRequestPartition",
                Field("partition_index", INT32),
            ))),
        ))),
    ),
    response=Struct(
        "OffsetDeleteResponse",
        Field("error_code", INT16),
        Field("throttle_time_ms", INT32, ignorable=True),
        Field("topics", Array(Struct(
            "OffsetDeleteResponseTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "OffsetDeleteResponsePartition",
                Field("partition_index", INT32),
                Field("error_code", INT16),
            ))),
        ))),
    ),
)
