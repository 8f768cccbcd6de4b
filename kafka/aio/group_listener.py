"""aiokafka's ``ConsumerRebalanceListener`` for the asyncio consumer, and how its hooks are called.

The hooks may be plain methods or coroutines (``async def``): the group
task awaits what they return. An exception raised by a hook is logged and
the rebalance goes on, as aiokafka does.
"""

from __future__ import annotations

import abc
import inspect
import logging
from typing import Any, Set

from kafka.structs import TopicPartition

log = logging.getLogger(__name__)


class ConsumerRebalanceListener(abc.ABC):
    """Hooks called when the group hands this consumer's partitions out anew.

    ``on_partitions_revoked`` runs before every rebalance with the
    partitions held until then (an empty set before the first one), while
    they are still assigned, so positions can be committed or saved;
    ``on_partitions_assigned`` runs after it with the partitions of the
    new generation, before any of their records is handed out. Either may
    be ``async def``; the rebalance waits for it.
    """

    @abc.abstractmethod
    def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> Any:
        """The partitions given up (their positions were committed first when auto-commit is on)."""

    @abc.abstractmethod
    def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> Any:
        """The partitions of the new assignment."""


def check_listener(listener: Any) -> None:
    """:class:`TypeError` unless ``listener`` is None or has both hooks (aiokafka's check, duck typing allowed)."""
    if listener is None or isinstance(listener, ConsumerRebalanceListener):
        return
    if callable(getattr(listener, "on_partitions_revoked", None)) and \
            callable(getattr(listener, "on_partitions_assigned", None)):
        return
    raise TypeError("listener should be an instance of ConsumerRebalanceListener")


async def call_hook(listener: Any, hook: str, partitions: Set[TopicPartition], group_id: Any) -> None:
    """Call ``listener.<hook>(partitions)``, awaiting a coroutine; its errors are logged, not raised."""
    if listener is None:
        return
    try:
        result = getattr(listener, hook)(set(partitions))
        if inspect.isawaitable(result):
            await result
    except Exception:  # the application's code: report it, keep the group going
        log.exception("rebalance listener %r of group %r failed in %s", listener, group_id, hook)


__all__ = ["ConsumerRebalanceListener", "call_hook", "check_listener"]
