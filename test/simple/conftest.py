"""Fixtures of the simple-layer tests: 0.9-form KafkaClients on the embedded broker and on the mock cluster."""

from __future__ import annotations

from typing import Iterator

import pytest

from kafka.client import KafkaClient


@pytest.fixture
def client(broker) -> Iterator[KafkaClient]:
    """A simple-form KafkaClient on the shared embedded broker."""
    c = KafkaClient(broker.bootstrap_servers, timeout=10)
    yield c
    c.close()


@pytest.fixture
def mock_client(mock_cluster) -> Iterator[KafkaClient]:
    """A KafkaClient on the 3-broker mock cluster, with short timeouts and backoffs for fault tests."""
    c = KafkaClient(mock_cluster.bootstrap_servers, timeout=3, reconnect_backoff_ms=20,
                    reconnect_backoff_max_ms=200, retry_backoff_ms=20)
    yield c
    c.close()
