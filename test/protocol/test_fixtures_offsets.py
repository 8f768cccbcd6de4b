"""Byte-exact fixtures for the offset APIs: ListOffsets (2), OffsetCommit (8),
OffsetFetch (9), DeleteRecords (21), OffsetForLeaderEpoch (23), OffsetDelete (47).

Every hex string below was written by hand from the message definitions
(field order, versions, nullability, compact encodings and tagged fields),
not produced by our encoder.
"""

import uuid

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis import (
    DELETE_RECORDS, LIST_OFFSETS, OFFSET_COMMIT, OFFSET_DELETE, OFFSET_FETCH, OFFSET_FOR_LEADER_EPOCH,
)
from kafka.protocol.schema import Route

TOPIC_ID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")

LReq = LIST_OFFSETS.Request
LTopic = LReq.ListOffsetsTopic
LPart = LTopic.ListOffsetsPartition
LResp = LIST_OFFSETS.Response
LTopicResp = LResp.ListOffsetsTopicResponse
LPartResp = LTopicResp.ListOffsetsPartitionResponse

CReq = OFFSET_COMMIT.Request
CTopic = CReq.OffsetCommitRequestTopic
CPart = CTopic.OffsetCommitRequestPartition
CResp = OFFSET_COMMIT.Response
CTopicResp = CResp.OffsetCommitResponseTopic
CPartResp = CTopicResp.OffsetCommitResponsePartition

FReq = OFFSET_FETCH.Request
FTopic = FReq.OffsetFetchRequestTopic
FGroup = FReq.OffsetFetchRequestGroup
FGroupTopic = FGroup.OffsetFetchRequestTopics
FResp = OFFSET_FETCH.Response
FTopicResp = FResp.OffsetFetchResponseTopic
FPartResp = FTopicResp.OffsetFetchResponsePartition
FGroupResp = FResp.OffsetFetchResponseGroup
FGroupTopicResp = FGroupResp.OffsetFetchResponseTopics
FGroupPartResp = FGroupTopicResp.OffsetFetchResponsePartitions

EReq = OFFSET_FOR_LEADER_EPOCH.Request
ETopic = EReq.OffsetForLeaderTopic
EPart = ETopic.OffsetForLeaderPartition
EResp = OFFSET_FOR_LEADER_EPOCH.Response
ETopicResp = EResp.OffsetForLeaderTopicResult
EPartResp = ETopicResp.EpochEndOffset

DReq = DELETE_RECORDS.Request
DTopic = DReq.DeleteRecordsTopic
DPart = DTopic.DeleteRecordsPartition
DResp = DELETE_RECORDS.Response
DTopicResp = DResp.DeleteRecordsTopicResult
DPartResp = DTopicResp.DeleteRecordsPartitionResult

XReq = OFFSET_DELETE.Request
XTopic = XReq.OffsetDeleteRequestTopic
XPart = XTopic.OffsetDeleteRequestPartition
XResp = OFFSET_DELETE.Response
XTopicResp = XResp.OffsetDeleteResponseTopic
XPartResp = XTopicResp.OffsetDeleteResponsePartition


