"""kafka.confluent.aio against the real confluent_kafka.aio, on the embedded broker.

Each scenario runs once with confluent-kafka's asyncio clients (librdkafka
on worker threads) and once with kafkawire's (the native asyncio engine),
inside ``asyncio.run`` of a plain test, and the two outcomes are compared:
delivery reports, consumed records, error codes. The last scenario follows
confluent-kafka's ``examples/asyncio_example.py`` (a producer task and a
consumer task in one loop), with ``assign()`` where the example subscribes
and no transactions: kafkawire's asyncio engine has neither group
membership nor transactions yet, and says so (see the last tests).
"""

from __future__ import annotations

import asyncio
import socket

import pytest

from test.support.topics import new_topic

COUNT = 30


@pytest.fixture(scope="module")
def ck_aio():
    return pytest.importorskip("confluent_kafka.aio")


@pytest.fixture(scope="module")
def kc_aio():
    import kafka.confluent.aio

    return kafka.confluent.aio


def _free_port() -> int:
    """A loopback port nothing listens on (bound once, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _report(message):
    """What a delivery report or a consumed record says, the topic name aside."""
    return (message.partition(), message.offset(), message.key(), message.value(), message.headers(),
            message.error(), message.timestamp()[0])


# -- producing ------------------------------------------------------------------------------------

async def _produce_keyed(aio, servers, topic):
    producer = aio.AIOProducer({"bootstrap.servers": servers, "linger.ms": 5})
    try:
        futures = [await producer.produce(topic, value=b"value-%d" % i, key=b"key-%d" % i) for i in range(COUNT)]
        futures.append(await producer.produce(topic, value=b"no key, partition 2", partition=2))
        futures.append(await producer.produce(topic, value="text is sent as UTF-8", key="k"))
        delivered = await asyncio.gather(*futures)
        left = len(producer)
        topics = {message.topic() for message in delivered}
    finally:
        await producer.close()
    return [_report(message) for message in delivered], left, topics


def test_delivery_reports_are_the_same(broker, ck_aio, kc_aio):
    outcomes = []
    for aio in (ck_aio, kc_aio):
        topic = new_topic(broker, partitions=3, prefix="aio-produce")
        reports, left, topics = asyncio.run(_produce_keyed(aio, broker.bootstrap_servers, topic))
        assert topics == {topic} and left == 0
        outcomes.append(reports)
    theirs, ours = outcomes
    assert ours == theirs
    # The partitioner is librdkafka's consistent_random: keys land where confluent-kafka puts them.
    assert len({partition for partition, *_ in ours}) > 1


async def _refused(aio, servers, topic, **extra):
    producer = aio.AIOProducer({"bootstrap.servers": servers})
    try:
        await producer.produce(topic, value=b"v", key=b"k", **extra)
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__
    finally:
        await producer.close()
    return None


def test_headers_are_refused_as_confluent_kafka_refuses_them(broker, ck_aio, kc_aio):
    topic = new_topic(broker, partitions=1, prefix="aio-headers")
    outcomes = [asyncio.run(_refused(aio, broker.bootstrap_servers, topic, headers=[("h", b"v")]))
                for aio in (ck_aio, kc_aio)]
    assert outcomes == ["NotImplementedError", "NotImplementedError"]


def test_a_timestamp_is_refused_at_once(broker, kc_aio):
    # confluent-kafka 2.16 fails the record's future (and its batch's) later with the same class.
    topic = new_topic(broker, partitions=1, prefix="aio-stamp")
    assert asyncio.run(_refused(kc_aio, broker.bootstrap_servers, topic, timestamp=1234)) == "NotImplementedError"


async def _delivery_error(aio, lib, conf, topic, **extra):
    producer = aio.AIOProducer(conf)
    try:
        future = await producer.produce(topic, value=b"v", **extra)
        try:
            await asyncio.wait_for(future, 30)
        except lib.KafkaException as exc:
            error = exc.args[0]
            return type(exc).__name__, error.code(), error.str(), error.fatal(), error.retriable()
        return None
    finally:
        await producer.close()


def test_an_unknown_partition_fails_the_future_with_the_same_error(broker, ck, kc, ck_aio, kc_aio):
    topic = new_topic(broker, partitions=2, prefix="aio-unknown")
    conf = {"bootstrap.servers": broker.bootstrap_servers}
    outcomes = [asyncio.run(_delivery_error(aio, lib, conf, topic, partition=99))
                for aio, lib in ((ck_aio, ck), (kc_aio, kc))]
    assert outcomes[0] == outcomes[1]
    assert outcomes[1] == ("KafkaException", -190, "Message failed: Local: Unknown partition", False, False)


def test_an_unreachable_broker_times_the_record_out(ck, kc, ck_aio, kc_aio):
    conf = {"bootstrap.servers": "127.0.0.1:%d" % _free_port(), "message.timeout.ms": 1500, "log_level": 0}
    outcomes = [asyncio.run(_delivery_error(aio, lib, conf, "nowhere")) for aio, lib in ((ck_aio, ck), (kc_aio, kc))]
    assert outcomes[0][:2] == outcomes[1][:2] == ("KafkaException", -192)  # _MSG_TIMED_OUT
    assert outcomes[0] == outcomes[1]


# -- consuming ------------------------------------------------------------------------------------

def _filled_topic(broker, ck):
    """Three partitions, written by the real (synchronous) confluent_kafka, with keys and headers."""
    topic = new_topic(broker, partitions=3, prefix="aio-consume")
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap_servers})
    for i in range(COUNT):
        producer.produce(topic, value=b"value-%d" % i, key=b"key-%d" % i, partition=i % 3,
                         headers=[("index", str(i).encode()), ("empty", None)] if i % 2 else None)
    assert producer.flush(30) == 0
    return topic


async def _consume_assigned(aio, ck, servers, topic):
    consumer = aio.AIOConsumer({"bootstrap.servers": servers, "group.id": "aio-diff",
                                "auto.offset.reset": "earliest", "enable.auto.commit": False})
    try:
        await consumer.assign([ck.TopicPartition(topic, p) for p in range(3)])
        assigned = [(tp.topic, tp.partition, tp.offset) for tp in await consumer.assignment()]
        got = []
        first = await consumer.poll(10)
        assert first is not None
        got.append(first)
        while len(got) < COUNT:
            got.extend(await consumer.consume(7, 2))
        positions = [(tp.partition, tp.offset) for tp in
                     await consumer.position([ck.TopicPartition(topic, p) for p in range(3)])]
        extra = await consumer.poll(0.5)
    finally:
        await consumer.close()
    closed = None
    try:
        await consumer.poll(0.1)
    except RuntimeError as exc:
        closed = str(exc)
    return sorted(map(_report, got), key=str), assigned, positions, extra, closed


def test_assigned_partitions_hand_out_the_same_records(broker, ck, kc, ck_aio, kc_aio):
    topic = _filled_topic(broker, ck)
    theirs = asyncio.run(_consume_assigned(ck_aio, ck, broker.bootstrap_servers, topic))
    ours = asyncio.run(_consume_assigned(kc_aio, kc, broker.bootstrap_servers, topic))
    assert ours == theirs
    records, _assigned, positions, extra, closed = ours
    assert len(records) == COUNT and extra is None and closed == "Consumer closed"
    assert positions == [(0, 10), (1, 10), (2, 10)]
    by_key = {record[2]: record for record in records}
    assert by_key[b"key-1"][4] == [("index", b"1"), ("empty", None)] and by_key[b"key-2"][4] is None


async def _from_offsets(aio, ck, servers, topic):
    consumer = aio.AIOConsumer({"bootstrap.servers": servers, "group.id": "aio-diff-offsets"})
    try:
        await consumer.assign([ck.TopicPartition(topic, 0, 7), ck.TopicPartition(topic, 1, ck.OFFSET_BEGINNING)])
        got = []
        while len(got) < 13:
            got.extend(await consumer.consume(20, 2))
        await consumer.seek(ck.TopicPartition(topic, 0, 9))
        again = await consumer.poll(5)
        watermarks = await consumer.get_watermark_offsets(ck.TopicPartition(topic, 2), timeout=10)
    finally:
        await consumer.close()
    return sorted((m.partition(), m.offset()) for m in got), (again.partition(), again.offset()), watermarks


def test_assign_with_offsets_seek_and_watermarks(broker, ck, kc, ck_aio, kc_aio):
    topic = _filled_topic(broker, ck)
    theirs = asyncio.run(_from_offsets(ck_aio, ck, broker.bootstrap_servers, topic))
    ours = asyncio.run(_from_offsets(kc_aio, kc, broker.bootstrap_servers, topic))
    assert ours == theirs
    assert ours[1] == (0, 9) and ours[2][0] == 0


async def _unreachable_consumer(aio, ck, port):
    consumer = aio.AIOConsumer({"bootstrap.servers": "127.0.0.1:%d" % port, "group.id": "g", "log_level": 0})
    try:
        await consumer.assign([ck.TopicPartition("nowhere", 0)])
        polled = await consumer.poll(1)
        consumed = await consumer.consume(5, 0.5)
        try:
            await consumer.get_watermark_offsets(ck.TopicPartition("nowhere", 0), timeout=1)
            error = None
        except ck.KafkaException as exc:
            error = (exc.args[0].code(), exc.args[0].str())
    finally:
        await consumer.close()
    return polled, consumed, error


def test_an_unreachable_broker_gives_no_records_and_the_same_error(ck, kc, ck_aio, kc_aio):
    port = _free_port()
    theirs = asyncio.run(_unreachable_consumer(ck_aio, ck, port))
    ours = asyncio.run(_unreachable_consumer(kc_aio, kc, port))
    assert ours == theirs
    assert ours[2] == (-187, "Failed to get watermark offsets: Local: All broker connections are down")


# -- confluent-kafka's asyncio example, in our words ----------------------------------------------

async def _example(aio, ck, servers, topic, rounds=3, per_round=20):
    """A producer task and a consumer task sharing one loop, as in confluent's asyncio example."""
    wanted = rounds * per_round
    consumed = []

    async def run_producer():
        producer = aio.AIOProducer({"bootstrap.servers": servers})
        delivered = []
        try:
            for r in range(rounds):
                tasks = [asyncio.create_task(producer.produce(topic=topic, key="key-%d-%d" % (r, i),
                                                              value="value-%d-%d" % (r, i)))
                         for i in range(per_round)]
                futures = await asyncio.gather(*tasks)
                delivered.extend(await asyncio.gather(*futures))
                await asyncio.sleep(0.05)
        finally:
            await producer.close()
        return sorted((m.key(), m.value(), m.error()) for m in delivered)

    async def run_consumer():
        consumer = aio.AIOConsumer({"bootstrap.servers": servers, "group.id": topic + "-example",
                                    "auto.offset.reset": "earliest", "enable.auto.commit": "false",
                                    "enable.auto.offset.store": "false"})
        committed = None
        try:
            await consumer.assign([ck.TopicPartition(topic, p) for p in range(2)])
            await consumer.pause(await consumer.assignment())
            await consumer.resume(await consumer.assignment())
            for _ in range(400):
                if len(consumed) >= wanted:
                    break
                message = await consumer.poll(0.25)
                if message is None:
                    continue
                assert message.error() is None
                consumed.append((message.key(), message.value(), None))
                await consumer.store_offsets(message=message)
                if len(consumed) % 25 == 0:
                    await consumer.commit(asynchronous=False)
            await consumer.commit(asynchronous=False)
            positions = await consumer.position(await consumer.assignment())
            committed = await consumer.committed(await consumer.assignment(), timeout=10)
        finally:
            await consumer.close()
        return sorted(consumed), [(p.partition, p.offset) for p in positions], \
            [(c.partition, c.offset) for c in committed]

    produced, (records, positions, committed) = await asyncio.gather(run_producer(), run_consumer())
    return produced, records, positions, committed


