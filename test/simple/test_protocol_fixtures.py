"""Byte-exact fixtures for the simple protocol functions.

Every expected byte string here is assembled by hand, field by field, from
the Kafka protocol specification (message format v0 and the request and
response layouts of each API version); only the CRC-32 of a message, the
4-byte frame size and compressed bytes are computed, with ``zlib``/``gzip``
from the standard library, never with kafkawire code.
"""

from __future__ import annotations

import gzip
import struct
import zlib

import pytest

from kafka.simple.common import (
    BrokerMetadata,
    ConsumerMetadataResponse,
    FetchRequest,
    Message,
    MetadataResponse,
    OffsetAndMessage,
    OffsetCommitRequest,
    OffsetCommitResponse,
    OffsetFetchRequest,
    OffsetFetchResponse,
    OffsetRequest,
    OffsetResponse,
    PartitionMetadata,
    ProduceRequest,
    ProduceResponse,
    TopicMetadata,
)
from kafka.protocol import KafkaProtocol, create_message


def h(text: str) -> bytes:
    """Hex with spaces allowed."""
    return bytes.fromhex(text)


def framed(body: bytes) -> bytes:
    """Prefix a frame body with its int32 size."""
    return struct.pack(">i", len(body)) + body


def crc(data: bytes) -> bytes:
    return struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF)


def v0_message(key, value, attributes=0) -> bytes:
    """A v0 message from its CRC on: crc, magic, attributes, key, value."""
    body = h("00") + bytes([attributes])                                  # magic 0, attributes
    body += h("ffffffff") if key is None else struct.pack(">i", len(key)) + key
    body += h("ffffffff") if value is None else struct.pack(">i", len(value)) + value
    return crc(body) + body


def v0_entry(offset, key, value, attributes=0) -> bytes:
    """A message set entry: int64 offset, int32 size, message."""
    message = v0_message(key, value, attributes)
    return struct.pack(">qi", offset, len(message)) + message


# -- messages -------------------------------------------------------------------

def test_create_message_v0_bytes():
    message = create_message(b"test", key=b"key")
    assert message == Message(0, 0, b"key", b"test")
    body = h(
        "00"                  # magic 0
        "00"                  # attributes: no compression
        "00000003 6b6579"     # key: int32 length 3, "key"
        "00000004 74657374"   # value: int32 length 4, "test"
    )
    expected = crc(body) + body   # crc: CRC-32 of everything after it
    assert KafkaProtocol._encode_message(message) == expected
    # In a message set each message follows its offset and size.
    assert KafkaProtocol._encode_message_set([message]) == (
        h("0000000000000000")           # offset 0
        + struct.pack(">i", len(expected))
        + expected)


def test_create_message_without_key_bytes():
    message = create_message(b"v")
    assert message == Message(0, 0, None, b"v")
    body = h(
        "00"             # magic 0
        "00"             # attributes
        "ffffffff"       # key: null
        "00000001 76"    # value: "v"
    )
    assert KafkaProtocol._encode_message(message) == crc(body) + body
    assert len(crc(body) + body) == 4 + 1 + 1 + 4 + 4 + 1


# -- requests ---------------------------------------------------------------------

def test_encode_metadata_request_v0():
    expected = framed(h(
        "0003"            # api key 3 (Metadata)
        "0000"            # api version 0
        "00000004"        # correlation id 4
        "0003 636964"     # client id "cid"
        "00000002"        # topics: 2
        "0006 746f70696331"   # "topic1"
        "0006 746f70696332"   # "topic2"
    ))
    assert KafkaProtocol.encode_metadata_request(b"cid", 4, [b"topic1", "topic2"]) == expected
    assert KafkaProtocol.encode_metadata_request(b"cid", 4, payloads=["topic1", "topic2"], version=0) == expected


