"""A SparkSession whose JVM writes to a log file instead of the terminal.

PySpark starts the JVM with ``spark-submit``, and that process inherits the
standard output and error of Python. Much of what it prints there does not go
through log4j at all, or is printed before log4j is set up: the JVM's own
``WARNING: Using incubator modules``, Spark's ``Using Spark's default log4j
profile`` and ``Setting default log level`` notes, the hostname warning of
``Utils``. A log4j configuration could move only some of those lines, so
:func:`start_quiet_session` gives the JVM process the log file as its
standard output and error instead. Everything the JVM prints lands there,
including what Spark's Python workers print (Spark copies their output to
its own standard error).

The redirection is fixed when the JVM starts, and a Python process starts
one JVM for all its sessions: when a JVM is already running, the session is
made on it and its output goes wherever it went before.
"""

from __future__ import annotations

import subprocess
from typing import Any, Mapping


def start_quiet_session(master: str, app_name: str, settings: Mapping[str, str], log_path: str) -> Any:
    """A SparkSession on ``master`` with ``settings``; the JVM's output goes to ``log_path``.

    ``log_path`` is truncated first. When the JVM does not start, the
    exception pyspark raises says little; the reason is in the file.
    """
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway
    from pyspark.sql import SparkSession

    conf = SparkConf().setMaster(master).setAppName(app_name).setAll(list(settings.items()))
    builder = SparkSession.builder
    if SparkContext._gateway is None:
        with open(log_path, "wb") as log:
            # Popen duplicates the file's descriptor into the child; ours can close.
            gateway = launch_gateway(conf, popen_kwargs={"stdout": log, "stderr": subprocess.STDOUT})
        SparkContext(conf=conf, gateway=gateway)
    else:
        builder = builder.config(conf=conf)
    return builder.getOrCreate()
