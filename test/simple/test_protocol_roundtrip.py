"""KafkaProtocol against the protocol declarations: every version, both directions.

Requests made by the simple encoders are parsed back with the modern
declarations; responses built with the declarations are read by the simple
decoders. Also: how simple messages become record batches and back.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import textwrap
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafka.protocol
from kafka import errors
from kafka.simple.codec import gzip_decode
from kafka.simple.common import (
    BrokerMetadata,
    ConsumerMetadataRequest,
    ConsumerMetadataResponse,
    FetchRequest,
    FetchResponse,
    Message,
    MetadataRequest,
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
from kafka.errors import (
    BufferUnderflowError,
    ChecksumError,
    ConsumerFetchSizeTooSmall,
    IllegalArgumentError,
    NotCoordinatorError,
    ProtocolError,
    UnsupportedCodecError,
    UnsupportedVersionError,
)
from kafka.protocol import (
    ALL_CODECS,
    CODEC_GZIP,
    CODEC_LZ4,
    CODEC_NONE,
    CODEC_SNAPPY,
    CODEC_ZSTD,
    KafkaProtocol,
    create_gzip_message,
    create_lz4_message,
    create_message,
    create_message_set,
    create_snappy_message,
    create_zstd_message,
)
from kafka.protocol.apis import (
    FETCH,
    FIND_COORDINATOR,
    LIST_OFFSETS,
    METADATA,
    OFFSET_COMMIT,
    OFFSET_FETCH,
    PRODUCE,
)
from kafka.protocol.framing import decode_request_header, encode_response
from kafka.simple.protocol import DEFAULT_VERSIONS, FetchedMessages
from kafka.record import LegacyRecordBatch, LegacyRecordBatchBuilder, MemoryRecords, MemoryRecordsBuilder
from kafka.record.batch import RecordBatchBuilder
from kafka.record.record import encode_control_key, encode_marker_value

P = KafkaProtocol
HIGHEST = {PRODUCE: 12, FETCH: 12, LIST_OFFSETS: 11, METADATA: 13, OFFSET_COMMIT: 9, OFFSET_FETCH: 9,
           FIND_COORDINATOR: 6}


def versions(api):
    return list(range(api.min_version, HIGHEST[api] + 1))


def parse(api, frame, version):
    """Check a request frame's size and header; return the decoded body."""
    (size,) = struct.unpack_from(">i", frame)
    assert size == len(frame) - 4
    header, pos = decode_request_header(frame[4:], lambda key, v: api.is_flexible(v))
    assert (header.api_key, header.api_version) == (api.key, version)
    assert header.client_id == "cid"
    return header.correlation_id, api.decode_request(frame[4 + pos:], version)


def reply(api, version, response, correlation_id=17):
    """A response frame body (without its size), as a simple connection returns it."""
    return encode_response(api, version, correlation_id, response)[4:]


def records_of(blob):
    return [(r.offset, r.key, r.value) for batch in MemoryRecords(blob, check_crcs=True) for r in batch]


# -- package surface -----------------------------------------------------------------

def test_defaults_are_the_min_send_floors():
    assert DEFAULT_VERSIONS == {"Produce": 3, "Fetch": 4, "ListOffsets": 1, "Metadata": 0,
                                "OffsetCommit": 2, "OffsetFetch": 1, "FindCoordinator": 0}
    for api in HIGHEST:
        assert DEFAULT_VERSIONS[api.name] == api.min_send


def test_class_attributes():
    assert (P.PRODUCE_KEY, P.FETCH_KEY, P.OFFSET_KEY, P.METADATA_KEY) == (0, 1, 2, 3)
    assert (P.OFFSET_COMMIT_KEY, P.OFFSET_FETCH_KEY, P.CONSUMER_METADATA_KEY) == (8, 9, 10)
    assert (P.CODEC_NONE, P.CODEC_GZIP, P.CODEC_SNAPPY, P.CODEC_LZ4, P.CODEC_ZSTD) == (0, 1, 2, 3, 4)
    assert (CODEC_NONE, CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD) == (0, 1, 2, 3, 4)
    assert P.ATTRIBUTE_CODEC_MASK == 0x07
    assert ALL_CODECS == (0, 1, 2, 3, 4)


