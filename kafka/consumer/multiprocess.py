"""kafka-python 0.9's module path of :class:`MultiProcessConsumer`."""

from kafka.legacy.multiprocess import Events, MultiProcessConsumer

__all__ = ["MultiProcessConsumer", "Events"]
