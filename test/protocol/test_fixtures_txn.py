"""Byte-exact fixtures, written by hand from the protocol spec, for the transaction APIs.

Each fixture is (api, version, "request" | "response", value, hex). The hex is
annotated field by field; both directions are checked: encoding the value gives
exactly these bytes and decoding these bytes gives back the value.
"""

from __future__ import annotations

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis.txn import (
    ADD_OFFSETS_TO_TXN, ADD_PARTITIONS_TO_TXN, DESCRIBE_PRODUCERS, END_TXN, INIT_PRODUCER_ID,
    TXN_OFFSET_COMMIT,
)

IPI = INIT_PRODUCER_ID
APT = ADD_PARTITIONS_TO_TXN
APT_TOPIC = APT.Request.AddPartitionsToTxnTopic
APT_TOPIC_RESULT = APT.Response.AddPartitionsToTxnTopicResult
APT_PARTITION_RESULT = APT_TOPIC_RESULT.AddPartitionsToTxnPartitionResult
TOC = TXN_OFFSET_COMMIT
DP = DESCRIBE_PRODUCERS
DP_PARTITION = DP.Response.TopicResponse.PartitionResponse

FIXTURES = [
    # -- InitProducerId ------------------------------------------------------
    pytest.param(
        IPI, 1, "request",
        IPI.Request(transactional_id=None, transaction_timeout_ms=60000),
        "ffff"                  # transactional_id: null string
        "0000ea60",             # transaction_timeout_ms: 60000
        id="InitProducerId-v1-request",
    ),
    pytest.param(
        IPI, 1, "response",
        IPI.Response(throttle_time_ms=5, error_code=51, producer_id=0x1234, producer_epoch=3),
        "00000005"              # throttle_time_ms: 5
        "0033"                  # error_code: 51
        "0000000000001234"      # producer_id
        "0003",                 # producer_epoch
        id="InitProducerId-v1-response",
    ),
    pytest.param(
        IPI, 6, "request",
        IPI.Request(transactional_id="tx", transaction_timeout_ms=60000, producer_id=0x1234,
                    producer_epoch=3, enable_2pc=True, keep_prepared_txn=True),
        "03" "7478"             # transactional_id: compact string (2+1), "tx"
        "0000ea60"              # transaction_timeout_ms: 60000
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "01"                    # enable_2pc: true
        "01"                    # keep_prepared_txn: true
        "00",                   # no tagged fields
        id="InitProducerId-v6-request",
    ),
    pytest.param(
        IPI, 6, "response",
        IPI.Response(throttle_time_ms=7, error_code=0, producer_id=0x1235, producer_epoch=1,
                     ongoing_txn_producer_id=0x1234, ongoing_txn_producer_epoch=3),
        "00000007"              # throttle_time_ms: 7
        "0000"                  # error_code
        "0000000000001235"      # producer_id
        "0001"                  # producer_epoch
        "0000000000001234"      # ongoing_txn_producer_id
        "0003"                  # ongoing_txn_producer_epoch
        "00",                   # no tagged fields
        id="InitProducerId-v6-response",
    ),
    # -- AddPartitionsToTxn --------------------------------------------------
    pytest.param(
        APT, 2, "request",
        APT.Request(v3_and_below_transactional_id="tx", v3_and_below_producer_id=0x1234,
                    v3_and_below_producer_epoch=3,
                    v3_and_below_topics=[APT_TOPIC(name="foo", partitions=[0, 1])]),
        "0002" "7478"           # transactional_id: int16 length 2, "tx"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "00000001"              # topics: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "00000002"              #   partitions: 2 entries
        "00000000" "00000001",  #     0, 1
        id="AddPartitionsToTxn-v2-request",
    ),
    pytest.param(
        APT, 2, "response",
        APT.Response(throttle_time_ms=10, results_by_topic_v3_and_below=[
            APT_TOPIC_RESULT(name="foo", results_by_partition=[
                APT_PARTITION_RESULT(partition_index=0, partition_error_code=0),
                APT_PARTITION_RESULT(partition_index=1, partition_error_code=51),
            ])]),
        "0000000a"              # throttle_time_ms: 10
        "00000001"              # results_by_topic: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "00000002"              #   results_by_partition: 2 entries
        "00000000" "0000"       #     partition 0, no error
        "00000001" "0033",      #     partition 1, error 51
        id="AddPartitionsToTxn-v2-response",
    ),
    pytest.param(
        APT, 3, "request",
        APT.Request(v3_and_below_transactional_id="tx", v3_and_below_producer_id=0x1234,
                    v3_and_below_producer_epoch=3,
                    v3_and_below_topics=[APT_TOPIC(name="foo", partitions=[0, 1])]),
        "03" "7478"             # transactional_id: compact "tx"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "02"                    # topics: compact array, 1 entry
        "04" "666f6f"           #   name: compact "foo"
        "03"                    #   partitions: compact array, 2 entries
        "00000000" "00000001"   #     0, 1
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="AddPartitionsToTxn-v3-request",
    ),
    pytest.param(
        APT, 4, "request",
        APT.Request(transactions=[APT.Request.AddPartitionsToTxnTransaction(
            transactional_id="tx", producer_id=0x1234, producer_epoch=3, verify_only=True,
            topics=[APT_TOPIC(name="foo", partitions=[2])])]),
        "02"                    # transactions: 1 entry
        "03" "7478"             #   transactional_id: "tx"
        "0000000000001234"      #   producer_id
        "0003"                  #   producer_epoch
        "01"                    #   verify_only: true
        "02"                    #   topics: 1 entry
        "04" "666f6f"           #     name: "foo"
        "02" "00000002"         #     partitions: [2]
        "00"                    #     topic: no tagged fields
        "00"                    #   transaction: no tagged fields
        "00",                   # no tagged fields
        id="AddPartitionsToTxn-v4-request",
    ),
    pytest.param(
        APT, 4, "response",
        APT.Response(throttle_time_ms=1, error_code=0, results_by_transaction=[
            APT.Response.AddPartitionsToTxnResult(transactional_id="tx", topic_results=[
                APT_TOPIC_RESULT(name="foo", results_by_partition=[
                    APT_PARTITION_RESULT(partition_index=2, partition_error_code=51)])])]),
        "00000001"              # throttle_time_ms: 1
        "0000"                  # error_code
        "02"                    # results_by_transaction: 1 entry
        "03" "7478"             #   transactional_id: "tx"
        "02"                    #   topic_results: 1 entry
        "04" "666f6f"           #     name: "foo"
        "02"                    #     results_by_partition: 1 entry
        "00000002" "0033"       #       partition 2, error 51
        "00"                    #       partition result: no tagged fields
        "00"                    #     topic result: no tagged fields
        "00"                    #   transaction result: no tagged fields
        "00",                   # no tagged fields
        id="AddPartitionsToTxn-v4-response",
    ),
    # -- AddOffsetsToTxn -----------------------------------------------------
    pytest.param(
        ADD_OFFSETS_TO_TXN, 2, "request",
        ADD_OFFSETS_TO_TXN.Request(transactional_id="tx", producer_id=0x1234, producer_epoch=3,
                                   group_id="grp"),
        "0002" "7478"           # transactional_id: "tx"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "0003" "677270",        # group_id: "grp"
        id="AddOffsetsToTxn-v2-request",
    ),
    pytest.param(
        ADD_OFFSETS_TO_TXN, 2, "response",
        ADD_OFFSETS_TO_TXN.Response(throttle_time_ms=2, error_code=51),
        "00000002"              # throttle_time_ms: 2
        "0033",                 # error_code: 51
        id="AddOffsetsToTxn-v2-response",
    ),
    pytest.param(
        ADD_OFFSETS_TO_TXN, 3, "request",
        ADD_OFFSETS_TO_TXN.Request(transactional_id="tx", producer_id=0x1234, producer_epoch=3,
                                   group_id="grp"),
        "03" "7478"             # transactional_id: compact "tx"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "04" "677270"           # group_id: compact "grp"
        "00",                   # no tagged fields
        id="AddOffsetsToTxn-v3-request",
    ),
    pytest.param(
        ADD_OFFSETS_TO_TXN, 4, "response",
        ADD_OFFSETS_TO_TXN.Response(throttle_time_ms=2, error_code=90),
        "00000002"              # throttle_time_ms: 2
        "005a"                  # error_code: 90
        "00",                   # no tagged fields
        id="AddOffsetsToTxn-v4-response",
    ),
    # -- EndTxn --------------------------------------------------------------
    pytest.param(
        END_TXN, 2, "request",
        END_TXN.Request(transactional_id="tx", producer_id=0x1234, producer_epoch=3, committed=True),
        "0002" "7478"           # transactional_id: "tx"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "01",                   # committed: true
        id="EndTxn-v2-request",
    ),
    pytest.param(
        END_TXN, 2, "response",
        END_TXN.Response(throttle_time_ms=3, error_code=48),
        "00000003"              # throttle_time_ms: 3
        "0030",                 # error_code: 48
        id="EndTxn-v2-response",
    ),
    pytest.param(
        END_TXN, 5, "request",
        END_TXN.Request(transactional_id="tx", producer_id=0x1234, producer_epoch=4, committed=True),
        "03" "7478"             # transactional_id: compact "tx"
        "0000000000001234"      # producer_id
        "0004"                  # producer_epoch
        "01"                    # committed: true
        "00",                   # no tagged fields
        id="EndTxn-v5-request",
    ),
    pytest.param(
        END_TXN, 5, "response",
        END_TXN.Response(throttle_time_ms=4, error_code=0, producer_id=0x1234, producer_epoch=5),
        "00000004"              # throttle_time_ms: 4
        "0000"                  # error_code
        "0000000000001234"      # producer_id (v5+)
        "0005"                  # producer_epoch (v5+)
        "00",                   # no tagged fields
        id="EndTxn-v5-response",
    ),
    # -- TxnOffsetCommit -----------------------------------------------------
    pytest.param(
        TOC, 2, "request",
        TOC.Request(transactional_id="tx", group_id="grp", producer_id=0x1234, producer_epoch=3,
                    topics=[TOC.Request.TxnOffsetCommitRequestTopic(name="foo", partitions=[
                        TOC.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition(
                            partition_index=1, committed_offset=100, committed_leader_epoch=7,
                            committed_metadata=None)])]),
        "0002" "7478"           # transactional_id: "tx"
        "0003" "677270"         # group_id: "grp"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "00000001"              # topics: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "00000001"              #   partitions: 1 entry
        "00000001"              #     partition_index: 1
        "0000000000000064"      #     committed_offset: 100
        "00000007"              #     committed_leader_epoch: 7 (v2+)
        "ffff",                 #     committed_metadata: null
        id="TxnOffsetCommit-v2-request",
    ),
    pytest.param(
        TOC, 2, "response",
        TOC.Response(throttle_time_ms=6, topics=[TOC.Response.TxnOffsetCommitResponseTopic(
            name="foo", partitions=[
                TOC.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition(
                    partition_index=1, error_code=16)])]),
        "00000006"              # throttle_time_ms: 6
        "00000001"              # topics: 1 entry
        "0003" "666f6f"         #   name: "foo"
        "00000001"              #   partitions: 1 entry
        "00000001" "0010",      #     partition 1, error 16
        id="TxnOffsetCommit-v2-response",
    ),
    pytest.param(
        TOC, 3, "request",
        TOC.Request(transactional_id="tx", group_id="grp", producer_id=0x1234, producer_epoch=3,
                    generation_id=9, member_id="m1", group_instance_id=None,
                    topics=[TOC.Request.TxnOffsetCommitRequestTopic(name="foo", partitions=[
                        TOC.Request.TxnOffsetCommitRequestTopic.TxnOffsetCommitRequestPartition(
                            partition_index=1, committed_offset=100, committed_leader_epoch=7,
                            committed_metadata="ok")])]),
        "03" "7478"             # transactional_id: compact "tx"
        "04" "677270"           # group_id: compact "grp"
        "0000000000001234"      # producer_id
        "0003"                  # producer_epoch
        "00000009"              # generation_id: 9 (v3+)
        "03" "6d31"             # member_id: "m1" (v3+)
        "00"                    # group_instance_id: null (v3+)
        "02"                    # topics: 1 entry
        "04" "666f6f"           #   name: "foo"
        "02"                    #   partitions: 1 entry
        "00000001"              #     partition_index: 1
        "0000000000000064"      #     committed_offset: 100
        "00000007"              #     committed_leader_epoch: 7
        "03" "6f6b"             #     committed_metadata: "ok"
        "00"                    #     partition: no tagged fields
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="TxnOffsetCommit-v3-request",
    ),
    pytest.param(
        TOC, 5, "response",
        TOC.Response(throttle_time_ms=6, topics=[TOC.Response.TxnOffsetCommitResponseTopic(
            name="foo", partitions=[
                TOC.Response.TxnOffsetCommitResponseTopic.TxnOffsetCommitResponsePartition(
                    partition_index=1, error_code=16)])]),
        "00000006"              # throttle_time_ms: 6
        "02"                    # topics: 1 entry
        "04" "666f6f"           #   name: "foo"
        "02"                    #   partitions: 1 entry
        "00000001" "0010"       #     partition 1, error 16
        "00"                    #     partition: no tagged fields
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="TxnOffsetCommit-v5-response",
    ),
    # -- DescribeProducers (flexible from v0) ---------------------------------
    pytest.param(
        DP, 0, "request",
        DP.Request(topics=[DP.Request.TopicRequest(name="foo", partition_indexes=[0, 1])]),
        "02"                    # topics: 1 entry
        "04" "666f6f"           #   name: "foo"
        "03"                    #   partition_indexes: 2 entries
        "00000000" "00000001"   #     0, 1
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="DescribeProducers-v0-request",
    ),
    pytest.param(
        DP, 0, "response",
        DP.Response(throttle_time_ms=8, topics=[DP.Response.TopicResponse(name="foo", partitions=[
            DP_PARTITION(partition_index=0, error_code=0, error_message=None, active_producers=[
                DP_PARTITION.ProducerState(producer_id=0x1234, producer_epoch=3, last_sequence=41,
                                           last_timestamp=1700000000000, coordinator_epoch=2,
                                           current_txn_start_offset=90)]),
            DP_PARTITION(partition_index=1, error_code=6, error_message="no", active_producers=[]),
        ])]),
        "00000008"              # throttle_time_ms: 8
        "02"                    # topics: 1 entry
        "04" "666f6f"           #   name: "foo"
        "03"                    #   partitions: 2 entries
        "00000000"              #     partition_index: 0
        "0000"                  #     error_code
        "00"                    #     error_message: null
        "02"                    #     active_producers: 1 entry
        "0000000000001234"      #       producer_id
        "00000003"              #       producer_epoch (int32 here)
        "00000029"              #       last_sequence: 41
        "0000018bcfe56800"      #       last_timestamp: 1700000000000
        "00000002"              #       coordinator_epoch: 2
        "000000000000005a"      #       current_txn_start_offset: 90
        "00"                    #       producer: no tagged fields
        "00"                    #     partition: no tagged fields
        "00000001"              #     partition_index: 1
        "0006"                  #     error_code: 6
        "03" "6e6f"             #     error_message: "no"
        "01"                    #     active_producers: empty
        "00"                    #     partition: no tagged fields
        "00"                    #   topic: no tagged fields
        "00",                   # no tagged fields
        id="DescribeProducers-v0-response",
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


def test_end_txn_producer_fields_are_dropped_before_v5():
    # The v5 producer id/epoch are ignorable: older versions silently omit them.
    value = END_TXN.Response(throttle_time_ms=3, error_code=48, producer_id=0x1234, producer_epoch=5)
    assert END_TXN.encode_response(value, 4) == bytes.fromhex("00000003" "0030" "00")


def test_add_partitions_to_txn_batched_fields_refused_by_client_versions():
    value = APT.Request(transactions=[APT.Request.AddPartitionsToTxnTransaction(transactional_id="tx")])
    with pytest.raises(UnsupportedVersionError):
        APT.encode_request(value, 3)
