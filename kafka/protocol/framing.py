"""Request/response headers and a sans-IO framer for one broker connection.

Kafka frames every message with a 4-byte big-endian length. A client sends
requests with a header naming the API, version, correlation id and client id,
and the broker answers each request, in order, with a response whose header
repeats the correlation id.

:class:`ClientFramer` keeps the requests in flight, accepts received bytes in
any chunking and hands back whole, decoded responses. It never touches a
socket: the connection layer feeds it bytes and writes out what it returns.
"""

from __future__ import annotations

import struct
from collections import deque
from typing import Any, Deque, List, NamedTuple, Optional, Tuple

from kafka.errors import CorrelationIdError, FrameTooLargeError, IllegalStateError, ProtocolError
from kafka.protocol import types as T
from kafka.protocol.negotiate import decode_api_versions_response
from kafka.protocol.schema import Api, StructValue

_SIZE = struct.Struct(">i")
_REQUEST_HEADER = struct.Struct(">hhi")
_CORRELATION = struct.Struct(">i")

#: Default largest frame accepted from a peer (Kafka's own socket.request.max.bytes).
DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024

#: ApiVersions is answered with response header v0 whatever its version, so a
#: client that does not yet know the broker's versions can always read it.
API_VERSIONS_KEY = 18


class RequestHeader(NamedTuple):
    """The header of a request as a broker sees it."""

    api_key: int
    api_version: int
    correlation_id: int
    client_id: Optional[str]


def encode_request_header(out: bytearray, api: Api, version: int, correlation_id: int,
                          client_id: Optional[str]) -> None:
    """Append a request header (v1, or v2 for flexible versions) to ``out``."""
    out += _REQUEST_HEADER.pack(api.key, version, correlation_id)
    # The client id keeps the plain (non-compact) string encoding in header v2.
    T.STRING.plain.write(out, client_id)
    if api.request_header_version(version) >= 2:
        out.append(0)  # no tagged fields


def encode_request(api: Api, version: int, correlation_id: int, client_id: Optional[str],
                   request: Any) -> bytes:
    """A whole request frame: length prefix, header and body."""
    return _whole(encode_request_parts(api, version, correlation_id, client_id, request))


def _whole(parts: List[bytes]) -> bytes:
    return parts[0] if len(parts) == 1 else b"".join(parts)


def encode_request_parts(api: Api, version: int, correlation_id: int, client_id: Optional[str],
                         request: Any) -> List[bytes]:
    """A whole request frame as buffers to write in order.

    Large record sets (a Produce request's batches) are buffers of their
    own, not copied into the frame (see :class:`~kafka.protocol.types.PartsBuffer`).
    """
    out = T.PartsBuffer(4)
    encode_request_header(out, api, version, correlation_id, client_id)
    api.write_request(out, request, version)
    _SIZE.pack_into(out, 0, len(out) + out.spilled_size - 4)
    return out.parts()


def response_header_version(api: Api, version: int) -> int:
    """Header version of a response to ``api`` at ``version``."""
    if api.key == API_VERSIONS_KEY:
        return 0
    return api.response_header_version(version)


def skip_tagged_fields(buf: bytes, pos: int) -> int:
    """Skip a tagged-field section (header tags carry nothing we use)."""
    count, pos = T.read_uvarint(buf, pos)
    for _ in range(count):
        _tag, pos = T.read_uvarint(buf, pos)
        size, pos = T.read_uvarint(buf, pos)
        pos += size
        if pos > len(buf):
            raise ProtocolError("header tagged field runs past the end of the frame")
    return pos


def encode_response(api: Api, version: int, correlation_id: int, response: Any) -> bytes:
    """A whole response frame (for test peers and brokers written in Python)."""
    out = bytearray(4)
    out += _CORRELATION.pack(correlation_id)
    if response_header_version(api, version) >= 1:
        out.append(0)
    out += api.encode_response(response, version)
    _SIZE.pack_into(out, 0, len(out) - 4)
    return bytes(out)


