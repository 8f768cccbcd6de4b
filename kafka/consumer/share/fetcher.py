"""Share sessions: ShareFetch and ShareAcknowledge to each partition leader.

One share session per leader holds the partitions this member fetches
from it. Epoch 0 opens the session with the partitions listed; each
answered request moves the epoch up by one, and later requests list only
partitions that join the session (or carry acknowledgements), and the ones
it forgets. Epoch -1 closes it. SHARE_SESSION_NOT_FOUND and
INVALID_SHARE_SESSION_EPOCH reset the session: the next request opens a
new one.

A fetch answer holds record batches and the offset ranges the broker
acquired for this member; only acquired records are delivered, each with
its delivery count. Acquired offsets that carry no record are acknowledged
as GAP with the next request.
"""

from __future__ import annotations

import logging
import uuid
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterable, List, Optional, Set, Tuple

from kafka import errors
from kafka.client.topic_ids import known_topic_names
from kafka.consumer.fetcher import Fetcher
from kafka.consumer.share.acknowledgements import InFlightRecords, to_batches
from kafka.future import Future
from kafka.protocol.apis import SHARE_ACKNOWLEDGE, SHARE_FETCH
from kafka.record import MemoryRecords
from kafka.record.batch import RecordBatch
from kafka.record.rows import OFFSET
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

CLOSE_EPOCH = -1
_SESSION_LOST = (errors.ShareSessionNotFoundError, errors.InvalidShareSessionEpochError)
_F = SHARE_FETCH.Request
_A = SHARE_ACKNOWLEDGE.Request

#: ``{partition: error or None}`` for the acknowledgements one request carried.
AckResults = Dict[TopicPartition, Optional[BaseException]]


class ShareSession:
    """The share session with one leader."""

    def __init__(self) -> None:
        self.epoch = 0
        self.partitions: Set[TopicPartition] = set()
        self.in_flight: Optional[Future] = None

    def reset(self) -> None:
        self.epoch = 0
        self.partitions = set()


