"""Records reach their own partition's queue, in order, however the partitions alternate.

:meth:`RecordAccumulator.append` remembers the partition it saw last and
its queue, and skips the dict lookup while the same
:class:`TopicPartition` object comes again. These tests hold that shortcut
to what the lookup gives: equal partitions from different objects share a
queue, and switching back and forth never puts a record in another
partition's batch.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka.producer.accumulator import RecordAccumulator
from kafka.structs import TopicPartition


def _queued(accumulator: RecordAccumulator) -> dict:
    """Each partition's values, in queue order, across its batches."""
    return {tp: [value for batch in queue for value in batch.record_tuples()]
            for tp, queue in accumulator._batches.items()}


@settings(max_examples=100, deadline=None)
@given(sends=st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=1, max_size=60),
       batch_size=st.sampled_from([100, 300, 100_000]))
def test_each_record_lands_in_its_partitions_queue_in_order(sends, batch_size):
    accumulator = RecordAccumulator(batch_size=batch_size)
    shared = [TopicPartition("t", p) for p in range(3)]
    expected: dict = {}
    for n, (partition, fresh) in enumerate(sends):
        # A fresh object equal to the shared one must find the same queue.
        tp = TopicPartition("t", partition) if fresh else shared[partition]
        value = b"%d" % n
        accumulator.append(tp, 1_700_000_000_000 + n, None, value, None, 1.0)
        expected.setdefault(shared[partition], []).append((1_700_000_000_000 + n, None, value, None))
    queued = _queued(accumulator)
    assert {tp: records for tp, records in queued.items() if records} == expected
    assert len(accumulator._batches) == len(expected)
