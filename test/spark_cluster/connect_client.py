"""A Spark Connect client writing rows through kafkawire and reading them back (run as a script).

    python connect_client.py sc://127.0.0.1:PORT BOOTSTRAP TOPIC N

Prints the ``[key, value]`` pairs read back, as JSON. It runs in its own
process because the test process already holds a classic SparkSession.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    import kafka.spark
    from pyspark.sql import SparkSession

    url, servers, topic, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    spark = SparkSession.builder.remote(url).getOrCreate()
    kafka.spark.register(spark)
    rows = spark.range(count).selectExpr("CAST(id AS STRING) AS key", "CAST(id * 2 AS STRING) AS value")
    rows.write.format("kafkawire").mode("append").option("kafka.bootstrap.servers", servers) \
        .option("topic", topic).save()
    back = spark.read.format("kafkawire").option("kafka.bootstrap.servers", servers).option("subscribe", topic) \
        .load().selectExpr("CAST(key AS STRING) AS k", "CAST(value AS STRING) AS v").collect()
    print(json.dumps(sorted([int(r.k), int(r.v)] for r in back)))
    spark.stop()


if __name__ == "__main__":
    main()
