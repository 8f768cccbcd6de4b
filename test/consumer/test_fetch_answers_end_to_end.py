"""What a Fetch answer carries reaches the application through ``KafkaConsumer.poll()``.

A scripted peer answers Fetch over a real connection, at the version the
consumer negotiates (or a narrower range): corrupted batches must raise
with ``check_crcs``, and the aborted-transactions list of the answer must
hide aborted records from ``read_committed``.
"""

from __future__ import annotations

import time

import pytest

from kafka import KafkaConsumer, errors
from kafka.record.record import ControlRecordType
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.consumer.test_read_committed import _data, _marker
from test.support.fetch_answers import ServedLog, fetch_handler, plain_batch

TP = TopicPartition("t", 0)


def _corrupted(batch):
    """The batch with its last record's one-byte value changed: its CRC no longer matches.

    The batch ends with that value and the record's header count (0).
    """
    return batch[:-2] + bytes([batch[-2] ^ 0x20]) + batch[-1:]


def _read(log, versions=None, want=None, **configs):
    """(records got, error raised) polling a consumer of ``log`` for up to 10 s or ``want`` records."""
    with ScriptedPeer(topics={"t": 1}, api_versions=versions) as peer:
        peer.on("Fetch", fetch_handler(peer, {"t": {0: log}}))
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000, fetch_max_wait_ms=50,
                                 **configs)
        got = []
        try:
            consumer.assign([TP])
            consumer.seek(TP, 0)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and (want is None or len(got) < want):
                try:
                    for records in consumer.poll(timeout_ms=100).values():
                        got.extend(records)
                except errors.KafkaError as exc:
                    return got, exc
            return got, None
        finally:
            consumer.close()


# -- check_crcs ---------------------------------------------------------------------------------


def test_a_corrupted_batch_raises_a_checksum_error():
    got, error = _read(ServedLog([_corrupted(plain_batch(0, [b"a", b"b"]))]))
    assert got == [] and isinstance(error, errors.ChecksumError), (got, error)


def test_the_records_before_a_corrupted_batch_come_first():
    log = ServedLog([plain_batch(0, [b"a", b"b"]), _corrupted(plain_batch(2, [b"c", b"d"]))])
    got, error = _read(log)
    assert [(r.offset, r.value) for r in got] == [(0, b"a"), (1, b"b")]
    assert isinstance(error, errors.ChecksumError), error


def test_without_check_crcs_the_batch_is_not_verified():
    got, error = _read(ServedLog([_corrupted(plain_batch(0, [b"a", b"b"]))]), want=2, check_crcs=False)
    assert error is None and [r.value for r in got] == [b"a", b"B"]


# -- aborted transactions -----------------------------------------------------------------------

# Offsets 0-1: producer 7, committed; 2-3: producer 8, aborted; 4: COMMIT of 7; 5: a plain record;
# 6: ABORT of 8; 7: a plain record after everything.
BATCHES = [
    _data(0, 7, [b"a0", b"a1"]),
    _data(2, 8, [b"x2", b"x3"]),
    _marker(4, 7, ControlRecordType.COMMIT),
    _data(5, -1, [b"plain5"], transactional=False),
    _marker(6, 8, ControlRecordType.ABORT),
    _data(7, -1, [b"plain7"], transactional=False),
]
ABORTED = [{"producer_id": 8, "first_offset": 2}]
VERSIONS = [None, (4, 4), (4, 12)]
VERSION_IDS = ["negotiated", "v4", "v12"]


@pytest.mark.parametrize("versions", VERSIONS, ids=VERSION_IDS)
def test_read_committed_hides_the_records_the_answer_lists_as_aborted(versions):
    got, error = _read(ServedLog(BATCHES, aborted=ABORTED), {"Fetch": versions} if versions else None, want=4,
                       isolation_level="read_committed")
    assert error is None and [(r.offset, r.value) for r in got] == [
        (0, b"a0"), (1, b"a1"), (5, b"plain5"), (7, b"plain7")]


@pytest.mark.parametrize("versions", VERSIONS, ids=VERSION_IDS)
def test_read_uncommitted_returns_the_aborted_records_too(versions):
    got, error = _read(ServedLog(BATCHES, aborted=ABORTED), {"Fetch": versions} if versions else None, want=6)
    assert error is None and [r.offset for r in got] == [0, 1, 2, 3, 5, 7]
