"""Which broker a partition is fetched from: its leader, or the replica the leader prefers (KIP-392).

A consumer with ``client_rack`` set tells the leader its rack in every
Fetch request; a leader configured with a replica selector may answer with a
``preferred_read_replica``, a follower in (or near) that rack. Fetches for
that partition then go to that follower until

* ``metadata_max_age_ms`` has passed since the leader named it (as Java's
  ``metadata.max.age.ms`` bounds it), after which the leader is asked again
  and may name another;
* the follower answers the partition with an error, or the connection to
  it fails: the error is not acted on, the next fetch simply goes to the
  leader, which is the authority on offsets;
* the partition's leader changes, or the follower leaves the cluster
  metadata.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, NamedTuple, Optional

from kafka.structs import TopicPartition


class _Preferred(NamedTuple):
    node: int
    leader: int  # the leader that named it: a new leader forgets it
    expires: float  # monotonic seconds


class ReadReplicas:
    """Chooses each partition's fetch node and remembers the leaders' preferred read replicas."""

    def __init__(self, cluster: Callable[[], Any], max_age_ms: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``cluster()`` gives the current cluster metadata (it tells which brokers exist)."""
        self._cluster = cluster
        self._max_age = max_age_ms / 1000.0
        self._clock = clock
        self._preferred: Dict[TopicPartition, _Preferred] = {}

    def node_for(self, tp: TopicPartition, leader: int) -> int:
        """The node to fetch ``tp`` from, given its current ``leader``."""
        chosen = self._preferred.get(tp)
        if chosen is None:
            return leader
        if chosen.leader != leader or self._clock() >= chosen.expires or \
                self._cluster().broker_metadata(chosen.node) is None:
            del self._preferred[tp]
            return leader
        return chosen.node

    def on_answer(self, tp: TopicPartition, node: int, leader: Optional[int], preferred: Optional[int],
                  error_code: int) -> bool:
        """Take note of ``node``'s Fetch answer for ``tp``; True when the answer is to be dropped.

        A follower's error is dropped (and the follower forgotten): the
        leader is asked instead. A leader naming a preferred replica other
        than itself starts fetching from that replica.
        """
        if node != leader:
            if error_code:
                self._preferred.pop(tp, None)
                return True
            return False
        if preferred is not None and preferred >= 0 and preferred != node and not error_code:
            self._preferred[tp] = _Preferred(preferred, node, self._clock() + self._max_age)
        return False

    def forget_node(self, node: int) -> None:
        """``node`` failed: fetch every partition that was read from it from its leader again."""
        for tp in [tp for tp, chosen in self._preferred.items() if chosen.node == node]:
            del self._preferred[tp]


__all__ = ["ReadReplicas"]
