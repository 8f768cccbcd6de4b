"""Clients after close(), after their with-block, and never initialised, through confluent_kafka and kafka.confluent.

Every method of a closed client raises ``RuntimeError`` with confluent-kafka's
text ("Producer has been closed", "Consumer closed", "AdminClient has been
closed", and "Handle has been closed" for the methods on the connection
handle); ``close()`` twice is fine; ``len()`` is 0. A subclass whose
``__init__`` never calls the base class's is such a closed client too.
"""

from __future__ import annotations

import pytest

from test.confluent.outcomes import raised


def _outcome(call):
    try:
        result = call()
    except Exception as exc:  # noqa: BLE001 - the outcome is compared
        return raised(exc, with_text=False)
    return ("returned", result if isinstance(result, (int, type(None))) else type(result).__name__)


def _producer_calls(lib, producer):
    return {
        "produce": lambda: producer.produce("t", b"v"), "poll": lambda: producer.poll(0),
        "flush": lambda: producer.flush(0.1), "len": lambda: len(producer), "purge": producer.purge,
        "produce_batch": lambda: producer.produce_batch("t", [{"value": b"v"}]),
        "list_topics": lambda: producer.list_topics(timeout=1), "init_transactions": lambda: producer.init_transactions(1),
        "begin_transaction": producer.begin_transaction, "abort_transaction": lambda: producer.abort_transaction(1),
        "commit_transaction": lambda: producer.commit_transaction(1),
        "set_sasl_credentials": lambda: producer.set_sasl_credentials("u", "p"),
        "close": producer.close,
    }


def _consumer_calls(lib, consumer):
    tp = lib.TopicPartition
    return {
        "poll": lambda: consumer.poll(0.1), "consume": lambda: consumer.consume(1, 0.1),
        "subscribe": lambda: consumer.subscribe(["t"]), "unsubscribe": consumer.unsubscribe,
        "assign": lambda: consumer.assign([tp("t", 0)]), "unassign": consumer.unassign,
        "incremental_assign": lambda: consumer.incremental_assign([tp("t", 0)]),
        "incremental_unassign": lambda: consumer.incremental_unassign([tp("t", 0)]),
        "assignment": consumer.assignment, "commit": lambda: consumer.commit(offsets=[tp("t", 0, 1)]),
        "committed": lambda: consumer.committed([tp("t", 0)], timeout=1),
        "position": lambda: consumer.position([tp("t", 0)]), "seek": lambda: consumer.seek(tp("t", 0, 1)),
        "pause": lambda: consumer.pause([tp("t", 0)]), "resume": lambda: consumer.resume([tp("t", 0)]),
        "store_offsets": lambda: consumer.store_offsets(offsets=[tp("t", 0, 1)]),
        "get_watermark_offsets": lambda: consumer.get_watermark_offsets(tp("t", 0), timeout=1),
        "offsets_for_times": lambda: consumer.offsets_for_times([tp("t", 0, 1)], timeout=1),
        "list_topics": lambda: consumer.list_topics(timeout=1), "memberid": consumer.memberid,
        "consumer_group_metadata": consumer.consumer_group_metadata,
        "set_sasl_credentials": lambda: consumer.set_sasl_credentials("u", "p"),
        "cluster_id": lambda: consumer.cluster_id(timeout=1), "close": consumer.close,
    }


def _admin_calls(admin, new_topic, topics):
    return {
        "list_topics": lambda: admin.list_topics(timeout=1), "create_topics": lambda: admin.create_topics([new_topic]),
        "describe_topics": lambda: admin.describe_topics(topics), "describe_cluster": admin.describe_cluster,
        "list_consumer_groups": admin.list_consumer_groups, "poll": lambda: admin.poll(0),
        "cluster_id": lambda: admin.cluster_id(timeout=1), "len": lambda: len(admin),
        "set_sasl_credentials": lambda: admin.set_sasl_credentials("u", "p"),
    }


def _both(ck, kc, build):
    results = {lib.__name__: build(lib) for lib in (ck, kc)}
    assert results["kafka.confluent"] == results["confluent_kafka"]
    return results["kafka.confluent"]


def test_a_closed_producer(broker, ck, kc):
    def run(lib):
        producer = lib.Producer({"bootstrap.servers": broker.bootstrap_servers})
        with producer as entered:
            assert entered is producer
        return {name: _outcome(call) for name, call in _producer_calls(lib, producer).items()}

    seen = _both(ck, kc, run)
    assert seen["produce"] == ("RuntimeError", "Producer has been closed")
    assert seen["list_topics"] == ("RuntimeError", "Handle has been closed")
    assert seen["close"] == ("returned", True) and seen["len"] == ("returned", 0)


def test_a_closed_consumer(broker, ck, kc):
    def run(lib):
        consumer = lib.Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "closed"})
        with consumer as entered:
            assert entered is consumer
        return {name: _outcome(call) for name, call in _consumer_calls(lib, consumer).items()}

    seen = _both(ck, kc, run)
    assert seen["pause"] == ("RuntimeError", "Consumer closed")
    assert seen["cluster_id"] == ("RuntimeError", "Handle has been closed")
    assert seen["close"] == ("returned", None)


def test_an_admin_client_after_its_with_block(broker, ck, kc):
    def run(lib):
        admin_module = __import__(lib.__name__ + ".admin", fromlist=["AdminClient"])
        admin = admin_module.AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        with admin as entered:
            assert entered is admin
        calls = _admin_calls(admin, admin_module.NewTopic("closed-topic", 1, 1), lib.TopicCollection(["t"]))
        return {name: _outcome(call) for name, call in calls.items()}

    seen = _both(ck, kc, run)
    assert seen["create_topics"] == ("RuntimeError", "AdminClient has been closed")
    assert seen["list_topics"] == ("RuntimeError", "Handle has been closed")


@pytest.mark.parametrize("client", ["Producer", "Consumer", "AdminClient"])
def test_a_subclass_that_skips_the_base_init_is_a_closed_client(ck, kc, client):
    def run(lib):
        module = __import__(lib.__name__ + ".admin", fromlist=["AdminClient"]) if client == "AdminClient" else lib
        base = getattr(module, client)
        instance = type("Skipping", (base,), {"__init__": lambda self: None})()
        if client == "Producer":
            calls = _producer_calls(lib, instance)
        elif client == "Consumer":
            calls = _consumer_calls(lib, instance)
        else:
            calls = {name: call for name, call in _admin_calls(instance, module.NewTopic("x", 1, 1),
                                                                 lib.TopicCollection(["t"])).items()}
        return {name: _outcome(call) for name, call in calls.items()}

    seen = _both(ck, kc, run)
    assert not any(outcome[0] == "AttributeError" for outcome in seen.values())
