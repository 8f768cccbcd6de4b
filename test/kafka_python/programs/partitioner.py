"""kafka-python 3's two kinds of custom partitioner; print what they were given and chose.

Usage: partitioner.py BOOTSTRAP TOPIC GROUP  (the topic exists with 3 partitions)
"""

import json
import sys
import warnings

from kafka import KafkaProducer
from kafka.partitioner import Partitioner

bootstrap, topic = sys.argv[1:3]


class ByNumber(Partitioner):
    """kafka-python 3's interface: the record before and after serialization, and the cluster."""

    def __init__(self):
        self.calls = []

    def partition(self, topic, key, serialized_key, value, serialized_value, cluster):
        self.calls.append([key, serialized_key.decode() if serialized_key else None, value["n"],
                           serialized_value.decode(), sorted(cluster.partitions_for_topic(topic)),
                           sorted(cluster.available_partitions_for_topic(topic)), topic in cluster.topics()])
        return value["n"] % 3


class LastPartition:
    """Not a Partitioner: kafka-python 3 calls its partition(topic, serialized_key, cluster), with a warning."""

    def partition(self, topic, serialized_key, cluster):
        return sorted(cluster.partitions_for_topic(topic))[-1]


out = {}
by_number = ByNumber()
for name, partitioner in (("v3", by_number), ("v2", LastPartition())):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        producer = KafkaProducer(bootstrap_servers=bootstrap, partitioner=partitioner, key_serializer=str.encode,
                                 value_serializer=lambda v: json.dumps(v).encode())
        futures = [producer.send(topic, {"n": n}, key="k%d" % n) for n in range(5)]
    out[name + "_warned"] = any(issubclass(w.category, DeprecationWarning) and "artitioner" in str(w.message)
                                for w in caught)
    out[name] = [f.get(timeout=30).partition for f in futures]
    # An explicit partition is not the partitioner's to choose.
    out[name + "_explicit"] = producer.send(topic, {"n": 7}, key="k7", partition=1).get(timeout=30).partition
    producer.close()
out["v3_calls"] = by_number.calls
print(json.dumps(out, sort_keys=True))
