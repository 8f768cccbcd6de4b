"""A Spark standalone cluster (a master and two one-core workers on 127.0.0.1) for the whole run.

The cluster is started once per run: by the first local[2] test of
``test/spark`` when both directories run (so that its JVMs start while those
tests run), else by the first test here. It is stopped at the end of the run,
and by :mod:`kafka.testing.spark_cluster` at interpreter exit or when this
process dies. The driver runs in this test process: it
holds one SparkContext at a time, shared with ``test/spark`` through
``test/spark_sessions.py`` (a second process per test would pay the 7-12 s
start of a driver again).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from typing import Iterator, Tuple

import pytest

from test.spark.conftest import _pyspark_or_skip

#: Settings of the application on the cluster: one one-core executor per worker.
CLUSTER_CONF = {
    "spark.executor.cores": "1",
    "spark.cores.max": "2",
    "spark.executor.memory": "512m",
    # A task on a lost executor is retried; so is a task that failed.
    "spark.task.maxFailures": "4",
}


@pytest.fixture(scope="session")
def _daemons() -> Iterator[Tuple[object, object]]:
    """The cluster, and a Spark Connect server (on local[2]) started alongside it to overlap their start-up.

    They may have been started already, by the first local[2] test (see
    ``test/spark_sessions.py``).
    """
    _pyspark_or_skip()
    from test import spark_sessions

    cluster, server = spark_sessions.spawn_cluster()
    try:
        cluster.wait_ready()  # type: ignore[attr-defined]
        yield cluster, server
    finally:
        spark_sessions.stop_cluster()


@pytest.fixture(scope="session")
def spark_cluster(_daemons: Tuple[object, object]) -> object:
    """The running :class:`~kafka.testing.spark_cluster.SparkStandaloneCluster`."""
    return _daemons[0]


@pytest.fixture(scope="session")
def connect_server(_daemons: Tuple[object, object]) -> object:
    """A running :class:`~kafka.testing.spark_cluster.SparkConnectServer`."""
    server = _daemons[1]
    server.wait_ready()  # type: ignore[attr-defined]
    return server


def executors(session: object) -> int:
    """How many executors have registered with the driver."""
    status = session.sparkContext._jsc.sc().getExecutorMemoryStatus()  # type: ignore[attr-defined]
    return int(status.size()) - 1  # the driver's block manager is in the list too


def wait_for_executors(session: object, count: int = 2, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while executors(session) < count:
        if time.monotonic() > deadline:
            raise AssertionError("only %d of %d executors registered within %.0f s"
                                 % (executors(session), count, timeout))
        time.sleep(0.2)


@pytest.fixture
def cluster_spark(spark_cluster: object) -> object:
    """A SparkSession on the standalone cluster with both executors registered."""
    from test import spark_sessions

    session = spark_sessions.get("cluster", spark_cluster.url, CLUSTER_CONF)  # type: ignore[attr-defined]
    wait_for_executors(session)
    return session


@pytest.fixture
def tmp_checkpoint() -> Iterator[str]:
    path = tempfile.mkdtemp(prefix="kafkawire-ckpt-")
    yield path
    shutil.rmtree(path, ignore_errors=True)
