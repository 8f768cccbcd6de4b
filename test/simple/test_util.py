"""kafka.simple.util: string readers/writers, CRC, grouping and ReentrantTimer."""

from __future__ import annotations

import gc
import logging
import struct
import threading
import time
import zlib

import pytest

from kafka import util
from kafka.simple.common import FetchRequest, OffsetRequest, ProduceRequest
from kafka.errors import BufferUnderflowError, IllegalArgumentError
from test.support.waiting import wait_until


def _wait_for(predicate):
    return wait_until(predicate, timeout=5.0, interval=0.005)


# -- strings ------------------------------------------------------------------

def test_write_int_string():
    assert util.write_int_string(b"some string") == bytes.fromhex("0000000b") + b"some string"
    assert util.write_int_string(b"") == bytes.fromhex("00000000")
    assert util.write_int_string(None) == bytes.fromhex("ffffffff")
    assert util.write_int_string(bytearray(b"ab")) == bytes.fromhex("00000002") + b"ab"


def test_write_short_string():
    assert util.write_short_string(b"some string") == bytes.fromhex("000b") + b"some string"
    assert util.write_short_string(b"") == bytes.fromhex("0000")
    assert util.write_short_string(None) == bytes.fromhex("ffff")
    assert util.write_short_string(b" " * 32767)[:2] == bytes.fromhex("7fff")


def test_write_short_string_too_long():
    with pytest.raises(struct.error):
        util.write_short_string(b" " * 32768)


@pytest.mark.parametrize("writer", [util.write_int_string, util.write_short_string])
def test_writers_refuse_text(writer):
    with pytest.raises(TypeError):
        writer("text")


def test_read_int_string():
    assert util.read_int_string(bytes.fromhex("ffffffff"), 0) == (None, 4)
    assert util.read_int_string(bytes.fromhex("00000000"), 0) == (b"", 4)
    assert util.read_int_string(bytes.fromhex("0000000b") + b"some string", 0) == (b"some string", 15)
    data = b"xx" + bytes.fromhex("00000003") + b"abc" + b"tail"
    assert util.read_int_string(data, 2) == (b"abc", 9)


def test_read_short_string():
    assert util.read_short_string(bytes.fromhex("ffff"), 0) == (None, 2)
    assert util.read_short_string(bytes.fromhex("0000"), 0) == (b"", 2)
    assert util.read_short_string(bytes.fromhex("000b") + b"some string", 0) == (b"some string", 13)
    assert util.read_short_string(memoryview(b"?" + bytes.fromhex("0001") + b"z"), 1) == (b"z", 4)


@pytest.mark.parametrize("reader, data, cur", [
    (util.read_int_string, b"", 0),
    (util.read_int_string, bytes.fromhex("000000"), 0),              # length cut short
    (util.read_int_string, bytes.fromhex("0000000b") + b"some", 0),   # value cut short
    (util.read_int_string, bytes.fromhex("00000001") + b"a", 1),      # cursor past the length
    (util.read_short_string, b"", 0),
    (util.read_short_string, bytes.fromhex("00"), 0),
    (util.read_short_string, bytes.fromhex("000b") + b"some", 0),
    (util.read_short_string, bytes.fromhex("fffe"), 0),               # negative length other than -1
])
def test_short_reads_raise_buffer_underflow(reader, data, cur):
    with pytest.raises(BufferUnderflowError):
        reader(data, cur)


def test_relative_unpack():
    data = struct.pack(">hiq", 1, -2, 3) + b"rest"
    assert util.relative_unpack(">h", data, 0) == ((1,), 2)
    assert util.relative_unpack(">iq", data, 2) == ((-2, 3), 14)
    with pytest.raises(BufferUnderflowError):
        util.relative_unpack(">q", data, 12)
    with pytest.raises(BufferUnderflowError):
        util.relative_unpack(">i", b"\x00\x00", 0)


# -- crc, bytes, grouping ------------------------------------------------------

@pytest.mark.parametrize("data", [b"", b"a", b"123456789", bytes(range(256)) * 10])
def test_crc32_is_unsigned_zlib_crc(data):
    assert util.crc32(data) == zlib.crc32(data) & 0xFFFFFFFF
    assert 0 <= util.crc32(data) < 2 ** 32


def test_crc32_check_value():
    assert util.crc32(b"123456789") == 0xCBF43926


