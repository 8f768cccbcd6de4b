"""KafkaClient: connections, cluster metadata and request routing.

:class:`KafkaClient` is the one engine under the producers, consumers and
the admin client. Its layers, bottom up:

* :mod:`kafka.client.network` — one connection per broker, the selector loop,
  metadata refresh (:class:`~kafka.client.network.NetworkClient`);
* :mod:`kafka.client.routing` — leaders, coordinators, the controller, and
  dispatching multi-partition payloads with retries
  (:class:`~kafka.client.routing.RoutingClient`);
* :mod:`kafka.client.classic` — the kafka-python 0.9.x low-level API
  (``send_produce_request``, ``send_fetch_request``,
  ``load_metadata_for_topics``, ...) over the two layers above
  (:class:`~kafka.client.classic.ClassicClientMixin`).

Both constructor forms work: ``KafkaClient("host:9092", client_id=...,
timeout=120)`` as in 0.9.x, and ``KafkaClient(bootstrap_servers=..., **config)``
with the keys of :data:`kafka.client.network.DEFAULT_CONFIG`.
"""

from kafka.client.classic import ClassicClientMixin
from kafka.client.routing import Outcome, RoutingClient


class KafkaClient(ClassicClientMixin, RoutingClient):
    """A client for one Kafka cluster; see the module documentation."""


__all__ = ["KafkaClient", "Outcome"]
