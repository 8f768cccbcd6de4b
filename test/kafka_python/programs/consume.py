"""Consume with deserializers by iteration (no group); print the records seen.

Usage: consume.py BOOTSTRAP TOPIC GROUP  (the test produced the records first)
"""

import json
import sys

from kafka import KafkaConsumer

bootstrap, topic = sys.argv[1:3]
consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=None, auto_offset_reset="earliest",
                         key_deserializer=bytes.decode, value_deserializer=json.loads,
                         consumer_timeout_ms=5000)
records = [[r.topic == topic, r.partition, r.offset, r.key, r.value, [[k, v.decode()] for k, v in r.headers],
            r.serialized_key_size, r.serialized_value_size, r.serialized_header_size, r.timestamp_type,
            # kafka-python's headers are a list: equal to one, printed as one.
            r.headers == [("h", b"v" + r.key[1:].encode())], r.headers != [], repr(r.headers)]
           for r in consumer]
consumer.close()
print(json.dumps({"records": sorted(records)}, sort_keys=True))
