"""Byte-exact fixtures for Produce (key 0) and Fetch (key 1).

Every hex string below was written by hand from the message definitions
(field order, versions, nullability, compact encodings and tagged fields),
not produced by our encoder. Record data is opaque bytes at this layer.
"""

import uuid

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis import FETCH, PRODUCE
from kafka.protocol.schema import Route

TOPIC_ID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")
DIR_ID = uuid.UUID("f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f")

PReq = PRODUCE.Request
PTopic = PReq.TopicProduceData
PPart = PTopic.PartitionProduceData
PResp = PRODUCE.Response
PTopicResp = PResp.TopicProduceResponse
PPartResp = PTopicResp.PartitionProduceResponse
PRecordError = PPartResp.BatchIndexAndErrorMessage
PLeader = PPartResp.LeaderIdAndEpoch
PNode = PResp.NodeEndpoint

FReq = FETCH.Request
FReplicaState = FReq.ReplicaState
FTopic = FReq.FetchTopic
FPart = FTopic.FetchPartition
FForgotten = FReq.ForgottenTopic
FResp = FETCH.Response
FTopicResp = FResp.FetchableTopicResponse
FPartResp = FTopicResp.PartitionData
FAborted = FPartResp.AbortedTransaction
FEpochEnd = FPartResp.EpochEndOffset
FLeader = FPartResp.LeaderIdAndEpoch
FSnapshot = FPartResp.SnapshotId
FNode = FResp.NodeEndpoint


