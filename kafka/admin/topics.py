"""Topic operations: create, delete, add partitions, list, describe; and the cluster description."""

from __future__ import annotations

import uuid
from typing import Any, Dict, Hashable, Iterable, List, Mapping, Optional, Sequence, Tuple

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.resources import NewPartitions, NewTopic, check_topic_name
from kafka.admin.results import ClusterDescription, TopicDescription, finish
from kafka.protocol.apis import CREATE_PARTITIONS, CREATE_TOPICS, DELETE_TOPICS, DESCRIBE_CLUSTER
from kafka.structs import BrokerMetadata, PartitionMetadata

_NULL_UUID = uuid.UUID(int=0)


def _timeout_arg(timeout_ms: Optional[float], default: float) -> int:
    if timeout_ms is None:
        return int(default)
    if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, (int, float)) or timeout_ms < 0:
        raise errors.IllegalArgumentError("timeout_ms must be a number >= 0, got %r" % (timeout_ms,))
    return int(timeout_ms)


def _unique(names: Iterable[str], what: str) -> List[str]:
    out: List[str] = []
    for name in names:
        check_topic_name(name)
        if name in out:
            raise errors.IllegalArgumentError("%s names topic %r twice" % (what, name))
        out.append(name)
    if not out:
        raise errors.IllegalArgumentError("%s needs at least one topic" % what)
    return out


def _topic_names(topics: Any, what: str) -> List[str]:
    if isinstance(topics, str):
        topics = [topics]
    if not isinstance(topics, Iterable):
        raise errors.IllegalArgumentError("%s takes a list of topic names, got %r" % (what, topics))
    return _unique(topics, what)


