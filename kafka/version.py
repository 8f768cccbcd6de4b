"""kafka-python's module holding the version (``from kafka.version import __version__``)."""

from kafka import __version__

__all__ = ["__version__"]
