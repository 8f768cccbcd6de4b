"""Access control lists: DescribeAcls, CreateAcls, DeleteAcls."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, INT8, INT16, INT32, STRING

# Resource pattern type LITERAL: what v0, which had no pattern types, meant.
_LITERAL = 3

# DescribeAcls (key 29): list the ACL bindings matching a filter. Kafka 4.0
# dropped v0 (no pattern type).
DESCRIBE_ACLS = Api(
    "DescribeAcls", 29, (0, 3), flexible=2, min_send=1, route=Route.ANY,
    request=Struct(
        "DescribeAclsRequest",
        Field("resource_type_filter", INT8),
        Field("resource_name_filter", STRING, nullable="0+"),
        Field("pattern_type_filter", INT8, "1+", default=_LITERAL),
        Field("principal_filter", STRING, nullable="0+"),
        Field("host_filter", STRING, nullable="0+"),
        Field("operation", INT8),
        Field("permission_type", INT8),
    ),
    response=Struct(
        "DescribeAclsResponse",
        Field("throttle_time_ms", INT32),
        Field("error_code", INT16),
        Field("error_message", STRING, nullable="0+"),
        Field("resources", Array(Struct(
            "DescribeAclsResource",
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("pattern_type", INT8, "1+", default=_LITERAL),
            Field("acls", Array(Struct(
                "AclDescription",
                Field("principal", STRING),
                Field("host", STRING),
                Field("operation", INT8),
                Field("permission_type", INT8),
            ))),
        ))),
    ),
)

# CreateAcls (key 30): add ACL bindings. Kafka 4.0 dropped v0.
CREATE_ACLS = Api(
    "CreateAcls", 30, (0, 3), flexible=2, min_send=1, route=Route.ANY,
    request=Struct(
        "CreateAclsRequest",
        Field("creations", Array(Struct(
            "AclCreation",
            Field("resource_type", INT8),
            Field("resource_name", STRING),
            Field("resource_pattern_type", INT8, "1+", default=_LITERAL),
            Field("principal", STRING),
            Field("host", STRING),
            Field("operation", INT8),
            Field("permission_type", INT8),
        ))),
    ),
    response=Struct(
        "CreateAclsResponse",
        Field("throttle_time_ms", INT32),
        Field("results", Array(Struct(
            "AclCreationResult",
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+"),
        ))),
    ),
)

# DeleteAcls (key 31): remove the ACL bindings matching each filter and report
# what was removed. Kafka 4.0 dropped v0.
DELETE_ACLS = Api(
    "DeleteAcls", 31, (0, 3), flexible=2, min_send=1, route=Route.ANY,
    request=Struct(
        "DeleteAclsRequest",
        Field("filters", Array(Struct(
            "DeleteAclsFilter",
            Field("resource_type_filter", INT8),
            Field("resource_name_filter", STRING, nullable="0+"),
            Field("pattern_type_filter", INT8, "1+", default=_LITERAL),
            Field("principal_filter", STRING, nullable="0+"),
            Field("host_filter", STRING, nullable="0+"),
            Field("operation", INT8),
            Field("permission_type", INT8),
        ))),
    ),
    response=Struct(
        "DeleteAclsResponse",
        Field("throttle_time_ms", INT32),
        Field("filter_results", Array(Struct(
            "DeleteAclsFilterResult",
            Field("error_code", INT16),
            Field("error_message", STRING, nullable="0+"),
            Field("matching_acls", Array(Struct(
                "DeleteAclsMatchingAcl",
                Field("error_code", INT16),
                Field("error_message", STRING, nullable="0+"),
                Field("resource_type", INT8),
                Field("resource_name", STRING),
                Field("pattern_type", INT8, "1+", default=_LITERAL),
                Field("principal", STRING),
                Field("host", STRING),
                Field("operation", INT8),
                Field("permission_type", INT8),
            ))),
        ))),
    ),
)
