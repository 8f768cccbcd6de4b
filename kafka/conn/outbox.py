"""The bytes a connection has queued for its socket, and how they are written.

Frames are queued as buffers (a Produce request's record batches are
buffers of their own, see :func:`kafka.protocol.framing.encode_request_parts`).
Small buffers in a row are joined into one ``send`` call; large ones are
sent from their own bytes, never copied. (Gather I/O, ``sendmsg``, would save
a call per large buffer, but PyPy copies every buffer handed to it: it cost
four times a ``send`` of the same bytes there. TLS sockets have none.)
"""

from __future__ import annotations

from collections import deque
from typing import Any, Deque, List

__all__ = ["Outbox"]

#: Below this size, buffers in a row are joined into one ``send``.
_JOIN_BELOW = 64 * 1024


class Outbox:
    """Buffers queued for one socket, in order, and the count of bytes queued and written."""

    __slots__ = ("_buffers", "_pos", "queued", "written")

    def __init__(self) -> None:
        self._buffers: Deque[bytes] = deque()
        self._pos = 0  # bytes of the first buffer already written
        #: Bytes queued since the last :meth:`clear` (a stream position).
        self.queued = 0
        #: Bytes written since the last :meth:`clear`.
        self.written = 0

    def __bool__(self) -> bool:
        return bool(self._buffers)

    def append(self, parts: List[bytes]) -> int:
        """Queue ``parts`` (one frame) after what is queued; return their size."""
        size = 0
        for part in parts:
            if part:
                self._buffers.append(part)
                size += len(part)
        self.queued += size
        return size

    def clear(self) -> None:
        """Drop everything queued and reset the counts (the connection closed)."""
        self._buffers.clear()
        self._pos = 0
        self.queued = self.written = 0

    def write_to(self, sock: Any) -> None:
        """Write what the socket takes; return once all is written or the socket is full.

        A socket that would block raises (``BlockingIOError``,
        ``ssl.SSLWantWriteError``...) as it does; what it took before is
        counted in :attr:`written`.
        """
        buffers = self._buffers
        while buffers:
            if self._pos == 0:
                self._join_small()
            head = buffers[0]
            sent = sock.send(memoryview(head)[self._pos:])
            self.written += sent
            self._pos += sent
            if self._pos < len(head):
                return
            buffers.popleft()
            self._pos = 0

    def _join_small(self) -> None:
        """Join the leading run of small buffers into one (one call, one TLS record, instead of several)."""
        buffers = self._buffers
        count = 0
        for buffer in buffers:
            if len(buffer) >= _JOIN_BELOW:
                break
            count += 1
        if count > 1:
            joined = b"".join([buffers.popleft() for _ in range(count)])
            buffers.appendleft(joined)
