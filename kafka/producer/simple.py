"""kafka-python 0.9's module path of :class:`SimpleProducer`."""

from kafka.legacy.simple import SimpleProducer

__all__ = ["SimpleProducer"]
