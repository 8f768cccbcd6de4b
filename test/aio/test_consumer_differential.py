"""The same reads with aiokafka's AIOKafkaConsumer and with kafka.aio's: the same records and offsets.

A topic is filled once (several partitions, keys, headers, empty values and
tombstones, one codec per test); both consumers read it all from the
beginning and every field aiokafka's ConsumerRecord has is compared. The
offset APIs (beginning/end offsets, offsets for times, positions after
seeks, high watermarks) are compared the same way: on this broker both see
the same answers, quirks included (see DESIGN.md on Tansu's ListOffsets).
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import pytest

import kafka.aio
import kafka.aio.errors
from kafka.record import codecs
from kafka.structs import TopicPartition
from test.aio.helpers import run
from test.support.topics import new_topic

aiokafka = pytest.importorskip("aiokafka")

PARTITIONS = 3
FIELDS = ("topic", "partition", "offset", "timestamp", "timestamp_type", "key", "value", "checksum",
          "serialized_key_size", "serialized_value_size")


def _codecs() -> List[Any]:
    names: List[Any] = [None, "gzip"]
    from aiokafka.codec import has_lz4, has_snappy, has_zstd
    for name, theirs in (("snappy", has_snappy), ("lz4", has_lz4), ("zstd", has_zstd)):
        if theirs() and codecs.is_available(codecs.codec_id(name)):
            names.append(name)
    return names


async def _fill(bootstrap: str, topic: str, codec: Any) -> int:
    """Produce with kafka.aio's producer; the number of records."""
    count = 0
    async with kafka.aio.AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5,
                                          compression_type=codec) as producer:
        for i in range(300):
            headers = [("h", b"%d" % i), ("empty", b"")] if i % 4 == 0 else None
            await producer.send(topic, b"v" * (i % 150) + b"%d" % i, key=b"k%d" % (i % 11), headers=headers,
                                timestamp_ms=1700000000000 + i)
            count += 1
        for partition in range(PARTITIONS):
            await producer.send(topic, b"", key=b"empty", partition=partition)
            await producer.send(topic, None, key=b"tombstone", partition=partition)
            await producer.send(topic, b"no key", partition=partition)
            count += 3
        await producer.flush()
    return count


def _row(record: Any) -> Tuple[Any, ...]:
    return tuple(getattr(record, f) for f in FIELDS) + (tuple(tuple(h) for h in record.headers),)


async def _read_all(consumer: Any, topic: str, count: int) -> List[Tuple[Any, ...]]:
    consumer.assign([TopicPartition(topic, p) for p in range(PARTITIONS)] if consumer.__module__.startswith("kafka")
                    else [aiokafka.TopicPartition(topic, p) for p in range(PARTITIONS)])
    rows: List[Tuple[Any, ...]] = []
    while len(rows) < count:
        got = await consumer.getmany(timeout_ms=2000)
        assert got, "nothing more after %d records" % len(rows)
        for records in got.values():
            rows.extend(_row(r) for r in records)
    return sorted(rows, key=lambda r: (r[1], r[2]))


def _consumers(bootstrap: str, **kw: Any) -> Dict[str, Any]:
    return {"aiokafka": lambda: aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, **kw),
            "ours": lambda: kafka.aio.AIOKafkaConsumer(bootstrap_servers=bootstrap, **kw)}


@pytest.mark.parametrize("codec", _codecs())
def test_records_read_the_same(broker, codec: Any) -> None:
    topic = new_topic(broker, partitions=PARTITIONS, prefix="aioc-diff")

    async def main() -> Dict[str, List[Tuple[Any, ...]]]:
        count = await _fill(broker.bootstrap_servers, topic, codec)
        out = {}
        for name, make in _consumers(broker.bootstrap_servers, auto_offset_reset="earliest").items():
            async with make() as consumer:
                out[name] = await _read_all(consumer, topic, count)
        return out

    results = run(main())
    assert len(results["ours"]) == 309
    assert results["ours"] == results["aiokafka"]


def test_deserializers_see_what_aiokafka_gives_them(broker) -> None:
    topic = new_topic(broker, partitions=PARTITIONS, prefix="aioc-des")
    seen: Dict[str, List[Any]] = {"aiokafka": [], "ours": []}

    async def main() -> Dict[str, List[Tuple[Any, ...]]]:
        count = await _fill(broker.bootstrap_servers, topic, None)
        out = {}
        for name in ("aiokafka", "ours"):
            def key_des(raw: Any, name: str = name) -> Any:
                seen[name].append(raw)
                return None if raw is None else raw.decode()
            make = _consumers(broker.bootstrap_servers, auto_offset_reset="earliest", key_deserializer=key_des,
                              value_deserializer=lambda v: None if v is None else len(v))[name]
            async with make() as consumer:
                out[name] = await _read_all(consumer, topic, count)
        return out

    results = run(main())
    assert results["ours"] == results["aiokafka"]
    assert sorted(seen["ours"], key=repr) == sorted(seen["aiokafka"], key=repr)