def test_importing_kafka_protocol_stays_light():
    code = textwrap.dedent("""
        import sys
        import kafka.protocol
        assert "kafka.simple.protocol" not in sys.modules
        assert "socket" not in sys.modules
        assert "kafka.record" not in sys.modules
        from kafka.protocol import KafkaProtocol, create_message
        assert "kafka.simple.protocol" in sys.modules
    """)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=_repo_root())


def _repo_root():
    import os

    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_unknown_package_attribute():
    with pytest.raises(AttributeError):
        kafka.protocol.no_such_name  # noqa: B018
    assert "KafkaProtocol" in dir(kafka.protocol)


# -- requests at every version ---------------------------------------------------------

@pytest.mark.parametrize("version", versions(PRODUCE))
def test_produce_request(version):
    payloads = [ProduceRequest(b"t", 0, [create_message(b"v0", b"k0"), create_message(b"v1")]),
                ProduceRequest("t", 3, [create_message(b"v2")]),
                ProduceRequest("u", 1, [create_message(None, b"tombstone")])]
    frame = P.encode_produce_request("cid", 99, payloads, acks=-1, timeout=2500, version=version)
    cid, request = parse(PRODUCE, frame, version)
    assert cid == 99
    assert (request.acks, request.timeout_ms, request.transactional_id) == (-1, 2500, None)
    assert [t.name for t in request.topic_data] == ["t", "u"]
    parts = {(t.name, p.index): p.records for t in request.topic_data for p in t.partition_data}
    assert sorted(parts) == [("t", 0), ("t", 3), ("u", 1)]
    if version >= 3:
        for blob in parts.values():
            assert [b.magic for b in MemoryRecords(blob)] == [2]  # exactly one v2 batch
        assert [(k, v) for _o, k, v in records_of(parts["t", 0])] == [(b"k0", b"v0"), (None, b"v1")]
        assert records_of(parts["u", 1]) == [(0, b"tombstone", None)]
    else:
        batches = list(MemoryRecords(parts["t", 0], check_crcs=True))
        assert [(b.magic, b.offset, b.key, b.value) for b in batches] == [(0, 0, b"k0", b"v0"), (0, 0, None, b"v1")]


def test_produce_request_default_version_and_time_out_alias():
    frame = P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, [create_message(b"x")])], 0, time_out=77)
    _cid, request = parse(PRODUCE, frame, 3)
    assert (request.acks, request.timeout_ms) == (0, 77)


@pytest.mark.parametrize("version", versions(FETCH))
def test_fetch_request(version):
    payloads = [FetchRequest("t", 0, 5, 1000), FetchRequest(b"t", 2, 0, 2000), FetchRequest("u", 1, 7, 3000)]
    frame = P.encode_fetch_request("cid", 3, payloads, max_wait_time=250, min_bytes=1, version=version)
    _cid, request = parse(FETCH, frame, version)
    assert (request.max_wait_ms, request.min_bytes) == (250, 1)
    if version < 15:
        assert request.replica_id == -1
    assert [(t.topic, [(p.partition, p.fetch_offset, p.partition_max_bytes) for p in t.partitions])
            for t in request.topics] == [("t", [(0, 5, 1000), (2, 0, 2000)]), ("u", [(1, 7, 3000)])]
    if version >= 7:
        assert (request.session_id, request.session_epoch) == (0, -1)  # no fetch session


@pytest.mark.parametrize("version", versions(LIST_OFFSETS))
def test_offset_request(version):
    payloads = [OffsetRequest("t", 0, -1, 5), OffsetRequest("t", 1, -2, 1), OffsetRequest("u", 0, 1234567, 1)]
    frame = P.encode_offset_request("cid", 4, payloads, version=version)
    _cid, request = parse(LIST_OFFSETS, frame, version)
    assert request.replica_id == -1
    got = [(t.name, p.partition_index, p.timestamp) for t in request.topics for p in t.partitions]
    assert got == [("t", 0, -1), ("t", 1, -2), ("u", 0, 1234567)]
    if version == 0:
        assert request.topics[0].partitions[0].max_num_offsets == 5