class FrameBuffer:
    """Collects bytes in any chunking and cuts them into length-prefixed frames.

    A length prefix above ``max_frame_size`` raises :class:`FrameTooLargeError`
    before anything is allocated for it; a negative one raises
    :class:`ProtocolError`. When whole frames precede the bad prefix in the
    same chunk, :meth:`feed` returns them first and raises the error on its
    next call: a peer's good answers are never lost to the junk after them.
    Chunks are kept in a list and joined only once a whole frame is present,
    so a large frame arriving in small pieces costs linear, not quadratic,
    time.
    """

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size
        self._chunks: List[bytes] = []
        self._buffered = 0
        self._need = 4  # bytes required before the next step can be taken
        self._frame_size = -1  # size of the frame being assembled, -1 while reading its prefix
        self._error: Optional[ProtocolError] = None  # a bad prefix found after frames already returned

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as frames."""
        return self._buffered

    @property
    def error(self) -> Optional[ProtocolError]:
        """The bad length prefix found after frames already returned, raised by the next :meth:`feed`."""
        return self._error

    def feed(self, data: bytes) -> List[memoryview]:
        """Add received bytes; return every frame body completed by them.

        Frames are views of the received bytes, not copies: a Fetch
        response's megabytes are copied once, by the decoder that takes
        the records out. A bad length prefix raises; if frames came before
        it in ``data`` they are returned and the error is raised by the next
        call instead.
        """
        if self._error is not None:
            raise self._error
        if data:
            self._chunks.append(bytes(data))
            self._buffered += len(data)
        frames: List[memoryview] = []
        while self._buffered >= self._need:
            buf = self._chunks[0] if len(self._chunks) == 1 else b"".join(self._chunks)
            view = memoryview(buf)
            pos = 0
            while True:
                if self._frame_size < 0:
                    if len(buf) - pos < 4:
                        break
                    size = _SIZE.unpack_from(buf, pos)[0]
                    if size < 0 or size > self.max_frame_size:
                        self._error = _bad_prefix(size, self.max_frame_size)
                        if not frames:
                            raise self._error
                        return frames
                    self._frame_size = size
                    pos += 4
                if len(buf) - pos < self._frame_size:
                    break
                end = pos + self._frame_size
                frames.append(view[pos:end])
                pos = end
                self._frame_size = -1
            rest = buf[pos:]
            self._chunks = [rest] if rest else []
            self._buffered = len(rest)
            self._need = 4 if self._frame_size < 0 else self._frame_size
        return frames


def _bad_prefix(size: int, max_frame_size: int) -> ProtocolError:
    if size < 0:
        return ProtocolError("negative frame length %d" % size)
    return FrameTooLargeError("peer announced a frame of %d bytes; the limit is %d (is it a Kafka broker?)"
                              % (size, max_frame_size))


class FrameAssembler:
    """Cuts received bytes into length-prefixed frames, the bytes read straight into its own buffer.

    Like :class:`FrameBuffer`, for a reader that can fill a buffer in place
    (``socket.recv_into``): :meth:`receive_buffer` gives the writable space
    where the next bytes go, :meth:`received` says how many arrived and
    returns the frames they completed. The bytes are copied once, by the
    socket; a frame is always whole in one buffer (grown to the frame's
    size once its prefix is read), so no frame is joined from pieces; and
    the buffer is used again and again, so a steady stream of large
    responses does not make the process take fresh memory from the system
    (and fault its pages in) for every one.

    The frames returned are views of that buffer, valid until the next
    :meth:`receive_buffer`: decode them before asking for more bytes.
    Should a view of one still exist then, the buffer is left to it and a
    new one used, so what it shows is never overwritten. (That takes
    CPython, which will not resize a buffer something views; PyPy lets it,
    so there a view must not be kept at all. kafkawire's decoders copy out
    what they keep.)

    Bad length prefixes raise as in :class:`FrameBuffer`, frames before
    them in the same read coming first.
    """

    #: Size of the buffer at first, and what it goes back to after a frame much larger.
    INITIAL_SIZE = 64 * 1024
    #: Free space offered at least for each read.
    MIN_READ = 32 * 1024
    #: A buffer grown past this size for a frame is not kept for the next ones: a
    #: connection holds at most this much between responses (a consumer's Fetch
    #: responses run to several megabytes).
    KEPT_SIZE = 16 * 1024 * 1024

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size
        self._buf = bytearray(self.INITIAL_SIZE)
        self._start = 0  # first byte not yet returned in a frame
        self._end = 0  # end of the bytes received
        self._views: List[memoryview] = []  # handed out since the last receive_buffer()
        self._error: Optional[ProtocolError] = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as frames."""
        return self._end - self._start

    @property
    def error(self) -> Optional[ProtocolError]:
        """The bad length prefix found after frames already returned, raised by the next :meth:`received`."""
        return self._error

    def receive_buffer(self) -> memoryview:
        """Writable space for the next bytes: ``MIN_READ`` at least, the rest of the frame once its size is known."""
        self._release_views()
        pending = self._end - self._start
        need = self.MIN_READ
        if pending >= 4:
            size = _SIZE.unpack_from(self._buf, self._start)[0]
            if 0 <= size <= self.max_frame_size:
                need = max(4 + size - pending, self.MIN_READ)
        buf = self._buf
        if self._in_use(buf) or (len(buf) > self.KEPT_SIZE and pending + need <= self.INITIAL_SIZE):
            # A view of the old buffer is still held, or a huge frame made it huge: a new one.
            buf = bytearray(max(self.INITIAL_SIZE, pending + need))
            buf[:pending] = self._buf[self._start:self._end]
            self._buf = buf
            self._start, self._end = 0, pending
        elif len(buf) - self._end < need:
            if self._start:
                buf[:pending] = buf[self._start:self._end]  # move what is left of a frame to the front
                self._start, self._end = 0, pending
            if len(buf) < pending + need:
                # An eighth more: the next frames tend to be about as large, not exactly.
                buf.extend(bytes((pending + need) * 9 // 8 - len(buf)))
        view = memoryview(buf)[self._end:]
        self._views.append(view)
        return view

    def received(self, count: int) -> List[memoryview]:
        """``count`` bytes were written at the start of the last :meth:`receive_buffer`; return whole frames."""
        if self._error is not None:
            raise self._error
        self._end += count
        buf = self._buf
        frames: List[memoryview] = []
        whole = memoryview(buf)
        self._views.append(whole)
        pos, end = self._start, self._end
        while end - pos >= 4:
            size = _SIZE.unpack_from(buf, pos)[0]
            if size < 0 or size > self.max_frame_size:
                self._error = _bad_prefix(size, self.max_frame_size)
                if not frames:
                    raise self._error
                break
            if end - pos - 4 < size:
                break
            frames.append(whole[pos + 4:pos + 4 + size])
            pos += 4 + size
        self._start = pos
        if pos == end:
            self._start = self._end = 0
        self._views.extend(frames)
        return frames

    def _release_views(self) -> None:
        for view in self._views:
            try:
                view.release()
            except BufferError:  # something made a view of this view: _in_use() sees it
                pass
        self._views.clear()

    @staticmethod
    def _in_use(buf: bytearray) -> bool:
        """Whether something still holds a view of ``buf`` (it cannot change size then)."""
        try:
            buf.append(0)
        except BufferError:
            return True
        del buf[-1]
        return False


class Response(NamedTuple):
    """A decoded response and the request it answers."""

    correlation_id: int
    api: Api
    version: int
    body: StructValue
    request: Any


class ClientFramer:
    """Sans-IO client side of one broker connection.

    ``send_request`` returns the bytes to write and records the request as in
    flight; ``receive_data`` takes bytes read from the socket and returns the
    responses they complete, each matched to its request. Kafka answers the
    requests of one connection in order, so a correlation id other than the
    oldest outstanding one means the stream is broken:
    :class:`CorrelationIdError`. After any :class:`ProtocolError` the framer
    is unusable and the connection must be closed.

    Bytes read at once may hold whole responses followed by junk. The
    responses are returned, :attr:`error` is set to the junk's
    :class:`ProtocolError` and the next :meth:`receive_data` raises it; the
    caller completes the returned requests, then closes the connection,
    failing only the requests still in flight.
    """

    def __init__(self, client_id: Optional[str] = "kafkawire",
                 max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
                 first_correlation_id: int = 0) -> None:
        self.client_id = client_id
        self._frames = FrameBuffer(max_frame_size)
        self._assembler: Optional[FrameAssembler] = None  # made by the first receive_buffer()
        self._next_id = first_correlation_id
        self._in_flight: Deque[Tuple[int, Api, int, Any, bool]] = deque()
        self._broken: Optional[BaseException] = None
        self._raised = False  # whether _broken has been raised to the caller yet

    @property
    def error(self) -> Optional[BaseException]:
        """The :class:`ProtocolError` that broke the byte stream, if one did."""
        return self._broken

    @property
    def in_flight(self) -> int:
        """How many requests await a response."""
        return sum(1 for entry in self._in_flight if entry[4])

    def next_correlation_id(self) -> int:
        """Reserve and return the next correlation id (wraps at 2**31)."""
        cid = self._next_id
        self._next_id = (cid + 1) & 0x7FFFFFFF
        return cid

    def send_request(self, api: Api, version: int, request: Any,
                     expect_response: bool = True) -> Tuple[int, bytes]:
        """Encode ``request``; return its correlation id and the frame to write.

        ``expect_response=False`` is for requests the broker never answers
        (Produce with ``acks=0``).
        """
        cid, parts = self.send_request_parts(api, version, request, expect_response)
        return cid, _whole(parts)

    def send_request_parts(self, api: Api, version: int, request: Any,
                           expect_response: bool = True) -> Tuple[int, List[bytes]]:
        """:meth:`send_request`, the frame as buffers to write in order (see :func:`encode_request_parts`)."""
        self._check_usable()
        cid = self.next_correlation_id()
        parts = encode_request_parts(api, version, cid, self.client_id, request)
        # Requests sent without expecting an answer stay in the queue, marked,
        # because some brokers answer them anyway (Produce with acks=0 on
        # Tansu and librdkafka's mock): such an answer is then dropped.
        self._in_flight.append((cid, api, version, request, expect_response))
        return cid, parts

    def receive_data(self, data: bytes) -> List[Response]:
        """Feed bytes read from the connection; return completed responses."""
        self._check_usable()
        return self._responses(self._frames.feed, data, self._frames)

    def receive_buffer(self) -> memoryview:
        """Writable space for the next bytes from the connection (``socket.recv_into``); see :meth:`received`.

        An alternative to :meth:`receive_data` that spares a copy and fresh
        memory per response (see :class:`FrameAssembler`); a connection uses
        one or the other.
        """
        self._check_usable()
        if self._assembler is None:
            self._assembler = FrameAssembler(self._frames.max_frame_size)
        return self._assembler.receive_buffer()

    def received(self, count: int) -> List[Response]:
        """``count`` bytes were written into the last :meth:`receive_buffer`; return completed responses."""
        self._check_usable()
        if self._assembler is None:
            raise IllegalStateError("received() without receive_buffer()")
        return self._responses(self._assembler.received, count, self._assembler)

    def _responses(self, frames_of: Any, arrived: Any, source: Any) -> List[Response]:
        """Decode the frames ``frames_of(arrived)`` completes; ``source.error`` tells of junk after them."""
        responses: List[Response] = []
        try:
            for frame in frames_of(arrived):
                response = self._decode(frame)
                if response is not None:
                    responses.append(response)
        except ProtocolError as exc:
            self._broken = exc
            if responses:
                return responses  # deliver what was whole; the next call raises exc
            self._raised = True
            raise
        if source.error is not None:
            # Whole frames came before a bad length prefix: they are returned,
            # the next call raises.
            self._broken = source.error
        return responses

    def fail_all(self) -> List[Tuple[int, Api, int, Any]]:
        """Forget every request in flight and return those awaiting a response (on disconnect)."""
        pending = [entry[:4] for entry in self._in_flight if entry[4]]
        self._in_flight.clear()
        return pending

    def _check_usable(self) -> None:
        if self._broken is not None:
            if not self._raised:
                self._raised = True
                raise self._broken
            raise IllegalStateError("the connection's byte stream is broken: %s" % (self._broken,))

    def _decode(self, frame: memoryview) -> Optional[Response]:
        if len(frame) < 4:
            raise ProtocolError("response frame of %d bytes has no correlation id" % len(frame))
        cid = _CORRELATION.unpack_from(frame, 0)[0]
        # Unanswered fire-and-forget requests ahead of this response were
        # indeed not answered: forget them.
        while self._in_flight and not self._in_flight[0][4] and self._in_flight[0][0] != cid:
            self._in_flight.popleft()
        if not self._in_flight:
            raise CorrelationIdError("received a response (correlation id %d) with no request in flight" % cid)
        expected, api, version, request, expect_response = self._in_flight[0]
        if cid != expected:
            raise CorrelationIdError("expected correlation id %d, received %d" % (expected, cid))
        self._in_flight.popleft()
        if not expect_response:
            return None  # an answer nobody waits for
        pos = 4
        if response_header_version(api, version) >= 1:
            try:
                pos = skip_tagged_fields(frame, pos)
            except T.DecodeError as exc:
                raise ProtocolError("bad response header: %s" % exc) from None
        body_bytes = frame[pos:]
        if api.key == API_VERSIONS_KEY:
            body = decode_api_versions_response(body_bytes, version)
        else:
            body = api.decode_response(body_bytes, version)
        return Response(cid, api, version, body, request)


def decode_request_header(frame: bytes, flexible_lookup: Any) -> Tuple[RequestHeader, int]:
    """Decode the header at the start of a request frame body.

    ``flexible_lookup(api_key, api_version)`` tells whether the request uses
    header v2 (for test peers that parse what a client sends).
    """
    try:
        api_key, version, cid = _REQUEST_HEADER.unpack_from(frame, 0)
        client_id, pos = T.STRING.plain.read(frame, _REQUEST_HEADER.size)
    except (struct.error, T.DecodeError) as exc:
        raise ProtocolError("bad request header: %s" % exc) from None
    if flexible_lookup(api_key, version):
        try:
            pos = skip_tagged_fields(frame, pos)
        except T.DecodeError as exc:
            raise ProtocolError("bad request header: %s" % exc) from None
    return RequestHeader(api_key, version, cid, client_id), pos
