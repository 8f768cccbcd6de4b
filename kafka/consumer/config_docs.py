"""One-line descriptions of the settings in :data:`kafka.consumer.kafka.DEFAULT_CONFIG`.

The configuration reference of the documentation is generated from the
config table and this mapping (``docs/_ext/configtable.py``). Settings shared
with every client are described in :mod:`kafka.client.config_docs`; keys
listed here win, so a shared setting whose meaning or default changes for the
consumer can be described again. The documentation build fails when a key of
the table has no description, so add one whenever a setting is added.
"""

from typing import Dict

CONFIG_DOCS: Dict[str, str] = {
    "group_id": "Consumer group to join and to commit offsets for; ``None`` reads without a group "
                "(manual assignment, or every partition of the subscribed topics) and cannot commit.",
    "key_deserializer": "Callable turning the key ``bytes`` into the ``key`` of each record.",
    "value_deserializer": "Callable turning the value ``bytes`` into the ``value`` of each record.",
    "fetch_min_bytes": "Bytes the broker should gather before answering a fetch (it answers sooner "
                       "when ``fetch_max_wait_ms`` runs out).",
    "fetch_max_wait_ms": "Longest time the broker holds a fetch while waiting for "
                         "``fetch_min_bytes``.",
    "fetch_max_bytes": "Upper bound on the data of one fetch response, over all partitions.",
    "max_partition_fetch_bytes": "Upper bound on the data returned for one partition in one fetch.",
    "auto_offset_reset": "Where to start when there is no committed offset or it is out of range: "
                         "``'earliest'``, ``'latest'`` or ``'none'`` (raise); ``'smallest'`` and "
                         "``'largest'`` are accepted too.",
    "enable_auto_commit": "Commit the positions of the group's partitions in the background of "
                          "``poll()`` every ``auto_commit_interval_ms``, and on close.",
    "auto_commit_interval_ms": "Period of automatic offset commits.",
    "default_offset_commit_callback": "``callback(offsets, exception_or_None)`` for "
                                      "``commit_async()`` calls that pass none; runs in the thread "
                                      "calling ``poll()``.",
    "check_crcs": "Verify the CRC of every record batch received.",
    "partition_assignment_strategy": "Assignors offered to the group, in order of preference: "
                                     "names (``'range'``, ``'roundrobin'``, ``'sticky'``, "
                                     "``'cooperative-sticky'``) or assignor objects (classic "
                                     "protocol only).",
    "heartbeat_interval_ms": "Period of the heartbeats that keep the group membership alive.",
    "session_timeout_ms": "Without a heartbeat for this long, the coordinator removes the member "
                          "and rebalances.",
    "max_poll_records": "Most records one ``poll()`` returns.",
    "max_poll_interval_ms": "Longest allowed gap between two ``poll()`` calls; past it the member "
                            "leaves the group so its partitions move elsewhere.",
    "consumer_timeout_ms": "Iteration over the consumer stops after this long without a record; "
                           "the default (infinity) iterates forever.",
    "isolation_level": "``'read_uncommitted'`` returns every record; ``'read_committed'`` hides "
                       "records of aborted transactions and stops at the last stable offset.",
    "exclude_internal_topics": "Leave internal topics such as ``__consumer_offsets`` out of "
                               "``topics()`` and of pattern subscriptions.",
    "group_instance_id": "Static membership id (KIP-345): a member restarting within the session "
                         "timeout gets its partitions back without a rebalance.",
    "group_protocol": "``'classic'`` (the consumer's assignor decides) or ``'consumer'`` (KIP-848: "
                      "the broker assigns partitions, Kafka 4.0 and later).",
    "client_rack": "This consumer's rack, sent in Fetch requests (v11+; KIP-392). A leader that answers "
                   "with a preferred read replica (a follower in this rack) has the partition fetched from "
                   "that follower until it errors, the leader changes or ``metadata_max_age_ms`` passes.",
    "deserialize_none": "``False``: a null key or value (a tombstone) stays ``None`` without calling the "
                        "deserializer. ``True``: deserializers are called with ``None`` too, as kafka-python "
                        "does.",
    "request_timeout_ms": "How long to wait for the answer to one request (30 s, as in kafka-python 3). "
                          "A JoinGroup waits longer on its own: up to the rebalance timeout "
                          "(``max_poll_interval_ms``) plus a margin.",
}
