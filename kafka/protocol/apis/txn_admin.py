"""Transaction inspection and repair (KIP-664): WriteTxnMarkers (key 27),
DescribeTransactions (key 65) and ListTransactions (key 66)."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, INT64, STRING

# WriteTxnMarkers (key 27): write commit or abort markers into partitions;
# brokers send it, and an admin sends it to abort a hanging transaction.
# Kafka 4.0 dropped v0.
WRITE_TXN_MARKERS = Api(
    "WriteTxnMarkers", 27, (1, 2), flexible=1, route=Route.LEADER,
    request=Struct(
        "WriteTxnMarkersRequest",
        Field("markers", Array(Struct(
            "WritableTxnMarker",
            Field("producer_id", INT64),
            Field("producer_epoch", INT16),
            Field("transaction_result", BOOLEAN),
            Field("topics", Array(Struct(
                "WritableTxnMarkerTopic",
                Field("name", STRING),
                Field("partition_indexes", Array(INT32)),
            ))),
            Field("coordinator_epoch", INT32),
            Field("transaction_version", INT8, "2+", ignorable=True),
        ))),
    ),
    response=Struct(
        "WriteTxnMarkersResponse",
        Field("markers", Array(Struct(
            "WritableTxnMarkerResult",
            Field("producer_id", INT64),
            Field("topics", Array(Struct(
                "WritableTxnMarkerTopicResult",
                Field("name", STRING),
                Field("partitions", Array(Struct(
                    "WritableTxnMarkerPartitionResult",
                    Field("partition_index", INT32),
                    Field("error_code", INT16),
                ))),
            ))),
        ))),
    ),
)

# DescribeTransactions (key 65): the state of transactional ids, asked of
# their transaction coordinator.
DESCRIBE_TRANSACTIONS = Api(
    "DescribeTransactions", 65, (0, 0), flexible=0, route=Route.TXN_COORDINATOR,
    request=Struct(
        "DescribeTransactionsRequest",
        Field("transactional_ids", Array(STRING)),
    ),
    response=Struct(
        "DescribeTransactionsResponse",
        Field("throttle_time_ms", INT32),
        Field("transaction_states", Array(Struct(
            "TransactionState",
            Field("error_code", INT16),
            Field("transactional_id", STRING),
            Field("transaction_state", STRING),
            Field("transaction_timeout_ms", INT32),
            Field("transaction_start_time_ms", INT64),
            Field("producer_id", INT64),
            Field("producer_epoch", INT16),
            Field("topics", Array(Struct(
                "TopicData",
                Field("topic", STRING),
                Field("partitions", Array(INT32)),
            ))),
        ))),
    ),
)

# ListTransactions (key 66): the transactions one broker coordinates, filtered
# by state and producer id, from v1 by age, from v2 by an id pattern.
LIST_TRANSACTIONS = Api(
    "ListTransactions", 66, (0, 2), flexible=0, route=Route.ANY,
    request=Struct(
        "ListTransactionsRequest",
        Field("state_filters", Array(STRING)),
        Field("producer_id_filters", Array(INT64)),
        Field("duration_filter", INT64, "1+", default=-1),
        Field("transactional_id_pattern", STRING, "2+", nullable="2+", default=None),
    ),
    response=Struct(
        "ListTransactionsResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("unknown_state_filters", Array(STRING)),
        Field("transaction_states", Array(Struct(
            "TransactionState",
            Field("transactional_id", STRING),
            Field("producer_id", INT64),
            Field("transaction_state", STRING),
        ))),
    ),
)
