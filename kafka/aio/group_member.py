"""One consumer's membership requests at its group coordinator (classic protocol).

:class:`GroupMember` sends JoinGroup, SyncGroup, Heartbeat and LeaveGroup on
a connection of its own to the coordinator (a JoinGroup the coordinator
holds for seconds must not hold up fetches and commits behind it) and keeps
the member id and generation the coordinator gave. Errors come back as
:mod:`kafka.errors` exceptions; deciding what to do about them is the group
task's part (:mod:`kafka.aio.group`).
"""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from kafka import errors
from kafka.aio.connection import AsyncConnection
from kafka.aio.offsets import GroupOffsets
from kafka.group.payloads import assigned_partitions
from kafka.protocol.apis import HEARTBEAT, JOIN_GROUP, LEAVE_GROUP, SYNC_GROUP
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

#: Makes a connection to ``(host, port, node_id)``, handshakes done.
Connect = Callable[[str, int, int], Awaitable[AsyncConnection]]

#: The errors after which the coordinator is to be found again.
COORDINATOR_MOVED = (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError, errors.KafkaConnectionError,
                     errors.NodeNotReadyError, errors.RequestTimedOutError)


class Joined(NamedTuple):
    """What JoinGroup answered."""

    generation_id: int
    member_id: str
    leader_id: str
    protocol: str
    #: the members' (member_id, group_instance_id, metadata), for the leader only
    members: Sequence[Any]

    @property
    def leader(self) -> bool:
        """Whether this member leads the generation (and assigns the partitions)."""
        return self.member_id == self.leader_id


class GroupMember:
    """Member id, generation and the four membership requests of one consumer.

    :param offsets: finds the coordinator (and commits there).
    :param connect: opens the coordinator connection.
    :param group_instance_id: the static member id (KIP-345), or None.
    """

    def __init__(self, offsets: GroupOffsets, connect: Connect, *, group_instance_id: Optional[str] = None,
                 session_timeout_ms: int, rebalance_timeout_ms: int) -> None:
        self.offsets = offsets
        self.group_id = offsets.group_id
        self.group_instance_id = group_instance_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self._connect = connect
        self._conn: Optional[AsyncConnection] = None
        self.member_id = ""
        self.generation_id = -1
        self.protocol: Optional[str] = None

    def identity(self) -> Tuple[int, str]:
        """``(generation_id, member_id)`` for commits (``(-1, "")`` before the first join)."""
        return self.generation_id, self.member_id

    def reset(self) -> None:
        """Forget the member id and generation (the coordinator no longer knows them)."""
        self.member_id = ""
        self.generation_id = -1
        self.protocol = None

    def close(self) -> None:
        """Close the coordinator connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def coordinator_lost(self) -> None:
        """The coordinator moved or went away: find it again and connect anew."""
        self.offsets.forget_coordinator()
        self.close()

    async def _connection(self) -> AsyncConnection:
        node = await self.offsets.find_coordinator()
        conn = self._conn
        if conn is not None and conn.connected and conn.node_id == node:
            return conn
        self.close()
        broker = self.offsets.client.cluster.broker_metadata(node)
        if broker is None:
            raise errors.CoordinatorNotAvailableError("the coordinator %d of group %r is not in the metadata"
                                                      % (node, self.group_id))
        self._conn = await self._connect(broker.host, broker.port, node)
        return self._conn

    async def _request(self, api: Any, build: Callable[[int], Any], what: str) -> Any:
        conn = await self._connection()
        version = conn.version_for(api)
        try:
            response = await conn.request(api, build(version), version)
        except COORDINATOR_MOVED:
            self.coordinator_lost()
            raise
        cls = errors.for_code(response.error_code)
        if cls is not None:
            if issubclass(cls, (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError)):
                self.coordinator_lost()
            raise cls("%s of group %r" % (what, self.group_id))
        return response

    async def join(self, protocols: Sequence[Tuple[str, bytes]]) -> Joined:
        """JoinGroup offering ``(assignor name, subscription bytes)`` pairs; held by the coordinator until the
        generation forms. A new member id the coordinator asks for (MEMBER_ID_REQUIRED) is kept and raised."""
        R = JOIN_GROUP.Request

        def build(version: int) -> Any:
            return R(group_id=self.group_id, session_timeout_ms=self.session_timeout_ms,
                     rebalance_timeout_ms=self.rebalance_timeout_ms, member_id=self.member_id,
                     group_instance_id=self.group_instance_id, protocol_type="consumer",
                     protocols=[R.JoinGroupRequestProtocol(name=n, metadata=m) for n, m in protocols])

        conn = await self._connection()
        version = conn.version_for(JOIN_GROUP)
        log.debug("group %s: JoinGroup as %r (v%d)", self.group_id, self.member_id, version)
        try:
            response = await conn.request(JOIN_GROUP, build(version), version)
        except COORDINATOR_MOVED:
            self.coordinator_lost()
            raise
        cls = errors.for_code(response.error_code)
        if cls is not None:
            if cls is errors.MemberIdRequiredError:
                self.member_id = response.member_id or ""
            elif cls in (errors.UnknownMemberIdError, errors.IllegalGenerationError):
                self.reset()
            elif issubclass(cls, (errors.NotCoordinatorError, errors.CoordinatorNotAvailableError)):
                self.coordinator_lost()
            raise cls("JoinGroup of group %r" % self.group_id)
        self.member_id = response.member_id
        self.generation_id = response.generation_id
        self.protocol = response.protocol_name
        return Joined(response.generation_id, response.member_id, response.leader or "", response.protocol_name or "",
                      list(response.members or ()))

    async def sync(self, assignments: Dict[str, bytes]) -> List[TopicPartition]:
        """SyncGroup (the leader sends every member's assignment bytes); this member's partitions."""
        R = SYNC_GROUP.Request

        def build(version: int) -> Any:
            return R(group_id=self.group_id, generation_id=self.generation_id, member_id=self.member_id,
                     group_instance_id=self.group_instance_id, protocol_type="consumer",
                     protocol_name=self.protocol,
                     assignments=[R.SyncGroupRequestAssignment(member_id=m, assignment=a)
                                  for m, a in assignments.items()])

        try:
            response = await self._request(SYNC_GROUP, build, "SyncGroup")
        except (errors.UnknownMemberIdError, errors.IllegalGenerationError):
            self.reset()
            raise
        return assigned_partitions(response.assignment)

    async def heartbeat(self) -> None:
        """One Heartbeat; raises what the coordinator answered (REBALANCE_IN_PROGRESS: rejoin)."""
        H = HEARTBEAT.Request
        await self._request(HEARTBEAT, lambda v: H(group_id=self.group_id, generation_id=self.generation_id,
                                                   member_id=self.member_id,
                                                   group_instance_id=self.group_instance_id), "Heartbeat")

    async def leave(self) -> None:
        """LeaveGroup (not for a static member, whose place waits for its return), then forget the identity."""
        if not self.member_id or self.group_instance_id is not None:
            self.reset()
            return
        L = LEAVE_GROUP.Request
        member_id = self.member_id
        self.reset()

        def build(version: int) -> Any:
            if version >= 3:
                return L(group_id=self.group_id, members=[L.MemberIdentity(member_id=member_id,
                                                                           reason="the consumer left")])
            return L(group_id=self.group_id, member_id=member_id)

        try:
            await self._request(LEAVE_GROUP, build, "LeaveGroup")
        except errors.KafkaError as exc:
            log.info("group %s: LeaveGroup of %s failed: %s", self.group_id, member_id, exc)


__all__ = ["COORDINATOR_MOVED", "Connect", "GroupMember", "Joined"]
