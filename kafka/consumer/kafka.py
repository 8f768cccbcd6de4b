"""kafka-python's module path of the consumer.

:class:`ModernKafkaConsumer` and :data:`DEFAULT_CONFIG` are the engine's
(:mod:`kafka.consumer.modern`). ``KafkaConsumer`` is the public consumer of
the simple layer (:class:`kafka.simple.consumer.KafkaConsumer`), loaded on
first use: the engine itself imports :mod:`kafka.consumer.modern`, so this
compatibility facade is the only engine module between the two.
"""

from typing import Any

from kafka.consumer.modern import DEFAULT_CONFIG, ModernKafkaConsumer


def __getattr__(name: str) -> Any:
    if name == "KafkaConsumer":
        from kafka.simple.consumer import KafkaConsumer

        globals()[name] = KafkaConsumer
        return KafkaConsumer
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


__all__ = ["DEFAULT_CONFIG", "ModernKafkaConsumer"]
