"""Creating topics for tests that need one on a real peer.

``new_topic`` uses the embedded broker's direct connection (no client
involved); ``create_topic`` and ``create_topic_with`` send CreateTopics
through a KafkaClient, which any peer answers.
"""

from __future__ import annotations

import uuid
from typing import Any, Optional

from kafka.client import KafkaClient
from kafka.conn.blocking import BlockingConnection
from kafka.direct import create_topic as create_topic_directly
from kafka.protocol.apis import CREATE_TOPICS


def new_topic(broker: Any, partitions: int = 1, prefix: str = "topic", name: Optional[str] = None) -> str:
    """Create a topic on ``broker`` (``prefix`` and a unique suffix, unless ``name`` is given); return its name."""
    name = name or "%s-%s" % (prefix, uuid.uuid4().hex[:10])
    with BlockingConnection(broker.host, broker.port) as conn:
        create_topic_directly(conn, name, partitions=partitions)
    return name


def create_topic_with(client: KafkaClient, name: str, partitions: int) -> None:
    """Create ``name`` through ``client`` (any broker answers) and check that it was created."""
    topic = CREATE_TOPICS.Request.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1,
                                                 configs=[])
    response = client.send_to_any(CREATE_TOPICS.Request(topics=[topic], timeout_ms=10000), timeout_ms=15000)
    assert [(t.name, t.error_code) for t in response.topics] == [(name, 0)]


def create_topic(bootstrap: str, name: str, partitions: int = 3) -> None:
    """Create ``name`` from a client of its own on ``bootstrap``, closed afterwards."""
    client = KafkaClient(bootstrap_servers=bootstrap)
    try:
        create_topic_with(client, name, partitions)
    finally:
        client.close()
