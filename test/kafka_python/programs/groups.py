"""Admin group methods: alter_group_offsets, list_group_offsets, list_groups, delete_groups.

Usage: groups.py BOOTSTRAP TOPIC GROUP  (the test produced the records first; GROUP has no members)
"""

import json
import sys

from kafka import TopicPartition
from kafka.admin import KafkaAdminClient
from kafka.structs import OffsetAndMetadata

bootstrap, topic, group = sys.argv[1:4]
admin = KafkaAdminClient(bootstrap_servers=bootstrap)
partitions = [TopicPartition(topic, p) for p in range(3)]
altered = admin.alter_group_offsets(group, {tp: OffsetAndMetadata(p + 1, "", -1) for p, tp in enumerate(partitions)})
listed = admin.list_group_offsets(group)
some = admin.list_group_offsets({group: partitions[:1]})
groups = [g for g in admin.list_groups() if g["group_id"] == group]
deleted = admin.delete_groups([group])
after = admin.list_group_offsets(group)
admin.close()
print(json.dumps({
    "altered": sorted([tp.partition, error.__name__] for tp, error in altered.items()),
    "listed": sorted([tp.partition, o.offset] for tp, o in listed[group].items()),
    "some": sorted([tp.partition, o.offset] for tp, o in some[group].items()),
    "groups": [[g["group_id"] == group, g["protocol_type"]] for g in groups],
    "deleted": [[name == group, outcome] for name, outcome in deleted.items()],
    "after": len(after[group]),
}, sort_keys=True))
