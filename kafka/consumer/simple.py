"""kafka-python 0.9's module path of :class:`SimpleConsumer`."""

from kafka.legacy.simple_consumer import SimpleConsumer

__all__ = ["SimpleConsumer"]
