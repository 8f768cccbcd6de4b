"""The simple KafkaProtocol frames against the embedded broker, over a raw socket.

Each test writes the bytes an ``encode_*`` method returns to a plain TCP
socket, reads the 4-byte size and then the response frame, and hands that
frame to the matching ``decode_*`` method, as 0.9.x's KafkaConnection did.
The broker is Tansu (see test/conftest.py); its known quirks are kept out of
the assertions: it drops offset-commit metadata, and its "latest offset" is
only right when every batch holds one record.
"""

from __future__ import annotations

import socket
import struct
import uuid

import pytest

from kafka.simple.common import (
    FetchRequest,
    Message,
    OffsetAndMessage,
    OffsetCommitRequest,
    OffsetFetchRequest,
    OffsetRequest,
    ProduceRequest,
    check_error,
)
from kafka.conn.blocking import BlockingConnection
from kafka.direct import create_topic
from kafka.protocol import (
    CODEC_GZIP,
    CODEC_LZ4,
    CODEC_SNAPPY,
    CODEC_ZSTD,
    KafkaProtocol,
    create_gzip_message,
    create_message,
    create_message_set,
    create_snappy_message,
)

CLIENT_ID = b"kafka-python"


class RawConnection:
    """The smallest simple-style connection: send a frame, read one back."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=15)
        self.correlation_id = 0

    def next_id(self) -> int:
        self.correlation_id += 1
        return self.correlation_id

    def _read(self, n: int) -> bytes:
        chunks, remaining = [], n
        while remaining:
            chunk = self.sock.recv(remaining)
            if not chunk:
                raise ConnectionResetError("the broker closed the connection")
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def round_trip(self, frame: bytes) -> bytes:
        self.sock.sendall(frame)
        (size,) = struct.unpack(">i", self._read(4))
        response = self._read(size)
        # The frame starts with the correlation id of the request.
        assert struct.unpack_from(">i", response)[0] == struct.unpack_from(">i", frame, 8)[0]
        return response

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw(broker):
    connection = RawConnection(broker.host, broker.port)
    yield connection
    connection.close()


@pytest.fixture
def topic(broker):
    name = "simple-%s" % uuid.uuid4().hex[:10]
    with BlockingConnection(broker.host, broker.port) as conn:
        create_topic(conn, name, partitions=2)
    return name


def produce(raw, topic, messages, partition=0, **kwargs):
    frame = KafkaProtocol.encode_produce_request(CLIENT_ID, raw.next_id(), [ProduceRequest(topic, partition, messages)],
                                                 **kwargs)
    version = kwargs.get("version")
    (response,) = KafkaProtocol.decode_produce_response(raw.round_trip(frame), version=version)
    check_error(response)
    assert (response.topic, response.partition, response.error) == (topic, partition, 0)
    return response.offset


def fetch(raw, topic, offset, partition=0, version=None):
    frame = KafkaProtocol.encode_fetch_request(CLIENT_ID, raw.next_id(), [FetchRequest(topic, partition, offset, 1 << 20)],
                                               max_wait_time=500, min_bytes=1, version=version)
    (response,) = KafkaProtocol.decode_fetch_response(raw.round_trip(frame), version=version)
    check_error(response)
    assert (response.topic, response.partition) == (topic, partition)
    # A batch may start before the offset asked for; skip as a simple consumer does.
    return response, [m for m in response.messages if m.offset >= offset]


def list_offset(raw, topic, time, partition=0):
    frame = KafkaProtocol.encode_offset_request(CLIENT_ID, raw.next_id(), [OffsetRequest(topic, partition, time, 1)])
    (response,) = KafkaProtocol.decode_offset_response(raw.round_trip(frame))
    check_error(response)
    return response.offsets


def test_produce_and_fetch_a_message(raw, topic):
    offset = produce(raw, topic, [create_message(b"some message")])
    assert isinstance(offset, int) and offset >= 0
    response, messages = fetch(raw, topic, offset)
    assert response.highwaterMark == offset + 1
    assert messages == [OffsetAndMessage(offset, Message(2, 0, None, b"some message"))]


def test_keyed_messages(raw, topic):
    offset = produce(raw, topic, [create_message(b"v1", b"k1"), create_message(b"v2"), create_message(None, b"k3")])
    _response, messages = fetch(raw, topic, offset)
    assert [(m.offset, m.message.key, m.message.value) for m in messages] == [
        (offset, b"k1", b"v1"), (offset + 1, None, b"v2"), (offset + 2, b"k3", None)]


def test_gzip_message(raw, topic):
    offset = produce(raw, topic, [create_gzip_message([b"gzip 1", (b"gzip 2", b"k2")], key=b"k")])
    _response, messages = fetch(raw, topic, offset)
    assert [(m.offset, m.message.key, m.message.value) for m in messages] == [
        (offset, b"k", b"gzip 1"), (offset + 1, b"k2", b"gzip 2")]


@pytest.mark.parametrize("xerial", [True, False])
def test_snappy_message(raw, topic, xerial):
    offset = produce(raw, topic, [create_snappy_message([b"snappy 1", b"snappy 2"], xerial_compatible=xerial)])
    _response, messages = fetch(raw, topic, offset)
    assert [(m.offset, m.message.value) for m in messages] == [(offset, b"snappy 1"), (offset + 1, b"snappy 2")]


@pytest.mark.parametrize("codec", [CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD])
def test_create_message_set_codecs(raw, topic, codec):
    values = [b"value-%d" % i * (i + 1) for i in range(20)]
    offset = produce(raw, topic, create_message_set(values, codec=codec, key=b"key"))
    _response, messages = fetch(raw, topic, offset)
    assert [m.message.value for m in messages] == values
    assert {m.message.key for m in messages} == {b"key"}
    assert [m.offset for m in messages] == list(range(offset, offset + len(values)))


def test_several_partitions_in_one_request(raw, topic):
    frame = KafkaProtocol.encode_produce_request(CLIENT_ID, raw.next_id(), [
        ProduceRequest(topic, 0, [create_message(b"p0")]),
        ProduceRequest(topic, 1, [create_message(b"p1")]),
    ])
    responses = KafkaProtocol.decode_produce_response(raw.round_trip(frame))
    assert sorted((r.partition, r.error) for r in responses) == [(0, 0), (1, 0)]
    offsets = {r.partition: r.offset for r in responses}
    frame = KafkaProtocol.encode_fetch_request(CLIENT_ID, raw.next_id(), [
        FetchRequest(topic, 0, offsets[0], 1 << 20), FetchRequest(topic, 1, offsets[1], 1 << 20)],
        max_wait_time=500, min_bytes=1)
    fetched = {r.partition: [m.message.value for m in r.messages] for r in
               KafkaProtocol.decode_fetch_response(raw.round_trip(frame))}
    assert fetched == {0: [b"p0"], 1: [b"p1"]}


def test_offset_request_latest_and_earliest(raw, topic):
    assert list_offset(raw, topic, -2) == (0,)
    assert list_offset(raw, topic, -1) == (0,)
    for i in range(3):
        produce(raw, topic, [create_message(b"m%d" % i)])  # one record per batch
    assert list_offset(raw, topic, -2) == (0,)
    assert list_offset(raw, topic, -1) == (3,)


def test_metadata_request_lists_the_topic(raw, topic, broker):
    frame = KafkaProtocol.encode_metadata_request(CLIENT_ID, raw.next_id(), [topic])
    metadata = KafkaProtocol.decode_metadata_response(raw.round_trip(frame))
    assert [(b.host, b.port) for b in metadata.brokers] == [(broker.host, broker.port)]
    (topic_metadata,) = metadata.topics
    assert (topic_metadata.topic, topic_metadata.error) == (topic, 0)
    assert sorted(p.partition for p in topic_metadata.partitions) == [0, 1]
    node_ids = {b.nodeId for b in metadata.brokers}
    for partition in topic_metadata.partitions:
        assert partition.error == 0 and partition.leader in node_ids
        assert partition.leader in partition.replicas and partition.leader in partition.isr

    frame = KafkaProtocol.encode_metadata_request(CLIENT_ID, raw.next_id())  # every topic
    everything = KafkaProtocol.decode_metadata_response(raw.round_trip(frame))
    assert topic in {t.topic for t in everything.topics}


def test_consumer_metadata_and_offsets(raw, topic, broker):
    group = "simple-group-%s" % uuid.uuid4().hex[:8]
    frame = KafkaProtocol.encode_consumer_metadata_request(CLIENT_ID, raw.next_id(), group.encode())
    coordinator = KafkaProtocol.decode_consumer_metadata_response(raw.round_trip(frame))
    check_error(coordinator)
    assert (coordinator.host, coordinator.port) == (broker.host, broker.port)

    frame = KafkaProtocol.encode_offset_commit_request(CLIENT_ID, raw.next_id(), group,
                                                       [OffsetCommitRequest(topic, 0, 3, "meta")])
    (committed,) = KafkaProtocol.decode_offset_commit_response(raw.round_trip(frame))
    check_error(committed)
    assert (committed.topic, committed.partition) == (topic, 0)

    frame = KafkaProtocol.encode_offset_fetch_request(CLIENT_ID, raw.next_id(), group,
                                                      [OffsetFetchRequest(topic, 0), OffsetFetchRequest(topic, 1)],
                                                      from_kafka=True)
    fetched = {r.partition: r for r in KafkaProtocol.decode_offset_fetch_response(raw.round_trip(frame))}
    assert fetched[0].offset == 3 and fetched[0].error == 0
    assert fetched[1].offset == -1


@pytest.mark.parametrize("produce_version, fetch_version", [(3, 4), (7, 11), (9, 12)])
def test_other_versions(raw, topic, produce_version, fetch_version):
    offset = produce(raw, topic, [create_gzip_message([b"a", b"b"])], version=produce_version)
    _response, messages = fetch(raw, topic, offset, version=fetch_version)
    assert [m.message.value for m in messages] == [b"a", b"b"]
