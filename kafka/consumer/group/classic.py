"""The classic group protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup.

A rebalance, as this member lives it:

1. *prepare* — stop heartbeating for the old generation; with auto-commit,
   commit the positions; with an eager assignor give up every partition
   (``on_partitions_revoked``); if the old generation was lost (the
   coordinator no longer knew us) report ``on_partitions_lost`` instead and
   commit nothing;
2. *join* — JoinGroup with one subscription per configured assignor. A
   broker of KIP-394 answers the first JoinGroup with MEMBER_ID_REQUIRED
   and the member id to use; we join again with it;
3. *assign* — the leader decodes every member's subscription, refreshes
   metadata for the group's topics when needed and runs the chosen
   assignor;
4. *sync* — SyncGroup; every member receives its assignment. With the
   cooperative protocol (KIP-429) only partitions that left us are revoked,
   and when some were, we rejoin at once so they can be handed on.

Steps run from :meth:`ClassicMembership.ensure_active` in the application
thread, one request in flight at a time, and resume on the next call when
the caller's time runs out. Heartbeats are sent by the coordinator's
background thread through :meth:`ClassicMembership.heartbeat_tick`, which
never blocks; their answers only set flags that the application thread
acts on.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, List, Optional, Set, Tuple

from kafka import errors
from kafka.group.assignors import lookup_all, rebalance_protocol
from kafka.consumer.group.common import COOPERATIVE, NO_GENERATION, CommitFailedError, Generation, call_listener
from kafka.consumer.group.link import COORDINATOR_MOVED, left_ms
from kafka.future import Future
from kafka.group.members import read_subscriptions
from kafka.group.payloads import assigned_partitions, assignment_payload, subscription_payload
from kafka.protocol.apis import HEARTBEAT, JOIN_GROUP, LEAVE_GROUP, SYNC_GROUP
from kafka.structs import MemberState, TopicPartition

log = logging.getLogger(__name__)

UNJOINED = "unjoined"          # not a member (or the last attempt failed)
JOINING = "joining"            # JoinGroup in flight
ASSIGNING = "assigning"        # JoinGroup answered; the leader computes the assignment
SYNCING = "syncing"            # SyncGroup in flight
STABLE = "stable"              # member of a generation, heartbeating

#: How much longer than the rebalance timeout a JoinGroup may take (as the Java client allows).
JOIN_TIMEOUT_MARGIN_MS = 5000

#: JoinGroup/SyncGroup errors after which we rejoin as a new member.
_MEMBER_GONE = (errors.UnknownMemberIdError, errors.IllegalGenerationError)


class ClassicMembership:
    """Membership of a classic consumer group for one :class:`ConsumerCoordinator`."""

    protocol_type = "consumer"

    def __init__(self, owner: Any) -> None:
        self.owner = owner
        cfg = owner.config
        self.assignors = lookup_all(cfg["partition_assignment_strategy"])
        self.protocol = rebalance_protocol(self.assignors)
        self.group_id: str = owner.group_id
        self.instance_id: Optional[str] = cfg["group_instance_id"]
        self.session_timeout = cfg["session_timeout_ms"] / 1000.0
        self.interval = cfg["heartbeat_interval_ms"] / 1000.0
        self.rebalance_timeout_ms = int(cfg["rebalance_timeout_ms"] if cfg["rebalance_timeout_ms"] is not None
                                        else cfg["max_poll_interval_ms"])
        self.backoff = cfg["retry_backoff_ms"] / 1000.0
        # The coordinator answers a JoinGroup once every member rejoined, or
        # after the rebalance timeout: give it that long, plus a margin, rather
        # than request_timeout_ms (which would close the connection and start
        # the join over while the rebalance legitimately goes on).
        self.join_timeout_ms = max(float(cfg["request_timeout_ms"]),
                                   self.rebalance_timeout_ms + JOIN_TIMEOUT_MARGIN_MS)
        self.lock = owner.lock
        self.link = owner.link
        self.client = owner.client
        self.subscription = owner.subscription

        self.generation: Generation = NO_GENERATION
        self.member_id = ""
        self.state = UNJOINED
        self.leader_id: Optional[str] = None
        self.rejoin_needed = True
        self.rejoin_reason = "initial join"
        self.fatal: Optional[BaseException] = None
        self._prepared = False
        self._lost = False
        self._prepare_commit: Optional[Future] = None
        self._join_future: Optional[Future] = None
        self._join_response: Any = None
        self._join_error: Any = None
        self._sync_future: Optional[Future] = None
        self._retry_at = 0.0
        self._sync_refused = 0
        self._joined_topics: Optional[frozenset] = None
        self._group_topics: Set[str] = set()
        self._unreadable_members: Set[str] = set()  # reported once each, by the leader
        self._assigned_snapshot: Optional[Dict[str, int]] = None
        self._metadata_wait: Optional[Tuple[int, float]] = None
        self._listener_error: Optional[BaseException] = None
        # heartbeats
        self._hb_enabled = False
        self._hb_future: Optional[Future] = None
        self._hb_next = 0.0
        self._hb_last_ok = time.monotonic()

    # -- state shared with the coordinator -------------------------------------------------------

    def is_stable(self) -> bool:
        """A member of a completed generation (commits carry it)."""
        return self.state == STABLE and self.generation.generation_id >= 0

    def member_state(self) -> str:
        """This member's :class:`~kafka.structs.MemberState`."""
        with self.lock:
            if self.state == UNJOINED:
                return MemberState.UNJOINED
            return MemberState.STABLE if self.is_stable() else MemberState.REBALANCING

    def need_rejoin(self) -> bool:
        """Whether the member must (re)join before it has a valid assignment."""
        if not self.subscription.subscribed:
            return False
        return self.rejoin_needed or self.state != STABLE

    def request_rejoin(self, reason: str) -> None:
        """Rejoin on the next poll (keeping the member id and generation)."""
        with self.lock:
            if not self.rejoin_needed:
                log.info("group %s: rejoining: %s", self.group_id, reason)
            self.rejoin_needed = True
            self.rejoin_reason = reason

    def reset(self, reason: str, error: Optional[BaseException] = None) -> None:
        """Forget the generation (and member id): our partitions are lost, join again.

        After ILLEGAL_GENERATION the coordinator still knows our member id
        (it checks the member before the generation), so it is kept: joining
        as a new member would leave the old one in the group until its
        session expires, and make the next rebalance wait for it.
        """
        keep = isinstance(error, errors.IllegalGenerationError)
        with self.lock:
            if self.generation is not NO_GENERATION or self.member_id:
                log.info("group %s: member %s reset%s: %s", self.group_id, self.member_id or "-",
                         " (keeping its member id)" if keep else "", reason)
            member_id = (self.generation.member_id or self.member_id) if keep else ""
            self.generation = NO_GENERATION
            self.member_id = member_id
            self.leader_id = None
            self.state = UNJOINED
            self.rejoin_needed = True
            self.rejoin_reason = reason
            self._hb_enabled = False
            self._prepared = False
            self._lost = True
            # A join or sync still under way belongs to the member that is gone.
            self._join_future = None
            self._sync_future = None
            self._join_response = None
            self._join_error = None
            self.owner.notify()

    def commit_identity(self) -> tuple:
        """(generation, member id, instance id) to commit with; raises when there is none now."""
        with self.lock:
            if not self.subscription.subscribed:
                return (-1, "", None)
            if self.generation.generation_id >= 0 and self.state == STABLE:
                return (self.generation.generation_id, self.generation.member_id, self.instance_id)
            if self.state in (JOINING, ASSIGNING, SYNCING):
                raise errors.RebalanceInProgressError(
                    "offsets cannot be committed while the group rebalances; poll() to complete the rebalance, "
                    "then commit again")
            raise CommitFailedError("this consumer is not an active member of group %s (it may have been removed "
                                    "after a session or poll timeout); poll() to rejoin" % self.group_id)

    def group_identity(self) -> tuple:
        """(generation id, member id) for group metadata."""
        with self.lock:
            return self.generation.generation_id, self.generation.member_id or self.member_id

    def on_commit_error(self, exc: BaseException) -> None:
        """An OffsetCommit said our generation is gone, or that the group rebalances."""
        if isinstance(exc, errors.RebalanceInProgressError):
            self.request_rejoin("an offset commit found the group rebalancing")
        elif isinstance(exc, errors.FencedInstanceIdError):
            self.fatal = exc
        else:
            self.reset("offset commit failed with %s" % exc.__class__.__name__, exc)

    # -- the application thread's side --------------------------------------------------------------

    def ensure_active(self, deadline: float) -> bool:
        """Drive the rebalance until the member is stable or ``deadline`` passes; return whether stable."""
        try:
            return self._ensure_active(deadline)
        finally:
            error, self._listener_error = self._listener_error, None
            if error is not None:
                raise error

    def _raise_fatal(self) -> None:
        if self.fatal is not None:
            raise self.fatal

    def _check_rejoin_triggers(self) -> None:
        if self.state != STABLE or self.rejoin_needed:
            return
        topics = frozenset(self.subscription.subscription or ())
        if self._joined_topics is not None and topics != self._joined_topics:
            self.request_rejoin("the subscription changed")
        elif (self._assigned_snapshot is not None
              and self._assigned_snapshot != self._partition_counts(self._group_topics)):
            self.request_rejoin("partitions of subscribed topics changed (leader)")

    def _partition_counts(self, topics: Set[str]) -> Dict[str, int]:
        cluster = self.client.cluster
        return {t: len(cluster.partitions_for_topic(t) or ()) for t in topics}

    def _ensure_active(self, deadline: float) -> bool:
        for topic in self._group_topics:  # the leader watches every topic of the group
            self.client.add_topic(topic)
        while True:
            self._raise_fatal()
            self._check_rejoin_triggers()
            if (self.state == STABLE and not self.rejoin_needed and self._join_future is None
                    and self._sync_future is None and self._join_response is None):
                return True
            if self._sync_future is not None:
                sync = self._sync_future
                if not self.link.wait(sync, deadline):
                    return False
                self._on_sync_done(sync)
                continue
            if self._join_future is not None:
                future = self._join_future
                if not self.link.wait(future, deadline):
                    return False
                self._on_join_done(future)
                continue
            if self._join_error is not None:
                (exc, response), self._join_error = self._join_error, None
                self._join_failed(exc, response)
                continue
            if self._join_response is not None:
                if not self._send_sync(deadline):
                    return False
                continue
            if not self._prepared and not self._prepare(deadline):
                return False
            now = time.monotonic()
            if now < self._retry_at:
                self.client.poll(timeout_ms=min(left_ms(deadline), (self._retry_at - now) * 1000.0))
                if time.monotonic() >= deadline:
                    return False
                continue
            if not self.link.ready(deadline):
                return False
            self._send_join()

    def _prepare(self, deadline: float) -> bool:
        """Step 1 of a rebalance (see the module notes); False when out of time."""
        with self.lock:
            self._hb_enabled = False
            lost = self._lost or self.generation.generation_id < 0
        owned = self.subscription.assigned_partitions()
        if lost and owned:
            self._note(call_listener(self.subscription, "on_partitions_lost", owned))
            self.subscription.assign_from_subscribed([])
        else:
            if self.owner.config["enable_auto_commit"] and owned:
                if self._prepare_commit is None:
                    self._prepare_commit = self.owner.autocommit_now()
                if not self.owner.offsets.wait(self._prepare_commit, deadline):
                    return False
                if self._prepare_commit.failed():
                    log.warning("group %s: committing before the rebalance failed: %s",
                                self.group_id, self._prepare_commit.exception)
                self._prepare_commit = None
            if self.protocol != COOPERATIVE:
                # Called with an empty set too (the first join included), as
                # kafka-python does: listeners written for it count on that.
                self._note(call_listener(self.subscription, "on_partitions_revoked", owned))
                if owned:
                    self.subscription.assign_from_subscribed([])
            elif owned:
                # Cooperative: keep everything, except topics no longer subscribed.
                gone = {tp for tp in owned if not self.subscription.matches(tp.topic)}
                if gone:
                    self._note(call_listener(self.subscription, "on_partitions_revoked", gone))
                    self.subscription.assign_from_subscribed(sorted(owned - gone))
        with self.lock:
            self._lost = False
            self._prepared = True
        return True

    def _note(self, error: Optional[BaseException]) -> None:
        if error is not None and self._listener_error is None:
            self._listener_error = error

    def _subscription_payload(self, assignor: Any, topics: List[str], owned: List[TopicPartition]) -> bytes:
        return subscription_payload(assignor, topics, owned, self.generation.generation_id)

    def _send_join(self) -> None:
        topics = sorted(self.subscription.subscription or ())
        owned = sorted(self.subscription.assigned_partitions())
        R = JOIN_GROUP.Request
        protocols = [R.JoinGroupRequestProtocol(name=a.name, metadata=self._subscription_payload(a, topics, owned))
                     for a in self.assignors]
        member_id, reason = self.member_id, self.rejoin_reason

        def build(version: int) -> Any:
            if self.instance_id is not None and version < 5:
                raise errors.UnsupportedVersionError(
                    "group_instance_id needs JoinGroup v5 or later; the coordinator offers v%d" % version)
            return R(group_id=self.group_id, session_timeout_ms=int(self.session_timeout * 1000),
                     rebalance_timeout_ms=self.rebalance_timeout_ms, member_id=member_id,
                     group_instance_id=self.instance_id, protocol_type=self.protocol_type,
                     protocols=protocols, reason=reason)

        log.debug("group %s: JoinGroup as %r (%s)", self.group_id, member_id, reason)
        with self.lock:
            self.state = JOINING
            self.rejoin_needed = False
            self._joined_topics = frozenset(topics)
            future = self.link.send(JOIN_GROUP, build, timeout_ms=self.join_timeout_ms)
            self._join_future = future
        # Followers answer at once, from whichever thread reads the response
        # (as the Java client does): a leader that syncs before its
        # followers have asked would complete the generation without them
        # on some brokers.
        future.add_callback(self._join_answered, future)

    def _on_join_done(self, future: Future) -> None:
        if future.failed():
            with self.lock:
                if self._join_future is not future:
                    return
                self._join_future = None
            self._join_failed(future.exception, None)
        else:
            self._join_answered(future, future.value)

    def _join_answered(self, future: Future, response: Any) -> None:
        """A JoinGroup answer (callback or application thread; whichever comes first acts)."""
        with self.lock:
            if self._join_future is not future:
                return
            self._join_future = None
            if response.error_code:
                cls = errors.for_code(response.error_code)
                self._join_error = (cls("JoinGroup of group %s" % self.group_id), response)  # type: ignore[misc]
                return
            self.member_id = response.member_id
            self.generation = Generation(response.generation_id, response.member_id, response.protocol_name)
            self.leader_id = response.leader
            # The broker now expects heartbeats of the new generation.
            self._hb_enabled = True
            self._hb_last_ok = time.monotonic()
            self.owner.heartbeat.last_reset = self._hb_last_ok
            self._hb_next = time.monotonic() + self.interval
            log.info("group %s: joined generation %d as %s (leader %s, protocol %s)", self.group_id,
                     response.generation_id, response.member_id, response.leader, response.protocol_name)
            if response.leader == response.member_id and not getattr(response, "skip_assignment", False):
                self.state = ASSIGNING
                self._join_response = response  # the application thread assigns
            else:
                self._assigned_snapshot = None
                self._group_topics = set()
                self._sync_future = self._send_sync_request([])
                self.state = SYNCING
            self.owner.notify()

    def _join_failed(self, exc: Optional[BaseException], response: Any) -> None:
        assert exc is not None
        with self.lock:
            self.state = UNJOINED
            self.rejoin_needed = True
        if isinstance(exc, errors.MemberIdRequiredError):
            # KIP-394: the broker gave us our member id; join again with it at once.
            with self.lock:
                self.member_id = response.member_id or ""
            if not self.member_id:
                self._retry_at = time.monotonic() + self.backoff
            return
        if isinstance(exc, _MEMBER_GONE):
            self.reset("JoinGroup failed with %s" % exc.__class__.__name__, exc)
            return
        if isinstance(exc, errors.RebalanceInProgressError):
            self._retry_at = time.monotonic() + self.backoff
            return
        if isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False):
            self.link.handle_error(exc)
            log.info("group %s: JoinGroup failed (%s); retrying", self.group_id, exc)
            self._retry_at = time.monotonic() + self.backoff
            return
        raise exc

    # -- leader assignment and SyncGroup ------------------------------------------------------------

    def _metadata_fresh(self, topics: Set[str], deadline: float) -> bool:
        """Refresh metadata for the group's topics before assigning; False when out of time.

        The leader assigns from metadata fetched after the join (as
        librdkafka does), so partitions and topics created since the last
        refresh are included. When the refresh is slow and every topic is
        already known, the metadata at hand is used after a second.
        """
        cluster = self.client.cluster
        for topic in topics:
            self.client.add_topic(topic)
        if self._metadata_wait is None:
            self._metadata_wait = (self.client.request_metadata_update(), time.monotonic())
        version, started = self._metadata_wait
        while cluster.version <= version:
            known = all(cluster.partitions_for_topic(t) is not None or cluster.topic_error(t) for t in topics)
            if known and time.monotonic() - started > 1.0:
                break
            if time.monotonic() >= deadline:
                return False
            self.client.poll(timeout_ms=min(left_ms(deadline), 50.0))
        self._metadata_wait = None
        return True

    def _leader_assignment(self, response: Any, deadline: float) -> Optional[List[Any]]:
        group = read_subscriptions(self.group_id, response.members, self._unreadable_members)
        members = group.members
        topics = set().union(*(set(s.topics) for s in members.values())) if members else set()
        if not self._metadata_fresh(topics, deadline):
            return None
        assignor = next((a for a in self.assignors if a.name == response.protocol_name), None)
        if assignor is None:
            raise errors.IllegalStateError("the coordinator chose assignor %r, which this consumer does not have (%s)"
                                           % (response.protocol_name, [a.name for a in self.assignors]))
        result = assignor.assign(self.client.cluster, members)
        self._group_topics = topics
        self._assigned_snapshot = self._partition_counts(topics)
        log.info("group %s: leader assigned generation %d with %s: %s", self.group_id, response.generation_id,
                 assignor.name, {m: len(ps) for m, ps in result.items()})
        R = SYNC_GROUP.Request
        out = []
        for member_id in group.member_ids:
            parts = result.get(member_id, []) if member_id in members else []
            out.append(R.SyncGroupRequestAssignment(member_id=member_id,
                                                    assignment=assignment_payload(parts, group.version)))
        return out

    def _send_sync_request(self, assignments: List[Any]) -> Future:
        generation = self.generation
        R = SYNC_GROUP.Request

        def build(version: int) -> Any:
            return R(group_id=self.group_id, generation_id=generation.generation_id, member_id=generation.member_id,
                     group_instance_id=self.instance_id, protocol_type=self.protocol_type,
                     protocol_name=generation.protocol, assignments=assignments)
        return self.link.send(SYNC_GROUP, build)

    def _send_sync(self, deadline: float) -> bool:
        """The leader's SyncGroup, once its assignment is computed; False when out of time."""
        response = self._join_response
        assignments = self._leader_assignment(response, deadline)
        if assignments is None:
            return False
        with self.lock:
            if self._join_response is not response:
                return True  # the membership was reset meanwhile
            self._join_response = None
            self._sync_future = self._send_sync_request(assignments)
            self.state = SYNCING
        return True

    def _on_sync_done(self, future: Future) -> None:
        with self.lock:
            if self._sync_future is not future:
                return  # the membership was reset meanwhile: this answer is for a dead member
            self._sync_future = None
            if future.exception is None:
                self._hb_last_ok = time.monotonic()  # the coordinator answered (see heartbeat_tick)
        exc: Optional[BaseException] = future.exception
        response: Any = future.value  # the SyncGroup response when exc is None
        if exc is None and response.error_code:
            cls = errors.for_code(response.error_code)
            exc = cls("SyncGroup of group %s" % self.group_id)  # type: ignore[misc]
        if exc is not None:
            with self.lock:
                self.state = UNJOINED
                self.rejoin_needed = True
            if isinstance(exc, _MEMBER_GONE):
                self.reset("SyncGroup failed with %s" % exc.__class__.__name__, exc)
            elif isinstance(exc, errors.RebalanceInProgressError):
                log.info("group %s: the group rebalanced again before SyncGroup completed", self.group_id)
            elif isinstance(exc, errors.InvalidRequestError) and self._sync_refused < 5:
                # librdkafka's mock cluster completes a generation as soon as
                # the leader has synced, and refuses later followers this way
                # (Kafka hands them their assignment): join again.
                self._sync_refused += 1
                log.warning("group %s: SyncGroup refused as invalid (the generation completed without this member?); "
                            "rejoining", self.group_id)
                self._retry_at = time.monotonic() + self.backoff
            elif isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False):
                self.link.handle_error(exc)
                self._retry_at = time.monotonic() + self.backoff
            else:
                raise exc
            return
        data = response.assignment
        try:
            partitions = assigned_partitions(data)
        except errors.ProtocolError as exc:
            # The leader may run another client: join again rather than fail every poll.
            log.warning("group %s: cannot read the assignment from the leader (%s); rejoining", self.group_id, exc)
            with self.lock:
                self.state = UNJOINED
                self.rejoin_needed = True
                self.rejoin_reason = "the leader's assignment could not be read"
            self._retry_at = time.monotonic() + self.backoff
            return
        self._sync_refused = 0
        with self.lock:
            self.state = STABLE
            self._prepared = False
            self._lost = False
        self._on_assignment(partitions)

    def _on_assignment(self, partitions: List[TopicPartition]) -> None:
        generation = self.generation
        wanted = [tp for tp in partitions if self.subscription.matches(tp.topic)]
        if len(wanted) != len(partitions):
            self.request_rejoin("the assignment names topics this consumer no longer subscribes to")
        assignor = next((a for a in self.assignors if a.name == generation.protocol), None)
        if assignor is not None:
            assignor.on_assignment(partitions, generation.generation_id)
        new = set(wanted)
        if self.protocol == COOPERATIVE:
            owned = self.subscription.assigned_partitions()
            revoked, added = owned - new, new - owned
            if revoked:
                self._note(call_listener(self.subscription, "on_partitions_revoked", revoked))
                self.request_rejoin("partitions were revoked; rejoining so they can be reassigned")
            self.subscription.assign_from_subscribed(sorted(new))
            self._note(call_listener(self.subscription, "on_partitions_assigned", added))
        else:
            self.subscription.assign_from_subscribed(sorted(new))
            self._note(call_listener(self.subscription, "on_partitions_assigned", new))
        self.owner.on_rebalance_complete()
        log.info("group %s: generation %d: %d partitions assigned to %s", self.group_id, generation.generation_id,
                 len(new), generation.member_id)

    # -- heartbeats (background thread) -------------------------------------------------------------

    def heartbeat_tick(self) -> Optional[float]:
        """Send a heartbeat when due; return seconds until the next check (None: until woken)."""
        with self.lock:
            if not self._hb_enabled or self.generation.generation_id < 0 or self.owner.closing:
                return None
            now = time.monotonic()
            if self.owner.poll_timeout_expired(now):
                self._leave_after_poll_timeout()
                return None
            # While our SyncGroup is outstanding its answer decides: a
            # coordinator may hold it past the session timeout (Tansu holds a
            # member's until the leader has synced), and heartbeats sent meanwhile
            # wait behind it on the connection. Timing the session out then would
            # drop the assignment on its way and rejoin as a new member, leaving
            # the old one to hold partitions until the coordinator expires it.
            if now - self._hb_last_ok > self.session_timeout and self._sync_future is None:
                # The coordinator has most likely removed us by now and handed
                # our partitions to others: stop treating them as ours at once
                # (as librdkafka does) rather than when a heartbeat finally
                # gets through, so that records fetched meanwhile are not
                # delivered twice, and look the coordinator up again.
                self.link.mark_dead("no heartbeat answered within the session timeout")
                self.reset("no heartbeat was answered within the session timeout (%d ms)"
                           % (self.session_timeout * 1000))
                return None
            if self._hb_future is not None:
                return 0.05
            if now < self._hb_next:
                return self._hb_next - now
            node = self.link.poll_lookup()
            if node is None or not self.client.ready(node):
                return min(self.backoff, 0.05)
            generation = self.generation
            R = HEARTBEAT.Request
            self.owner.heartbeat.last_send = now
            self._hb_next = now + self.interval
            future = self.link.send(HEARTBEAT, lambda version: R(
                group_id=self.group_id, generation_id=generation.generation_id, member_id=generation.member_id,
                group_instance_id=self.instance_id))
            self._hb_future = future
        future.add_callback(self._on_heartbeat, generation, future)
        future.add_errback(self._on_heartbeat, generation, future)
        return 0.05

    def _on_heartbeat(self, generation: Generation, future: Future, result: Any) -> None:
        with self.lock:
            if self._hb_future is future:
                self._hb_future = None
            if isinstance(result, BaseException):
                exc: Optional[BaseException] = result
            else:
                cls = errors.for_code(result.error_code)
                exc = cls("Heartbeat of group %s" % self.group_id) if cls else None
            if generation != self.generation:
                return  # an answer about an older generation
            self.owner.heartbeat.answered(exc is None)
            now = time.monotonic()
            if exc is None:
                self._hb_last_ok = now
            elif isinstance(exc, errors.RebalanceInProgressError):
                self._hb_last_ok = now
                if self.state == STABLE:
                    self.request_rejoin("the coordinator says the group is rebalancing")
            elif isinstance(exc, _MEMBER_GONE):
                self.reset("heartbeat failed with %s" % exc.__class__.__name__, exc)
            elif isinstance(exc, errors.FencedInstanceIdError):
                self.fatal = exc
                self._hb_enabled = False
            elif isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False):
                self.link.handle_error(exc)
                self._hb_next = now + self.backoff
            else:
                log.error("group %s: heartbeat failed: %s", self.group_id, exc)
                self.fatal = exc
                self._hb_enabled = False
            self.owner.notify()

    def _leave_after_poll_timeout(self) -> None:
        log.warning("group %s: poll() was not called within max_poll_interval_ms (%d ms): leaving the group so its "
                    "partitions can be reassigned; the next poll() rejoins", self.group_id,
                    self.owner.config["max_poll_interval_ms"])
        if self.instance_id is None:
            self._send_leave()
        self.reset("max_poll_interval_ms expired")

    # -- leaving ------------------------------------------------------------------------------------

    def _send_leave(self) -> Optional[Future]:
        member_id = self.generation.member_id or self.member_id
        if not member_id or self.link.node is None or not self.client.ready(self.link.node):
            return None
        R = LEAVE_GROUP.Request

        def build(version: int) -> Any:
            if version >= 3:
                return R(group_id=self.group_id, members=[R.MemberIdentity(
                    member_id=member_id, group_instance_id=self.instance_id, reason="the consumer is leaving")])
            return R(group_id=self.group_id, member_id=member_id)
        log.info("group %s: member %s leaving", self.group_id, member_id)
        return self.link.send(LEAVE_GROUP, build)

    def on_leave_prepare(self) -> None:
        """Report our partitions revoked (or lost) before leaving."""
        owned = self.subscription.assigned_partitions()
        if owned:
            lost = self._lost or self.generation.generation_id < 0
            method = "on_partitions_lost" if lost else "on_partitions_revoked"
            self._note(call_listener(self.subscription, method, owned))

    def leave(self, deadline: float) -> None:
        """Leave the group (static members stay registered until their session times out)."""
        with self.lock:
            self._hb_enabled = False
        if self.instance_id is None and (self.generation.generation_id >= 0 or self.member_id):
            if self.link.ready(deadline):
                future = self._send_leave()
                if future is not None and self.link.wait(future, deadline) and future.failed():
                    log.info("group %s: LeaveGroup failed: %s", self.group_id, future.exception)
        with self.lock:
            self.generation = NO_GENERATION
            self.member_id = ""
            self.state = UNJOINED
            self.rejoin_needed = True
            self.rejoin_reason = "rejoining after leaving"
            self._prepared = True  # the partitions were already given up
            self._lost = False
        error, self._listener_error = self._listener_error, None
        if error is not None:
            raise error
