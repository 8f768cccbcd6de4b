"""KafkaAdminClient: create and inspect topics, configs, groups, records and ACLs."""

from __future__ import annotations

from kafka.admin.acls import AclsMixin
from kafka.admin.configs import ConfigsMixin
from kafka.admin.groups import GroupsMixin
from kafka.admin.kafka_python import KafkaPythonAdminMixin
from kafka.admin.records import RecordsMixin
from kafka.admin.topics import TopicsMixin


# KafkaPythonAdminMixin widens create_topics, delete_topics and create_partitions
# (kafka-python's argument forms and raise_errors), which mypy sees as a clash.
class KafkaAdminClient(KafkaPythonAdminMixin, TopicsMixin, ConfigsMixin,  # type: ignore[misc]
                       GroupsMixin, RecordsMixin, AclsMixin):
    """Administer a Kafka cluster.

    ``KafkaAdminClient(bootstrap_servers="host:9092", client_id=...,
    request_timeout_ms=30000, security_protocol=..., ssl_*..., sasl_*...)``
    takes the configuration keys of :class:`~kafka.client.KafkaClient` plus
    ``bootstrap_timeout_ms`` (default 10000: how long the constructor waits
    for the first metadata before raising
    :class:`~kafka.errors.NoBrokersAvailable`). It connects at once.

    Operations on several resources return ``{resource: result}`` and raise
    :class:`~kafka.admin.AdminResultError` when some resources failed; pass
    ``raise_error=False`` to get the failures as values in the mapping
    instead. Bad arguments raise :class:`~kafka.errors.IllegalArgumentError`
    before anything is sent. Use it as a context manager, or call
    :meth:`close`.
    """

    def __repr__(self) -> str:
        return "<KafkaAdminClient client_id=%s%s>" % (self._client.config["client_id"],
                                                      " closed" if self._closed else "")

    def __enter__(self) -> "KafkaAdminClient":
        return self


__all__ = ["KafkaAdminClient"]
