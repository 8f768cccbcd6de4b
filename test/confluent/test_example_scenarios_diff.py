"""What confluent-kafka's sample programs rely on, through confluent_kafka and kafka.confluent alike.

Running the upstream sample programs unchanged on kafka.confluent showed
these behaviours mattering to them (the other scenarios they exercise,
producing then consuming, read-process-write transactions, watermarks and
the Schema Registry serdes, are tested in test_consumer_diff.py,
test_transactions_diff.py, test_consumer_calls_diff.py and
test_schema_registry_broker.py):

- a described topic's id prints as librdkafka prints it (22 base64 characters);
- ``include_authorized_operations=True`` gives None when the broker reports
  no operations, as the embedded broker does, not an empty list;
- ``alter_configs`` warns that it is deprecated, naming the caller's line;
- an AdminClient, Producer and Consumer used as context managers: the
  producer's exit delivers what was produced, the consumer's exit commits.
"""

from __future__ import annotations

import re
import time
import uuid
import warnings
from typing import Any, Dict, List, Tuple

import pytest

from test.support.topics import new_topic

WAIT = 30


def _admin_module(lib: Any) -> Any:
    import importlib

    return importlib.import_module(lib.__name__ + ".admin")


def _consumed_group(lib: Any, broker: Any, topic: str) -> str:
    """A group that consumed ``topic`` to its end and closed (so it exists, with no members)."""
    group = "g-" + uuid.uuid4().hex[:8]
    consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group,
                             "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None and not msg.error():
            break
    consumer.close()
    return group


def test_described_ids_and_authorized_operations(broker: Any, ck: Any, kc: Any) -> None:
    topic = new_topic(broker, partitions=2, prefix="described")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap_servers})
    producer.produce(topic, b"v", partition=0)
    producer.flush(WAIT)
    answers: Dict[str, Any] = {}
    for lib in (ck, kc):
        admin_mod = _admin_module(lib)
        group = _consumed_group(lib, broker, topic)
        admin = admin_mod.AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        described = admin.describe_topics(lib.TopicCollection([topic]),
                                          include_authorized_operations=True)[topic].result(WAIT)
        plain = admin.describe_topics(lib.TopicCollection([topic]))[topic].result(WAIT)
        cluster = admin.describe_cluster(include_authorized_operations=True).result(WAIT)
        grp = admin.describe_consumer_groups([group], include_authorized_operations=True)[group].result(WAIT)
        answers[lib.__name__] = {
            "topic_id_type": type(described.topic_id).__name__,
            "topic_id_text": bool(re.fullmatch(r"[A-Za-z0-9+/]{22}", str(described.topic_id))),
            "same_id_each_call": str(described.topic_id) == str(plain.topic_id),
            "topic_ops": described.authorized_operations,
            "cluster_ops": cluster.authorized_operations,
            "group_ops": grp.authorized_operations,
            "partitions": [p.id for p in described.partitions],
        }
    assert answers["kafka.confluent"] == answers["confluent_kafka"]
    assert answers["kafka.confluent"]["topic_id_type"] == "Uuid"
    assert answers["kafka.confluent"]["topic_id_text"]


def test_alter_configs_warns_that_it_is_deprecated(broker: Any, ck: Any, kc: Any) -> None:
    topic = new_topic(broker, prefix="deprecated")
    seen: List[Tuple[str, str, str, bool]] = []
    for lib in (ck, kc):
        admin_mod = _admin_module(lib)
        admin = admin_mod.AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        resource = admin_mod.ConfigResource("TOPIC", topic)
        resource.set_config("retention.ms", "86400000")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            futures = admin.alter_configs([resource])
        for future in futures.values():
            future.exception(WAIT)  # the embedded broker lacks AlterConfigs: only that it ends matters here
        deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
        assert len(deprecations) == 1, lib.__name__
        w = deprecations[0]
        seen.append((lib.__name__, str(w.message), w.category.__name__, w.filename == __file__))
    assert [s[1:] for s in seen[1:]] == [s[1:] for s in seen[:1]]
    assert seen[0][3], "the warning names the caller's line"


def _with_blocks(lib: Any, broker: Any, topic: str, group: str) -> Dict[str, Any]:
    admin_mod = _admin_module(lib)
    delivered: List[Tuple[str, int]] = []
    with admin_mod.AdminClient({"bootstrap.servers": broker.bootstrap_servers}) as admin:
        created = admin.create_topics([admin_mod.NewTopic(topic, num_partitions=1, replication_factor=1)])
        created_ok = created[topic].result(WAIT) is None
        admin.poll(0.1)
    with lib.Producer({"bootstrap.servers": broker.bootstrap_servers}) as producer:
        for i in range(5):
            producer.produce(topic, key=b"k%d" % i, value=b"v%d" % i,
                             callback=lambda err, msg: delivered.append((msg.value().decode(), msg.offset())))
            producer.poll(0)
    # Leaving the block delivered everything, so the callbacks have run by now.
    delivered_at_exit = sorted(delivered)
    got: List[Tuple[str, int]] = []
    conf = {"bootstrap.servers": broker.bootstrap_servers, "group.id": group, "auto.offset.reset": "earliest"}
    with lib.Consumer(conf) as consumer:
        consumer.subscribe([topic])
        deadline = time.monotonic() + WAIT
        while len(got) < 5 and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and not msg.error():
                got.append((msg.value().decode(), msg.offset()))
    # Leaving the block closed the consumer: it committed what it consumed.
    check = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group})
    committed = [(tp.partition, tp.offset) for tp in check.committed([lib.TopicPartition(topic, 0)], timeout=WAIT)]
    check.close()
    with pytest.raises(RuntimeError):
        consumer.poll(0)
    return {"created": created_ok, "delivered": delivered_at_exit, "consumed": got, "committed": committed}


def test_clients_as_context_managers(broker: Any, ck: Any, kc: Any) -> None:
    answers = {}
    for lib in (ck, kc):
        suffix = uuid.uuid4().hex[:8]
        answers[lib.__name__] = _with_blocks(lib, broker, "with-" + suffix, "with-group-" + suffix)
    assert answers["kafka.confluent"] == answers["confluent_kafka"]
    assert answers["confluent_kafka"]["committed"] == [(0, 5)]
