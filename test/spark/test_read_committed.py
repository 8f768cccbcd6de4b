"""read_committed on the columnar read path: aborted transactions left out, nothing past the last stable offset.

Neither embedded broker leaves aborted records out of a Fetch answer nor
sends the aborted-transactions list, so the filtering is checked against a
:class:`~kafka.testing.ScriptedPeer` serving a log built here from the
protocol specification (transactional batches, COMMIT and ABORT markers)
with the list a Kafka broker would send; the read_committed consumer reading
the same answers is the reference. On the embedded broker, a Spark query
reads what our transactional producer wrote while a transaction is open and
after it is committed.
"""

from __future__ import annotations

import struct

import pytest

from kafka import KafkaConsumer, KafkaProducer, direct, errors
from kafka.client.routing import RoutingClient
from kafka.conn.blocking import BlockingConnection
from kafka.record import MemoryRecords
from kafka.structs import TopicPartition
from kafka.testing import ScriptedPeer
from test.spark.conftest import make_topic
from test.support.fetch_answers import (CONTROL, TRANSACTIONAL, TransactionalLog, aborted_transactions,
                                        control_body, fetch_handler, list_offsets_handler, record_body,
                                        spec_batch)

pytest.importorskip("pyarrow")
pytest.importorskip("numpy")

from kafka.spark.fetch import RangeFetcher  # noqa: E402
from kafka.spark.offsets import OffsetRange  # noqa: E402
from kafka.spark.worker import read_range  # noqa: E402

P1, P2, P3 = 1000, 2000, 3000


def _bodies(values):
    return [record_body(i, b"k-" + v, v) for i, v in enumerate(values)]


def _plain(base_offset, values):
    return spec_batch(base_offset, _bodies(values), timestamp=1000 + base_offset)


def _txn(base_offset, producer_id, values):
    return spec_batch(base_offset, _bodies(values), timestamp=1000 + base_offset, attributes=TRANSACTIONAL,
                      producer_id=producer_id, producer_epoch=0, base_sequence=0)


def _marker(offset, producer_id, commit):
    return spec_batch(offset, [control_body(commit)], attributes=TRANSACTIONAL | CONTROL,
                      producer_id=producer_id, producer_epoch=0)


#: Two producers' transactions interleaved with plain records; P1's first
#: transaction (2-3, 6) and P2's second (13-14) are aborted. P1's second
#: transaction (9-10) comes after its ABORT marker: it is committed although
#: the list still names P1 from offset 2.
LOG = [
    _plain(0, [b"p0", b"p1"]),
    _txn(2, P1, [b"a0", b"a1"]),
    _txn(4, P2, [b"c0", b"c1"]),
    _txn(6, P1, [b"a2"]),
    _marker(7, P2, commit=True),
    _marker(8, P1, commit=False),
    _txn(9, P1, [b"c2", b"c3"]),
    _marker(11, P1, commit=True),
    _plain(12, [b"p2"]),
    _txn(13, P2, [b"a3", b"a4"]),
    _marker(15, P2, commit=False),
    _plain(16, [b"p3"]),
]
COMMITTED = [(0, b"p0"), (1, b"p1"), (4, b"c0"), (5, b"c1"), (9, b"c2"), (10, b"c3"), (12, b"p2"), (16, b"p3")]
END = 17


def _serve(peer, log):
    peer.on("Fetch", fetch_handler(peer, {"t": {0: log}}))
    peer.on("ListOffsets", list_offsets_handler({"t": {0: log}}))


def test_the_served_list_names_the_aborted_transactions():
    # (producer id, first offset, ABORT marker): what a Kafka broker indexes from this log.
    assert aborted_transactions(LOG) == [(P1, 2, 8), (P2, 13, 15)]


def _client(peer, isolation):
    return {"bootstrap_servers": peer.bootstrap, "isolation_level": isolation, "request_timeout_ms": 5000}


def _read(peer, isolation, start=0, end=END):
    rows = []
    for batch in read_range(_client(peer, isolation), OffsetRange("t", 0, start, end), True, True, 5000):
        rows.extend((r["offset"], r["value"], r["key"], r["timestamp"]) for r in batch.to_pylist())
    return rows


def _consumed(peer, start, end):
    """What the read_committed consumer delivers for ``[start, end)`` from the same peer."""
    consumer = KafkaConsumer(bootstrap_servers=peer.bootstrap, isolation_level="read_committed",
                             fetch_max_wait_ms=10, request_timeout_ms=5000)
    tp = TopicPartition("t", 0)
    try:
        consumer.assign([tp])
        consumer.seek(tp, start)
        out = []
        while consumer.position(tp) < end:
            for records in consumer.poll(timeout_ms=500).values():
                out.extend(r for r in records if r.offset < end)
        return [(r.offset, r.value, r.key, r.timestamp) for r in out]
    finally:
        consumer.close()


@pytest.mark.parametrize("start, end", [(0, END), (3, 11), (5, 16), (9, 13)])
def test_aborted_transactions_are_left_out_as_the_consumer_does(start, end):
    with ScriptedPeer(topics={"t": 1}) as peer:
        _serve(peer, TransactionalLog(LOG))
        got = _read(peer, "read_committed", start, end)
        assert [(o, v) for o, v, _k, _ts in got] == [(o, v) for o, v in COMMITTED if start <= o < end]
        # Timestamps come in microseconds from the Arrow path, milliseconds from the consumer.
        assert [(o, v, k, round(ts.timestamp() * 1000)) for o, v, k, ts in got] == _consumed(peer, start, end)
        assert {r.body.isolation_level for r in peer.received("Fetch")} == {1}


