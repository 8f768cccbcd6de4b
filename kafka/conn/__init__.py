"""Broker connections: the only layer that touches sockets.

The simple layer's (kafka-python 0.9.x) names -- :class:`KafkaConnection`,
:func:`collect_hosts`, ``DEFAULT_KAFKA_PORT`` and
``DEFAULT_SOCKET_TIMEOUT_SECONDS`` -- are importable from here; they live in
:mod:`kafka.simple.connection`, which is only loaded when one of them is first used.
"""

from typing import Any, List

# Names served lazily from kafka.simple.connection (PEP 562).
_SIMPLE_LAYER_EXPORTS = (
    "KafkaConnection",
    "collect_hosts",
    "DEFAULT_KAFKA_PORT",
    "DEFAULT_SOCKET_TIMEOUT_SECONDS",
)

__all__ = list(_SIMPLE_LAYER_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _SIMPLE_LAYER_EXPORTS:
        from kafka.simple import connection as simple_layer  # compatibility facade

        value = getattr(simple_layer, name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_SIMPLE_LAYER_EXPORTS))
