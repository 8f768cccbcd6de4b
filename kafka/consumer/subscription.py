"""What a consumer reads: its subscription, its assignment and each partition's position.

:class:`SubscriptionState` is shared by the consumer, its fetcher and its
group coordinator. A consumer either *subscribes* (to topics or a pattern;
the group assigns partitions) or is *assigned* partitions by the
application; mixing the two is an error, as in every Kafka client.

The rebalance listeners an application hands to ``subscribe()``
(:class:`ConsumerRebalanceListener` and its ``async`` twin) are defined here
too. kafka-python keeps both in ``kafka.consumer.subscription_state``; that
path is an alias of this module (:mod:`kafka._moved`).
"""

from __future__ import annotations

import abc
import operator
import re
import threading
from typing import Any, Dict, Iterable, List, Optional, Pattern, Set

from kafka import errors
from kafka.structs import OffsetAndMetadata, TopicPartition
from kafka.topic_names import check_topic_name, check_topic_partition

EARLIEST = "earliest"
LATEST = "latest"
NONE = "none"

#: The largest offset a Fetch request can carry (INT64).
MAX_OFFSET = 2 ** 63 - 1

#: kafka-python 0.9 spelled the reset strategies differently.
_RESET_ALIASES = {"smallest": EARLIEST, "largest": LATEST, "earliest": EARLIEST, "latest": LATEST, "none": NONE}


def _compile(pattern: Any) -> "Pattern[str]":
    """A subscription pattern (a regex over topic names, not a name) compiled."""
    if not isinstance(pattern, (str, re.Pattern)):
        raise errors.IllegalArgumentTypeError("a subscription pattern must be a str regex, got %s %r"
                                              % (type(pattern).__name__, pattern))
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise errors.IllegalArgumentError("subscription pattern %r is not a valid regex: %s" % (pattern, exc)) from None


def check_offset(offset: Any, what: str = "offset") -> int:
    """``offset`` as an int if it is a real offset (0 to 2**63 - 1); IllegalArgumentError if not."""
    try:
        position = operator.index(offset)
    except TypeError:
        position = -1
    if not 0 <= position <= MAX_OFFSET:
        raise errors.IllegalArgumentError("%s must be an int from 0 to 2**63 - 1, not %r" % (what, offset))
    return position


def reset_strategy(name: str) -> str:
    """Normalize an ``auto_offset_reset`` value."""
    try:
        return _RESET_ALIASES[name.lower()]
    except (KeyError, AttributeError):
        raise errors.KafkaConfigurationError(
            "auto_offset_reset must be 'earliest', 'latest' or 'none', not %r" % (name,)) from None


class PartitionState:
    """Fetch position and related offsets of one assigned partition."""

    __slots__ = ("position", "leader_epoch", "highwater", "last_stable_offset", "log_start_offset",
                 "paused", "reset_to", "committed")

    def __init__(self) -> None:
        self.position: Optional[int] = None
        self.leader_epoch = -1
        self.highwater: Optional[int] = None
        self.last_stable_offset: Optional[int] = None
        self.log_start_offset: Optional[int] = None
        self.paused = False
        self.reset_to: Optional[str] = None  # a pending reset (earliest/latest) or None
        self.committed: Optional[OffsetAndMetadata] = None

    @property
    def has_valid_position(self) -> bool:
        """Whether fetching can start at :attr:`position`."""
        return self.position is not None and self.reset_to is None


