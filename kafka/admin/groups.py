"""Consumer group operations: list, describe, delete groups; read, alter and delete their offsets.

Every call about one group goes to that group's coordinator (found with
FindCoordinator) and is resent when the coordinator moved or is still
loading; listing groups asks every broker, since each one only knows the
groups it coordinates.
"""

from __future__ import annotations

import logging
import struct
import uuid
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.resources import check_partitions
from kafka.admin.results import (GroupDescription, GroupListing, MemberDescription, RawGroupDescription,
                                 RawMemberDescription, finish)
from kafka.client import topic_ids
from kafka.protocol.apis import (DELETE_GROUPS, DESCRIBE_GROUPS, LIST_GROUPS, OFFSET_COMMIT, OFFSET_DELETE,
                                 OFFSET_FETCH)
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

_COORDINATOR_MOVED = (errors.NotCoordinatorError.errno, errors.CoordinatorNotAvailableError.errno,
                      errors.CoordinatorLoadInProgressError.errno)


def check_group_id(group_id: Any) -> str:
    """Return ``group_id`` if it is a non-empty string, else raise :class:`IllegalArgumentError`."""
    if not isinstance(group_id, str) or not group_id:
        raise errors.IllegalArgumentError("a group id must be a non-empty string, got %r" % (group_id,))
    return group_id


def _group_ids(group_ids: Any, what: str) -> List[str]:
    if isinstance(group_ids, str):
        group_ids = [group_ids]
    try:
        ids = [check_group_id(g) for g in group_ids]
    except TypeError:
        raise errors.IllegalArgumentError("%s takes a list of group ids, got %r" % (what, group_ids)) from None
    if not ids:
        raise errors.IllegalArgumentError("%s needs at least one group id" % what)
    if len(set(ids)) != len(ids):
        raise errors.IllegalArgumentError("%s names a group twice: %r" % (what, ids))
    return ids


def _by_topic(partitions: Iterable[TopicPartition]) -> Dict[str, List[int]]:
    topics: Dict[str, List[int]] = {}
    for tp in partitions:
        topics.setdefault(tp.topic, []).append(tp.partition)
    return topics


def decode_assignment(data: Optional[bytes]) -> Tuple[TopicPartition, ...]:
    """The partitions in a consumer protocol assignment (empty if it cannot be read)."""
    if not data:
        return ()
    try:
        pos = 2  # int16 version
        (count,) = struct.unpack_from(">i", data, pos)
        pos += 4
        out: List[TopicPartition] = []
        for _ in range(max(count, 0)):
            (size,) = struct.unpack_from(">h", data, pos)
            pos += 2
            topic = data[pos:pos + size].decode("utf-8")
            pos += size
            (n,) = struct.unpack_from(">i", data, pos)
            pos += 4
            parts = struct.unpack_from(">%di" % max(n, 0), data, pos)
            pos += 4 * max(n, 0)
            out.extend(TopicPartition(topic, p) for p in parts)
        return tuple(sorted(out))
    except (struct.error, UnicodeDecodeError):
        return ()


