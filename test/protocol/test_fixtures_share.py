"""Byte-exact fixtures for the share group family (KIP-932), written by hand
from the Kafka message definitions of ShareGroupHeartbeat, ShareFetch and
ShareAcknowledge v1. Every version is flexible: compact strings and arrays
are uvarint(length + 1) (null = 00), every struct ends with its tagged
fields (00 = none), a nullable struct starts with an int8 marker (ff null,
01 present).
"""

import uuid

from kafka.protocol.apis.share import SHARE_ACKNOWLEDGE, SHARE_FETCH, SHARE_GROUP_HEARTBEAT

TOPIC_ID = uuid.UUID("00010203-0405-0607-0809-0a0b0c0d0e0f")
TOPIC_ID_HEX = "000102030405060708090a0b0c0d0e0f"

# ASCII: "g1" 6731   "m1" 6d31   "t1" 7431   "h" 68


def h(*parts):
    return bytes.fromhex("".join(parts).replace(" ", ""))


def test_share_group_heartbeat_request_v1_joining():
    request = SHARE_GROUP_HEARTBEAT.Request(group_id="g1", member_id="m1", member_epoch=0, rack_id=None,
                                            subscribed_topic_names=["t1"])
    assert SHARE_GROUP_HEARTBEAT.encode_request(request, 1) == h(
        "03 6731",      # group_id "g1"
        "03 6d31",      # member_id "m1"
        "00000000",     # member_epoch 0 (join)
        "00",           # rack_id: null
        "02 03 7431",   # subscribed_topic_names: 1 item, "t1"
        "00")           # tagged fields


def test_share_group_heartbeat_response_v1_with_an_assignment():
    data = h(
        "00000000",     # throttle_time_ms
        "0000",         # error_code
        "00",           # error_message: null
        "03 6d31",      # member_id "m1"
        "00000002",     # member_epoch 2
        "00001388",     # heartbeat_interval_ms 5000
        "01",           # assignment: present
        "02", TOPIC_ID_HEX,          # topic_partitions: 1 item; topic_id
        "03 00000001 00000000",      # partitions: 1, 0
        "00",           #   tagged fields (topic)
        "00",           #   tagged fields (assignment)
        "00")           # tagged fields
    response = SHARE_GROUP_HEARTBEAT.decode_response(data, 1, strict=True)
    assert (response.member_id, response.member_epoch, response.heartbeat_interval_ms) == ("m1", 2, 5000)
    [topic] = response.assignment.topic_partitions
    assert (topic.topic_id, topic.partitions) == (TOPIC_ID, [1, 0])


def test_share_fetch_request_v1_acknowledging_and_forgetting():
    F = SHARE_FETCH.Request
    part = F.FetchTopic.FetchPartition
    request = F(group_id="g1", member_id="m1", share_session_epoch=3, max_wait_ms=500, min_bytes=1,
                max_bytes=1024, max_records=100, batch_size=100,
                topics=[F.FetchTopic(topic_id=TOPIC_ID, partitions=[part(partition_index=0, acknowledgement_batches=[
                    part.AcknowledgementBatch(first_offset=4, last_offset=6, acknowledge_types=[1, 0, 2])])])],
                forgotten_topics_data=[F.ForgottenTopic(topic_id=TOPIC_ID, partitions=[1])])
    assert SHARE_FETCH.encode_request(request, 1) == h(
        "03 6731",      # group_id "g1"
        "03 6d31",      # member_id "m1"
        "00000003",     # share_session_epoch 3
        "000001f4",     # max_wait_ms 500
        "00000001",     # min_bytes 1
        "00000400",     # max_bytes 1024
        "00000064",     # max_records 100
        "00000064",     # batch_size 100
        "02", TOPIC_ID_HEX,          # topics: 1 item; topic_id
        "02 00000000",               #   partitions: 1 item; partition_index 0
        "02 0000000000000004 0000000000000006",  # acknowledgement_batches: 1 item; offsets 4..6
        "04 01 00 02",               #     acknowledge_types: accept, gap, release
        "00",           #     tagged fields (batch)
        "00",           #   tagged fields (partition)
        "00",           # tagged fields (topic)
        "02", TOPIC_ID_HEX,          # forgotten_topics_data: 1 item; topic_id
        "02 00000001",  #   partitions: [1]
        "00",           #   tagged fields
        "00")           # tagged fields


def test_share_fetch_response_v1_with_acquired_records():
    data = h(
        "00000000",     # throttle_time_ms
        "0000",         # error_code
        "00",           # error_message: null
        "00007530",     # acquisition_lock_timeout_ms 30000
        "02", TOPIC_ID_HEX,          # responses: 1 item; topic_id
        "02 00000000",  #   partitions: 1 item; partition_index 0
        "0000 00",      #   error_code, error_message null
        "0079 00",      #   acknowledge_error_code 121 (INVALID_RECORD_STATE), message null
        "00000001 00000005 00",      # current_leader: id 1, epoch 5; tagged fields
        "01",           #   records: empty
        "02 0000000000000007 0000000000000009 0002 00",  # acquired_records: 7..9, delivery count 2
        "00",           #   tagged fields (partition)
        "00",           # tagged fields (topic)
        "02 00000001 02 68 00002384 00 00",  # node_endpoints: node 1, "h", port 9092, rack null
        "00")           # tagged fields
    response = SHARE_FETCH.decode_response(data, 1, strict=True)
    assert response.acquisition_lock_timeout_ms == 30000
    [part] = response.responses[0].partitions
    assert (part.acknowledge_error_code, part.current_leader.leader_epoch, part.records) == (121, 5, b"")
    [acquired] = part.acquired_records
    assert (acquired.first_offset, acquired.last_offset, acquired.delivery_count) == (7, 9, 2)
    [node] = response.node_endpoints
    assert (node.node_id, node.host, node.port, node.rack) == (1, "h", 9092, None)


def test_share_acknowledge_response_v1():
    data = h(
        "00000000 0000 00",          # throttle_time_ms, error_code, error_message null
        "02", TOPIC_ID_HEX,          # responses: 1 item; topic_id
        "02 00000003 0000 00",       #   partitions: 1 item; partition 3, no error
        "ffffffff ffffffff 00",      #   current_leader unknown; tagged fields
        "00 00",        # tagged fields (partition, topic)
        "01",           # node_endpoints: empty
        "00")           # tagged fields
    response = SHARE_ACKNOWLEDGE.decode_response(data, 1, strict=True)
    [part] = response.responses[0].partitions
    assert (part.partition_index, part.error_code, part.current_leader.leader_id) == (3, 0, -1)
