"""Cluster metadata classes returned by ``list_topics()`` (confluent-kafka's ``confluent_kafka.admin`` shapes),
and the source that builds them for the producer, the consumer and the admin client."""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional

import kafka.confluent.kafka_error
from kafka.confluent._closing import HANDLE_CLOSED
from kafka.confluent.kafka_error import KafkaError, KafkaException, call_error, from_engine


class BrokerMetadata:
    """One broker: ``id``, ``host``, ``port``."""

    def __init__(self) -> None:
        self.id = -1
        self.host: Optional[str] = None
        self.port = -1

    def __repr__(self) -> str:
        return "BrokerMetadata(%d, %s:%d)" % (self.id, self.host, self.port)

    def __str__(self) -> str:
        return "%s:%d/%d" % (self.host, self.port, self.id)


class PartitionMetadata:
    """One partition: ``id``, ``leader``, ``replicas``, ``isrs`` and ``error`` (a KafkaError or None)."""

    def __init__(self) -> None:
        self.id = -1
        self.leader = -1
        self.replicas: List[int] = []
        self.isrs: List[int] = []
        self.error: Optional[kafka.confluent.kafka_error.KafkaError] = None

    def __repr__(self) -> str:
        if self.error is not None:
            return "PartitionMetadata(%d, %s)" % (self.id, self.error)
        return "PartitionMetadata(%d)" % self.id

    def __str__(self) -> str:
        return str(self.id)


class TopicMetadata:
    """One topic: ``topic``, ``partitions`` (id -> PartitionMetadata) and ``error``."""

    def __init__(self) -> None:
        self.topic: Optional[str] = None
        self.partitions: Dict[int, PartitionMetadata] = {}
        self.error: Optional[kafka.confluent.kafka_error.KafkaError] = None

    def __repr__(self) -> str:
        if self.error is not None:
            return "TopicMetadata(%s, %d partitions, %s)" % (self.topic, len(self.partitions), self.error)
        return "TopicMetadata(%s, %d partitions)" % (self.topic, len(self.partitions))

    def __str__(self) -> str:
        return str(self.topic)


class ClusterMetadata:
    """What ``list_topics()`` returns: ``cluster_id``, ``controller_id``, ``brokers``, ``topics``,
    ``orig_broker_id`` and ``orig_broker_name``."""

    def __init__(self) -> None:
        self.cluster_id: Optional[str] = None
        self.controller_id = -1
        self.brokers: Dict[int, BrokerMetadata] = {}
        self.topics: Dict[str, TopicMetadata] = {}
        self.orig_broker_id = -1
        self.orig_broker_name: Optional[str] = None

    def __repr__(self) -> str:
        return "ClusterMetadata(%s)" % self.cluster_id

    def __str__(self) -> str:
        return str(self.cluster_id)


def check_credentials(username: Any, password: Any) -> None:
    """Raise TypeError unless both are str (as confluent-kafka's ``set_sasl_credentials`` does)."""
    for position, value in ((1, username), (2, password)):
        if not isinstance(value, str):
            raise TypeError("argument %d must be str, not %s" % (position, "None" if value is None else
                                                                  type(value).__name__))


