"""kafkawire: a pure-Python client for the Apache Kafka wire protocol.

The distribution is named ``kafkawire``; the import name is ``kafka``.
"""

__version__ = "0.1.0.dev0"
