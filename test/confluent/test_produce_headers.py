"""kafka.confluent.Producer keeps a record's checked headers as a tuple, which leaves the record untracked by the collector."""

from __future__ import annotations

import gc

from kafka.confluent.producer import _headers


def test_headers_are_kept_as_a_tuple_of_pairs_in_the_given_order():
    assert _headers([("a", b"1"), ("b", "text"), ("c", None)]) == (("a", b"1"), ("b", b"text"), ("c", None))
    assert _headers({"d": b"2"}) == (("d", b"2"),)
    assert _headers([]) is None and _headers(None) is None


def test_a_queued_record_with_headers_is_not_tracked_by_the_collector():
    # A list of headers would keep the (timestamp, key, value, headers) record
    # tracked, and walked by every collection, until its batch is sent.
    record = (1_700_000_000_000, b"key", b"value", _headers([("trace-id", b"abc"), ("source", None)]))
    for _ in range(3):  # a pass untracks one level of nested tuples: the pairs, the headers, the record
        gc.collect()
    assert not gc.is_tracked(record)