def test_encode_metadata_request_v0_all_topics():
    expected = framed(h(
        "0003 0000 00000005 0003 636964"   # Metadata v0, correlation 5, "cid"
        "00000000"                         # topics: empty = every topic in v0
    ))
    assert KafkaProtocol.encode_metadata_request(b"cid", 5) == expected
    assert KafkaProtocol.encode_metadata_request(b"cid", 5, []) == expected


def test_encode_metadata_request_v1_all_topics_is_null():
    expected = framed(h(
        "0003 0001 00000005 0003 636964"   # Metadata v1
        "ffffffff"                         # topics: null = every topic from v1 on
    ))
    assert KafkaProtocol.encode_metadata_request(b"cid", 5, version=1) == expected


@pytest.mark.parametrize("from_kafka", [False, True])
def test_encode_offset_fetch_request_v1(from_kafka):
    payloads = [OffsetFetchRequest(b"t", 0), OffsetFetchRequest("t", 5), OffsetFetchRequest(b"u", 1)]
    expected = framed(h(
        "0009"               # api key 9 (OffsetFetch)
        "0001"               # api version 1 (offsets kept by Kafka)
        "0000002a"           # correlation id 42
        "0006 636c69656e74"  # client id "client"
        "0005 67726f7570"    # group "group"
        "00000002"           # topics: 2
        "0001 74"            #   "t"
        "00000002"           #   partitions: 2
        "00000000"           #     0
        "00000005"           #     5
        "0001 75"            #   "u"
        "00000001"           #   partitions: 1
        "00000001"           #     1
    ))
    assert KafkaProtocol.encode_offset_fetch_request(b"client", 42, b"group", payloads,
                                                     from_kafka=from_kafka) == expected


def test_encode_offset_fetch_request_v0_on_request():
    expected = framed(h(
        "0009 0000 00000001 0001 63"   # OffsetFetch v0, correlation 1, client "c"
        "0001 67"                      # group "g"
        "00000001 0001 74 00000001 00000003"   # topic "t", partition 3
    ))
    assert KafkaProtocol.encode_offset_fetch_request(b"c", 1, "g", [OffsetFetchRequest("t", 3)],
                                                     version=0) == expected


def test_encode_produce_request_v0_is_the_simple_frame():
    message = v0_entry(0, None, b"val")
    assert len(message) == 8 + 4 + 17
    expected = framed(h(
        "0000"          # api key 0 (Produce)
        "0000"          # api version 0
        "00000001"      # correlation id 1
        "0003 636964"   # client id "cid"
        "0001"          # acks 1
        "000003e8"      # timeout 1000 ms
        "00000001"      # topics: 1
        "0001 74"       #   "t"
        "00000001"      #   partitions: 1
        "00000000"      #     partition 0
        "0000001d"      #     message set size 29
    ) + message)
    frame = KafkaProtocol.encode_produce_request(b"cid", 1, [ProduceRequest(b"t", 0, [create_message(b"val")])],
                                                 version=0)
    assert frame == expected


def test_encode_offset_request_v1():
    expected = framed(h(
        "0002"               # api key 2 (ListOffsets)
        "0001"               # api version 1
        "00000003"           # correlation id 3
        "0003 636964"        # client id "cid"
        "ffffffff"           # replica id -1 (a client)
        "00000001"           # topics: 1
        "0001 74"            #   "t"
        "00000002"           #   partitions: 2
        "00000000 ffffffffffffffff"   # partition 0, timestamp -1 (latest)
        "00000001 fffffffffffffffe"   # partition 1, timestamp -2 (earliest)
    ))
    payloads = [OffsetRequest("t", 0, -1, 1), OffsetRequest("t", 1, -2, 1)]
    assert KafkaProtocol.encode_offset_request(b"cid", 3, payloads) == expected


def test_encode_offset_request_v0():
    expected = framed(h(
        "0002 0000 00000003 0003 636964"   # ListOffsets v0
        "ffffffff 00000001 0001 74 00000001"
        "00000000 ffffffffffffffff"        # partition 0, time -1
        "0000000a"                         # max_num_offsets 10 (v0 only)
    ))
    assert KafkaProtocol.encode_offset_request(b"cid", 3, [OffsetRequest("t", 0, -1, 10)], version=0) == expected


