"""kafka-python 3's replica placement methods: log directories, leader elections, reassignments."""

from __future__ import annotations

import enum
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, Union

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.kafka_python.shapes import plain
from kafka.protocol.apis import (ALTER_PARTITION_REASSIGNMENTS, ALTER_REPLICA_LOG_DIRS, DESCRIBE_LOG_DIRS,
                                 ELECT_LEADERS)
from kafka.structs import TopicPartition, TopicPartitionReplica

#: ``{topic: [partitions]}``, ``[topics]`` (all their partitions) or None (every partition).
TopicPartitionsArg = Union[None, Mapping[str, Sequence[int]], Sequence[str]]


class ElectionType(enum.IntEnum):
    """Which replica a leader election picks."""

    #: the first replica of the assignment, when it is in sync
    PREFERRED = 0
    #: any live replica, even one out of sync (may lose records)
    UNCLEAN = 1


def _outcome(code: int) -> Type[errors.BrokerResponseError]:
    """The error class for ``code``; :class:`~kafka.errors.NoError` for 0."""
    return errors.for_code(code) or errors.NoError


class KafkaPythonReplicas(AdminBase):
    """Where replicas live and which of them leads."""

    def _partitions_of(self, topic_partitions: TopicPartitionsArg) -> Optional[List[Tuple[str, List[int]]]]:
        """``[(topic, [partitions])]`` for kafka-python's topic_partitions argument; None for every partition."""
        if topic_partitions is None:
            return None
        if isinstance(topic_partitions, Mapping):
            return [(topic, [int(p) for p in parts]) for topic, parts in topic_partitions.items()]
        if isinstance(topic_partitions, str):
            raise errors.IllegalArgumentError("topic_partitions must be a dict, a list of topics or None, "
                                              "not the string %r" % topic_partitions)
        found = []
        response = self._metadata(list(topic_partitions))
        for topic in response.topics:
            if topic.error_code:
                raise broker_error(topic.error_code, None, "topic %s" % topic.name)
            found.append((topic.name, sorted(p.partition_index for p in topic.partitions)))
        return found

    def describe_log_dirs(self, topic_partitions: TopicPartitionsArg = None,
                          brokers: Optional[Sequence[int]] = None) -> List[Dict[str, Any]]:
        """Each broker's log directories and the replicas in them.

        ``topic_partitions``: ``{topic: [partitions]}``, a list of topics
        (all their partitions) or None (every replica). ``brokers``: the
        node ids to ask (default: every broker). Returns ``[{'broker': id,
        'log_dirs': [{'error_code', 'log_dir', 'topics': [{'name',
        'partitions': [{'partition_index', 'partition_size', 'offset_lag',
        'is_future_key'}]}], 'total_bytes', 'usable_bytes', 'is_cordoned'}]}]``.
        """
        R = DESCRIBE_LOG_DIRS.Request
        wanted = self._partitions_of(topic_partitions)
        topics = None if wanted is None else [R.DescribableLogDirTopic(topic=t, partitions=ps) for t, ps in wanted]
        out = []
        for node in self._broker_ids(brokers):
            response = self._send_to_node(node, DESCRIBE_LOG_DIRS, lambda v: R(topics=topics), self._deadline())
            if response.error_code:
                raise broker_error(response.error_code, None, "describing the log dirs of broker %d" % node)
            out.append({"broker": node, "log_dirs": plain(response.results)})
        return out

    def alter_replica_log_dirs(self, replica_assignments: Mapping[Any, str]
                               ) -> Dict[TopicPartitionReplica, Type[errors.BrokerResponseError]]:
        """Move replicas into other log directories of the brokers hosting them.

        ``replica_assignments``: ``{TopicPartitionReplica(topic, partition,
        broker_id) or (topic, partition, broker_id): absolute log dir}``.
        Returns ``{TopicPartitionReplica: error class}``, with
        :class:`~kafka.errors.NoError` for each replica moved.
        """
        plan: Dict[int, Dict[str, Dict[str, List[int]]]] = {}
        for key, path in replica_assignments.items():
            replica = key if isinstance(key, TopicPartitionReplica) else TopicPartitionReplica(*key)
            if not isinstance(path, str) or not path:
                raise errors.IllegalArgumentError("the log dir of %s must be a non-empty path" % (replica,))
            plan.setdefault(replica.broker_id, {}).setdefault(path, {}).setdefault(
                replica.topic, []).append(replica.partition)
        R = ALTER_REPLICA_LOG_DIRS.Request
        out: Dict[TopicPartitionReplica, Type[errors.BrokerResponseError]] = {}
        for node, dirs in plan.items():
            request = R(dirs=[R.AlterReplicaLogDir(path=path, topics=[
                R.AlterReplicaLogDir.AlterReplicaLogDirTopic(name=t, partitions=ps) for t, ps in topics.items()])
                for path, topics in dirs.items()])
            response = self._send_to_node(node, ALTER_REPLICA_LOG_DIRS, lambda v: request, self._deadline())
            for topic in response.results:
                for partition in topic.partitions:
                    replica = TopicPartitionReplica(topic.topic_name, partition.partition_index, node)
                    out[replica] = _outcome(partition.error_code)
        return out

    def elect_leaders(self, election_type: Union[int, ElectionType], topic_partitions: TopicPartitionsArg = None,
                      timeout_ms: Optional[float] = None, raise_errors: bool = True) -> Any:
        """Elect partition leaders: ``election_type`` 0 (preferred replica) or 1 (unclean).

        ``topic_partitions``: ``{topic: [partitions]}``, a list of topics
        (all their partitions) or None (every partition). Returns the
        ElectLeaders response (``replica_election_results``: per topic the
        ``partition_result`` list of ``partition_id``, ``error_code``,
        ``error_message``). With ``raise_errors`` (the default) the first
        error other than :class:`~kafka.errors.ElectionNotNeededError` is raised.
        """
        try:
            kind = ElectionType(election_type)
        except ValueError:
            raise errors.IllegalArgumentError("election_type must be 0 (preferred) or 1 (unclean), not %r"
                                              % (election_type,)) from None
        wanted = self._partitions_of(topic_partitions)
        timeout = int(timeout_ms or self.config["request_timeout_ms"])
        R = ELECT_LEADERS.Request

        def build(version: int) -> Any:
            if version == 0 and kind is not ElectionType.PREFERRED:
                raise errors.UnsupportedVersionError("unclean elections need ElectLeaders v1 (Kafka 2.4+)")
            topics = None if wanted is None else [R.TopicPartitions(topic=t, partitions=ps) for t, ps in wanted]
            return R(election_type=int(kind), topic_partitions=topics, timeout_ms=timeout)

        response = self._send_to_controller(ELECT_LEADERS, build, lambda r: r.error_code,
                                            self._deadline(timeout + self.config["request_timeout_ms"]))
        if raise_errors:
            if response.error_code:
                raise broker_error(response.error_code, None, "elect_leaders")
            for topic in response.replica_election_results:
                for partition in topic.partition_result:
                    if partition.error_code and partition.error_code != errors.ElectionNotNeededError.errno:
                        raise broker_error(partition.error_code, partition.error_message,
                                           "electing the leader of %s-%d" % (topic.topic, partition.partition_id))
        return response

    def alter_partition_reassignments(self, reassignments: Mapping[TopicPartition, Optional[Sequence[int]]],
                                      timeout_ms: Optional[float] = None
                                      ) -> Dict[TopicPartition, Optional[Type[errors.BrokerResponseError]]]:
        """Start moving partitions to other brokers, or cancel a move.

        ``reassignments``: ``{TopicPartition: [broker ids] or None}`` (None
        cancels the reassignment in progress). Returns ``{TopicPartition:
        None or error class}`` for each partition the controller answered
        about; a top-level error is raised.
        """
        by_topic: Dict[str, List[Tuple[int, Optional[List[int]]]]] = {}
        for tp, replicas in reassignments.items():
            if replicas is not None:
                replicas = list(replicas)
                if not replicas or not all(isinstance(r, int) and not isinstance(r, bool) for r in replicas):
                    raise errors.IllegalArgumentError("the replicas of %s must be a non-empty list of broker ids "
                                                      "(None cancels a reassignment)" % (tp,))
            by_topic.setdefault(tp.topic, []).append((tp.partition, replicas))
        timeout = int(timeout_ms or self.config["request_timeout_ms"])
        R = ALTER_PARTITION_REASSIGNMENTS.Request
        Partition = R.ReassignableTopic.ReassignablePartition
        topics = [R.ReassignableTopic(name=t, partitions=[Partition(partition_index=p, replicas=rs) for p, rs in parts])
                  for t, parts in by_topic.items()]
        response = self._send_to_controller(ALTER_PARTITION_REASSIGNMENTS,
                                            lambda v: R(timeout_ms=timeout, topics=topics), lambda r: r.error_code,
                                            self._deadline(timeout + self.config["request_timeout_ms"]))
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "alter_partition_reassignments")
        return {TopicPartition(topic.name, p.partition_index): errors.for_code(p.error_code)
                for topic in response.responses for p in topic.partitions}


__all__ = ["KafkaPythonReplicas", "ElectionType"]