@pytest.mark.parametrize("version", versions(METADATA))
def test_metadata_request(version):
    _cid, request = parse(METADATA, P.encode_metadata_request("cid", 5, ["a", b"b"], version=version), version)
    assert [t.name for t in request.topics] == ["a", "b"]
    _cid, request = parse(METADATA, P.encode_metadata_request("cid", 5, version=version), version)
    assert request.topics == ([] if version == 0 else None)
    if version >= 4:
        assert request.allow_auto_topic_creation is True


def test_metadata_request_argument_forms():
    expected = P.encode_metadata_request("cid", 5, ["a"])
    assert P.encode_metadata_request("cid", 5, "a") == expected
    assert P.encode_metadata_request("cid", 5, payloads=["a"]) == expected
    assert P.encode_metadata_request("cid", 5, payloads=MetadataRequest(["a"])) == expected
    assert P.encode_metadata_request("cid", 5, topics=["x"], payloads=["a"]) == expected  # payloads win


@pytest.mark.parametrize("version", versions(FIND_COORDINATOR))
def test_consumer_metadata_request(version):
    for group in (b"grp", "grp", ConsumerMetadataRequest("grp"), ConsumerMetadataRequest([b"grp"]), ["grp"]):
        _cid, request = parse(FIND_COORDINATOR, P.encode_consumer_metadata_request("cid", 6, group,
                                                                                     version=version), version)
        if version >= 4:
            assert request.coordinator_keys == ["grp"]
        else:
            assert request.key == "grp"
        assert request.key_type == 0


def test_consumer_metadata_request_one_group_only():
    with pytest.raises(IllegalArgumentError):
        P.encode_consumer_metadata_request("cid", 6, ConsumerMetadataRequest(["a", "b"]))


@pytest.mark.parametrize("version", versions(OFFSET_COMMIT))
def test_offset_commit_request(version):
    payloads = [OffsetCommitRequest("t", 0, 10, "m0"), OffsetCommitRequest(b"t", 1, 11, None),
                OffsetCommitRequest("u", 0, 12, b"m2")]
    _cid, request = parse(OFFSET_COMMIT, P.encode_offset_commit_request("cid", 7, b"grp", payloads,
                                                                          version=version), version)
    assert request.group_id == "grp"
    if version >= 1:
        assert (request.generation_id_or_member_epoch, request.member_id) == (-1, "")
    got = [(t.name, p.partition_index, p.committed_offset, p.committed_metadata)
           for t in request.topics for p in t.partitions]
    assert got == [("t", 0, 10, "m0"), ("t", 1, 11, None), ("u", 0, 12, "m2")]


@pytest.mark.parametrize("version", versions(OFFSET_FETCH))
def test_offset_fetch_request(version):
    payloads = [OffsetFetchRequest("t", 0), OffsetFetchRequest("t", 2), OffsetFetchRequest("u", 1)]
    _cid, request = parse(OFFSET_FETCH, P.encode_offset_fetch_request("cid", 8, "grp", payloads,
                                                                        version=version), version)
    if version >= 8:
        (group,) = request.groups
        assert group.group_id == "grp"
        topics = group.topics
    else:
        assert request.group_id == "grp"
        topics = request.topics
    assert [(t.name, t.partition_indexes) for t in topics] == [("t", [0, 2]), ("u", [1])]


@pytest.mark.parametrize("encode, args", [
    (P.encode_produce_request, ("cid", 1, [])),
    (P.encode_fetch_request, ("cid", 1, [])),
    (P.encode_offset_request, ("cid", 1, [])),
    (P.encode_metadata_request, ("cid", 1)),
    (P.encode_consumer_metadata_request, ("cid", 1, "g")),
    (P.encode_offset_commit_request, ("cid", 1, "g", [])),
    (P.encode_offset_fetch_request, ("cid", 1, "g", [])),
])
def test_versions_outside_the_simple_range_are_refused(encode, args):
    with pytest.raises(UnsupportedVersionError):
        encode(*args, version=99)
    with pytest.raises(UnsupportedVersionError):
        encode(*args, version=-1)
    with pytest.raises(TypeError):
        encode(*args, version="3")
    with pytest.raises(TypeError):
        encode(*args, version=True)