class MetadataSource:
    """Builds ClusterMetadata with a lazily created :class:`~kafka.admin.KafkaAdminClient`."""

    def __init__(self, settings: Dict[str, Any]) -> None:
        keep = ("bootstrap_servers", "client_id", "security_protocol", "ssl_cafile", "ssl_certfile", "ssl_keyfile",
                "ssl_password", "ssl_crlfile", "ssl_ciphers", "ssl_check_hostname", "sasl_mechanism",
                "sasl_plain_username", "sasl_plain_password", "sasl_oauth_token_provider", "retry_backoff_ms",
                "reconnect_backoff_ms")
        self._settings = {k: v for k, v in settings.items() if k in keep}
        self._admin: Any = None
        self._closed = False
        self._lock = threading.Lock()

    def _client(self, timeout_ms: float) -> Any:
        """The admin client, made on first use; made outside the lock, so that ``close()`` never waits
        for a bootstrap to an unreachable cluster."""
        from kafka.admin import KafkaAdminClient

        with self._lock:
            if self._admin is not None:
                return self._admin
            settings = dict(self._settings)
        made = KafkaAdminClient(request_timeout_ms=timeout_ms, bootstrap_timeout_ms=timeout_ms, **settings)
        with self._lock:
            if self._admin is None and not self._closed:
                self._admin = made
                return made
            kept, closed = self._admin, self._closed
        made.close()  # another thread's client won, or the source was closed meanwhile
        if closed:
            raise RuntimeError(HANDLE_CLOSED)
        return kept

    def cluster_metadata(self, topic: Optional[str], timeout: Optional[float]) -> ClusterMetadata:
        """Metadata of ``topic`` (or of all topics) as a :class:`ClusterMetadata`."""
        if topic is not None and not isinstance(topic, str):
            raise TypeError("topic must be str")
        timeout_ms = 30000.0 if timeout is None or timeout < 0 else max(float(timeout) * 1000.0, 1.0)
        try:
            admin = self._client(timeout_ms)
            cluster = admin.describe_cluster(raise_error=True)
            described = admin.describe_topics(None if topic is None else [topic], raise_error=False)
        except Exception as exc:  # noqa: BLE001
            raise KafkaException(call_error(exc, "Failed to get metadata: ",
                                            KafkaError._TRANSPORT)) from exc  # type: ignore[attr-defined]
        out = ClusterMetadata()
        out.cluster_id = cluster.cluster_id
        out.controller_id = cluster.controller_id if cluster.controller_id is not None else -1
        for broker in cluster.brokers:
            item = BrokerMetadata()
            item.id, item.host, item.port = broker.nodeId, broker.host, broker.port
            out.brokers[item.id] = item
        if cluster.brokers:
            first = cluster.brokers[0]
            out.orig_broker_id = first.nodeId
            out.orig_broker_name = "%s:%d/%d" % (first.host, first.port, first.nodeId)
        for name, found in described.items():
            meta = TopicMetadata()
            meta.topic = name
            if isinstance(found, BaseException):
                meta.error = from_engine(found)
            else:
                for p in found.partitions:
                    part = PartitionMetadata()
                    part.id, part.leader = p.partition, p.leader
                    part.replicas, part.isrs = list(p.replicas), list(p.isr)
                    part.error = KafkaError(p.error) if p.error else None
                    meta.partitions[part.id] = part
            out.topics[name] = meta
        return out

    def cluster_id(self, timeout: Optional[float]) -> Optional[str]:
        """The cluster id the brokers report (None when they report none)."""
        timeout_ms = 30000.0 if timeout is None or timeout < 0 else max(float(timeout) * 1000.0, 1.0)
        try:
            return self._client(timeout_ms).describe_cluster(raise_error=True).cluster_id
        except Exception as exc:  # noqa: BLE001
            raise KafkaException(call_error(exc, "Failed to retrieve cluster id: ",
                                            KafkaError._TIMED_OUT)) from exc  # type: ignore[attr-defined]

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Use these SASL credentials for the metadata client's next logins."""
        with self._lock:
            self._settings["sasl_plain_username"] = username
            self._settings["sasl_plain_password"] = password
            if self._admin is not None:
                self._admin.set_sasl_credentials(username, password)

    def close(self) -> None:
        """Close the admin client (at once, even while another thread is making it)."""
        with self._lock:
            self._closed = True
            admin, self._admin = self._admin, None
        if admin is not None:
            admin.close()


__all__ = ["BrokerMetadata", "PartitionMetadata", "TopicMetadata", "ClusterMetadata", "MetadataSource",
           "check_credentials"]
