"""The names programs import from confluent_kafka, its ``cimpl`` module and ``admin``, and what they print.

Libraries such as quixstreams import classes from ``confluent_kafka.cimpl``;
programs print metadata objects (``str(topic)`` is the topic's name) and use
the partitioner functions and ``Uuid``.
"""

from __future__ import annotations

import importlib

import pytest


def test_cimpl_has_every_name_of_confluent_kafka_s(ck, kc):
    import confluent_kafka.cimpl as theirs

    import kafka.confluent.cimpl as ours

    public = [name for name in dir(theirs) if not name.startswith("_")]
    assert [name for name in public if not hasattr(ours, name)] == []
    assert {name: getattr(ours, name) for name in public if name.isupper()} == \
        {name: getattr(theirs, name) for name in public if name.isupper()}
    assert ours.Producer is kc.Producer and ours.NewTopic is kc.admin.NewTopic
    assert issubclass(ours.ConcurrentModificationException, RuntimeError)


def test_the_package_has_every_public_name_of_confluent_kafka_s(ck, kc):
    # A submodule becomes an attribute of its package once something imports it (confluent_kafka.avro
    # after another test's import), so submodules are checked as importable modules instead.
    names = [name for name in dir(ck) if not name.startswith("_")]
    submodules = [n for n in names if getattr(getattr(ck, n), "__name__", "") == "confluent_kafka." + n]
    missing = [n for n in names if n not in submodules and not hasattr(kc, n)]
    assert missing == ["os"]  # confluent-kafka's own import, not API
    for name in submodules:
        importlib.import_module("kafka.confluent." + name)


@pytest.mark.parametrize("function", ["murmur2", "consistent", "fnv1a"])
def test_partitioner_functions(ck, kc, function):
    for key in (b"", b"key", b"user_12345", bytes(range(200))):
        for count in (1, 3, 10, 997):
            assert getattr(kc, function)(key, count) == getattr(ck, function)(key, count)
    for bad, error in (((None, 3), TypeError), (("text", 3), TypeError), ((b"k", 0), ValueError),
                       ((b"k", 2.0), TypeError)):
        for lib in (ck, kc):
            with pytest.raises(error):
                getattr(lib, function)(*bad)


def test_uuid(ck, kc):
    for bits in ((1, 2), (-1, -2), (0, 0), (2 ** 62, -5)):
        ours, theirs = kc.Uuid(*bits), ck.Uuid(*bits)
        assert (str(ours), ours.get_most_significant_bits(), ours.get_least_significant_bits()) == \
            (str(theirs), theirs.get_most_significant_bits(), theirs.get_least_significant_bits())
    for lib in (ck, kc):
        with pytest.raises(OverflowError):
            lib.Uuid(2 ** 63, 0)
        with pytest.raises(TypeError):
            lib.Uuid("a", 0)


def test_metadata_objects_print_as_confluent_kafka_s(broker, ck, kc):
    import confluent_kafka.admin

    import kafka.confluent.admin
    from test.support.topics import new_topic

    name = new_topic(broker, partitions=2, prefix="layout")
    printed = {}
    for admin_module in (confluent_kafka.admin, kafka.confluent.admin):
        metadata = admin_module.AdminClient({"bootstrap.servers": broker.bootstrap_servers}).list_topics(timeout=10)
        topic = metadata.topics[name]
        partition = topic.partitions[0]
        broker_metadata = next(iter(metadata.brokers.values()))
        printed[admin_module.__name__] = [(str(o), repr(o)) for o in (metadata, topic, partition, broker_metadata)]
    assert printed["kafka.confluent.admin"] == printed["confluent_kafka.admin"]


def test_described_topic_ids_are_uuids_and_groups_print_their_id(broker, ck, kc):
    """describe_topics gives the topic id as the library's Uuid (same text on both sides), and a legacy
    GroupMetadata prints as its group id, as programs that print them expect."""
    import confluent_kafka.admin

    import kafka.confluent.admin
    from test.support.topics import new_topic

    name = new_topic(broker, partitions=1, prefix="layout-ids")
    group = "layout-group-%s" % name
    # A group that has committed offsets exists (Empty) and is listed: no wait for a join is needed.
    with kc.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group}) as consumer:
        consumer.commit(offsets=[kc.TopicPartition(name, 0, 0)], asynchronous=False)
    seen = {}
    for lib, admin_module in ((ck, confluent_kafka.admin), (kc, kafka.confluent.admin)):
        admin = admin_module.AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        described = admin.describe_topics(lib.TopicCollection([name]))[name].result(timeout=10)
        assert isinstance(described.topic_id, lib.Uuid)
        listed = [g for g in admin.list_groups(timeout=10) if g.id == group]
        seen[lib.__name__] = (str(described.topic_id), [(str(g), repr(g)) for g in listed])
    assert seen[kc.__name__] == seen[ck.__name__]
    assert seen[kc.__name__][1] == [(group, "GroupMetadata(%s)" % group)]