class SubscriptionState:
    """Subscription, assignment and positions, safe to use from several threads."""

    def __init__(self, offset_reset: str = LATEST) -> None:
        self.default_reset = reset_strategy(offset_reset)
        self.subscription: Optional[Set[str]] = None
        self.pattern: Optional[Pattern[str]] = None
        self.user_assignment = False
        self.listener: Any = None
        self._assignment: Dict[TopicPartition, PartitionState] = {}
        self._lock = threading.RLock()
        #: Bumped on every assignment change; lets fetches started before it be dropped.
        self.assignment_version = 0

    # -- subscribing -------------------------------------------------------------------

    def subscribe(self, topics: Iterable[str] = (), pattern: Optional[str] = None, listener: Any = None) -> None:
        """Subscribe to ``topics`` or to topics matching ``pattern`` (not both)."""
        topics = list(topics or ())
        if topics and pattern:
            raise errors.IllegalStateError("subscribe to topics or to a pattern, not both")
        if not topics and not pattern:
            raise errors.IllegalStateError("subscribe needs topics or a pattern")
        with self._lock:
            if self.user_assignment:
                raise errors.IllegalStateError("the consumer has partitions assigned by the application; "
                                               "call unsubscribe() before subscribe()")
            for topic in topics:
                check_topic_name(topic)
            self.pattern = _compile(pattern) if pattern else None
            self.subscription = set(topics) if topics else set()
            self.listener = listener

    def matches(self, topic: str) -> bool:
        """Whether ``topic`` belongs to the subscription."""
        if self.pattern is not None:
            return bool(self.pattern.match(topic))
        return self.subscription is not None and topic in self.subscription

    def change_subscription_from_pattern(self, topics: Iterable[str]) -> bool:
        """Set the topics a pattern currently matches; return whether they changed."""
        with self._lock:
            matched = {t for t in topics if self.pattern is not None and self.pattern.match(t)}
            changed = matched != self.subscription
            self.subscription = matched
            return changed

    def unsubscribe(self) -> None:
        """Drop the subscription and the assignment."""
        with self._lock:
            self.subscription = None
            self.pattern = None
            self.user_assignment = False
            self.listener = None
            self._set_assignment([])

    @property
    def subscribed(self) -> bool:
        """Whether the group assigns partitions."""
        return self.subscription is not None

    # -- assignment ----------------------------------------------------------------------

    def assign_from_user(self, partitions: Iterable[TopicPartition]) -> None:
        """Assign exactly ``partitions`` (manual assignment)."""
        partitions = [check_topic_partition(tp) for tp in partitions]
        with self._lock:
            if self.subscription is not None:
                raise errors.IllegalStateError("the consumer is subscribed; call unsubscribe() before assign()")
            self.user_assignment = bool(partitions)
            self._set_assignment(partitions)

    def assign_from_subscribed(self, partitions: Iterable[TopicPartition]) -> None:
        """Take the group's assignment (partitions not already owned start without a position)."""
        partitions = [TopicPartition(*tp) for tp in partitions]
        with self._lock:
            for tp in partitions:
                if not self.matches(tp.topic):
                    raise errors.IllegalStateError("assigned %s-%d, which is not subscribed" % tp)
            self._set_assignment(partitions)

    def _set_assignment(self, partitions: List[TopicPartition]) -> None:
        kept = {tp: self._assignment[tp] for tp in partitions if tp in self._assignment}
        for tp in partitions:
            if tp not in kept:
                kept[tp] = PartitionState()
        self._assignment = kept
        self.assignment_version += 1

    def assigned_partitions(self) -> Set[TopicPartition]:
        """The partitions currently assigned."""
        with self._lock:
            return set(self._assignment)

    def is_assigned(self, tp: TopicPartition) -> bool:
        """Whether ``tp`` is assigned."""
        return tp in self._assignment

    def assigned_state(self, tp: TopicPartition) -> Optional[PartitionState]:
        """The state of ``tp`` if it is assigned, else None."""
        return self._assignment.get(tp)

    def state(self, tp: TopicPartition) -> PartitionState:
        """The state of an assigned partition (IllegalStateError if not assigned)."""
        try:
            return self._assignment[tp]
        except KeyError:
            raise errors.IllegalStateError("%s-%d is not assigned to this consumer"
                                           % (tp.topic, tp.partition)) from None

    # -- positions --------------------------------------------------------------------------

    def seek(self, tp: TopicPartition, offset: int, leader_epoch: int = -1) -> None:
        """Fetch ``tp`` from ``offset`` next (an int from 0 to 2**63 - 1)."""
        position = check_offset(offset)
        state = self.state(tp)
        with self._lock:
            state.position = position
            state.leader_epoch = leader_epoch
            state.reset_to = None

    def request_reset(self, tp: TopicPartition, strategy: Optional[str] = None) -> None:
        """Look the position of ``tp`` up again, with ``strategy`` (default: ``auto_offset_reset``)."""
        state = self.state(tp)
        with self._lock:
            state.reset_to = strategy or self.default_reset
            if state.reset_to == NONE:
                state.reset_to = None
                raise errors.OffsetOutOfRangeError("no valid position for %s-%d and auto_offset_reset is 'none'"
                                                   % (tp.topic, tp.partition))

    def partitions_needing_reset(self) -> Dict[TopicPartition, str]:
        """Partitions whose position must be looked up, with the strategy to use."""
        with self._lock:
            return {tp: s.reset_to for tp, s in self._assignment.items() if s.reset_to is not None}

    def partitions_without_position(self) -> List[TopicPartition]:
        """Assigned partitions with no position and no pending reset yet."""
        with self._lock:
            return [tp for tp, s in self._assignment.items() if s.position is None and s.reset_to is None]

    def position(self, tp: TopicPartition) -> Optional[int]:
        """The next offset to fetch for ``tp``, if known."""
        return self.state(tp).position

    def pause(self, tp: TopicPartition) -> None:
        """Stop fetching ``tp`` until resumed."""
        self.state(tp).paused = True

    def resume(self, tp: TopicPartition) -> None:
        """Fetch ``tp`` again."""
        self.state(tp).paused = False

    def paused_partitions(self) -> Set[TopicPartition]:
        """The paused partitions."""
        with self._lock:
            return {tp for tp, s in self._assignment.items() if s.paused}

    def fetchable_partitions(self) -> List[TopicPartition]:
        """Assigned, not paused, with a valid position."""
        with self._lock:
            return [tp for tp, s in self._assignment.items() if not s.paused and s.has_valid_position]

    def all_consumed(self) -> Dict[TopicPartition, OffsetAndMetadata]:
        """Positions of every assigned partition that has one (what auto-commit commits)."""
        with self._lock:
            return {tp: OffsetAndMetadata(s.position, "", s.leader_epoch)
                    for tp, s in self._assignment.items() if s.position is not None}


