"""The accumulator works alike on the lock it takes on CPython (Lock) and on PyPy (RLock).

The PyPy one is chosen here on CPython by switching ``ACCUMULATOR_RLOCK`` on: appends,
drains, a thread blocked on ``buffer_memory`` woken by a completed batch,
and ``wait_for_completion``.
"""

from __future__ import annotations

import threading

import pytest

from kafka import fast_paths
from kafka.cluster import ClusterMetadata
from kafka.producer.accumulator import RecordAccumulator
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)


class _OneLeader(ClusterMetadata):
    """Cluster metadata where broker 1 leads every partition asked about."""

    def leader_for_partition(self, tp):  # type: ignore[override]
        return 1

    def partitions_for_broker(self, broker_id):  # type: ignore[override]
        return {TP} if broker_id == 1 else set()


@pytest.mark.parametrize("pypy", [False, True], ids=["Lock", "RLock"])
def test_a_blocked_append_resumes_when_a_batch_completes(pypy):
    with fast_paths.override(ACCUMULATOR_RLOCK=pypy):  # the lock is chosen when the accumulator is made
        acc = RecordAccumulator(batch_size=1000, buffer_memory=1200)
    assert type(acc._lock) is type(threading.RLock() if pypy else threading.Lock())
    first, _, _ = acc.append(TP, 0, None, b"x" * 900, None, max_block=1.0)
    appended = threading.Event()
    outcome = []

    def blocked_append():
        outcome.append(acc.append(TP, 1, None, b"y" * 900, None, max_block=10.0)[0])
        appended.set()

    thread = threading.Thread(target=blocked_append)
    thread.start()
    assert not appended.wait(0.2)  # buffer_memory is used up
    cluster = _OneLeader()
    [batch] = acc.drain(cluster, [1], 1 << 20, now=1.0)[1]
    batch.done(base_offset=0)
    acc.release(batch)
    assert appended.wait(5.0)
    thread.join(5.0)
    assert first.get(0).offset == 0
    [second] = acc.drain(cluster, [1], 1 << 20, now=2.0)[1]
    assert [r[2] for r in second.record_tuples()] == [b"y" * 900]
    second.done(base_offset=1)
    acc.release(second)
    assert acc.wait_for_completion(1.0)
    assert outcome[0].get(0).offset == 1 and acc.used_memory == 0