def test_topic_id_versions_are_refused():
    with pytest.raises(UnsupportedVersionError):
        P.encode_produce_request("cid", 1, [], version=13)
    with pytest.raises(UnsupportedVersionError):
        P.encode_fetch_request("cid", 1, [], version=13)
    with pytest.raises(UnsupportedVersionError):
        P.decode_offset_commit_response(b"\x00" * 8, version=10)


def test_a_partition_named_twice_is_refused():
    for payloads in ([FetchRequest("t", 0, 0, 1), FetchRequest(b"t", 0, 5, 1)],):
        with pytest.raises(IllegalArgumentError):
            P.encode_fetch_request("cid", 1, payloads)
    with pytest.raises(IllegalArgumentError):
        P.encode_offset_commit_request("cid", 1, "g", [OffsetCommitRequest("t", 0, 1, None)] * 2)


def test_topics_must_be_text():
    with pytest.raises(TypeError):
        P.encode_fetch_request("cid", 1, [FetchRequest(5, 0, 0, 1)])
    with pytest.raises(IllegalArgumentError):
        P.encode_fetch_request("cid", 1, [FetchRequest(b"\xff", 0, 0, 1)])


# -- responses at every version --------------------------------------------------------

def _batch(*values, codec="none", base_offset=0):
    builder = MemoryRecordsBuilder(magic=2, compression_type=codec, base_offset=base_offset)
    for i, value in enumerate(values):
        builder.append(base_offset + i, 1_700_000_000_000, b"k%d" % i, value)
    return builder.build()


@pytest.mark.parametrize("version", versions(PRODUCE))
def test_decode_produce_response(version):
    R = PRODUCE.Response
    T = R.TopicProduceResponse
    part = T.PartitionProduceResponse
    response = R(responses=[T(name="t", partition_responses=[part(index=0, error_code=0, base_offset=42),
                                                             part(index=1, error_code=6, base_offset=-1)])])
    assert P.decode_produce_response(reply(PRODUCE, version, response), version=version) == [
        ProduceResponse("t", 0, 0, 42), ProduceResponse("t", 1, 6, -1)]


@pytest.mark.parametrize("version", versions(FETCH))
def test_decode_fetch_response(version):
    R = FETCH.Response
    T = R.FetchableTopicResponse
    part = T.PartitionData
    blob = _batch(b"a", b"b", base_offset=10) + _batch(b"c", codec="gzip", base_offset=12)
    response = R(responses=[T(topic="t", partitions=[
        part(partition_index=0, error_code=0, high_watermark=13, records=blob),
        part(partition_index=1, error_code=1, high_watermark=-1, records=None),
    ])])
    decoded = P.decode_fetch_response(reply(FETCH, version, response), version=version)
    assert [r[:4] for r in decoded] == [("t", 0, 0, 13), ("t", 1, 1, -1)]
    assert all(isinstance(r, FetchResponse) for r in decoded)
    assert list(decoded[0].messages) == [
        OffsetAndMessage(10, Message(2, 0, b"k0", b"a")),
        OffsetAndMessage(11, Message(2, 0, b"k1", b"b")),
        OffsetAndMessage(12, Message(2, 0, b"k0", b"c")),
    ]
    assert list(decoded[1].messages) == []


@pytest.mark.parametrize("version", [7, 12])
def test_decode_fetch_response_request_level_error(version):
    response = FETCH.Response(error_code=70, responses=[])  # FETCH_SESSION_ID_NOT_FOUND
    with pytest.raises(errors.for_code(70)):
        P.decode_fetch_response(reply(FETCH, version, response), version=version)


