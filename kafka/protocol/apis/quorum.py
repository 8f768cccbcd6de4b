"""Cluster-wide state: the KRaft quorum (key 55), finalized features (key 57)
and the list of config resources (key 74). All three are flexible from v0."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, INT64, STRING, UINT16, UUID

# Config resource type CLIENT_METRICS: the only kind ListConfigResources v0 lists.
_CLIENT_METRICS = 16

_REPLICA_STATE = Struct(
    "ReplicaState",
    Field("replica_id", INT32),
    Field("replica_directory_id", UUID, "2+"),
    Field("log_end_offset", INT64),
    Field("last_fetch_timestamp", INT64, "1+", default=-1, ignorable=True),
    Field("last_caught_up_timestamp", INT64, "1+", default=-1, ignorable=True),
)

# DescribeQuorum (key 55): leader, epoch, voters and observers of a KRaft
# partition (the cluster metadata log), and from v2 the controllers' endpoints.
DESCRIBE_QUORUM = Api(
    "DescribeQuorum", 55, (0, 2), flexible=0, route=Route.ANY,
    request=Struct(
        "DescribeQuorumRequest",
        Field("topics", Array(Struct(
            "TopicData",
            Field("topic_name", STRING),
            Field("partitions", Array(Struct(
                "PartitionData",
                Field("partition_index", INT32),
            ))),
        ))),
    ),
    response=Struct(
        "DescribeQuorumResponse",
        Field("error_code", INT16),
        Field("error_message", STRING, "2+", nullable="2+", ignorable=True),
        Field("topics", Array(Struct(
            "TopicData",
            Field("topic_name", STRING),
            Field("partitions", Array(Struct(
                "PartitionData",
                Field("partition_index", INT32),
                Field("error_code", INT16),
                Field("error_message", STRING, "2+", nullable="2+", ignorable=True),
                Field("leader_id", INT32),
                Field("leader_epoch", INT32),
                Field("high_watermark", INT64),
                Field("current_voters", Array(_REPLICA_STATE)),
                Field("observers", Array(_REPLICA_STATE)),
            ))),
        ))),
        Field("nodes", Array(Struct(
            "Node",
            Field("node_id", INT32, "2+"),
            Field("listeners", Array(Struct(
                "Listener",
                Field("name", STRING, "2+"),
                Field("host", STRING, "2+"),
                Field("port", UINT16, "2+"),
            )), "2+"),
        )), "2+"),
    ),
)

# UpdateFeatures (key 57): finalize feature levels (KIP-584). v1 adds
# validate_only and replaces allow_downgrade by an upgrade type; v2 answers
# with the top-level error alone.
UPDATE_FEATURES = Api(
    "UpdateFeatures", 57, (0, 2), flexible=0, route=Route.CONTROLLER,
    request=Struct(
        "UpdateFeaturesRequest",
        Field("timeout_ms", INT32, default=60000),
        Field("feature_updates", Array(Struct(
            "FeatureUpdateKey",
            Field("feature", STRING),
            Field("max_version_level", INT16),
            Field("allow_downgrade", BOOLEAN, "0"),
            Field("upgrade_type", INT8, "1+", default=1),
        ))),
        Field("validate_only", BOOLEAN, "1+"),
    ),
    response=Struct(
        "UpdateFeaturesResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+"),
        Field("results", Array(Struct(
            "UpdatableFeatureResult",
            Field("feature", STRING),
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+"),
        )), "0-1", ignorable=True),
    ),
)

# ListConfigResources (key 74, KIP-1142): the names of config resources,
# by type from v1 (v0 lists client-metrics resources only).
LIST_CONFIG_RESOURCES = Api(
    "ListConfigResources", 74, (0, 1), flexible=0, route=Route.ANY,
    request=Struct(
        "ListConfigResourcesRequest",
        Field("resource_types", Array(INT8), "1+"),
    ),
    response=Struct(
        "ListConfigResourcesResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("config_resources", Array(Struct(
            "ConfigResource",
            Field("resource_name", STRING),
            Field("resource_type", INT8, "1+", default=_CLIENT_METRICS, ignorable=True),
        ))),
    ),
)
