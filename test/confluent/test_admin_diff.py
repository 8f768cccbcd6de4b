"""Differential tests of kafka.confluent.admin.AdminClient against confluent_kafka.admin.AdminClient.

The same admin calls go through both clients against the same embedded
broker; the futures must give the same results, or fail with the same
KafkaError codes. (Tansu lacks CreatePartitions, AlterConfigs and the ACL
APIs: there both must report a per-resource failure of the same code.)
"""

from __future__ import annotations

import concurrent.futures
import enum
import re
import uuid

import pytest

WAIT = 60


def outcome(future):
    """``("ok", summary)`` or ``("err", code name)`` for one future."""
    assert isinstance(future, concurrent.futures.Future)
    try:
        return ("ok", summarize(future.result(WAIT)))
    except Exception as exc:  # noqa: BLE001
        err = exc.args[0] if exc.args else exc
        assert type(exc).__name__ == "KafkaException"
        return ("err", err.name())


def outcomes(futures):
    return {str(key): outcome(f) for key, f in futures.items()}


def summarize(value):
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, dict):
        return {str(k): summarize(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((summarize(v) for v in value), key=repr)
    if hasattr(value, "partition") and hasattr(value, "offset"):
        return (value.topic, value.partition, value.offset, value.error and value.error.name())
    return {k: summarize(v) for k, v in sorted(vars(value).items())}


@pytest.fixture
def clients(broker, ck, kc):
    import confluent_kafka.admin
    import kafka.confluent.admin

    conf = {"bootstrap.servers": broker.bootstrap_servers}
    ours = kafka.confluent.admin.AdminClient(conf)
    yield (confluent_kafka.admin, ck, confluent_kafka.admin.AdminClient(conf)), (kafka.confluent.admin, kc, ours)
    ours.close()


def both(clients, scenario):
    """Run ``scenario(admin_module, package, client, suffix)`` through each client; return both answers."""
    answers = []
    for admin_mod, package, client in clients:
        answers.append(scenario(admin_mod, package, client, uuid.uuid4().hex[:8]))
    return answers


def renamed(answer, suffix):
    # Tansu stamps records with its own clock: times differ between the runs.
    return re.sub(r"'timestamp': \d{13}", "'timestamp': T", repr(answer).replace(suffix, "X"))


def test_topic_lifecycle(clients):
    def scenario(A, pkg, admin, suffix):
        t = "adm-" + suffix
        out = [outcomes(admin.create_topics([A.NewTopic(t, 2, 1)], operation_timeout=10))]
        out.append(outcomes(admin.create_topics([A.NewTopic(t, 2, 1)])))
        out.append(outcomes(admin.create_topics([A.NewTopic(t + "v", 1, 1)], validate_only=True)))
        out.append(outcomes(admin.create_partitions([A.NewPartitions(t, 3)])))
        described = admin.describe_topics(pkg.TopicCollection([t, t + "-missing"]))
        desc = described[t].result(WAIT)
        out.append((desc.name, desc.is_internal, [p.id for p in desc.partitions],
                    [p.leader.id for p in desc.partitions]))
        out.append(outcome(described[t + "-missing"]))
        out.append(outcomes(admin.delete_topics([t, t + "-missing"], operation_timeout=10)))
        return renamed(out, suffix)

    theirs, ours = both(clients, scenario)
    assert ours == theirs


def test_cluster_and_metadata(clients):
    def scenario(A, pkg, admin, suffix):
        d = admin.describe_cluster().result(WAIT)
        meta = admin.list_topics(timeout=10)
        return (d.cluster_id, d.controller.id, sorted((n.id, n.host, n.port) for n in d.nodes),
                meta.cluster_id, sorted(meta.brokers))

    theirs, ours = both(clients, scenario)
    assert ours == theirs


def test_configs(clients):
    def scenario(A, pkg, admin, suffix):
        t = "cfg-" + suffix
        admin.create_topics([A.NewTopic(t, 1, 1)])[t].result(WAIT)
        res = A.ConfigResource("topic", t)
        out = [outcomes(admin.describe_configs([res]))]
        inc = A.ConfigResource(A.ResourceType.TOPIC, t, incremental_configs=[
            A.ConfigEntry("retention.ms", "100000", incremental_operation=A.AlterConfigOpType.SET)])
        out.append(outcomes(admin.incremental_alter_configs([inc])))
        with _quiet():
            out.append(outcomes(admin.alter_configs([A.ConfigResource("topic", t, set_config={"retention.ms": "1"})])))
        admin.delete_topics([t])
        return renamed(out, suffix)

    theirs, ours = both(clients, scenario)
    assert ours == theirs


class _quiet:
    """Silence confluent-kafka's DeprecationWarning for alter_configs."""

    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", DeprecationWarning)

    def __exit__(self, *exc):
        self._w.__exit__(*exc)


def test_group_offsets(clients):
    def scenario(A, pkg, admin, suffix):
        t, g = "go-" + suffix, "grp-" + suffix
        admin.create_topics([A.NewTopic(t, 2, 1)])[t].result(WAIT)
        TP, CGTP = pkg.TopicPartition, pkg.ConsumerGroupTopicPartitions
        out = [outcomes(admin.list_consumer_group_offsets([CGTP(g)]))]
        out.append(outcomes(admin.list_consumer_group_offsets([CGTP(g, [TP(t, 0)])])))
        out.append(outcomes(admin.alter_consumer_group_offsets([CGTP(g, [TP(t, 0, 0), TP(t, 1, 0)])])))
        out.append(outcomes(admin.list_consumer_group_offsets([CGTP(g)])))
        listed = admin.list_consumer_groups().result(WAIT)
        out.append(sorted(x.group_id for x in listed.valid if x.group_id == g))
        desc = admin.describe_consumer_groups([g])[g].result(WAIT)
        out.append((desc.group_id, desc.state.name, desc.members, desc.coordinator.id))
        out.append(outcomes(admin.delete_consumer_groups([g])))
        admin.delete_topics([t])
        return renamed(out, suffix)

    theirs, ours = both(clients, scenario)
    assert ours == theirs


def test_list_offsets_and_delete_records(broker, clients, ck):
    def scenario(A, pkg, admin, suffix):
        t = "lo-" + suffix
        admin.create_topics([A.NewTopic(t, 1, 1)])[t].result(WAIT)
        producer = ck.Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 0})
        for i in range(3):
            producer.produce(t, b"v%d" % i, timestamp=1_700_000_000_000 + i * 1000)
            producer.flush(30)  # one record per batch: Tansu's "latest" is right then
        TP = pkg.TopicPartition
        out = [outcomes(admin.list_offsets({TP(t, 0): A.OffsetSpec.earliest()}))]
        out.append(outcomes(admin.list_offsets({TP(t, 0): A.OffsetSpec.latest()})))
        out.append(outcomes(admin.list_offsets({TP(t, 0): A.OffsetSpec.for_timestamp(1_700_000_001_000)})))
        out.append(outcomes(admin.list_offsets({TP(t, 5): A.OffsetSpec.earliest()}, request_timeout=10)))
        out.append(outcomes(admin.list_offsets({TP(t + "-none", 0): A.OffsetSpec.latest()}, request_timeout=10)))
        out.append(outcomes(admin.delete_records([TP(t, 0, 1)])))
        admin.delete_topics([t])
        return renamed(out, suffix)

    theirs, ours = both(clients, scenario)
    assert ours == theirs


