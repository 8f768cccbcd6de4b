"""Small shared pieces of the group machinery: identities, errors, listener calls."""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from typing import Any, Iterable, NamedTuple, Optional, Set

from kafka import errors
from kafka.group.protocols import COOPERATIVE, EAGER  # noqa: F401 (their old home)
from kafka.structs import MemberState, TopicPartition

log = logging.getLogger(__name__)


class HeartbeatTimes:
    """When this member last polled, sent a heartbeat, heard back and (re)joined (``time.monotonic()``).

    kafka-python's consumers expose these as ``consumer._coordinator.heartbeat``
    and its own tests read them; the coordinator keeps one and its membership
    (classic or KIP-848) updates it. ``heartbeat_failed`` is true from a failed
    heartbeat until the next one is answered.
    """

    __slots__ = ("last_poll", "last_send", "last_receive", "last_reset", "heartbeat_failed")

    def __init__(self) -> None:
        now = time.monotonic()
        self.last_poll = now
        self.last_send = 0.0
        self.last_receive = 0.0
        self.last_reset = now
        self.heartbeat_failed = False

    def answered(self, ok: bool) -> None:
        """A heartbeat got its answer (``ok``: without error)."""
        self.last_receive = time.monotonic()
        self.heartbeat_failed = not ok


CommitFailedError = errors.CommitFailedError  # defined in kafka.errors, as in kafka-python


class GroupMetadata(NamedTuple):
    """Who this consumer is in its group, as a transactional producer needs it.

    Passed to :meth:`KafkaProducer.send_offsets_to_transaction` so that the
    broker can fence offsets committed by a member that has been replaced.
    For the KIP-848 protocol ``generation_id`` carries the member epoch.
    ``state`` is the member's :class:`~kafka.structs.MemberState` when the
    snapshot was taken (the producer ignores it), as in kafka-python 3.
    """

    group_id: Optional[str]
    generation_id: int = -1
    member_id: str = ""
    group_instance_id: Optional[str] = None
    state: str = MemberState.UNJOINED


#: kafka-python 3's name for what :meth:`KafkaConsumer.group_metadata` returns.
ConsumerGroupMetadata = GroupMetadata


class Generation(NamedTuple):
    """A classic group generation as this member knows it."""

    generation_id: int
    member_id: str
    protocol: Optional[str]


NO_GENERATION = Generation(-1, "", None)


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def call_listener(subscription: Any, method: str, partitions: Iterable[TopicPartition]) -> Optional[BaseException]:
    """Call ``subscription.listener.<method>(partitions)``; return what it raised, if anything.

    ``on_partitions_lost`` falls back to ``on_partitions_revoked`` for
    listeners that do not define it (KIP-429's default). The listener gets a
    set of :class:`TopicPartition`. An exception is logged and returned so
    the caller can finish its bookkeeping before raising it.
    """
    listener = getattr(subscription, "listener", None)
    if listener is None:
        return None
    fn = getattr(listener, method, None)
    if fn is None and method == "on_partitions_lost":
        fn = getattr(listener, "on_partitions_revoked", None)
    if fn is None:
        return None
    parts: Set[TopicPartition] = {TopicPartition(*tp) for tp in partitions}
    try:
        result = fn(parts)
        if inspect.isawaitable(result):  # an AsyncConsumerRebalanceListener: run the hook to its end here
            asyncio.run(_awaited(result))
    except Exception as exc:  # user code: report it, keep the group state consistent
        log.exception("rebalance listener %s(%s) raised", method, sorted(parts))
        return exc
    return None
