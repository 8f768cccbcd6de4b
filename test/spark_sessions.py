"""The one SparkSession a test process may hold, local[2] or on the standalone cluster.

A JVM-backed PySpark process can run one SparkContext at a time, and the
tests in ``test/spark`` (``local[2]``) and ``test/spark_cluster`` (a
standalone cluster) each want their own. ``test/conftest.py`` keeps both
directories in one xdist group, so they run one after the other in one
process; :func:`get` hands out the session of the kind asked for, stopping
the other kind first. In a normal run the switch happens once: the
directories are collected in order, local first.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Dict, Optional, Tuple

import kafka

#: The directory that holds the ``kafka`` package under test, passed on to
#: executors so that their Python workers import the same code.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(kafka.__file__)))

_current: Optional[Tuple[str, Any, str]] = None  # (kind, session, scratch directory)
_daemons: Optional[Tuple[Any, Any]] = None  # (standalone cluster, Spark Connect server)


def spawn_cluster() -> Tuple[Any, Any]:
    """Start the standalone cluster and the Connect server of ``test/spark_cluster`` without waiting.

    Called by the first local[2] test when cluster tests are selected too,
    so that the JVMs start while the local tests run; the cluster tests'
    fixtures wait for them.
    """
    global _daemons
    if _daemons is None:
        from kafka.testing.spark_cluster import SparkConnectServer, SparkStandaloneCluster

        path = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
        _daemons = (SparkStandaloneCluster(workers=2, env={"PYTHONPATH": path}).spawn(),
                    SparkConnectServer(env={"PYTHONPATH": path}).start())
    return _daemons


def stop_cluster() -> None:
    """Stop the cluster session, the cluster and the Connect server, if started."""
    global _daemons
    if _current is not None and _current[0] == "cluster":
        stop()
    if _daemons is not None:
        cluster, server = _daemons
        _daemons = None
        cluster.stop()
        server.stop()


def get(kind: str, master: str, extra: Optional[Dict[str, str]] = None) -> Any:
    """The SparkSession of ``kind`` on ``master``, made (and the other one stopped) if need be."""
    global _current
    if _current is not None and _current[0] == kind:
        return _current[1]
    stop()
    import kafka.spark

    kafka.spark.configure_python()
    from pyspark.sql import SparkSession

    work = tempfile.mkdtemp(prefix="kafkawire-spark-")
    builder = (SparkSession.builder.master(master).appName("kafkawire-tests-" + kind)
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.default.parallelism", "2")
               .config("spark.sql.streaming.pollingDelay", "10ms")
               .config("spark.local.dir", work)
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.executorEnv.PYTHONPATH", ROOT)
               .config("spark.driver.extraJavaOptions", "-Dderby.system.home=" + work))
    for key, value in (extra or {}).items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    kafka.spark.register(session)
    _current = (kind, session, work)
    return session


def stop() -> None:
    """Stop the session this process holds, if any."""
    global _current
    if _current is None:
        return
    _, session, work = _current
    _current = None
    session.stop()
    shutil.rmtree(work, ignore_errors=True)
