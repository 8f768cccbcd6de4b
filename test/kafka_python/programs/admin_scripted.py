"""Admin: log dirs, elections, reassignments, quorum, features, config resources, transactions, SCRAM.

Usage: admin_scripted.py BOOTSTRAP  (a scripted peer that answers these APIs; see test_admin_scripted_differential)
"""

import enum
import json
import sys

from kafka import TopicPartition
from kafka.admin import (AbortTransactionSpec, KafkaAdminClient, ScramMechanism, UserScramCredentialDeletion,
                         UserScramCredentialUpsertion)


def plain(value):
    """JSON-able: enums by name, error classes by name, tuples and sets as sorted lists."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, dict):
        return sorted([plain(k), plain(v)] for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def attempt(call):
    try:
        return ["ok", plain(call())]
    except Exception as exc:  # noqa: BLE001 - the error's class is the result
        return ["error", type(exc).__name__]


bootstrap = sys.argv[1]
out = {}
admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=5000)
out["log_dirs"] = attempt(lambda: admin.describe_log_dirs({"t": [0, 1]}))
out["move"] = attempt(lambda: admin.alter_replica_log_dirs({("t", 0, 0): "/data/a", ("t", 1, 0): "/data/b"}))


def elections(partitions, raise_errors):
    response = admin.elect_leaders(1, partitions, timeout_ms=4000, raise_errors=raise_errors)
    return [[r.topic, [[p.partition_id, p.error_code] for p in r.partition_result]]
            for r in response.replica_election_results]


out["elect"] = attempt(lambda: elections({"t": [0, 1]}, False))
out["elect_raises"] = attempt(lambda: elections({"t": [0, 1]}, True))
out["reassign"] = attempt(lambda: admin.alter_partition_reassignments(
    {TopicPartition("t", 0): [1, 2], TopicPartition("t", 1): None}, timeout_ms=4000))


def quorum():
    found = admin.describe_metadata_quorum()
    [partition] = found["topics"][0]["partitions"]
    voters = [[v["replica_id"], v["log_end_offset"], v["last_fetch_timestamp"]] for v in partition["current_voters"]]
    return [found["topics"][0]["topic_name"], partition["leader_id"], partition["leader_epoch"],
            partition["high_watermark"], partition["error"], voters, [o["replica_id"] for o in partition["observers"]]]


out["quorum"] = attempt(quorum)
out["features"] = attempt(lambda: admin.update_features({"metadata.version": 21, "kraft.version": (3, 0)},
                                                        validate_only=True, timeout_ms=4000))
out["config_resources"] = attempt(lambda: admin.list_config_resources(["TOPIC", "GROUP"]))
out["transactions"] = attempt(lambda: admin.list_transactions(state_filters=["Ongoing"], producer_id_filters=[7]))
out["described_txn"] = attempt(lambda: admin.describe_transactions(["old", "new"]))
out["unknown_txn"] = attempt(lambda: admin.describe_transactions(["nobody"]))
out["hanging"] = attempt(lambda: [[h["transactional_id"], h["state"], h["producer_id"], h["coordinator_id"],
                                   plain(h["topic_partitions"]), h["age_ms"] > 3600 * 1000]
                                  for h in admin.find_hanging_transactions(max_transaction_timeout_ms=60000)])
out["producers"] = attempt(lambda: admin.describe_producers([TopicPartition("t", 0)]))
out["producers_error"] = attempt(lambda: admin.describe_producers([TopicPartition("t", 1)]))
out["abort"] = attempt(lambda: admin.abort_transaction(AbortTransactionSpec(TopicPartition("t", 0), 7, 3)))
out["abort_fenced"] = attempt(lambda: admin.abort_transaction(AbortTransactionSpec(TopicPartition("t", 1), 7, 2)))
out["scram_described"] = attempt(lambda: admin.describe_user_scram_credentials(["alice", "nobody"]))
out["scram_altered"] = attempt(lambda: admin.alter_user_scram_credentials([
    UserScramCredentialUpsertion("alice", ScramMechanism.SCRAM_SHA_256, "pencil", iterations=4096, salt=b"NaCl"),
    UserScramCredentialDeletion("bob", "SCRAM-SHA-512")]))
admin.close()
print(json.dumps(out))
