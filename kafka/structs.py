"""Small immutable value types shared by the client, producer, consumer and admin."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple


class TopicPartition(NamedTuple):
    """A topic name and a partition number."""

    topic: str
    partition: int


class TopicPartitionReplica(NamedTuple):
    """A partition's replica on one broker (kafka-python's name; used by log-dir operations)."""

    topic: str
    partition: int
    broker_id: int


class BrokerMetadata(NamedTuple):
    """A broker as cluster metadata describes it."""

    nodeId: int  # noqa: N815 - the name kafka-python users know
    host: str
    port: int
    rack: Optional[str] = None

    @property
    def node_id(self) -> int:
        """The broker's node id."""
        return self.nodeId


class PartitionMetadata(NamedTuple):
    """One partition: its leader, leader epoch, replicas and in-sync replicas."""

    topic: str
    partition: int
    leader: int
    leader_epoch: int
    replicas: Tuple[int, ...]
    isr: Tuple[int, ...]
    offline_replicas: Tuple[int, ...]
    error: int


class OffsetAndMetadata(NamedTuple):
    """An offset to commit, with optional metadata and the leader epoch it was read in."""

    offset: int
    metadata: Optional[str] = ""
    leader_epoch: int = -1


class OffsetAndTimestamp(NamedTuple):
    """The offset found for a timestamp, and that record's timestamp."""

    offset: int
    timestamp: int
    leader_epoch: int = -1


class MemberState:
    """Where a consumer stands in its group, as kafka-python 3 names it.

    :meth:`KafkaConsumer.group_metadata` reports one of these in its ``state``
    field, and the consumer's coordinator in its ``state`` attribute. The
    values are the strings kafka-python uses, so ``is`` and ``==`` comparisons
    written for it keep working.
    """

    #: Not a member: no group, not joined yet, or left.
    UNJOINED = "<unjoined>"
    #: Joining, waiting for an assignment, or reconciling a new one.
    REBALANCING = "<rebalancing>"
    #: A member of a completed generation (or epoch), heartbeating.
    STABLE = "<stable>"