def test_value_classes_match(ck, kc):
    import confluent_kafka.admin as CA
    import kafka.confluent.admin as KA

    for A in (CA, KA):
        assert [(m.name, m.value) for m in A.AclOperation] == [(m.name, m.value) for m in CA.AclOperation]
    pairs = [
        (lambda A: A.NewTopic("t", 3, 1), repr),
        (lambda A: A.NewTopic("t"), repr),
        (lambda A: A.NewPartitions("t", 5), repr),
        (lambda A: A.ConfigResource("topic", "t"), repr),
        (lambda A: A.ConfigResource(A.ResourceType.BROKER, "1"), repr),
        (lambda A: A.ConfigEntry("a", "b"), repr),
        (lambda A: A.ConfigEntry("a", "b"), str),
        (lambda A: A.AclBinding(A.ResourceType.TOPIC, "t", A.ResourcePatternType.LITERAL, "User:a", "*",
                                A.AclOperation.READ, A.AclPermissionType.ALLOW), repr),
        (lambda A: A.AclBindingFilter(A.ResourceType.ANY, None, A.ResourcePatternType.ANY, None, None,
                                      A.AclOperation.ANY, A.AclPermissionType.ANY), repr),
    ]
    for make, show in pairs:
        assert show(make(KA)) == show(make(CA))
    for A in (CA, KA):
        assert A.NewTopic("t", 3, 1) == A.NewTopic("t", 3, 2)
        assert A.NewTopic("t", 3, 1) != A.NewTopic("t", 4, 1)
        assert A.ConfigResource("topic", "t") == A.ConfigResource(A.ResourceType.TOPIC, "t")
        assert len({A.ConfigResource("topic", "t"), A.ConfigResource("TOPIC", "t")}) == 1
        assert A.OffsetSpec.latest() is A.OffsetSpec.latest()
        assert A.ListOffsetsResultInfo(1, 2, -1).leader_epoch is None
        assert A.DeletedRecords(4).low_watermark == 4
        with pytest.raises(ValueError):
            A.AclBinding(A.ResourceType.ANY, "t", A.ResourcePatternType.LITERAL, "User:a", "*",
                         A.AclOperation.READ, A.AclPermissionType.ALLOW)
        with pytest.raises(ValueError):
            A.ConfigResource("nosuchtype", "t")


