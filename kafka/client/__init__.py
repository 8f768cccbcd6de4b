"""The engine's client: connections, cluster metadata and request routing.

Its layers, bottom up:

* :mod:`kafka.client.network` — one connection per broker, the selector loop,
  metadata refresh (:class:`~kafka.client.network.NetworkClient`);
* :mod:`kafka.client.routing` — leaders, coordinators, the controller, and
  dispatching multi-partition payloads with retries
  (:class:`~kafka.client.routing.RoutingClient`, the class the producer,
  consumer, admin client and Spark source build).

``kafka.client.KafkaClient`` is the kafka-python 0.9-compatible client of the
simple layer (:class:`kafka.simple.client.KafkaClient`, a
:class:`~kafka.client.routing.RoutingClient` with the 0.9 methods
``send_produce_request``, ``send_fetch_request``, ...). It is loaded on first
use, so the engine never imports the simple layer.
"""

from typing import Any, List

from kafka.client.routing import Outcome, RoutingClient

__all__ = ["KafkaClient", "Outcome", "RoutingClient"]


def __getattr__(name: str) -> Any:
    if name == "KafkaClient":
        # Compatibility facade: the only import of the simple layer here.
        from kafka.simple.client import KafkaClient

        globals()[name] = KafkaClient
        return KafkaClient
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    return sorted(set(globals()) | {"KafkaClient"})