class ConsumerRebalanceListener(abc.ABC):
    """Told when the group takes partitions from this consumer or gives it some.

    Pass an instance as ``listener`` to :meth:`KafkaConsumer.subscribe`.
    Both methods run on the thread that calls ``poll()``, inside it.
    ``on_partitions_revoked`` runs before a rebalance (commit offsets there),
    ``on_partitions_assigned`` after it (seek there).
    """

    @abc.abstractmethod
    def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
        """``revoked``: the partitions this consumer stops reading."""

    @abc.abstractmethod
    def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
        """``assigned``: the partitions this consumer now reads."""

    def on_partitions_lost(self, lost: Set[TopicPartition]) -> None:
        """``lost``: partitions taken without a clean revoke; treated as revoked by default."""
        self.on_partitions_revoked(lost)


class AsyncConsumerRebalanceListener(abc.ABC):
    """:class:`ConsumerRebalanceListener` with ``async def`` hooks (kafka-python 3's name).

    The consumer runs each hook to completion in the thread that rebalances
    (the one calling ``poll``), on a private asyncio event loop, before it
    carries on; the ordering guarantees are the sync listener's. Await asyncio
    code inside the hooks (``await asyncio.sleep(...)``, an async database
    client ...); the hooks must not need a loop of the application's own.
    """

    @abc.abstractmethod
    async def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
        """Awaited before a rebalance takes ``revoked`` away (commit their offsets here)."""

    @abc.abstractmethod
    async def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
        """Awaited once the rebalance has given the consumer ``assigned``."""

    async def on_partitions_lost(self, lost: Set[TopicPartition]) -> None:
        """Awaited when ``lost`` were taken without a chance to commit; defaults to ``on_partitions_revoked``."""
        await self.on_partitions_revoked(lost)