def test_bad_arguments_raise_the_same(clients):
    def scenario(A, pkg, admin, suffix):
        out = []
        for call in (lambda: admin.describe_consumer_groups([]),
                     lambda: admin.describe_consumer_groups("g"), lambda: admin.delete_consumer_groups([]),
                     lambda: admin.describe_topics(["t"]),
                     lambda: admin.list_consumer_groups(states=[pkg.ConsumerGroupState.STABLE]),
                     lambda: admin.list_consumer_group_offsets([pkg.ConsumerGroupTopicPartitions("a"),
                                                                pkg.ConsumerGroupTopicPartitions("b")])):
            try:
                call()
                out.append(None)
            except Exception as exc:  # noqa: BLE001
                out.append(type(exc).__name__)
        return out

    theirs, ours = both(clients, scenario)
    assert ours == theirs


def test_group_calls_on_the_librdkafka_mock(mock_cluster, ck, kc):
    """The mock lacks the group admin APIs and the topic: per-broker, per-group and per-partition codes."""
    import confluent_kafka.admin as CA

    import kafka.confluent.admin as KA

    answers, clients = [], []
    for A, pkg in ((CA, ck), (KA, kc)):
        admin = A.AdminClient({"bootstrap.servers": mock_cluster.bootstrap_servers})
        clients.append(admin)
        CGTP, TP = pkg.ConsumerGroupTopicPartitions, pkg.TopicPartition
        listed = admin.list_consumer_groups(request_timeout=10).result(WAIT)
        out = [(listed.valid, sorted(e.name() for e in listed.errors))]
        out.append(outcomes(admin.describe_consumer_groups(["nope"], request_timeout=10)))
        out.append(outcomes(admin.delete_consumer_groups(["nope"], request_timeout=10)))
        out.append(outcomes(admin.list_consumer_group_offsets([CGTP("nope", [TP("no-topic", 0)])])))
        out.append(outcomes(admin.alter_consumer_group_offsets([CGTP("g", [TP("no-topic", 0, 5)])])))
        answers.append(repr(out))
    assert answers[1] == answers[0]


_ACL = dict(principal="User:a", host="*", operation=3, permission_type=3)


def _acl_peer():
    """A ScriptedPeer answering the ACL APIs (Tansu has none): one failure per call among successes."""
    from kafka.testing import ScriptedPeer

    def create(req):
        return {"throttle_time_ms": 0, "results": [
            {"error_code": 0 if i == 0 else 31, "error_message": None if i == 0 else "denied"}
            for i in range(len(req.body.creations))]}

    def describe(req):
        return {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "resources": [
            {"resource_type": 2, "resource_name": "t", "pattern_type": 3,
             "acls": [_ACL, dict(_ACL, principal="User:b", permission_type=2)]}]}

    def delete(req):
        results = [{"error_code": 0, "error_message": None, "matching_acls": [
                       dict(_ACL, error_code=0, error_message=None, resource_type=2, resource_name="t",
                            pattern_type=3)]},
                   {"error_code": 41, "error_message": "bad", "matching_acls": []}]
        return {"throttle_time_ms": 0, "filter_results": results[:len(req.body.filters)]}

    peer = ScriptedPeer(topics={"t": 1})
    peer.on("CreateAcls", create)
    peer.on("DescribeAcls", describe)
    peer.on("DeleteAcls", delete)
    return peer


