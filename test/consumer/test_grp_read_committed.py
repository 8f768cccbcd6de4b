"""read_committed against transactions written by our own KafkaProducer, on the embedded broker.

What can be asserted end to end, and what cannot (shared/DESIGN.md):

- Tansu keeps the last stable offset: while a transaction is open, a
  read_committed Fetch stops before its first record. So a read_committed
  KafkaConsumer must not deliver the open transaction's records, nor
  anything written after them, until the commit; then it delivers them in
  order, never a control record, and its position moves past the marker.
  Asserted in ``test_read_committed_stops_at_the_last_stable_offset``.
- Neither Tansu nor librdkafka's mock sends the aborted-transactions list in
  Fetch responses, so no broker here lets a consumer drop aborted records
  end to end (a read_committed consumer receives them, as it would from a
  Kafka broker that omitted the list). ``test_aborted_records_...`` takes
  the log our producer wrote (fetched from Tansu as stored: data batches
  and COMMIT/ABORT markers), derives the aborted-transactions list a Kafka
  broker would send with it, and feeds both to the consumer's fetcher.
- librdkafka's mock writes its own transaction markers with a zero CRC, so
  a consumer with ``check_crcs=True`` (the default) refuses them there
  (``ChecksumError``); this is why the mock is not used here.
"""

from __future__ import annotations

import time
from typing import Dict, List, Tuple

import pytest

from kafka import KafkaConsumer, KafkaProducer, direct
from kafka.conn.blocking import BlockingConnection
from kafka.consumer.fetcher import CompletedFetch, Fetcher
from kafka.consumer.subscription import SubscriptionState
from kafka.record import MemoryRecords
from kafka.record.record import ControlRecordType
from kafka.structs import TopicPartition
from test.support.topics import new_topic


@pytest.fixture
def topic(broker):
    return new_topic(broker, prefix="rc")


def _drain(consumer: KafkaConsumer, seconds: float) -> List[Tuple[int, bytes]]:
    out: List[Tuple[int, bytes]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for records in consumer.poll(timeout_ms=200).values():
            out.extend((r.offset, r.value) for r in records)
    return out


def _consumer(broker, topic, isolation):
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, isolation_level=isolation,
                             auto_offset_reset="earliest", fetch_max_wait_ms=100)
    consumer.assign([TopicPartition(topic, 0)])
    return consumer


def test_read_committed_stops_at_the_last_stable_offset(broker, topic):
    tp = TopicPartition(topic, 0)
    plain = KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    txn = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="rc-" + topic)
    committed = _consumer(broker, topic, "read_committed")
    uncommitted = _consumer(broker, topic, "read_uncommitted")
    try:
        plain.send(topic, value=b"plain-0", partition=0).get(10)
        txn.init_transactions()
        txn.begin_transaction()
        txn.send(topic, value=b"txn-0", partition=0)
        txn.send(topic, value=b"txn-1", partition=0)
        txn.flush(10)
        plain.send(topic, value=b"plain-1", partition=0).get(10)

        # The open transaction holds back everything from its first record on.
        assert _drain(committed, 2.0) == [(0, b"plain-0")]
        assert committed.position(tp) == 1
        assert [v for _, v in _drain(uncommitted, 2.0)] == [b"plain-0", b"txn-0", b"txn-1", b"plain-1"]

        txn.commit_transaction()
        rest = _drain(committed, 2.0)
        # Delivered in order once committed; the COMMIT marker is not a record.
        assert [v for _, v in rest] == [b"txn-0", b"txn-1", b"plain-1"]
        assert [o for o, _ in rest] == [1, 2, 3]
        plain.send(topic, value=b"plain-2", partition=0).get(10)
        last = _drain(committed, 2.0)
        assert [v for _, v in last] == [b"plain-2"]
        assert last[0][0] == 5  # offset 4 is the marker
        assert committed.position(tp) == 6 == committed.highwater(tp)
    finally:
        for c in (committed, uncommitted):
            c.close()
        txn.close()
        plain.close()


def _aborted_list(batches) -> List[Tuple[int, int]]:
    """(producer id, first offset) of each aborted transaction, as a broker indexes them."""
    first: Dict[int, int] = {}
    aborted = []
    for batch in batches:
        pid = batch.producer_id
        if batch.is_control_batch:
            start = first.pop(pid, None)
            if start is not None and list(batch)[0].control_type == ControlRecordType.ABORT:
                aborted.append((pid, start))
        elif batch.is_transactional:
            first.setdefault(pid, batch.base_offset)
    return aborted


def test_aborted_records_written_by_our_producer_are_dropped(broker, topic):
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="ab-" + topic) as producer:
        producer.init_transactions()
        for outcome, values in (("commit", [b"c-0", b"c-1"]), ("abort", [b"a-0", b"a-1", b"a-2"]),
                                ("commit", [b"c-2"]), ("abort", [b"a-3"]), ("commit", [b"c-3"])):
            producer.begin_transaction()
            for value in values:
                producer.send(topic, value=value, partition=0)
            if outcome == "commit":
                producer.commit_transaction()
            else:
                producer.abort_transaction()
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        raw = b""
        offset = 0
        while True:  # the whole log, as stored
            response = direct.fetch(conn, info, 0, offset)
            batches = list(MemoryRecords(response.records))
            if not batches:
                break
            raw += response.records
            offset = batches[-1].next_offset
    batches = list(MemoryRecords(raw))
    aborted = _aborted_list(batches)
    assert len(aborted) == 2

    tp = TopicPartition(topic, 0)
    results = {}
    for isolation in ("read_committed", "read_uncommitted"):
        sub = SubscriptionState("earliest")
        sub.assign_from_user([tp])
        sub.seek(tp, 0)
        fetcher = Fetcher(client=None, subscription=sub, isolation_level=isolation)
        fetcher._completed.append(CompletedFetch(tp, 0, raw, offset, offset, 0, aborted, 0, sub.assignment_version))
        results[isolation] = [r.value for r in fetcher.fetched_records().get(tp, [])]
        assert sub.position(tp) == offset  # past the last marker
    assert results["read_committed"] == [b"c-0", b"c-1", b"c-2", b"c-3"]
    assert results["read_uncommitted"] == [b"c-0", b"c-1", b"a-0", b"a-1", b"a-2", b"c-2", b"a-3", b"c-3"]
