"""Consumers: the engine's consumer and its building blocks.

``KafkaConsumer`` (the public consumer, with the kafka-python 0.9 methods)
and the 0.9 ``SimpleConsumer`` and ``MultiProcessConsumer`` are importable
from here too (0.9 code did ``from kafka.consumer import SimpleConsumer``);
they belong to the simple layer (:mod:`kafka.simple`), loaded on first use.
"""

from typing import Any, List

from kafka.consumer.fetcher import ConsumerRecord
from kafka.consumer.modern import ModernKafkaConsumer

__all__ = ["KafkaConsumer", "ModernKafkaConsumer", "ConsumerRecord"]

#: Names served by the simple layer (compatibility facade).
_SIMPLE_LAYER = ("KafkaConsumer", "SimpleConsumer", "MultiProcessConsumer")


def __getattr__(name: str) -> Any:
    if name in _SIMPLE_LAYER:
        import kafka.simple
        import kafka.simple.consumer

        value = getattr(kafka.simple.consumer if name == "KafkaConsumer" else kafka.simple, name)
        globals()[name] = value
        return value
    raise AttributeError("module 'kafka.consumer' has no attribute %r" % (name,))


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_SIMPLE_LAYER))
