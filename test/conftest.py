"""Shared pytest fixtures: the embedded Kafka broker.

``broker`` is one :class:`~kafka.testing.EmbeddedBroker` for the whole test
session; tests that must not see other tests' topics, or that stop, kill or
restart the broker, use ``fresh_broker`` instead, which is started for that
test alone. When no broker binary is installed these tests are skipped, unless
the environment variable ``KAFKAWIRE_REQUIRE_BROKER=1`` is set (``run_tests.sh``
sets it), in which case they fail.

Under ``KAFKAWIRE_STRICT=1`` (``run_tests.sh`` sets it too) a skipped test is
reported as a failure, whatever skipped it (a missing peer client, codec
library, Sphinx, Spark, broker), unless its reason is one of
:data:`DOCUMENTED_SKIPS`: on a machine set up by ``build_integration.sh``
everything the suite uses is installed, so any other skip hides a broken setup.
"""

from __future__ import annotations

import os
from typing import Iterator, List

import pytest
from hypothesis import HealthCheck, settings

from kafka.testing import BrokerBinaryNotFoundError, EmbeddedBroker, find_broker_binary

#: A separate project that test_pytest_plugin.py runs in a pytest of its own.
collect_ignore = ["plugin_project"]

REQUIRE_BROKER_ENV = "KAFKAWIRE_REQUIRE_BROKER"
STRICT_ENV = "KAFKAWIRE_STRICT"

#: Skip reasons that stay skips under KAFKAWIRE_STRICT=1, because no setup
#: step of ours can change them.
DOCUMENTED_SKIPS = (
    # aiokafka's message-format v0 writer refuses LZ4 (Kafka never defined it for v0).
    "aiokafka does not support LZ4 with message format v0",
    # The seed documents live in the workspace beside the repository, not in it.
    "the seed reference is not beside the repository",
)


# Under ./run_tests.sh the suite runs on several pytest-xdist workers sharing
# two cores: no example may fail for being slow, and a failure prints the blob
# that reproduces it.
settings.register_profile("ci", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("KAFKAWIRE_HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    """Keep the Spark tests on one xdist worker: they share one SparkSession (~10 s to start).

    ``test/spark`` (local[2]) and ``test/spark_cluster`` (a standalone
    cluster) share the group too: one process can hold only one
    SparkContext at a time (see ``test/spark_sessions.py``), and two groups
    may land on the same worker.

    xdist (3.8) groups by an ``@spark`` suffix it appends to ``item._nodeid``
    in its own hook; from pytest 9.2 on the node id lives elsewhere, so that
    suffix is lost and the group ignored. The suffix is set here too.
    """
    loadgroup = bool(config.getoption("dist", None) == "loadgroup" or getattr(config.option, "loadgroup", False))
    for item in items:
        if item.path.parent.name in ("spark", "spark_cluster"):
            item.add_marker(pytest.mark.xdist_group("spark"))
            if loadgroup and not item.nodeid.endswith("@spark"):
                _suffix_node_id(item, "@spark")


def _suffix_node_id(item: pytest.Item, suffix: str) -> None:
    try:
        from _pytest.nodes import coerce_node_id  # type: ignore[attr-defined]
    except ImportError:  # pytest before 9.2: xdist's own suffix works
        return
    item._id = coerce_node_id(item.nodeid + suffix)  # type: ignore[attr-defined]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the SparkSession, and the Spark cluster, the Spark tests left running, if any."""
    import sys

    sessions = sys.modules.get("test.spark_sessions")
    if sessions is not None:
        sessions.stop()  # type: ignore[attr-defined]
        sessions.stop_cluster()  # type: ignore[attr-defined]


def _strict() -> bool:
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Under KAFKAWIRE_STRICT=1, turn every undocumented skip into a failure."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (report.skipped and _strict()) or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if any(documented in reason for documented in DOCUMENTED_SKIPS):
        return
    report.outcome = "failed"
    report.longrepr = ("skipped, which %s=1 does not allow (./run_tests.sh sets up everything the "
                       "suite needs; a skip here means the setup is broken): %s" % (STRICT_ENV, reason))


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