def test_offset_apis_answer_the_same(broker) -> None:
    topic = new_topic(broker, partitions=PARTITIONS, prefix="aioc-offsets")

    async def main() -> Dict[str, Any]:
        await _fill(broker.bootstrap_servers, topic, None)
        out = {}
        for name, make in _consumers(broker.bootstrap_servers, auto_offset_reset="earliest").items():
            TP = TopicPartition if name == "ours" else aiokafka.TopicPartition
            tps = [TP(topic, p) for p in range(PARTITIONS)]
            async with make() as consumer:
                consumer.assign(tps)
                facts: Dict[str, Any] = {}
                facts["begin"] = sorted((tuple(tp), o) for tp, o in (await consumer.beginning_offsets(tps)).items())
                facts["end"] = sorted((tuple(tp), o) for tp, o in (await consumer.end_offsets(tps)).items())
                times = await consumer.offsets_for_times({tp: 1700000000000 + 150 for tp in tps})
                facts["times"] = sorted((tuple(tp), None if v is None else (v.offset, v.timestamp))
                                        for tp, v in times.items())
                future = await consumer.offsets_for_times({tps[0]: 1900000000000 * 10})
                facts["future"] = [None if v is None else tuple(v) for v in future.values()]
                facts["start"] = [await consumer.position(tp) for tp in tps]
                await consumer.seek_to_end(tps[0])
                facts["after_seek_to_end"] = await consumer.position(tps[0])
                await consumer.seek_to_beginning()
                facts["after_seek_to_beginning"] = [await consumer.position(tp) for tp in tps]
                consumer.seek(tps[1], 5)
                facts["after_seek"] = await consumer.position(tps[1])
                facts["highwater_before"] = consumer.highwater(tps[1])
                got = await consumer.getmany(tps[1], timeout_ms=5000)
                facts["first_after_seek"] = got[tps[1]][0].offset
                facts["highwater"] = consumer.highwater(tps[1])
                facts["lso"] = consumer.last_stable_offset(tps[1])
                facts["position_after"] = await consumer.position(tps[1])
                facts["assignment"] = sorted(tuple(tp) for tp in consumer.assignment())
                facts["partitions"] = sorted(consumer.partitions_for_topic(topic) or ())
                facts["topic_listed"] = topic in await consumer.topics()
                consumer.pause(tps[2])
                facts["paused"] = sorted(tuple(tp) for tp in consumer.paused())
                consumer.resume(tps[2])
                facts["resumed"] = sorted(consumer.paused())
            out[name] = facts
        return out

    results = run(main())
    ours, theirs = results["ours"], results["aiokafka"]
    # What one got of tps[1] depends on fetch timing: compare the bounds, not the count.
    assert ours["position_after"] > 5 and theirs["position_after"] > 5
    del ours["position_after"], theirs["position_after"]
    assert ours == theirs


def test_the_group_offsets_ours_commit_are_those_aiokafka_reads(broker) -> None:
    topic = new_topic(broker, partitions=PARTITIONS, prefix="aioc-commit")
    group = "aioc-group-" + topic

    async def main() -> Tuple[Any, ...]:
        await _fill(broker.bootstrap_servers, topic, None)
        tps = [TopicPartition(topic, p) for p in range(PARTITIONS)]
        async with kafka.aio.AIOKafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                              enable_auto_commit=False, auto_offset_reset="earliest") as ours:
            ours.assign(tps)
            before = await ours.committed(tps[0])
            await ours.commit({tps[0]: 7, tps[1]: (9, "meta")})
            await ours.getmany(tps[2], timeout_ms=5000, max_records=4)
            await ours.commit({tps[2]: await ours.position(tps[2])})
            mine = [await ours.committed(tp) for tp in tps]
        theirs_tps = [aiokafka.TopicPartition(topic, p) for p in range(PARTITIONS)]
        async with aiokafka.AIOKafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                             enable_auto_commit=False) as theirs:
            theirs.assign(theirs_tps)
            read = [await theirs.committed(tp) for tp in theirs_tps]
            start = await theirs.position(theirs_tps[0])
        async with kafka.aio.AIOKafkaConsumer(bootstrap_servers=broker.bootstrap_servers, group_id=group,
                                              enable_auto_commit=False) as again:
            again.assign(tps)
            start_again = await again.position(tps[0])
            sought = await again.seek_to_committed(tps[1])
        return before, mine, read, start, start_again, sought

    before, mine, read, start, start_again, sought = run(main())
    assert before is None
    assert mine == read == [7, 9, 4]
    assert start == start_again == 7
    assert sought == {TopicPartition(topic, 1): 9}


def test_unreachable_bootstrap_raises_the_same_class(broker) -> None:
    from kafka.testing.broker import free_port
    address = "127.0.0.1:%d" % free_port()

    async def attempt(make: Any) -> str:
        consumer = make(bootstrap_servers=address, request_timeout_ms=2000)
        try:
            await consumer.start()
        except Exception as exc:  # noqa: BLE001 - the class is what is compared
            return type(exc).__name__
        finally:
            await consumer.stop()
        return "no error"

    theirs = run(attempt(aiokafka.AIOKafkaConsumer))
    ours = run(attempt(kafka.aio.AIOKafkaConsumer))
    assert ours == theirs == "KafkaConnectionError"
    assert issubclass(kafka.aio.errors.KafkaConnectionError, Exception)


