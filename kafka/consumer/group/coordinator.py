"""ConsumerCoordinator: a consumer's membership of its group, and its offsets.

The :class:`~kafka.consumer.kafka.KafkaConsumer` calls :meth:`ConsumerCoordinator.poll`
from each of its own polls. That call, in the application thread:

* finds the group coordinator (FindCoordinator, without blocking past the
  time it is given);
* for a pattern subscription, matches the pattern against the cluster's
  topics;
* keeps the member in a stable group — the classic JoinGroup/SyncGroup
  protocol (:mod:`~kafka.consumer.group.classic`) or the KIP-848
  ConsumerGroupHeartbeat protocol (:mod:`~kafka.consumer.group.kip848`) —
  calling the subscription's rebalance listener;
* sends the periodic auto-commit;
* notes the poll time, which ``max_poll_interval_ms`` is measured from.

A daemon thread sends the heartbeats at their interval, also while the
application processes records, and leaves the group when ``poll`` has not
been called within ``max_poll_interval_ms``. It polls the shared client only
for an instant (``poll(0)``), so it never holds up the application's own
network I/O.

Every step that needs the network resumes on the next call when the time
runs out, so ``poll(0)`` still makes progress.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Set, Tuple

from kafka import errors
from kafka.consumer.group.common import CommitFailedError, GroupMetadata, HeartbeatTimes
from kafka.consumer.group.link import CoordinatorLink, left_ms
from kafka.consumer.group.offsets import OffsetCommitter
from kafka.future import Future
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

DEFAULT_CONFIG: Dict[str, Any] = {
    "group_instance_id": None,
    "session_timeout_ms": 45000,
    "heartbeat_interval_ms": 3000,
    "max_poll_interval_ms": 300000,
    "rebalance_timeout_ms": None,
    "retry_backoff_ms": 100,
    "enable_auto_commit": True,
    "auto_commit_interval_ms": 5000,
    "default_offset_commit_callback": None,
    "partition_assignment_strategy": ("range", "roundrobin"),
    "group_protocol": "classic",
    "group_remote_assignor": None,
    "exclude_internal_topics": True,
    "request_timeout_ms": 30000,
}


class ConsumerCoordinator:
    """Group membership, rebalances and committed offsets of one consumer.

    :param client: the consumer's :class:`~kafka.client.KafkaClient`.
    :param subscription: the consumer's
        :class:`~kafka.consumer.subscription.SubscriptionState`.
    :param group_id: the group to join (and to commit offsets for).
    :param group_instance_id: a static member id (KIP-345): a restart within
        the session timeout gets the same partitions back without a
        rebalance, and closing does not leave the group.
    :param partition_assignment_strategy: assignor names (``range``,
        ``roundrobin``, ``sticky``, ``cooperative-sticky``) or assignor
        objects, in order of preference (classic protocol only).
    :param group_protocol: ``"classic"`` or ``"consumer"`` (KIP-848; the
        broker assigns partitions; ``group_remote_assignor`` may name the
        broker's assignor).
    """

    def __init__(self, client: Any, subscription: Any, *, group_id: str, **configs: Any) -> None:
        unknown = set(configs) - set(DEFAULT_CONFIG)
        if unknown:
            raise errors.KafkaConfigurationError("unknown coordinator configuration: %s" % ", ".join(sorted(unknown)))
        if not group_id or not isinstance(group_id, str):
            raise errors.KafkaConfigurationError("group_id must be a non-empty string")
        self.config = dict(DEFAULT_CONFIG)
        self.config.update(configs)
        cfg = self.config
        if cfg["group_protocol"] not in ("classic", "consumer"):
            raise errors.KafkaConfigurationError("group_protocol must be 'classic' or 'consumer', not %r"
                                                 % (cfg["group_protocol"],))
        if cfg["heartbeat_interval_ms"] >= cfg["session_timeout_ms"]:
            raise errors.KafkaConfigurationError("heartbeat_interval_ms must be lower than session_timeout_ms")
        if cfg["group_instance_id"] is not None and not cfg["group_instance_id"]:
            raise errors.KafkaConfigurationError("group_instance_id must be None or a non-empty string")
        self.client = client
        self.subscription = subscription
        self.group_id = group_id
        self.lock = threading.RLock()
        self._cond = threading.Condition(self.lock)
        self.link = CoordinatorLink(client, group_id, cfg["retry_backoff_ms"])
        #: kafka-python's ``_coordinator.heartbeat``: last poll, heartbeat sent and answered, last join.
        self.heartbeat = HeartbeatTimes()
        if cfg["group_protocol"] == "classic":
            from kafka.consumer.group.classic import ClassicMembership
            self.membership: Any = ClassicMembership(self)
        else:
            from kafka.consumer.group.kip848 import ConsumerGroupMembership
            self.membership = ConsumerGroupMembership(self)
        self.offsets = OffsetCommitter(self.link, self.membership.commit_identity, self.membership.on_commit_error,
                                       cfg["retry_backoff_ms"], cfg["request_timeout_ms"])
        self.closing = False
        self._closed = False
        self._next_auto_commit = time.monotonic() + cfg["auto_commit_interval_ms"] / 1000.0
        self._auto_commit: Optional[Future] = None
        self._pattern_version: Optional[int] = None
        self._pattern_wait: Optional[int] = None
        self._was_subscribed = False
        self._thread: Optional[threading.Thread] = None
        #: Errors about assigned partitions not reported yet (see take_partition_errors).
        self._partition_errors: List[Tuple[TopicPartition, errors.KafkaError]] = []

    def __repr__(self) -> str:
        return "<ConsumerCoordinator group=%r protocol=%s member=%r generation=%s>" % (
            self.group_id, self.config["group_protocol"], self.member_id, self.generation)

    # -- small helpers used by the membership classes -----------------------------------------------

    def notify(self) -> None:
        """Wake the heartbeat thread (state changed)."""
        with self._cond:
            self._cond.notify_all()

    def poll_timeout_expired(self, now: float) -> bool:
        """Whether ``poll`` has not been called within ``max_poll_interval_ms``."""
        return now - self.heartbeat.last_poll > self.config["max_poll_interval_ms"] / 1000.0

    def on_rebalance_complete(self) -> None:
        """A new assignment took effect: the next auto-commit is a full interval away."""
        self._next_auto_commit = time.monotonic() + self.config["auto_commit_interval_ms"] / 1000.0

    def autocommit_now(self, partitions: Optional[Iterable[TopicPartition]] = None) -> Future:
        """Commit the positions (of ``partitions``, default all) asynchronously; for rebalances."""
        consumed = self.subscription.all_consumed()
        if partitions is not None:
            wanted = set(partitions)
            consumed = {tp: om for tp, om in consumed.items() if tp in wanted}
        return self.offsets.commit_async(self._not_yet_committed(consumed))

    def _not_yet_committed(self, offsets: Mapping[TopicPartition, OffsetAndMetadata]
                           ) -> Dict[TopicPartition, OffsetAndMetadata]:
        done = self.offsets.committed
        return {tp: om for tp, om in offsets.items() if tp not in done or done[tp].offset != om.offset}

    # -- the consumer's interface --------------------------------------------------------------------

    @property
    def generation(self) -> int:
        """The classic generation id, or the KIP-848 member epoch (-1/0 when not a member)."""
        return self.membership.group_identity()[0]

    @property
    def member_id(self) -> str:
        """This member's id ("" before the first join)."""
        return self.membership.group_identity()[1]

    @property
    def assignment(self) -> Set[TopicPartition]:
        """The partitions the group assigned to this consumer."""
        return self.subscription.assigned_partitions()

    def need_rejoin(self) -> bool:
        """Whether the member has to (re)join or reconcile before its assignment is valid."""
        return self.membership.need_rejoin()

    def is_stable(self) -> bool:
        """Whether the member belongs to a stable generation (or epoch)."""
        return self.membership.is_stable()

    @property
    def state(self) -> str:
        """This member's :class:`~kafka.structs.MemberState` (kafka-python's ``coordinator.state``)."""
        return str(self.membership.member_state())

    def group_metadata(self) -> GroupMetadata:
        """Who this consumer is in the group, for ``KafkaProducer.send_offsets_to_transaction``,
        with its :class:`~kafka.structs.MemberState`."""
        generation, member_id = self.membership.group_identity()
        return GroupMetadata(self.group_id, generation, member_id, self.config["group_instance_id"],
                             self.membership.member_state())

    def poll(self, timeout_ms: float = 0) -> None:
        """One step of group work for a ``KafkaConsumer.poll``; blocks at most ``timeout_ms``."""
        self._check_open()
        deadline = time.monotonic() + max(timeout_ms, 0) / 1000.0
        self.heartbeat.last_poll = time.monotonic()
        self._start_heartbeat_thread()
        self.offsets.drive()
        if self.subscription.subscribed:
            self._was_subscribed = True
            if self._refresh_pattern(deadline):
                for topic in self.subscription.subscription or ():
                    self.client.add_topic(topic)
                self.membership.ensure_active(deadline)
        else:
            if self._was_subscribed:
                self._was_subscribed = False
                self.maybe_leave_group("the consumer unsubscribed", deadline)
            if self.config["enable_auto_commit"] and self.subscription.assigned_partitions():
                self.link.poll_lookup()  # have the coordinator ready for the auto-commit
        self._maybe_auto_commit()

    def _refresh_pattern(self, deadline: float) -> bool:
        """Match a pattern subscription against metadata; False while the first metadata is awaited."""
        if self.subscription.pattern is None:
            self._pattern_version = None
            return True
        cluster = self.client.cluster
        if self._pattern_version is None and self._pattern_wait is None:
            self.client.track_all_topics()
            self._pattern_wait = self.client.request_metadata_update()
        if self._pattern_wait is not None:
            while cluster.version <= self._pattern_wait:
                if time.monotonic() >= deadline:
                    return False
                self.client.poll(timeout_ms=min(left_ms(deadline), 100.0))
            self._pattern_wait = None
        if cluster.version != self._pattern_version:
            self._pattern_version = cluster.version
            topics = cluster.topics(self.config["exclude_internal_topics"])
            if self.subscription.change_subscription_from_pattern(topics):
                log.info("group %s: the pattern now matches %s", self.group_id, sorted(self.subscription.subscription))
        return True

    def _maybe_auto_commit(self) -> None:
        if not self.config["enable_auto_commit"]:
            return
        now = time.monotonic()
        if now < self._next_auto_commit or (self._auto_commit is not None and not self._auto_commit.is_done):
            return
        if self.subscription.subscribed and not self.membership.is_stable():
            self._next_auto_commit = now + self.config["retry_backoff_ms"] / 1000.0
            return
        self._next_auto_commit = now + self.config["auto_commit_interval_ms"] / 1000.0
        offsets = self._not_yet_committed(self.subscription.all_consumed())
        if not offsets:
            return
        future = self.offsets.commit_async(offsets)
        self._auto_commit = future

        def failed(exc: BaseException) -> None:
            if getattr(exc, "retriable", False):
                self._next_auto_commit = time.monotonic() + self.config["retry_backoff_ms"] / 1000.0
            log.warning("group %s: auto-commit of %d offsets failed: %s", self.group_id, len(offsets), exc)
        future.add_errback(failed)

    def refresh_committed_offsets(self, partitions: Iterable[TopicPartition], timeout_ms: float) -> None:
        """Give partitions without a position their committed offset, or ask for a reset when there is none.

        Raises what ``SubscriptionState.request_reset`` raises when
        ``auto_offset_reset`` is ``'none'``. When the coordinator does not
        answer in time, the partitions are left as they are (call again).
        """
        sub = self.subscription
        wanted = [TopicPartition(*tp) for tp in partitions]
        wanted = [tp for tp in wanted if sub.is_assigned(tp) and sub.state(tp).position is None
                  and sub.state(tp).reset_to is None]
        if not wanted:
            return
        unknown: List[TopicPartition] = []
        try:
            self._check_open()
            found = self.offsets.fetch(wanted, timeout_ms, unknown=unknown)
        except errors.KafkaTimeoutError as exc:
            log.debug("group %s: committed offsets not fetched yet: %s", self.group_id, exc)
            return
        for tp in unknown:
            self._partition_errors.append((tp, errors.UnknownTopicOrPartitionError(
                "no committed offset of %s-%d for group %s: the coordinator does not know the partition"
                % (tp.topic, tp.partition, self.group_id))))
        for tp in wanted:
            if not sub.is_assigned(tp):
                continue  # the assignment changed meanwhile
            state = sub.state(tp)
            if state.position is not None or state.reset_to is not None:
                continue
            committed = found.get(tp)
            if committed is None:
                sub.request_reset(tp)
            else:
                sub.seek(tp, committed.offset, committed.leader_epoch)
                state.committed = committed

    def take_partition_errors(self) -> List[Tuple[TopicPartition, errors.KafkaError]]:
        """Errors about assigned partitions found since the last call (each is handed out once)."""
        taken, self._partition_errors = self._partition_errors, []
        return taken

    def fetch_committed_offsets(self, partitions: Iterable[TopicPartition],
                                timeout_ms: float) -> Dict[TopicPartition, Optional[OffsetAndMetadata]]:
        """The group's committed offset of each partition (None where none is committed)."""
        self._check_open()
        return self.offsets.fetch(partitions, timeout_ms)

    def commit_offsets_sync(self, offsets: Mapping[TopicPartition, Any], timeout_ms: float,
                            retry_partition_errors: bool = True) -> None:
        """Commit ``offsets`` and wait (retrying retriable errors until ``timeout_ms``).

        Raises :class:`CommitFailedError` when the group rebalanced and this
        member's generation is gone, :class:`RebalanceInProgressError` while
        a rebalance is under way (poll, then commit again).
        ``retry_partition_errors`` False retries only coordinator errors.
        """
        self._check_open()
        self.offsets.commit_sync(offsets, timeout_ms, retry_partition_errors)
        self._note_committed(offsets)

    def serve_commits(self, timeout_ms: float) -> bool:
        """Send asynchronous commits waiting for the coordinator, read answers for up to ``timeout_ms``
        and run the callbacks of finished commits; no group work. Whether any commit was pending."""
        self._check_open()
        self.offsets.drive()
        if not self.offsets.pending():
            return False
        self.client.poll(timeout_ms=timeout_ms)
        self.offsets.drive()
        return True

    def commit_offsets_async(self, offsets: Mapping[TopicPartition, Any],
                             callback: Optional[Callable[..., Any]] = None) -> Future:
        """Commit without waiting; ``callback(offsets, exception_or_None)`` once done.

        Without ``callback`` the ``default_offset_commit_callback`` is used.
        The callback runs in the application's thread, from a later
        :meth:`poll`, synchronous commit or :meth:`close`. Asynchronous
        commits are not retried. The future resolves with the offsets or
        fails with the error (in whichever thread reads the answer).
        """
        self._check_open()
        callback = callback or self.config["default_offset_commit_callback"]
        future = self.offsets.commit_async(offsets, callback)
        future.add_callback(self._note_committed)
        return future

    def _note_committed(self, offsets: Mapping[TopicPartition, Any]) -> None:
        for tp in offsets:
            tp = TopicPartition(*tp)
            committed = self.offsets.committed.get(tp)
            if committed is not None and self.subscription.is_assigned(tp):
                self.subscription.state(tp).committed = committed

    def maybe_leave_group(self, reason: str = "", deadline: Optional[float] = None) -> None:
        """Give up the assignment (listener called) and leave the group; for unsubscribe()."""
        if deadline is None:
            deadline = time.monotonic() + self.config["request_timeout_ms"] / 1000.0
        log.info("group %s: leaving: %s", self.group_id, reason)
        try:
            self.membership.on_leave_prepare()
        finally:
            self.membership.leave(deadline)

    def close(self, autocommit: bool = True, timeout_ms: float = 30000, wait_unsent_commits: bool = True) -> None:
        """Final auto-commit, revoke callbacks, LeaveGroup (not for static members), stop heartbeats.

        ``wait_unsent_commits`` False fails at once the asynchronous commits
        that are still waiting for a coordinator instead of waiting for one.
        """
        if self._closed:
            return
        deadline = time.monotonic() + max(timeout_ms, 0) / 1000.0
        if not wait_unsent_commits:
            self.offsets.abandon_unsent()
        try:
            if autocommit and self.config["enable_auto_commit"]:
                try:
                    consumed = self._not_yet_committed(self.subscription.all_consumed())
                    if consumed and (not self.subscription.subscribed or self.membership.is_stable()):
                        self.offsets.commit_sync(consumed, left_ms(deadline))
                except errors.KafkaError as exc:
                    log.warning("group %s: final auto-commit failed: %s", self.group_id, exc)
            self.offsets.wait_pending(deadline)
            with self._cond:
                self.closing = True
                self._cond.notify_all()
            if self._was_subscribed or self.subscription.subscribed:
                self.maybe_leave_group("the consumer is closing", deadline)
        finally:
            with self._cond:
                self.closing = True
                self._closed = True
                self._cond.notify_all()
            self._stop_heartbeat_thread(max(left_ms(deadline), 100.0) / 1000.0)

    def _check_open(self) -> None:
        if self._closed:
            raise errors.IllegalStateError("the group coordinator is closed")

    # -- the heartbeat thread ------------------------------------------------------------------------

    def _start_heartbeat_thread(self) -> None:
        if self._thread is not None or not self.subscription.subscribed:
            return
        self._thread = threading.Thread(target=self._heartbeat_loop, daemon=True,
                                        name="kafkawire-heartbeat-%s" % self.group_id)
        self._thread.start()

    def _stop_heartbeat_thread(self, timeout: float = 5.0) -> None:
        thread = self._thread
        if thread is None:
            return
        with self._cond:
            self.closing = True
            self._cond.notify_all()
        if thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None

    def _heartbeat_loop(self) -> None:
        log.debug("group %s: heartbeat thread started", self.group_id)
        while not self.closing:
            try:
                wait = self.membership.heartbeat_tick()
                self.client.poll(timeout_ms=0)
            except Exception:  # noqa: BLE001 - the thread must survive anything and try again
                log.exception("group %s: heartbeat thread error", self.group_id)
                wait = 1.0
            with self._cond:
                if self.closing:
                    break
                self._cond.wait(1.0 if wait is None else max(min(wait, 1.0), 0.001))
        log.debug("group %s: heartbeat thread stopped", self.group_id)


__all__ = ["CommitFailedError", "ConsumerCoordinator", "GroupMetadata", "DEFAULT_CONFIG"]
