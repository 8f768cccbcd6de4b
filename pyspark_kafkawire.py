"""Automatic registration of the ``kafkawire`` Spark data source.

PySpark registers the ``DefaultSource`` of every importable top-level module
named ``pyspark_*``, so once kafkawire is installed with its ``spark`` extra,
``spark.read.format("kafkawire")`` works with no further step. The data
source itself lives in :mod:`kafka.spark`.
"""

from kafka.spark.source import KafkaDataSource as DefaultSource

__all__ = ["DefaultSource"]
