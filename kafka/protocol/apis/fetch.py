"""Fetch (key 1): read record batches from partition leaders (consumers and followers)."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, INT8, INT16, INT32, INT64, RECORDS, STRING, UUID

_INT64_MAX = 0x7FFFFFFFFFFFFFFF

# Fetch: v7 adds incremental fetch sessions, v12 goes flexible, v13 names topics
# by id, v15 moves the replica id into a tagged ReplicaState. Kafka 4.0 stopped
# accepting v0-3, so the client sends v4 and later.
FETCH = Api(
    "Fetch", 1, (0, 18), flexible=12, min_send=4, route=Route.LEADER,
    request=Struct(
        "FetchRequest",
        Field("cluster_id", STRING, "12+", nullable="12+", default=None, tag=0, ignorable=True),
        Field("replica_id", INT32, "0-14", default=-1),
        Field("replica_state", Struct(
            "ReplicaState",
            Field("replica_id", INT32, "15+", default=-1),
            Field("replica_epoch", INT64, "15+", default=-1),
        ), "15+", tag=1),
        Field("max_wait_ms", INT32),
        Field("min_bytes", INT32),
        Field("max_bytes", INT32, "3+", default=0x7FFFFFFF, ignorable=True),
        Field("isolation_level", INT8, "4+", default=0, ignorable=True),
        Field("session_id", INT32, "7+", default=0, ignorable=True),
        Field("session_epoch", INT32, "7+", default=-1, ignorable=True),
        Field("topics", Array(Struct(
            "FetchTopic",
            Field("topic", STRING, "0-12", ignorable=True),
            Field("topic_id", UUID, "13+", ignorable=True),
            Field("partitions", Array(Struct(
                "FetchPartition",
                Field("partition", INT32),
                Field("current_leader_epoch", INT32, "9+", default=-1, ignorable=True),
                Field("fetch_offset", INT64),
                Field("last_fetched_epoch", INT32, "12+", default=-1),
                Field("log_start_offset", INT64, "5+", default=-1, ignorable=True),
                Field("partition_max_bytes", INT32),
                Field("replica_directory_id", UUID, "17+", tag=0, ignorable=True),
                Field("high_watermark", INT64, "18+", default=_INT64_MAX, tag=1, ignorable=True),
            ))),
        ))),
        Field("forgotten_topics_data", Array(Struct(
            "ForgottenTopic",
            Field("topic", STRING, "7-12", ignorable=True),
            Field("topic_id", UUID, "13+", ignorable=True),
            Field("partitions", Array(INT32), "7+"),
        )), "7+"),
        Field("rack_id", STRING, "11+", default="", ignorable=True),
    ),
    response=Struct(
        "FetchResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("error_code", INT16, "7+", ignorable=True),
        Field("session_id", INT32, "7+", default=0),
        Field("responses", Array(Struct(
            "FetchableTopicResponse",
            Field("topic", STRING, "0-12", ignorable=True),
            Field("topic_id", UUID, "13+", ignorable=True),
            Field("partitions", Array(Struct(
                "PartitionData",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("high_watermark", INT64),
                Field("last_stable_offset", INT64, "4+", default=-1, ignorable=True),
                Field("log_start_offset", INT64, "5+", default=-1, ignorable=True),
                Field("diverging_epoch", Struct(
                    "EpochEndOffset",
                    Field("epoch", INT32, "12+", default=-1),
                    Field("end_offset", INT64, "12+", default=-1),
                ), "12+", tag=0),
                Field("current_leader", Struct(
                    "LeaderIdAndEpoch",
                    Field("leader_id", INT32, "12+", default=-1),
                    Field("leader_epoch", INT32, "12+", default=-1),
                ), "12+", tag=1),
                Field("snapshot_id", Struct(
                    "SnapshotId",
                    Field("end_offset", INT64, default=-1),
                    Field("epoch", INT32, default=-1),
                ), "12+", tag=2),
                Field("aborted_transactions", Array(Struct(
                    "AbortedTransaction",
                    Field("producer_id", INT64, "4+"),
                    Field("first_offset", INT64, "4+"),
                )), "4+", nullable="4+", ignorable=True),
                Field("preferred_read_replica", INT32, "11+", default=-1),
                Field("records", RECORDS, nullable="0+"),
            ))),
        ))),
        Field("node_endpoints", Array(Struct(
            "NodeEndpoint",
            Field("node_id", INT32, "16+"),
            Field("host", STRING, "16+"),
            Field("port", INT32, "16+"),
            Field("rack", STRING, "16+", nullable="16+", default=None),
        )), "16+", tag=0),
    ),
)
