"""Offset look-ups and commits for the asyncio consumer.

:func:`list_offsets` asks each partition's leader with ListOffsets (the
request built and read by :mod:`kafka.protocol.list_offsets`, as for every
other client of the library), retrying after metadata refreshes while the
leaders move. :class:`GroupOffsets` finds a group's coordinator
(FindCoordinator) and commits and fetches the group's offsets there
(OffsetCommit, OffsetFetch). An assigned consumer commits without being a
member: generation -1 and an empty member id, which brokers accept for a
group nobody has joined.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from kafka import errors
from kafka.aio.client import AsyncClient
from kafka.protocol.apis import FIND_COORDINATOR, LIST_OFFSETS, OFFSET_COMMIT, OFFSET_FETCH
from kafka.protocol.list_offsets import ListedOffset, OffsetQuery, list_offsets_request, listed_offsets
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

#: ListOffsets query timestamps for the log start and the log end.
EARLIEST, LATEST = -2, -1

#: Version 10 of OffsetCommit and OffsetFetch names topics by id; names are all we send.
_COMMIT_MAX_VERSION = 9
_OFFSET_FETCH_MAX_VERSION = 7

#: The key type of a consumer group in FindCoordinator.
_GROUP_KEY = 0


async def list_offsets(client: AsyncClient, timestamps: Mapping[TopicPartition, int], *, isolation_level: int,
                       timeout: float) -> Dict[TopicPartition, ListedOffset]:
    """``{tp: ListedOffset}`` for ``{tp: timestamp or EARLIEST/LATEST}``, each asked of its leader.

    Retriable errors (an unknown leader, NOT_LEADER, a lost connection) are
    retried after a metadata refresh until ``timeout`` seconds passed, then
    raised (:class:`~kafka.errors.KafkaTimeoutError` if nothing else was
    said); other errors are raised at once.
    """
    deadline = time.monotonic() + timeout
    left = dict(timestamps)
    found: Dict[TopicPartition, ListedOffset] = {}
    for tp in left:
        client.add_topic(tp.topic)
    last: Optional[BaseException] = None
    while left:
        by_leader: Dict[int, List[TopicPartition]] = {}
        for tp in left:
            leader = client.cluster.leader_for_partition(tp)
            if leader is None or leader < 0:
                last = errors.LeaderNotAvailableError("no leader known for %s-%d" % tp)
                continue
            by_leader.setdefault(leader, []).append(tp)
        outcomes = await asyncio.gather(*(_ask_leader(client, node, {tp: left[tp] for tp in tps}, isolation_level)
                                          for node, tps in by_leader.items()), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                if not getattr(outcome, "retriable", False):
                    raise outcome
                last = outcome
                continue
            for tp, answer in outcome.items():
                cls = errors.for_code(answer.error_code)
                if cls is None:
                    found[tp] = answer
                    del left[tp]
                elif cls.retriable:
                    last = cls("ListOffsets of %s-%d" % tp)
                else:
                    raise cls("ListOffsets of %s-%d" % tp)
        if not left:
            break
        if time.monotonic() + client.retry_backoff >= deadline:
            raise last or errors.KafkaTimeoutError("no offsets found within %.1f s" % timeout)
        await asyncio.sleep(client.retry_backoff)
        try:
            await asyncio.wait_for(client.refresh_metadata(), max(deadline - time.monotonic(), 0.001))
        except (asyncio.TimeoutError, errors.KafkaError) as exc:
            log.debug("metadata refresh before retrying ListOffsets failed: %r", exc)
    return found


async def _ask_leader(client: AsyncClient, node: int, timestamps: Dict[TopicPartition, int],
                      isolation_level: int) -> Dict[TopicPartition, ListedOffset]:
    conn = await client.connection(node)
    request = list_offsets_request([OffsetQuery(tp.topic, tp.partition, ts) for tp, ts in timestamps.items()],
                                   isolation_level)
    answers = listed_offsets(await conn.request(LIST_OFFSETS, request))
    out = {}
    for tp in timestamps:
        answer = answers.get((tp.topic, tp.partition))
        if answer is None:
            raise errors.UnknownTopicOrPartitionError("ListOffsets answer without %s-%d" % tp)
        out[tp] = answer
    return out


def as_offset_and_metadata(value: Any) -> OffsetAndMetadata:
    """An offset to commit as given to ``commit()``: an int, ``(offset, metadata)`` or an OffsetAndMetadata."""
    if isinstance(value, OffsetAndMetadata):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        offset, metadata = value
    elif isinstance(value, int) and not isinstance(value, bool):
        offset, metadata = value, ""
    else:
        raise ValueError("offsets to commit must be ints, (offset, metadata) pairs or OffsetAndMetadata, not %r"
                         % (value,))
    if not isinstance(offset, int) or offset < 0:
        raise ValueError("offset to commit must be a non-negative int, not %r" % (offset,))
    if not isinstance(metadata, str):
        raise ValueError("commit metadata must be a str, not %r" % (metadata,))
    return OffsetAndMetadata(offset, metadata)


class GroupOffsets:
    """Commits and fetches of one group's offsets at its coordinator.

    :param client: connections and metadata.
    :param group_id: the group.
    :param timeout: how long one call may take, retries included (seconds).
    """

    def __init__(self, client: AsyncClient, group_id: str, timeout: float) -> None:
        self.client = client
        self.group_id = group_id
        self.timeout = timeout
        #: The coordinator's node id, once found.
        self.coordinator: Optional[int] = None

    async def find_coordinator(self) -> int:
        """The coordinator's node id (asked with FindCoordinator when not known)."""
        if self.coordinator is not None:
            return self.coordinator
        node = self.client.least_loaded_node()
        if node is None:
            await self.client.refresh_metadata()
            node = self.client.least_loaded_node()
            if node is None:
                raise errors.NoBrokersAvailable("no broker to ask for the coordinator of %r" % self.group_id)
        conn = await self.client.connection(node)
        version = conn.version_for(FIND_COORDINATOR)
        if version >= 4:
            request = FIND_COORDINATOR.Request(key_type=_GROUP_KEY, coordinator_keys=[self.group_id])
        else:
            request = FIND_COORDINATOR.Request(key=self.group_id, key_type=_GROUP_KEY)
        response = await conn.request(FIND_COORDINATOR, request, version)
        entry = response.coordinators[0] if response.coordinators else response
        cls = errors.for_code(entry.error_code)
        if cls is not None:
            raise cls("finding the coordinator of group %r: %s" % (self.group_id, entry.error_message or ""))
        self.client.cluster.add_coordinator(_GROUP_KEY, self.group_id, entry.node_id, entry.host, entry.port)
        self.coordinator = entry.node_id
        return entry.node_id

    def forget_coordinator(self) -> None:
        """Find the coordinator again before the next request (it moved or went away)."""
        self.coordinator = None
        self.client.cluster.forget_coordinator(_GROUP_KEY, self.group_id)

    async def _at_coordinator(self, api: Any, build: Any, max_version: int,
                              errors_of: Any) -> Any:
        """Send ``build(version)`` to the coordinator; retried while the coordinator moves or loads."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                node = await self.find_coordinator()
                conn = await self.client.connection(node)
                version = conn.version_for(api, highest=max_version)
                response = await conn.request(api, build(version), version)
                code = errors_of(response)
                cls = errors.for_code(code)
                if cls is None:
                    return response
                error: BaseException = cls("%s to the coordinator of group %r" % (api.name, self.group_id))
            except errors.KafkaError as exc:
                error = exc
            moved = isinstance(error, (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError,
                                       errors.KafkaConnectionError, errors.NodeNotReadyError))
            if moved:
                self.forget_coordinator()
            if not (moved or getattr(error, "retriable", False)) or time.monotonic() >= deadline:
                raise error
            log.debug("retrying %s for group %r after %s", api.name, self.group_id, error)
            await asyncio.sleep(self.client.retry_backoff)

    async def commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata], generation: int = -1,
                     member_id: str = "") -> None:
        """Commit ``offsets``; raises the broker's error (the first partition's) if it refused one."""
        if not offsets:
            return
        R = OFFSET_COMMIT.Request
        by_topic: Dict[str, List[Tuple[int, OffsetAndMetadata]]] = {}
        for tp, om in offsets.items():
            by_topic.setdefault(tp.topic, []).append((tp.partition, om))

        def build(version: int) -> Any:
            return R(group_id=self.group_id, generation_id_or_member_epoch=generation, member_id=member_id,
                     topics=[R.OffsetCommitRequestTopic(name=topic, partitions=[
                         R.OffsetCommitRequestTopic.OffsetCommitRequestPartition(
                             partition_index=p, committed_offset=om.offset, committed_leader_epoch=om.leader_epoch,
                             committed_metadata=om.metadata)
                         for p, om in parts]) for topic, parts in by_topic.items()])

        await self._at_coordinator(OFFSET_COMMIT, build, _COMMIT_MAX_VERSION, _first_partition_error)

    async def fetch(self, partitions: Iterable[TopicPartition]) -> Dict[TopicPartition, Optional[OffsetAndMetadata]]:
        """The committed offset of each partition (None where the group has none)."""
        wanted = list(partitions)
        by_topic: Dict[str, List[int]] = {}
        for tp in wanted:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        R = OFFSET_FETCH.Request

        def build(version: int) -> Any:
            return R(group_id=self.group_id, topics=[R.OffsetFetchRequestTopic(name=t, partition_indexes=ps)
                                                     for t, ps in by_topic.items()])

        def error_of(response: Any) -> int:
            return int(response.error_code or _first_partition_error(response))

        response = await self._at_coordinator(OFFSET_FETCH, build, _OFFSET_FETCH_MAX_VERSION, error_of)
        found: Dict[TopicPartition, Optional[OffsetAndMetadata]] = {tp: None for tp in wanted}
        for topic in response.topics or ():
            for part in topic.partitions:
                tp = TopicPartition(topic.name, part.partition_index)
                if tp in found and part.committed_offset >= 0:
                    found[tp] = OffsetAndMetadata(part.committed_offset, part.metadata or "",
                                                  part.committed_leader_epoch)
        return found


def _first_partition_error(response: Any) -> int:
    for topic in response.topics or ():
        for part in topic.partitions:
            if part.error_code:
                return int(part.error_code)
    return 0
