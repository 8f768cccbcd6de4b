"""Produce with futures, callbacks and errbacks; print the RecordMetadata seen.

Usage: produce.py BOOTSTRAP TOPIC GROUP  (the topic exists with 3 partitions)
"""

import json
import sys

from kafka import KafkaProducer

bootstrap, topic = sys.argv[1:3]
producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, enable_idempotence=False,
                         key_serializer=str.encode, value_serializer=lambda v: json.dumps(v).encode())
called, failed, futures = [], [], []
for i in range(12):
    future = producer.send(topic, {"n": i}, key="k%d" % (i % 4), headers=[("h", b"xy"), ("i", str(i).encode())])
    future.add_callback(lambda metadata, i=i: called.append(i))
    future.add_errback(lambda error, i=i: failed.append(i))
    futures.append(future)
producer.flush()
metadata = [f.get(timeout=30) for f in futures]
sync = producer.send(topic, {"n": "sync"}, key="k0", partition=2).get(timeout=30)
producer.close()
print(json.dumps({
    "metadata": [[m.topic == topic, m.partition, m.offset, m.serialized_key_size, m.serialized_value_size,
                  m.serialized_header_size] for m in metadata],
    "callbacks": sorted(called), "errbacks": failed, "done": all(f.is_done and f.succeeded() for f in futures),
    "sync": [sync.partition, sync.offset, sync.serialized_value_size],
}, sort_keys=True))