def test_kafka_bytestring():
    assert util.kafka_bytestring(b"abc") == b"abc"
    assert util.kafka_bytestring("abc") == b"abc"
    assert util.kafka_bytestring("\u4f60\u597d") == "\u4f60\u597d".encode("utf-8")
    with pytest.raises(TypeError):
        util.kafka_bytestring(42)


def test_group_by_topic_and_partition():
    t1p0 = FetchRequest("t1", 0, 10, 100)
    t1p1 = FetchRequest("t1", 1, 11, 100)
    t2p0 = FetchRequest("t2", 0, 12, 100)
    grouped = util.group_by_topic_and_partition([t1p0, t2p0, t1p1])
    assert grouped == {"t1": {0: t1p0, 1: t1p1}, "t2": {0: t2p0}}
    assert list(grouped) == ["t1", "t2"]
    assert util.group_by_topic_and_partition([]) == {}


def test_group_by_topic_and_partition_refuses_duplicates():
    with pytest.raises(IllegalArgumentError):
        util.group_by_topic_and_partition([OffsetRequest("t", 0, -1, 1), OffsetRequest("t", 0, -2, 1)])
    # The same partition number in another topic is fine.
    util.group_by_topic_and_partition([ProduceRequest("a", 0, []), ProduceRequest("b", 0, [])])


# -- ReentrantTimer -------------------------------------------------------------

def _timer_threads():
    return [t for t in threading.enumerate() if t.name == "kafka-ReentrantTimer" and t.is_alive()]


def test_timer_calls_repeatedly_with_arguments_and_stops():
    calls = []
    before = len(_timer_threads())
    timer = util.ReentrantTimer(5, lambda *a, **k: calls.append((a, k)), 1, 2, key="v")
    assert not timer.is_running
    timer.start()
    assert timer.is_running
    assert _wait_for(lambda: len(calls) >= 3)
    assert calls[0] == ((1, 2), {"key": "v"})
    thread = timer.thread
    timer.stop()
    assert not thread.is_alive()
    assert not timer.is_running
    assert len(_timer_threads()) == before  # no thread is left that could call again


def test_timer_waits_a_whole_interval_before_the_first_call():
    calls = []
    timer = util.ReentrantTimer(10000, calls.append, 1)
    timer.start()
    time.sleep(0.05)  # time enough for a call made at once, not for the 10 s interval
    timer.stop()
    assert calls == []


def test_timer_restarts():
    calls = []
    timer = util.ReentrantTimer(5, calls.append, "x")
    timer.start()
    assert _wait_for(lambda: calls)
    first = timer.thread
    timer.start()  # restart: the first thread ends, one new thread runs
    assert not first.is_alive()
    assert timer.thread is not first and timer.thread.is_alive()
    timer.stop()
    n = len(calls)
    timer.start()  # start again after stop
    assert _wait_for(lambda: len(calls) > n)
    timer.stop()
    timer.stop()  # stopping twice is harmless
    assert timer.thread is None


def test_timer_can_be_stopped_from_its_callback():
    holder = {}
    calls = []

    def tick():
        calls.append(1)
        holder["timer"].stop()

    timer = holder["timer"] = util.ReentrantTimer(5, tick)
    timer.start()
    thread = timer.thread
    thread.join(5)
    assert not thread.is_alive()
    assert calls == [1]


def test_timer_survives_an_exception_in_its_callback(caplog):
    calls = []

    def tick():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")

    timer = util.ReentrantTimer(5, tick)
    with caplog.at_level(logging.ERROR, logger="kafka.simple.util"):
        timer.start()
        assert _wait_for(lambda: len(calls) >= 3)
        timer.stop()
    assert any("boom" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_timer_thread_ends_when_the_timer_is_collected():
    timer = util.ReentrantTimer(5, lambda: None)
    timer.start()
    thread = timer.thread
    assert thread.daemon
    del timer
    gc.collect()
    thread.join(5)
    assert not thread.is_alive()


@pytest.mark.parametrize("t", [0, -5, None])
def test_timer_refuses_bad_intervals(t):
    with pytest.raises(ValueError):
        util.ReentrantTimer(t, lambda: None)


def test_timer_refuses_non_callables():
    with pytest.raises(ValueError):
        util.ReentrantTimer(5, "not callable")