CASES = [
    # -- ListOffsets ---------------------------------------------------------
    pytest.param(
        LIST_OFFSETS, "request", 0,
        LReq(replica_id=-1, topics=[LTopic(name="foo", partitions=[
            LPart(partition_index=0, timestamp=-1, max_num_offsets=3)])]),
        "ffffffff"              # replica_id -1
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "ffffffffffffffff"      # timestamp -1 (latest)
        "00000003",             # max_num_offsets 3
        id="list-offsets-req-v0",
    ),
    pytest.param(
        LIST_OFFSETS, "request", 4,
        LReq(replica_id=-1, isolation_level=1, topics=[LTopic(name="foo", partitions=[
            LPart(partition_index=1, current_leader_epoch=5, timestamp=-2)])]),
        "ffffffff"              # replica_id -1
        "01"                    # isolation_level 1
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000001"              # partition_index 1
        "00000005"              # current_leader_epoch 5
        "fffffffffffffffe",     # timestamp -2 (earliest)
        id="list-offsets-req-v4",
    ),
    pytest.param(
        LIST_OFFSETS, "request", 10,
        LReq(replica_id=-1, isolation_level=0, topics=[LTopic(name="foo", partitions=[
            LPart(partition_index=0, current_leader_epoch=7, timestamp=-2)])], timeout_ms=30000),
        "ffffffff"              # replica_id -1
        "00"                    # isolation_level 0
        "02"                    # topics: compact array, 1
        "04" "666f6f"           # name "foo"
        "02"                    # partitions: 1
        "00000000"              # partition_index 0
        "00000007"              # current_leader_epoch 7
        "fffffffffffffffe"      # timestamp -2
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00007530"              # timeout_ms 30000
        "00",                   # no tagged fields
        id="list-offsets-req-v10-flexible",
    ),
    pytest.param(
        LIST_OFFSETS, "response", 0,
        LResp(topics=[LTopicResp(name="foo", partitions=[
            LPartResp(partition_index=0, error_code=0, old_style_offsets=[100, 0])])]),
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "0000"                  # error_code 0
        "00000002"              # old_style_offsets: 2
        "0000000000000064" "0000000000000000",  # [100, 0]
        id="list-offsets-resp-v0",
    ),
    pytest.param(
        LIST_OFFSETS, "response", 4,
        LResp(throttle_time_ms=0, topics=[LTopicResp(name="foo", partitions=[
            LPartResp(partition_index=0, error_code=0, timestamp=-1, offset=100, leader_epoch=3)])]),
        "00000000"              # throttle_time_ms 0
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "0000"                  # error_code 0
        "ffffffffffffffff"      # timestamp -1
        "0000000000000064"      # offset 100
        "00000003",             # leader_epoch 3
        id="list-offsets-resp-v4",
    ),
    pytest.param(
        LIST_OFFSETS, "response", 11,
        LResp(throttle_time_ms=5, topics=[LTopicResp(name="foo", partitions=[
            LPartResp(partition_index=2, error_code=75, timestamp=1700000000000, offset=-1, leader_epoch=-1)])]),
        "00000005"              # throttle_time_ms 5
        "02"                    # topics: 1
        "04" "666f6f"           # name "foo"
        "02"                    # partitions: 1
        "00000002"              # partition_index 2
        "004b"                  # error_code 75
        "0000018bcfe56800"      # timestamp 1700000000000
        "ffffffffffffffff"      # offset -1
        "ffffffff"              # leader_epoch -1
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="list-offsets-resp-v11-flexible",
    ),
    # -- OffsetCommit --------------------------------------------------------
    pytest.param(
        OFFSET_COMMIT, "request", 1,
        CReq(group_id="g", generation_id_or_member_epoch=3, member_id="m", topics=[CTopic(name="foo", partitions=[
            CPart(partition_index=0, committed_offset=10, commit_timestamp=1000, committed_metadata=None)])]),
        "0001" "67"             # group_id "g"
        "00000003"              # generation_id_or_member_epoch 3
        "0001" "6d"             # member_id "m"
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "00000000000003e8"      # commit_timestamp 1000 (v1 only)
        "ffff",                 # committed_metadata: null
        id="offset-commit-req-v1",
    ),
    pytest.param(
        OFFSET_COMMIT, "request", 2,
        CReq(group_id="g", generation_id_or_member_epoch=3, member_id="m", retention_time_ms=86400000,
             topics=[CTopic(name="foo", partitions=[
                 CPart(partition_index=0, committed_offset=10, committed_metadata="")])]),
        "0001" "67"             # group_id "g"
        "00000003"              # generation_id_or_member_epoch 3
        "0001" "6d"             # member_id "m"
        "0000000005265c00"      # retention_time_ms 86400000 (v2-4)
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "0000",                 # committed_metadata ""
        id="offset-commit-req-v2",
    ),
    pytest.param(
        OFFSET_COMMIT, "request", 10,
        CReq(group_id="g", generation_id_or_member_epoch=5, member_id="m", group_instance_id="i",
             topics=[CTopic(topic_id=TOPIC_ID, partitions=[
                 CPart(partition_index=0, committed_offset=10, committed_leader_epoch=2, committed_metadata="met")])]),
        "02" "67"               # group_id "g"
        "00000005"              # generation_id_or_member_epoch 5
        "02" "6d"               # member_id "m"
        "02" "69"               # group_instance_id "i"
        "02"                    # topics: 1
        "00112233445566778899aabbccddeeff"  # topic_id (the name is gone in v10)
        "02"                    # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "00000002"              # committed_leader_epoch 2
        "04" "6d6574"           # committed_metadata "met"
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="offset-commit-req-v10-flexible",
    ),
    pytest.param(
        OFFSET_COMMIT, "response", 3,
        CResp(throttle_time_ms=1, topics=[CTopicResp(name="foo", partitions=[
            CPartResp(partition_index=0, error_code=0), CPartResp(partition_index=1, error_code=25)])]),
        "00000001"              # throttle_time_ms 1
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000002"              # partitions: 2
        "00000000" "0000"       # partition 0, error_code 0
        "00000001" "0019",      # partition 1, error_code 25
        id="offset-commit-resp-v3",
    ),
    pytest.param(
        OFFSET_COMMIT, "response", 10,
        CResp(throttle_time_ms=0, topics=[CTopicResp(topic_id=TOPIC_ID, partitions=[
            CPartResp(partition_index=3, error_code=100)])]),
        "00000000"              # throttle_time_ms 0
        "02"                    # topics: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02"                    # partitions: 1
        "00000003" "0064"       # partition 3, error_code 100
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="offset-commit-resp-v10-flexible",
    ),
    # -- OffsetFetch ---------------------------------------------------------
    pytest.param(
        OFFSET_FETCH, "request", 1,
        FReq(group_id="g", topics=[FTopic(name="foo", partition_indexes=[0, 1])]),
        "0001" "67"             # group_id "g"
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000002" "00000000" "00000001",  # partition_indexes [0, 1]
        id="offset-fetch-req-v1",
    ),
    pytest.param(
        OFFSET_FETCH, "request", 2,
        FReq(group_id="g", topics=None),
        "0001" "67"             # group_id "g"
        "ffffffff",             # topics: null (all topics)
        id="offset-fetch-req-v2-null-topics",
    ),
    pytest.param(
        OFFSET_FETCH, "request", 7,
        FReq(group_id="g", topics=None, require_stable=True),
        "02" "67"               # group_id "g"
        "00"                    # topics: null
        "01"                    # require_stable: true
        "00",                   # no tagged fields
        id="offset-fetch-req-v7-flexible",
    ),
    pytest.param(
        OFFSET_FETCH, "request", 10,
        FReq(groups=[
            FGroup(group_id="g", member_id="m", member_epoch=5,
                   topics=[FGroupTopic(topic_id=TOPIC_ID, partition_indexes=[0])]),
            FGroup(group_id="h", member_id=None, member_epoch=-1, topics=None),
        ]),
        "03"                    # groups: compact array, 2
        "02" "67"               # group_id "g"
        "02" "6d"               # member_id "m"
        "00000005"              # member_epoch 5
        "02"                    # topics: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02" "00000000"         # partition_indexes [0]
        "00"                    # topic: no tagged fields
        "00"                    # group: no tagged fields
        "02" "68"               # group_id "h"
        "00"                    # member_id: null
        "ffffffff"              # member_epoch -1
        "00"                    # topics: null (all topics)
        "00"                    # group: no tagged fields
        "00"                    # require_stable: false
        "00",                   # no tagged fields
        id="offset-fetch-req-v10-groups",
    ),
    pytest.param(
        OFFSET_FETCH, "response", 1,
        FResp(topics=[FTopicResp(name="foo", partitions=[
            FPartResp(partition_index=0, committed_offset=10, metadata="", error_code=0)])]),
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "0000"                  # metadata ""
        "0000",                 # error_code 0
        id="offset-fetch-resp-v1",
    ),
    pytest.param(
        OFFSET_FETCH, "response", 5,
        FResp(throttle_time_ms=2, topics=[FTopicResp(name="foo", partitions=[
            FPartResp(partition_index=0, committed_offset=10, committed_leader_epoch=3, metadata=None,
                      error_code=0)])], error_code=14),
        "00000002"              # throttle_time_ms 2
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "00000003"              # committed_leader_epoch 3
        "ffff"                  # metadata: null
        "0000"                  # error_code 0
        "000e",                 # top-level error_code 14
        id="offset-fetch-resp-v5",
    ),
    pytest.param(
        OFFSET_FETCH, "response", 8,
        FResp(throttle_time_ms=0, groups=[FGroupResp(group_id="g", topics=[FGroupTopicResp(name="foo", partitions=[
            FGroupPartResp(partition_index=0, committed_offset=10, committed_leader_epoch=3, metadata="",
                           error_code=0)])], error_code=16)]),
        "00000000"              # throttle_time_ms 0
        "02"                    # groups: 1
        "02" "67"               # group_id "g"
        "02"                    # topics: 1
        "04" "666f6f"           # name "foo"
        "02"                    # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # committed_offset 10
        "00000003"              # committed_leader_epoch 3
        "01"                    # metadata ""
        "0000"                  # error_code 0
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "0010"                  # group error_code 16
        "00"                    # group: no tagged fields
        "00",                   # no tagged fields
        id="offset-fetch-resp-v8-flexible",
    ),
    pytest.param(
        OFFSET_FETCH, "response", 10,
        FResp(throttle_time_ms=0, groups=[FGroupResp(group_id="g", topics=[FGroupTopicResp(
            topic_id=TOPIC_ID, partitions=[FGroupPartResp(partition_index=1, committed_offset=-1, metadata=None,
                                                          error_code=100)])])]),
        "00000000"              # throttle_time_ms 0
        "02"                    # groups: 1
        "02" "67"               # group_id "g"
        "02"                    # topics: 1
        "00112233445566778899aabbccddeeff"  # topic_id
        "02"                    # partitions: 1
        "00000001"              # partition_index 1
        "ffffffffffffffff"      # committed_offset -1
        "ffffffff"              # committed_leader_epoch -1
        "00"                    # metadata: null
        "0064"                  # error_code 100
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "0000"                  # group error_code 0
        "00"                    # group: no tagged fields
        "00",                   # no tagged fields
        id="offset-fetch-resp-v10-topic-id",
    ),
    # -- OffsetForLeaderEpoch ------------------------------------------------
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "request", 0,
        EReq(topics=[ETopic(topic="foo", partitions=[EPart(partition=0, leader_epoch=5)])]),
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition 0
        "00000005",             # leader_epoch 5
        id="offset-for-leader-epoch-req-v0",
    ),
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "request", 3,
        EReq(replica_id=-1, topics=[ETopic(topic="foo", partitions=[
            EPart(partition=0, current_leader_epoch=6, leader_epoch=5)])]),
        "ffffffff"              # replica_id -1 (a consumer)
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition 0
        "00000006"              # current_leader_epoch 6
        "00000005",             # leader_epoch 5
        id="offset-for-leader-epoch-req-v3",
    ),
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "request", 4,
        EReq(replica_id=1, topics=[ETopic(topic="foo", partitions=[
            EPart(partition=2, current_leader_epoch=6, leader_epoch=5)])]),
        "00000001"              # replica_id 1 (a follower)
        "02"                    # topics: 1
        "04" "666f6f"           # topic "foo"
        "02"                    # partitions: 1
        "00000002"              # partition 2
        "00000006"              # current_leader_epoch 6
        "00000005"              # leader_epoch 5
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="offset-for-leader-epoch-req-v4-flexible",
    ),
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "response", 0,
        EResp(topics=[ETopicResp(topic="foo", partitions=[EPartResp(error_code=0, partition=0, end_offset=100)])]),
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "0000"                  # error_code 0
        "00000000"              # partition 0
        "0000000000000064",     # end_offset 100
        id="offset-for-leader-epoch-resp-v0",
    ),
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "response", 2,
        EResp(throttle_time_ms=4, topics=[ETopicResp(topic="foo", partitions=[
            EPartResp(error_code=0, partition=0, leader_epoch=5, end_offset=100)])]),
        "00000004"              # throttle_time_ms 4
        "00000001"              # topics: 1
        "0003" "666f6f"         # topic "foo"
        "00000001"              # partitions: 1
        "0000"                  # error_code 0
        "00000000"              # partition 0
        "00000005"              # leader_epoch 5
        "0000000000000064",     # end_offset 100
        id="offset-for-leader-epoch-resp-v2",
    ),
    pytest.param(
        OFFSET_FOR_LEADER_EPOCH, "response", 4,
        EResp(throttle_time_ms=0, topics=[ETopicResp(topic="foo", partitions=[
            EPartResp(error_code=74, partition=1, leader_epoch=-1, end_offset=-1)])]),
        "00000000"              # throttle_time_ms 0
        "02"                    # topics: 1
        "04" "666f6f"           # topic "foo"
        "02"                    # partitions: 1
        "004a"                  # error_code 74
        "00000001"              # partition 1
        "ffffffff"              # leader_epoch -1
        "ffffffffffffffff"      # end_offset -1
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="offset-for-leader-epoch-resp-v4-flexible",
    ),
    # -- DeleteRecords -------------------------------------------------------
    pytest.param(
        DELETE_RECORDS, "request", 1,
        DReq(topics=[DTopic(name="foo", partitions=[DPart(partition_index=0, offset=10)])], timeout_ms=1000),
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000001"              # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # offset 10
        "000003e8",             # timeout_ms 1000
        id="delete-records-req-v1",
    ),
    pytest.param(
        DELETE_RECORDS, "request", 2,
        DReq(topics=[DTopic(name="foo", partitions=[DPart(partition_index=1, offset=-1)])], timeout_ms=1000),
        "02"                    # topics: 1
        "04" "666f6f"           # name "foo"
        "02"                    # partitions: 1
        "00000001"              # partition_index 1
        "ffffffffffffffff"      # offset -1 (the high watermark)
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "000003e8"              # timeout_ms 1000
        "00",                   # no tagged fields
        id="delete-records-req-v2-flexible",
    ),
    pytest.param(
        DELETE_RECORDS, "response", 0,
        DResp(throttle_time_ms=0, topics=[DTopicResp(name="foo", partitions=[
            DPartResp(partition_index=0, low_watermark=10, error_code=0),
            DPartResp(partition_index=1, low_watermark=-1, error_code=1)])]),
        "00000000"              # throttle_time_ms 0
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000002"              # partitions: 2
        "00000000" "000000000000000a" "0000"  # partition 0, low_watermark 10, error_code 0
        "00000001" "ffffffffffffffff" "0001",  # partition 1, low_watermark -1, error_code 1
        id="delete-records-resp-v0",
    ),
    pytest.param(
        DELETE_RECORDS, "response", 2,
        DResp(throttle_time_ms=9, topics=[DTopicResp(name="foo", partitions=[
            DPartResp(partition_index=0, low_watermark=10, error_code=0)])]),
        "00000009"              # throttle_time_ms 9
        "02"                    # topics: 1
        "04" "666f6f"           # name "foo"
        "02"                    # partitions: 1
        "00000000"              # partition_index 0
        "000000000000000a"      # low_watermark 10
        "0000"                  # error_code 0
        "00"                    # partition: no tagged fields
        "00"                    # topic: no tagged fields
        "00",                   # no tagged fields
        id="delete-records-resp-v2-flexible",
    ),
    # -- OffsetDelete (classic only) -----------------------------------------
    pytest.param(
        OFFSET_DELETE, "request", 0,
        XReq(group_id="g", topics=[XTopic(name="foo", partitions=[XPart(partition_index=0),
                                                                  XPart(partition_index=1)])]),
        "0001" "67"             # group_id "g"
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000002"              # partitions: 2
        "00000000"              # partition_index 0
        "00000001",             # partition_index 1
        id="offset-delete-req-v0",
    ),
    pytest.param(
        OFFSET_DELETE, "response", 0,
        XResp(error_code=0, throttle_time_ms=6, topics=[XTopicResp(name="foo", partitions=[
            XPartResp(partition_index=0, error_code=0), XPartResp(partition_index=1, error_code=86)])]),
        "0000"                  # error_code 0
        "00000006"              # throttle_time_ms 6
        "00000001"              # topics: 1
        "0003" "666f6f"         # name "foo"
        "00000002"              # partitions: 2
        "00000000" "0000"       # partition 0, error_code 0
        "00000001" "0056",      # partition 1, error_code 86
        id="offset-delete-resp-v0",
    ),
]