def test_encode_consumer_metadata_request_v0():
    expected = framed(h(
        "000a"              # api key 10 (FindCoordinator, formerly ConsumerMetadata)
        "0000"              # api version 0
        "00000009"          # correlation id 9
        "0003 636964"       # client id "cid"
        "0005 67726f7570"   # group "group"
    ))
    assert KafkaProtocol.encode_consumer_metadata_request(b"cid", 9, b"group") == expected


def test_encode_offset_commit_request_v2():
    expected = framed(h(
        "0008"               # api key 8 (OffsetCommit)
        "0002"               # api version 2
        "0000000b"           # correlation id 11
        "0003 636964"        # client id "cid"
        "0005 67726f7570"    # group "group"
        "ffffffff"           # generation id -1 (no group generation)
        "0000"               # member id ""
        "ffffffffffffffff"   # retention time -1 (broker default)
        "00000001"           # topics: 1
        "0001 74"            #   "t"
        "00000001"           #   partitions: 1
        "00000002"           #     partition 2
        "0000000000000003"   #     offset 3
        "0004 6d657461"      #     metadata "meta"
    ))
    payloads = [OffsetCommitRequest(b"t", 2, 3, b"meta")]
    assert KafkaProtocol.encode_offset_commit_request(b"cid", 11, b"group", payloads) == expected


# -- responses --------------------------------------------------------------------

def test_decode_produce_response_v3():
    body = h(
        "00000007"                      # correlation id 7
        "00000002"                      # topics: 2
        "0003 666f6f"                   #   "foo"
        "00000002"                      #   partitions: 2
        "00000000 0000"                 #     partition 0, no error
        "000000000000000a"              #     base offset 10
        "ffffffffffffffff"              #     log append time -1
        "00000001 0006"                 #     partition 1, NOT_LEADER_FOR_PARTITION
        "ffffffffffffffff"              #     base offset -1
        "ffffffffffffffff"              #     log append time -1
        "0003 626172"                   #   "bar"
        "00000001"                      #   partitions: 1
        "00000002 0000"                 #     partition 2, no error
        "0000000000000064"              #     base offset 100
        "0000018bcfe56800"              #     log append time
        "00000000"                      # throttle time 0
    )
    assert KafkaProtocol.decode_produce_response(body) == [
        ProduceResponse("foo", 0, 0, 10),
        ProduceResponse("foo", 1, 6, -1),
        ProduceResponse("bar", 2, 0, 100),
    ]


def test_decode_produce_response_v0():
    body = h(
        "00000001"            # correlation id
        "00000001 0001 74"    # topics: 1, "t"
        "00000001"            # partitions: 1
        "00000000 0000 0000000000000005"   # partition 0, no error, offset 5
    )
    assert KafkaProtocol.decode_produce_response(body, version=0) == [ProduceResponse("t", 0, 0, 5)]


def test_decode_fetch_response_v4_with_v0_message_sets():
    inner = v0_entry(1, b"k1", b"inner-1") + v0_entry(2, None, b"inner-2")
    wrapper = v0_entry(2, None, gzip.compress(inner), attributes=0x01)   # gzip wrapper at the last offset
    records = v0_entry(0, b"key", b"plain") + wrapper
    body = h(
        "00000005"            # correlation id
        "00000000"            # throttle time
        "00000001 0001 74"    # responses: 1, topic "t"
        "00000001"            # partitions: 1
        "00000000"            #   partition 0
        "0000"                #   no error
        "0000000000000003"    #   high watermark 3
        "0000000000000003"    #   last stable offset 3
        "ffffffff"            #   aborted transactions: null
    ) + struct.pack(">i", len(records)) + records
    (response,) = KafkaProtocol.decode_fetch_response(body)
    assert response[:4] == ("t", 0, 0, 3)
    assert list(response.messages) == [
        OffsetAndMessage(0, Message(0, 0, b"key", b"plain")),
        OffsetAndMessage(1, Message(0, 0, b"k1", b"inner-1")),
        OffsetAndMessage(2, Message(0, 0, None, b"inner-2")),
    ]


