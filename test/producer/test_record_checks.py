"""check_headers_sized: one pass for the usual headers, the same answer as check_headers (as a tuple) and the sizes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka import errors
from kafka.producer.future import header_size
from kafka.producer.record_checks import check_headers, check_headers_sized
from kafka.record.batch import RECORD_OVERHEAD, estimate_record_size

header_keys = st.text(max_size=12) | st.sampled_from(["trace-id", "caf\u00e9", "\u65e5\u672c", ""])
header_values = st.none() | st.binary(max_size=40) | st.binary(max_size=8).map(bytearray) | \
    st.binary(max_size=8).map(memoryview)
pairs = st.tuples(header_keys, header_values) | st.tuples(header_keys, header_values).map(list)
header_lists = st.lists(pairs, max_size=5) | st.lists(pairs, max_size=5).map(tuple)


def _expected(headers):
    checked = check_headers(headers) or None
    if checked is None:
        return None, 0, -1
    return tuple(checked), estimate_record_size(None, None, checked) - RECORD_OVERHEAD, header_size(checked)


@settings(max_examples=300, deadline=None)
@given(headers=header_lists)
def test_the_same_headers_and_sizes_as_check_headers_then_sizing(headers):
    assert check_headers_sized(headers) == _expected(headers)


def test_the_checked_headers_are_a_copy():
    headers = [("a", b"1")]
    checked, _, _ = check_headers_sized(headers)
    headers.append(("b", b"2"))
    assert checked == (("a", b"1"),)


def test_any_iterable_of_pairs_is_taken():
    assert check_headers_sized(iter([("a", b"1"), ("\u00e9", None)])) == ((("a", b"1"), ("\u00e9", None)), 14 + 13, 4)


BAD_HEADERS = [[("k\ud800", b"v")], [("k", "text")], [(b"k", b"v")], [("k",)], ["kv"], {"k": b"v"}, 5, "kv",
               [("k", b"v", b"w")], [("a", b"1"), ("k", 5)]]


@pytest.mark.parametrize("headers", BAD_HEADERS, ids=repr)
def test_bad_headers_raise_what_check_headers_raises(headers):
    with pytest.raises(errors.IllegalArgumentError) as theirs:
        check_headers(headers)
    with pytest.raises(errors.IllegalArgumentError) as ours:
        check_headers_sized(headers)
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_checked_headers_leave_the_record_untracked_by_the_collector():
    # A queued record is a (timestamp, key, value, headers) tuple: with headers
    # checked into a tuple of (str, bytes) pairs, CPython's collector stops
    # tracking it after one pass; a list would keep it tracked until sent.
    import gc

    checked, _, _ = check_headers_sized([("trace-id", b"abc".upper()), ("source", None)])
    record = (1_700_000_000_000, b"key", b"value", checked)
    for _ in range(3):  # a pass untracks one level of nested tuples: the pairs, the headers, the record
        gc.collect()
    assert not gc.is_tracked(record)
