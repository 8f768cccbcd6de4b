"""Fixtures for the kafka.confluent tests: the real confluent_kafka as the oracle."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ck():
    """The real confluent_kafka (librdkafka), the reference behaviour."""
    return pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="session")
def kc():
    """kafkawire's drop-in."""
    import kafka.confluent

    return kafka.confluent


@pytest.fixture(params=["confluent_kafka", "kafka.confluent"])
def lib(request, ck, kc):
    """Each implementation in turn, for scenarios whose expected result is written down."""
    return ck if request.param == "confluent_kafka" else kc
