"""The data source is found by name without kafka.spark.register(): Spark's lookup of pyspark_* modules."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from test.spark.conftest import _pyspark_or_skip

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = """
import kafka.spark
kafka.spark.configure_python()
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
try:
    df = spark.read.format("kafkawire").option("kafka.bootstrap.servers", "127.0.0.1:1") \\
        .option("subscribe", "t").option("includeHeaders", "true").load()
    print("COLUMNS", ",".join(df.columns))
finally:
    spark.stop()
"""


def test_a_new_session_finds_kafkawire_by_itself():
    _pyspark_or_skip()
    env = dict(os.environ)
    # As an installed package would be: the checkout on the path, whatever the cwd.
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    with tempfile.TemporaryDirectory() as cwd:
        result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, timeout=180)
    assert "COLUMNS key,value,topic,partition,offset,timestamp,timestampType,headers" in result.stdout, \
        result.stderr[-3000:]
