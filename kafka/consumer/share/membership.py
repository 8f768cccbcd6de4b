"""Membership of a share group: the ShareGroupHeartbeat loop.

The member names itself (a random UUID, KIP-1082), joins with epoch 0 and
its subscription, and heartbeats at the interval the coordinator returns.
Each answer may carry the member's whole assignment (topic ids and
partitions), which replaces the previous one at once: in a share group a
partition may be read by several members, so there is nothing to revoke
first. Leaving sends epoch -1. FENCED_MEMBER_EPOCH and UNKNOWN_MEMBER_ID
make the member join again with epoch 0.

Nothing runs in the background: :meth:`ShareGroupMembership.tick` is
called by the consumer's ``poll()``, so a program must poll at least once
per heartbeat interval to stay in the group.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any, List, Optional, Set, Tuple

from kafka import errors
from kafka.client.topic_ids import known_topic_names
from kafka.consumer.group.link import COORDINATOR_MOVED, CoordinatorLink
from kafka.future import Future
from kafka.protocol.apis import SHARE_GROUP_HEARTBEAT
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

LEAVE_EPOCH = -1
_R = SHARE_GROUP_HEARTBEAT.Request
_FENCED = (errors.FencedMemberEpochError, errors.UnknownMemberIdError)


class ShareGroupMembership:
    """One member of share group ``group_id``, driven by :meth:`tick` from the application thread."""

    def __init__(self, client: Any, group_id: str, retry_backoff_ms: float = 100) -> None:
        self.client = client
        self.group_id = group_id
        self.link = CoordinatorLink(client, group_id, retry_backoff_ms)
        self.backoff = retry_backoff_ms / 1000.0
        self.member_id = str(uuid.uuid4())
        self.epoch = 0
        self.topics: List[str] = []
        self.fatal: Optional[BaseException] = None
        self._interval = 5.0
        self._next = 0.0
        self._full = True            # the next heartbeat carries the subscription
        self._in_flight: Optional[Future] = None
        self._target: List[Tuple[uuid.UUID, List[int]]] = []
        self._assignment: Set[TopicPartition] = set()
        self._metadata_wait: Optional[int] = None

    # -- the application's side -----------------------------------------------------------------

    def subscribe(self, topics: List[str]) -> None:
        """Replace the subscription; the next tick reports it."""
        self.topics = sorted(set(topics))
        for topic in self.topics:
            self.client.add_topic(topic)
        self._full = True
        self._next = 0.0

    @property
    def assignment(self) -> Set[TopicPartition]:
        """The partitions this member may fetch from."""
        return set(self._assignment)

    def tick(self) -> None:
        """Send a heartbeat when one is due, and name the topics of a new assignment."""
        if self.fatal is not None:
            error, self.fatal = self.fatal, None
            raise error
        self._name_target()
        if not self.topics or self._in_flight is not None or time.monotonic() < self._next:
            return
        node = self.link.poll_lookup()
        refused = self.link.fatal_lookup_error()
        if refused is not None:
            self.link.last_error = None
            raise refused
        if node is None or not self.client.ready(node):
            return
        future = self._send(self.epoch)
        if not future.is_done:  # a failure at once was handled already
            self._in_flight = future

    def leave(self, deadline: float) -> None:
        """Leave the group (epoch -1), waiting for the answer until ``deadline``."""
        if self._in_flight is not None:
            self.link.wait(self._in_flight, deadline)
        if self.epoch > 0 and self.link.ready(deadline):
            self.link.wait(self._send(LEAVE_EPOCH), deadline)
        self.epoch = 0
        self._full = True
        self._target = []
        self._assignment = set()

    # -- heartbeats ---------------------------------------------------------------------------

    def _send(self, epoch: int) -> Future:
        full = self._full or epoch == 0
        request = _R(group_id=self.group_id, member_id=self.member_id, member_epoch=epoch, rack_id=None,
                     subscribed_topic_names=list(self.topics) if full and epoch != LEAVE_EPOCH else None)
        future = self.link.send(SHARE_GROUP_HEARTBEAT, lambda version: request)
        self._next = time.monotonic() + self._interval
        if epoch != LEAVE_EPOCH:
            future.add_both(self._on_response, full, future)
        return future

    def _on_response(self, full: bool, future: Future, result: Any) -> None:
        if self._in_flight is future:
            self._in_flight = None
        if isinstance(result, BaseException):
            exc: Optional[BaseException] = result
        else:
            cls = errors.for_code(result.error_code)
            exc = cls("ShareGroupHeartbeat of group %s: %s" % (self.group_id, result.error_message or "")) \
                if cls else None
        if exc is None:
            self.epoch = result.member_epoch
            if result.heartbeat_interval_ms > 0:
                self._interval = result.heartbeat_interval_ms / 1000.0
                self._next = time.monotonic() + self._interval
            if full:
                self._full = False
            if result.assignment is not None:
                self._target = [(tp.topic_id, sorted(tp.partitions)) for tp in result.assignment.topic_partitions]
                self._name_target()
        elif isinstance(exc, _FENCED):
            log.warning("share group %s: member %s fenced (%s); joining again", self.group_id, self.member_id,
                        exc.__class__.__name__)
            self.epoch = 0
            self._full = True
            self._next = 0.0
            self._assignment = set()
        elif isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False):
            self.link.handle_error(exc)
            self._next = time.monotonic() + self.backoff
        elif isinstance(exc, errors.UnsupportedVersionError):
            self.fatal = errors.UnsupportedVersionError(
                "share consumers need a broker that supports KIP-932 share groups (ShareGroupHeartbeat v1); "
                "this one does not (%s)" % exc)
        else:
            self.fatal = exc

    def _name_target(self) -> None:
        """Turn the target's topic ids into names, asking for metadata while some are unknown."""
        if not self._target and not self._assignment:
            return
        names = known_topic_names(self.client.cluster)
        if any(tid not in names for tid, _ in self._target):
            if self._metadata_wait is None or self.client.cluster.version > self._metadata_wait:
                self._metadata_wait = self.client.request_metadata_update()
            return
        self._metadata_wait = None
        assignment = {TopicPartition(names[tid], p) for tid, parts in self._target for p in parts}
        if assignment != self._assignment:
            log.info("share group %s: member %s (epoch %d) is assigned %d partitions", self.group_id,
                     self.member_id, self.epoch, len(assignment))
            self._assignment = assignment
