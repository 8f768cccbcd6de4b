"""RecordHeaders: a read record's headers, equal to and printed as the list kafka-python gives."""

from __future__ import annotations

import copy
import pickle

import pytest

from kafka.record.batch import RecordBatch, RecordBatchBuilder
from kafka.record.legacy import LegacyRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords
from kafka.record.record import NO_HEADERS, RecordHeaders


def _v2_records(headers_per_record):
    builder = RecordBatchBuilder()
    for i, headers in enumerate(headers_per_record):
        builder.append(i, timestamp=1000 + i, key=None, value=b"v", headers=headers)
    return list(RecordBatch(builder.build()))


def test_headers_compare_equal_to_lists_and_tuples_of_the_same_pairs():
    headers = RecordHeaders((("a", b"1"), ("b", None)))
    assert headers == [("a", b"1"), ("b", None)] and [("a", b"1"), ("b", None)] == headers
    assert headers == (("a", b"1"), ("b", None))
    assert headers != [("a", b"1")] and headers != [("b", None), ("a", b"1")] and not headers == []
    assert NO_HEADERS == [] and NO_HEADERS == () and not NO_HEADERS and len(NO_HEADERS) == 0
    assert hash(headers) == hash((("a", b"1"), ("b", None)))


def test_headers_print_as_a_list():
    assert repr(RecordHeaders((("a", b"1"),))) == "[('a', b'1')]"
    assert repr(NO_HEADERS) == "[]"


def test_headers_are_immutable_and_copy_to_a_list():
    headers = RecordHeaders((("a", b"1"),))
    with pytest.raises(AttributeError):
        headers.append(("b", b"2"))  # type: ignore[attr-defined]
    copied = list(headers)
    copied.append(("b", b"2"))
    assert headers == [("a", b"1")]
    for again in (pickle.loads(pickle.dumps(headers)), copy.deepcopy(headers)):
        assert type(again) is RecordHeaders and again == headers


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5, 70])
def test_every_v2_reader_path_gives_record_headers(count):
    # One to three short headers take the straight-line path, four to 63 the loop,
    # more than 63 (or long ones) the general decoder.
    pairs = [("h%d" % i, b"x" * (i % 3) if i % 4 else None) for i in range(count)]
    long_pair = [("long-" + "k" * 200, b"v" * 300)]
    for record in _v2_records([pairs, long_pair + pairs, None]):
        assert type(record.headers) is RecordHeaders
    first, second, third = _v2_records([pairs, long_pair + pairs, None])
    assert first.headers == pairs and second.headers == long_pair + pairs
    assert third.headers is NO_HEADERS


@pytest.mark.parametrize("magic", [0, 1])
def test_records_before_v2_have_the_shared_empty_headers(magic):
    builder = LegacyRecordBatchBuilder(magic=magic)
    builder.append(0, 1000, b"k", b"v")
    ((record,),) = [list(batch) for batch in MemoryRecords(builder.build())]
    assert record.headers is NO_HEADERS
