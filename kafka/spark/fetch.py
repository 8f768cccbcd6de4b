"""Reading one offset range of one partition, straight from Fetch responses.

A Spark task reads a known range ``[start, end)`` of a single partition, so
it needs none of the consumer's machinery (subscriptions, positions of many
partitions, per-record ``ConsumerRecord`` objects). :func:`fetch_range`
sends Fetch requests to the partition's leader itself, one ahead of the
records being handed out, and yields the records of each run of batches
as a :data:`BatchDecoder` gives them — ready to be turned into Arrow
columns.

With ``read_committed`` the Fetch requests say so, nothing at or after a
response's last stable offset is handed out, and the batches of aborted
transactions are left out by the consumer's rule (:mod:`kafka.record.aborted`).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

from kafka import errors
from kafka.client import topic_ids
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.client.routing import RoutingClient
from kafka.consumer.fetch_errors import OK, RAISE, REFRESH, RESET, classify_partition_error, partition_error
from kafka.enums import IsolationLevel
from kafka.protocol.apis import FETCH
from kafka.record import MemoryRecords
from kafka.record.aborted import batch_filter
from kafka.structs import TopicPartition


#: ``decode(batches, low, high)``: the records of ``batches`` (consecutive record batches of one
#: partition) with ``low <= offset < high`` (any sized container) and the offset of their first
#: record (None if they have none).
BatchDecoder = Callable[[Sequence[Any], int, int], Tuple[Any, Optional[int]]]

#: Batches are handed to the decoder in runs of at least this many records
#: (or all a response has), so that a decoder with a cost per call pays it
#: once per run: librdkafka's batches often hold a few hundred records.
DECODE_RECORDS = 10_000


def record_tuples(batches: Sequence[Any], low: int, high: int) -> Tuple[List[Any], Optional[int]]:
    """A :data:`BatchDecoder` giving the record tuples of :mod:`kafka.record`."""
    records = [record for batch in batches for record in batch]
    if not records:
        return records, None
    first_offset = records[0][0]
    if first_offset < low or records[-1][0] >= high:
        records = [r for r in records if low <= r[0] < high]
    return records, first_offset


class RangeFetcher:
    """Fetches ranges of single partitions with one client (one per Spark worker process)."""

    def __init__(self, client: RoutingClient, max_partition_bytes: int = 8 * 1024 * 1024, max_wait_ms: int = 100,
                 check_crcs: bool = True,
                 isolation_level: IsolationLevel = IsolationLevel.READ_UNCOMMITTED) -> None:
        self.client = client
        self.max_partition_bytes = max_partition_bytes
        self.max_wait_ms = max_wait_ms
        self.check_crcs = check_crcs
        self.read_committed = isolation_level == IsolationLevel.READ_COMMITTED
        self.timeout_ms = client.config["request_timeout_ms"]

    def _send(self, tp: TopicPartition, offset: int) -> Tuple[int, Any]:
        client = self.client
        node = client.leader_for(tp, self.timeout_ms)
        if not client.await_ready(node, self.timeout_ms):
            raise errors.NodeNotReadyError("kafkawire: leader %s of %s-%d is not reachable" % (node, tp[0], tp[1]))
        cluster = client.cluster
        ids = topic_ids.ids_by_name(cluster, [tp.topic])
        version = topic_ids.choose_version(client, FETCH, node, ids)
        wanted = PartitionFetch(tp.topic, tp.partition, offset, self.max_partition_bytes,
                                cluster.leader_epoch_for_partition(tp))
        request = build_fetch_request([wanted], ids, max_wait_ms=self.max_wait_ms, min_bytes=1,
                                      max_bytes=self.max_partition_bytes, isolation_level=int(self.read_committed))
        future = client.send(node, request, api=FETCH, version=version)
        client.poll(timeout_ms=0)  # put the request on the wire now, so the broker works meanwhile
        return offset, future

    def _answer(self, tp: TopicPartition, future: Any) -> Any:
        response = self.client.wait_for(future, self.timeout_ms + self.max_wait_ms)
        if response.error_code:
            return None, response.error_code
        topic_id = self.client.cluster.topic_id(tp.topic)
        for topic_response in response.responses:
            if topic_response.topic != tp.topic and (topic_id is None or topic_response.topic_id != topic_id):
                continue
            for part in topic_response.partitions:
                if part.partition_index == tp.partition:
                    return part, part.error_code
        return None, 0  # nothing for this partition this time (a broker may answer empty)

    def fetch_range(self, tp: TopicPartition, start: int, end: int, fail_on_data_loss: bool,
                    poll_timeout_ms: int, decode: BatchDecoder = record_tuples) -> Iterator[Any]:
        """The records of ``[start, end)``, one ``decode(batches, low, high)`` result per run of batches.

        Runs hold about :data:`DECODE_RECORDS` records, or what is left of
        a Fetch response. By default a list of record tuples ``(offset,
        timestamp, timestamp_type, key, value, headers)`` per run. Records gone from
        the log raise OffsetOutOfRangeError with ``fail_on_data_loss``, else
        are skipped.
        """
        position = start
        idle_deadline = time.monotonic() + poll_timeout_ms / 1000.0
        pending: Optional[Tuple[int, Any]] = self._send(tp, position)
        while position < end:
            assert pending is not None
            sent_at, future = pending
            pending = None
            try:
                part, code = self._answer(tp, future)
            except errors.KafkaError as exc:
                if not exc.retriable:
                    raise
                part, code = None, None  # a lost connection or a timeout: ask again
            action = classify_partition_error(code) if code is not None else REFRESH
            if action == RESET:
                position = self._out_of_range(tp, position, end, fail_on_data_loss)
                if position >= end:
                    return
                pending = self._send(tp, position)
                continue
            if action != OK:
                if action == RAISE:
                    raise partition_error(code, "kafkawire: fetching %s-%d" % (tp[0], tp[1]))
                self.client.cluster.request_update()
                self._check_idle(tp, position, end, idle_deadline, poll_timeout_ms)
                time.sleep(self.client.config["retry_backoff_ms"] / 1000.0)
                pending = self._send(tp, position)
                continue
            batches = list(MemoryRecords(part.records or b"", check_crcs=self.check_crcs)) if part is not None else []
            limit = end
            skips = batch_filter(self.read_committed, part.aborted_transactions if part is not None else None)
            if self.read_committed and part is not None and part.last_stable_offset >= 0:
                limit = min(end, part.last_stable_offset)
            after = max(position, min(batches[-1].next_offset, limit)) if batches else position
            if after == position:
                if not batches and part is not None and part.records and MemoryRecords(part.records).has_partial:
                    raise errors.RecordTooLargeError(
                        "kafkawire: a record batch of %s-%d at offset %d is larger than "
                        "kafka.max.partition.fetch.bytes (%d)" % (tp[0], tp[1], position, self.max_partition_bytes))
                self._check_idle(tp, position, end, idle_deadline, poll_timeout_ms)
                if batches:  # records only past the last stable offset: the broker will not wait for more
                    time.sleep(self.client.config["retry_backoff_ms"] / 1000.0)
                pending = self._send(tp, position)
                continue
            idle_deadline = time.monotonic() + poll_timeout_ms / 1000.0
            if after < end:
                pending = self._send(tp, after)  # the next fetch travels while this one is decoded
            first = True
            for run in self._decode_runs(batches, position, skips):
                if not run:  # a skipped batch holding ``position``: the log still has it, no data loss
                    first = False
                    continue
                records, first_offset = decode(run, position, limit)
                if first:
                    if fail_on_data_loss and first_offset is not None and first_offset > position \
                            and position == start and self._log_start(tp) > position:
                        raise errors.OffsetOutOfRangeError(
                            "kafkawire: offsets %d-%d of %s-%d are no longer in the log (data loss); set "
                            "failOnDataLoss=false to skip them" % (position, first_offset, tp[0], tp[1]))
                    first = False
                if len(records):
                    yield records
            position = after

    @staticmethod
    def _decode_runs(batches: List[Any], position: int, skips: Callable[[Any], bool]) -> Iterator[List[Any]]:
        """The batches to decode from ``position`` on, in runs of about :data:`DECODE_RECORDS` records.

        The batches ``skips`` (:func:`kafka.record.aborted.batch_filter`)
        are left out; an empty run stands for one of them that holds
        ``position``.
        """
        run: List[Any] = []
        records = 0
        for batch in batches:
            skip = skips(batch)  # every batch, those before the position too
            if batch.next_offset <= position:
                continue
            if skip:
                if batch.base_offset <= position:
                    yield []
                continue
            run.append(batch)
            records += batch.next_offset - batch.base_offset
            if records >= DECODE_RECORDS:
                yield run
                run, records = [], 0
        if run:
            yield run

    def _check_idle(self, tp: TopicPartition, position: int, end: int, deadline: float, poll_timeout_ms: int) -> None:
        if time.monotonic() > deadline:
            raise errors.KafkaTimeoutError(
                "kafkawire: no records of %s-%d at offset %d within kafkaConsumer.pollTimeoutMs=%d ms "
                "(range ends at %d)" % (tp[0], tp[1], position, poll_timeout_ms, end))

    def _log_start(self, tp: TopicPartition) -> int:
        from kafka.consumer.fetcher import Fetcher
        from kafka.consumer.subscription import SubscriptionState

        found = Fetcher(self.client, SubscriptionState()).list_offsets({tp: -2}, self.timeout_ms)
        return found[tp].offset if tp in found else 0

    def _out_of_range(self, tp: TopicPartition, position: int, end: int, fail_on_data_loss: bool) -> int:
        log_start = self._log_start(tp)
        if not fail_on_data_loss:
            # Gone before the range (skip to what is left) or past the log's end
            # (the partition was truncated or recreated: nothing left to read).
            return log_start if log_start > position else end
        raise errors.OffsetOutOfRangeError(
            "kafkawire: offsets %d-%d of %s-%d are no longer in the log (data loss); set "
            "failOnDataLoss=false to skip them" % (position, end, tp[0], tp[1]))
