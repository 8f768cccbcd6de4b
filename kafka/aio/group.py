"""Group membership of the asyncio consumer: the tasks that keep it in its group.

:class:`GroupCoordinator` runs two tasks beside the fetcher:

* the *group task* joins (JoinGroup, then SyncGroup; the leader assigns
  with the configured assignor of :mod:`kafka.group.assignors`), hands the
  partitions to the consumer, and waits until a rebalance is due: a
  heartbeat said so, the subscription changed, a pattern matches other
  topics or a subscribed topic's partition count changed (both looked at
  every ``metadata_max_age_ms``). Before each rejoin it commits the
  positions (``commit_positions``, the consumer's auto-commit), calls the
  listener's ``on_partitions_revoked`` and drops the partitions; after it,
  ``on_partitions_assigned`` (aiokafka's order);
* the *heartbeat task* sends a Heartbeat every ``heartbeat_interval_ms``
  while the member is in a generation, whatever the application does,
  and leaves the group when ``getmany``/``getone`` were not called for
  ``max_poll_interval_ms`` (joining again at the next call).

Only eager assignors are used (a member gives up all its partitions at
each rebalance), as in aiokafka.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable, Dict, List, NamedTuple, Optional, Set

from kafka import errors
from kafka.aio.client import AsyncClient
from kafka.aio.group_listener import call_hook
from kafka.aio.group_member import COORDINATOR_MOVED, GroupMember
from kafka.aio.group_subscription import Subscription
from kafka.group.assignors import lookup_all
from kafka.group.members import read_subscriptions
from kafka.group.payloads import assignment_payload, subscription_payload
from kafka.group.protocols import EAGER
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

#: Errors after which the member joins again at once.
_REJOIN_NOW = (errors.MemberIdRequiredError, errors.RebalanceInProgressError, errors.UnknownMemberIdError,
               errors.IllegalGenerationError)


class GroupSettings(NamedTuple):
    """The consumer's group-membership keywords (aiokafka's names and meanings)."""

    group_instance_id: Optional[str]
    session_timeout_ms: int
    rebalance_timeout_ms: int
    heartbeat_interval_ms: int
    max_poll_interval_ms: int
    metadata_max_age_ms: int
    retry_backoff_ms: int


def eager_assignors(strategy: Any) -> List[Any]:
    """Assignor objects for ``partition_assignment_strategy``; cooperative ones are refused."""
    assignors = lookup_all(strategy)
    for assignor in assignors:
        if getattr(assignor, "protocol", EAGER) != EAGER:
            raise errors.KafkaConfigurationError(
                "kafka.aio.AIOKafkaConsumer rebalances eagerly; %r is cooperative (use range, roundrobin or sticky)"
                % assignor.name)
    return assignors


class GroupCoordinator:
    """Keeps one consumer in its group; see the module's description.

    :param client: metadata of the subscribed topics.
    :param member: the membership requests.
    :param subscription: what the consumer subscribed to (replaced through :meth:`resubscribe`).
    :param assignors: from :func:`eager_assignors`.
    :param set_assignment: hands a list of partitions to the consumer (an empty one drops them all).
    :param commit_positions: commits the positions before partitions are given up (a no-op without auto-commit).
    """

    def __init__(self, client: AsyncClient, member: GroupMember, subscription: Subscription, assignors: List[Any], *,
                 set_assignment: Callable[[List[TopicPartition]], None],
                 commit_positions: Callable[[], Awaitable[None]], heartbeat_interval_ms: int,
                 session_timeout_ms: int, max_poll_interval_ms: int, metadata_max_age_ms: int,
                 retry_backoff_ms: int) -> None:
        self.client = client
        self.member = member
        self.subscription = subscription
        self.assignors = assignors
        self._set_assignment = set_assignment
        self._commit_positions = commit_positions
        self.heartbeat_interval = heartbeat_interval_ms / 1000.0
        self.session_timeout = session_timeout_ms / 1000.0
        self.max_poll_interval = max_poll_interval_ms / 1000.0
        self.metadata_max_age = metadata_max_age_ms / 1000.0
        self.backoff = retry_backoff_ms / 1000.0
        #: The partitions of the current generation (None before the first assignment).
        self.assigned: Optional[Set[TopicPartition]] = None
        #: True from the start of a rebalance until its partitions are handed out.
        self.rebalancing = True
        self._stable = asyncio.Event()
        self._rejoin = asyncio.Event()
        self._polled = asyncio.Event()
        self._polled.set()
        self.last_poll = time.monotonic()
        self._partition_counts: Dict[str, int] = {}
        self._unreadable: Set[str] = set()
        self._task: Optional["asyncio.Task[None]"] = None
        self._heartbeat: Optional["asyncio.Task[None]"] = None

    # -- what the consumer calls --------------------------------------------------------------

    def start(self) -> None:
        """Start the group task (it joins at once)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    def polled(self) -> None:
        """The application asked for records (keeps it within ``max_poll_interval_ms``)."""
        self.last_poll = time.monotonic()
        self._polled.set()

    def request_rejoin(self) -> None:
        """Rebalance soon (the subscription changed, a commit found the generation gone...)."""
        self._rejoin.set()

    def resubscribe(self, subscription: Subscription) -> None:
        """Replace the subscription and rebalance."""
        self.subscription = subscription
        self.request_rejoin()

    async def wait_stable(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the rebalance under way to end; whether it did.

        Raises what stopped the group task, if it failed.
        """
        if not self.rebalancing:
            return True
        task = self._task
        if task is not None and task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
        stable = asyncio.ensure_future(self._stable.wait())
        try:
            waiting = [stable] + ([task] if task is not None else [])
            await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stable.cancel()
        if task is not None and task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
        return not self.rebalancing

    async def close(self, commit: bool = True) -> None:
        """Stop both tasks; commit the positions (``commit``, with auto-commit) and leave the group."""
        for task in (self._heartbeat, self._task):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in (self._heartbeat, self._task) if t is not None), return_exceptions=True)
        self._task = self._heartbeat = None
        if commit and self.assigned and not self.rebalancing:
            try:
                await self._commit_positions()
            except errors.KafkaError as exc:
                log.warning("group %s: committing before leaving failed: %s", self.member.group_id, exc)
        await self.member.leave()
        self.member.close()

    # -- the group task -----------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            while True:
                await self._run_rebalance()
                await self._until_rebalance_due()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("group %s: the group task failed", self.member.group_id)
            raise

    async def _until_rebalance_due(self) -> None:
        """Return when a rebalance is due (checking the metadata every ``metadata_max_age_ms``)."""
        while True:
            try:
                await asyncio.wait_for(self._rejoin.wait(), self.metadata_max_age)
                return
            except asyncio.TimeoutError:
                pass
            try:
                if await self._metadata_changed():
                    return
            except errors.KafkaError as exc:
                log.debug("group %s: metadata refresh failed: %s", self.member.group_id, exc)

    async def _metadata_changed(self) -> bool:
        """Whether the pattern matches other topics or a subscribed topic's partition count changed."""
        sub = self.subscription
        if sub.pattern is not None and sub.match_cluster(await self.client.cluster_topics()):
            log.info("group %s: the pattern now matches %s", self.member.group_id, sorted(sub.topics))
            return True
        for topic in sub.topics:
            self.client.add_topic(topic)
        await self.client.refresh_metadata()
        return self._counts() != self._partition_counts

    def _counts(self) -> Dict[str, int]:
        return {t: len(self.client.cluster.partitions_for_topic(t) or ()) for t in self.subscription.topics}

    async def _run_rebalance(self) -> None:
        """Give up the partitions held, join the next generation and take its partitions."""
        self.rebalancing = True
        self._stable.clear()
        self._rejoin.clear()
        await self._stop_heartbeat()
        previous = self.assigned
        if previous:
            try:
                await self._commit_positions()
            except errors.KafkaError as exc:
                log.error("group %s: committing before the rebalance failed: %s", self.member.group_id, exc)
        await call_hook(self.subscription.listener, "on_partitions_revoked", previous or set(),
                        self.member.group_id)
        self.assigned = set()
        self._set_assignment([])
        if not self._polled.is_set():  # max_poll_interval_ms passed: out of the group until the next poll
            await self.member.leave()
            await self._polled.wait()
        partitions = await self._join_and_sync()
        sub = self.subscription
        wanted = [tp for tp in partitions if sub.matches(tp.topic)]
        if len(wanted) != len(partitions):
            self._rejoin.set()  # the leader used a subscription this member has since changed
        assignor = next((a for a in self.assignors if a.name == self.member.protocol), None)
        if assignor is not None:
            assignor.on_assignment(partitions, self.member.generation_id)
        for tp in wanted:
            self.client.add_topic(tp.topic)
        self._partition_counts = self._counts()
        self.assigned = set(wanted)
        self._set_assignment(wanted)
        log.info("group %s: generation %d, member %s, assigned %s", self.member.group_id,
                 self.member.generation_id, self.member.member_id, sorted(wanted))
        await call_hook(sub.listener, "on_partitions_assigned", set(wanted), self.member.group_id)
        self._heartbeat = asyncio.ensure_future(self._heartbeats())
        self.rebalancing = False
        self._stable.set()

    async def _join_and_sync(self) -> List[TopicPartition]:
        while True:
            sub = self.subscription
            if sub.pattern is not None:
                try:
                    sub.match_cluster(await self.client.cluster_topics())
                except errors.KafkaError as exc:
                    log.debug("group %s: listing topics failed: %s", self.member.group_id, exc)
            try:
                protocols = [(a.name, subscription_payload(a, sub.topics, ())) for a in self.assignors]
                joined = await self.member.join(protocols)
                assignments: Dict[str, bytes] = {}
                if joined.leader:
                    assignments = await self._assign(joined)
                return await self.member.sync(assignments)
            except _REJOIN_NOW as exc:
                log.debug("group %s: joining again after %s", self.member.group_id, type(exc).__name__)
            except (errors.KafkaError, OSError) as exc:
                if not (isinstance(exc, COORDINATOR_MOVED) or getattr(exc, "retriable", False)
                        or isinstance(exc, (errors.ProtocolError, OSError))):
                    raise
                log.info("group %s: joining failed (%s); trying again", self.member.group_id, exc)
                await asyncio.sleep(self.backoff)

    async def _assign(self, joined: Any) -> Dict[str, bytes]:
        """The leader's part: every member's assignment bytes."""
        group = read_subscriptions(self.member.group_id, joined.members, self._unreadable)
        topics: Set[str] = set()
        for sub in group.members.values():
            topics.update(sub.topics)
        for topic in topics:
            self.client.add_topic(topic)
        await self.client.refresh_metadata()
        assignor = next((a for a in self.assignors if a.name == joined.protocol), None)
        if assignor is None:
            raise errors.IllegalStateError("the coordinator chose assignor %r, which this consumer does not have"
                                           % joined.protocol)
        result = assignor.assign(self.client.cluster, group.members)
        log.info("group %s: leader of generation %d assigned with %s: %s", self.member.group_id,
                 joined.generation_id, assignor.name, {m: len(ps) for m, ps in result.items()})
        return {m: assignment_payload(result.get(m, ()) if m in group.members else (), group.version)
                for m in group.member_ids}

    # -- the heartbeat task -------------------------------------------------------------------

    async def _stop_heartbeat(self) -> None:
        task, self._heartbeat = self._heartbeat, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _heartbeats(self) -> None:
        last_ok = time.monotonic()
        while not self._rejoin.is_set():
            await asyncio.sleep(self.heartbeat_interval)
            if time.monotonic() - self.last_poll > self.max_poll_interval:
                log.warning("group %s: no getmany/getone for %.0f s (max_poll_interval_ms); leaving the group "
                            "until the next one", self.member.group_id, self.max_poll_interval)
                self._polled.clear()
                self._rejoin.set()
                return
            try:
                await self.member.heartbeat()
                last_ok = time.monotonic()
            except _REJOIN_NOW as exc:
                if isinstance(exc, (errors.UnknownMemberIdError, errors.IllegalGenerationError)):
                    self.member.reset()
                log.info("group %s: heartbeat answered %s; rejoining", self.member.group_id, type(exc).__name__)
                self._rejoin.set()
                return
            except (errors.KafkaError, OSError) as exc:
                log.info("group %s: heartbeat failed: %s", self.member.group_id, exc)
                if time.monotonic() - last_ok > self.session_timeout:
                    self.member.reset()
                    self._rejoin.set()
                    return
                await asyncio.sleep(self.backoff)


__all__ = ["GroupCoordinator", "GroupSettings", "eager_assignors"]
