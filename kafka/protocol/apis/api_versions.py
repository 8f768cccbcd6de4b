"""ApiVersions (key 18): which versions of each API a broker supports."""

from kafka.protocol.schema import Api, Field, Route, Struct
from kafka.protocol.types import Array, INT16, INT32, INT64, BOOLEAN, STRING

# v3 goes flexible and names the client software (KIP-511); v4 only lets
# SupportedFeatures.MinVersion be 0 (KAFKA-17011).
API_VERSIONS = Api(
    "ApiVersions", 18, (0, 4), flexible=3, route=Route.CONNECTION,
    request=Struct(
        "ApiVersionsRequest",
        Field("client_software_name", STRING, "3+", ignorable=True),
        Field("client_software_version", STRING, "3+", ignorable=True),
    ),
    response=Struct(
        "ApiVersionsResponse",
        Field("error_code", INT16),
        Field("api_keys", Array(Struct(
            "ApiVersion",
            Field("api_key", INT16),
            Field("min_version", INT16),
            Field("max_version", INT16),
        ))),
        Field("throttle_time_ms", INT32, "1+", ignorable=True),
        Field("supported_features", Array(Struct(
            "SupportedFeatureKey",
            Field("name", STRING, "3+"),
            Field("min_version", INT16, "3+"),
            Field("max_version", INT16, "3+"),
        )), "3+", tag=0, ignorable=True),
        Field("finalized_features_epoch", INT64, "3+", tag=1, default=-1, ignorable=True),
        Field("finalized_features", Array(Struct(
            "FinalizedFeatureKey",
            Field("name", STRING, "3+"),
            Field("max_version_level", INT16, "3+"),
            Field("min_version_level", INT16, "3+"),
        )), "3+", tag=2, ignorable=True),
        Field("zk_migration_ready", BOOLEAN, "3+", tag=3, default=False, ignorable=True),
    ),
)
