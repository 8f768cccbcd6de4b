"""Topic and config administration: create/delete topics, add partitions, describe/alter configs."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, BOOLEAN, INT8, INT16, INT32, STRING, UUID

# CreateTopics (key 19): create topics, optionally with explicit replica
# assignments and configs. Kafka 4.0 dropped v0-1; v5+ echoes the resulting
# configs, v7 the new topic id.
CREATE_TOPICS = Api(
    "CreateTopics", 19, (0, 7), flexible=5, min_send=2, route=Route.CONTROLLER,
    request=Struct(
        "CreateTopicsRequest",
        Field("topics", Array(Struct(
            "CreatableTopic",
            Field("name", STRING),
            Field("num_partitions", INT32),
            Field("replication_factor", INT16),
            Field("assignments", Array(Struct(
                "CreatableReplicaAssignment",
                Field("partition_index", INT32),
                Field("broker_ids", Array(INT32)),
            ))),
            Field("configs", Array(Struct(
                "CreatableTopicConfig",
                Field("name", STRING),
                Field("value", STRING, nullable="0+"),
            ))),
        ))),
        Field("timeout_ms", INT32, default=60000),
        Field("validate_only", BOOLEAN, "1+", default=False),
    ),
    response=Struct(
        "CreateTopicsResponse",
        Field("throttle_time_ms", INT32, "2+", ignorable=True),
        Field("topics", Array(Struct(
            "CreatableTopicResult",
            Field("name", STRING),
            Field("topic_id", UUID, "7+", ignorable=True),
            Field("error_code", INT16),
            Field("error_message", STRING, "1+", nullable="0+", ignorable=True),
            Field("topic_config_error_code", INT16, "5+", tag=0, ignorable=True),
            Field("num_partitions", INT32, "5+", default=-1, ignorable=True),
            Field("replication_factor", INT16, "5+", default=-1, ignorable=True),
            Field("configs", Array(Struct(
                "CreatableTopicConfigs",
                Field("name", STRING, "5+"),
                Field("value", STRING, "5+", nullable="5+"),
                Field("read_only", BOOLEAN, "5+"),
                Field("config_source", INT8, "5+", default=-1, ignorable=True),
                Field("is_sensitive", BOOLEAN, "5+"),
            )), "5+", nullable="5+", ignorable=True),
        ))),
    ),
)

# DeleteTopics (key 20): delete topics by name, or from v6 by name or id.
# Kafka 4.0 dropped v0.
DELETE_TOPICS = Api(
    "DeleteTopics", 20, (0, 6), flexible=4, min_send=1, route=Route.CONTROLLER,
    request=Struct(
        "DeleteTopicsRequest",
        Field("topics", Array(Struct(
            "DeleteTopicState",
            Field("name", STRING, "6+", nullable="6+", default=None),
            Field("topic_id", UUID, "6+"),
        )), "6+"),
        Field("topic_names", Array(STRING), "0-5", ignorable=True),
        Field("timeout_ms", INT32),
    ),
    response=Struct(
        "DeleteTopicsResponse",
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("responses", Array(Struct(
            "DeletableTopicResult",
            Field("name", STRING, nullable="6+"),
            Field("topic_id", UUID, "6+", ignorable=True),
            Field("error_code", INT16),
            Field("error_message", STRING, "5+", nullable="5+", default=None, ignorable=True),
        ))),
    ),
)

# CreatePartitions (key 37): raise the partition count of existing topics,
# optionally placing the new partitions' replicas.
CREATE_PARTITIONS = Api(
    "CreatePartitions", 37, (0, 3), flexible=2, route=Route.CONTROLLER,
    request=Struct(
        "CreatePartitionsRequest",
        Field("topics", Array(Struct(
            "CreatePartitionsTopic",
            Field("name", STRING),
            Field("count", INT32),
            Field("assignments", Array(Struct(
                "CreatePartitionsAssignment",
                Field("broker_ids", Array(INT32)),
            )), nullable="0+"),
        ))),
        Field("timeout_ms", INT32),
        Field("validate_only", BOOLEAN),
    ),
    response=Struct(
        "CreatePartitionsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "CreatePartitionsTopicResult",
            Field("name", STRING),
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+", default=None),
        ))),
    ),
)

# DescribeConfigs (key 32): read the configs of topics, brokers and other
# resources. Kafka 4.0 dropped v0 (which had is_default instead of sources
# and synonyms).
DESCRIBE_CONFIGS = Api(
    "DescribeConfigs", 32, (0, 4), flexible=4, min_send=1, route=Route.ANY,
    request=Struct(
        "DescribeConfigsRequest",
        Field("resources", Array(Struct(
            "DescribeConfigsResource",
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("configuration_keys", Array(STRING), nullable="0+"),
        ))),
        Field("include_synonyms", BOOLEAN, "1+", default=False),
        Field("include_documentation", BOOLEAN, "3+", default=False),
    ),
    response=Struct(
        "DescribeConfigsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "DescribeConfigsResult",
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+"),
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("configs", Array(Struct(
                "DescribeConfigsResourceResult",
                Field("name", STRING),
                Field("value", STRING, nullable="0+"),
                Field("read_only", BOOLEAN),
                Field("config_source", INT8, "1+", default=-1, ignorable=True),
                Field("is_default", BOOLEAN, "0"),
                Field("is_sensitive", BOOLEAN),
                Field("synonyms", Array(Struct(
                    "DescribeConfigsSynonym",
                    Field("name", STRING, "1+"),
                    Field("value", STRING, "1+", nullable="0+"),
                    Field("source", INT8, "1+"),
                )), "1+", ignorable=True),
                Field("config_type", INT8, "3+", default=0, ignorable=True),
                Field("documentation", STRING, "3+", nullable="0+", ignorable=True),
            ))),
        ))),
    ),
)

# Per-resource outcome shared by AlterConfigs and IncrementalAlterConfigs.
_ALTER_CONFIGS_RESOURCE_RESPONSE = Struct(
    "AlterConfigsResourceResponse",
    Field("error_code", INT16),
    Field("error_message", STRING, nullable="0+"),
    Field("resource_type", INT8),
    Field("resource_name", STRING),
)

# AlterConfigs (key 33): replace the whole config set of resources (the
# older counterpart of IncrementalAlterConfigs).
ALTER_CONFIGS = Api(
    "AlterConfigs", 33, (0, 2), flexible=2, route=Route.ANY,
    request=Struct(
        "AlterConfigsRequest",
        Field("resources", Array(Struct(
            "AlterConfigsResource",
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("configs", Array(Struct(
                "AlterableConfig",
                Field("name", STRING),
                Field("value", STRING, nullable="0+"),
            ))),
        ))),
        Field("validate_only", BOOLEAN),
    ),
    response=Struct(
        "AlterConfigsResponse",
        Field("throttle_time_ms", INT32),
        Field("responses", Array(_ALTER_CONFIGS_RESOURCE_RESPONSE)),
    ),
)

# IncrementalAlterConfigs (key 44): set, delete, append to or subtract from
# individual config entries.
INCREMENTAL_ALTER_CONFIGS = Api(
    "IncrementalAlterConfigs", 44, (0, 1), flexible=1, route=Route.ANY,
    request=Struct(
        "IncrementalAlterConfigsRequest",
        Field("resources", Array(Struct(
            "AlterConfigsResource",
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("configs", Array(Struct(
                "AlterableConfig",
                Field("name", STRING),
                Field("config_operation", INT8),
                Field("value", STRING, nullable="0+"),
            ))),
        ))),
        Field("validate_only", BOOLEAN),
    ),
    response=Struct(
        "IncrementalAlterConfigsResponse",
        Field("throttle_time_ms", INT32),
        Field("responses", Array(_ALTER_CONFIGS_RESOURCE_RESPONSE)),
    ),
)
