"""The column helpers of send_batch agree with the record-by-record loops they replace."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kafka import fast_paths
from kafka.producer.bulk_runs import fill, group_by_partition, prefix_sums, sticky_runs
from kafka.record.batch import RECORD_OVERHEAD, estimate_record_size, estimate_record_sizes
from kafka.murmur2 import murmur2_partition, murmur2_partitions

sizes_lists = st.lists(st.integers(1, 5000), min_size=1, max_size=200)


def _sticky_by_loop(sizes, limit):
    runs, start, total = [], 0, 0
    for i, size in enumerate(sizes):
        total += size
        if total >= limit or i == len(sizes) - 1:
            runs.append((start, i + 1))
            start, total = i + 1, 0
    return runs


@settings(max_examples=200, deadline=None)
@given(sizes=sizes_lists, limit=st.integers(1, 20_000))
def test_sticky_runs_close_where_the_running_total_reaches_the_limit(sizes, limit):
    assert list(sticky_runs(sizes, limit)) == _sticky_by_loop(sizes, limit)
    # With the prefix sums handed in (send_encoded computes them once for everything it does).
    assert list(sticky_runs(sizes, limit, prefix_sums(sizes))) == _sticky_by_loop(sizes, limit)


@settings(max_examples=200, deadline=None)
@given(sizes=sizes_lists, data=st.data())
def test_fill_takes_the_longest_run_that_fits(sizes, data):
    start = data.draw(st.integers(0, len(sizes) - 1))
    room = data.draw(st.integers(0, 30_000))
    j, total = start, 0
    while j < len(sizes) and total + sizes[j] <= room:
        total += sizes[j]
        j += 1
    assert fill(prefix_sums(sizes), start, room) == j


@given(partitions=st.lists(st.integers(0, 7), max_size=300), pypy=st.booleans())
def test_group_by_partition_keeps_each_partitions_order(partitions, pypy):
    expected = {}
    for i, p in enumerate(partitions):
        expected.setdefault(p, []).append(i)
    with fast_paths.override(PLAIN_LOOPS=pypy):  # PyPy's plain loop, or the sort
        assert group_by_partition(partitions, 8) == sorted(expected.items())


@given(sizes=st.lists(st.integers(0, 5000), max_size=300))
def test_prefix_sums_by_plain_loop_and_by_accumulate_agree(sizes):
    expected = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
    for plain in (False, True):  # accumulate(), or PyPy's plain loop
        with fast_paths.override(PLAIN_LOOPS=plain):
            assert prefix_sums(sizes) == expected


@given(keys=st.lists(st.none() | st.binary(max_size=40), max_size=50),
       values=st.lists(st.none() | st.binary(max_size=300), min_size=50, max_size=50))
def test_column_sizes_match_the_per_record_estimate(keys, values):
    keys = keys + [None] * (50 - len(keys))
    assert estimate_record_sizes(keys, values) == [estimate_record_size(k, v, None) for k, v in zip(keys, values)]
    assert estimate_record_sizes(None, values) == [RECORD_OVERHEAD + len(v or b"") for v in values]


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.binary(max_size=64) | st.sampled_from([b"\xff" * 7, b"\x80\x00\xff\x7f" * 3]),
                     max_size=120), count=st.integers(1, 50))
def test_murmur2_partitions_is_murmur2_partition_of_each_key(keys, count):
    """Many keys of few lengths share lanes; high bytes and all-ones words check that no lane spills."""
    assert murmur2_partitions(keys, count) == [murmur2_partition(k, count) for k in keys]


def test_murmur2_partitions_of_large_groups_of_every_block_count():
    """Groups big enough for lanes at every length up to 80 bytes, repeated keys, all-ones bytes."""
    rng = random.Random(11)
    keys = [bytes(rng.getrandbits(8) for _ in range(length)) for length in range(81) for _ in range(12)]
    keys += [b"\xff" * length for length in range(81)] * 10
    keys += keys[::3]
    rng.shuffle(keys)
    for count in (2, 6, 1000, 2**31 - 1):
        assert murmur2_partitions(keys, count) == [murmur2_partition(k, count) for k in keys]
