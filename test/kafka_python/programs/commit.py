"""Commit in a group and read the commits back: commit(), commit(offsets), committed(), position().

Usage: commit.py BOOTSTRAP TOPIC GROUP  (the test produced the records first)
"""

import json
import sys

from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata

bootstrap, topic, group = sys.argv[1:4]
consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                         enable_auto_commit=False, consumer_timeout_ms=20000, session_timeout_ms=6000,
                         heartbeat_interval_ms=1000)
seen = 0
for _ in consumer:
    seen += 1
    if seen == 9:
        break
partitions = sorted(consumer.assignment())
before = [consumer.committed(tp) for tp in partitions]
consumer.commit()
after_commit = [consumer.committed(tp) for tp in partitions]
positions = [consumer.position(tp) for tp in partitions]
consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(1, "meta", -1)})
explicit = consumer.committed(TopicPartition(topic, 0), metadata=True)
consumer.close()
print(json.dumps({"seen": seen, "partitions": [tp.partition for tp in partitions], "before": before,
                  "after_commit": after_commit, "positions": positions,
                  # Tansu's quirk: it does not keep commit metadata and answers null,
                  # which kafka-python hands out as None and kafkawire as "" (what
                  # Kafka itself stores for null); "or None" compares the two.
                  "explicit": [explicit.offset, explicit.metadata or None]}, sort_keys=True))