@pytest.mark.parametrize("version", versions(LIST_OFFSETS))
def test_decode_offset_response(version):
    R = LIST_OFFSETS.Response
    T = R.ListOffsetsTopicResponse
    part = T.ListOffsetsPartitionResponse
    if version == 0:
        parts = [part(partition_index=0, error_code=0, old_style_offsets=[9, 0]),
                 part(partition_index=1, error_code=3, old_style_offsets=[])]
        expected = [OffsetResponse("t", 0, 0, (9, 0)), OffsetResponse("t", 1, 3, ())]
    else:
        parts = [part(partition_index=0, error_code=0, timestamp=-1, offset=9),
                 part(partition_index=1, error_code=3, offset=-1),
                 part(partition_index=2, error_code=0, offset=-1)]  # no offset for that timestamp
        expected = [OffsetResponse("t", 0, 0, (9,)), OffsetResponse("t", 1, 3, ()), OffsetResponse("t", 2, 0, ())]
    response = R(topics=[T(name="t", partitions=parts)])
    assert P.decode_offset_response(reply(LIST_OFFSETS, version, response), version=version) == expected


@pytest.mark.parametrize("version", versions(METADATA))
def test_decode_metadata_response(version):
    R = METADATA.Response
    broker = R.MetadataResponseBroker
    T = R.MetadataResponseTopic
    part = T.MetadataResponsePartition
    response = R(
        brokers=[broker(node_id=1, host="h1", port=9092), broker(node_id=2, host="h2", port=9093)],
        topics=[T(error_code=0, name="t", partitions=[
            part(error_code=0, partition_index=0, leader_id=1, replica_nodes=[1, 2], isr_nodes=[1]),
            part(error_code=5, partition_index=1, leader_id=-1, replica_nodes=[2], isr_nodes=[])]),
            T(error_code=3, name="missing", partitions=[])])
    decoded = P.decode_metadata_response(reply(METADATA, version, response), version=version)
    assert decoded.brokers == [BrokerMetadata(1, "h1", 9092), BrokerMetadata(2, "h2", 9093)]
    assert decoded.topics == [
        TopicMetadata("t", 0, [PartitionMetadata("t", 0, 1, (1, 2), (1,), 0),
                               PartitionMetadata("t", 1, -1, (2,), (), 5)]),
        TopicMetadata("missing", 3, [])]


def test_decode_metadata_response_request_level_error():
    response = METADATA.Response(error_code=31, brokers=[], topics=[])  # CLUSTER_AUTHORIZATION_FAILED
    with pytest.raises(errors.ClusterAuthorizationFailedError):
        P.decode_metadata_response(reply(METADATA, 13, response), version=13)


@pytest.mark.parametrize("version", versions(FIND_COORDINATOR))
def test_decode_consumer_metadata_response(version):
    R = FIND_COORDINATOR.Response
    if version >= 4:
        response = R(coordinators=[R.Coordinator(key="g", node_id=3, host="h", port=1234, error_code=0)])
    else:
        response = R(error_code=0, node_id=3, host="h", port=1234)
    assert P.decode_consumer_metadata_response(reply(FIND_COORDINATOR, version, response),
                                               version=version) == ConsumerMetadataResponse(0, 3, "h", 1234)


def test_decode_consumer_metadata_response_without_coordinator():
    with pytest.raises(ProtocolError):
        P.decode_consumer_metadata_response(reply(FIND_COORDINATOR, 4, FIND_COORDINATOR.Response()), version=4)


@pytest.mark.parametrize("version", versions(OFFSET_COMMIT))
def test_decode_offset_commit_response(version):
    R = OFFSET_COMMIT.Response
    T = R.OffsetCommitResponseTopic
    part = T.OffsetCommitResponsePartition
    response = R(topics=[T(name="t", partitions=[part(partition_index=0, error_code=0),
                                                 part(partition_index=1, error_code=12)])])
    assert P.decode_offset_commit_response(reply(OFFSET_COMMIT, version, response), version=version) == [
        OffsetCommitResponse("t", 0, 0), OffsetCommitResponse("t", 1, 12)]


def _offset_fetch_response(version, partitions, group_error=0):
    R = OFFSET_FETCH.Response
    if version >= 8:
        G = R.OffsetFetchResponseGroup
        T = G.OffsetFetchResponseTopics
        part = T.OffsetFetchResponsePartitions
        topics = [T(name="t", partitions=[part(partition_index=i, committed_offset=o, metadata=m, error_code=e)
                                          for i, o, m, e in partitions])] if partitions else []
        return R(groups=[G(group_id="g", topics=topics, error_code=group_error)])
    T = R.OffsetFetchResponseTopic
    part = T.OffsetFetchResponsePartition
    topics = [T(name="t", partitions=[part(partition_index=i, committed_offset=o, metadata=m, error_code=e)
                                      for i, o, m, e in partitions])] if partitions else []
    return R(topics=topics, error_code=group_error if version >= 2 else 0)


