"""Admin: describe the cluster; create (names, dicts, NewTopic; again), describe, list and delete topics.

Usage: admin.py BOOTSTRAP TOPIC GROUP  (TOPIC does not exist; TOPIC-b and TOPIC-c are made here too)
"""

import json
import sys
import time

from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import TopicAlreadyExistsError, UnknownTopicOrPartitionError


def relative(name):
    return name.replace(topic, "TOPIC")


def topic_shape(t):
    return [relative(t["name"]), t["error_code"], t["is_internal"], sorted(t),
            [[p["partition_index"], p["error_code"], len(p["replica_nodes"]), sorted(p)] for p in t["partitions"]]]


bootstrap, topic = sys.argv[1:3]
out = {}
admin = KafkaAdminClient(bootstrap_servers=bootstrap)
out["cluster"] = admin.describe_cluster()  # the same broker for both libraries: the whole dict compares
created = admin.create_topics({topic: {"num_partitions": 2, "replication_factor": 1}}, wait_for_metadata=True)
out["created"] = [[relative(t["name"]), t["error_code"], t["num_partitions"], sorted(t)] for t in created["topics"]]
admin.create_topics([topic + "-b"])
admin.create_topics([NewTopic(topic + "-c", 1, 1)])
try:
    admin.create_topics([topic])
    out["again"] = "created"
except TopicAlreadyExistsError:
    out["again"] = "TopicAlreadyExistsError"
again = admin.create_topics([topic], raise_errors=False)["topics"]
out["again_quiet"] = [[relative(t["name"]), t["error_code"]] for t in again]
admin.wait_for_topics([topic, topic + "-b", topic + "-c"], timeout_ms=30000)
out["described"] = [topic_shape(t) for t in admin.describe_topics([topic, topic + "-c", topic + "-missing"])]
out["listed"] = sorted(relative(t) for t in admin.list_topics() if t.startswith(topic))
deleted = admin.delete_topics([topic, topic + "-b", topic + "-c"])
out["deleted"] = sorted([relative(t["name"]), t["error_code"], sorted(t)] for t in deleted["topics"])
try:
    admin.delete_topics([topic + "-missing"])
    out["delete_missing"] = "deleted"
except UnknownTopicOrPartitionError:
    out["delete_missing"] = "UnknownTopicOrPartitionError"
deadline = time.monotonic() + 30
while any(t.startswith(topic) for t in admin.list_topics()) and time.monotonic() < deadline:
    time.sleep(0.2)
out["gone"] = not any(t.startswith(topic) for t in admin.list_topics())
admin.close()
print(json.dumps(out, sort_keys=True))
