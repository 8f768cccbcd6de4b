"""AdminClient argument checks, differential: kafka.confluent against confluent_kafka.

Every admin call is made with one bad argument (a wrong type, an empty or
None list, a duplicate, a bad enum, a timeout out of range, a bad ACL field)
on both clients, which point at an address where nothing listens. Both must
raise the same exception type; ours must raise before any network work: the
call returns at once and never reaches the client's request machinery
(``AdminClient._run``). Some arguments confluent-kafka accepts although they
look wrong; both must accept those. Others librdkafka refuses without a
broker by failing the call's futures: both must fail them at once with the
same error code, and ours must send nothing. Last, ``poll()`` serves error_cb
(the connection errors of a client that has one) as confluent-kafka does.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import threading
import time
import types
from typing import Any, Callable, Dict, List, Tuple

import pytest

NOWHERE = {"bootstrap.servers": "127.0.0.1:9", "socket.timeout.ms": 100, "log_level": 0}
SETTLED = 2.0  # s: a future failed "at once" has failed by then (a call sent out fails _TIMED_OUT instead)


def api(lib: Any) -> Any:
    """The names a case needs, from one implementation."""
    admin = importlib.import_module(lib.__name__ + ".admin")
    ns = types.SimpleNamespace(lib=lib, admin=admin)
    for name in ("TopicPartition", "TopicCollection", "ConsumerGroupTopicPartitions", "IsolationLevel",
                 "ConsumerGroupState", "ConsumerGroupType"):
        setattr(ns, name, getattr(lib, name))
    for name in ("NewTopic", "NewPartitions", "ConfigResource", "ConfigEntry", "AlterConfigOpType", "AclBinding",
                 "AclBindingFilter", "ResourceType", "ResourcePatternType", "AclOperation", "AclPermissionType",
                 "OffsetSpec", "ScramCredentialInfo", "ScramMechanism", "UserScramCredentialUpsertion",
                 "UserScramCredentialDeletion", "UserScramCredentialAlteration"):
        setattr(ns, name, getattr(admin, name))
    ns.ElectionType = admin._ElectionType
    return ns


def acl(a: Any, **changes: Any) -> Any:
    """A valid ACL binding (by names), with ``changes``."""
    fields = dict(restype="topic", name="orders", resource_pattern_type="literal", principal="User:ann",
                  host="*", operation="write", permission_type="allow")
    fields.update(changes)
    return a.AclBinding(**fields)


def acl_filter(a: Any, **changes: Any) -> Any:
    """A filter matching every ACL, with ``changes``."""
    fields = dict(restype="any", name=None, resource_pattern_type="any", principal=None, host=None,
                  operation="any", permission_type="any")
    fields.update(changes)
    return a.AclBindingFilter(**fields)


def entry(a: Any, name: Any = "retention.ms", value: Any = "1000", op: Any = "SET") -> Any:
    if isinstance(op, str):
        op = a.AlterConfigOpType[op]
    return a.ConfigEntry(name, value, incremental_operation=op)


def topic_res(a: Any, **kwargs: Any) -> Any:
    return a.ConfigResource(a.ResourceType.TOPIC, "orders", **kwargs)


def changed(obj: Any, **attrs: Any) -> Any:
    """``obj`` with attributes overwritten after construction (what a caller can do)."""
    for name, value in attrs.items():
        setattr(obj, name, value)
    return obj


Case = Tuple[str, Callable[[Any, Any], Any]]

# -- calls both must refuse synchronously: (id, call(api, client)) ------------------------------------------------

TIMEOUT_CALLS: Dict[str, Callable[[Any, Any, Dict[str, Any]], Any]] = {
    "create_topics": lambda a, c, kw: c.create_topics([a.NewTopic("orders", 1, 1)], **kw),
    "delete_topics": lambda a, c, kw: c.delete_topics(["orders"], **kw),
    "describe_configs": lambda a, c, kw: c.describe_configs([topic_res(a)], **kw),
    "create_acls": lambda a, c, kw: c.create_acls([acl(a)], **kw),
    "describe_acls": lambda a, c, kw: c.describe_acls(acl_filter(a), **kw),
    "list_consumer_groups": lambda a, c, kw: c.list_consumer_groups(**kw),
    "describe_topics": lambda a, c, kw: c.describe_topics(a.TopicCollection(["orders"]), **kw),
    "describe_cluster": lambda a, c, kw: c.describe_cluster(**kw),
    "alter_consumer_group_offsets": lambda a, c, kw: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("orders", 0, 7)])], **kw),
    "list_offsets": lambda a, c, kw: c.list_offsets({a.TopicPartition("orders", 0): a.OffsetSpec.earliest()}, **kw),
    "delete_records": lambda a, c, kw: c.delete_records([a.TopicPartition("orders", 0, 7)], **kw),
}
BAD_TIMEOUTS = {
    "request_timeout=text": {"request_timeout": "2"},
    "request_timeout=None": {"request_timeout": None},
    "request_timeout=-1": {"request_timeout": -1},
    "request_timeout=over an hour": {"request_timeout": 3600.5},
    "request_timeout=nan": {"request_timeout": float("nan")},
    "unknown option": {"wait_for_it": True},
}
REFUSED: List[Case] = [
    ("%s %s" % (call, bad), (lambda call, kw: lambda a, c: TIMEOUT_CALLS[call](a, c, kw))(call, kw))
    for call in TIMEOUT_CALLS for bad, kw in BAD_TIMEOUTS.items()
] + [
    # operation_timeout may be -1 ms (do not wait), not less
    ("create_topics operation_timeout=-2", lambda a, c: c.create_topics([a.NewTopic("orders", 1, 1)],
                                                                        operation_timeout=-2)),
    ("delete_records operation_timeout=text", lambda a, c: c.delete_records([a.TopicPartition("orders", 0, 7)],
                                                                            operation_timeout="soon")),
    ("describe_configs operation_timeout", lambda a, c: c.describe_configs([topic_res(a)], operation_timeout=1)),
    # flags are bools, nothing else
    ("create_topics validate_only=1", lambda a, c: c.create_topics([a.NewTopic("orders", 1, 1)], validate_only=1)),
    ("create_partitions validate_only=None", lambda a, c: c.create_partitions([a.NewPartitions("orders", 3)],
                                                                              validate_only=None)),
    ("describe_topics include_authorized_operations=yes", lambda a, c: c.describe_topics(
        a.TopicCollection(["orders"]), include_authorized_operations="yes")),
    ("list_consumer_group_offsets require_stable=1", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing")], require_stable=1)),
    ("describe_configs broker=text", lambda a, c: c.describe_configs([topic_res(a)], broker="1")),
    ("delete_topics validate_only", lambda a, c: c.delete_topics(["orders"], validate_only=True)),
    # topics
    ("create_topics None", lambda a, c: c.create_topics(None)),
    ("create_topics []", lambda a, c: c.create_topics([])),
    ("create_topics [name]", lambda a, c: c.create_topics(["orders"])),
    ("create_topics [None, NewTopic]", lambda a, c: c.create_topics([None, a.NewTopic("orders", 1, 1)])),
    ("create_topics tuple", lambda a, c: c.create_topics((a.NewTopic("orders", 1, 1),))),
    ("create_topics num_partitions too big", lambda a, c: c.create_topics([a.NewTopic("orders", 100001, 1)])),
    ("create_topics replication_factor -3", lambda a, c: c.create_topics([a.NewTopic("orders", 1, -3)])),
    ("create_topics assignment and factor", lambda a, c: c.create_topics(
        [a.NewTopic("orders", 2, 1, replica_assignment=[[1], [2]])])),
    ("create_topics assignment, default count", lambda a, c: c.create_topics(
        [a.NewTopic("orders", replica_assignment=[[1], [2]])])),
    ("create_topics assignment too short", lambda a, c: c.create_topics(
        [a.NewTopic("orders", 3, replica_assignment=[[1], [2]])])),
    ("create_topics assignment of names", lambda a, c: c.create_topics(
        [a.NewTopic("orders", 1, replica_assignment=[["broker-1"]])])),
    ("delete_topics name", lambda a, c: c.delete_topics("orders")),
    ("delete_topics None", lambda a, c: c.delete_topics(None)),
    ("delete_topics []", lambda a, c: c.delete_topics([])),
    ("delete_topics [None]", lambda a, c: c.delete_topics(["orders", None])),
    ("create_partitions []", lambda a, c: c.create_partitions([])),
    ("create_partitions count 0", lambda a, c: c.create_partitions([a.NewPartitions("orders", 0)])),
    ("create_partitions assignment too long", lambda a, c: c.create_partitions(
        [a.NewPartitions("orders", 1, replica_assignment=[[1], [2]])])),
    ("create_partitions empty assignment", lambda a, c: c.create_partitions(
        [a.NewPartitions("orders", 2, replica_assignment=[])])),
    ("describe_topics list", lambda a, c: c.describe_topics(["orders"])),
    ("describe_topics [None]", lambda a, c: c.describe_topics(a.TopicCollection([None]))),
    ("describe_topics [7]", lambda a, c: c.describe_topics(a.TopicCollection(["orders", 7]))),
    ("describe_topics ['']", lambda a, c: c.describe_topics(a.TopicCollection(["orders", ""]))),
    ("describe_topics names tuple", lambda a, c: c.describe_topics(
        changed(a.TopicCollection([]), topic_names=("orders",)))),
    # configs
    ("describe_configs None", lambda a, c: c.describe_configs(None)),
    ("describe_configs []", lambda a, c: c.describe_configs([])),
    ("describe_configs [name]", lambda a, c: c.describe_configs(["orders"])),
    ("describe_configs empty name", lambda a, c: c.describe_configs([a.ConfigResource("topic", "")])),
    ("describe_configs name None", lambda a, c: c.describe_configs([changed(topic_res(a), name=None)])),
    ("alter_configs []", lambda a, c: c.alter_configs([])),
    ("alter_configs tuple", lambda a, c: c.alter_configs((topic_res(a),))),
    ("alter_configs configs list", lambda a, c: c.alter_configs([changed(topic_res(a), set_config_dict=[])])),
    ("alter_configs empty config name", lambda a, c: c.alter_configs([topic_res(a, set_config={"": "1"})])),
    ("incremental_alter_configs None", lambda a, c: c.incremental_alter_configs(None)),
    ("incremental_alter_configs [name]", lambda a, c: c.incremental_alter_configs(["orders"])),
    ("incremental_alter_configs []", lambda a, c: c.incremental_alter_configs([])),
    ("incremental_alter_configs no entries", lambda a, c: c.incremental_alter_configs([topic_res(a)])),
    ("incremental_alter_configs entries text", lambda a, c: c.incremental_alter_configs(
        [changed(topic_res(a), incremental_configs="retention.ms")])),
    ("incremental_alter_configs entry text", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=["retention.ms"])])),
    ("incremental_alter_configs operation None", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, op=None)])])),
    ("incremental_alter_configs operation text", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, op="APPEND_ALL")])])),
    ("incremental_alter_configs name None", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, name=None)])])),
    ("incremental_alter_configs empty name", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, name="")])])),
    ("incremental_alter_configs SET without value", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, value=None)])])),
    ("incremental_alter_configs value int", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a, value=1000, op="APPEND")])])),
    # ACLs
    ("AclBinding restype None", lambda a, c: acl(a, restype=None)),
    ("AclBinding name None", lambda a, c: acl(a, name=None)),
    ("AclBinding host int", lambda a, c: acl(a, host=80)),
    ("AclBinding restype 'nothing'", lambda a, c: acl(a, restype="nothing")),
    ("AclBinding restype ANY", lambda a, c: acl(a, restype="any")),
    ("AclBinding pattern MATCH", lambda a, c: acl(a, resource_pattern_type="match")),
    ("AclBinding operation 99", lambda a, c: acl(a, operation=99)),
    ("AclBinding permission float", lambda a, c: acl(a, permission_type=3.0)),
    ("AclBindingFilter operation None", lambda a, c: acl_filter(a, operation=None)),
    ("AclBindingFilter restype UNKNOWN", lambda a, c: acl_filter(a, restype="unknown")),
    ("create_acls None", lambda a, c: c.create_acls(None)),
    ("create_acls []", lambda a, c: c.create_acls([])),
    ("create_acls text", lambda a, c: c.create_acls("orders")),
    ("create_acls [None, binding]", lambda a, c: c.create_acls([None, acl(a)])),
    ("create_acls twice", lambda a, c: c.create_acls([acl(a), acl(a)])),
    ("create_acls UNKNOWN operation", lambda a, c: c.create_acls([acl(a, operation="unknown")])),
    ("create_acls UNKNOWN restype", lambda a, c: c.create_acls([acl(a, restype="unknown")])),
    ("delete_acls None", lambda a, c: c.delete_acls(None)),
    ("delete_acls []", lambda a, c: c.delete_acls([])),
    ("delete_acls [binding]", lambda a, c: c.delete_acls([acl(a)])),
    ("delete_acls twice", lambda a, c: c.delete_acls([acl_filter(a), acl_filter(a)])),
    ("describe_acls None", lambda a, c: c.describe_acls(None)),
    ("describe_acls binding", lambda a, c: c.describe_acls(acl(a))),
    ("describe_acls [filter]", lambda a, c: c.describe_acls([acl_filter(a)])),
    ("describe_acls restype_int 99", lambda a, c: c.describe_acls(changed(acl_filter(a), restype_int=99))),
    # groups
    ("list_consumer_groups states list", lambda a, c: c.list_consumer_groups(
        states=[a.ConsumerGroupState.STABLE])),
    ("list_consumer_groups states text", lambda a, c: c.list_consumer_groups(states={"STABLE"})),
    ("list_consumer_groups types UNKNOWN", lambda a, c: c.list_consumer_groups(
        types={a.ConsumerGroupType.UNKNOWN})),
    ("describe_consumer_groups name", lambda a, c: c.describe_consumer_groups("billing")),
    ("describe_consumer_groups []", lambda a, c: c.describe_consumer_groups([])),
    ("describe_consumer_groups [None]", lambda a, c: c.describe_consumer_groups([None])),
    ("delete_consumer_groups [7]", lambda a, c: c.delete_consumer_groups([7])),
    ("delete_consumer_groups []", lambda a, c: c.delete_consumer_groups([])),
    # group offsets
    ("list_consumer_group_offsets None", lambda a, c: c.list_consumer_group_offsets(None)),
    ("list_consumer_group_offsets []", lambda a, c: c.list_consumer_group_offsets([])),
    ("list_consumer_group_offsets two groups", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing"), a.ConsumerGroupTopicPartitions("audit")])),
    ("list_consumer_group_offsets group None", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions(None)])),
    ("list_consumer_group_offsets group ''", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("")])),
    ("list_consumer_group_offsets no partitions", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [])])),
    ("list_consumer_group_offsets with offset", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("orders", 0, 7)])])),
    ("list_consumer_group_offsets [None]", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [None])])),
    ("list_consumer_group_offsets partitions tuple", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", (a.TopicPartition("orders", 0),))])),
    ("alter_consumer_group_offsets no partitions", lambda a, c: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing")])),
    ("alter_consumer_group_offsets no offset", lambda a, c: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("orders", 0)])])),
    ("alter_consumer_group_offsets empty topic", lambda a, c: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("", 0, 7)])])),
    ("alter_consumer_group_offsets [text]", lambda a, c: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", ["orders"])])),
    # SCRAM
    ("describe_user_scram_credentials name", lambda a, c: c.describe_user_scram_credentials("ann")),
    ("describe_user_scram_credentials ['']", lambda a, c: c.describe_user_scram_credentials([""])),
    ("describe_user_scram_credentials [None]", lambda a, c: c.describe_user_scram_credentials([None])),
    ("alter_user_scram_credentials []", lambda a, c: c.alter_user_scram_credentials([])),
    ("alter_user_scram_credentials base class", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialAlteration("ann")])),
    ("alter_user_scram_credentials password text", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, 4096),
                                        "secret")])),
    ("alter_user_scram_credentials salt b''", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, 4096),
                                        b"secret", b"")])),
    ("alter_user_scram_credentials salt 0", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, 4096),
                                        b"secret", 0)])),
    ("alter_user_scram_credentials iterations text", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, "many"),
                                        b"secret")])),
    ("alter_user_scram_credentials iterations 0", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, 0),
                                        b"secret")])),
    ("alter_user_scram_credentials mechanism int", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialDeletion("ann", 1)])),
    # offsets and records
    ("list_offsets None", lambda a, c: c.list_offsets(None)),
    ("list_offsets key text", lambda a, c: c.list_offsets({"orders": a.OffsetSpec.latest()})),
    ("list_offsets value None", lambda a, c: c.list_offsets({a.TopicPartition("orders", 0): None})),
    ("list_offsets empty topic", lambda a, c: c.list_offsets({a.TopicPartition("", 0): a.OffsetSpec.latest()})),
    ("list_offsets partition -1", lambda a, c: c.list_offsets(
        {a.TopicPartition("orders", -1): a.OffsetSpec.latest()})),
    ("list_offsets isolation_level 1", lambda a, c: c.list_offsets(
        {a.TopicPartition("orders", 0): a.OffsetSpec.latest()}, isolation_level=1)),
    ("delete_records None", lambda a, c: c.delete_records(None)),
    ("delete_records [text]", lambda a, c: c.delete_records(["orders"])),
    ("delete_records no partition", lambda a, c: c.delete_records([a.TopicPartition("orders")])),
    # leaders
    ("elect_leaders type None", lambda a, c: c.elect_leaders(None, [a.TopicPartition("orders", 0)])),
    ("elect_leaders partitions text", lambda a, c: c.elect_leaders(a.ElectionType.PREFERRED, "orders")),
    ("elect_leaders partition -1", lambda a, c: c.elect_leaders(a.ElectionType.UNCLEAN,
                                                                [a.TopicPartition("orders", -1)])),
    # poll
    ("poll text", lambda a, c: c.poll("1")),
    ("poll without timeout", lambda a, c: c.poll()),
]

# -- calls confluent-kafka accepts although they look wrong: both must return ----------------------------------------

ACCEPTED: List[Case] = [
    ("request_timeout=True", lambda a, c: c.describe_cluster(request_timeout=True)),
    ("request_timeout rounds to 0 ms", lambda a, c: c.describe_cluster(request_timeout=-0.0001)),
    ("operation_timeout=-0.001", lambda a, c: c.delete_topics(["orders"], operation_timeout=-0.001)),
    ("request_timeout of an hour", lambda a, c: c.delete_records([a.TopicPartition("orders", 0, 7)],
                                                                 request_timeout=3600)),
    ("describe_configs broker=1", lambda a, c: c.describe_configs([topic_res(a)], broker=1)),
    ("create_topics 0 partitions", lambda a, c: c.create_topics([a.NewTopic("orders", 0, 1)])),
    ("create_topics factor 0", lambda a, c: c.create_topics([a.NewTopic("orders", 1, 0)])),
    ("create_topics empty name", lambda a, c: c.create_topics([a.NewTopic("", 1, 1)])),
    ("create_topics config None", lambda a, c: c.create_topics([a.NewTopic("orders", 1, 1, config={"a": None})])),
    ("create_topics same topic twice", lambda a, c: c.create_topics([a.NewTopic("orders", 1, 1),
                                                                     a.NewTopic("orders", 2, 1)])),
    ("create_topics broker twice", lambda a, c: c.create_topics(
        [a.NewTopic("orders", 1, replica_assignment=[[1, 1]])])),
    ("delete_topics [7]", lambda a, c: c.delete_topics([7])),
    ("describe_configs ANY type", lambda a, c: c.describe_configs([a.ConfigResource("any", "orders")])),
    ("describe_configs GROUP", lambda a, c: c.describe_configs([a.ConfigResource("group", "billing")])),
    ("AclBinding UNKNOWN enums", lambda a, c: acl(a, restype="unknown", operation="unknown")),
    ("AclBinding names any case", lambda a, c: acl(a, restype="Topic", operation="Read")),
    ("create_acls principal without type", lambda a, c: c.create_acls([acl(a, principal="ann")])),
    ("create_acls empty name", lambda a, c: c.create_acls([acl(a, name="")])),
    ("describe_topics []", lambda a, c: c.describe_topics(a.TopicCollection([]))),
    ("list_offsets {}", lambda a, c: c.list_offsets({})),
    ("delete_records []", lambda a, c: c.delete_records([])),
    ("describe_user_scram_credentials []", lambda a, c: c.describe_user_scram_credentials([])),
    ("alter_user_scram_credentials iterations float", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.SCRAM_SHA_256, 4096.5),
                                        b"secret")])),
    ("alter_user_scram_credentials same user twice", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialDeletion("ann", a.ScramMechanism.SCRAM_SHA_256)] * 2)),
]

# -- calls librdkafka fails without a broker: both fail every future at once, with this code ---------------------------

FAILED_AT_ONCE: List[Tuple[str, str, Callable[[Any, Any], Any]]] = [
    ("describe_topics twice", "_INVALID_ARG", lambda a, c: c.describe_topics(a.TopicCollection(["orders"] * 2))),
    ("describe_consumer_groups twice", "_INVALID_ARG", lambda a, c: c.describe_consumer_groups(["billing"] * 2)),
    ("delete_consumer_groups twice", "_INVALID_ARG", lambda a, c: c.delete_consumer_groups(["billing"] * 2)),
    ("delete_records twice", "_INVALID_ARG", lambda a, c: c.delete_records(
        [a.TopicPartition("orders", 0, 5), a.TopicPartition("orders", 0, 9)])),
    ("list_consumer_group_offsets twice", "_INVALID_ARG", lambda a, c: c.list_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("orders", 0)] * 2)])),
    ("alter_consumer_group_offsets twice", "_INVALID_ARG", lambda a, c: c.alter_consumer_group_offsets(
        [a.ConsumerGroupTopicPartitions("billing", [a.TopicPartition("orders", 0, 1),
                                                    a.TopicPartition("orders", 0, 2)])])),
    ("describe_user_scram_credentials twice", "_INVALID_ARG",
     lambda a, c: c.describe_user_scram_credentials(["ann", "ann"])),
    ("alter_user_scram_credentials UNKNOWN", "_INVALID_ARG", lambda a, c: c.alter_user_scram_credentials(
        [a.UserScramCredentialDeletion("bob", a.ScramMechanism.SCRAM_SHA_256),
         a.UserScramCredentialUpsertion("ann", a.ScramCredentialInfo(a.ScramMechanism.UNKNOWN, 4096), b"pw")])),
    ("incremental_alter_configs entry twice", "_INVALID_ARG", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a), entry(a, value=None, op="DELETE")])])),
    ("incremental_alter_configs resource twice", "_INVALID_ARG", lambda a, c: c.incremental_alter_configs(
        [topic_res(a, incremental_configs=[entry(a)])] * 2)),
    ("describe_configs two brokers", "_CONFLICT", lambda a, c: c.describe_configs(
        [a.ConfigResource("broker", "1"), a.ConfigResource("broker", "2")])),
    ("alter_configs broker by name", "_INVALID_ARG", lambda a, c: c.alter_configs(
        [a.ConfigResource("broker", "first", set_config={"log.retention.ms": "1"})])),
    ("list_offsets timestamp -5", "_INVALID_ARG", lambda a, c: c.list_offsets(
        {a.TopicPartition("orders", 0): a.OffsetSpec.for_timestamp(-5)})),
    ("elect_leaders twice", "_INVALID_ARG", lambda a, c: c.elect_leaders(
        a.ElectionType.PREFERRED, [a.TopicPartition("orders", 0)] * 2)),
]


@pytest.fixture(scope="module")
def real(ck: Any) -> Any:
    """The real client and its names (one for the module: its refusals send nothing)."""
    a = api(ck)
    client = a.admin.AdminClient(dict(NOWHERE))
    yield a, client
    client.__exit__(None, None, None)  # confluent-kafka's way to close it


@pytest.fixture
def ours(kc: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Our client and its names, with ``sent``: the calls that reached the request machinery."""
    a = api(kc)
    client = a.admin.AdminClient(dict(NOWHERE))
    sent: List[Any] = []
    run = client._run

    def spy(keys: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(keys)
        return run(keys, *args, **kwargs)

    monkeypatch.setattr(client, "_run", spy)
    yield a, client, sent
    client.close()


def attempt(call: Callable[[Any, Any], Any], a: Any, client: Any) -> Any:
    """The exception the call raised, or None."""
    try:
        call(a, client)
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return exc
    return None


def futures_of(result: Any) -> List[concurrent.futures.Future]:
    return list(result.values()) if isinstance(result, dict) else [result]


@pytest.mark.parametrize("call", [c for _, c in REFUSED], ids=[i for i, _ in REFUSED])
def test_a_bad_argument_is_refused_alike_before_any_network_work(call: Any, real: Any, ours: Any) -> None:
    expected = attempt(call, *real)
    assert expected is not None, "confluent_kafka accepted this call: the case is wrong"
    a, client, sent = ours
    got = attempt(call, a, client)
    assert got is not None, "kafka.confluent accepted what confluent_kafka refused with %r" % (expected,)
    assert isinstance(got, type(expected)), "confluent_kafka: %r, kafka.confluent: %r" % (expected, got)
    assert sent == [] and client._engine is None  # refused before any request or connection


@pytest.mark.parametrize("call", [c for _, c in ACCEPTED], ids=[i for i, _ in ACCEPTED])
def test_an_odd_argument_confluent_kafka_accepts_is_accepted(call: Any, real: Any, ours: Any) -> None:
    expected = attempt(call, *real)
    assert expected is None, "confluent_kafka refused this call (%r): the case is wrong" % (expected,)
    got = attempt(call, *ours[:2])
    assert got is None, "kafka.confluent refused what confluent_kafka accepts: %r" % (got,)


@pytest.mark.parametrize("code,call", [(code, c) for _, code, c in FAILED_AT_ONCE],
                         ids=[i for i, _, _ in FAILED_AT_ONCE])
def test_what_librdkafka_refuses_locally_fails_every_future_at_once(code: str, call: Any, real: Any,
                                                                    ours: Any) -> None:
    a, client, sent = ours
    for impl in (real, (a, client)):
        started = time.monotonic()
        futures = futures_of(call(*impl))
        assert futures
        for f in futures:
            error = f.exception(timeout=SETTLED)
            assert error is not None and error.args[0].name() == code, (impl[0].lib.__name__, error)
        assert time.monotonic() - started < SETTLED
    assert client._engine is None  # nothing was sent, no connection was made


# -- poll(): error_cb is served there, as confluent-kafka serves it ---------------------------------------------------

def _errors_served(lib: Any, servers: str, raise_from_cb: bool = False) -> Tuple[set, Any]:
    """(names of the errors error_cb got from poll() in the main thread, the exception poll() raised)."""
    admin = api(lib).admin
    seen: set = set()

    def on_error(err: Any) -> None:
        assert threading.current_thread() is threading.main_thread()
        seen.add(err.name())
        if raise_from_cb:
            raise LookupError("from error_cb")

    client = admin.AdminClient({"bootstrap.servers": servers, "socket.timeout.ms": 100, "error_cb": on_error})
    deadline = time.monotonic() + 10
    try:
        while time.monotonic() < deadline and len(seen) < 2:
            client.poll(0.1)
    except LookupError as exc:
        return seen, exc
    finally:
        if hasattr(client, "close"):
            client.close()
    return seen, None


@pytest.mark.parametrize("servers", ["127.0.0.1:9", "no-such-host.invalid:9092"])
def test_error_cb_gets_the_connection_errors_from_poll(ck: Any, kc: Any, servers: str) -> None:
    expected, _ = _errors_served(ck, servers)
    got, _ = _errors_served(kc, servers)
    assert got == expected and "_ALL_BROKERS_DOWN" in got


def test_an_exception_of_error_cb_comes_out_of_poll(ck: Any, kc: Any) -> None:
    for lib in (ck, kc):
        _, raised = _errors_served(lib, "127.0.0.1:9", raise_from_cb=True)
        assert isinstance(raised, LookupError), lib.__name__
