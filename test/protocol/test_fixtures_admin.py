"""Byte-exact fixtures, written by hand from the protocol spec, for the admin and ACL APIs.

Each fixture is (api, version, "request" | "response", value, hex). The hex is
annotated field by field; both directions are checked: encoding the value gives
exactly these bytes and decoding these bytes gives back the value. Versions that
Kafka 4.0 removed (CreateTopics v0-1, DeleteTopics v0, DescribeConfigs v0,
the ACL APIs' v0) are covered too: we still decode them.
"""

from __future__ import annotations

import uuid

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis.acls import CREATE_ACLS, DELETE_ACLS, DESCRIBE_ACLS
from kafka.protocol.apis.admin import (
    ALTER_CONFIGS, CREATE_PARTITIONS, CREATE_TOPICS, DELETE_TOPICS, DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
)

ID_A = uuid.UUID("0123456789abcdef0123456789abcdef")
ID_1 = uuid.UUID(int=1)

CT = CREATE_TOPICS
CT_TOPIC = CT.Request.CreatableTopic
CT_RESULT = CT.Response.CreatableTopicResult
DT = DELETE_TOPICS
DT_RESULT = DT.Response.DeletableTopicResult
CP = CREATE_PARTITIONS
CP_TOPIC = CP.Request.CreatePartitionsTopic
CP_RESULT = CP.Response.CreatePartitionsTopicResult
DC = DESCRIBE_CONFIGS
DC_RESOURCE = DC.Request.DescribeConfigsResource
DC_RESULT = DC.Response.DescribeConfigsResult
DC_CONFIG = DC_RESULT.DescribeConfigsResourceResult
AC = ALTER_CONFIGS
AC_RESOURCE = AC.Request.AlterConfigsResource
AC_RESULT = AC.Response.AlterConfigsResourceResponse
IAC = INCREMENTAL_ALTER_CONFIGS
IAC_RESOURCE = IAC.Request.AlterConfigsResource
IAC_RESULT = IAC.Response.AlterConfigsResourceResponse
DA = DESCRIBE_ACLS
DA_RESOURCE = DA.Response.DescribeAclsResource
CA = CREATE_ACLS
CA_CREATION = CA.Request.AclCreation
CA_RESULT = CA.Response.AclCreationResult
XA = DELETE_ACLS
XA_FILTER = XA.Request.DeleteAclsFilter
XA_RESULT = XA.Response.DeleteAclsFilterResult
XA_MATCH = XA_RESULT.DeleteAclsMatchingAcl

