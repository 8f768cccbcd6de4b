"""KafkaClient: connections, cluster metadata and request routing.

:class:`KafkaClient` is the one engine under the producers, consumers and
the admin client. Its layers, bottom up:

* :mod:`kafka.client.network` — one connection per broker, the selector loop,
  metadata refresh (:class:`~kafka.client.network.NetworkClient`);
* :mod:`kafka.client.routing` — leaders, coordinators, the controller, and
  dispatching multi-partition payloads with retries
  (:class:`~kafka.client.routing.RoutingClient`).
"""

from kafka.client.routing import Outcome, RoutingClient


class KafkaClient(RoutingClient):
    """A client for one Kafka cluster; see the module documentation."""


__all__ = ["KafkaClient", "Outcome"]