def test_acls_against_scripted_answers(ck, kc):
    import confluent_kafka.admin as CA

    import kafka.confluent.admin as KA

    answers, clients = [], []
    for A in (CA, KA):
        peer = _acl_peer()
        admin = A.AdminClient({"bootstrap.servers": peer.bootstrap})
        clients.append(admin)  # confluent-kafka fails pending futures when its client is collected
        allow = A.AclBinding(A.ResourceType.TOPIC, "t", A.ResourcePatternType.LITERAL, "User:a", "*",
                             A.AclOperation.READ, A.AclPermissionType.ALLOW)
        deny = A.AclBinding(A.ResourceType.GROUP, "g", A.ResourcePatternType.PREFIXED, "User:b", "*",
                            A.AclOperation.ALL, A.AclPermissionType.DENY)
        match_all = A.AclBindingFilter(A.ResourceType.ANY, None, A.ResourcePatternType.ANY, None, None,
                                       A.AclOperation.ANY, A.AclPermissionType.ANY)
        one_topic = A.AclBindingFilter(A.ResourceType.TOPIC, "x", A.ResourcePatternType.LITERAL, None, None,
                                       A.AclOperation.ANY, A.AclPermissionType.ANY)
        out = [outcomes(admin.create_acls([allow, deny], request_timeout=10))]
        out.append([str(b) for b in admin.describe_acls(match_all, request_timeout=10).result(WAIT)])
        deleted = admin.delete_acls([match_all, one_topic], request_timeout=10)
        out.append({str(k): (outcome(f)[0], [str(b) for b in f.result(WAIT)] if outcome(f)[0] == "ok"
                             else outcome(f)[1]) for k, f in deleted.items()})
        with pytest.raises(ValueError):
            admin.create_acls([allow, allow])
        with pytest.raises(TypeError):
            admin.describe_acls(allow)
        answers.append(out)
    assert answers[1] == answers[0]
    assert list(answers[0][0].values()) == [("ok", None), ("err", "CLUSTER_AUTHORIZATION_FAILED")]


def test_acl_binding_round_trips_through_engine_acl():
    """AclBinding -> engine ACL -> AclBinding is lossless (Tansu has no ACL APIs to compare on)."""
    from kafka.confluent import admin as KA

    binding = KA.AclBinding(KA.ResourceType.TOPIC, "t", KA.ResourcePatternType.LITERAL, "User:a", "*",
                            KA.AclOperation.READ, KA.AclPermissionType.ALLOW)
    from kafka.confluent.admin._client import _binding, _engine_acl

    assert _binding(_engine_acl(binding)) == binding


@pytest.mark.parametrize("name, engine_name", [("ResourceType", "ResourceType"),
                                               ("ResourcePatternType", "ACLResourcePatternType"),
                                               ("AclOperation", "ACLOperation"),
                                               ("AclPermissionType", "ACLPermissionType")])
def test_acl_enums_are_confluent_kafkas_with_the_engines_values(ck, name, engine_name):
    """Members, values, repr, str and order as confluent_kafka's; each value the engine enum's (CLUSTER is BROKER)."""
    import confluent_kafka.admin as CA

    from kafka.admin import acl_resource as engine_acl
    from kafka.confluent import admin as KA

    theirs, ours, engine = getattr(CA, name), getattr(KA, name), getattr(engine_acl, engine_name)
    assert [(m.name, m.value, repr(m), str(m)) for m in ours] == \
        [(m.name, m.value, repr(m), str(m)) for m in theirs]
    assert sorted(ours, reverse=True) == [ours(m.value) for m in sorted(theirs, reverse=True)]
    for member in ours:
        assert member.value == engine[{"BROKER": "CLUSTER"}.get(member.name, member.name)].value
