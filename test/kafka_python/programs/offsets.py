"""The offsets APIs: beginning_offsets, end_offsets, offsets_for_times, seek_to_beginning/end, position.

Usage: offsets.py BOOTSTRAP TOPIC GROUP  (the test produced records first)
"""

import json
import sys

from kafka import KafkaConsumer, TopicPartition

bootstrap, topic = sys.argv[1:3]
consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None)
partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic))]
consumer.assign(partitions)
begin = consumer.beginning_offsets(partitions)
end = consumer.end_offsets(partitions)
# Tansu's quirk: ListOffsets by time ignores the records' timestamps (it
# answers by append time), so only "from time 0" (offset 0 everywhere) and
# "after the last record" (none) are asked, and no timestamp is printed.
times = consumer.offsets_for_times({tp: 0 for tp in partitions})
late = consumer.offsets_for_times({partitions[0]: 10 ** 13})  # year 2286: after every record
consumer.seek_to_end(partitions[0])
at_end = consumer.position(partitions[0])
consumer.seek_to_beginning()
at_start = [consumer.position(tp) for tp in partitions]
consumer.seek(partitions[1], 1)
record = next(iter(consumer.poll(timeout_ms=10000).get(partitions[1], [])), None)
consumer.close()
print(json.dumps({
    "begin": [begin[tp] for tp in partitions], "end": [end[tp] for tp in partitions],
    "times": [None if times[tp] is None else times[tp].offset for tp in partitions],
    "late": None if late[partitions[0]] is None else late[partitions[0]].offset, "at_end": at_end, "at_start": at_start,
    "after_seek": None if record is None else [record.offset, record.timestamp],
}, sort_keys=True))