def test_the_asyncio_example_scenario(broker, ck, kc, ck_aio, kc_aio):
    outcomes = []
    for aio, lib in ((ck_aio, ck), (kc_aio, kc)):
        topic = new_topic(broker, partitions=2, prefix="aio-example")
        outcomes.append(asyncio.run(_example(aio, lib, broker.bootstrap_servers, topic)))
    theirs, ours = outcomes
    produced, records, positions, committed = ours
    assert len(produced) == 60 and records == produced
    assert positions == committed and sum(offset for _, offset in committed) == 60
    assert ours == theirs


# -- what the asyncio engine does not offer yet ---------------------------------------------------

async def _missing(kc_aio, servers):
    consumer = kc_aio.AIOConsumer({"bootstrap.servers": servers, "group.id": "g"})
    producer = kc_aio.AIOProducer({"bootstrap.servers": servers})
    codes = []
    try:
        for call in (lambda: consumer.subscribe(["t"]), producer.init_transactions):
            try:
                await call()
            except Exception as exc:  # noqa: BLE001
                codes.append((type(exc).__name__, exc.args[0].name()))
    finally:
        await consumer.close()
        await producer.close()
    return codes


def test_subscribe_and_transactions_say_they_are_not_implemented(broker, kc_aio):
    assert asyncio.run(_missing(kc_aio, broker.bootstrap_servers)) == [
        ("KafkaException", "_NOT_IMPLEMENTED"), ("KafkaException", "_NOT_IMPLEMENTED")]


def test_idempotence_is_refused_when_the_producer_is_made(broker, kc, kc_aio):
    async def make():
        kc_aio.AIOProducer({"bootstrap.servers": broker.bootstrap_servers, "enable.idempotence": True})

    with pytest.raises(kc.KafkaException) as caught:
        asyncio.run(make())
    assert caught.value.args[0].name() == "_NOT_IMPLEMENTED"


def test_the_clients_need_a_running_loop(kc_aio):
    with pytest.raises(RuntimeError):
        kc_aio.AIOProducer({"bootstrap.servers": "127.0.0.1:1"})
    with pytest.raises(RuntimeError):
        kc_aio.AIOConsumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g"})
