"""One small kafka-python program: admin, produce, consume, commit, offsets.

Written against kafka-python's API only; ``test_differential.py`` runs it
under kafka-python's environment and under ours against the same broker
and compares the JSON it prints.  Standard library and ``kafka`` only.

Usage: _program.py BOOTSTRAP TOPIC GROUP
"""

import json
import sys
import time

from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import TopicAlreadyExistsError

RECORDS = 20


def main():
    bootstrap, topic, group = sys.argv[1:4]
    out = {}
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics([NewTopic(topic, 3, 1)])
    try:
        admin.create_topics([NewTopic(topic, 3, 1)])
        out["create_again"] = "created"
    except TopicAlreadyExistsError:
        out["create_again"] = "TopicAlreadyExistsError"
    admin.wait_for_topics([topic], timeout_ms=30000)
    out["listed"] = topic in admin.list_topics()

    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, enable_idempotence=False,
                             key_serializer=str.encode, value_serializer=lambda v: json.dumps(v).encode())
    called = []
    futures = []
    for i in range(RECORDS):
        future = producer.send(topic, {"n": i}, key="k%d" % (i % 5), headers=[("h", b"xy")])
        future.add_callback(lambda metadata, i=i: called.append(i))
        futures.append(future)
    producer.flush()
    out["metadata"] = [
        [m.topic == topic, m.partition, m.offset, m.serialized_key_size, m.serialized_value_size,
         m.serialized_header_size]
        for m in (f.get(timeout=30) for f in futures)]
    out["callbacks"] = sorted(called)
    sync = producer.send(topic, {"n": "sync"}, key="k0").get(timeout=30)
    out["sync"] = [sync.partition, sync.offset]
    producer.close()

    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                             enable_auto_commit=False, key_deserializer=bytes.decode, value_deserializer=json.loads,
                             consumer_timeout_ms=20000, session_timeout_ms=6000, heartbeat_interval_ms=1000)
    records = []
    for record in consumer:
        records.append(record)
        if len(records) == RECORDS + 1:
            break
    out["records"] = sorted(
        [r.partition, r.offset, r.key, r.value, [list(h) for h in r.headers], r.serialized_header_size]
        for r in records)
    out["records"] = [[p, o, k, v, [[hk, hv.decode()] for hk, hv in h], hs] for p, o, k, v, h, hs in out["records"]]
    consumer.commit()
    partitions = sorted(consumer.assignment())
    out["committed"] = [[tp.partition, consumer.committed(tp)] for tp in partitions]
    out["position"] = [[tp.partition, consumer.position(tp)] for tp in partitions]
    out["beginning"] = sorted([tp.partition, offset] for tp, offset in consumer.beginning_offsets(partitions).items())
    consumer.close()

    admin.delete_topics([topic])
    deadline = time.monotonic() + 30
    while topic in admin.list_topics() and time.monotonic() < deadline:
        time.sleep(0.2)
    out["deleted"] = topic not in admin.list_topics()
    admin.close()
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
