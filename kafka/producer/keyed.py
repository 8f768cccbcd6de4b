"""kafka-python 0.9's module path of :class:`KeyedProducer`."""

from kafka.legacy.keyed import KeyedProducer

__all__ = ["KeyedProducer"]