class GroupsMixin(AdminBase):
    """Consumer group administration."""

    if TYPE_CHECKING:
        # TopicsMixin's, its neighbour in KafkaAdminClient.
        def describe_topics(self, topics: Optional[Sequence[str]] = None,
                            raise_error: bool = True) -> Dict[str, Any]: ...

    def _to_coordinator(self, group_id: str, api: Any, build: Any, error_code: Any,
                        timeout_ms: Optional[float] = None, max_version: Optional[int] = None) -> Tuple[int, Any]:
        """Send to ``group_id``'s coordinator; return ``(node_id, response)``."""
        self._check_open()
        client = self._client
        response = client.send_to_coordinator(group_id, api, build, error_code,
                                               timeout_ms=timeout_ms or self.config["request_timeout_ms"],
                                               max_version=max_version)
        node = client.cluster.coordinator_for_group(group_id)
        return (-1 if node is None else node), response

    def list_consumer_groups(self, broker_ids: Optional[Sequence[int]] = None) -> List[GroupListing]:
        """Every group of the cluster (asks each broker), sorted by group id.

        Raises :class:`~kafka.admin.AdminResultError` (keyed by broker id) when
        a broker could not be asked, so a partial list is never mistaken for
        the whole.
        """
        self._check_open()
        nodes = [b.nodeId for b in self.known_brokers(refresh=True)] if broker_ids is None else list(broker_ids)
        if not nodes:
            raise errors.NoBrokersAvailable("the cluster metadata lists no broker")
        found: Dict[str, GroupListing] = {}
        per_broker: Dict[Any, Any] = {}
        for node in nodes:
            try:
                response = self._send_to_node(node, LIST_GROUPS, lambda v: LIST_GROUPS.Request(
                    states_filter=[], types_filter=[]), self._deadline())
                if response.error_code:
                    raise broker_error(response.error_code, None, "listing the groups of broker %d" % node)
            except errors.KafkaError as exc:
                per_broker["broker %d" % node] = exc
                continue
            per_broker["broker %d" % node] = None
            for g in response.groups:
                found[g.group_id] = GroupListing(g.group_id, g.protocol_type or "", g.group_state or "",
                                                 g.group_type or "", node)
        finish("list_consumer_groups", per_broker, True)
        return [found[g] for g in sorted(found)]

    def describe_consumer_groups(self, group_ids: Sequence[str],
                                 raise_error: bool = True) -> Dict[str, Any]:
        """Describe groups: ``{group_id: GroupDescription}`` (state, protocol, members and their partitions).

        A group the coordinator does not know is reported with state ``Dead``
        by Kafka (or GroupIdNotFoundError by newer brokers, then reported per
        group as in :meth:`create_topics`).
        """
        ids = _group_ids(group_ids, "describe_consumer_groups")
        results: Dict[str, Any] = {}
        for group_id in ids:
            def build(version: int, group_id: str = group_id) -> Any:
                return DESCRIBE_GROUPS.Request(groups=[group_id], include_authorized_operations=False)
            try:
                node, response = self._to_coordinator(group_id, DESCRIBE_GROUPS, build, _first_group_code)
            except errors.KafkaError as exc:
                results[group_id] = exc
                continue
            g = response.groups[0]
            consumer = (g.protocol_type or "") == "consumer"
            members = tuple(MemberDescription(m.member_id, m.client_id, m.client_host, m.group_instance_id,
                                              decode_assignment(m.member_assignment) if consumer else ())
                            for m in g.members)
            results[group_id] = GroupDescription(g.group_id, g.group_state, g.protocol_type or "",
                                                 g.protocol_data or "", members, node)
        return finish("describe_consumer_groups", results, raise_error)

    def describe_groups_at(self, node_id: int, group_ids: Sequence[str],
                           timeout_ms: Optional[float] = None) -> List[RawGroupDescription]:
        """Ask broker ``node_id`` to describe ``group_ids``, in one DescribeGroups request, as it answers.

        For callers that want what the broker sent: a group it does not
        coordinate comes back with its error code, and members keep their
        protocol metadata and assignment as bytes. The broker is the one
        that listed the groups (:attr:`GroupListing.coordinator`), not looked
        up again. Raises on a connection failure or after ``timeout_ms``
        (default ``request_timeout_ms``).
        """
        ids = list(group_ids)
        response = self._send_to_node(node_id, DESCRIBE_GROUPS, lambda v: DESCRIBE_GROUPS.Request(
            groups=ids, include_authorized_operations=False), self._deadline(timeout_ms))
        return [RawGroupDescription(g.group_id, g.error_code, g.group_state, g.protocol_type, g.protocol_data,
                                    tuple(RawMemberDescription(m.member_id, m.client_id, m.client_host,
                                                               m.member_metadata, m.member_assignment)
                                          for m in g.members))
                for g in response.groups]

    def delete_consumer_groups(self, group_ids: Sequence[str],
                               raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Delete empty groups and their committed offsets: ``{group_id: None}``.

        A group with members fails with
        :class:`~kafka.errors.NonEmptyGroupError`, an unknown one with
        :class:`~kafka.errors.GroupIdNotFoundError`, per group.
        """
        ids = _group_ids(group_ids, "delete_consumer_groups")
        results: Dict[str, Any] = {}
        for group_id in ids:
            def build(version: int, group_id: str = group_id) -> Any:
                return DELETE_GROUPS.Request(groups_names=[group_id])
            try:
                self._to_coordinator(group_id, DELETE_GROUPS, build,
                                     lambda r: r.results[0].error_code if r.results else 0)
                results[group_id] = None
            except errors.KafkaError as exc:
                results[group_id] = exc
        return finish("delete_consumer_groups", results, raise_error)

    def list_consumer_group_offsets(self, group_id: str, partitions: Optional[Sequence[TopicPartition]] = None,
                                    raise_error: bool = True) -> Dict[TopicPartition, Any]:
        """Committed offsets of a group: ``{TopicPartition: OffsetAndMetadata}``.

        With ``partitions`` None, every partition the group committed; named
        partitions without a commit have offset -1.
        """
        check_group_id(group_id)
        wanted = None if partitions is None else check_partitions(partitions, "list_consumer_group_offsets")
        R = OFFSET_FETCH.Request
        # From v10 topics go by id both ways: the names of the group's topics
        # in the answer come from these ids.
        ids = self._topic_ids(None if wanted is None else (tp.topic for tp in wanted))

        def build(version: int) -> Any:
            if version >= 8:
                topics = None if wanted is None else [
                    R.OffsetFetchRequestGroup.OffsetFetchRequestTopics(name=t, topic_id=ids[t], partition_indexes=ps)
                    for t, ps in _by_topic(wanted).items()]
                return R(groups=[R.OffsetFetchRequestGroup(group_id=group_id, topics=topics)],
                         require_stable=False)
            if wanted is None and version < 2:
                raise errors.UnsupportedVersionError("OffsetFetch v%d cannot list all partitions of a group"
                                                     % version)
            topics = None if wanted is None else [R.OffsetFetchRequestTopic(name=t, partition_indexes=ps)
                                                  for t, ps in _by_topic(wanted).items()]
            return R(group_id=group_id, topics=topics, require_stable=False)

        def error_code(response: Any) -> int:
            if response.groups:
                return response.groups[0].error_code
            return response.error_code or 0

        _, response = self._to_coordinator(group_id, OFFSET_FETCH, build, error_code,
                                           max_version=topic_ids.name_only_cap(OFFSET_FETCH, ids))
        topics = response.groups[0].topics if response.groups else response.topics
        by_id = topic_ids.names_by_id(ids)
        if topics is None and wanted is None:
            # A broker that cannot list "every partition" (librdkafka's mock
            # answers a null array): ask for every partition of every topic.
            everything = [TopicPartition(t, p.partition) for t, d in self.describe_topics(raise_error=False).items()
                          if not isinstance(d, BaseException) for p in d.partitions]
            found = self.list_consumer_group_offsets(group_id, everything, raise_error) if everything else {}
            return {tp: o for tp, o in found.items() if isinstance(o, BaseException) or o.offset >= 0}
        results: Dict[TopicPartition, Any] = {}
        for t in topics or ():
            name = topic_ids.response_topic(t, "name", by_id)
            if name is None:
                log.debug("group %s has offsets for topic id %s, which no topic has now", group_id, t.topic_id)
                continue
            for p in t.partitions:
                tp = TopicPartition(name, p.partition_index)
                if p.error_code:
                    results[tp] = broker_error(p.error_code, None, "%s-%d" % tp)
                else:
                    epoch = p.committed_leader_epoch if p.committed_leader_epoch is not None else -1
                    results[tp] = OffsetAndMetadata(p.committed_offset, p.metadata, epoch)
        if wanted is not None:
            for tp in wanted:
                results.setdefault(tp, OffsetAndMetadata(-1, "", -1))
        return finish("list_consumer_group_offsets", dict(sorted(results.items())), raise_error)

    def alter_consumer_group_offsets(self, group_id: str,
                                     offsets: Mapping[TopicPartition, Union[int, OffsetAndMetadata]],
                                     raise_error: bool = True) -> Dict[TopicPartition, Optional[BaseException]]:
        """Set a group's committed offsets: ``{TopicPartition: offset or OffsetAndMetadata}``.

        The group must have no active members (Kafka answers
        UNKNOWN_MEMBER_ID otherwise). Returns ``{TopicPartition: None}``;
        failures are reported per partition.
        """
        check_group_id(group_id)
        if not isinstance(offsets, Mapping) or not offsets:
            raise errors.IllegalArgumentError("alter_consumer_group_offsets takes a non-empty "
                                              "{TopicPartition: offset} mapping")
        plan: Dict[TopicPartition, OffsetAndMetadata] = {}
        for tp, value in offsets.items():
            (tp,) = check_partitions([tp], "alter_consumer_group_offsets")
            if isinstance(value, int) and not isinstance(value, bool):
                value = OffsetAndMetadata(value, "", -1)
            if not isinstance(value, OffsetAndMetadata) or value.offset < 0:
                raise errors.IllegalArgumentError("alter_consumer_group_offsets: %s-%d needs an offset >= 0, got %r"
                                                  % (tp.topic, tp.partition, value))
            plan[tp] = value
        R = OFFSET_COMMIT.Request
        T = R.OffsetCommitRequestTopic
        ids = self._topic_ids(tp.topic for tp in plan)

        def build(version: int) -> Any:
            topics = []
            for topic, parts in _by_topic(plan).items():
                topics.append(T(name=topic, topic_id=ids[topic], partitions=[T.OffsetCommitRequestPartition(
                    partition_index=p, committed_offset=plan[TopicPartition(topic, p)].offset,
                    committed_leader_epoch=plan[TopicPartition(topic, p)].leader_epoch,
                    committed_metadata=plan[TopicPartition(topic, p)].metadata or "") for p in parts]))
            return R(group_id=group_id, generation_id_or_member_epoch=-1, member_id="", topics=topics)

        _, response = self._to_coordinator(group_id, OFFSET_COMMIT, build, _coordinator_code_in_partitions,
                                           max_version=topic_ids.name_only_cap(OFFSET_COMMIT, ids))
        return finish("alter_consumer_group_offsets",
                      _partition_results(response, plan, topic_ids.names_by_id(ids)), raise_error)

    def delete_consumer_group_offsets(self, group_id: str, partitions: Sequence[TopicPartition],
                                      raise_error: bool = True) -> Dict[TopicPartition, Optional[BaseException]]:
        """Remove committed offsets of partitions from a group: ``{TopicPartition: None}``.

        Fails per partition with :class:`~kafka.errors.GroupSubscribedToTopicError`
        while the group's members consume the topic.
        """
        check_group_id(group_id)
        wanted = check_partitions(partitions, "delete_consumer_group_offsets")
        if not wanted:
            raise errors.IllegalArgumentError("delete_consumer_group_offsets needs at least one partition")
        R = OFFSET_DELETE.Request
        T = R.OffsetDeleteRequestTopic

        def build(version: int) -> Any:
            return R(group_id=group_id, topics=[
                T(name=t, partitions=[T.OffsetDeleteRequestPartition(partition_index=p) for p in ps])
                for t, ps in _by_topic(wanted).items()])

        _, response = self._to_coordinator(group_id, OFFSET_DELETE, build, lambda r: r.error_code)
        return finish("delete_consumer_group_offsets", _partition_results(response, wanted), raise_error)


def _first_group_code(response: Any) -> int:
    return response.groups[0].error_code if response.groups else 0


def _coordinator_code_in_partitions(response: Any) -> int:
    """A coordinator-level code repeated in every partition (OffsetCommit reports no top-level code)."""
    for t in response.topics:
        for p in t.partitions:
            if p.error_code in _COORDINATOR_MOVED:
                return p.error_code
    return 0


def _partition_results(response: Any, wanted: Iterable[TopicPartition],
                       by_id: Optional[Mapping[uuid.UUID, str]] = None) -> Dict[TopicPartition, Any]:
    results: Dict[TopicPartition, Any] = {}
    for t in response.topics:
        name = topic_ids.response_topic(t, "name", by_id or {})
        if name is None:
            continue  # an id we did not ask about
        for p in t.partitions:
            tp = TopicPartition(name, p.partition_index)
            results[tp] = broker_error(p.error_code, None, "%s-%d" % tp) if p.error_code else None
    out: Dict[TopicPartition, Any] = {}
    for tp in wanted:
        out[tp] = results.get(tp, errors.ProtocolError("the response did not mention %s-%d" % tp))
    return out


__all__ = ["GroupsMixin", "decode_assignment", "check_group_id"]
