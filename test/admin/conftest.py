"""Fixtures of the admin tests: an admin client on the shared embedded broker, unique names."""

from __future__ import annotations

import uuid
from typing import Iterator

import pytest

from kafka.admin import KafkaAdminClient


def unique(prefix: str) -> str:
    """A name no other test uses."""
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


@pytest.fixture
def admin(broker) -> Iterator[KafkaAdminClient]:
    client = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers, request_timeout_ms=10000)
    try:
        yield client
    finally:
        client.close()