CASES = [
    # -- Produce requests ----------------------------------------------------
    pytest.param(
        PRODUCE, "request", 0,
        PReq(acks=1, timeout_ms=1000,
             topic_data=[PTopic(name="foo", partition_data=[PPart(index=0, records=b"\x01\x02\x03")])]),
        "0001"                  # acks 1
        "000003e8"              # timeout_ms 1000
        "00000001"              # topic_data: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partition_data: 1
        "00000000"              # index 0
        "00000003" "010203",    # records: int32 length 3, bytes
        id="produce-req-v0",
    ),
    pytest.param(
        PRODUCE, "request", 3,
        PReq(transactional_id=None, acks=-1, timeout_ms=30000,
             topic_data=[PTopic(name="foo", partition_data=[
                 PPart(index=0, records=b"\x01\x02\x03"),
                 PPart(index=1, records=None),
             ])]),
        "ffff"                  # transactional_id: null
        "ffff"                  # acks -1
        "00007530"              # timeout_ms 30000
        "00000001"              # topic_data: 1
        "0003" "666f6f"         # name "foo"
        "00000002"              # partition_data: 2
        "00000000"              # index 0
        "00000003" "010203"     # records: 3 bytes
        "00000001"              # index 1
        "ffffffff",             # records: null
        id="produce-req-v3",
    ),
    pytest.param(
        PRODUCE, "request", 9,
        PReq(transactional_id="tx", acks=1, timeout_ms=1000,
             topic_data=[PTopic(name="foo", partition_data=[
                 PPart(index=0, records=None),
                 PPart(index=1, records=b"\x01\x02\x03"),
             ])]),
        "03" "7478"             # transactional_id: compact length 2+1, "tx"
        "0001"                  # acks 1
        "000003e8"              # timeout_ms 1000
        "02"                    # topic_data: compact array, 1
        "04" "666f6f"           # name "foo"
        "03"                    # partition_data: 2
        "00000000"              # index 0
        "00"                    # records: null
        "00"                    # partition: no tagged fields
        "00000001"              # index 1
        "04" "010203"           # records: compact length 3+1
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="produce-req-v9-flexible",
    ),
    pytest.param(
        PRODUCE, "request", 13,
        PReq(transactional_id=None, acks=-1, timeout_ms=30000,
             topic_data=[PTopic(topic_id=TOPIC_ID, partition_data=[PPart(index=2, records=b"\xaa")])]),
        "00"                    # transactional_id: null
        "ffff"                  # acks -1
        "00007530"              # timeout_ms 30000
        "02"                    # topic_data: 1
        "00112233445566778899aabbccddeeff"  # topic_id (the name is gone in v13)
        "02"                    # partition_data: 1
        "00000002"              # index 2
        "02" "aa"               # records: 1 byte
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="produce-req-v13-topic-id",
    ),
    # -- Produce responses ---------------------------------------------------
    pytest.param(
        PRODUCE, "response", 2,
        PResp(responses=[PTopicResp(name="foo", partition_responses=[
            PPartResp(index=0, error_code=0, base_offset=42, log_append_time_ms=1700000000000)])],
            throttle_time_ms=3),
        "00000001"              # responses: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partition_responses: 1
        "00000000"              # index 0
        "0000"                  # error_code 0
        "000000000000002a"      # base_offset 42
        "0000018bcfe56800"      # log_append_time_ms 1700000000000
        "00000003",             # throttle_time_ms 3
        id="produce-resp-v2",
    ),
    pytest.param(
        PRODUCE, "response", 8,
        PResp(responses=[PTopicResp(name="foo", partition_responses=[
            PPartResp(index=0, error_code=87, base_offset=-1, log_append_time_ms=-1, log_start_offset=0,
                      record_errors=[PRecordError(batch_index=2, batch_index_error_message=None)],
                      error_message="bad")])],
            throttle_time_ms=0),
        "00000001"              # responses: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partition_responses: 1
        "00000000"              # index 0
        "0057"                  # error_code 87
        "ffffffffffffffff"      # base_offset -1
        "ffffffffffffffff"      # log_append_time_ms -1
        "0000000000000000"      # log_start_offset 0
        "00000001"              # record_errors: 1
        "00000002"              # batch_index 2
        "ffff"                  # batch_index_error_message: null
        "0003" "626164"         # error_message "bad"
        "00000000",             # throttle_time_ms 0
        id="produce-resp-v8",
    ),
    pytest.param(
        PRODUCE, "response", 13,
        PResp(responses=[PTopicResp(topic_id=TOPIC_ID, partition_responses=[
            PPartResp(index=1, error_code=6, base_offset=-1, current_leader=PLeader(leader_id=2, leader_epoch=7))])],
            node_endpoints=[PNode(node_id=2, host="b2", port=9092, rack=None)]),
        "02"                    # responses: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02"                    # partition_responses: 1
        "00000001"              # index 1
        "0006"                  # error_code 6
        "ffffffffffffffff"      # base_offset -1
        "ffffffffffffffff"      # log_append_time_ms -1
        "ffffffffffffffff"      # log_start_offset -1
        "01"                    # record_errors: empty
        "00"                    # error_message: null
        "01"                    # partition tagged fields: 1
        "00" "09"               # tag 0 (current_leader), size 9
        "00000002" "00000007"   # leader_id 2, leader_epoch 7
        "00"                    # current_leader: no tagged fields
        "00"                    # topic: no tagged fields
        "00000000"              # throttle_time_ms 0
        "01"                    # tagged fields: 1
        "00" "0e"               # tag 0 (node_endpoints), size 14
        "02"                    # node_endpoints: 1
        "00000002"              # node_id 2
        "03" "6232"             # host "b2"
        "00002384"              # port 9092
        "00"                    # rack: null
        "00",                   # endpoint: no tagged fields
        id="produce-resp-v13-tagged",
    ),
    # -- Fetch requests ------------------------------------------------------
    pytest.param(
        FETCH, "request", 0,
        FReq(replica_id=-1, max_wait_ms=500, min_bytes=1,
             topics=[FTopic(topic="foo", partitions=[FPart(partition=0, fetch_offset=100,
                                                           partition_max_bytes=1048576)])]),
        "ffffffff"              # replica_id -1
        "000001f4"              # max_wait_ms 500
        "00000001"              # min_bytes 1
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition 0
        "0000000000000064"      # fetch_offset 100
        "00100000",             # partition_max_bytes 1 MiB
        id="fetch-req-v0",
    ),
    pytest.param(
        FETCH, "request", 4,
        FReq(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=52428800, isolation_level=1,
             topics=[FTopic(topic="foo", partitions=[FPart(partition=0, fetch_offset=100,
                                                           partition_max_bytes=1048576)])]),
        "ffffffff"              # replica_id -1
        "000001f4"              # max_wait_ms 500
        "00000001"              # min_bytes 1
        "03200000"              # max_bytes 50 MiB
        "01"                    # isolation_level 1 (read committed)
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition 0
        "0000000000000064"      # fetch_offset 100
        "00100000",             # partition_max_bytes 1 MiB
        id="fetch-req-v4",
    ),
    pytest.param(
        FETCH, "request", 11,
        FReq(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=52428800, isolation_level=0,
             session_id=7, session_epoch=3,
             topics=[FTopic(topic="foo", partitions=[FPart(partition=2, current_leader_epoch=4, fetch_offset=100,
                                                           log_start_offset=-1, partition_max_bytes=1048576)])],
             forgotten_topics_data=[FForgotten(topic="bar", partitions=[0, 1])],
             rack_id="r1"),
        "ffffffff"              # replica_id -1
        "000001f4"              # max_wait_ms 500
        "00000001"              # min_bytes 1
        "03200000"              # max_bytes 50 MiB
        "00"                    # isolation_level 0
        "00000007"              # session_id 7
        "00000003"              # session_epoch 3
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000002"              # partition 2
        "00000004"              # current_leader_epoch 4
        "0000000000000064"      # fetch_offset 100
        "ffffffffffffffff"      # log_start_offset -1
        "00100000"              # partition_max_bytes 1 MiB
        "00000001"              # forgotten_topics_data: 1
        "0003" "626172"         # topic "bar"
        "00000002" "00000000" "00000001"  # partitions [0, 1]
        "0002" "7231",          # rack_id "r1"
        id="fetch-req-v11",
    ),
    pytest.param(
        FETCH, "request", 18,
        FReq(cluster_id="kcl1", replica_state=FReplicaState(replica_id=1, replica_epoch=9),
             max_wait_ms=500, min_bytes=1,
             topics=[FTopic(topic_id=TOPIC_ID, partitions=[FPart(
                 partition=0, current_leader_epoch=4, fetch_offset=100, last_fetched_epoch=3,
                 log_start_offset=0, partition_max_bytes=1048576,
                 replica_directory_id=DIR_ID, high_watermark=150)])],
             forgotten_topics_data=[FForgotten(topic_id=TOPIC_ID, partitions=[1, 2])],
             rack_id="r1"),
        "000001f4"              # max_wait_ms 500 (replica_id is gone after v14)
        "00000001"              # min_bytes 1
        "7fffffff"              # max_bytes: default
        "00"                    # isolation_level 0
        "00000000"              # session_id 0
        "ffffffff"              # session_epoch -1
        "02"                    # topics: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02"                    # partitions: 1
        "00000000"              # partition 0
        "00000004"              # current_leader_epoch 4
        "0000000000000064"      # fetch_offset 100
        "00000003"              # last_fetched_epoch 3
        "0000000000000000"      # log_start_offset 0
        "00100000"              # partition_max_bytes 1 MiB
        "02"                    # partition tagged fields: 2
        "00" "10"               # tag 0 (replica_directory_id), size 16
        "f0e1d2c3b4a5968778695a4b3c2d1e0f"
        "01" "08"               # tag 1 (high_watermark), size 8
        "0000000000000096"      # 150
        "00"                    # topic: no tagged fields
        "02"                    # forgotten_topics_data: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "03" "00000001" "00000002"  # partitions [1, 2]
        "00"                    # forgotten topic: no tagged fields
        "03" "7231"             # rack_id "r1"
        "02"                    # tagged fields: 2
        "00" "05"               # tag 0 (cluster_id), size 5
        "05" "6b636c31"         # "kcl1"
        "01" "0d"               # tag 1 (replica_state), size 13
        "00000001"              # replica_id 1
        "0000000000000009"      # replica_epoch 9
        "00",                   # replica_state: no tagged fields
        id="fetch-req-v18-tagged",
    ),
    # -- Fetch responses -----------------------------------------------------
    pytest.param(
        FETCH, "response", 0,
        FResp(responses=[FTopicResp(topic="foo", partitions=[
            FPartResp(partition_index=0, error_code=0, high_watermark=100, records=b"\x01\x02")])]),
        "00000001"              # responses: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "0000"                  # error_code 0
        "0000000000000064"      # high_watermark 100
        "00000002" "0102",      # records: 2 bytes
        id="fetch-resp-v0",
    ),
    pytest.param(
        FETCH, "response", 11,
        FResp(throttle_time_ms=0, error_code=0, session_id=42, responses=[FTopicResp(topic="foo", partitions=[
            FPartResp(partition_index=0, error_code=0, high_watermark=100, last_stable_offset=90,
                      log_start_offset=0, aborted_transactions=[FAborted(producer_id=5, first_offset=80)],
                      preferred_read_replica=-1, records=b"\x01\x02\x03"),
            FPartResp(partition_index=1, error_code=1, high_watermark=-1, last_stable_offset=-1,
                      log_start_offset=-1, aborted_transactions=None, preferred_read_replica=2, records=None),
        ])]),
        "00000000"              # throttle_time_ms 0
        "0000"                  # error_code 0
        "0000002a"              # session_id 42
        "00000001"              # responses: 1
        "0003" "666f6f"         # topic "foo"
        "00000002"              # partitions: 2
        "00000000"              # partition_index 0
        "0000"                  # error_code 0
        "0000000000000064"      # high_watermark 100
        "000000000000005a"      # last_stable_offset 90
        "0000000000000000"      # log_start_offset 0
        "00000001"              # aborted_transactions: 1
        "0000000000000005"      # producer_id 5
        "0000000000000050"      # first_offset 80
        "ffffffff"              # preferred_read_replica -1
        "00000003" "010203"     # records: 3 bytes
        "00000001"              # partition_index 1
        "0001"                  # error_code 1
        "ffffffffffffffff"      # high_watermark -1
        "ffffffffffffffff"      # last_stable_offset -1
        "ffffffffffffffff"      # log_start_offset -1
        "ffffffff"              # aborted_transactions: null
        "00000002"              # preferred_read_replica 2
        "ffffffff",             # records: null
        id="fetch-resp-v11",
    ),
    pytest.param(
        FETCH, "response", 16,
        FResp(throttle_time_ms=0, error_code=0, session_id=0, responses=[FTopicResp(topic_id=TOPIC_ID, partitions=[
            FPartResp(partition_index=0, error_code=0, high_watermark=100, last_stable_offset=100,
                      log_start_offset=0, aborted_transactions=None, preferred_read_replica=-1, records=None,
                      diverging_epoch=FEpochEnd(epoch=3, end_offset=80),
                      current_leader=FLeader(leader_id=1, leader_epoch=4),
                      snapshot_id=FSnapshot(end_offset=100, epoch=2)),
        ])], node_endpoints=[FNode(node_id=1, host="b1", port=9092, rack="r1")]),
        "00000000"              # throttle_time_ms 0
        "0000"                  # error_code 0
        "00000000"              # session_id 0
        "02"                    # responses: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02"                    # partitions: 1
        "00000000"              # partition_index 0
        "0000"                  # error_code 0
        "0000000000000064"      # high_watermark 100
        "0000000000000064"      # last_stable_offset 100
        "0000000000000000"      # log_start_offset 0
        "00"                    # aborted_transactions: null
        "ffffffff"              # preferred_read_replica -1
        "00"                    # records: null
        "03"                    # partition tagged fields: 3
        "00" "0d"               # tag 0 (diverging_epoch), size 13
        "00000003" "0000000000000050" "00"  # epoch 3, end_offset 80, no tags
        "01" "09"               # tag 1 (current_leader), size 9
        "00000001" "00000004" "00"          # leader_id 1, leader_epoch 4, no tags
        "02" "0d"               # tag 2 (snapshot_id), size 13
        "0000000000000064" "00000002" "00"  # end_offset 100, epoch 2, no tags
        "00"                    # topic: no tagged fields
        "01"                    # tagged fields: 1
        "00" "10"               # tag 0 (node_endpoints), size 16
        "02"                    # node_endpoints: 1
        "00000001"              # node_id 1
        "03" "6231"             # host "b1"
        "00002384"              # port 9092
        "03" "7231"             # rack "r1"
        "00",                   # endpoint: no tagged fields
        id="fetch-resp-v16-tagged",
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
    assert (PRODUCE.key, PRODUCE.min_version, PRODUCE.max_version) == (0, 0, 13)
    assert (PRODUCE.flexible_from, PRODUCE.min_send, PRODUCE.route) == (9, 3, Route.LEADER)
    assert (FETCH.key, FETCH.min_version, FETCH.max_version) == (1, 0, 18)
    assert (FETCH.flexible_from, FETCH.min_send, FETCH.route) == (12, 4, Route.LEADER)


def test_follower_replica_id_moves_to_replica_state():
    # replica_id exists only up to v14 and is not ignorable: a follower id cannot be sent at v15.
    request = FReq(replica_id=1, max_wait_ms=500, min_bytes=1)
    with pytest.raises(UnsupportedVersionError):
        FETCH.encode_request(request, 15)


def test_topic_name_is_ignorable_from_v13():
    # The topic name is ignorable, so a request that still carries it encodes at v13 (by id only).
    request = PReq(acks=1, timeout_ms=1000,
                   topic_data=[PTopic(name="foo", topic_id=TOPIC_ID, partition_data=[])])
    assert PRODUCE.encode_request(request, 13) == bytes.fromhex(
        "00" "0001" "000003e8" "02" "00112233445566778899aabbccddeeff" "01" "00" "00")
