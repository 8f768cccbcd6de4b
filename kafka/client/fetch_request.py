"""Fetch requests: the one place the library fills in a Fetch request.

The consumer's fetcher, the Spark source, :mod:`kafka.direct` and the simple
(0.9) layer all ask brokers for records with Fetch. Each describes the
partitions it wants as :class:`PartitionFetch` entries and calls
:func:`build_fetch_request`, which groups them by topic (in first-seen
order) and sets the request-wide fields.

Choosing the version is separate, because it needs a connection or a
client: topics are named by id from Fetch v13 on, so callers pick the
version with :func:`kafka.client.topic_ids.choose_version` (or
:func:`~kafka.client.topic_ids.name_only_cap`) for the same ``ids`` they
pass here.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional

from kafka.enums import IsolationLevel
from kafka.protocol.apis import FETCH

#: The largest INT32: "no limit" for a response's total size.
MAX_INT32 = 0x7FFFFFFF

_Topic = FETCH.Request.FetchTopic
_Partition = _Topic.FetchPartition


class PartitionFetch(NamedTuple):
    """One partition to read: where to start and how much it may return."""

    topic: str
    partition: int
    offset: int
    max_bytes: int
    #: The leader epoch the caller's metadata knows (KIP-320), -1 for none.
    leader_epoch: int = -1


def build_fetch_request(partitions: Iterable[PartitionFetch],
                        ids: Optional[Mapping[str, Optional[uuid.UUID]]] = None, *,
                        max_wait_ms: int, min_bytes: int, max_bytes: int = MAX_INT32,
                        isolation_level: int = int(IsolationLevel.READ_UNCOMMITTED), rack_id: str = "",
                        session_id: int = 0, session_epoch: int = -1) -> Any:
    """A Fetch request (any version) for ``partitions``, without a fetch session by default.

    :param partitions: what to read; a topic's partitions keep their order.
    :param ids: each topic's id (Fetch v13+ names topics by id); a topic
        missing here, or with ``None``, goes out with the null id.
    :param max_wait_ms: how long the broker may wait for ``min_bytes``.
    :param min_bytes: how much data the broker should gather before answering.
    :param max_bytes: limit on the whole response (v3+).
    :param isolation_level: a :class:`~kafka.enums.IsolationLevel` value (v4+).
    :param rack_id: the consumer's rack, for fetching from a follower (v11+).
    :param session_id: fetch session id (v7+); 0 with epoch -1 is "no session".
    :param session_epoch: fetch session epoch (v7+).
    """
    by_topic: Dict[str, List[Any]] = {}
    for p in partitions:
        by_topic.setdefault(p.topic, []).append(_Partition(
            partition=p.partition, current_leader_epoch=p.leader_epoch, fetch_offset=p.offset,
            partition_max_bytes=p.max_bytes))
    known = ids or {}
    return FETCH.Request(
        replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=min_bytes, max_bytes=max_bytes,
        isolation_level=isolation_level, session_id=session_id, session_epoch=session_epoch,
        topics=[_Topic(topic=topic, topic_id=known.get(topic), partitions=parts) for topic, parts in by_topic.items()],
        forgotten_topics_data=[], rack_id=rack_id)


__all__ = ["MAX_INT32", "PartitionFetch", "build_fetch_request"]
