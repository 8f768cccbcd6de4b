"""Produce frames keep large record sets as buffers of their own, byte-identical once joined."""

from __future__ import annotations

import pytest

from kafka.protocol.apis import PRODUCE
from kafka.protocol.framing import ClientFramer, encode_request, encode_request_header, encode_request_parts
from kafka.protocol.types import SPILL_SIZE, PartsBuffer


def produce(records_by_partition):
    parts = [PRODUCE.Request.TopicProduceData.PartitionProduceData(index=i, records=records)
             for i, records in enumerate(records_by_partition)]
    return PRODUCE.Request(transactional_id=None, acks=1, timeout_ms=30000,
                           topic_data=[PRODUCE.Request.TopicProduceData(name="t", topic_id=None,
                                                                        partition_data=parts)])


def copied(request, version):
    """The frame as the plain schema encoder writes it, every byte copied into one buffer."""
    out = bytearray()
    encode_request_header(out, PRODUCE, version, 5, "kw")
    out += PRODUCE.encode_request(request, version)
    return len(out).to_bytes(4, "big") + bytes(out)


@pytest.mark.parametrize("version", [3, 9, 12])
def test_large_record_sets_are_parts_of_their_own(version):
    big, other = bytes(range(256)) * (SPILL_SIZE // 256 + 1), b"\x07" * (SPILL_SIZE * 2)
    records = [big, b"small", None, other]
    parts = encode_request_parts(PRODUCE, version, 5, "kw", produce(records))
    assert any(part is big for part in parts) and any(part is other for part in parts)
    assert all(parts)
    assert b"".join(parts) == copied(produce(records), version)
    assert encode_request(PRODUCE, version, 5, "kw", produce(records)) == b"".join(parts)


def test_small_frames_are_one_part():
    parts = encode_request_parts(PRODUCE, 9, 1, "kw", produce([b"a" * (SPILL_SIZE - 1)]))
    assert len(parts) == 1


def test_framer_returns_the_same_frame_both_ways():
    request = produce([b"r" * SPILL_SIZE])
    cid_a, frame = ClientFramer(client_id="kw").send_request(PRODUCE, 9, request)
    cid_b, parts = ClientFramer(client_id="kw").send_request_parts(PRODUCE, 9, request)
    assert (cid_a, frame) == (cid_b, b"".join(parts)) and len(parts) > 1


def test_parts_buffer_without_spills_is_its_bytes():
    out = PartsBuffer(2)
    out += b"ab"
    assert out.parts() == [b"\x00\x00ab"]
