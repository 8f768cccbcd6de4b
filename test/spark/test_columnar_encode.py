"""Records encoded from Arrow columns are byte for byte those of RecordBatchBuilder; keys hash as murmur2."""

from __future__ import annotations

import random

import pytest

pa = pytest.importorskip("pyarrow")
np = pytest.importorskip("numpy")

from kafka.producer.bulk_runs import group_by_partition  # noqa: E402
from kafka.producer.partitioner import murmur2_partition  # noqa: E402
from kafka.record.batch import HEADER_SIZE, RecordBatchBuilder, estimate_record_sizes  # noqa: E402
from kafka.spark.columnar_encode import binary_column, encode_batches, estimate_sizes  # noqa: E402
from kafka.spark.key_hashing import murmur2_partitions, partition_groups  # noqa: E402


def _expected(keys, values, counts):
    """The record bytes RecordBatchBuilder gives each batch of ``counts`` rows (one timestamp for all)."""
    out, start = [], 0
    for count in counts:
        builder = RecordBatchBuilder()
        builder.extend([(1700000000000, None if keys is None else keys[i], values[i], None)
                        for i in range(start, start + count)])
        out.append(builder.build()[HEADER_SIZE:])
        start += count
    return out


def _check(keys, values, counts, kind=None):
    kind = kind or pa.binary()
    value_array = pa.array(values, kind)
    key_array = None if keys is None else pa.array(keys, kind)
    got = encode_batches(binary_column(value_array), None if key_array is None else binary_column(key_array),
                         counts)
    if kind in (pa.string(), pa.large_string()):
        values = [None if v is None else v.encode() for v in values]
        keys = None if keys is None else [None if k is None else k.encode() for k in keys]
    assert got == _expected(keys, values, counts)


def test_values_of_one_length_keys_none():
    _check(None, [b"v%03d" % i for i in range(300)], [300])


def test_null_and_non_null_keys_empty_and_null_values():
    keys = [None, b"k", b"", None, b"key-4"] * 20
    values = [b"", None, b"x" * 7, b"y", b""] * 20
    _check(keys, values, [1, 49, 50])


def test_offset_deltas_of_two_and_three_bytes():
    # Offset deltas reach 64 (two varint bytes) and 8192 (three) inside one batch; the next batch counts from 0.
    values = [b"%d" % (i % 7) for i in range(9000)]
    _check(None, values, [8500, 500])


@pytest.mark.parametrize("sizes", [[16385, 16385], [20000, 5, 70000], [8191, 8192, 127, 128]])
def test_long_values_and_lengths_of_several_bytes(sizes):
    values = [bytes([i % 251]) * size for i, size in enumerate(sizes)]
    _check([b"k" * 200] * len(sizes), values, [1] * len(sizes))
    _check(None, values, [len(sizes)])


def test_many_different_lengths_and_nulls():
    rng = random.Random(5)
    keys = [None if rng.random() < 0.2 else rng.randbytes(rng.randint(0, 40)) for _ in range(400)]
    values = [None if rng.random() < 0.1 else rng.randbytes(rng.randint(0, 300)) for _ in range(400)]
    _check(keys, values, [100, 1, 299])


def test_a_few_lengths_with_keys():
    rng = random.Random(6)
    values = [rng.randbytes(rng.choice([3, 30, 300])) for _ in range(500)]
    _check([b"key-%d" % i for i in range(500)], values, [250, 250])


def test_record_heads_longer_than_a_binary_view_holds_inline():
    # A 2 MiB value takes 4-byte length and size varints: with the offset delta, the bytes before
    # it pass the 12 a view holds in itself, and are built in two parts.
    values = [b"a" * (2 << 20), b"b", b"c" * 300]
    _check(None, values, [3])
    _check([b"k" * 20000, None, b"k"], values, [2, 1])


@pytest.mark.parametrize("kind", ["string", "large_string", "large_binary"])
def test_string_and_large_columns(kind):
    kind = getattr(pa, kind)()
    text = kind in (pa.string(), pa.large_string())
    make = (lambda s: s) if text else (lambda s: s.encode())
    _check([make("clé-%d" % i) for i in range(50)], [make("valeur-é-%d" % (i * 37)) for i in range(50)], [50],
           kind)


def test_a_slice_of_an_array():
    values = [b"a" * i for i in range(100)]
    sliced = pa.array(values, pa.binary()).slice(10, 50)
    assert encode_batches(binary_column(sliced), None, [20, 30]) == _expected(None, values[10:60], [20, 30])


def test_an_empty_array_has_no_records():
    empty = binary_column(pa.array([], pa.binary()))
    assert empty.lengths.tolist() == [] and encode_batches(empty, None, []) == []


def test_nulls_that_span_bytes_are_declined():
    # Arrow lets a null entry cover bytes; the writer then takes the send_batch path.
    data = pa.py_buffer(b"abcdef")
    offsets = pa.py_buffer(np.array([0, 3, 6], np.int32))
    validity = pa.py_buffer(np.packbits(np.array([1, 0], bool), bitorder="little"))
    array = pa.Array.from_buffers(pa.binary(), 2, [validity, offsets, data], null_count=1)
    assert binary_column(array) is None


def test_size_estimates_are_the_producers():
    keys = [None, b"k", b"", b"key"]
    values = [b"v" * 10, None, b"", b"x"]
    got = estimate_sizes(binary_column(pa.array(values, pa.binary())), binary_column(pa.array(keys, pa.binary())))
    assert got.tolist() == estimate_record_sizes(keys, values)


@pytest.mark.parametrize("partitions", [1, 3, 12])
def test_keys_hash_to_the_partitions_of_murmur2(partitions):
    rng = random.Random(partitions)
    keys = [rng.randbytes(rng.randint(0, 45)) for _ in range(600)]
    got = murmur2_partitions(binary_column(pa.array(keys, pa.binary())), partitions)
    expected = [murmur2_partition(key, partitions) for key in keys]
    assert got.tolist() == expected
    assert partition_groups(got, partitions) == group_by_partition(expected, partitions)


def test_the_old_module_path_serves_this_module():
    import kafka.spark.column_records as old
    import kafka.spark.columnar_encode as new

    assert old is new