@pytest.mark.parametrize("api, direction, version, value, hexdata", CASES)
def test_fixture(api, direction, version, value, hexdata):
    data = bytes.fromhex(hexdata)
    encode = getattr(api, "encode_" + direction)
    decode = getattr(api, "decode_" + direction)
    assert encode(value, version) == data
    assert decode(data, version) == value


@pytest.mark.parametrize("api, key, versions, flexible, min_send, route", [
    (LIST_OFFSETS, 2, (0, 11), 6, 1, Route.LEADER),
    (OFFSET_COMMIT, 8, (0, 10), 8, 2, Route.GROUP_COORDINATOR),
    (OFFSET_FETCH, 9, (0, 10), 6, 1, Route.GROUP_COORDINATOR),
    (DELETE_RECORDS, 21, (0, 2), 2, 0, Route.LEADER),
    (OFFSET_FOR_LEADER_EPOCH, 23, (0, 4), 4, 2, Route.LEADER),
    (OFFSET_DELETE, 47, (0, 0), None, 0, Route.GROUP_COORDINATOR),
])
def test_declarations(api, key, versions, flexible, min_send, route):
    assert (api.key, (api.min_version, api.max_version)) == (key, versions)
    assert (api.flexible_from, api.min_send, api.route) == (flexible, min_send, route)


def test_multi_group_fetch_needs_v8():
    # The single-group fields end at v7 and the groups array starts at v8; neither is ignorable.
    with pytest.raises(UnsupportedVersionError):
        OFFSET_FETCH.encode_request(FReq(groups=[FGroup(group_id="g", topics=None)]), 7)
    with pytest.raises(UnsupportedVersionError):
        OFFSET_FETCH.encode_request(FReq(group_id="g", topics=None), 8)


def test_commit_timestamp_only_in_v1():
    request = CReq(group_id="g", topics=[CTopic(name="foo", partitions=[
        CPart(partition_index=0, committed_offset=1, commit_timestamp=5, committed_metadata=None)])])
    with pytest.raises(UnsupportedVersionError):
        OFFSET_COMMIT.encode_request(request, 2)