def test_an_answer_beginning_with_an_abort_marker():
    # Read from P1's ABORT marker, the list still names P1's aborted
    # transaction (it ends at the marker): the marker ends it, and P1's next
    # transaction is committed. (The consumer's fetcher used to take the
    # listed transaction in only at P1's next data batch and leave that
    # committed batch out.)
    with ScriptedPeer(topics={"t": 1}) as peer:
        _serve(peer, TransactionalLog(LOG))
        expected = [(o, v) for o, v in COMMITTED if o >= 8]
        assert [(o, v) for o, v, *_ in _read(peer, "read_committed", 8, END)] == expected
        assert [(o, v) for o, v, *_ in _consumed(peer, 8, END)] == expected


def test_read_uncommitted_keeps_aborted_records_and_drops_markers():
    with ScriptedPeer(topics={"t": 1}) as peer:
        _serve(peer, TransactionalLog(LOG))
        offsets = [o for o, *_ in _read(peer, "read_uncommitted")]
        assert offsets == [o for o in range(END) if o not in (7, 8, 11, 15)]
        assert {r.body.isolation_level for r in peer.received("Fetch")} == {0}


def test_nothing_at_or_after_the_last_stable_offset_is_handed_out():
    # A broker that sends records past its last stable offset (a Kafka broker
    # does not): they wait until the offset moves past them.
    log = TransactionalLog(LOG + [_txn(17, P3, [b"open-0", b"open-1"])])
    log.last_stable_offset = 17
    with ScriptedPeer(topics={"t": 1}) as peer:
        _serve(peer, log)
        client = RoutingClient(bootstrap_servers=peer.bootstrap, request_timeout_ms=5000)
        try:
            fetcher = RangeFetcher(client, isolation_level=1)
            seen = []
            with pytest.raises(errors.KafkaTimeoutError, match="at offset 17"):
                for records in fetcher.fetch_range(TopicPartition("t", 0), 0, 19, True, 1000):
                    seen.extend(r[0] for r in records)
            assert seen == [o for o, _ in COMMITTED]
            log.batches.append(_marker(19, P3, commit=True))
            log.last_stable_offset = None
            rest = [r[4] for records in fetcher.fetch_range(TopicPartition("t", 0), 17, 19, True, 1000)
                    for r in records]
            assert rest == [b"open-0", b"open-1"]
        finally:
            client.close()


def _spark_read(spark, servers, topic):
    df = (spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers).option("subscribe", topic)
          .option("kafka.isolation.level", "read_committed").load())
    return sorted((r.offset, r.value) for r in df.select("offset", "value").collect())


def _stored_log(broker, topic):
    """The batches of partition 0 as the broker stores them (data batches and markers)."""
    batches = []
    with BlockingConnection(broker.host, broker.port) as conn:
        info = direct.describe_topic(conn, topic)
        offset = 0
        while True:
            raw = direct.fetch(conn, info, 0, offset).records
            found = list(MemoryRecords(raw))
            if not found:
                return batches
            at = 0
            for _ in found:  # a batch is its offset, its length and that many bytes
                size = 12 + struct.unpack_from(">i", raw, at + 8)[0]
                batches.append(raw[at:at + size])
                at += size
            offset = found[-1].next_offset


def test_spark_read_committed_of_our_producers_transactions(spark, broker):
    topic = make_topic(broker.host, broker.port, partitions=1, prefix="committed")
    plain = KafkaProducer(bootstrap_servers=broker.bootstrap_servers)
    txn = KafkaProducer(bootstrap_servers=broker.bootstrap_servers, transactional_id="spark-" + topic)
    try:
        plain.send(topic, value=b"plain-0", partition=0).get(10)
        txn.init_transactions()
        txn.begin_transaction()
        for value in (b"txn-0", b"txn-1"):
            txn.send(topic, value=value, partition=0)
        txn.flush(10)
        plain.send(topic, value=b"plain-1", partition=0).get(10)
        # The open transaction holds back everything from its first record on.
        assert _spark_read(spark, broker.bootstrap_servers, topic) == [(0, b"plain-0")]
        txn.commit_transaction()  # marker at 4
        assert _spark_read(spark, broker.bootstrap_servers, topic) == \
            [(0, b"plain-0"), (1, b"txn-0"), (2, b"txn-1"), (3, b"plain-1")]
        txn.begin_transaction()
        for value in (b"gone-0", b"gone-1"):
            txn.send(topic, value=value, partition=0)
        txn.abort_transaction()  # marker at 7
        txn.begin_transaction()
        txn.send(topic, value=b"txn-2", partition=0)
        txn.commit_transaction()
    finally:
        txn.close()
        plain.close()
    # The embedded broker sends no aborted-transactions list: the same log,
    # served with the list a Kafka broker would send.
    log = TransactionalLog(_stored_log(broker, topic))
    assert [(first, marker) for _pid, first, marker in aborted_transactions(log.batches)] == [(5, 7)]
    with ScriptedPeer(topics={"t": 1}) as peer:
        _serve(peer, log)
        assert _spark_read(spark, peer.bootstrap, "t") == \
            [(0, b"plain-0"), (1, b"txn-0"), (2, b"txn-1"), (3, b"plain-1"), (8, b"txn-2")]