@pytest.mark.parametrize("version", versions(OFFSET_FETCH))
def test_decode_offset_fetch_response(version):
    response = _offset_fetch_response(version, [(0, 5, "m", 0), (1, -1, None, 0)])
    assert P.decode_offset_fetch_response(reply(OFFSET_FETCH, version, response), version=version) == [
        OffsetFetchResponse("t", 0, 5, "m", 0), OffsetFetchResponse("t", 1, -1, None, 0)]


@pytest.mark.parametrize("version", [2, 7, 8, 9])
def test_decode_offset_fetch_response_group_level_error(version):
    with_partitions = _offset_fetch_response(version, [(0, -1, "", 0)], group_error=16)
    assert P.decode_offset_fetch_response(reply(OFFSET_FETCH, version, with_partitions), version=version) == [
        OffsetFetchResponse("t", 0, -1, "", 16)]
    without = _offset_fetch_response(version, [], group_error=16)
    with pytest.raises(NotCoordinatorError):
        P.decode_offset_fetch_response(reply(OFFSET_FETCH, version, without), version=version)


@pytest.mark.parametrize("decode", [P.decode_produce_response, P.decode_fetch_response, P.decode_offset_response,
                                    P.decode_metadata_response, P.decode_consumer_metadata_response,
                                    P.decode_offset_commit_response, P.decode_offset_fetch_response])
def test_decoders_reject_short_and_malformed_data(decode):
    with pytest.raises(BufferUnderflowError):
        decode(b"\x00\x00\x01")
    with pytest.raises(ProtocolError):
        decode(b"\x00\x00\x00\x01" + b"\x00\x00\x00\x05")  # a body cut short
    with pytest.raises(ProtocolError):
        decode(b"\x00\x00\x00\x01" + b"\x7f" * 40)


def test_decoders_ignore_trailing_bytes():
    # As Kafka's own clients do: some brokers pad their responses.
    body = reply(OFFSET_COMMIT, 2, OFFSET_COMMIT.Response(topics=[]))
    assert P.decode_offset_commit_response(body) == []
    assert P.decode_offset_commit_response(body + b"\x00") == []


def test_decoders_accept_bytearray_and_memoryview():
    body = reply(OFFSET_COMMIT, 2, OFFSET_COMMIT.Response(topics=[]))
    assert P.decode_offset_commit_response(bytearray(body)) == []
    assert P.decode_offset_commit_response(memoryview(body)) == []


# -- simple messages to record batches --------------------------------------------------

def _produced_records(messages, version=3):
    frame = P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, messages)], version=version)
    _cid, request = parse(PRODUCE, frame, version)
    blob = request.topic_data[0].partition_data[0].records
    batches = list(MemoryRecords(blob, check_crcs=True))
    return batches, [(r.key, r.value) for b in batches for r in b]


@pytest.mark.parametrize("make, codec", [
    (create_gzip_message, CODEC_GZIP),
    (create_snappy_message, CODEC_SNAPPY),
    (create_lz4_message, CODEC_LZ4),
    (create_zstd_message, CODEC_ZSTD),
])
def test_compressed_wrapper_becomes_a_compressed_batch(make, codec):
    message = make([b"one", (b"two", b"k2"), (b"three", None)], key=b"K")
    assert (message.magic, message.attributes, message.key) == (0, codec, b"K")
    batches, records = _produced_records([message])
    assert len(batches) == 1 and batches[0].magic == 2 and batches[0].compression_type == codec
    # A bare payload takes the set's key; pairs keep their own.
    assert records == [(b"K", b"one"), (b"k2", b"two"), (None, b"three")]
    assert [r.offset for r in batches[0]] == [0, 1, 2]


