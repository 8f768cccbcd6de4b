"""What an asyncio consumer subscribed to: topic names or a pattern, and its rebalance listener.

Plain state, no I/O. A pattern subscription's topics are those of the
cluster whose names match it (internal topics left out), refreshed by the
group task every ``metadata_max_age_ms``.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional, Pattern, Set

from kafka import errors
from kafka.aio.group_listener import check_listener


class Subscription:
    """Topics (or a pattern) and the listener given to ``subscribe()``.

    :param topics: topic names (exclusive with ``pattern``).
    :param pattern: a regular expression topic names must match from their start (``re.match``, as aiokafka).
    :param listener: a :class:`~kafka.aio.group_listener.ConsumerRebalanceListener` or None.
    """

    def __init__(self, topics: Iterable[str] = (), pattern: Optional[str] = None, listener: Any = None) -> None:
        names = [topics] if isinstance(topics, str) else list(topics or ())
        if not (names or pattern):
            raise TypeError("You should provide either `topics` or `pattern`")
        if names and pattern:
            raise TypeError("You can't provide both `topics` and `pattern`")
        check_listener(listener)
        self.pattern: Optional[Pattern[str]] = None
        if pattern is not None:
            try:
                self.pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
            except re.error as exc:
                raise ValueError("%r is not a valid pattern: %s" % (pattern, exc)) from exc
        for name in names:
            if not isinstance(name, str) or not name:
                raise errors.InvalidTopicError("topic names must be non-empty strings, not %r" % (name,))
        self.listener = listener
        #: The topics subscribed now (for a pattern: the matching topics last seen).
        self.topics: Set[str] = set(names)

    def matches(self, topic: str) -> bool:
        """Whether ``topic`` belongs to the subscription."""
        if self.pattern is not None:
            return self.pattern.match(topic) is not None and not topic.startswith("__")
        return topic in self.topics

    def match_cluster(self, cluster_topics: Iterable[str]) -> bool:
        """For a pattern: take the matching topics of ``cluster_topics``; True if they changed."""
        if self.pattern is None:
            return False
        found = {t for t in cluster_topics if self.matches(t)}
        changed = found != self.topics
        self.topics = found
        return changed


__all__ = ["Subscription"]
