"""Produce (key 0): append record batches to partition leaders."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, INT16, INT32, INT64, RECORDS, STRING, UUID

# Produce: write records to partitions. v13 names topics by id instead of name;
# Kafka 4.0 stopped accepting v0-2, so the client sends v3 and later.
PRODUCE = Api(
    "Produce", 0, (0, 13), flexible=9, min_send=3, route=Route.LEADER,
    request=Struct(
        "ProduceRequest",
        Field("transactional_id", STRING, "3+", nullable="3+", default=None),
        Field("acks", INT16),
        Field("timeout_ms", INT32),
        Field("topic_data", Array(Struct(
            "TopicProduceData",
            Field("name", STRING, "0-12", ignorable=True),
            Field("topic_id", UUID, "13+", ignorable=True),
            Field("partition_data", Array(Struct(
                "PartitionProduceData",
                Field("index", INT32),
                Field("records", RECORDS, nullable="0+"),
            ))),
        ))),
    ),
    response=Struct(
        "ProduceResponse",
        Field("responses", Array(Struct(
            "TopicProduceResponse",
            Field("name", STRING, "0-12", ignorable=True),
            Field("topic_id", UUID, "13+", ignorable=True),
            Field("partition_responses", Array(Struct(
                "PartitionProduceResponse",
                Field("index", INT32),
                Field("error_code", INT16),
                Field("base_offset", INT64),
                Field("log_append_time_ms", INT64, "2+", default=-1, ignorable=True),
                Field("log_start_offset", INT64, "5+", default=-1, ignorable=True),
                Field("record_errors", Array(Struct(
                    "BatchIndexAndErrorMessage",
                    Field("batch_index", INT32, "8+"),
                    Field("batch_index_error_message", STRING, "8+", nullable="8+", default=None),
                )), "8+", ignorable=True),
                Field("error_message", STRING, "8+", nullable="8+", default=None, ignorable=True),
                Field("current_leader", Struct(
                    "LeaderIdAndEpoch",
                    Field("leader_id", INT32, "10+", default=-1),
                    Field("leader_epoch", INT32, "10+", default=-1),
                ), "10+", tag=0),
            ))),
        ))),
        Field("throttle_time_ms", INT32, "1+", default=0, ignorable=True),
        Field("node_endpoints", Array(Struct(
            "NodeEndpoint",
            Field("node_id", INT32, "10+"),
            Field("host", STRING, "10+"),
            Field("port", INT32, "10+"),
            Field("rack", STRING, "10+", nullable="10+", default=None),
        )), "10+", tag=0),
    ),
)
