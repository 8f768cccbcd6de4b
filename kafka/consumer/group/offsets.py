"""Committing and fetching a group's offsets (OffsetCommit, OffsetFetch).

:class:`OffsetCommitter` builds and reads both requests for every version
up to the last one that names topics (v9), maps the errors, and keeps the
guarantee that our own retries never move a committed offset backwards:
each commit call is numbered, and a retried commit leaves out partitions
for which a later call's commit has already been acknowledged.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

from kafka import errors
from kafka.consumer.group.common import CommitFailedError
from kafka.consumer.group.link import COORDINATOR_MOVED, CoordinatorLink, left_ms
from kafka.future import Future
from kafka.protocol.apis import OFFSET_COMMIT, OFFSET_FETCH
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

# v10 of both APIs names topics by id only; names are all we need.
_COMMIT_MAX_VERSION = 9
_FETCH_MAX_VERSION = 9

#: Errors after which the member's generation/epoch is gone: commits cannot succeed.
_MEMBERSHIP_LOST = (errors.UnknownMemberIdError, errors.IllegalGenerationError, errors.FencedMemberEpochError)


def _offset_and_metadata(value: Any) -> OffsetAndMetadata:
    if isinstance(value, OffsetAndMetadata):
        return value
    if isinstance(value, tuple):
        return OffsetAndMetadata(*value)
    return OffsetAndMetadata(int(value), "")


class OffsetCommitter:
    """Offset commits and fetches for one group through a :class:`CoordinatorLink`.

    :param identity: returns ``(generation or epoch, member id, instance id)``
        to commit with, or raises when a commit cannot be made now (e.g.
        :class:`RebalanceInProgressError` in the middle of a rebalance).
    :param on_membership_error: called with the broker error when a commit
        says this member's generation is gone (so the membership resets).
    """

    def __init__(self, link: CoordinatorLink, identity: Callable[[], Tuple[int, str, Optional[str]]],
                 on_membership_error: Callable[[BaseException], None], retry_backoff_ms: float = 100,
                 request_timeout_ms: float = 30000) -> None:
        self.link = link
        self.group_id = link.group_id
        self._identity = identity
        self._on_membership_error = on_membership_error
        self.backoff = retry_backoff_ms / 1000.0
        self.request_timeout_ms = request_timeout_ms
        self._calls = itertools.count(1)
        self._lock = threading.Lock()
        self._acked: Dict[TopicPartition, int] = {}  # partition -> number of the last acknowledged call
        self._in_flight: List[Future] = []
        self._waiting: List[Tuple[Dict[TopicPartition, OffsetAndMetadata], int, Future, float]] = []
        self._callbacks: "collections.deque[Tuple[Callable[..., Any], Any, Optional[BaseException]]]" = \
            collections.deque()
        #: Offsets this member committed successfully, by partition (the latest call wins).
        self.committed: Dict[TopicPartition, OffsetAndMetadata] = {}

    # -- commit -----------------------------------------------------------------------------

    def _build_commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata],
                      identity: Tuple[int, str, Optional[str]]) -> Callable[[int], Any]:
        generation, member_id, instance_id = identity
        R = OFFSET_COMMIT.Request
        by_topic: Dict[str, List[Tuple[int, OffsetAndMetadata]]] = {}
        for tp, om in sorted(offsets.items()):
            by_topic.setdefault(tp.topic, []).append((tp.partition, om))

        def build(version: int) -> Any:
            if instance_id is not None and version < 7:
                raise errors.UnsupportedVersionError(
                    "committing as a static member needs OffsetCommit v7 or later (the broker offers v%d)" % version)
            now_ms = int(time.time() * 1000)
            return R(group_id=self.group_id, generation_id_or_member_epoch=generation, member_id=member_id,
                     group_instance_id=instance_id if version >= 7 else None, retention_time_ms=-1,
                     topics=[R.OffsetCommitRequestTopic(name=topic, partitions=[
                         R.OffsetCommitRequestTopic.OffsetCommitRequestPartition(
                             partition_index=p, committed_offset=om.offset,
                             committed_leader_epoch=om.leader_epoch if om.leader_epoch is not None else -1,
                             commit_timestamp=now_ms if version == 1 else -1,
                             committed_metadata=om.metadata if om.metadata is not None else "")
                         for p, om in parts]) for topic, parts in by_topic.items()])
        return build

    def _send_commit(self, offsets: Dict[TopicPartition, OffsetAndMetadata], call: int) -> Future[None]:
        """One OffsetCommit attempt; the future resolves with None or fails with the first error."""
        result: Future[None] = Future()
        try:
            identity = self._identity()
        except errors.KafkaError as exc:
            return result.failure(exc)
        sent = self.link.send(OFFSET_COMMIT, self._build_commit(offsets, identity), max_version=_COMMIT_MAX_VERSION)

        def done(response: Any) -> None:
            failed: Optional[BaseException] = None
            refused: Dict[TopicPartition, int] = {}
            with self._lock:
                for topic in response.topics:
                    for part in topic.partitions:
                        tp = TopicPartition(topic.name, part.partition_index)
                        if part.error_code:
                            refused[tp] = part.error_code
                            if failed is None:
                                cls = errors.for_code(part.error_code)
                                failed = cls("committing %s-%d for group %s"  # type: ignore[misc]
                                             % (tp[0], tp[1], self.group_id))
                            continue
                        if tp in offsets and self._acked.get(tp, 0) <= call:
                            self._acked[tp] = call
                            self.committed[tp] = offsets[tp]
            if failed is None:
                result.success(None)
            else:
                # Which partitions the broker refused, with its error code: the
                # others of the request were committed.
                failed.refused_partitions = refused  # type: ignore[attr-defined]
                self._fail(result, failed)

        sent.add_callback(done)
        sent.add_errback(lambda exc: self._fail(result, exc))
        return result

    def _fail(self, result: Future, exc: BaseException) -> None:
        self.link.handle_error(exc)
        if isinstance(exc, _MEMBERSHIP_LOST) or isinstance(exc, errors.FencedInstanceIdError):
            self._on_membership_error(exc)
            if not isinstance(exc, errors.FencedInstanceIdError):
                exc = CommitFailedError(
                    "the commit was refused (%s): the group rebalanced and this member's partitions may have "
                    "been given to another member; poll() again to rejoin" % exc.__class__.__name__)
        elif isinstance(exc, errors.RebalanceInProgressError):
            self._on_membership_error(exc)
        result.failure(exc)

    @staticmethod
    def _retriable(exc: BaseException, partition_errors: bool = True) -> bool:
        """Whether a synchronous commit tries again after ``exc``.

        ``partition_errors`` False retries only what concerns the coordinator
        (moved, unavailable, loading, timed out), as librdkafka does: an error
        about a partition itself (an unknown topic, say) ends the commit.
        """
        if isinstance(exc, (CommitFailedError, errors.RebalanceInProgressError, errors.FencedInstanceIdError)):
            return False
        if isinstance(exc, COORDINATOR_MOVED + (errors.CoordinatorLoadInProgressError,)):
            return True
        return partition_errors and bool(getattr(exc, "retriable", False))

    def _outdated(self, offsets: Dict[TopicPartition, OffsetAndMetadata],
                  call: int) -> Dict[TopicPartition, OffsetAndMetadata]:
        """``offsets`` minus partitions for which a later call was acknowledged meanwhile."""
        with self._lock:
            return {tp: om for tp, om in offsets.items() if self._acked.get(tp, 0) <= call}

    def commit_sync(self, offsets: Mapping[Any, Any], timeout_ms: float, retry_partition_errors: bool = True) -> None:
        """Commit and wait, retrying retriable errors until ``timeout_ms`` (see :meth:`_retriable`)."""
        deadline = time.monotonic() + timeout_ms / 1000.0
        offsets = {TopicPartition(*tp): _offset_and_metadata(om) for tp, om in offsets.items()}
        call = next(self._calls)
        # Commits made earlier with commit_async reach the broker first (and their callbacks run).
        for pending in list(self._in_flight):
            self.link.wait(pending, deadline)
        self.run_callbacks()
        if not offsets:
            return
        last: Optional[BaseException] = None
        while True:
            todo = self._outdated(offsets, call)
            if not todo:
                return
            if not self.link.ready(deadline):
                raise errors.CoordinatorWaitTimeoutError("offset commit for group %s: no coordinator within %d ms (%s)"
                                               % (self.group_id, timeout_ms, last or self.link.last_error))
            future = self._send_commit(todo, call)
            if not self.link.wait(future, deadline):
                raise errors.KafkaTimeoutError("offset commit for group %s not acknowledged within %d ms"
                                               % (self.group_id, timeout_ms))
            if future.succeeded():
                return
            last = future.exception
            assert last is not None
            if not self._retriable(last, retry_partition_errors) or time.monotonic() >= deadline:
                raise last
            log.debug("group %s: retrying offset commit after %s", self.group_id, last)
            self.link.client.poll(timeout_ms=min(self.backoff * 1000.0, left_ms(deadline)))

    def commit_async(self, offsets: Mapping[Any, Any],
                     callback: Optional[Callable[..., Any]] = None) -> Future[Dict[TopicPartition, OffsetAndMetadata]]:
        """Commit without waiting. Not retried (a retry could land after a later commit).

        ``callback(offsets, exception_or_None)`` runs in the application's
        thread, from the next :meth:`run_callbacks` (the coordinator's
        ``poll``, a synchronous commit or ``close``), as in the Java client.
        The returned future resolves with the offsets or fails with the error.
        """
        offsets = {TopicPartition(*tp): _offset_and_metadata(om) for tp, om in offsets.items()}
        call = next(self._calls)
        outcome: Future[Dict[TopicPartition, OffsetAndMetadata]] = Future()
        if not offsets:
            outcome.success(offsets)
        elif self.link.poll_lookup() is None or not self.link.client.ready(self.link.node):
            # Not connected yet: wait briefly in the background of the next polls.
            outcome = self._commit_when_ready(offsets, call)
        else:
            self._track(self._send_commit(offsets, call)).add_callback(
                lambda _: outcome.success(offsets)).add_errback(outcome.failure)
        if callback is not None:
            outcome.add_callback(lambda value: self._callbacks.append((callback, offsets, None)))
            outcome.add_errback(lambda exc: self._callbacks.append((callback, offsets, exc)))
        return outcome

    def run_callbacks(self) -> None:
        """Call the callbacks of finished asynchronous commits (application thread)."""
        while self._callbacks:
            callback, offsets, exc = self._callbacks.popleft()
            try:
                callback(offsets, exc)
            except Exception:  # user code
                log.exception("offset commit callback %r raised", callback)

    def _commit_when_ready(self, offsets: Dict[TopicPartition, OffsetAndMetadata],
                           call: int) -> Future[Dict[TopicPartition, OffsetAndMetadata]]:
        outcome: Future[Dict[TopicPartition, OffsetAndMetadata]] = Future()
        give_up = time.monotonic() + self.request_timeout_ms / 1000.0
        # Resolved by :meth:`drive`, called from the coordinator's poll.
        self._waiting.append((offsets, call, outcome, give_up))
        self._track(outcome)
        return outcome

    def drive(self) -> None:
        """Send asynchronous commits that were waiting for the coordinator (non-blocking)."""
        self.run_callbacks()
        if not self._waiting:
            return
        ready = self.link.poll_lookup() is not None and self.link.client.ready(self.link.node)
        now = time.monotonic()
        still = []
        for offsets, call, outcome, give_up in self._waiting:
            if ready:
                todo = self._outdated(offsets, call)
                if not todo:
                    outcome.success(offsets)
                    continue
                self._track(self._send_commit(todo, call)).add_callback(
                    lambda _, o=outcome, v=offsets: o.success(v)).add_errback(outcome.failure)
            elif now >= give_up:
                outcome.failure(errors.KafkaTimeoutError("no coordinator for group %s to commit to" % self.group_id))
            else:
                still.append((offsets, call, outcome, give_up))
        self._waiting = still

    def _track(self, future: Future) -> Future:
        with self._lock:
            self._in_flight.append(future)

        def forget(_: Any) -> None:
            with self._lock:
                if future in self._in_flight:
                    self._in_flight.remove(future)
        future.add_both(forget)
        return future

    def wait(self, future: Future, deadline: float) -> bool:
        """Wait for one asynchronous commit until ``deadline`` (sending it once a coordinator is ready)."""
        while not future.is_done:
            self.drive()
            if self._waiting:
                if not self.link.ready(min(deadline, time.monotonic() + 0.05)) and time.monotonic() >= deadline:
                    break
                continue
            if not self.link.wait(future, deadline):
                break
        return future.is_done

    def abandon_unsent(self) -> None:
        """Fail the asynchronous commits still waiting for a coordinator to be sent to (for a close)."""
        waiting, self._waiting = self._waiting, []
        for _offsets, _call, outcome, _give_up in waiting:
            outcome.failure(errors.CoordinatorWaitTimeoutError(
                "no coordinator for group %s to commit to before the consumer closed" % self.group_id))

    def pending(self) -> bool:
        """Whether asynchronous commits are still unanswered."""
        return bool(self._in_flight or self._waiting)

    def wait_pending(self, deadline: float) -> bool:
        """Wait for asynchronous commits until ``deadline``; return whether none is left."""
        try:
            return self._wait_pending(deadline)
        finally:
            self.run_callbacks()

    def _wait_pending(self, deadline: float) -> bool:
        while self.pending():
            self.drive()
            for pending in list(self._in_flight):
                if not self.link.wait(pending, deadline):
                    return False
            if time.monotonic() >= deadline:
                return not self.pending()
            if self._waiting:
                self.link.ready(min(deadline, time.monotonic() + 0.05))
        return True

    # -- fetch -------------------------------------------------------------------------------

    def _build_fetch(self, partitions: Iterable[TopicPartition],
                     member: Tuple[Optional[str], int]) -> Callable[[int], Any]:
        by_topic: Dict[str, List[int]] = {}
        for tp in sorted(set(partitions)):
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        R = OFFSET_FETCH.Request

        def build(version: int) -> Any:
            if version >= 8:
                group = R.OffsetFetchRequestGroup(
                    group_id=self.group_id, member_id=member[0], member_epoch=member[1],
                    topics=[R.OffsetFetchRequestGroup.OffsetFetchRequestTopics(name=t, partition_indexes=ps)
                            for t, ps in by_topic.items()])
                return R(groups=[group], require_stable=True)
            return R(group_id=self.group_id, require_stable=version >= 7,
                     topics=[R.OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()])
        return build

    @staticmethod
    def _parse_fetch(response: Any, group_id: str) -> Tuple[int, List[Tuple[str, Any]]]:
        """(group-level error code, [(topic, partition entry)])."""
        if response.groups:
            group = next((g for g in response.groups if g.group_id == group_id), response.groups[0])
            return group.error_code, [(t.name, p) for t in group.topics for p in t.partitions]
        return response.error_code or 0, [(t.name, p) for t in response.topics or () for p in t.partitions]

    def fetch(self, partitions: Iterable[Any], timeout_ms: float, member: Tuple[Optional[str], int] = (None, -1),
              unknown: Optional[List[TopicPartition]] = None) -> Dict[TopicPartition, Optional[OffsetAndMetadata]]:
        """Committed offsets of ``partitions`` (None where nothing is committed).

        A partition the coordinator calls unknown has None too, and is added
        to ``unknown`` when a list is given.
        """
        wanted = {TopicPartition(*tp) for tp in partitions}
        if not wanted:
            return {}
        deadline = time.monotonic() + timeout_ms / 1000.0
        last: Optional[BaseException] = None
        while True:
            if not self.link.ready(deadline):
                raise errors.CoordinatorWaitTimeoutError("fetching committed offsets of group %s: no coordinator within %d ms "
                                               "(%s)"
                                               % (self.group_id, timeout_ms, last or self.link.last_error))
            future = self.link.send(OFFSET_FETCH, self._build_fetch(wanted, member), max_version=_FETCH_MAX_VERSION)
            if not self.link.wait(future, deadline):
                raise errors.KafkaTimeoutError("committed offsets of group %s not received within %d ms"
                                               % (self.group_id, timeout_ms))
            error: Optional[BaseException] = None
            if future.succeeded():
                code, entries = self._parse_fetch(future.value, self.group_id)
                if code:
                    error = errors.for_code(code)("fetching offsets of group %s" % self.group_id)  # type: ignore[misc]
                else:
                    result: Dict[TopicPartition, Optional[OffsetAndMetadata]] = {tp: None for tp in wanted}
                    for topic, entry in entries:
                        tp = TopicPartition(topic, entry.partition_index)
                        if tp not in wanted:
                            continue
                        if entry.error_code:
                            cls = errors.for_code(entry.error_code)
                            if cls is errors.UnknownTopicOrPartitionError:
                                log.warning("group %s: no committed offset for unknown %s-%d", self.group_id, *tp)
                                if unknown is not None:
                                    unknown.append(tp)
                                continue
                            error = cls("fetching the offset of %s-%d for group %s"  # type: ignore[misc]
                                        % (tp[0], tp[1], self.group_id))
                            break
                        if entry.committed_offset >= 0:
                            result[tp] = OffsetAndMetadata(entry.committed_offset, entry.metadata,
                                                           entry.committed_leader_epoch)
                    if error is None:
                        return result
            else:
                error = future.exception
            assert error is not None
            self.link.handle_error(error)
            last = error
            if not (isinstance(error, COORDINATOR_MOVED) or getattr(error, "retriable", False)):
                raise error
            if time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("committed offsets of group %s: %s" % (self.group_id, error))
            self.link.client.poll(timeout_ms=min(self.backoff * 1000.0, left_ms(deadline)))