def test_wrapper_value_is_a_compressed_v0_message_set():
    message = create_gzip_message([(b"a", b"ka"), (b"b", None)])
    inner = gzip_decode(message.value)
    batches = list(MemoryRecords(inner, check_crcs=True))
    assert [(b.magic, b.offset, b.key, b.value, b.compression_type) for b in batches] == [
        (0, 0, b"ka", b"a", 0), (0, 1, None, b"b", 0)]


def test_snappy_wrapper_raw_or_xerial():
    for xerial in (True, False):
        message = create_snappy_message([b"s1", b"s2"], xerial_compatible=xerial)
        assert message.value.startswith(b"\x82SNAPPY\x00") == xerial
        _batches, records = _produced_records([message])
        assert records == [(None, b"s1"), (None, b"s2")]


def test_plain_and_compressed_messages_share_one_batch():
    messages = [create_message(b"p1", b"k"), create_gzip_message([b"g1", b"g2"]), create_message(b"p2")]
    batches, records = _produced_records(messages)
    assert len(batches) == 1 and batches[0].compression_type == CODEC_GZIP
    assert records == [(b"k", b"p1"), (None, b"g1"), (None, b"g2"), (None, b"p2")]


def test_format_v1_wrapper_keeps_inner_timestamps():
    builder = LegacyRecordBatchBuilder(1, "gzip")
    builder.append(0, 1_600_000_000_000, b"a", b"1")
    builder.append(1, 1_600_000_000_500, None, b"2")
    wrapper = LegacyRecordBatch(builder.build())
    message = Message(wrapper.magic, wrapper.attributes, wrapper.key, wrapper.value)
    batches, records = _produced_records([message])
    assert records == [(b"a", b"1"), (None, b"2")]
    assert [r.timestamp for r in batches[0]] == [1_600_000_000_000, 1_600_000_000_500]


def test_empty_message_list_sends_no_records():
    frame = P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, [])])
    _cid, request = parse(PRODUCE, frame, 3)
    assert request.topic_data[0].partition_data[0].records == b""


def test_legacy_versions_send_messages_as_they_are():
    messages = [create_message(b"a", b"k"), create_gzip_message([b"x", b"y"])]
    for version in (0, 1, 2):
        frame = P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, messages)], version=version)
        _cid, request = parse(PRODUCE, frame, version)
        blob = request.topic_data[0].partition_data[0].records
        assert blob == P._encode_message_set(messages)
        batches = list(MemoryRecords(blob, check_crcs=True))
        assert [(b.magic, b.attributes, b.key, b.value) for b in batches] == [tuple(m) for m in messages]


def test_legacy_versions_refuse_format_v2_messages():
    with pytest.raises(IllegalArgumentError):
        P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, [Message(2, 0, None, b"v")])], version=2)


@pytest.mark.parametrize("version", [0, 3])
def test_messages_must_be_bytes(version):
    with pytest.raises(TypeError):
        P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, [create_message("text")])], version=version)


# -- create_message_set ----------------------------------------------------------------

def test_create_message_set_uncompressed():
    assert create_message_set([b"a", (b"b", b"kb")], key=b"k") == [Message(0, 0, b"k", b"a"),
                                                                     Message(0, 0, b"kb", b"b")]
    assert create_message_set([]) == []


@pytest.mark.parametrize("codec", [CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD])
def test_create_message_set_compressed(codec):
    (message,) = create_message_set([(b"a", b"k1"), b"b"], codec=codec, key=b"K")
    assert (message.magic, message.attributes & 0x07, message.key) == (0, codec, b"K")
    _batches, records = _produced_records([message])
    assert records == [(b"k1", b"a"), (b"K", b"b")]


def test_create_message_set_unknown_codec():
    with pytest.raises(UnsupportedCodecError):
        create_message_set([b"a"], codec=7)


def test_gzip_compresslevel():
    data = [b"x" * 10000]
    fast = create_gzip_message(data, compresslevel=1)
    best = create_message_set(data, codec=CODEC_GZIP, compresslevel=9)[0]
    assert _produced_records([fast])[1] == _produced_records([best])[1] == [(None, b"x" * 10000)]


# -- record batches to simple messages -------------------------------------------------

