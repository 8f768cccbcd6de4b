"""The one ListOffsets request builder and answer reader, for every layer that looks offsets up.

A query asks a partition's leader for the offset at a timestamp, or at a
sentinel: -2 the log start, -1 the log end (the last stable offset under
``read_committed``), -3 the record with the largest timestamp, ... (see
:class:`~kafka.enums.OffsetSpec`).
"""

from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple

from kafka.protocol.apis.offsets import LIST_OFFSETS


class OffsetQuery(NamedTuple):
    """What one partition is asked: the offset at ``timestamp`` (or a sentinel).

    ``current_leader_epoch`` (v4+) lets the leader refuse a stale asker;
    ``max_num_offsets`` is only sent at v0.
    """

    topic: str
    partition: int
    timestamp: int
    current_leader_epoch: int = -1
    max_num_offsets: int = 1


class ListedOffset(NamedTuple):
    """One partition's answer: ``offset`` -1 and ``timestamp`` -1 when nothing matched.

    ``old_style_offsets`` is v0's list (``offset`` is its first item then);
    from v1 on it is empty.
    """

    error_code: int
    offset: int
    timestamp: int
    leader_epoch: int
    old_style_offsets: Tuple[int, ...] = ()


def list_offsets_request(queries: Iterable[OffsetQuery], isolation_level: int = 0,
                         timeout_ms: Optional[int] = None) -> Any:
    """A ListOffsets request for ``queries``, topics in the order they first appear.

    ``isolation_level`` 1 is ``read_committed``; ``timeout_ms`` (v10+) bounds
    how long the broker may wait for a ``max_timestamp`` lookup.
    """
    R = LIST_OFFSETS.Request
    P = R.ListOffsetsTopic.ListOffsetsPartition
    by_topic: Dict[str, List[Any]] = {}
    for q in queries:
        by_topic.setdefault(q.topic, []).append(P(
            partition_index=q.partition, timestamp=q.timestamp,
            current_leader_epoch=q.current_leader_epoch, max_num_offsets=q.max_num_offsets))
    fields: Dict[str, Any] = {}
    if timeout_ms is not None:
        fields["timeout_ms"] = timeout_ms
    return R(replica_id=-1, isolation_level=isolation_level,
             topics=[R.ListOffsetsTopic(name=t, partitions=ps) for t, ps in by_topic.items()], **fields)


def listed_offsets(response: Any) -> Dict[Tuple[str, int], ListedOffset]:
    """``{(topic, partition): ListedOffset}`` of a ListOffsets response, of any version."""
    out = {}
    for t in response.topics or ():
        for p in t.partitions or ():
            old_style = tuple(getattr(p, "old_style_offsets", None) or ())
            offset = old_style[0] if old_style else p.offset
            out[(t.name, p.partition_index)] = ListedOffset(
                p.error_code, offset, getattr(p, "timestamp", -1), getattr(p, "leader_epoch", -1), old_style)
    return out


__all__ = ["OffsetQuery", "ListedOffset", "list_offsets_request", "listed_offsets"]
