"""kafka-python 3's cluster methods: API versions, features, paged topic descriptions, reassignments."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from kafka import errors
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.kafka_python.shapes import authorized_operations, plain
from kafka.protocol.apis import API_VERSIONS, DESCRIBE_TOPIC_PARTITIONS, LIST_PARTITION_REASSIGNMENTS
from kafka.protocol.negotiate import VersionTable
from kafka.structs import TopicPartition


class KafkaPythonCluster(AdminBase):
    """Cluster-wide inspection."""

    def _ready_node(self, node_id: Optional[int] = None) -> int:
        node = self._client.least_loaded_node() if node_id is None else node_id
        if node is None:
            raise errors.NoBrokersAvailable("no broker to ask")
        if not self._client.await_ready(node, self.config["request_timeout_ms"]):
            raise errors.NodeNotReadyError("broker %d did not become ready: %s"
                                           % (node, self._client.connection_error(node) or "timed out"))
        return node

    def get_broker_version_data(self, broker_id: int) -> VersionTable:
        """The API version ranges ``broker_id`` announced (``.ranges``: ``{api key: (min, max)}``)."""
        self._check_open()
        node = self._ready_node(broker_id)
        versions = self._client._conns[node].versions
        if versions is None:
            raise errors.NodeNotReadyError("broker %d announced no API versions" % node)
        return versions

    def api_versions(self) -> Dict[int, Tuple[int, int]]:
        """``{api key: (min version, max version)}`` as a broker of the cluster announced them."""
        self._check_open()
        return dict(self.get_broker_version_data(self._ready_node()).ranges)

    def describe_features(self, send_request_to_controller: bool = False) -> Dict[str, Dict[str, Any]]:
        """Feature flags (KIP-584): ``{name: {'supported': (min, max), 'finalized': (min, max),
        'finalized_epoch': n}}`` (a key only when the broker reports it).

        Asks one broker, or the controller with ``send_request_to_controller``.
        """
        deadline = self._deadline()
        node = self._controller_node(deadline) if send_request_to_controller else self._ready_node()
        response = self._send_to_node(node, API_VERSIONS, lambda v: API_VERSIONS.Request(
            client_software_name="kafkawire", client_software_version="1"), deadline)
        if response.error_code:
            raise broker_error(response.error_code, None, "describe_features")
        out: Dict[str, Dict[str, Any]] = {}
        for feature in response.supported_features or ():
            out.setdefault(feature.name, {})["supported"] = (feature.min_version, feature.max_version)
        for feature in response.finalized_features or ():
            entry = out.setdefault(feature.name, {})
            entry["finalized"] = (feature.min_version_level, feature.max_version_level)
            entry["finalized_epoch"] = response.finalized_features_epoch
        return out

    def describe_topic_partitions(self, topics: Sequence[str], response_partition_limit: int = 2000,
                                  cursor: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """Topics and their partitions a page at a time (DescribeTopicPartitions, KIP-966).

        Returns ``{'topics': [topic dicts as describe_topics gives them, plus
        each partition's eligible_leader_replicas and last_known_elr],
        'next_cursor': None or {'topic_name', 'partition_index'}}``; pass
        ``next_cursor`` back as ``cursor`` for the next page.
        """
        R = DESCRIBE_TOPIC_PARTITIONS.Request
        start = None if cursor is None else R.Cursor(topic_name=cursor["topic_name"],
                                                      partition_index=cursor["partition_index"])
        response = self._send_any(DESCRIBE_TOPIC_PARTITIONS, lambda v: R(
            topics=[R.TopicRequest(name=t) for t in topics], response_partition_limit=response_partition_limit,
            cursor=start))
        found: List[Dict[str, Any]] = []
        for topic in response.topics:
            entry = plain(topic)
            entry["topic_authorized_operations"] = authorized_operations(entry["topic_authorized_operations"])
            found.append(entry)
        return {"topics": found, "next_cursor": plain(response.next_cursor)}

    def list_partition_reassignments(self, topic_partitions: Union[None, Mapping[str, Sequence[int]],
                                                                   Sequence[TopicPartition]] = None,
                                     timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Dict[str, Any]]:
        """Reassignments in progress: ``{TopicPartition: {'replicas', 'adding_replicas', 'removing_replicas'}}``.

        ``topic_partitions``: ``{topic: [partitions]}``, a list of
        TopicPartition, or None for every partition.
        """
        R = LIST_PARTITION_REASSIGNMENTS.Request
        wanted: Optional[Dict[str, List[int]]] = None
        if isinstance(topic_partitions, Mapping):
            wanted = {t: list(ps) for t, ps in topic_partitions.items()}
        elif topic_partitions is not None:
            wanted = {}
            for tp in topic_partitions:
                wanted.setdefault(tp.topic, []).append(tp.partition)
        topics = None if wanted is None else [R.ListPartitionReassignmentsTopics(name=t, partition_indexes=ps)
                                              for t, ps in wanted.items()]
        timeout = int(timeout_ms if timeout_ms is not None else self.config["request_timeout_ms"])
        deadline = self._deadline(timeout + self.config["request_timeout_ms"])
        response = self._send_to_node(self._controller_node(deadline), LIST_PARTITION_REASSIGNMENTS,
                                      lambda v: R(timeout_ms=timeout, topics=topics), deadline)
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "list_partition_reassignments")
        return {TopicPartition(t.name, p.partition_index): {"replicas": list(p.replicas),
                                                            "adding_replicas": list(p.adding_replicas),
                                                            "removing_replicas": list(p.removing_replicas)}
                for t in response.topics for p in t.partitions}


__all__ = ["KafkaPythonCluster"]