class ShareFetcher:
    """Fetches acquired records for one share group member and sends its acknowledgements."""

    def __init__(self, client: Any, group_id: str, member_id: Callable[[], str], in_flight: InFlightRecords, *,
                 record_class: type, max_wait_ms: int = 500, min_bytes: int = 1, max_bytes: int = 52428800,
                 max_records: int = 500) -> None:
        self.client = client
        self.group_id = group_id
        self.member_id = member_id
        self.in_flight = in_flight
        self.record_class = record_class
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.max_records = max_records
        self.sessions: Dict[int, ShareSession] = {}
        #: Records fetched and not handed out yet, with their delivery counts.
        self.buffered: Deque[Tuple[Any, int]] = deque()
        #: Called with the results of each acknowledgement sent.
        self.on_acknowledged: Optional[Callable[[Dict[TopicPartition, Dict[int, int]], AckResults], None]] = None
        self.fetch_error: Optional[BaseException] = None

    # -- sending ---------------------------------------------------------------------------------

    def send_fetches(self, assignment: Set[TopicPartition]) -> None:
        """Send a ShareFetch to every leader of ``assignment`` (or of a forgotten partition) that has none in flight."""
        by_node: Dict[int, Set[TopicPartition]] = {}
        for tp in assignment:
            leader = self.client.cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                self.client.add_topic(tp.topic)
                continue
            by_node.setdefault(leader, set()).add(tp)
        for node in set(by_node) | {n for n, s in self.sessions.items() if s.partitions}:
            session = self.sessions.setdefault(node, ShareSession())
            if session.in_flight is not None or not self.client.ready(node):
                continue
            self._send_fetch(node, session, by_node.get(node, set()))

    def _send_fetch(self, node: int, session: ShareSession, wanted: Set[TopicPartition]) -> None:
        acks = self.in_flight.take_marked(session.partitions)
        added = wanted - session.partitions
        forgotten = session.partitions - wanted
        listed = added | set(acks) if session.epoch else wanted | set(acks)
        ids = self._topic_ids(listed | forgotten)
        topics: Dict[uuid.UUID, List[Any]] = {}
        for tp in sorted(listed):
            topics.setdefault(ids[tp.topic], []).append(_F.FetchTopic.FetchPartition(
                partition_index=tp.partition, acknowledgement_batches=_batches(_F.FetchTopic.FetchPartition,
                                                                               acks.get(tp, {}))))
        forgotten_by_id: Dict[uuid.UUID, List[int]] = {}
        for tp in sorted(forgotten):
            forgotten_by_id.setdefault(ids[tp.topic], []).append(tp.partition)
        request = _F(group_id=self.group_id, member_id=self.member_id(), share_session_epoch=session.epoch,
                     max_wait_ms=self.max_wait_ms, min_bytes=self.min_bytes, max_bytes=self.max_bytes,
                     max_records=self.max_records, batch_size=self.max_records,
                     topics=[_F.FetchTopic(topic_id=tid, partitions=parts) for tid, parts in topics.items()],
                     forgotten_topics_data=[_F.ForgottenTopic(topic_id=tid, partitions=parts)
                                            for tid, parts in forgotten_by_id.items()])
        session.partitions = (session.partitions | wanted) - forgotten
        session.epoch += 1  # requests of one session are answered in order: the next one counts on
        future = self.client.send(node, request, api=SHARE_FETCH)
        session.in_flight = future
        future.add_both(self._on_fetch, node, session, future, acks, ids)

    def acknowledge(self, close: bool = False) -> List[Future]:
        """Send the marked records with a ShareAcknowledge to each session (``close``: and end them)."""
        futures = []
        for node, session in self.sessions.items():
            if not session.partitions or (session.epoch == 0 and not close):
                continue
            acks = self.in_flight.take_marked(session.partitions)
            if not acks and not close:
                continue
            if session.epoch == 0:  # never opened: nothing to close, and nothing can be in flight
                continue
            if not self.client.ready(node):
                self._report(acks, errors.NodeNotReadyError("leader %s is not connected" % node))
                continue
            ids = self._topic_ids(acks)
            topics: Dict[uuid.UUID, List[Any]] = {}
            for tp in sorted(acks):
                part_cls = _A.AcknowledgeTopic.AcknowledgePartition
                topics.setdefault(ids[tp.topic], []).append(part_cls(
                    partition_index=tp.partition, acknowledgement_batches=_batches(part_cls, acks[tp])))
            epoch = CLOSE_EPOCH if close else session.epoch
            request = _A(group_id=self.group_id, member_id=self.member_id(), share_session_epoch=epoch,
                         topics=[_A.AcknowledgeTopic(topic_id=tid, partitions=parts) for tid, parts in topics.items()])
            future = self.client.send(node, request, api=SHARE_ACKNOWLEDGE)
            if close:
                session.reset()
            else:
                session.epoch += 1
            future.add_both(self._on_acknowledge, session, acks, ids)
            futures.append(future)
        return futures

    def _topic_ids(self, tps: Iterable[TopicPartition]) -> Dict[str, uuid.UUID]:
        ids = {}
        for tp in tps:
            tid = self.client.cluster.topic_id(tp.topic)
            if tid is None:
                raise errors.UnknownTopicIdError("no topic id known for %s" % tp.topic)
            ids[tp.topic] = tid
        return ids

    # -- answers -------------------------------------------------------------------------------

    def _on_fetch(self, node: int, session: ShareSession, future: Future, acks: Dict[TopicPartition, Dict[int, int]],
                  ids: Dict[str, uuid.UUID], result: Any) -> None:
        if session.in_flight is future:
            session.in_flight = None
        if isinstance(result, BaseException):
            session.reset()
            self._report(acks, result)
            log.debug("share fetch from node %s failed: %s", node, result)
            return
        cls = errors.for_code(result.error_code)
        if cls is not None:
            error = cls("ShareFetch from node %s: %s" % (node, result.error_message or ""))
            session.reset()
            self._report(acks, error)
            if not isinstance(error, _SESSION_LOST) and not error.retriable:
                self.fetch_error = error
            return
        names = {tid: topic for topic, tid in ids.items()}
        results: AckResults = {tp: None for tp in acks}
        for topic in result.responses:
            name = names.get(topic.topic_id) or known_topic_names(self.client.cluster).get(topic.topic_id)
            if name is None:
                continue
            for part in topic.partitions:
                tp = TopicPartition(name, part.partition_index)
                ack_cls = errors.for_code(part.acknowledge_error_code)
                if tp in results and ack_cls is not None:
                    results[tp] = ack_cls("acknowledging %s-%d: %s" % (name, tp.partition,
                                                                       part.acknowledge_error_message or ""))
                part_cls = errors.for_code(part.error_code)
                if part_cls is not None:
                    if part_cls.invalid_metadata:
                        self.client.request_metadata_update()
                    log.debug("share fetch of %s-%d: %s", name, tp.partition, part_cls.__name__)
                    continue
                self._collect(tp, part)
        if acks and self.on_acknowledged is not None:
            self.on_acknowledged(acks, results)

    def _on_acknowledge(self, session: ShareSession, acks: Dict[TopicPartition, Dict[int, int]],
                        ids: Dict[str, uuid.UUID], result: Any) -> None:
        if isinstance(result, BaseException):
            self._report(acks, result)
            return
        cls = errors.for_code(result.error_code)
        if cls is not None:
            error = cls("ShareAcknowledge: %s" % (result.error_message or ""))
            if isinstance(error, _SESSION_LOST):
                session.reset()
            self._report(acks, error)
            return
        names = {tid: topic for topic, tid in ids.items()}
        results: AckResults = {tp: None for tp in acks}
        for topic in result.responses:
            for part in topic.partitions:
                tp = TopicPartition(names.get(topic.topic_id, ""), part.partition_index)
                part_cls = errors.for_code(part.error_code)
                if tp in results and part_cls is not None:
                    results[tp] = part_cls("acknowledging %s-%d: %s" % (tp.topic, tp.partition,
                                                                        part.error_message or ""))
        if self.on_acknowledged is not None:
            self.on_acknowledged(acks, results)

    def _report(self, acks: Dict[TopicPartition, Dict[int, int]], error: BaseException) -> None:
        if acks and self.on_acknowledged is not None:
            self.on_acknowledged(acks, {tp: error for tp in acks})

    def _collect(self, tp: TopicPartition, part: Any) -> None:
        """Buffer the acquired records of one partition's answer; mark acquired offsets without one as GAP."""
        acquired: Dict[int, int] = {}
        for ranged in part.acquired_records:
            for offset in range(ranged.first_offset, ranged.last_offset + 1):
                acquired[offset] = ranged.delivery_count
        if not acquired:
            return
        prefix = (tp.topic, tp.partition, part.current_leader.leader_epoch)
        for batch in MemoryRecords(part.records or b""):
            if batch.is_control_batch:
                continue
            if isinstance(batch, RecordBatch):
                rows = batch.rows(self.record_class, prefix)
            else:
                rows = [Fetcher._deserialized(*prefix, r, None, None, False, self.record_class) for r in batch]
            for row in rows:
                count = acquired.pop(row[OFFSET], None)
                if count is not None:
                    self.buffered.append((row, count))
        if acquired:
            self.in_flight.mark_gaps(tp, acquired)

    # -- handing out -----------------------------------------------------------------------------

    def take(self, limit: int) -> List[Tuple[Any, int]]:
        """Up to ``limit`` buffered ``(record, delivery count)`` pairs, oldest first."""
        out: List[Tuple[Any, int]] = []
        while self.buffered and len(out) < limit:
            out.append(self.buffered.popleft())
        return out

    def waiting(self) -> List[Future]:
        """The ShareFetch requests in flight."""
        return [s.in_flight for s in self.sessions.values() if s.in_flight is not None]


def _batches(part_cls: Any, marks: Dict[int, int]) -> List[Any]:
    return [part_cls.AcknowledgementBatch(first_offset=first, last_offset=last, acknowledge_types=types)
            for first, last, types in to_batches(marks)]
