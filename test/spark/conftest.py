"""One local[2] SparkSession for the whole test run (it takes about 10 s to start; see test/spark_sessions.py).

Spark tests skip when pyspark is not installed, unless
``KAFKAWIRE_REQUIRE_BROKER=1`` is set (``run_tests.sh`` sets it): then they fail.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from typing import Iterator, List, Optional, Tuple

import pytest

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer

REQUIRE_ENV = "KAFKAWIRE_REQUIRE_BROKER"


def _pyspark_or_skip() -> None:
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as exc:
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail("pyspark/pyarrow are required (%s): install the spark extra" % exc, pytrace=False)
        pytest.skip("pyspark is not installed")


@pytest.fixture
def spark(request: pytest.FixtureRequest) -> Iterator[object]:
    """A local[2] SparkSession with the kafkawire source registered (one for the whole run)."""
    _pyspark_or_skip()
    from test import spark_sessions

    if any(item.path.parent.name == "spark_cluster" for item in request.session.items):
        # The cluster tests come later in this process: let their JVMs start now.
        spark_sessions.spawn_cluster()
    yield spark_sessions.get("local", "local[2]")


def make_topic(servers_host: str, port: int, partitions: int = 1, prefix: str = "spark") -> str:
    """Create a topic with a unique name on the embedded broker."""
    name = "%s-%s" % (prefix, uuid.uuid4().hex[:8])
    with BlockingConnection(servers_host, port) as conn:
        direct.create_topic(conn, name, partitions=partitions)
    return name


Record = Tuple[Optional[bytes], Optional[bytes], int, int, List[Tuple[str, bytes]]]


def produce(bootstrap: str, topic: str, records: List[Record], linger_ms: int = 20) -> None:
    """Send ``(key, value, partition, timestamp_ms, headers)`` records and wait for all."""
    with KafkaProducer(bootstrap_servers=bootstrap, linger_ms=linger_ms) as producer:
        futures = [producer.send(topic, value=v, key=k, partition=p, timestamp_ms=ts, headers=h or None)
                   for k, v, p, ts, h in records]
        producer.flush(30)
        for future in futures:
            future.get(30)


@pytest.fixture
def tmp_checkpoint() -> Iterator[str]:
    path = tempfile.mkdtemp(prefix="kafkawire-ckpt-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start_query(writer: object, attempts: int = 3) -> object:
    """``writer.start()``, started again when Spark gave up on its Python worker at start-up.

    Spark waits a fixed 10 s (hard-coded in PythonWorkerFactory) for the new
    Python process behind a Python streaming source to connect back. On a
    loaded machine that process can take longer to import pyspark, and the
    query dies before it reads anything ("Python worker failed to connect
    back"). That is Spark's start-up, not the data source, so the query is
    started again from the same (still empty) checkpoint. Any other failure is
    left for the test to see.
    """
    for attempt in range(attempts):
        query = writer.start()  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        failure = None
        while time.monotonic() < deadline:
            failure = query.exception()
            if failure is not None or query.lastProgress is not None or not query.isActive:
                break
            time.sleep(0.1)
        if failure is None or "failed to connect back" not in str(failure) or attempt == attempts - 1:
            return query
    return query