def test_decode_metadata_response_v0():
    body = h(
        "00000001"                 # correlation id
        "00000001"                 # brokers: 1
        "00000001 0001 68 00002384"   # node 1, host "h", port 9092
        "00000001"                 # topics: 1
        "0000 0001 74"             #   no error, "t"
        "00000001"                 #   partitions: 1
        "0000 00000000 00000001"   #     no error, partition 0, leader 1
        "00000002 00000001 00000002"  #  replicas [1, 2]
        "00000001 00000001"        #     isr [1]
    )
    assert KafkaProtocol.decode_metadata_response(body) == MetadataResponse(
        [BrokerMetadata(1, "h", 9092)],
        [TopicMetadata("t", 0, [PartitionMetadata("t", 0, 1, (1, 2), (1,), 0)])])


def test_decode_offset_response_v1_and_v0():
    v1 = h(
        "00000001 00000001 0001 74 00000002"   # correlation, topics: 1 "t", partitions: 2
        "00000000 0000 ffffffffffffffff 000000000000002a"   # p0: no error, timestamp -1, offset 42
        "00000001 0003 ffffffffffffffff ffffffffffffffff"   # p1: UNKNOWN_TOPIC_OR_PARTITION
    )
    assert KafkaProtocol.decode_offset_response(v1) == [
        OffsetResponse("t", 0, 0, (42,)), OffsetResponse("t", 1, 3, ())]
    v0 = h(
        "00000001 00000001 0001 74 00000001"
        "00000000 0000 00000002 0000000000000007 0000000000000000"   # offsets [7, 0]
    )
    assert KafkaProtocol.decode_offset_response(v0, version=0) == [OffsetResponse("t", 0, 0, (7, 0))]


def test_decode_consumer_metadata_response_v0():
    body = h("00000001 0000 00000003 0001 68 000004d2")  # correlation, no error, node 3, "h", port 1234
    assert KafkaProtocol.decode_consumer_metadata_response(body) == ConsumerMetadataResponse(0, 3, "h", 1234)


def test_decode_offset_commit_response_v2():
    body = h("00000001 00000001 0001 74 00000002 00000000 0000 00000001 000c")  # p1: OFFSET_METADATA_TOO_LARGE
    assert KafkaProtocol.decode_offset_commit_response(body) == [
        OffsetCommitResponse("t", 0, 0), OffsetCommitResponse("t", 1, 12)]


def test_decode_offset_fetch_response_v1():
    body = h(
        "00000001 00000001 0001 74 00000002"            # correlation, topics: 1 "t", partitions: 2
        "00000000 0000000000000003 0004 6d657461 0000"   # p0: offset 3, metadata "meta", no error
        "00000001 ffffffffffffffff 0000 0000"            # p1: nothing committed, metadata ""
    )
    assert KafkaProtocol.decode_offset_fetch_response(body) == [
        OffsetFetchResponse("t", 0, 3, "meta", 0), OffsetFetchResponse("t", 1, -1, "", 0)]


def test_encode_fetch_request_v4():
    expected = framed(h(
        "0001"               # api key 1 (Fetch)
        "0004"               # api version 4
        "00000002"           # correlation id 2
        "0003 636964"        # client id "cid"
        "ffffffff"           # replica id -1
        "00000064"           # max wait 100 ms
        "00001000"           # min bytes 4096
        "7fffffff"           # max bytes (whole response): no limit
        "00"                 # isolation level: read uncommitted
        "00000001 0001 74"   # topics: 1, "t"
        "00000001"           # partitions: 1
        "00000000"           #   partition 0
        "000000000000000c"   #   fetch offset 12
        "00010000"           #   partition max bytes 65536
    ))
    assert KafkaProtocol.encode_fetch_request(b"cid", 2, [FetchRequest("t", 0, 12, 65536)]) == expected
