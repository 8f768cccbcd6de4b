"""``AIOKafkaConsumer``: aiokafka's consumer API on kafkawire's asyncio layer.

What a program written for aiokafka 0.14 does with a consumer works here:
the constructor's keywords, ``await start()`` / ``await stop()`` (or
``async with``), ``assign`` or ``subscribe`` (group membership, see
:mod:`kafka.aio.group`), ``getone``, ``getmany``, ``async for``, the seeks
and offset look-ups, ``pause`` / ``resume``, ``commit`` / ``committed`` at
the group's coordinator. Fetching runs in a task of
:class:`~kafka.aio.fetcher.AsyncFetcher`; records are decoded when asked
for.

Not yet: cooperative rebalancing, Kerberos.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

from kafka import errors
from kafka.aio.assignment import EARLIEST, LATEST, Assignment
from kafka.aio.client import client_for
from kafka.aio.connection import AsyncConnection
from kafka.aio.errors import ConsumerStoppedError, IllegalOperation
from kafka.aio.fetcher import AsyncFetcher
from kafka.aio.group import GroupCoordinator, GroupSettings, eager_assignors
from kafka.aio.group_listener import call_hook
from kafka.aio.group_member import GroupMember
from kafka.aio.group_subscription import Subscription
from kafka.aio.offsets import GroupOffsets, as_offset_and_metadata, list_offsets
from kafka.aio.structs import ConsumerRecord, OffsetAndTimestamp
from kafka.structs import OffsetAndMetadata, TopicPartition

log = logging.getLogger(__name__)

_ISOLATION = {"read_uncommitted": 0, "read_committed": 1}


class AIOKafkaConsumer:
    """An asyncio Kafka consumer with aiokafka's API.

    Keywords as aiokafka 0.14's, defaults included: ``bootstrap_servers``,
    ``client_id``, ``group_id`` (for ``commit``/``committed`` and the
    committed start positions), ``key_deserializer``,
    ``value_deserializer`` (called with every key/value, None included, as
    aiokafka does), ``fetch_max_wait_ms``, ``fetch_max_bytes``,
    ``fetch_min_bytes``, ``max_partition_fetch_bytes``,
    ``request_timeout_ms``, ``retry_backoff_ms``, ``auto_offset_reset``
    (``"earliest"``, ``"latest"``, ``"none"``), ``enable_auto_commit``,
    ``auto_commit_interval_ms``, ``check_crcs``, ``metadata_max_age_ms``,
    ``max_poll_records``, ``isolation_level`` (``"read_uncommitted"``,
    ``"read_committed"``), ``security_protocol``, ``ssl_context``,
    ``sasl_mechanism``, ``sasl_plain_username``, ``sasl_plain_password``,
    ``sasl_oauth_token_provider``, and for group membership
    (:meth:`subscribe`, or topics given positionally):
    ``partition_assignment_strategy`` (assignor names, classes or objects:
    ``range``, ``roundrobin`` (the default), ``sticky``, kafka-python's
    and aiokafka's class names), ``session_timeout_ms``,
    ``heartbeat_interval_ms``, ``max_poll_interval_ms``,
    ``rebalance_timeout_ms`` (default ``session_timeout_ms``, as aiokafka)
    and ``group_instance_id`` (static membership: no LeaveGroup at stop).
    """

    def __init__(self, *topics: str, loop: Any = None, bootstrap_servers: Any = "localhost",
                 client_id: Optional[str] = None, group_id: Optional[str] = None,
                 group_instance_id: Optional[str] = None, key_deserializer: Optional[Callable[[Any], Any]] = None,
                 value_deserializer: Optional[Callable[[Any], Any]] = None, fetch_max_wait_ms: int = 500,
                 fetch_max_bytes: int = 52428800, fetch_min_bytes: int = 1,
                 max_partition_fetch_bytes: int = 1048576, request_timeout_ms: int = 40000,
                 retry_backoff_ms: int = 100, auto_offset_reset: str = "latest", enable_auto_commit: bool = True,
                 auto_commit_interval_ms: int = 5000, check_crcs: bool = True, metadata_max_age_ms: int = 300000,
                 partition_assignment_strategy: Any = None, max_poll_interval_ms: int = 300000,
                 rebalance_timeout_ms: Optional[int] = None, session_timeout_ms: int = 10000,
                 heartbeat_interval_ms: int = 3000, consumer_timeout_ms: int = 200,
                 max_poll_records: Optional[int] = None, ssl_context: Optional[ssl.SSLContext] = None,
                 security_protocol: str = "PLAINTEXT", api_version: Any = None, exclude_internal_topics: bool = True,
                 connections_max_idle_ms: int = 540000, isolation_level: str = "read_uncommitted",
                 sasl_mechanism: str = "PLAIN", sasl_plain_password: Optional[str] = None,
                 sasl_plain_username: Optional[str] = None, sasl_kerberos_service_name: str = "kafka",
                 sasl_kerberos_domain_name: Optional[str] = None, sasl_oauth_token_provider: Any = None,
                 client_rack: Optional[str] = None) -> None:
        if auto_offset_reset not in ("earliest", "latest", "none"):
            raise ValueError("auto_offset_reset should be one of 'earliest', 'latest' or 'none', not %r"
                             % (auto_offset_reset,))
        if isolation_level not in _ISOLATION:
            raise ValueError("Incorrect isolation level %s" % isolation_level)
        if max_poll_records is not None and (not isinstance(max_poll_records, int) or max_poll_records < 1):
            raise ValueError("`max_poll_records` should be positive Integer")
        self.client = client_for('consumer', bootstrap_servers, client_id, request_timeout_ms=request_timeout_ms,
                                 metadata_max_age_ms=metadata_max_age_ms, retry_backoff_ms=retry_backoff_ms,
                                 security_protocol=security_protocol, ssl_context=ssl_context,
                                 sasl_mechanism=sasl_mechanism, sasl_plain_username=sasl_plain_username,
                                 sasl_plain_password=sasl_plain_password,
                                 sasl_oauth_token_provider=sasl_oauth_token_provider,
                                 allow_auto_create_topics=False)
        self.client_id = self.client.client_id
        self._group_id = group_id
        self._timeout = request_timeout_ms / 1000.0
        self._group = GroupOffsets(self.client, group_id, self._timeout) if group_id is not None else None
        self._assignment = Assignment()
        self._auto_commit_interval = auto_commit_interval_ms / 1000.0 if enable_auto_commit else None
        self._max_poll_records = max_poll_records
        self._isolation = _ISOLATION[isolation_level]
        self._fetcher = AsyncFetcher(
            self.client, self._assignment, group=self._group, key_deserializer=key_deserializer,
            value_deserializer=value_deserializer, fetch_max_wait_ms=fetch_max_wait_ms,
            fetch_min_bytes=fetch_min_bytes, fetch_max_bytes=fetch_max_bytes,
            max_partition_fetch_bytes=max_partition_fetch_bytes, isolation_level=self._isolation,
            check_crcs=check_crcs, auto_offset_reset=auto_offset_reset, request_timeout_ms=request_timeout_ms)
        self._auto_commit_task: Optional["asyncio.Task[None]"] = None
        self._committed_at: Dict[TopicPartition, int] = {}
        self._started = False
        self._closed = False
        self._assignors = eager_assignors(partition_assignment_strategy or ("roundrobin",))
        self._group_settings = GroupSettings(
            group_instance_id=group_instance_id, session_timeout_ms=session_timeout_ms,
            rebalance_timeout_ms=rebalance_timeout_ms if rebalance_timeout_ms is not None else session_timeout_ms,
            heartbeat_interval_ms=heartbeat_interval_ms, max_poll_interval_ms=max_poll_interval_ms,
            metadata_max_age_ms=metadata_max_age_ms, retry_backoff_ms=retry_backoff_ms)
        # The coordinator connection waits for JoinGroup answers up to the rebalance timeout.
        coordinator_timeout_ms = max(request_timeout_ms, self._group_settings.rebalance_timeout_ms + 5000)

        async def connect(host: str, port: int, node_id: int) -> AsyncConnection:
            conn = self.client.new_connection(host, port, node_id, request_timeout_ms=coordinator_timeout_ms)
            await conn.connect(self._timeout)
            return conn

        self._connect_coordinator = connect
        self._subscription: Optional[Subscription] = Subscription(topics) if topics else None
        self._coordinator: Optional[GroupCoordinator] = None
        self._groupless_task: Optional["asyncio.Task[None]"] = None
        self._leaving: Optional["asyncio.Future[None]"] = None

    def __repr__(self) -> str:
        return "<kafka.aio.AIOKafkaConsumer client_id=%r %s>" % (
            self.client_id, "stopped" if self._closed else "started" if self._started else "new")

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to the cluster (learning its brokers) and start fetching.

        Raises :class:`~kafka.errors.KafkaConnectionError` when no bootstrap
        server answers.
        """
        if self._started:
            return
        if self._closed:
            raise IllegalOperation("the consumer was stopped; make a new one")
        await self.client.bootstrap()
        self._started = True
        self._fetcher.start()
        if self._group is not None and self._auto_commit_interval is not None:
            self._auto_commit_task = asyncio.ensure_future(self._auto_commit())
        if self._subscription is not None:
            self._start_membership(self._subscription)
        log.debug("%r started", self)

    async def stop(self) -> None:
        """Commit the positions (with auto-commit), stop fetching and close every connection."""
        if self._closed:
            return
        self._closed = True
        if self._auto_commit_task is not None:
            self._auto_commit_task.cancel()
            await asyncio.gather(self._auto_commit_task, return_exceptions=True)
        await self._end_membership()
        if self._auto_commit_task is not None:
            try:
                await self._commit_positions()
            except errors.KafkaError as exc:
                log.warning("the last auto-commit failed: %s", exc)
        await self._fetcher.close()
        await self.client.close()
        log.debug("%r stopped", self)

    async def __aenter__(self) -> "AIOKafkaConsumer":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    def _check_open(self) -> None:
        if self._closed:
            raise ConsumerStoppedError()

    # -- assignment ---------------------------------------------------------------------------

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Read ``partitions`` (replacing the previous assignment); not after :meth:`subscribe`."""
        if self._subscription is not None:
            raise errors.IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        self._set_assignment(list(partitions))

    def _set_assignment(self, partitions: List[TopicPartition]) -> None:
        wanted = list(partitions)
        dropped = self._assignment.assign(wanted)
        for tp in wanted:
            self.client.add_topic(tp.topic)
        self._fetcher.forget(dropped)

    def assignment(self) -> Set[TopicPartition]:
        """The assigned partitions."""
        return set(self._assignment.states)

    def subscribe(self, topics: Iterable[str] = (), pattern: Optional[str] = None, listener: Any = None) -> None:
        """Read the partitions the group hands this member of ``topics`` (or of the topics ``pattern`` matches).

        Replaces the previous subscription (a rebalance follows). ``listener``
        (a :class:`~kafka.aio.ConsumerRebalanceListener`, whose hooks may be
        coroutines) hears of every revocation and assignment. Without a
        ``group_id`` every partition of the topics is read, no group involved.
        Raises :class:`TypeError` when neither or both of ``topics`` and
        ``pattern`` are given (or ``listener`` has not the hooks),
        :class:`~kafka.errors.IllegalStateError` after :meth:`assign`.
        """
        subscription = Subscription(topics, pattern, listener)
        if self._subscription is None and self._assignment.states:
            raise errors.IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        self._subscription = subscription
        if self._coordinator is not None:
            self._coordinator.resubscribe(subscription)
        elif self._started and not self._closed:
            self._start_membership(subscription)
        log.info("subscribed to %s", "pattern %r" % pattern if pattern else sorted(subscription.topics))

    def subscription(self) -> frozenset:
        """The subscribed topics (for a pattern: the matching topics found so far)."""
        return frozenset(self._subscription.topics) if self._subscription is not None else frozenset()

    def unsubscribe(self) -> None:
        """Drop the subscription and every partition; the group is left in the background."""
        self._subscription = None
        self._set_assignment([])
        coordinator, self._coordinator = self._coordinator, None
        if coordinator is not None:
            self._leaving = asyncio.ensure_future(coordinator.close(commit=False))
        if self._groupless_task is not None:
            self._groupless_task.cancel()
            self._groupless_task = None
        log.info("unsubscribed")

    def _start_membership(self, subscription: Subscription) -> None:
        if self._group is None:
            self._groupless_task = asyncio.ensure_future(self._assign_every_partition(subscription))
            return
        s = self._group_settings
        member = GroupMember(self._group, self._connect_coordinator, group_instance_id=s.group_instance_id,
                             session_timeout_ms=s.session_timeout_ms, rebalance_timeout_ms=s.rebalance_timeout_ms)
        self._coordinator = GroupCoordinator(
            self.client, member, subscription, self._assignors, set_assignment=self._set_assignment,
            commit_positions=self._commit_before_rebalance, heartbeat_interval_ms=s.heartbeat_interval_ms,
            session_timeout_ms=s.session_timeout_ms, max_poll_interval_ms=s.max_poll_interval_ms,
            metadata_max_age_ms=s.metadata_max_age_ms, retry_backoff_ms=s.retry_backoff_ms)
        self._coordinator.start()

    async def _end_membership(self) -> None:
        coordinator = self._coordinator
        if coordinator is not None:
            await coordinator.close()  # commits as the member it still is, then leaves
            self._coordinator = None
        if self._leaving is not None:  # the LeaveGroup unsubscribe() started
            await asyncio.gather(self._leaving, return_exceptions=True)
        if self._groupless_task is not None:
            self._groupless_task.cancel()
            await asyncio.gather(self._groupless_task, return_exceptions=True)

    async def _assign_every_partition(self, subscription: Subscription) -> None:
        """Without a group: every partition of the subscribed topics, looked at again every metadata refresh."""
        held: Optional[Set[TopicPartition]] = None
        while self._subscription is subscription:
            try:
                wanted: Set[TopicPartition] = set()
                for topic in sorted(subscription.topics):
                    for p in await self.client.wait_for_topic(topic, self._timeout):
                        wanted.add(TopicPartition(topic, p))
            except errors.KafkaError as exc:
                log.debug("no partitions for the subscription yet: %s", exc)
                wanted = held or set()
            if wanted != held:
                await call_hook(subscription.listener, "on_partitions_revoked", held or set(), None)
                self._set_assignment(sorted(wanted))
                held = wanted
                await call_hook(subscription.listener, "on_partitions_assigned", wanted, None)
            await asyncio.sleep(self._group_settings.metadata_max_age_ms / 1000.0)

    def pause(self, *partitions: TopicPartition) -> None:
        """Stop handing out and fetching records of ``partitions`` until :meth:`resume`."""
        for tp in partitions:
            self._assignment.state(tp).paused = True

    def resume(self, *partitions: TopicPartition) -> None:
        """Hand out and fetch records of ``partitions`` again."""
        for tp in partitions:
            self._assignment.state(tp).paused = False
        self._fetcher.wake()

    def paused(self) -> Set[TopicPartition]:
        """The paused partitions."""
        return {tp for tp, s in self._assignment.states.items() if s.paused}

    # -- records ------------------------------------------------------------------------------

    async def getone(self, *partitions: TopicPartition) -> ConsumerRecord:
        """The next record (of ``partitions``, or of any assigned partition), waiting as long as it takes."""
        while True:
            self._check_open()
            if await self._rebalanced(3600.0):
                out = self._fetcher.take(partitions, 1)
                for records in out.values():
                    return records[0]
                await self._fetcher.wait_for_records(partitions, 3600.0)

    async def getmany(self, *partitions: TopicPartition, timeout_ms: int = 0,
                      max_records: Optional[int] = None) -> Dict[TopicPartition, List[ConsumerRecord]]:
        """Records by partition: what is buffered, else what arrives within ``timeout_ms`` ({} if nothing).

        At most ``max_records`` (default ``max_poll_records``, unlimited when None).
        """
        self._check_open()
        limit = max_records if max_records is not None else self._max_poll_records
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            ready = await self._rebalanced(max(deadline - time.monotonic(), 0.0))
            out = self._fetcher.take(partitions, limit) if ready else {}
            left = deadline - time.monotonic()
            if out or left <= 0:
                return out
            await self._fetcher.wait_for_records(partitions, left)
            self._check_open()

    async def _rebalanced(self, timeout: float) -> bool:
        """Note the poll; wait up to ``timeout`` s for a rebalance under way to end (False: still under way)."""
        coordinator = self._coordinator
        if coordinator is None:
            return True
        coordinator.polled()
        return await coordinator.wait_stable(timeout)

    def __aiter__(self) -> "AIOKafkaConsumer":
        return self

    async def __anext__(self) -> ConsumerRecord:
        try:
            return await self.getone()
        except ConsumerStoppedError:
            raise StopAsyncIteration from None

    # -- positions ----------------------------------------------------------------------------

    def seek(self, partition: TopicPartition, offset: int) -> None:
        """Read ``partition`` from ``offset`` on."""
        if not isinstance(offset, int) or offset < 0:
            raise ValueError("Offset must be a positive integer")
        state = self._assignment.state(partition)
        state.position = offset
        state.reset = None
        self._fetcher.forget([partition])

    async def _seek_to(self, where: str, partitions: Iterable[TopicPartition]) -> bool:
        wanted = list(partitions) or list(self._assignment.states)
        for tp in wanted:
            if not isinstance(tp, TopicPartition):
                raise TypeError("partitions must be TopicPartition instances")
        for tp in wanted:
            self._assignment.state(tp)
        listed = await list_offsets(self.client, {tp: -2 if where == EARLIEST else -1 for tp in wanted},
                                    isolation_level=self._isolation, timeout=self._timeout)
        for tp, answer in listed.items():
            if tp in self._assignment.states:
                self.seek(tp, answer.offset)
        return True

    async def seek_to_beginning(self, *partitions: TopicPartition) -> bool:
        """Read ``partitions`` (all assigned ones by default) from the log start."""
        return await self._seek_to(EARLIEST, partitions)

    async def seek_to_end(self, *partitions: TopicPartition) -> bool:
        """Read ``partitions`` (all assigned ones by default) from the log end (only new records)."""
        return await self._seek_to(LATEST, partitions)

    async def seek_to_committed(self, *partitions: TopicPartition) -> Dict[TopicPartition, Optional[int]]:
        """Read ``partitions`` (all assigned) from the group's committed offsets; ``{tp: offset or None}``."""
        group = self._need_group()
        wanted = list(partitions) or list(self._assignment.states)
        for tp in wanted:
            self._assignment.state(tp)
        found = await group.fetch(wanted)
        out: Dict[TopicPartition, Optional[int]] = {}
        for tp, om in found.items():
            out[tp] = om.offset if om is not None else None
            if om is not None and tp in self._assignment.states:
                self.seek(tp, om.offset)
        return out

    async def position(self, partition: TopicPartition) -> int:
        """The offset of the next record to hand out of ``partition`` (looked up first if not known)."""
        self._check_open()
        return await self._fetcher.wait_for_position(partition)

    def highwater(self, partition: TopicPartition) -> Optional[int]:
        """The partition's high watermark in the last Fetch answer (None before one came)."""
        return self._assignment.state(partition).highwater

    def last_stable_offset(self, partition: TopicPartition) -> Optional[int]:
        """The partition's last stable offset in the last Fetch answer (None before one came)."""
        return self._assignment.state(partition).last_stable_offset

    async def _listed(self, timestamps: Dict[TopicPartition, int]) -> Dict[TopicPartition, Any]:
        return await list_offsets(self.client, timestamps, isolation_level=self._isolation, timeout=self._timeout)

    async def beginning_offsets(self, partitions: Iterable[TopicPartition]) -> Dict[TopicPartition, int]:
        """The first offset of each partition."""
        listed = await self._listed({tp: -2 for tp in partitions})
        return {tp: answer.offset for tp, answer in listed.items()}

    async def end_offsets(self, partitions: Iterable[TopicPartition]) -> Dict[TopicPartition, int]:
        """The offset after the last record of each partition (the last stable offset under read_committed)."""
        listed = await self._listed({tp: -1 for tp in partitions})
        return {tp: answer.offset for tp, answer in listed.items()}

    async def offsets_for_times(self, timestamps: Dict[TopicPartition, int]
                                ) -> Dict[TopicPartition, Optional[OffsetAndTimestamp]]:
        """The first offset whose record's timestamp is at or after the given one, per partition (None: none)."""
        for tp, ts in timestamps.items():
            if ts < 0:
                raise ValueError("The target time for partition {} is {}. The target time cannot be negative."
                                 .format(tp, ts))
        listed = await self._listed(dict(timestamps))
        return {tp: OffsetAndTimestamp(a.offset, a.timestamp) if a.offset >= 0 else None
                for tp, a in listed.items()}

    # -- commits ------------------------------------------------------------------------------

    def _need_group(self) -> GroupOffsets:
        if self._group is None:
            raise IllegalOperation("Requires group_id")
        return self._group

    async def commit(self, offsets: Optional[Dict[TopicPartition, Any]] = None) -> None:
        """Commit ``offsets`` (ints, ``(offset, metadata)`` or OffsetAndMetadata), or every position.

        The committed offset is that of the next record to read. Without
        ``offsets`` the positions of all assigned partitions are committed.
        """
        group = self._need_group()
        if offsets is None:
            if not self._assignment.states:
                raise errors.IllegalStateError("No partitions assigned")
            commit = {tp: OffsetAndMetadata(s.position, "") for tp, s in self._assignment.states.items()
                      if s.position is not None}
        else:
            commit = {}
            for tp, value in offsets.items():
                if tp not in self._assignment.states:
                    raise errors.IllegalStateError("Partition {} is not assigned".format(tp))
                commit[tp] = as_offset_and_metadata(value)
        await self._commit_as_member(group, commit)

    async def committed(self, partition: TopicPartition) -> Optional[int]:
        """The group's committed offset of ``partition`` (None if there is none)."""
        found = await self._need_group().fetch([partition])
        om = found.get(partition)
        return om.offset if om is not None else None

    async def _commit_positions(self) -> None:
        """Commit the positions that moved since they were last committed."""
        group = self._group
        if group is None:
            return
        moved = {tp: OffsetAndMetadata(s.position, "") for tp, s in self._assignment.states.items()
                 if s.position is not None and self._committed_at.get(tp) != s.position}
        if moved:
            await self._commit_as_member(group, moved)

    async def _commit_as_member(self, group: GroupOffsets, offsets: Dict[TopicPartition, OffsetAndMetadata]) -> None:
        """Commit with this member's generation and id (-1 and "" without membership)."""
        coordinator = self._coordinator
        generation, member_id = coordinator.member.identity() if coordinator is not None else (-1, "")
        try:
            await group.commit(offsets, generation, member_id)
        except (errors.IllegalGenerationError, errors.UnknownMemberIdError, errors.RebalanceInProgressError,
                errors.FencedInstanceIdError) as exc:
            if coordinator is not None:
                coordinator.request_rejoin()
            raise errors.CommitFailedError("the group rebalanced before the commit (%s)" % type(exc).__name__
                                           ) from exc
        for tp, om in offsets.items():
            self._committed_at[tp] = om.offset

    async def _commit_before_rebalance(self) -> None:
        """Auto-commit's part in a rebalance: the positions, before the partitions are given up."""
        if self._auto_commit_interval is not None:
            await self._commit_positions()

    async def _auto_commit(self) -> None:
        interval = self._auto_commit_interval
        assert interval is not None
        while True:
            await asyncio.sleep(interval)
            try:
                await self._commit_positions()
            except errors.KafkaError as exc:
                log.warning("auto-commit failed: %s", exc)

    # -- metadata -----------------------------------------------------------------------------

    async def topics(self) -> Set[str]:
        """The names of every topic in the cluster."""
        self._check_open()
        return await self.client.cluster_topics()

    def partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """The partition numbers of ``topic`` known now (None if it is not known)."""
        return self.client.cluster.partitions_for_topic(topic) or None


__all__ = ["AIOKafkaConsumer"]
