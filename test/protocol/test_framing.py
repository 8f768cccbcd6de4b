"""Request/response framing, byte for byte, and the framer's defences."""

from __future__ import annotations

import tracemalloc

import pytest

from kafka.errors import CorrelationIdError, FrameTooLargeError, IllegalStateError, ProtocolError
from kafka.protocol.apis import API_VERSIONS
from kafka.protocol.framing import ClientFramer, FrameBuffer, decode_request_header, encode_request, encode_response
from kafka.protocol.schema import Api, Field, Struct
from kafka.protocol.types import INT32, STRING

# A small flexible API, used to check response header v1 without depending on
# any particular real API's body.
ECHO = Api("Echo", 1000, (0, 1), flexible=1,
           request=Struct("EchoRequest", Field("text", STRING)),
           response=Struct("EchoResponse", Field("text", STRING), Field("n", INT32)))


def test_request_header_v1_bytes():
    # ApiVersions v0, correlation id 7, client id "kw".
    expected = bytes.fromhex(
        "0000000c"   # frame length: 12
        "0012"       # api key 18
        "0000"       # api version 0
        "00000007"   # correlation id
        "0002" "6b77"  # client id: int16 length 2, "kw"
    )                # (ApiVersions v0 has an empty body)
    assert encode_request(API_VERSIONS, 0, 7, "kw", {}) == expected


def test_request_header_v2_bytes():
    expected = bytes.fromhex(
        "00000013"     # frame length: 19
        "0012" "0003"  # api key 18, version 3
        "00000007"     # correlation id
        "0002" "6b77"  # client id stays a plain (non-compact) string in header v2
        "00"           # header tagged fields: none
        "03" "6b77"    # client_software_name: compact string, length+1 = 3
        "02" "31"      # client_software_version "1"
        "00"           # body tagged fields: none
    )
    request = API_VERSIONS.Request(client_software_name="kw", client_software_version="1")
    assert encode_request(API_VERSIONS, 3, 7, "kw", request) == expected
    header, pos = decode_request_header(expected[4:], lambda k, v: v >= 3)
    assert (header.api_key, header.api_version, header.correlation_id, header.client_id) == (18, 3, 7, "kw")
    assert API_VERSIONS.decode_request(expected[4 + pos:], 3) == request


# ApiVersions v3 response: header v0 (no tagged fields) even though v3 is flexible.
API_VERSIONS_V3_RESPONSE = bytes.fromhex(
    "00000013"       # frame length: 19
    "00000000"       # correlation id 0, response header v0
    "0000"           # error code
    "02"             # api_keys: compact array of 1
    "0012" "0000" "0004" "00"  # ApiVersions v0-4, entry tagged fields
    "00000000"       # throttle time
    "00"             # body tagged fields
)


def test_api_versions_response_always_uses_header_v0():
    framer = ClientFramer()
    framer.send_request(API_VERSIONS, 3, {})
    [response] = framer.receive_data(API_VERSIONS_V3_RESPONSE)
    assert response.correlation_id == 0
    assert response.body.error_code == 0
    [entry] = response.body.api_keys
    assert (entry.api_key, entry.min_version, entry.max_version) == (18, 0, 4)


def test_unsupported_version_answer_is_read_in_v0_layout():
    framer = ClientFramer()
    framer.send_request(API_VERSIONS, 4, {})
    frame = bytes.fromhex(
        "00000010" "00000000"
        "0023"                 # UNSUPPORTED_VERSION
        "00000001"             # plain array of 1 (v0 layout)
        "0012" "0000" "0002"   # the broker supports ApiVersions v0-2
    )
    [response] = framer.receive_data(frame)
    assert response.body.error_code == 35
    assert response.body.api_keys[0].max_version == 2


def test_flexible_response_header_v1_skips_tagged_fields():
    framer = ClientFramer()
    framer.send_request(ECHO, 1, {"text": "hi"})
    frame = bytes.fromhex(
        "00000011"
        "00000000"             # correlation id
        "01" "05" "02" "abcd"  # header tagged fields: one, tag 5, 2 bytes
        "03" "6869"            # text "hi"
        "0000002a"             # n = 42
        "00"
    )
    [response] = framer.receive_data(frame)
    assert response.body.text == "hi" and response.body.n == 42


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1000])
def test_any_chunking_yields_whole_responses_in_order(chunk):
    framer = ClientFramer()
    frames = []
    for i in range(5):
        cid, _ = framer.send_request(ECHO, 0, {"text": "x"})
        frames.append(encode_response(ECHO, 0, cid, {"text": "r%d" % i, "n": i}))
    stream = b"".join(frames)
    got = []
    for pos in range(0, len(stream), chunk):
        got.extend(framer.receive_data(stream[pos:pos + chunk]))
    assert [r.body.n for r in got] == [0, 1, 2, 3, 4]
    assert [r.correlation_id for r in got] == [0, 1, 2, 3, 4]
    assert framer.in_flight == 0


