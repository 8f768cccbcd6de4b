"""FrameAssembler: frames read straight into one reused buffer, cut at their 4-byte length prefixes."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.errors import CorrelationIdError, FrameTooLargeError, IllegalStateError, ProtocolError
from kafka.protocol.framing import ClientFramer, FrameAssembler, encode_response
from kafka.protocol.schema import Api, Field, Struct
from kafka.protocol.types import INT32, STRING

# A small API of our own, so no real API's body matters here.
ECHO = Api("Echo", 1000, (0, 1), flexible=1,
           request=Struct("EchoRequest", Field("text", STRING)),
           response=Struct("EchoResponse", Field("text", STRING), Field("n", INT32)))


def framed(body: bytes) -> bytes:
    """A frame as the specification lays it out: a big-endian 4-byte length, then the body."""
    return struct.pack(">i", len(body)) + body


def read_into(receive_buffer, received, stream: bytes, cap: int = 1 << 30):
    """Write ``stream`` as a socket would, at most ``cap`` bytes a read; all that ``received`` returned.

    Frames (views valid until the next read) are kept as bytes.
    """
    got = []
    pos = 0
    while pos < len(stream):
        space = receive_buffer()
        n = min(len(space), cap, len(stream) - pos)
        space[:n] = stream[pos:pos + n]
        pos += n
        got += [bytes(item) if isinstance(item, memoryview) else item for item in received(n)]
    return got


def read(assembler: FrameAssembler, stream: bytes, cap: int = 1 << 30):
    """The frames' bytes, ``stream`` read into ``assembler``."""
    return read_into(assembler.receive_buffer, assembler.received, stream, cap)


@settings(max_examples=120, deadline=None)
@given(bodies=st.lists(st.binary(max_size=3000), max_size=30), cap=st.integers(1, 5000))
def test_any_reads_give_back_every_frame_whole_and_in_order(bodies, cap):
    assembler = FrameAssembler()
    assert read(assembler, b"".join(map(framed, bodies)), cap) == bodies
    assert assembler.buffered == 0


def test_a_frame_larger_than_the_buffer_arrives_whole():
    body = bytes(range(256)) * 2500  # 640,000 bytes, ten times the buffer it starts with
    assembler = FrameAssembler()
    stream = framed(body) + framed(b"next")
    # The prefix first: from then on the space offered holds the rest of the frame.
    space = assembler.receive_buffer()
    space[:4] = stream[:4]
    assert assembler.received(4) == []
    assert len(assembler.receive_buffer()) >= len(body)
    assert read(assembler, stream[4:], cap=1000) == [body, b"next"]


def test_the_buffer_is_used_again_for_the_next_frames():
    assembler = FrameAssembler()
    owners = []
    for i in range(20):
        space = assembler.receive_buffer()
        data = framed(b"x" * 50_000 + bytes([i]))  # fits the space offered before any prefix is in
        space[:len(data)] = data
        [frame] = assembler.received(len(data))
        assert frame[-1] == i
        owners.append(frame.obj)
    assert all(owner is owners[0] for owner in owners)


def test_a_view_still_held_is_never_overwritten():
    assembler = FrameAssembler()
    [frame] = [f for f in _one_read(assembler, framed(b"first frame"))]
    kept = frame[0:5]  # a view made from the frame, outlives it
    [later] = _one_read(assembler, framed(b"OTHER BYTES"))
    assert bytes(kept) == b"first"
    assert bytes(later) == b"OTHER BYTES"
    owner = later.obj
    assert owner is not kept.obj
    # Once nothing holds the old buffer, the new one is reused as usual.
    del kept, frame
    [again] = _one_read(assembler, framed(b"third"))
    assert again.obj is owner
    # Frames handed out before are released when more bytes are asked for.
    with pytest.raises(ValueError):
        bytes(later)


def _one_read(assembler, data):
    space = assembler.receive_buffer()
    space[:len(data)] = data
    return assembler.received(len(data))


def test_a_huge_frame_does_not_keep_its_buffer():
    assembler = FrameAssembler()
    assembler.KEPT_SIZE = 512 * 1024
    body = b"y" * (700 * 1024)
    assert read(assembler, framed(body)) == [body]
    assert read(assembler, framed(b"small")) == [b"small"]
    assert len(assembler.receive_buffer()) <= FrameAssembler.INITIAL_SIZE


def test_frames_before_a_bad_prefix_come_first_then_the_error():
    assembler = FrameAssembler(max_frame_size=16)
    data = framed(b"ab") + framed(b"c") + b"\x00\x00\x01\x00"
    assert [bytes(f) for f in _one_read(assembler, data)] == [b"ab", b"c"]
    assert isinstance(assembler.error, FrameTooLargeError)
    with pytest.raises(FrameTooLargeError):
        _one_read(assembler, b"more")


@pytest.mark.parametrize("prefix, error", [
    (b"\x7f\xff\xff\xff", FrameTooLargeError),
    (b"\xff\xff\xff\xf0", ProtocolError),
    (b"HTTP", FrameTooLargeError),
])
def test_a_bad_prefix_alone_raises_without_growing_the_buffer(prefix, error):
    assembler = FrameAssembler(max_frame_size=1024 * 1024)
    with pytest.raises(error):
        _one_read(assembler, prefix + b"\x00" * 100)
    assert len(assembler.receive_buffer()) <= FrameAssembler.INITIAL_SIZE


# -- through ClientFramer ------------------------------------------------------------------------


def _answers(framer: ClientFramer, count: int) -> bytes:
    stream = b""
    for i in range(count):
        cid, _ = framer.send_request(ECHO, 0, {"text": "x"})
        stream += encode_response(ECHO, 0, cid, {"text": "r%d" % i, "n": i})
    return stream


def _framer_read(framer: ClientFramer, stream: bytes, cap: int):
    return read_into(framer.receive_buffer, framer.received, stream, cap)


@pytest.mark.parametrize("cap", [1, 3, 7, 1000])
def test_client_framer_reads_responses_in_any_chunking(cap):
    framer = ClientFramer()
    got = _framer_read(framer, _answers(framer, 5), cap)
    assert [(r.correlation_id, r.body.text, r.body.n) for r in got] == [(i, "r%d" % i, i) for i in range(5)]
    assert framer.in_flight == 0


def test_client_framer_delivers_good_responses_before_junk_then_raises():
    framer = ClientFramer()
    stream = _answers(framer, 2)
    framer.send_request(ECHO, 0, {"text": "never answered"})
    responses = _framer_read(framer, stream + b"\x00\x00\x00\x04\x00\x00\x00\x63", 1 << 20)
    assert [r.body.n for r in responses] == [0, 1]
    assert isinstance(framer.error, CorrelationIdError)
    with pytest.raises(CorrelationIdError):
        framer.receive_buffer()
    with pytest.raises(IllegalStateError):
        framer.receive_buffer()


def test_client_framer_received_needs_a_buffer_first():
    with pytest.raises(IllegalStateError):
        ClientFramer().received(3)
