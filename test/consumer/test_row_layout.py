"""The consumer's row layout is defined once (kafka.record.rows) and every row builder follows it.

The record readers build :class:`ConsumerRecord` tuples by position, below
the consumer in the layers; these tests fail when ``ConsumerRecord`` gains,
loses or reorders a field without ``ROW_FIELDS`` following, and when a
builder puts a value in another field's place.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from kafka.consumer.fetcher import ConsumerRecord, Fetcher
from kafka.record import rows
from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.legacy import LegacyRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords
from kafka.record.uniform_runs import MIN_RUN
from kafka.serializer import conversion

TOPIC, PARTITION, EPOCH = "events", 4, 9
BASE_OFFSET, BASE_TS = 100, 1_700_000_000_000


def test_row_fields_are_the_consumer_record_fields():
    assert rows.ROW_FIELDS == ConsumerRecord._fields
    assert rows.PREFIX_FIELDS == ("topic", "partition", "leader_epoch")


def test_each_index_constant_names_its_field():
    names = {
        "TOPIC": "topic", "PARTITION": "partition", "LEADER_EPOCH": "leader_epoch", "OFFSET": "offset",
        "TIMESTAMP": "timestamp", "TIMESTAMP_TYPE": "timestamp_type", "KEY": "key", "VALUE": "value",
        "HEADERS": "headers", "CHECKSUM": "checksum", "KEY_SIZE": "serialized_key_size",
        "VALUE_SIZE": "serialized_value_size", "HEADER_SIZE": "serialized_header_size",
    }
    assert sorted(names.values()) == sorted(ConsumerRecord._fields)
    for constant, field in names.items():
        assert getattr(rows, constant) == ConsumerRecord._fields.index(field), constant


def expected(i: int, key: Any, value: Any, headers: Any) -> Dict[str, Any]:
    return {
        "topic": TOPIC, "partition": PARTITION, "leader_epoch": EPOCH, "offset": BASE_OFFSET + i,
        "timestamp": BASE_TS + i, "timestamp_type": 0, "key": key, "value": value, "headers": tuple(headers),
        "checksum": None,
        "serialized_key_size": -1 if key is None else len(key),
        "serialized_value_size": -1 if value is None else len(value),
        "serialized_header_size": sum(len(k.encode()) + len(v or b"") for k, v in headers) if headers else -1,
    }


def irregular(i: int) -> tuple:
    """Records that no run covers: every length differs, some keys, headers and nulls."""
    key = None if i % 3 == 0 else b"key-%d" % i
    value = None if i % 7 == 6 else b"v" * (i * 5 % 97)
    headers = [("h\u00e9-%d" % j, b"x" * j if j % 2 == 0 else None) for j in range(i % 4)]
    return key, value, headers


def uniform(i: int) -> tuple:
    return b"k%03d" % i, b"value-%04d" % i, []


def v2_batch(shape: Any, count: int) -> RecordBatch:
    builder = RecordBatchBuilder(base_offset=BASE_OFFSET)
    for i in range(count):
        key, value, headers = shape(i)
        builder.append(BASE_OFFSET + i, BASE_TS + i, key, value, headers)
    return RecordBatch(builder.build())


@pytest.mark.parametrize("shape", [irregular, uniform], ids=["record by record", "uniform run"])
def test_v2_rows_put_each_field_in_its_named_place(shape):
    count = 4 * MIN_RUN
    made: List[ConsumerRecord] = v2_batch(shape, count).rows(ConsumerRecord, (TOPIC, PARTITION, EPOCH))
    assert [r._asdict() for r in made] == [expected(i, *shape(i)) for i in range(count)]


def test_deserialized_records_put_each_field_in_its_named_place():
    batch = v2_batch(irregular, 20)
    as_bytes = conversion(bytes, "deserialize")
    made = [Fetcher._deserialized(TOPIC, PARTITION, EPOCH, r, as_bytes, as_bytes) for r in batch.records()]
    assert [r._asdict() for r in made] == [expected(i, *irregular(i)) for i in range(20)]


def test_legacy_records_put_each_field_in_its_named_place():
    builder = LegacyRecordBatchBuilder(magic=1)
    for i in range(5):
        builder.append(BASE_OFFSET + i, BASE_TS + i, b"k%d" % i, b"v%d" % i)
    made = [Fetcher._deserialized(TOPIC, PARTITION, EPOCH, r, None, None)
            for batch in MemoryRecords(builder.build()) for r in batch.records()]
    assert [r._asdict() for r in made] == [expected(i, b"k%d" % i, b"v%d" % i, []) for i in range(5)]
