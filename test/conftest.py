"""Shared pytest fixtures: the embedded Kafka broker.

``broker`` is one :class:`~kafka.testing.EmbeddedBroker` for the whole test
session; tests that must not see other tests' topics, or that stop, kill or
restart the broker, use ``fresh_broker`` instead, which is started for that
test alone. When no broker binary is installed these tests are skipped, unless
the environment variable ``KAFKAWIRE_REQUIRE_BROKER=1`` is set (``run_tests.sh``
sets it), in which case they fail.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from kafka.testing import BrokerBinaryNotFoundError, EmbeddedBroker, find_broker_binary

REQUIRE_BROKER_ENV = "KAFKAWIRE_REQUIRE_BROKER"


def _broker_binary_or_skip() -> str:
    try:
        return find_broker_binary()
    except BrokerBinaryNotFoundError as exc:
        if os.environ.get(REQUIRE_BROKER_ENV, "") not in ("", "0"):
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))
        raise  # not reached; keeps type checkers happy


@pytest.fixture(scope="session")
def broker_binary() -> str:
    """Path of the Tansu executable (skips the test when it is not installed)."""
    return _broker_binary_or_skip()


@pytest.fixture(scope="session")
def broker(broker_binary: str) -> Iterator[EmbeddedBroker]:
    """An embedded broker shared by the whole session; do not stop or restart it."""
    with EmbeddedBroker(binary=broker_binary) as shared:
        yield shared


@pytest.fixture
def fresh_broker(broker_binary: str) -> Iterator[EmbeddedBroker]:
    """An embedded broker of this test's own, stopped afterwards; free to kill or restart."""
    with EmbeddedBroker(binary=broker_binary) as own:
        yield own


@pytest.fixture
def mock_cluster():
    """A fresh 3-broker librdkafka mock cluster for this test (about 1 ms to start)."""
    from kafka.testing.mock_cluster import LibrdkafkaNotFoundError, MockCluster

    try:
        cluster = MockCluster(3)
    except LibrdkafkaNotFoundError as exc:
        if os.environ.get(REQUIRE_BROKER_ENV, "") not in ("", "0"):
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))
    with cluster:
        yield cluster
