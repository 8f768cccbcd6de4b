"""Byte-exact fixtures for Metadata (key 3) and DescribeCluster (key 60).

Every hex string below was written by hand from the message definitions
(field order, versions, nullability, compact encodings and tagged fields),
not produced by our encoder.
"""

import uuid

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis import DESCRIBE_CLUSTER, METADATA
from kafka.protocol.schema import Route

TOPIC_ID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")

MReq = METADATA.Request
MReqTopic = MReq.MetadataRequestTopic
MResp = METADATA.Response
MBroker = MResp.MetadataResponseBroker
MTopic = MResp.MetadataResponseTopic
MPartition = MTopic.MetadataResponsePartition

DReq = DESCRIBE_CLUSTER.Request
DResp = DESCRIBE_CLUSTER.Response
DBroker = DResp.DescribeClusterBroker


CASES = [
    # -- Metadata requests ---------------------------------------------------
    pytest.param(
        METADATA, "request", 0,
        MReq(topics=[MReqTopic(name="foo")]),
        "00000001"          # topics: int32 count 1
        "0003" "666f6f",    # name: int16 length 3, "foo"
        id="metadata-req-v0",
    ),
    pytest.param(
        METADATA, "request", 1,
        MReq(topics=None),
        "ffffffff",         # topics: null array (all topics)
        id="metadata-req-v1-null-topics",
    ),
    pytest.param(
        METADATA, "request", 4,
        MReq(topics=[MReqTopic(name="foo")], allow_auto_topic_creation=False),
        "00000001"          # topics: 1
        "0003" "666f6f"     # name "foo"
        "00",               # allow_auto_topic_creation: false
        id="metadata-req-v4",
    ),
    pytest.param(
        METADATA, "request", 8,
        MReq(topics=[MReqTopic(name="foo"), MReqTopic(name="bar")],
             include_cluster_authorized_operations=True),
        "00000002"          # topics: 2
        "0003" "666f6f"     # name "foo"
        "0003" "626172"     # name "bar"
        "01"                # allow_auto_topic_creation: true
        "01"                # include_cluster_authorized_operations: true
        "00",               # include_topic_authorized_operations: false
        id="metadata-req-v8",
    ),
    pytest.param(
        METADATA, "request", 12,
        MReq(topics=[MReqTopic(topic_id=TOPIC_ID, name=None)],
             include_topic_authorized_operations=True),
        "02"                                  # topics: compact array, 1 element
        "00112233445566778899aabbccddeeff"    # topic_id
        "00"                                  # name: compact nullable string, null
        "00"                                  # topic: no tagged fields
        "01"                                  # allow_auto_topic_creation: true
        "01"                                  # include_topic_authorized_operations: true
        "00",                                 # no tagged fields
        id="metadata-req-v12-flexible",
    ),
    # -- Metadata responses --------------------------------------------------
    pytest.param(
        METADATA, "response", 0,
        MResp(brokers=[MBroker(node_id=1, host="localhost", port=9092)],
              topics=[MTopic(error_code=5, name="foo", partitions=[])]),
        "00000001"                      # brokers: 1
        "00000001"                      # node_id 1
        "0009" "6c6f63616c686f7374"     # host "localhost"
        "00002384"                      # port 9092
        "00000001"                      # topics: 1
        "0005"                          # error_code 5
        "0003" "666f6f"                 # name "foo"
        "00000000",                     # partitions: empty
        id="metadata-resp-v0",
    ),
    pytest.param(
        METADATA, "response", 7,
        MResp(
            throttle_time_ms=100,
            brokers=[MBroker(node_id=1, host="localhost", port=9092, rack=None)],
            cluster_id="kcl1",
            controller_id=1,
            topics=[MTopic(
                error_code=0, name="foo", is_internal=True,
                partitions=[MPartition(
                    error_code=0, partition_index=0, leader_id=1, leader_epoch=5,
                    replica_nodes=[1, 2], isr_nodes=[1], offline_replicas=[2],
                )],
            )],
        ),
        "00000064"                      # throttle_time_ms 100
        "00000001"                      # brokers: 1
        "00000001"                      # node_id 1
        "0009" "6c6f63616c686f7374"     # host "localhost"
        "00002384"                      # port 9092
        "ffff"                          # rack: null
        "0004" "6b636c31"               # cluster_id "kcl1"
        "00000001"                      # controller_id 1
        "00000001"                      # topics: 1
        "0000"                          # error_code 0
        "0003" "666f6f"                 # name "foo"
        "01"                            # is_internal: true
        "00000001"                      # partitions: 1
        "0000"                          # error_code 0
        "00000000"                      # partition_index 0
        "00000001"                      # leader_id 1
        "00000005"                      # leader_epoch 5
        "00000002" "00000001" "00000002"  # replica_nodes [1, 2]
        "00000001" "00000001"           # isr_nodes [1]
        "00000001" "00000002",          # offline_replicas [2]
        id="metadata-resp-v7",
    ),
    pytest.param(
        METADATA, "response", 10,
        MResp(
            throttle_time_ms=0,
            brokers=[MBroker(node_id=2, host="b1", port=9093, rack="r1")],
            cluster_id=None,
            controller_id=2,
            topics=[MTopic(error_code=3, name="baz", topic_id=TOPIC_ID, partitions=[],
                           topic_authorized_operations=0x7F8)],
            cluster_authorized_operations=0xFF8,
        ),
        "00000000"                      # throttle_time_ms 0
        "02"                            # brokers: compact array, 1
        "00000002"                      # node_id 2
        "03" "6231"                     # host: compact length 2+1, "b1"
        "00002385"                      # port 9093
        "03" "7231"                     # rack "r1"
        "00"                            # broker: no tagged fields
        "00"                            # cluster_id: null
        "00000002"                      # controller_id 2
        "02"                            # topics: 1
        "0003"                          # error_code 3
        "04" "62617a"                   # name "baz"
        "00112233445566778899aabbccddeeff"  # topic_id
        "00"                            # is_internal: false
        "01"                            # partitions: empty compact array
        "000007f8"                      # topic_authorized_operations 0x7f8
        "00"                            # topic: no tagged fields
        "00000ff8"                      # cluster_authorized_operations 0xff8
        "00",                           # no tagged fields
        id="metadata-resp-v10-flexible",
    ),
    pytest.param(
        METADATA, "response", 13,
        MResp(
            throttle_time_ms=10, brokers=[], cluster_id="kcl1", controller_id=-1,
            topics=[MTopic(error_code=100, name=None, topic_id=TOPIC_ID, partitions=[])],
            error_code=129,
        ),
        "0000000a"                      # throttle_time_ms 10
        "01"                            # brokers: empty
        "05" "6b636c31"                 # cluster_id "kcl1"
        "ffffffff"                      # controller_id -1
        "02"                            # topics: 1
        "0064"                          # error_code 100
        "00"                            # name: null
        "00112233445566778899aabbccddeeff"  # topic_id
        "00"                            # is_internal: false
        "01"                            # partitions: empty
        "80000000"                      # topic_authorized_operations: default (INT32 min)
        "00"                            # topic: no tagged fields
        "0081"                          # top-level error_code 129
        "00",                           # no tagged fields
        id="metadata-resp-v13-flexible",
    ),
    # -- DescribeCluster (flexible in every version) -------------------------
    pytest.param(
        DESCRIBE_CLUSTER, "request", 0,
        DReq(include_cluster_authorized_operations=True),
        "01"        # include_cluster_authorized_operations: true
        "00",       # no tagged fields
        id="describe-cluster-req-v0",
    ),
    pytest.param(
        DESCRIBE_CLUSTER, "request", 2,
        DReq(endpoint_type=2, include_fenced_brokers=True),
        "00"        # include_cluster_authorized_operations: false
        "02"        # endpoint_type 2
        "01"        # include_fenced_brokers: true
        "00",       # no tagged fields
        id="describe-cluster-req-v2",
    ),
    pytest.param(
        DESCRIBE_CLUSTER, "response", 0,
        DResp(throttle_time_ms=5, error_message=None, cluster_id="kcl1", controller_id=1,
              brokers=[DBroker(broker_id=1, host="localhost", port=9092, rack=None)],
              cluster_authorized_operations=0x7F8),
        "00000005"                      # throttle_time_ms 5
        "0000"                          # error_code 0
        "00"                            # error_message: null
        "05" "6b636c31"                 # cluster_id "kcl1"
        "00000001"                      # controller_id 1
        "02"                            # brokers: 1
        "00000001"                      # broker_id 1
        "0a" "6c6f63616c686f7374"       # host "localhost": compact length 9+1
        "00002384"                      # port 9092
        "00"                            # rack: null
        "00"                            # broker: no tagged fields
        "000007f8"                      # cluster_authorized_operations
        "00",                           # no tagged fields
        id="describe-cluster-resp-v0",
    ),
    pytest.param(
        DESCRIBE_CLUSTER, "response", 2,
        DResp(throttle_time_ms=0, error_code=114, error_message="bad", endpoint_type=2,
              cluster_id="c", controller_id=-1,
              brokers=[DBroker(broker_id=3, host="b", port=9093, rack="r1", is_fenced=True)],
              unknown_tags={5: b"\xab\xcd"}),
        "00000000"                      # throttle_time_ms 0
        "0072"                          # error_code 114
        "04" "626164"                   # error_message "bad"
        "02"                            # endpoint_type 2
        "02" "63"                       # cluster_id "c"
        "ffffffff"                      # controller_id -1
        "02"                            # brokers: 1
        "00000003"                      # broker_id 3
        "02" "62"                       # host "b"
        "00002385"                      # port 9093
        "03" "7231"                     # rack "r1"
        "01"                            # is_fenced: true
        "00"                            # broker: no tagged fields
        "80000000"                      # cluster_authorized_operations: default
        "01"                            # tagged fields: 1
        "05" "02" "abcd",               # tag 5 (unknown to us), size 2, kept verbatim
        id="describe-cluster-resp-v2-unknown-tag",
    ),
]


