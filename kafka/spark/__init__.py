"""Kafka topics in PySpark, with no JVM connector: the ``kafkawire`` data source.

``spark.read.format("kafkawire")``, ``readStream``, ``write`` and
``writeStream`` take the options and give the schema of Spark's built-in
Kafka connector (see ``docs/spark.rst``). Installing the ``spark`` extra
registers the source automatically (through the top-level module
``pyspark_kafkawire``); :func:`register` does it explicitly.

Importing :mod:`kafka` never imports pyspark; this package imports it only
when :func:`register` is called or :data:`DefaultSource` is looked up.
"""

from __future__ import annotations

import os
import sys
from typing import Any

NAME = "kafkawire"


def configure_python() -> None:
    """Make Spark's Python workers run this interpreter unless told otherwise.

    Sets ``PYSPARK_PYTHON`` and ``PYSPARK_DRIVER_PYTHON`` to
    ``sys.executable`` when they are unset; call it before the
    SparkSession is created (executors otherwise start ``python3`` from
    ``PATH``, which may lack kafkawire).
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)


def register(spark: Any) -> Any:
    """Register the ``kafkawire`` data source with ``spark``; returns the data source class."""
    from kafka.spark.source import KafkaDataSource

    spark.dataSource.register(KafkaDataSource)
    return KafkaDataSource


def __getattr__(name: str) -> Any:
    # DefaultSource is resolved lazily so that importing kafka.spark stays cheap.
    if name == "DefaultSource":
        from kafka.spark.source import KafkaDataSource

        return KafkaDataSource
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


__all__ = ["NAME", "configure_python", "register", "DefaultSource"]
