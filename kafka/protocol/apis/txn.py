"""Transactions and producer ids: InitProducerId through DescribeProducers."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT16, INT32, INT64, STRING

# InitProducerId (key 22): obtain a producer id and epoch, transactional or
# merely idempotent. v3 lets a producer resume with its old id/epoch, v6 adds
# two-phase commit (KIP-939).
INIT_PRODUCER_ID = Api(
    "InitProducerId", 22, (0, 6), flexible=2, route=Route.TXN_COORDINATOR,
    request=Struct(
        "InitProducerIdRequest",
        Field("transactional_id", STRING, nullable="0+"),
        Field("transaction_timeout_ms", INT32),
        Field("producer_id", INT64, "3+", default=-1),
        Field("producer_epoch", INT16, "3+", default=-1),
        Field("enable_2pc", BOOLEAN, "6+", default=False),
        Field("keep_prepared_txn", BOOLEAN, "6+", default=False),
    ),
    response=Struct(
        "InitProducerIdResponse",
        Field("throttle_time_ms", INT32, ignorable=True),
        Field("error_code", INT16),
        Field("producer_id", INT64, default=-1),
        Field("producer_epoch", INT16),
        Field("ongoing_txn_producer_id", INT64, "6+", default=-1),
        Field("ongoing_txn_producer_epoch", INT16, "6+", default=-1),
    ),
)

# A topic and the partitions to enrol, shared by the client (v0-3) and the
# broker-batched (v4+) layouts of AddPartitionsToTxn.
ADD_PARTITIONS_TO_TXN_TOPIC = Struct(
    "AddPartitionsToTxnTopic",
    Field("name", STRING),
    Field("partitions", Array(INT32)),
)

ADD_PARTITIONS_TO_TXN_PARTITION_RESULT = Struct(
    "AddPartitionsToTxnPartitionResult",
    Field("partition_index", INT32),
    Field("partition_error_code", INT16),
)

ADD_PARTITIONS_TO_TXN_TOPIC_RESULT = Struct(
    "AddPartitionsToTxnTopicResult",
    Field("name", STRING),
    Field("results_by_partition", Array(ADD_PARTITIONS_TO_TXN_PARTITION_RESULT)),
)

# AddPartitionsToTxn (key 24): enrol partitions in a transaction. Up to v3 one
# transaction per request (what clients send); v4+ batches several
# transactions and can merely verify membership (what brokers send).
ADD_PARTITIONS_TO_TXN = Api(
    "AddPartitionsToTxn", 24, (0, 5), flexible=3, route=Route.TXN_COORDINATOR,
    request=Struct(
        "AddPartitionsToTxnRequest",
        Field("transactions", Array(Struct(
            "AddPartitionsToTxnTransaction",
            Field("transactional_id", STRING, "4+"),
            Field("producer_id", INT64, "4+"),
            Field("producer_epoch", INT16, "4+"),
            Field("verify_only", BOOLEAN, "4+", default=False),
            Field("topics", Array(ADD_PARTITIONS_TO_TXN_TOPIC), "4+"),
        )), "4+"),
        Field("v3_and_below_transactional_id", STRING, "0-3"),
        Field("v3_and_below_producer_id", INT64, "0-3"),
        Field("v3_and_below_producer_epoch", INT16, "0-3"),
        Field("v3_and_below_topics", Array(ADD_PARTITIONS_TO_TXN_TOPIC), "0-3"),
    ),
    response=Struct(
        "AddPartitionsToTxnResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16, "4+", ignorable=True),
        Field("results_by_transaction", Array(Struct(
            "AddPartitionsToTxnResult",
            Field("transactional_id", STRING, "4+"),
            Field("topic_results", Array(ADD_PARTITIONS_TO_TXN_TOPIC_RESULT), "4+"),
        )), "4+"),
        Field("results_by_topic_v3_and_below", Array(ADD_PARTITIONS_TO_TXN_TOPIC_RESULT), "0-3"),
    ),
)

# AddOffsetsToTxn (key 25): tie a consumer group's offset commits to the
# transaction.
ADD_OFFSETS_TO_TXN = Api(
    "AddOffsetsToTxn", 25, (0, 4), flexible=3, route=Route.TXN_COORDINATOR,
    request=Struct(
        "AddOffsetsToTxnRequest",
        Field("transactional_id", STRING),
        Field("producer_id", INT64),
        Field("producer_epoch", INT16),
        Field("group_id", STRING),
    ),
    response=Struct(
        "AddOffsetsToTxnResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
    ),
)

# EndTxn (key 26): commit or abort. From v5 (transactions v2) the response
# carries the producer id and epoch to use for the next transaction.
END_TXN = Api(
    "EndTxn", 26, (0, 5), flexible=3, route=Route.TXN_COORDINATOR,
    request=Struct(
        "EndTxnRequest",
        Field("transactional_id", STRING),
        Field("producer_id", INT64),
        Field("producer_epoch", INT16),
        Field("committed", BOOLEAN),
    ),
    response=Struct(
        "EndTxnResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("producer_id", INT64, "5+", default=-1, ignorable=True),
        Field("producer_epoch", INT16, "5+", default=-1, ignorable=True),
    ),
)

# TxnOffsetCommit (key 28): commit consumer offsets as part of a transaction;
# sent to the group coordinator.
TXN_OFFSET_COMMIT = Api(
    "TxnOffsetCommit", 28, (0, 5), flexible=3, route=Route.GROUP_COORDINATOR,
    request=Struct(
        "TxnOffsetCommitRequest",
        Field("transactional_id", STRING),
        Field("group_id", STRING),
        Field("producer_id", INT64),
        Field("producer_epoch", INT16),
        Field("generation_id", INT32, "3+", default=-1),
        Field("member_id", STRING, "3+", default=""),
        Field("group_instance_id", STRING, "3+", nullable="3+", default=None),
        Field("topics", Array(Struct(
            "TxnOffsetCommitRequestTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "TxnOffsetCommitRequestPartition",
                Field("partition_index", INT32),
                Field("committed_offset", INT64),
                Field("committed_leader_epoch", INT32, "2+", default=-1, ignorable=True),
                Field("committed_metadata", STRING, nullable="0+"),
            ))),
        ))),
    ),
    response=Struct(
        "TxnOffsetCommitResponse",
        Field("throttle_time_ms", INT32),
        Field("topics", Array(Struct(
            "TxnOffsetCommitResponseTopic",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "TxnOffsetCommitResponsePartition",
                Field("partition_index", INT32),
                Field("error_code", INT16),
            ))),
        ))),
    ),
)

# DescribeProducers (key 61): the active producers of partitions, asked of
# each partition's leader.
DESCRIBE_PRODUCERS = Api(
    "DescribeProducers", 61, (0, 0), flexible=0, route=Route.LEADER,
    request=Struct(
        "DescribeProducersRequest",
        Field("topics", Array(Struct(
            "TopicRequest",
            Field("name", STRING),
            Field("partition_indexes", Array(INT32)),
        ))),
    ),
    response=Struct(
        "DescribeProducersResponse",
        Field("throttle_time_ms", INT32),
        Field("topics", Array(Struct(
            "TopicResponse",
            Field("name", STRING),
            Field("partitions", Array(Struct(
                "PartitionResponse",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+", default=None),
                Field("active_producers", Array(Struct(
                    "ProducerState",
                    Field("producer_id", INT64),
                    Field("producer_epoch", INT32),
                    Field("last_sequence", INT32, default=-1),
                    Field("last_timestamp", INT64, default=-1),
                    Field("coordinator_epoch", INT32),
                    Field("current_txn_start_offset", INT64, default=-1),
                ))),
            ))),
        ))),
    ),
)
