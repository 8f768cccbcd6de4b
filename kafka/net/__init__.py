"""kafka-python 3's ``kafka.net`` package path: its network client under the name programs import.

kafkawire's network code lives in :mod:`kafka.conn` (sockets) and
:mod:`kafka.client` (connections, metadata, routing); :mod:`kafka.net.compat`
gives the client kafka-python 3's class name, :class:`KafkaNetClient`.
"""

from kafka.net.compat import KafkaNetClient

__all__ = ["KafkaNetClient"]