def test_fetched_messages_from_every_format():
    v0 = LegacyRecordBatchBuilder(0)
    v0.append(0, None, b"k", b"v0")
    v1 = LegacyRecordBatchBuilder(1, "snappy")
    v1.append(1, 1_600_000_000_000, None, b"v1a")
    v1.append(2, 1_600_000_000_000, b"k", b"v1b")
    blob = v0.build() + v1.build() + _batch(b"v2", codec="lz4", base_offset=3)
    messages = list(FetchedMessages(blob))
    assert messages == [
        OffsetAndMessage(0, Message(0, 0, b"k", b"v0")),
        OffsetAndMessage(1, Message(1, 0, None, b"v1a")),
        OffsetAndMessage(2, Message(1, 0, b"k", b"v1b")),
        OffsetAndMessage(3, Message(2, 0, b"k0", b"v2")),
    ]
    # Re-iterable, and the simple private helper reads the same.
    assert list(FetchedMessages(blob)) == messages
    assert list(P._decode_message_set_iter(blob)) == messages


def test_fetched_messages_skip_control_batches():
    control = RecordBatchBuilder(is_transactional=True, is_control=True, producer_id=7, producer_epoch=0,
                                 base_offset=1)
    control.append(1, 1_700_000_000_000, encode_control_key(1), encode_marker_value(0))
    blob = _batch(b"data") + control.build() + _batch(b"more", base_offset=2)
    assert [(m.offset, m.message.value) for m in FetchedMessages(blob)] == [(0, b"data"), (2, b"more")]


def test_fetched_messages_partial_batches():
    whole = _batch(b"a", b"b")
    blob = whole + _batch(b"c", base_offset=2)[:-5]
    assert [m.offset for m in FetchedMessages(blob)] == [0, 1]   # the cut batch is left out
    with pytest.raises(ConsumerFetchSizeTooSmall):
        list(FetchedMessages(whole[:-1]))
    assert list(FetchedMessages(b"")) == []
    assert list(FetchedMessages(None)) == []


def test_fetched_messages_check_crcs():
    blob = bytearray(_batch(b"value"))
    blob[-1] ^= 0xFF
    with pytest.raises(ChecksumError):
        list(FetchedMessages(bytes(blob)))
    v0 = LegacyRecordBatchBuilder(0)
    v0.append(0, None, None, b"value")
    bad = bytearray(v0.build())
    bad[-1] ^= 0xFF
    with pytest.raises(ChecksumError):
        list(FetchedMessages(bytes(bad)))


def test_fetched_messages_repr():
    assert repr(FetchedMessages(b"abc")) == "FetchedMessages(3 bytes)"


# -- properties ----------------------------------------------------------------------------

keys_values = st.lists(st.tuples(st.one_of(st.none(), st.binary(max_size=30)),
                                 st.one_of(st.none(), st.binary(max_size=200))), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=keys_values, codec=st.sampled_from([CODEC_NONE, CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD]),
       base=st.integers(0, 2 ** 40))
def test_produce_then_fetch_keeps_keys_and_values(items, codec, base):
    messages = create_message_set([(v, k) for k, v in items], codec=codec)
    frame = P.encode_produce_request("cid", 1, [ProduceRequest("t", 0, messages)])
    _cid, request = parse(PRODUCE, frame, 3)
    blob = bytearray(request.topic_data[0].partition_data[0].records)
    # The broker assigns the base offset; the CRC does not cover it.
    blob[0:8] = struct.pack(">q", base)
    response = FETCH.Response(responses=[FETCH.Response.FetchableTopicResponse(topic="t", partitions=[
        FETCH.Response.FetchableTopicResponse.PartitionData(partition_index=0, high_watermark=base + len(items),
                                                            records=bytes(blob))])])
    (decoded,) = P.decode_fetch_response(reply(FETCH, 4, response))
    got = [(m.offset, m.message.key, m.message.value) for m in decoded.messages]
    assert got == [(base + i, k, v) for i, (k, v) in enumerate(items)]


def test_uuid_topic_names_pass_through():
    name = "topic-%s" % uuid.uuid4()
    _cid, request = parse(FETCH, P.encode_fetch_request("cid", 1, [FetchRequest(name, 0, 0, 1)]), 4)
    assert request.topics[0].topic == name