class TopicsMixin(AdminBase):
    """Topic administration (requests go to the controller) and cluster metadata."""

    def create_topics(self, new_topics: Sequence[NewTopic], timeout_ms: Optional[float] = None,
                      validate_only: bool = False, raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Create topics; return ``{name: None}`` when every one was created.

        ``timeout_ms`` is how long the controller may wait for the creation to
        complete (default: ``request_timeout_ms``). With ``validate_only`` the
        broker only checks the request. When some topics fail (e.g.
        :class:`~kafka.errors.TopicAlreadyExistsError`), raises
        :class:`~kafka.admin.AdminResultError` whose ``results`` map each name
        to ``None`` or its exception; with ``raise_error=False`` that mapping
        is returned instead.
        """
        results, _ = self._create_topics(new_topics, timeout_ms, validate_only)
        return finish("create_topics", results, raise_error)

    def _create_topics(self, new_topics: Sequence[NewTopic], timeout_ms: Optional[float],
                       validate_only: bool) -> Tuple[Dict[Any, Any], Dict[str, Any]]:
        """``({name: None or exception}, {name: the broker's answer for it})``."""
        if isinstance(new_topics, NewTopic):
            new_topics = [new_topics]
        topics = list(new_topics)
        for topic in topics:
            if not isinstance(topic, NewTopic):
                raise errors.IllegalArgumentError("create_topics takes NewTopic objects, got %r" % (topic,))
        _unique([t.name for t in topics], "create_topics")
        broker_timeout = _timeout_arg(timeout_ms, self.config["request_timeout_ms"])
        R = CREATE_TOPICS.Request
        T = R.CreatableTopic

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            creatable = []
            for _, topic in items:
                assignments = [T.CreatableReplicaAssignment(partition_index=p, broker_ids=ids)
                               for p, ids in sorted(topic.replica_assignments.items())]
                creatable.append(T(name=topic.name,
                                   num_partitions=-1 if assignments else topic.num_partitions,
                                   replication_factor=-1 if assignments else topic.replication_factor,
                                   assignments=assignments,
                                   configs=[T.CreatableTopicConfig(name=k, value=v)
                                            for k, v in topic.topic_configs.items()]))
            return R(topics=creatable, timeout_ms=broker_timeout, validate_only=validate_only)

        def parse(response: Any) -> Dict[Hashable, Tuple[int, Optional[str], Any]]:
            answers.update((t.name, t) for t in response.topics)
            return {t.name: (t.error_code, t.error_message, None) for t in response.topics}

        answers: Dict[str, Any] = {}
        results = self._send_items(CREATE_TOPICS, [(t.name, t) for t in topics], build, parse,
                                   lambda name: "topic %r" % name, timeout_ms=self._op_timeout(timeout_ms))
        return results, answers

    def delete_topics(self, topics: Sequence[str], timeout_ms: Optional[float] = None,
                      raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Delete topics by name; return ``{name: None}``, or raise
        :class:`~kafka.admin.AdminResultError` naming the topics that failed
        (e.g. :class:`~kafka.errors.UnknownTopicOrPartitionError`)."""
        results, _ = self._delete_topics(topics, timeout_ms)
        return finish("delete_topics", results, raise_error)

    def _delete_topics(self, topics: Sequence[str],
                       timeout_ms: Optional[float]) -> Tuple[Dict[Any, Any], Dict[str, Any]]:
        """``({name: None or exception}, {name: the broker's answer for it})``."""
        names = _topic_names(topics, "delete_topics")
        broker_timeout = _timeout_arg(timeout_ms, self.config["request_timeout_ms"])
        R = DELETE_TOPICS.Request

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            if version >= 6:
                return R(topics=[R.DeleteTopicState(name=name, topic_id=_NULL_UUID) for name, _ in items],
                         timeout_ms=broker_timeout)
            return R(topic_names=[name for name, _ in items], timeout_ms=broker_timeout)

        def parse(response: Any) -> Dict[Hashable, Tuple[int, Optional[str], Any]]:
            answers.update((t.name, t) for t in response.responses)
            return {t.name: (t.error_code, t.error_message, None) for t in response.responses}

        answers: Dict[str, Any] = {}
        results = self._send_items(DELETE_TOPICS, [(n, None) for n in names], build, parse,
                                   lambda name: "topic %r" % name, timeout_ms=self._op_timeout(timeout_ms))
        return results, answers

    def create_partitions(self, topic_partitions: Mapping[str, NewPartitions], timeout_ms: Optional[float] = None,
                          validate_only: bool = False, raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Raise the partition count of topics: ``{topic: NewPartitions(total_count)}``.

        Returns ``{topic: None}``; failures (e.g. a count that is not larger,
        :class:`~kafka.errors.InvalidPartitionsError`) are reported per topic
        as in :meth:`create_topics`.
        """
        if not isinstance(topic_partitions, Mapping) or not topic_partitions:
            raise errors.IllegalArgumentError("create_partitions takes a non-empty {topic: NewPartitions} mapping")
        for name, spec in topic_partitions.items():
            check_topic_name(name)
            if not isinstance(spec, NewPartitions):
                raise errors.IllegalArgumentError("create_partitions: %r maps to %r, not a NewPartitions"
                                                  % (name, spec))
        broker_timeout = _timeout_arg(timeout_ms, self.config["request_timeout_ms"])
        R = CREATE_PARTITIONS.Request

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            return R(topics=[R.CreatePartitionsTopic(
                name=name, count=spec.total_count,
                assignments=None if spec.new_assignments is None else [
                    R.CreatePartitionsTopic.CreatePartitionsAssignment(broker_ids=ids)
                    for ids in spec.new_assignments]) for name, spec in items],
                timeout_ms=broker_timeout, validate_only=validate_only)

        def parse(response: Any) -> Dict[Hashable, Tuple[int, Optional[str], Any]]:
            return {t.name: (t.error_code, t.error_message, None) for t in response.results}

        results = self._send_items(CREATE_PARTITIONS, list(topic_partitions.items()), build, parse,
                                   lambda name: "topic %r" % name, timeout_ms=self._op_timeout(timeout_ms))
        return finish("create_partitions", results, raise_error)

    def _op_timeout(self, timeout_ms: Optional[float]) -> float:
        # The whole call may take the broker-side timeout plus one request timeout.
        return (timeout_ms or 0) + self.config["request_timeout_ms"]

    def list_topics(self, include_internal: bool = False) -> List[str]:
        """Names of the cluster's topics, sorted (internal topics only if asked)."""
        response = self._metadata(None)
        return sorted(t.name for t in response.topics
                      if t.error_code == 0 and t.name and (include_internal or not t.is_internal))

    def describe_topics(self, topics: Optional[Sequence[str]] = None,
                        raise_error: bool = True) -> Dict[str, Any]:
        """Describe topics (all when None): ``{name: TopicDescription}``.

        A topic that does not exist maps to
        :class:`~kafka.errors.UnknownTopicOrPartitionError` (raised inside an
        :class:`~kafka.admin.AdminResultError` unless ``raise_error=False``).
        """
        names = None if topics is None else _topic_names(topics, "describe_topics")
        response = self._metadata(names)
        results: Dict[str, Any] = {}
        for topic in response.topics:
            if not topic.name:
                continue
            if topic.error_code:
                results[topic.name] = broker_error(topic.error_code, None, "topic %r" % topic.name)
                continue
            partitions = tuple(sorted((
                PartitionMetadata(topic.name, p.partition_index, p.leader_id, p.leader_epoch,
                                  tuple(p.replica_nodes), tuple(p.isr_nodes), tuple(p.offline_replicas or ()),
                                  p.error_code)
                for p in topic.partitions), key=lambda p: p.partition))
            topic_id = topic.topic_id if topic.topic_id not in (None, _NULL_UUID) else None
            results[topic.name] = TopicDescription(topic.name, topic_id, bool(topic.is_internal), partitions)
        if names is not None:
            for name in names:
                results.setdefault(name, errors.UnknownTopicOrPartitionError("topic %r" % name))
            results = {name: results[name] for name in names}
        else:
            results = dict(sorted(results.items()))
        return finish("describe_topics", results, raise_error)

    def describe_cluster(self) -> ClusterDescription:
        """The cluster id, controller and brokers (DescribeCluster, or Metadata on older brokers)."""
        try:
            response = self._send_any(DESCRIBE_CLUSTER, lambda v: DESCRIBE_CLUSTER.Request(
                include_cluster_authorized_operations=False), unsupported_ok=True)
        except errors.UnsupportedVersionError:
            response = None
        if response is not None:
            if response.error_code:
                raise broker_error(response.error_code, response.error_message, "describe_cluster")
            brokers = [BrokerMetadata(b.broker_id, b.host, b.port, b.rack) for b in response.brokers]
            controller = response.controller_id
            cluster_id = response.cluster_id
        else:
            metadata = self._metadata([])
            brokers = [BrokerMetadata(b.node_id, b.host, b.port, b.rack) for b in metadata.brokers]
            controller = metadata.controller_id
            cluster_id = metadata.cluster_id
        return ClusterDescription(cluster_id, controller if controller is not None and controller >= 0 else None,
                                  tuple(sorted(brokers, key=lambda b: b.nodeId)))