FIXTURES = [
    # -- CreateTopics --------------------------------------------------------
    pytest.param(
        CT, 1, "request",
        CT.Request(topics=[CT_TOPIC(
            name="foo", num_partitions=-1, replication_factor=-1,
            assignments=[CT_TOPIC.CreatableReplicaAssignment(partition_index=0, broker_ids=[1, 2])],
            configs=[CT_TOPIC.CreatableTopicConfig(name="k", value="v"),
                     CT_TOPIC.CreatableTopicConfig(name="n", value=None)])],
            timeout_ms=30000, validate_only=True),
        "00000001"              # topics: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "ffffffff"              #   num_partitions: -1
        "ffff"                  #   replication_factor: -1
        "00000001"              #   assignments: 1 entry
        "00000000"              #     partition_index: 0
        "00000002"              #     broker_ids: 2 entries
        "00000001" "00000002"   #       1, 2
        "00000002"              #   configs: 2 entries
        "0001" "6b" "0001" "76"  #     "k" = "v"
        "0001" "6e" "ffff"      #     "n" = null
        "00007530"              # timeout_ms: 30000
        "01",                   # validate_only: true (v1+)
        id="CreateTopics-v1-request",
    ),
    pytest.param(
        CT, 1, "response",
        CT.Response(topics=[CT_RESULT(name="foo", error_code=0, error_message=None),
                            CT_RESULT(name="bar", error_code=36, error_message="dup")]),
        "00000002"              # topics: 2 entries (no throttle_time_ms before v2)
        "0003" "666f6f"         #   name: "foo"
        "0000"                  #   error_code
        "ffff"                  #   error_message: null (v1+)
        "0003" "626172"         #   name: "bar"
        "0024"                  #   error_code: 36
        "0003" "647570",        #   error_message: "dup"
        id="CreateTopics-v1-response",
    ),
    pytest.param(
        CT, 3, "response",
        CT.Response(throttle_time_ms=100, topics=[CT_RESULT(name="foo", error_code=0, error_message=None)]),
        "00000064"              # throttle_time_ms: 100 (v2+)
        "00000001"              # topics: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "0000"                  #   error_code
        "ffff",                 #   error_message: null
        id="CreateTopics-v3-response",
    ),
    pytest.param(
        CT, 7, "request",
        CT.Request(topics=[CT_TOPIC(
            name="foo", num_partitions=3, replication_factor=2, assignments=[],
            configs=[CT_TOPIC.CreatableTopicConfig(name="k", value="v"),
                     CT_TOPIC.CreatableTopicConfig(name="n", value=None)])],
            timeout_ms=30000, validate_only=True),
        "02"                    # topics: 1 entry
        "04" "666f6f"           #   name: "foo"
        "00000003"              #   num_partitions: 3
        "0002"                  #   replication_factor: 2
        "01"                    #   assignments: empty
        "03"                    #   configs: 2 entries
        "02" "6b" "02" "76" "00"  #     "k" = "v", no tagged fields
        "02" "6e" "00" "00"     #     "n" = null, no tagged fields
        "00"                    #   topic: no tagged fields
        "00007530"              # timeout_ms: 30000
        "01"                    # validate_only: true
        "00",                   # no tagged fields
        id="CreateTopics-v7-request",
    ),
    pytest.param(
        CT, 7, "response",
        CT.Response(throttle_time_ms=5, topics=[
            CT_RESULT(name="foo", topic_id=ID_A, error_code=0, error_message=None,
                      topic_config_error_code=29, num_partitions=3, replication_factor=2,
                      configs=[CT_RESULT.CreatableTopicConfigs(name="k", value="v", read_only=False,
                                                               config_source=1, is_sensitive=True)]),
            CT_RESULT(name="bar", error_code=36, error_message="dup", configs=None),
        ]),
        "00000005"              # throttle_time_ms: 5
        "03"                    # topics: 2 entries
        "04" "666f6f"           #   name: "foo"
        "0123456789abcdef0123456789abcdef"  # topic_id (v7+)
        "0000"                  #   error_code
        "00"                    #   error_message: null
        "00000003"              #   num_partitions: 3
        "0002"                  #   replication_factor: 2
        "02"                    #   configs: 1 entry
        "02" "6b"               #     name: "k"
        "02" "76"               #     value: "v"
        "00"                    #     read_only: false
        "01"                    #     config_source: 1
        "01"                    #     is_sensitive: true
        "00"                    #     config: no tagged fields
        "01"                    #   topic: 1 tagged field
        "00" "02" "001d"        #     tag 0 (topic_config_error_code), 2 bytes: 29
        "04" "626172"           #   name: "bar"
        "00000000000000000000000000000000"  # topic_id: zero uuid
        "0024"                  #   error_code: 36
        "04" "647570"           #   error_message: "dup"
        "ffffffff"              #   num_partitions: -1 (default)
        "ffff"                  #   replication_factor: -1 (default)
        "00"                    #   configs: null
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="CreateTopics-v7-response",
    ),
    # -- DeleteTopics --------------------------------------------------------
    pytest.param(
        DT, 0, "request",
        DT.Request(topic_names=["foo", "bar"], timeout_ms=30000),
        "00000002"              # topic_names: 2 entries
        "0003" "666f6f"         #   "foo"
        "0003" "626172"         #   "bar"
        "00007530",             # timeout_ms: 30000
        id="DeleteTopics-v0-request",
    ),
    pytest.param(
        DT, 0, "response",
        DT.Response(responses=[DT_RESULT(name="foo", error_code=3)]),
        "00000001"              # responses: 1 entry (no throttle_time_ms in v0)
        "0003" "666f6f"         #   name: "foo"
        "0003",                 #   error_code: 3
        id="DeleteTopics-v0-response",
    ),
    pytest.param(
        DT, 3, "response",
        DT.Response(throttle_time_ms=9, responses=[DT_RESULT(name="foo", error_code=0)]),
        "00000009"              # throttle_time_ms: 9 (v1+)
        "00000001"              # responses: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "0000",                 #   error_code
        id="DeleteTopics-v3-response",
    ),
    pytest.param(
        DT, 5, "request",
        DT.Request(topic_names=["foo", "bar"], timeout_ms=30000),
        "03"                    # topic_names: 2 entries
        "04" "666f6f"           #   "foo"
        "04" "626172"           #   "bar"
        "00007530"              # timeout_ms: 30000
        "00",                   # no tagged fields
        id="DeleteTopics-v5-request",
    ),
    pytest.param(
        DT, 6, "request",
        DT.Request(topics=[DT.Request.DeleteTopicState(name="foo", topic_id=ID_1),
                           DT.Request.DeleteTopicState(name=None, topic_id=ID_A)],
                   timeout_ms=30000),
        "03"                    # topics: 2 entries
        "04" "666f6f"           #   name: "foo"
        "00000000000000000000000000000001"  # topic_id
        "00"                    #   no tagged fields
        "00"                    #   name: null
        "0123456789abcdef0123456789abcdef"  # topic_id
        "00"                    #   no tagged fields
        "00007530"              # timeout_ms: 30000
        "00",                   # no tagged fields
        id="DeleteTopics-v6-request",
    ),
    pytest.param(
        DT, 6, "response",
        DT.Response(throttle_time_ms=9, responses=[
            DT_RESULT(name="foo", topic_id=ID_1, error_code=0, error_message=None),
            DT_RESULT(name=None, topic_id=ID_A, error_code=100, error_message="gone")]),
        "00000009"              # throttle_time_ms: 9
        "03"                    # responses: 2 entries
        "04" "666f6f"           #   name: "foo"
        "00000000000000000000000000000001"  # topic_id
        "0000"                  #   error_code
        "00"                    #   error_message: null
        "00"                    #   no tagged fields
        "00"                    #   name: null (v6+)
        "0123456789abcdef0123456789abcdef"  # topic_id
        "0064"                  #   error_code: 100
        "05" "676f6e65"         #   error_message: "gone"
        "00"                    #   no tagged fields
        "00",                   # no tagged fields
        id="DeleteTopics-v6-response",
    ),
    # -- CreatePartitions ----------------------------------------------------
    pytest.param(
        CP, 1, "request",
        CP.Request(topics=[
            CP_TOPIC(name="foo", count=6,
                     assignments=[CP_TOPIC.CreatePartitionsAssignment(broker_ids=[1, 2])]),
            CP_TOPIC(name="bar", count=4, assignments=None)],
            timeout_ms=30000, validate_only=True),
        "00000002"              # topics: 2 entries
        "0003" "666f6f"         #   name: "foo"
        "00000006"              #   count: 6
        "00000001"              #   assignments: 1 entry
        "00000002"              #     broker_ids: 2 entries
        "00000001" "00000002"   #       1, 2
        "0003" "626172"         #   name: "bar"
        "00000004"              #   count: 4
        "ffffffff"              #   assignments: null
        "00007530"              # timeout_ms: 30000
        "01",                   # validate_only: true
        id="CreatePartitions-v1-request",
    ),
    pytest.param(
        CP, 1, "response",
        CP.Response(throttle_time_ms=3, results=[
            CP_RESULT(name="foo", error_code=0, error_message=None),
            CP_RESULT(name="bar", error_code=37, error_message="bad")]),
        "00000003"              # throttle_time_ms: 3
        "00000002"              # results: 2 entries
        "0003" "666f6f"         #   name: "foo"
        "0000"                  #   error_code
        "ffff"                  #   error_message: null
        "0003" "626172"         #   name: "bar"
        "0025"                  #   error_code: 37
        "0003" "626164",        #   error_message: "bad"
        id="CreatePartitions-v1-response",
    ),
    pytest.param(
        CP, 3, "request",
        CP.Request(topics=[
            CP_TOPIC(name="foo", count=6,
                     assignments=[CP_TOPIC.CreatePartitionsAssignment(broker_ids=[1, 2])]),
            CP_TOPIC(name="bar", count=4, assignments=None)],
            timeout_ms=30000, validate_only=True),
        "03"                    # topics: 2 entries
        "04" "666f6f"           #   name: "foo"
        "00000006"              #   count: 6
        "02"                    #   assignments: 1 entry
        "03" "00000001" "00000002"  # broker_ids: [1, 2]
        "00"                    #     assignment: no tagged fields
        "00"                    #   topic: no tagged fields
        "04" "626172"           #   name: "bar"
        "00000004"              #   count: 4
        "00"                    #   assignments: null
        "00"                    #   topic: no tagged fields
        "00007530"              # timeout_ms: 30000
        "01"                    # validate_only: true
        "00",                   # no tagged fields
        id="CreatePartitions-v3-request",
    ),
    pytest.param(
        CP, 3, "response",
        CP.Response(throttle_time_ms=3, results=[
            CP_RESULT(name="foo", error_code=0, error_message=None),
            CP_RESULT(name="bar", error_code=37, error_message="bad")]),
        "00000003"              # throttle_time_ms: 3
        "03"                    # results: 2 entries
        "04" "666f6f" "0000" "00" "00"    # "foo", no error, null message, no tagged fields
        "04" "626172" "0025" "04" "626164" "00"  # "bar", error 37, "bad", no tagged fields
        "00",                   # no tagged fields
        id="CreatePartitions-v3-response",
    ),
    # -- DescribeConfigs -----------------------------------------------------
    pytest.param(
        DC, 0, "request",
        DC.Request(resources=[DC_RESOURCE(resource_type=2, resource_name="foo", configuration_keys=["k"]),
                              DC_RESOURCE(resource_type=4, resource_name="1", configuration_keys=None)]),
        "00000002"              # resources: 2 entries
        "02"                    #   resource_type: 2 (topic)
        "0003" "666f6f"         #   resource_name: "foo"
        "00000001" "0001" "6b"  #   configuration_keys: ["k"]
        "04"                    #   resource_type: 4 (broker)
        "0001" "31"             #   resource_name: "1"
        "ffffffff",             #   configuration_keys: null
        id="DescribeConfigs-v0-request",
    ),
    pytest.param(
        DC, 0, "response",
        DC.Response(throttle_time_ms=1, results=[DC_RESULT(
            error_code=0, error_message=None, resource_type=2, resource_name="foo",
            configs=[DC_CONFIG(name="k", value="v", read_only=False, is_default=True,
                               is_sensitive=False)])]),
        "00000001"              # throttle_time_ms: 1
        "00000001"              # results: 1 entry
        "0000"                  #   error_code
        "ffff"                  #   error_message: null
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "00000001"              #   configs: 1 entry
        "0001" "6b"             #     name: "k"
        "0001" "76"             #     value: "v"
        "00"                    #     read_only: false
        "01"                    #     is_default: true (v0 only)
        "00",                   #     is_sensitive: false
        id="DescribeConfigs-v0-response",
    ),
    pytest.param(
        DC, 3, "request",
        DC.Request(resources=[DC_RESOURCE(resource_type=2, resource_name="foo", configuration_keys=None)],
                   include_synonyms=True, include_documentation=True),
        "00000001"              # resources: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "ffffffff"              #   configuration_keys: null
        "01"                    # include_synonyms: true (v1+)
        "01",                   # include_documentation: true (v3+)
        id="DescribeConfigs-v3-request",
    ),
    pytest.param(
        DC, 3, "response",
        DC.Response(throttle_time_ms=2, results=[DC_RESULT(
            error_code=0, error_message=None, resource_type=2, resource_name="foo",
            configs=[DC_CONFIG(name="k", value=None, read_only=True, config_source=1, is_sensitive=True,
                               synonyms=[DC_CONFIG.DescribeConfigsSynonym(name="k", value=None, source=1)],
                               config_type=2, documentation="doc")])]),
        "00000002"              # throttle_time_ms: 2
        "00000001"              # results: 1 entry
        "0000"                  #   error_code
        "ffff"                  #   error_message: null
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "00000001"              #   configs: 1 entry
        "0001" "6b"             #     name: "k"
        "ffff"                  #     value: null
        "01"                    #     read_only: true
        "01"                    #     config_source: 1 (v1+)
        "01"                    #     is_sensitive: true
        "00000001"              #     synonyms: 1 entry (v1+)
        "0001" "6b" "ffff" "01"  #       "k", null value, source 1
        "02"                    #     config_type: 2 (v3+)
        "0003" "646f63",        #     documentation: "doc" (v3+)
        id="DescribeConfigs-v3-response",
    ),
    pytest.param(
        DC, 4, "request",
        DC.Request(resources=[DC_RESOURCE(resource_type=2, resource_name="foo", configuration_keys=["k"])],
                   include_synonyms=True, include_documentation=False),
        "02"                    # resources: 1 entry
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "02" "02" "6b"          #   configuration_keys: ["k"]
        "00"                    #   resource: no tagged fields
        "01"                    # include_synonyms: true
        "00"                    # include_documentation: false
        "00",                   # no tagged fields
        id="DescribeConfigs-v4-request",
    ),
    pytest.param(
        DC, 4, "response",
        DC.Response(throttle_time_ms=0, results=[DC_RESULT(
            error_code=0, error_message=None, resource_type=2, resource_name="foo",
            configs=[DC_CONFIG(name="k", value="v", read_only=False, config_source=5, is_sensitive=False,
                               synonyms=[], config_type=1, documentation=None)])]),
        "00000000"              # throttle_time_ms: 0
        "02"                    # results: 1 entry
        "0000"                  #   error_code
        "00"                    #   error_message: null
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "02"                    #   configs: 1 entry
        "02" "6b"               #     name: "k"
        "02" "76"               #     value: "v"
        "00"                    #     read_only: false
        "05"                    #     config_source: 5
        "00"                    #     is_sensitive: false
        "01"                    #     synonyms: empty
        "01"                    #     config_type: 1
        "00"                    #     documentation: null
        "00"                    #     config: no tagged fields
        "00"                    #   result: no tagged fields
        "00",                   # no tagged fields
        id="DescribeConfigs-v4-response",
    ),
    # -- AlterConfigs --------------------------------------------------------
    pytest.param(
        AC, 1, "request",
        AC.Request(resources=[AC_RESOURCE(resource_type=2, resource_name="foo", configs=[
            AC_RESOURCE.AlterableConfig(name="k", value="v"),
            AC_RESOURCE.AlterableConfig(name="n", value=None)])], validate_only=True),
        "00000001"              # resources: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "00000002"              #   configs: 2 entries
        "0001" "6b" "0001" "76"  #     "k" = "v"
        "0001" "6e" "ffff"      #     "n" = null
        "01",                   # validate_only: true
        id="AlterConfigs-v1-request",
    ),
    pytest.param(
        AC, 1, "response",
        AC.Response(throttle_time_ms=4, responses=[AC_RESULT(
            error_code=40, error_message="bad", resource_type=2, resource_name="foo")]),
        "00000004"              # throttle_time_ms: 4
        "00000001"              # responses: 1 entry
        "0028"                  #   error_code: 40
        "0003" "626164"         #   error_message: "bad"
        "02"                    #   resource_type: 2
        "0003" "666f6f",        #   resource_name: "foo"
        id="AlterConfigs-v1-response",
    ),
    pytest.param(
        AC, 2, "request",
        AC.Request(resources=[AC_RESOURCE(resource_type=2, resource_name="foo", configs=[
            AC_RESOURCE.AlterableConfig(name="k", value="v"),
            AC_RESOURCE.AlterableConfig(name="n", value=None)])], validate_only=True),
        "02"                    # resources: 1 entry
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "03"                    #   configs: 2 entries
        "02" "6b" "02" "76" "00"  #     "k" = "v", no tagged fields
        "02" "6e" "00" "00"     #     "n" = null, no tagged fields
        "00"                    #   resource: no tagged fields
        "01"                    # validate_only: true
        "00",                   # no tagged fields
        id="AlterConfigs-v2-request",
    ),
    pytest.param(
        AC, 2, "response",
        AC.Response(throttle_time_ms=4, responses=[AC_RESULT(
            error_code=0, error_message=None, resource_type=2, resource_name="foo")]),
        "00000004"              # throttle_time_ms: 4
        "02"                    # responses: 1 entry
        "0000"                  #   error_code
        "00"                    #   error_message: null
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "00"                    #   no tagged fields
        "00",                   # no tagged fields
        id="AlterConfigs-v2-response",
    ),
    # -- IncrementalAlterConfigs ---------------------------------------------
    pytest.param(
        IAC, 0, "request",
        IAC.Request(resources=[IAC_RESOURCE(resource_type=2, resource_name="foo", configs=[
            IAC_RESOURCE.AlterableConfig(name="k", config_operation=0, value="v"),
            IAC_RESOURCE.AlterableConfig(name="n", config_operation=1, value=None)])],
            validate_only=True),
        "00000001"              # resources: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "00000002"              #   configs: 2 entries
        "0001" "6b" "00" "0001" "76"  # "k", SET (0), "v"
        "0001" "6e" "01" "ffff"  #     "n", DELETE (1), null
        "01",                   # validate_only: true
        id="IncrementalAlterConfigs-v0-request",
    ),
    pytest.param(
        IAC, 0, "response",
        IAC.Response(throttle_time_ms=4, responses=[IAC_RESULT(
            error_code=40, error_message="bad", resource_type=2, resource_name="foo")]),
        "00000004"              # throttle_time_ms: 4
        "00000001"              # responses: 1 entry
        "0028"                  #   error_code: 40
        "0003" "626164"         #   error_message: "bad"
        "02"                    #   resource_type: 2
        "0003" "666f6f",        #   resource_name: "foo"
        id="IncrementalAlterConfigs-v0-response",
    ),
    pytest.param(
        IAC, 1, "request",
        IAC.Request(resources=[IAC_RESOURCE(resource_type=4, resource_name="1", configs=[
            IAC_RESOURCE.AlterableConfig(name="k", config_operation=2, value="v")])],
            validate_only=False),
        "02"                    # resources: 1 entry
        "04"                    #   resource_type: 4 (broker)
        "02" "31"               #   resource_name: "1"
        "02"                    #   configs: 1 entry
        "02" "6b" "02" "02" "76" "00"  # "k", APPEND (2), "v", no tagged fields
        "00"                    #   resource: no tagged fields
        "00"                    # validate_only: false
        "00",                   # no tagged fields
        id="IncrementalAlterConfigs-v1-request",
    ),
    pytest.param(
        IAC, 1, "response",
        IAC.Response(throttle_time_ms=0, responses=[IAC_RESULT(
            error_code=0, error_message=None, resource_type=4, resource_name="1")]),
        "00000000"              # throttle_time_ms: 0
        "02"                    # responses: 1 entry
        "0000" "00"             #   no error, null message
        "04" "02" "31"          #   resource_type 4, resource_name "1"
        "00"                    #   no tagged fields
        "00",                   # no tagged fields
        id="IncrementalAlterConfigs-v1-response",
    ),
    # -- DescribeAcls --------------------------------------------------------
    pytest.param(
        DA, 0, "request",
        DA.Request(resource_type_filter=2, resource_name_filter="foo", principal_filter=None,
                   host_filter="*", operation=3, permission_type=3),
        "02"                    # resource_type_filter: 2 (topic)
        "0003" "666f6f"         # resource_name_filter: "foo"
        "ffff"                  # principal_filter: null
        "0001" "2a"             # host_filter: "*"
        "03"                    # operation: 3 (read)
        "03",                   # permission_type: 3 (allow)
        id="DescribeAcls-v0-request",
    ),
    pytest.param(
        DA, 1, "request",
        DA.Request(resource_type_filter=2, resource_name_filter=None, pattern_type_filter=1,
                   principal_filter="User:a", host_filter=None, operation=2, permission_type=1),
        "02"                    # resource_type_filter: 2
        "ffff"                  # resource_name_filter: null
        "01"                    # pattern_type_filter: 1 (any) (v1+)
        "0006" "557365723a61"   # principal_filter: "User:a"
        "ffff"                  # host_filter: null
        "02"                    # operation: 2 (all)
        "01",                   # permission_type: 1 (any)
        id="DescribeAcls-v1-request",
    ),
    pytest.param(
        DA, 0, "response",
        DA.Response(throttle_time_ms=1, error_code=0, error_message=None, resources=[DA_RESOURCE(
            resource_type=2, resource_name="foo", acls=[DA_RESOURCE.AclDescription(
                principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000001"              # throttle_time_ms: 1
        "0000"                  # error_code
        "ffff"                  # error_message: null
        "00000001"              # resources: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "00000001"              #   acls: 1 entry
        "0006" "557365723a61"   #     principal: "User:a"
        "0001" "2a"             #     host: "*"
        "03" "03",              #     operation 3, permission_type 3
        id="DescribeAcls-v0-response",
    ),
    pytest.param(
        DA, 1, "response",
        DA.Response(throttle_time_ms=1, error_code=0, error_message=None, resources=[DA_RESOURCE(
            resource_type=2, resource_name="foo", pattern_type=4, acls=[DA_RESOURCE.AclDescription(
                principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000001"              # throttle_time_ms: 1
        "0000"                  # error_code
        "ffff"                  # error_message: null
        "00000001"              # resources: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "04"                    #   pattern_type: 4 (prefixed) (v1+)
        "00000001"              #   acls: 1 entry
        "0006" "557365723a61"   #     principal: "User:a"
        "0001" "2a"             #     host: "*"
        "03" "03",              #     operation 3, permission_type 3
        id="DescribeAcls-v1-response",
    ),
    pytest.param(
        DA, 2, "request",
        DA.Request(resource_type_filter=2, resource_name_filter="foo", pattern_type_filter=3,
                   principal_filter=None, host_filter=None, operation=3, permission_type=3),
        "02"                    # resource_type_filter: 2
        "04" "666f6f"           # resource_name_filter: "foo"
        "03"                    # pattern_type_filter: 3 (literal)
        "00"                    # principal_filter: null
        "00"                    # host_filter: null
        "03" "03"               # operation 3, permission_type 3
        "00",                   # no tagged fields
        id="DescribeAcls-v2-request",
    ),
    pytest.param(
        DA, 3, "response",
        DA.Response(throttle_time_ms=1, error_code=0, error_message=None, resources=[DA_RESOURCE(
            resource_type=2, resource_name="foo", pattern_type=3, acls=[DA_RESOURCE.AclDescription(
                principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000001"              # throttle_time_ms: 1
        "0000"                  # error_code
        "00"                    # error_message: null
        "02"                    # resources: 1 entry
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "03"                    #   pattern_type: 3
        "02"                    #   acls: 1 entry
        "07" "557365723a61"     #     principal: "User:a"
        "02" "2a"               #     host: "*"
        "03" "03"               #     operation 3, permission_type 3
        "00"                    #     acl: no tagged fields
        "00"                    #   resource: no tagged fields
        "00",                   # no tagged fields
        id="DescribeAcls-v3-response",
    ),
    # -- CreateAcls ----------------------------------------------------------
    pytest.param(
        CA, 0, "request",
        CA.Request(creations=[CA_CREATION(resource_type=2, resource_name="foo", principal="User:a",
                                          host="*", operation=3, permission_type=3)]),
        "00000001"              # creations: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "0006" "557365723a61"   #   principal: "User:a"
        "0001" "2a"             #   host: "*"
        "03" "03",              #   operation 3, permission_type 3
        id="CreateAcls-v0-request",
    ),
    pytest.param(
        CA, 1, "request",
        CA.Request(creations=[CA_CREATION(resource_type=2, resource_name="foo", resource_pattern_type=4,
                                          principal="User:a", host="*", operation=3, permission_type=3)]),
        "00000001"              # creations: 1 entry
        "02"                    #   resource_type: 2
        "0003" "666f6f"         #   resource_name: "foo"
        "04"                    #   resource_pattern_type: 4 (prefixed) (v1+)
        "0006" "557365723a61"   #   principal: "User:a"
        "0001" "2a"             #   host: "*"
        "03" "03",              #   operation 3, permission_type 3
        id="CreateAcls-v1-request",
    ),
    pytest.param(
        CA, 1, "response",
        CA.Response(throttle_time_ms=2, results=[CA_RESULT(error_code=0, error_message=None),
                                                 CA_RESULT(error_code=54, error_message="off")]),
        "00000002"              # throttle_time_ms: 2
        "00000002"              # results: 2 entries
        "0000" "ffff"           #   no error, null message
        "0036" "0003" "6f6666",  #   error 54, "off"
        id="CreateAcls-v1-response",
    ),
    pytest.param(
        CA, 2, "request",
        CA.Request(creations=[CA_CREATION(resource_type=2, resource_name="foo", resource_pattern_type=4,
                                          principal="User:a", host="*", operation=3, permission_type=3)]),
        "02"                    # creations: 1 entry
        "02"                    #   resource_type: 2
        "04" "666f6f"           #   resource_name: "foo"
        "04"                    #   resource_pattern_type: 4
        "07" "557365723a61"     #   principal: "User:a"
        "02" "2a"               #   host: "*"
        "03" "03"               #   operation 3, permission_type 3
        "00"                    #   creation: no tagged fields
        "00",                   # no tagged fields
        id="CreateAcls-v2-request",
    ),
    pytest.param(
        CA, 3, "response",
        CA.Response(throttle_time_ms=2, results=[CA_RESULT(error_code=0, error_message=None),
                                                 CA_RESULT(error_code=54, error_message="off")]),
        "00000002"              # throttle_time_ms: 2
        "03"                    # results: 2 entries
        "0000" "00" "00"        #   no error, null message, no tagged fields
        "0036" "04" "6f6666" "00"  # error 54, "off", no tagged fields
        "00",                   # no tagged fields
        id="CreateAcls-v3-response",
    ),
    # -- DeleteAcls ----------------------------------------------------------
    pytest.param(
        XA, 0, "request",
        XA.Request(filters=[XA_FILTER(resource_type_filter=2, resource_name_filter="foo",
                                      principal_filter=None, host_filter=None, operation=1,
                                      permission_type=1)]),
        "00000001"              # filters: 1 entry
        "02"                    #   resource_type_filter: 2
        "0003" "666f6f"         #   resource_name_filter: "foo"
        "ffff"                  #   principal_filter: null
        "ffff"                  #   host_filter: null
        "01" "01",              #   operation 1 (any), permission_type 1 (any)
        id="DeleteAcls-v0-request",
    ),
    pytest.param(
        XA, 1, "request",
        XA.Request(filters=[XA_FILTER(resource_type_filter=2, resource_name_filter=None,
                                      pattern_type_filter=1, principal_filter="User:a",
                                      host_filter=None, operation=1, permission_type=1)]),
        "00000001"              # filters: 1 entry
        "02"                    #   resource_type_filter: 2
        "ffff"                  #   resource_name_filter: null
        "01"                    #   pattern_type_filter: 1 (any) (v1+)
        "0006" "557365723a61"   #   principal_filter: "User:a"
        "ffff"                  #   host_filter: null
        "01" "01",              #   operation 1, permission_type 1
        id="DeleteAcls-v1-request",
    ),
    pytest.param(
        XA, 0, "response",
        XA.Response(throttle_time_ms=3, filter_results=[XA_RESULT(
            error_code=0, error_message=None, matching_acls=[XA_MATCH(
                error_code=0, error_message=None, resource_type=2, resource_name="foo",
                principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000003"              # throttle_time_ms: 3
        "00000001"              # filter_results: 1 entry
        "0000" "ffff"           #   no error, null message
        "00000001"              #   matching_acls: 1 entry
        "0000" "ffff"           #     no error, null message
        "02"                    #     resource_type: 2
        "0003" "666f6f"         #     resource_name: "foo"
        "0006" "557365723a61"   #     principal: "User:a"
        "0001" "2a"             #     host: "*"
        "03" "03",              #     operation 3, permission_type 3
        id="DeleteAcls-v0-response",
    ),
    pytest.param(
        XA, 1, "response",
        XA.Response(throttle_time_ms=3, filter_results=[XA_RESULT(
            error_code=0, error_message=None, matching_acls=[XA_MATCH(
                error_code=0, error_message=None, resource_type=2, resource_name="foo",
                pattern_type=3, principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000003"              # throttle_time_ms: 3
        "00000001"              # filter_results: 1 entry
        "0000" "ffff"           #   no error, null message
        "00000001"              #   matching_acls: 1 entry
        "0000" "ffff"           #     no error, null message
        "02"                    #     resource_type: 2
        "0003" "666f6f"         #     resource_name: "foo"
        "03"                    #     pattern_type: 3 (v1+)
        "0006" "557365723a61"   #     principal: "User:a"
        "0001" "2a"             #     host: "*"
        "03" "03",              #     operation 3, permission_type 3
        id="DeleteAcls-v1-response",
    ),
    pytest.param(
        XA, 2, "request",
        XA.Request(filters=[XA_FILTER(resource_type_filter=2, resource_name_filter=None,
                                      pattern_type_filter=1, principal_filter="User:a",
                                      host_filter=None, operation=1, permission_type=1)]),
        "02"                    # filters: 1 entry
        "02"                    #   resource_type_filter: 2
        "00"                    #   resource_name_filter: null
        "01"                    #   pattern_type_filter: 1
        "07" "557365723a61"     #   principal_filter: "User:a"
        "00"                    #   host_filter: null
        "01" "01"               #   operation 1, permission_type 1
        "00"                    #   filter: no tagged fields
        "00",                   # no tagged fields
        id="DeleteAcls-v2-request",
    ),
    pytest.param(
        XA, 2, "response",
        XA.Response(throttle_time_ms=3, filter_results=[XA_RESULT(
            error_code=0, error_message=None, matching_acls=[XA_MATCH(
                error_code=0, error_message=None, resource_type=2, resource_name="foo",
                pattern_type=3, principal="User:a", host="*", operation=3, permission_type=3)])]),
        "00000003"              # throttle_time_ms: 3
        "02"                    # filter_results: 1 entry
        "0000" "00"             #   no error, null message
        "02"                    #   matching_acls: 1 entry
        "0000" "00"             #     no error, null message
        "02"                    #     resource_type: 2
        "04" "666f6f"           #     resource_name: "foo"
        "03"                    #     pattern_type: 3
        "07" "557365723a61"     #     principal: "User:a"
        "02" "2a"               #     host: "*"
        "03" "03"               #     operation 3, permission_type 3
        "00"                    #     matching acl: no tagged fields
        "00"                    #   filter result: no tagged fields
        "00",                   # no tagged fields
        id="DeleteAcls-v2-response",
    ),
]


@pytest.mark.parametrize("api, version, kind, value, hexdata", FIXTURES)
def test_encode_matches_fixture(api, version, kind, value, hexdata):
    encode = api.encode_request if kind == "request" else api.encode_response
    assert encode(value, version) == bytes.fromhex(hexdata)


@pytest.mark.parametrize("api, version, kind, value, hexdata", FIXTURES)
def test_decode_matches_fixture(api, version, kind, value, hexdata):
    decode = api.decode_request if kind == "request" else api.decode_response
    assert decode(bytes.fromhex(hexdata), version) == value


def test_kafka_4_floors():
    assert (CT.min_send, DT.min_send, DC.min_send) == (2, 1, 1)
    assert (DA.min_send, CA.min_send, XA.min_send) == (1, 1, 1)
    assert CT.min_version == DT.min_version == DC.min_version == DA.min_version == 0


def test_non_literal_pattern_type_refused_by_v0():
    value = DA.Request(resource_type_filter=2, pattern_type_filter=4)
    with pytest.raises(UnsupportedVersionError):
        DA.encode_request(value, 0)


def test_topic_ids_refused_before_delete_topics_v6():
    value = DT.Request(topics=[DT.Request.DeleteTopicState(name="foo", topic_id=ID_1)])
    with pytest.raises(UnsupportedVersionError):
        DT.encode_request(value, 5)
