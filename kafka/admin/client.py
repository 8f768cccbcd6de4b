"""KafkaAdminClient: create and inspect topics, configs, groups, records and ACLs."""

from __future__ import annotations

from kafka.admin.acls import AclsMixin
from kafka.admin.kafka_python import KafkaPythonAdminMixin


# KafkaPythonAdminMixin brings the topic, config, group and record operations,
# each under kafka-python 3's names and result shapes.
class KafkaAdminClient(KafkaPythonAdminMixin, AclsMixin):
    """Administer a Kafka cluster.

    ``KafkaAdminClient(bootstrap_servers="host:9092", client_id=...,
    request_timeout_ms=30000, security_protocol=..., ssl_*..., sasl_*...)``
    takes the configuration keys of :class:`~kafka.client.KafkaClient` plus
    ``bootstrap_timeout_ms`` (default 10000: how long the constructor waits
    for the first metadata before raising
    :class:`~kafka.errors.NoBrokersAvailable`). It connects at once.

    The methods kafka-python 3 also has (``create_topics``,
    ``describe_topics``, ``describe_configs``, ``list_groups`` ...) take its
    arguments and return its shapes: plain dicts and lists. kafkawire's own
    form of an operation on several resources is ``{resource: result}``,
    raising :class:`~kafka.admin.AdminResultError` when some resources
    failed; pass ``raise_error`` (``False`` to get the failures as values in
    the mapping instead) to choose it. Bad arguments raise :class:`~kafka.errors.IllegalArgumentError`
    before anything is sent. Use it as a context manager, or call
    :meth:`close`.
    """

    def __repr__(self) -> str:
        return "<KafkaAdminClient client_id=%s%s>" % (self._client.config["client_id"],
                                                      " closed" if self._closed else "")

    def __enter__(self) -> "KafkaAdminClient":
        return self


__all__ = ["KafkaAdminClient"]
