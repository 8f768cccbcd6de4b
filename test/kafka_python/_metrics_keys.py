"""Print the metric groups and names a producer and a consumer report, as JSON.

Run by ``test_metrics.py`` with kafka-python's interpreter and with ours:
``python _metrics_keys.py BOOTSTRAP TOPIC``. Node and topic names are
replaced by ``*`` so the two clients' answers compare.
"""

import json
import re
import sys

from kafka import KafkaConsumer, KafkaProducer, TopicPartition


def shape(metrics):
    out = {}
    for group, values in metrics.items():
        group = re.sub(r"\.node-.*$", ".node-*", group)
        group = re.sub(r"^producer-topic-metrics\..*$", "producer-topic-metrics.*", group)
        out.setdefault(group, set()).update(values)
    return {group: sorted(names) for group, names in out.items()}


def main(bootstrap, topic):
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks=1, enable_idempotence=False)
    for _ in range(200):
        producer.send(topic, b"v" * 50, partition=0)
    producer.flush()
    produced = shape(producer.metrics())
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id="metrics-keys-" + topic,
                             auto_offset_reset="earliest", enable_auto_commit=False)
    consumer.assign([TopicPartition(topic, 0)])
    seen = 0
    for _ in range(50):
        seen += sum(len(v) for v in consumer.poll(500).values())
        if seen >= 200:
            break
    consumed = shape(consumer.metrics())
    consumer.close()
    json.dump({"producer": produced, "consumer": consumed, "consumed": seen}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
