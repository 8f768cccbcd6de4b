"""Outbox: queued buffers reach the socket whole and in order, whatever it takes per call."""

from __future__ import annotations

import socket

import pytest

from kafka.conn.outbox import Outbox


class ShortWrites:
    """A socket taking at most ``room`` bytes per call and ``budget`` in all, then would block."""

    def __init__(self, room: int, budget: int) -> None:
        self.room, self.budget = room, budget
        self.data = bytearray()
        self.calls = []

    def _take(self, data: bytes) -> int:
        if self.budget <= 0:
            raise BlockingIOError()
        n = min(len(data), self.room, self.budget)
        self.data += data[:n]
        self.budget -= n
        return n

    def send(self, data) -> int:
        self.calls.append(("send", len(data)))
        return self._take(bytes(data))


FRAMES = [[b"head-1", b"R" * 70_000, b"tail"], [b"h2"], [b"", b"x" * 10], [b"h3", b"S" * 100_000]]
EXPECTED = b"".join(b"".join(frame) for frame in FRAMES)


@pytest.mark.parametrize("room", [1, 7, 4096, 1 << 20])
def test_everything_is_written_in_order(room):
    box = Outbox()
    ends = []
    for frame in FRAMES:
        box.append(frame)
        ends.append(box.queued)
    assert ends[-1] == len(EXPECTED)
    sock = ShortWrites(room, budget=0)
    while box:
        sock.budget = 50_000  # the socket fills up, then drains
        try:
            box.write_to(sock)
        except BlockingIOError:
            pass
        assert box.written == len(sock.data)
    assert bytes(sock.data) == EXPECTED and box.written == box.queued


def test_small_buffers_are_joined_large_ones_sent_alone():
    sock = ShortWrites(1 << 20, 1 << 20)
    box = Outbox()
    for frame in FRAMES:
        box.append(frame)
    box.write_to(sock)
    # head-1 alone (the record set after it is large), the record set, tail+h2+x*10+h3 joined, the last set.
    assert sock.calls == [("send", 6), ("send", 70_000), ("send", 4 + 2 + 10 + 2), ("send", 100_000)]
    assert bytes(sock.data) == EXPECTED


def test_real_socket_pair():
    a, b = socket.socketpair()
    try:
        a.setblocking(False)
        box = Outbox()
        for frame in FRAMES:
            box.append(frame)
        received = bytearray()
        while box or len(received) < len(EXPECTED):
            try:
                box.write_to(a)
            except BlockingIOError:
                pass
            received += b.recv(1 << 20)
        assert bytes(received) == EXPECTED
    finally:
        a.close()
        b.close()


def test_clear_forgets_everything():
    box = Outbox()
    box.append([b"abc"])
    box.clear()
    assert not box and box.queued == box.written == 0