@pytest.mark.parametrize("api, direction, version, value, hexdata", CASES)
def test_fixture(api, direction, version, value, hexdata):
    data = bytes.fromhex(hexdata)
    encode = getattr(api, "encode_" + direction)
    decode = getattr(api, "decode_" + direction)
    assert encode(value, version) == data
    assert decode(data, version) == value


def test_declarations():
    assert (METADATA.key, METADATA.min_version, METADATA.max_version) == (3, 0, 13)
    assert (METADATA.flexible_from, METADATA.min_send, METADATA.route) == (9, 0, Route.ANY)
    assert (DESCRIBE_CLUSTER.key, DESCRIBE_CLUSTER.min_version, DESCRIBE_CLUSTER.max_version) == (60, 0, 2)
    assert (DESCRIBE_CLUSTER.flexible_from, DESCRIBE_CLUSTER.route) == (0, Route.ANY)


def test_auto_create_off_needs_v4():
    # allow_auto_topic_creation is not ignorable: turning it off cannot be expressed before v4.
    with pytest.raises(UnsupportedVersionError):
        METADATA.encode_request(MReq(topics=None, allow_auto_topic_creation=False), 3)


def test_ignorable_fields_are_dropped_in_old_versions():
    # throttle_time_ms (v3+), rack (v1+) and leader_epoch (v7+) are ignorable.
    value = MResp(throttle_time_ms=7, brokers=[MBroker(node_id=1, host="localhost", port=9092, rack="r")],
                  topics=[MTopic(error_code=5, name="foo", partitions=[])])
    expected = bytes.fromhex(
        "00000001" "00000001" "0009" "6c6f63616c686f7374" "00002384"  # the one broker, no rack
        "00000001" "0005" "0003" "666f6f" "00000000"                   # the one topic
    )
    assert METADATA.encode_response(value, 0) == expected
