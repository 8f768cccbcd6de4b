"""A snapshot of cluster metadata, updated from Metadata responses.

Pure data: no sockets, no threads, and no clock of its own — every method
that depends on time takes ``now`` (seconds, monotonic) from the caller.

The snapshot knows brokers, topics (with ids), partitions with their leaders,
leader epochs and replicas, the controller, and group/transaction
coordinators found with FindCoordinator. It decides when a refresh is due:
after ``metadata_max_age_ms``, when someone asked for one (an
invalid-metadata error, an unknown topic), and with back-off after a failed
attempt.
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from kafka import errors
from kafka.peer_text import shorten
from kafka.structs import BrokerMetadata, PartitionMetadata, TopicPartition

log = logging.getLogger(__name__)

COORDINATOR_GROUP = 0
COORDINATOR_TRANSACTION = 1

#: Longest host name taken from a broker (DNS names end at 253 characters).
MAX_HOST_LENGTH = 255


def _usable_host(host: Any) -> bool:
    return isinstance(host, str) and 0 < len(host) <= MAX_HOST_LENGTH


class ClusterMetadata:
    """Brokers, topics, partitions, leaders and coordinators of one cluster.

    :param bootstrap: ``(host, port)`` pairs to use until the first Metadata
        response names the real brokers (their node ids are negative).
    :param metadata_max_age_ms: refresh at least this often.
    :param retry_backoff_ms: wait this long after a failed refresh.
    """

    def __init__(self, bootstrap: Iterable[Tuple[str, int]] = (), metadata_max_age_ms: int = 300000,
                 retry_backoff_ms: int = 100) -> None:
        self.metadata_max_age = metadata_max_age_ms / 1000.0
        self.retry_backoff = retry_backoff_ms / 1000.0
        self._lock = threading.RLock()
        self._bootstrap = {-(i + 1): BrokerMetadata(-(i + 1), host, port, None)
                           for i, (host, port) in enumerate(bootstrap)}
        self._brokers: Dict[int, BrokerMetadata] = {}
        self._partitions: Dict[str, Dict[int, PartitionMetadata]] = {}
        self._topic_ids: Dict[str, uuid.UUID] = {}
        self._topic_errors: Dict[str, int] = {}
        self._internal: Set[str] = set()
        self._coordinators: Dict[Tuple[int, str], int] = {}
        self.cluster_id: Optional[str] = None
        self.controller: Optional[int] = None
        self._last_refresh = float("-inf")
        self._last_attempt = float("-inf")
        self._need_update = True
        self.version = 0  # incremented by every successful update
        self._listeners: List[Callable[["ClusterMetadata"], None]] = []
        self._reported: Set[str] = set()

    def __repr__(self) -> str:
        return "<ClusterMetadata brokers=%d topics=%d version=%d>" % (
            len(self._brokers), len(self._partitions), self.version)

    # -- brokers -------------------------------------------------------------------

    def brokers(self) -> Set[BrokerMetadata]:
        """Known brokers; the bootstrap addresses until the first update."""
        with self._lock:
            return set(self._brokers.values() or self._bootstrap.values())

    def broker_metadata(self, node_id: int) -> Optional[BrokerMetadata]:
        """The broker with ``node_id`` (bootstrap pseudo ids included)."""
        with self._lock:
            return self._brokers.get(node_id) or self._bootstrap.get(node_id)

    # -- topics and partitions ------------------------------------------------------

    def topics(self, exclude_internal_topics: bool = True) -> Set[str]:
        """Names of the topics in the last update."""
        with self._lock:
            names = set(self._partitions)
            return names - self._internal if exclude_internal_topics else names

    def topic_id(self, topic: str) -> Optional[uuid.UUID]:
        """The topic's id, if the broker reported one."""
        return self._topic_ids.get(topic)

    def topic_error(self, topic: str) -> int:
        """The error code the last update gave for ``topic`` (0 if none)."""
        return self._topic_errors.get(topic, 0)

    def partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """Partition numbers of ``topic``, or None if the topic is unknown."""
        with self._lock:
            parts = self._partitions.get(topic)
            return None if parts is None else set(parts)

    def available_partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """Partitions of ``topic`` that currently have a leader."""
        with self._lock:
            parts = self._partitions.get(topic)
            if parts is None:
                return None
            return {p for p, meta in parts.items() if meta.leader >= 0}

    def partition_metadata(self, tp: TopicPartition) -> Optional[PartitionMetadata]:
        """Everything known about one partition."""
        parts = self._partitions.get(tp[0])
        return None if parts is None else parts.get(tp[1])

    def leader_for_partition(self, tp: TopicPartition) -> Optional[int]:
        """The leader's node id; -1 if the partition has no leader; None if unknown."""
        meta = self.partition_metadata(tp)
        return None if meta is None else meta.leader

    def leader_epoch_for_partition(self, tp: TopicPartition) -> int:
        """The leader epoch last reported for the partition, or -1."""
        meta = self.partition_metadata(tp)
        return -1 if meta is None else meta.leader_epoch

    def partitions_for_broker(self, node_id: int) -> Set[TopicPartition]:
        """The partitions ``node_id`` leads."""
        with self._lock:
            return {TopicPartition(t, p) for t, parts in self._partitions.items()
                    for p, meta in parts.items() if meta.leader == node_id}

    # -- coordinators --------------------------------------------------------------

    def coordinator_for(self, key_type: int, key: str) -> Optional[int]:
        """Node id of the group or transaction coordinator last found for ``key``."""
        return self._coordinators.get((key_type, key))

    def coordinator_for_group(self, group: str) -> Optional[int]:
        """Node id of ``group``'s coordinator, if known."""
        return self.coordinator_for(COORDINATOR_GROUP, group)

    def add_coordinator(self, key_type: int, key: str, node_id: int, host: str, port: int,
                        rack: Optional[str] = None) -> None:
        """Record a coordinator found with FindCoordinator.

        Raises :class:`kafka.errors.ProtocolError` when the host name is
        empty or longer than any real host name.
        """
        if not _usable_host(host):
            raise errors.ProtocolError("the coordinator of %r (node %s) has an unusable host name %r"
                                       % (shorten(key), node_id, shorten(host)))
        with self._lock:
            self._coordinators[(key_type, key)] = node_id
            if node_id not in self._brokers:
                self._brokers[node_id] = BrokerMetadata(node_id, host, port, rack)

    def forget_coordinator(self, key_type: int, key: str) -> None:
        """Drop a coordinator after NOT_COORDINATOR or a lost connection."""
        with self._lock:
            self._coordinators.pop((key_type, key), None)

    # -- refresh policy ------------------------------------------------------------

    def request_update(self) -> None:
        """Ask for a refresh as soon as the back-off allows."""
        self._need_update = True

    @property
    def need_update(self) -> bool:
        """Whether a refresh was requested."""
        return self._need_update

    @property
    def last_refresh(self) -> float:
        """Monotonic time of the last successful refresh (``-inf`` before the first)."""
        return self._last_refresh

    def ttl(self, now: float) -> float:
        """Seconds until a refresh is due (0 if due now)."""
        backoff_left = self._last_attempt + self.retry_backoff - now
        if self._need_update:
            return max(backoff_left, 0.0)
        return max(self._last_refresh + self.metadata_max_age - now, backoff_left, 0.0)

    def attempt_started(self, now: float) -> None:
        """Note that a refresh request was sent at ``now``."""
        self._last_attempt = now

    def failed_update(self, exception: BaseException, now: float) -> None:
        """Note a failed refresh: try again after the back-off."""
        self._last_attempt = now
        self._need_update = True

    def add_listener(self, listener: Callable[["ClusterMetadata"], None]) -> None:
        """Call ``listener(self)`` after every successful update."""
        self._listeners.append(listener)

    # -- updates -------------------------------------------------------------------

    def update_metadata(self, response: Any, now: float, full: bool = True, keep: Iterable[str] = ()) -> None:
        """Take in a Metadata response (any version).

        With ``full`` the response covers every topic of interest: topics it
        does not mention are forgotten, except those in ``keep`` (tracked
        after the request was sent). Partition or topic errors that mean
        stale metadata ask for another refresh.
        """
        brokers = {}
        for b in response.brokers or ():
            if not _usable_host(b.host):
                self._report("broker %s" % b.node_id, "has an unusable host name %r" % shorten(b.host))
                continue
            brokers[b.node_id] = BrokerMetadata(b.node_id, b.host, b.port, getattr(b, "rack", None))
        partitions: Dict[str, Dict[int, PartitionMetadata]] = {}
        topic_ids: Dict[str, uuid.UUID] = {}
        topic_errors: Dict[str, int] = {}
        internal: Set[str] = set()
        need_again = False
        for topic in response.topics or ():
            name = topic.name
            if name is None:
                continue
            topic_errors[name] = topic.error_code
            if topic.error_code:
                cls = errors.for_code(topic.error_code)
                if cls is not None and cls.invalid_metadata:
                    need_again = True
                if topic.error_code != errors.LeaderNotAvailableError.errno:
                    continue
            if getattr(topic, "is_internal", False):
                internal.add(name)
            bad = _bad_partition_ids(topic.partitions or ())
            if bad:
                # Partitions numbered this way cannot be written to or read
                # from, and keeping only the others would change the count
                # keyed records are spread over: the topic keeps what the
                # previous update said of it (if anything) until a better one.
                self._report("topic %r" % shorten(name), "reported with partition ids %s" % shorten(bad))
                need_again = True
                previous = self._partitions.get(name)
                if previous is not None:
                    partitions[name] = previous
                    if name in self._topic_ids:
                        topic_ids[name] = self._topic_ids[name]
                continue
            tid = getattr(topic, "topic_id", None)
            if tid is not None and tid.int:
                topic_ids[name] = tid
            parts = {}
            for p in topic.partitions or ():
                parts[p.partition_index] = PartitionMetadata(
                    name, p.partition_index, p.leader_id, getattr(p, "leader_epoch", -1),
                    tuple(p.replica_nodes or ()), tuple(p.isr_nodes or ()),
                    tuple(getattr(p, "offline_replicas", None) or ()), p.error_code)
                if p.error_code or p.leader_id < 0:
                    need_again = True
            partitions[name] = parts
        if any(meta.leader >= 0 and meta.leader not in brokers
               for parts in partitions.values() for meta in parts.values()):
            need_again = True  # a leader the response does not list as a broker
        with self._lock:
            if brokers:
                # Coordinators found earlier stay reachable even if this
                # response did not list them.
                for (kt, key), node in self._coordinators.items():
                    if node not in brokers and node in self._brokers:
                        brokers[node] = self._brokers[node]
                self._brokers = brokers
            if full:
                for topic in keep:
                    if topic not in partitions and topic in self._partitions:
                        partitions[topic] = self._partitions[topic]
                        if topic in self._topic_ids:
                            topic_ids[topic] = self._topic_ids[topic]
                self._partitions = partitions
                self._topic_ids = topic_ids
                self._topic_errors = topic_errors
                self._internal = internal
            else:
                self._partitions.update(partitions)
                self._topic_ids.update(topic_ids)
                self._topic_errors.update(topic_errors)
                self._internal |= internal
            self.cluster_id = getattr(response, "cluster_id", None)
            controller = getattr(response, "controller_id", -1)
            self.controller = controller if controller is not None and controller >= 0 else None
            self._last_refresh = self._last_attempt = now
            self._need_update = need_again
            self.version += 1
            listeners = list(self._listeners)
        for listener in listeners:
            listener(self)

    def _report(self, what: str, problem: str) -> None:
        """Warn about invalid metadata once per subject, then only at debug level."""
        with self._lock:
            first = what not in self._reported
            self._reported.add(what)
        log.log(logging.WARNING if first else logging.DEBUG, "Metadata: %s %s; ignoring it", what, problem)


def _bad_partition_ids(partitions: Iterable[Any]) -> List[int]:
    """Partition ids that are negative or repeated."""
    seen: Set[int] = set()
    bad = []
    for p in partitions:
        if p.partition_index < 0 or p.partition_index in seen:
            bad.append(p.partition_index)
        seen.add(p.partition_index)
    return bad
