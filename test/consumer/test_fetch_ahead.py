"""The consumer fetches one response ahead: the next Fetch leaves while the last answer is still being read.

A scripted peer serves a log of six batches of three records (offsets 0 to
17, built from the specification in ``test/support/fetch_answers.py``) and
answers each Fetch with at most two whole batches, as a broker cut short by
``max_partition_fetch_bytes`` would; it notes the offset of every Fetch.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from kafka import KafkaConsumer
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.support.fetch_answers import partition_data, record_body, spec_batch
from test.support.waiting import wait_until

TP = TopicPartition("t", 0)
BATCH = 3
BATCHES = [spec_batch(b * BATCH, [record_body(d, None, b"v%d" % (b * BATCH + d)) for d in range(BATCH)])
           for b in range(6)]
END = BATCH * len(BATCHES)


class CutLog:
    """Answers a fetch with the (at most) two whole batches from its offset, plus ``tail`` bytes of the next."""

    def __init__(self, peer: Any, tail: int = 0) -> None:
        self.peer = peer
        self.tail = tail
        self.offsets: List[int] = []
        self.asked = threading.Condition()

    def handle(self, request: Any) -> Dict[str, Any]:
        (topic,) = request.body.topics
        (part,) = topic.partitions
        with self.asked:
            self.offsets.append(part.fetch_offset)
            self.asked.notify_all()
        first = min(part.fetch_offset // BATCH, len(BATCHES))
        chosen = b"".join(BATCHES[first:first + 2])
        if first + 2 < len(BATCHES):
            chosen += BATCHES[first + 2][:self.tail]
        name = topic.topic or self.peer.topic_name(topic.topic_id)
        return {"error_code": 0, "responses": [{
            "topic": name, "topic_id": self.peer.topic_id(name),
            "partitions": [partition_data(part.partition, chosen, high_watermark=END,
                                          last_stable_offset=END)]}]}

    def wait_for(self, offset: int, timeout: float = 5.0) -> bool:
        """Whether a Fetch at ``offset`` arrives within ``timeout`` seconds."""
        with self.asked:
            return self.asked.wait_for(lambda: offset in self.offsets, timeout)


@contextlib.contextmanager
def _first_poll_done(tail: int = 0) -> Iterator[Tuple[CutLog, KafkaConsumer]]:
    """A consumer of the peer's log (2 records per poll) right after its first poll returned offsets 0 and 1."""
    with ScriptedPeer(topics={"t": 1}) as peer:
        log = CutLog(peer, tail)
        peer.on("Fetch", log.handle)
        consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000, fetch_max_wait_ms=50,
                                 max_poll_records=2)
        try:
            consumer.assign([TP])
            consumer.seek(TP, 0)
            deadline = time.monotonic() + 10
            first: List[int] = []
            while not first and time.monotonic() < deadline:
                first = [r.offset for r in consumer.poll(timeout_ms=100).get(TP, [])]
            assert first == [0, 1]
            yield log, consumer
        finally:
            consumer.close()


def _rest(consumer: KafkaConsumer, until: int) -> List[int]:
    offsets: List[int] = []
    deadline = time.monotonic() + 10
    while (not offsets or offsets[-1] < until - 1) and time.monotonic() < deadline:
        offsets += [r.offset for r in consumer.poll(timeout_ms=100).get(TP, [])]
    return offsets


@pytest.mark.parametrize("tail", [0, 40], ids=["whole-batches", "cut-batch-at-the-end"])
def test_the_next_fetch_starts_after_the_buffered_answer_before_it_is_read(tail):
    with _first_poll_done(tail) as (log, consumer):
        # The answer holds offsets 0-5 and only 0-1 were handed out, yet the
        # fetch for 6 on (where the cut batch starts, when there is one) is
        # on its way without another poll.
        assert log.wait_for(BATCH * 2), log.offsets
        assert consumer.position(TP) == 2
        rest = _rest(consumer, END)
    assert [0, 1] + rest == list(range(END))  # every record once, in order
    asked = [o for o in log.offsets if o < END]
    assert asked == [0, 6, 12], log.offsets  # no offset fetched twice


def test_an_answer_fetched_ahead_is_dropped_after_a_seek():
    with _first_poll_done() as (log, consumer):
        assert log.wait_for(6)
        consumer.seek(TP, 10)
        rest = _rest(consumer, END)
    assert rest == list(range(10, END))


def test_two_buffered_answers_hold_the_next_fetch_and_are_read_in_order():
    with _first_poll_done() as (log, consumer):
        offsets = [0, 1]
        assert log.wait_for(6)
        # The consumer reads the answer for 6-11 off its socket without
        # handing out records: two answers are buffered, 2-5 still unread.
        fetcher = consumer._fetcher
        assert wait_until(lambda: consumer._client.poll(timeout_ms=20) or len(fetcher._completed) == 1)
        for _ in range(2):
            offsets += [r.offset for r in consumer.poll(timeout_ms=1000).get(TP, [])]
        assert offsets == [0, 1, 2, 3, 4, 5]
        # Two answers were buffered all along: no third fetch goes out.
        assert not log.wait_for(12, timeout=0.5), log.offsets
        assert log.offsets == [0, 6]
        offsets += [r.offset for r in consumer.poll(timeout_ms=1000).get(TP, [])]
        assert offsets[-2:] == [6, 7]
        assert log.wait_for(12), log.offsets  # the first answer is used up: one may be fetched ahead again