def test_huge_length_prefix_is_refused_without_allocating():
    framer = ClientFramer(max_frame_size=1024 * 1024)
    framer.send_request(ECHO, 0, {"text": "x"})
    tracemalloc.start()
    try:
        with pytest.raises(FrameTooLargeError):
            framer.receive_data(b"\x7f\xff\xff\xff" + b"\x00" * 100)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024
    with pytest.raises(IllegalStateError):
        framer.receive_data(b"")


def test_negative_length_is_a_protocol_error():
    framer = ClientFramer()
    framer.send_request(ECHO, 0, {"text": "x"})
    with pytest.raises(ProtocolError):
        framer.receive_data(b"\xff\xff\xff\xf0")


def test_http_answer_is_a_clear_error():
    framer = ClientFramer()
    framer.send_request(API_VERSIONS, 0, {})
    with pytest.raises(FrameTooLargeError, match="Kafka broker"):
        framer.receive_data(b"HTTP/1.1 400 Bad Request\r\n\r\n")


def test_unexpected_correlation_id():
    framer = ClientFramer()
    framer.send_request(ECHO, 0, {"text": "x"})
    with pytest.raises(CorrelationIdError):
        framer.receive_data(encode_response(ECHO, 0, 99, {"text": "", "n": 0}))


def test_response_without_request():
    with pytest.raises(CorrelationIdError):
        ClientFramer().receive_data(encode_response(ECHO, 0, 0, {"text": "", "n": 0}))


def test_requests_without_response_are_not_awaited():
    framer = ClientFramer()
    framer.send_request(ECHO, 0, {"text": "fire and forget"}, expect_response=False)
    cid, _ = framer.send_request(ECHO, 0, {"text": "x"})
    assert framer.in_flight == 1
    [response] = framer.receive_data(encode_response(ECHO, 0, cid, {"text": "", "n": 1}))
    assert response.correlation_id == cid == 1


def test_unsupported_version_answer_in_no_known_layout_still_reports_the_error():
    # librdkafka's mock broker answers ApiVersions v3 this way: error code, a
    # one-byte entry count, one entry, throttle time, no tagged fields.
    framer = ClientFramer()
    framer.send_request(API_VERSIONS, 3, {})
    body = bytes.fromhex("0023" "01" "0012" "0000" "0002" "00000000")
    [response] = framer.receive_data(len(body + b"1234").to_bytes(4, "big") + bytes(4) + body)
    assert response.body.error_code == 35


def test_an_answer_to_a_fire_and_forget_request_is_dropped():
    # Some brokers answer Produce with acks=0 although Kafka does not.
    framer = ClientFramer()
    ignored, _ = framer.send_request(ECHO, 0, {"text": "acks=0"}, expect_response=False)
    cid, _ = framer.send_request(ECHO, 0, {"text": "x"})
    stream = encode_response(ECHO, 0, ignored, {"text": "", "n": 0}) + encode_response(ECHO, 0, cid, {"text": "", "n": 1})
    [response] = framer.receive_data(stream)
    assert response.correlation_id == cid and response.body.n == 1
    assert framer.in_flight == 0


# A good response and junk can arrive in the same read: the good response is
# delivered first, then the junk breaks the stream.

def _answered_echo(framer: ClientFramer, n: int) -> bytes:
    cid, _ = framer.send_request(ECHO, 0, {"text": "x"})
    return encode_response(ECHO, 0, cid, {"text": "ok", "n": n})


@pytest.mark.parametrize("junk,error", [
    (b"\xff\xff\xff\xf0", ProtocolError),                       # negative length prefix
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", FrameTooLargeError),   # a length far above the limit
    (b"\x00\x00\x00\x04\x00\x00\x00\x63", CorrelationIdError),   # a whole frame answering nothing sent
    (b"\x00\x00\x00\x02\x00\x00", ProtocolError),               # a frame too short for a correlation id
])
def test_good_responses_before_junk_in_one_read_are_delivered_first(junk, error):
    framer = ClientFramer()
    first = _answered_echo(framer, 1)
    second = _answered_echo(framer, 2)
    framer.send_request(ECHO, 0, {"text": "never answered"})
    responses = framer.receive_data(first + second + junk)
    assert [r.body.n for r in responses] == [1, 2]
    assert isinstance(framer.error, error)
    # The stream is broken from here on: the next call raises the cause once,
    # then the framer refuses to be used.
    with pytest.raises(error):
        framer.receive_data(b"")
    with pytest.raises(IllegalStateError):
        framer.receive_data(b"")


def test_junk_alone_still_raises_at_once():
    framer = ClientFramer()
    framer.send_request(ECHO, 0, {"text": "x"})
    with pytest.raises(ProtocolError):
        framer.receive_data(b"\xff\xff\xff\xf0")
    assert isinstance(framer.error, ProtocolError)


def test_frame_buffer_hands_back_whole_frames_before_a_bad_prefix():
    frames = FrameBuffer(max_frame_size=16)
    got = frames.feed(b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x01c" + b"\x00\x00\x01\x00")
    assert [bytes(f) for f in got] == [b"ab", b"c"]
    with pytest.raises(FrameTooLargeError):
        frames.feed(b"more")
