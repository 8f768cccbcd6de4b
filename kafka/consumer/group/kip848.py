"""The KIP-848 consumer group protocol: one ConsumerGroupHeartbeat call.

The broker computes every member's assignment; a member heartbeats its
subscription and the partitions it owns, and receives its (next) target
assignment together with its member epoch. Reconciling a new target:

1. partitions not in the target are revoked — with auto-commit their
   positions are committed first — and ``on_partitions_revoked`` is called;
2. the subscription state takes the target; ``on_partitions_assigned``
   reports the partitions added;
3. a heartbeat reports the new owned partitions at once. The broker only
   hands out a partition once its previous owner has reported it revoked,
   so partitions never have two owners.

FENCED_MEMBER_EPOCH and UNKNOWN_MEMBER_ID mean our partitions were given
away: ``on_partitions_lost`` is called and the member joins again with
epoch 0 (keeping its member id, which from v1 the client generates,
KIP-1082). Leaving sends epoch -1 (-2 for a static member, which keeps its
assignment for a restart within the session timeout). Heartbeats follow
the interval the broker returns. Listener callbacks run in the application
thread, from :meth:`ConsumerGroupMembership.ensure_active`.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any, Dict, List, Optional, Tuple

from kafka import errors
from kafka.client.topic_ids import known_topic_names
from kafka.consumer.group.common import CommitFailedError, call_listener
from kafka.consumer.group.link import COORDINATOR_MOVED, left_ms
from kafka.future import Future
from kafka.protocol.apis import CONSUMER_GROUP_HEARTBEAT
from kafka.structs import MemberState, TopicPartition

log = logging.getLogger(__name__)

LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2

_R = CONSUMER_GROUP_HEARTBEAT.Request

#: Answers after which every partition we own is lost and we join again.
_FENCED = (errors.FencedMemberEpochError, errors.UnknownMemberIdError)


class ConsumerGroupMembership:
    """Membership of a KIP-848 consumer group for one :class:`ConsumerCoordinator`."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        cfg = owner.config
        self.group_id: str = owner.group_id
        self.instance_id: Optional[str] = cfg["group_instance_id"]
        self.interval = cfg["heartbeat_interval_ms"] / 1000.0
        self.rebalance_timeout_ms = int(cfg["rebalance_timeout_ms"] if cfg["rebalance_timeout_ms"] is not None
                                        else cfg["max_poll_interval_ms"])
        self.server_assignor: Optional[str] = cfg.get("group_remote_assignor")
        self.backoff = cfg["retry_backoff_ms"] / 1000.0
        self.lock = owner.lock
        self.link = owner.link
        self.client = owner.client
        self.subscription = owner.subscription

        self.member_id = ""
        self.epoch = 0
        self.fatal: Optional[BaseException] = None
        self._hb_future: Optional[Future] = None
        self._hb_next = 0.0
        self._hb_now = True          # something must be reported at once
        self._retry_at = 0.0
        self._full = True            # the next heartbeat carries every field
        self._sent_topics: Optional[List[str]] = None
        self._owned: List[Tuple[uuid.UUID, List[int]]] = []
        self._owned_version = 0
        self._owned_sent = -1
        self._target: Optional[List[Tuple[uuid.UUID, List[int]]]] = None
        self._lost = False
        self._assigned_once = False
        self._revoke_commit: Optional[Future] = None
        self._metadata_wait: Optional[int] = None
        self._listener_error: Optional[BaseException] = None

    # -- state shared with the coordinator -------------------------------------------------------

    def is_stable(self) -> bool:
        """Joined, with the last target assignment reconciled."""
        return self.epoch > 0 and self._target is None and not self._lost

    def member_state(self) -> str:
        """This member's :class:`~kafka.structs.MemberState` (joined = a positive epoch)."""
        with self.lock:
            if self.epoch <= 0:
                return MemberState.REBALANCING if self.subscription.subscribed else MemberState.UNJOINED
            return MemberState.STABLE if self.is_stable() else MemberState.REBALANCING

    def need_rejoin(self) -> bool:
        """Whether the member has yet to join or reconcile."""
        return bool(self.subscription.subscribed) and not self.is_stable()

    def request_rejoin(self, reason: str) -> None:
        """Send a full heartbeat at once (the broker decides whether anything moves)."""
        with self.lock:
            self._full = True
            self._hb_now = True
            self.owner.notify()

    def commit_identity(self) -> tuple:
        """(member epoch, member id, instance id) to commit with; raises when not a member."""
        with self.lock:
            if not self.subscription.subscribed:
                return (-1, "", None)
            if self.epoch > 0 and not self._lost:
                return (self.epoch, self.member_id, self.instance_id)
            if self.member_id and not self._lost:
                raise errors.RebalanceInProgressError("the consumer is joining group %s; poll() and commit again"
                                                      % self.group_id)
            raise CommitFailedError("this consumer is not an active member of group %s; poll() to rejoin"
                                    % self.group_id)

    def group_identity(self) -> tuple:
        """(member epoch, member id) for group metadata."""
        with self.lock:
            return self.epoch, self.member_id

    def on_commit_error(self, exc: BaseException) -> None:
        """An OffsetCommit said our epoch is gone or stale."""
        if isinstance(exc, _FENCED) or isinstance(exc, errors.IllegalGenerationError):
            self._fenced("offset commit failed with %s" % exc.__class__.__name__)
        elif isinstance(exc, errors.FencedInstanceIdError):
            self.fatal = exc
        else:
            self.request_rejoin("offset commit failed with %s" % exc.__class__.__name__)

    def _fenced(self, reason: str) -> None:
        with self.lock:
            log.warning("group %s: member %s lost its partitions: %s", self.group_id, self.member_id, reason)
            self.epoch = 0
            self._lost = True
            self._target = None
            self._full = True
            self._hb_now = False  # the application reports the loss before we join again
            self.owner.notify()

    # -- sending -------------------------------------------------------------------------------

    def _send(self, epoch: Optional[int] = None) -> Future:
        """Send a heartbeat now (lock held by the caller). ``epoch`` overrides ours (leaving)."""
        leaving = epoch is not None
        full = (self._full or self.epoch == 0) and not leaving
        topics = sorted(self.subscription.subscription or ())
        owned, owned_version = list(self._owned), self._owned_version
        report_owned = full or (owned_version != self._owned_sent and not leaving)
        sent_epoch = self.epoch if epoch is None else epoch

        def build(version: int) -> Any:
            if version >= 1 and not self.member_id:
                self.member_id = str(uuid.uuid4())  # KIP-1082: the member names itself
            return _R(group_id=self.group_id, member_id=self.member_id, member_epoch=sent_epoch,
                      instance_id=self.instance_id if (full or leaving) else None, rack_id=None,
                      rebalance_timeout_ms=self.rebalance_timeout_ms if full else -1,
                      subscribed_topic_names=topics if full else None,
                      # Names and regex are sent together or not at all; "" means no regex.
                      subscribed_topic_regex=("" if full else None) if version >= 1 else None,
                      server_assignor=self.server_assignor if full else None,
                      topic_partitions=[_R.TopicPartitions(topic_id=tid, partitions=ps) for tid, ps in owned]
                      if report_owned else None)

        future = self.link.send(CONSUMER_GROUP_HEARTBEAT, build)
        now = self.owner.heartbeat.last_send = time.monotonic()
        self._hb_future = future
        self._hb_next = now + self.interval
        sent = (full, topics, report_owned, owned_version, sent_epoch)
        future.add_callback(self._on_response, sent, future)
        future.add_errback(self._on_response, sent, future)
        return future

    def _on_response(self, sent: tuple, future: Future, result: Any) -> None:
        full, topics, report_owned, owned_version, sent_epoch = sent
        with self.lock:
            if self._hb_future is future:
                self._hb_future = None
            now = time.monotonic()
            if isinstance(result, BaseException):
                exc: Optional[BaseException] = result
            else:
                cls = errors.for_code(result.error_code)
                exc = cls("ConsumerGroupHeartbeat of group %s: %s" % (self.group_id, result.error_message or "")) \
                    if cls else None
            if sent_epoch < 0:
                return  # the answer to leaving
            self.owner.heartbeat.answered(exc is None)
            if exc is None:
                if result.member_id:
                    self.member_id = result.member_id
                if self._lost:
                    return  # fenced meanwhile: this answer is about the old membership
                if self.epoch != result.member_epoch:
                    log.debug("group %s: member %s epoch %d -> %d", self.group_id, self.member_id, self.epoch,
                              result.member_epoch)
                self.epoch = result.member_epoch
                if result.heartbeat_interval_ms > 0:
                    self.interval = result.heartbeat_interval_ms / 1000.0
                    self._hb_next = now + self.interval
                if full:
                    self._full = False
                    self._sent_topics = topics
                if report_owned:
                    self._owned_sent = owned_version
                if result.assignment is not None:
                    self._target = [(tp.topic_id, sorted(tp.partitions)) for tp in result.assignment.topic_partitions]
                self._hb_now = self._full or self._owned_sent != self._owned_version
            elif isinstance(exc, _FENCED):
                if isinstance(exc, errors.UnknownMemberIdError) and sent_epoch == 0:
                    self.member_id = ""  # our own id was refused: let the next join pick another
                self._fenced("heartbeat failed with %s" % exc.__class__.__name__)
            elif isinstance(exc, errors.UnsupportedVersionError):
                self.fatal = errors.UnsupportedVersionError(
                    "group_protocol='consumer' needs a broker that supports KIP-848 (ConsumerGroupHeartbeat); "
                    "this one does not (%s). Use group_protocol='classic'." % exc)
            elif isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False):
                self.link.handle_error(exc)
                self._full = True
                self._hb_now = True
                self._retry_at = now + self.backoff
            else:
                log.error("group %s: heartbeat failed: %s", self.group_id, exc)
                self.fatal = exc
            self.owner.notify()

    # -- the application thread's side ---------------------------------------------------------------

    def ensure_active(self, deadline: float) -> bool:
        """Join, reconcile and acknowledge until stable or ``deadline``; return whether stable."""
        try:
            return self._ensure_active(deadline)
        finally:
            error, self._listener_error = self._listener_error, None
            if error is not None:
                raise error

    def _ensure_active(self, deadline: float) -> bool:
        while True:
            if self.fatal is not None:
                raise self.fatal
            with self.lock:
                if sorted(self.subscription.subscription or ()) != self._sent_topics:
                    self._full = True
                    self._hb_now = True
            if self._lost:
                self._report_lost()
                continue
            target = self._target
            if target is not None:
                if not self._reconcile(target, deadline):
                    return False
                continue
            with self.lock:
                must_send = self._hb_now or self.epoch <= 0
                in_flight = self._hb_future
            if not must_send:
                return True
            if in_flight is None:
                now = time.monotonic()
                if now < self._retry_at:
                    self.client.poll(timeout_ms=min(left_ms(deadline), (self._retry_at - now) * 1000.0))
                    if time.monotonic() >= deadline:
                        return False
                    continue
                if not self.link.ready(deadline):
                    return False
                with self.lock:
                    in_flight = self._hb_future or self._send()
            if not self.link.wait(in_flight, deadline):
                return False

    def _note(self, error: Optional[BaseException]) -> None:
        if error is not None and self._listener_error is None:
            self._listener_error = error

    def _report_lost(self) -> None:
        owned = self.subscription.assigned_partitions()
        if owned:
            self._note(call_listener(self.subscription, "on_partitions_lost", owned))
            self.subscription.assign_from_subscribed([])
        with self.lock:
            self._owned = []
            self._owned_version += 1
            self._lost = False
            self._assigned_once = False
            self._hb_now = True
            self.owner.notify()

    def _reconcile(self, target: List[Tuple[uuid.UUID, List[int]]], deadline: float) -> bool:
        names = known_topic_names(self.client.cluster)
        if any(tid not in names for tid, _ in target):
            # Topic ids we cannot name yet: look at fresh metadata.
            for topic in self.subscription.subscription or ():
                self.client.add_topic(topic)
            if self._metadata_wait is None:
                self._metadata_wait = self.client.request_metadata_update()
            while self.client.cluster.version <= self._metadata_wait:
                if time.monotonic() >= deadline:
                    return False
                self.client.poll(timeout_ms=min(left_ms(deadline), 100.0))
            self._metadata_wait = None
            names = known_topic_names(self.client.cluster)
            unknown = [tid for tid, _ in target if tid not in names]
            if unknown:
                log.info("group %s: assignment names topic ids %s unknown to metadata; waiting", self.group_id, unknown)
                self.client.poll(timeout_ms=min(left_ms(deadline), self.backoff * 1000.0))
                return False
        new = {TopicPartition(names[tid], p) for tid, parts in target for p in parts
               if self.subscription.matches(names[tid])}
        current = self.subscription.assigned_partitions()
        revoked, added = current - new, new - current
        if revoked and self.owner.config["enable_auto_commit"]:
            if self._revoke_commit is None:
                self._revoke_commit = self.owner.autocommit_now(revoked)
            if not self.owner.offsets.wait(self._revoke_commit, deadline):
                return False
            if self._revoke_commit.failed():
                log.warning("group %s: committing revoked partitions failed: %s", self.group_id,
                            self._revoke_commit.exception)
            self._revoke_commit = None
        if revoked:
            self._note(call_listener(self.subscription, "on_partitions_revoked", revoked))
        self.subscription.assign_from_subscribed(sorted(new))
        if added or not self._assigned_once:
            self._note(call_listener(self.subscription, "on_partitions_assigned", added))
            self._assigned_once = True
        by_id: Dict[uuid.UUID, List[int]] = {}
        ids = {name: tid for tid, name in names.items()}
        for tp in sorted(new):
            by_id.setdefault(ids[tp.topic], []).append(tp.partition)
        with self.lock:
            self._owned = sorted(by_id.items(), key=lambda kv: str(kv[0]))
            self._owned_version += 1
            self._hb_now = True
            if self._target is target:
                self._target = None
            self.owner.notify()
        self.owner.on_rebalance_complete()
        log.info("group %s: member %s (epoch %d) owns %d partitions (+%d -%d)", self.group_id, self.member_id,
                 self.epoch, len(new), len(added), len(revoked))
        return True

    # -- heartbeats (background thread) -------------------------------------------------------------

    def heartbeat_tick(self) -> Optional[float]:
        """Send a heartbeat when due; return seconds until the next check (None: until woken)."""
        with self.lock:
            if (self.owner.closing or self.fatal is not None or self._lost or self.epoch <= 0
                    or not self.subscription.subscribed):
                return None
            now = time.monotonic()
            if self.owner.poll_timeout_expired(now):
                self._leave_after_poll_timeout()
                return None
            if self._hb_future is not None:
                return 0.05
            if now < self._retry_at:
                return self._retry_at - now
            if not self._hb_now and now < self._hb_next:
                return self._hb_next - now
            node = self.link.poll_lookup()
            if node is None or not self.client.ready(node):
                return 0.05
            self._send()
            return 0.05

    def _leave_after_poll_timeout(self) -> None:
        log.warning("group %s: poll() was not called within max_poll_interval_ms (%d ms): leaving the group; the "
                    "next poll() rejoins", self.group_id, self.owner.config["max_poll_interval_ms"])
        if self.link.node is not None and self.client.ready(self.link.node):
            self._send(STATIC_LEAVE_EPOCH if self.instance_id else LEAVE_EPOCH)
        self._fenced("max_poll_interval_ms expired")

    # -- leaving ----------------------------------------------------------------------------------

    def on_leave_prepare(self) -> None:
        """Report our partitions revoked (or lost) before leaving."""
        owned = self.subscription.assigned_partitions()
        if owned:
            method = "on_partitions_lost" if self._lost else "on_partitions_revoked"
            self._note(call_listener(self.subscription, method, owned))

    def leave(self, deadline: float) -> None:
        """Leave with epoch -1 (a static member with -2, keeping its place for a restart)."""
        with self.lock:
            joined = self.epoch > 0 and not self._lost
            in_flight = self._hb_future
        if in_flight is not None:
            self.link.wait(in_flight, deadline)
        if joined and self.link.ready(deadline):
            with self.lock:
                future = self._send(STATIC_LEAVE_EPOCH if self.instance_id else LEAVE_EPOCH)
            if self.link.wait(future, deadline) and future.failed():
                log.info("group %s: leaving failed: %s", self.group_id, future.exception)
        with self.lock:
            log.info("group %s: member %s left", self.group_id, self.member_id)
            self.epoch = 0
            self._owned = []
            self._owned_version += 1
            self._target = None
            self._full = True
            self._hb_now = True
        error, self._listener_error = self._listener_error, None
        if error is not None:
            raise error
