"""Broker connections: the only layer that touches sockets.

The classic (kafka-python 0.9.x) names -- :class:`KafkaConnection`,
:func:`collect_hosts`, ``DEFAULT_KAFKA_PORT`` and
``DEFAULT_SOCKET_TIMEOUT_SECONDS`` -- are importable from here; they live in
:mod:`kafka.conn.legacy`, which is only loaded when one of them is first used.
"""

from typing import Any, List

# Names served lazily from kafka.conn.legacy (PEP 562).
_LEGACY_EXPORTS = (
    "KafkaConnection",
    "collect_hosts",
    "DEFAULT_KAFKA_PORT",
    "DEFAULT_SOCKET_TIMEOUT_SECONDS",
)

__all__ = list(_LEGACY_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _LEGACY_EXPORTS:
        from kafka.conn import legacy

        value = getattr(legacy, name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_LEGACY_EXPORTS))
