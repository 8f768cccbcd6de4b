"""kafka.record.aborted: which batches of a Fetch answer a reader leaves out.

The one rule the consumer's fetcher and the Spark reader share. Batches are
laid out byte by byte from the protocol specification
(:func:`test.support.fetch_answers.spec_batch`: attributes bit 4 for a
transactional batch, bit 5 for a control batch, whose one record has the key
``(version 0, type)`` with type 0 ABORT and 1 COMMIT), and the aborted
transactions are listed as a broker lists them in a Fetch answer: a producer
id and the offset of the transaction's first record. What the fetcher and
the Spark reader do with the rule end to end is tested with them
(test/consumer/test_read_committed.py, test/spark/test_read_committed.py).
"""

from __future__ import annotations

from typing import Any, List, Sequence

from kafka.protocol.apis import FETCH
from kafka.record import MemoryRecords
from kafka.record.aborted import AbortedTransactions, batch_filter
from test.support.fetch_answers import CONTROL, TRANSACTIONAL, control_body, record_body, spec_batch

P1, P2 = 1000, 2000


def _data(base_offset: int, count: int, producer_id: int = -1, transactional: bool = True) -> bytes:
    bodies = [record_body(i, None, b"v%d" % (base_offset + i)) for i in range(count)]
    if producer_id < 0:
        return spec_batch(base_offset, bodies)
    return spec_batch(base_offset, bodies, attributes=TRANSACTIONAL if transactional else 0,
                      producer_id=producer_id, producer_epoch=0, base_sequence=0)


def _marker(offset: int, producer_id: int, commit: bool) -> bytes:
    return spec_batch(offset, [control_body(commit)], attributes=TRANSACTIONAL | CONTROL,
                      producer_id=producer_id, producer_epoch=0)


def _batches(*parts: bytes) -> List[Any]:
    return list(MemoryRecords(b"".join(parts)))


#: 0-1 P1 (committed), 2-3 P2 (aborted), 4 P1 COMMIT, 5 a plain record,
#: 6 P2 ABORT, 7-8 P2's next transaction, 9 its COMMIT.
LOG = (_data(0, 2, P1), _data(2, 2, P2), _marker(4, P1, commit=True), _data(5, 1),
       _marker(6, P2, commit=False), _data(7, 2, P2), _marker(9, P2, commit=True))
LISTED = [(P2, 2)]  # (producer id, first offset)


def _kept(batches: Sequence[Any], read_committed: bool, aborted: Any) -> List[int]:
    """Base offsets of the batches a reader keeps."""
    skips = batch_filter(read_committed, aborted)
    return [batch.base_offset for batch in batches if not skips(batch)]


def test_read_committed_leaves_out_markers_and_the_aborted_transaction():
    assert _kept(_batches(*LOG), True, LISTED) == [0, 5, 7]


def test_read_uncommitted_leaves_out_the_markers_only():
    assert _kept(_batches(*LOG), False, LISTED) == [0, 2, 5, 7]


def test_an_answer_beginning_with_the_abort_marker_reads_the_next_transaction():
    # Fetched from offset 6: the broker still lists P2's transaction from offset 2.
    assert _kept(_batches(*LOG[4:]), True, LISTED) == [7]


def test_entries_of_a_fetch_response_are_read_as_pairs():
    entry = FETCH.Response.FetchableTopicResponse.PartitionData.AbortedTransaction
    listed = [entry(producer_id=P2, first_offset=2)]
    assert _kept(_batches(*LOG), True, listed) == _kept(_batches(*LOG), True, LISTED)


def test_no_list_leaves_out_the_markers_only():
    assert _kept(_batches(*LOG), True, None) == [0, 2, 5, 7]


def test_a_transaction_beginning_inside_a_batch_is_left_out_from_that_batch():
    batches = _batches(_data(10, 3, P1), _marker(13, P1, commit=False))
    assert _kept(batches, True, [(P1, 11)]) == []


def test_a_listed_transaction_starts_only_at_its_first_offset():
    batches = _batches(_data(0, 2, P1), _marker(2, P1, commit=True), _data(3, 2, P1), _marker(5, P1, commit=False))
    assert _kept(batches, True, [(P1, 3)]) == [0]


def test_two_aborted_transactions_of_one_producer():
    batches = _batches(_data(0, 2, P1), _marker(2, P1, commit=False), _data(3, 2, P1), _marker(5, P1, commit=False),
                       _data(6, 1, P1), _marker(7, P1, commit=True))
    assert _kept(batches, True, [(P1, 3), (P1, 0)]) == [6]  # the list's order does not matter


def test_a_producers_batches_outside_transactions_are_kept():
    # An idempotent (not transactional) batch of a producer whose transaction is aborting.
    batches = _batches(_data(0, 2, P1), _data(2, 1, P1, transactional=False), _marker(3, P1, commit=False))
    assert _kept(batches, True, [(P1, 0)]) == [2]


def test_interleaved_producers_are_told_apart():
    batches = _batches(_data(0, 1, P1), _data(1, 1, P2), _data(2, 1, P1), _marker(3, P2, commit=True),
                       _marker(4, P1, commit=False))
    assert _kept(batches, True, [(P1, 0)]) == [1]


def test_the_old_spark_path_serves_the_same_class():
    from kafka.spark import aborted

    assert aborted.AbortedTransactions is AbortedTransactions
    skips = AbortedTransactions([(P2, 2)]).skips
    assert [b.base_offset for b in _batches(*LOG) if not skips(b)] == [0, 5, 7]
