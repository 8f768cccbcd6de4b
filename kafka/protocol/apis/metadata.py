"""Metadata (key 3) and DescribeCluster (key 60): brokers, topics, partitions and leaders."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, STRING, UUID

# Sentinel meaning "authorized operations were not requested".
_NO_AUTHORIZED_OPERATIONS = -2147483648

# Metadata: the cluster's brokers and the partition layout of some or all topics.
# v0 reads an empty topic list as "all topics"; from v1 on null means all topics.
METADATA = Api(
    "Metadata", 3, (0, 13), flexible=9, route=Route.ANY,
    request=Struct(
        "MetadataRequest",
        Field("topics", Array(Struct(
            "MetadataRequestTopic",
            Field("topic_id", UUID, "10+", ignorable=True),
            Field("name", STRING, nullable="10+"),
        )), nullable="1+"),
        Field("allow_auto_topic_creation", BOOLEAN, "4+", default=True),
        Field("include_cluster_authorized_operations", BOOLEAN, "8-10"),
        Field("include_topic_authorized_operations", BOOLEAN, "8+"),
    ),
    response=Struct(
        "MetadataResponse",
        Field("throttle_time_ms", INT32, "3+", ignorable=True),
        Field("brokers", Array(Struct(
            "MetadataResponseBroker",
            Field("node_id", INT32),
            Field("host", STRING),
            Field("port", INT32),
            Field("rack", STRING, "1+", nullable="1+", default=None, ignorable=True),
        ))),
        Field("cluster_id", STRING, "2+", nullable="2+", default=None, ignorable=True),
        Field("controller_id", INT32, "1+", default=-1, ignorable=True),
        Field("topics", Array(Struct(
            "MetadataResponseTopic",
            Field("error_code", INT16),
            Field("name", STRING, nullable="12+"),
            Field("topic_id", UUID, "10+", ignorable=True),
            Field("is_internal", BOOLEAN, "1+", default=False, ignorable=True),
            Field("partitions", Array(Struct(
                "MetadataResponsePartition",
                Field("error_code", INT16),
                Field("partition_index", INT32),
                Field("leader_id", INT32),
                Field("leader_epoch", INT32, "7+", default=-1, ignorable=True),
                Field("replica_nodes", Array(INT32)),
                Field("isr_nodes", Array(INT32)),
                Field("offline_replicas", Array(INT32), "5+", ignorable=True),
            ))),
            Field("topic_authorized_operations", INT32, "8+", default=_NO_AUTHORIZED_OPERATIONS),
        ))),
        Field("cluster_authorized_operations", INT32, "8-10", default=_NO_AUTHORIZED_OPERATIONS),
        Field("error_code", INT16, "13+", ignorable=True),
    ),
)

# DescribeCluster: cluster id, controller and brokers (flexible from the start).
DESCRIBE_CLUSTER = Api(
    "DescribeCluster", 60, (0, 2), flexible=0, route=Route.ANY,
    request=Struct(
        "DescribeClusterRequest",
        Field("include_cluster_authorized_operations", BOOLEAN),
        Field("endpoint_type", INT8, "1+", default=1),
        Field("include_fenced_brokers", BOOLEAN, "2+"),
    ),
    response=Struct(
        "DescribeClusterResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+", default=None),
        Field("endpoint_type", INT8, "1+", default=1),
        Field("cluster_id", STRING),
        Field("controller_id", INT32, default=-1),
        Field("brokers", Array(Struct(
            "DescribeClusterBroker",
            Field("broker_id", INT32),
            Field("host", STRING),
            Field("port", INT32),
            Field("rack", STRING, nullable="0+", default=None),
            Field("is_fenced", BOOLEAN, "2+"),
        ))),
        Field("cluster_authorized_operations", INT32, default=_NO_AUTHORIZED_OPERATIONS),
    ),
)
