"""One poll() decompresses a bounded amount: the batches past the bound wait for the next poll.

A scripted peer answers one Fetch with several gzip batches of zeros, each
small on the wire and a mebibyte once decompressed (built from the
specification in ``test/support/fetch_answers.py``).
"""

from __future__ import annotations

import struct
import time

import pytest

from kafka import KafkaConsumer
from kafka.consumer.fetcher import DECOMPRESSION_RATIO
from kafka.record import codecs
from kafka.record.legacy import LegacyRecordBatchBuilder
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.fetch_answers import ServedLog, fetch_handler, gzip_batch

TP = TopicPartition("t", 0)
MIB = 1 << 20
FETCH_BYTES = 64 * 1024  # so one poll may decompress DECOMPRESSION_RATIO * 64 KiB: less than one batch


def _polls(batches, want, **configs):
    """The offsets each poll returned until ``want`` records came (10 s at most), and the positions after."""
    with ScriptedPeer(topics={"t": 1}, api_versions={"Fetch": (4, 12)}) as peer:
        peer.on("Fetch", fetch_handler(peer, {"t": {0: ServedLog(batches)}}))
        configs = dict({"fetch_max_bytes": FETCH_BYTES, "max_partition_fetch_bytes": FETCH_BYTES}, **configs)
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000, fetch_max_wait_ms=50,
                                 **configs)
        polls, positions = [], []
        try:
            consumer.assign([TP])
            consumer.seek(TP, 0)
            deadline = time.monotonic() + 10
            while sum(len(p) for p in polls) < want and time.monotonic() < deadline:
                got = consumer.poll(timeout_ms=100).get(TP, [])
                if got:
                    assert all(len(r.value) == MIB and not r.value.strip(b"\0") for r in got)
                    polls.append([r.offset for r in got])
                    positions.append(consumer.position(TP))
            return polls, positions
        finally:
            consumer.close()


@pytest.mark.parametrize("configs", [{}, {"value_deserializer": bytes}], ids=["rows", "deserialized"])
def test_a_poll_stops_decompressing_once_past_its_budget_and_the_next_poll_goes_on(configs):
    assert DECOMPRESSION_RATIO * FETCH_BYTES < MIB
    batches = [gzip_batch(i, [b"\0" * MIB]) for i in range(4)]
    assert sum(len(b) for b in batches) < FETCH_BYTES  # one Fetch answer carries all four
    polls, positions = _polls(batches, 4, **configs)
    assert polls == [[0], [1], [2], [3]]
    assert positions == [1, 2, 3, 4]


def test_within_the_budget_a_poll_takes_every_batch():
    batches = [gzip_batch(2 * i, [b"\0" * MIB, b"\0" * MIB]) for i in range(3)]
    polls, _ = _polls(batches, 6, max_partition_fetch_bytes=4 * MIB)  # a budget of 16 MiB
    assert polls == [[0, 1, 2, 3, 4, 5]]


def _v1_gzip_wrapper(offset, value):
    """A v1 gzip wrapper holding one message, at absolute ``offset`` (the wrapper's offset is not in its CRC)."""
    builder = LegacyRecordBatchBuilder(1, codecs.GZIP)
    builder.append(0, 1000, None, value)
    return struct.pack(">q", offset) + builder.build()[8:]


def test_message_format_v1_wrappers_count_towards_the_budget_too():
    batches = [_v1_gzip_wrapper(i, b"\0" * MIB) for i in range(3)]
    polls, positions = _polls(batches, 3)
    assert polls == [[0], [1], [2]] and positions == [1, 2, 3]
