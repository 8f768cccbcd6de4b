"""Every murmur2 variant of kafka.murmur2 gives what the plain reference gives.

The reference (:func:`murmur2_plain`) is pinned to the Java client's values
first; then each fast variant is compared with it on random keys of every
length up to a few hundred bytes (so every count of 0-7 bytes past a whole
number of blocks, 8-byte multiples included), on empty keys, all-ones bytes
and UTF-8 text. The many-keys variants are forced on with
:func:`kafka.fast_paths.override`, so they are checked whatever the
interpreter and ``KAFKAWIRE_NO_FAST_PATHS`` say.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kafka import fast_paths
from kafka.murmur2 import (_MIN_GROUP, _MIN_LANES, _TABLED_BLOCKS, murmur2, murmur2_column_partitions,
                           murmur2_in_lanes, murmur2_partition, murmur2_partitions, murmur2_plain, murmur2_unsigned)

#: The Java client's Utils.murmur2 of these keys (from Kafka's own tests, and OpenJDK 17 for the UTF-8 ones).
JAVA = {
    b"21": -973932308,
    b"foobar": -790332482,
    b"a-little-bit-long-string": -985981536,
    b"a-little-bit-longer-string": -1486304829,
    b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971,
    b"abc": 479470107,
    "café".encode(): -1358007374,
    "日本語のキー".encode(): -734675706,
    bytes([0x80, 0xFF, 0xFE, 0x81, 0xC3, 0xA9, 0x90]): 71599670,
}


def _signed(h: int) -> int:
    return h - (1 << 32) if h >> 31 else h


def _random_keys(seed: int) -> list:
    """Keys of every length 0-300 (every tail of 0-7 bytes past whole blocks), random, all-ones and UTF-8."""
    rng = random.Random(seed)
    keys = [bytes(rng.getrandbits(8) for _ in range(length)) for length in range(301)]
    keys += [b"\xff" * length for length in range(4 * _TABLED_BLOCKS + 12)]
    keys += [("ключ-%d-é-日本" % i).encode() * (i % 5) for i in range(60)]
    return keys


KEYS = _random_keys(2024)
#: Lengths the lanes treat differently: empty, the tails, the smallest and largest tabled block counts.
EDGE_LENGTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 4 * _TABLED_BLOCKS, 4 * _TABLED_BLOCKS + 3,
                4 * _TABLED_BLOCKS + 4, 4 * _TABLED_BLOCKS + 7]

keys = st.binary(max_size=4 * _TABLED_BLOCKS + 40) | st.text(max_size=40).map(str.encode)


@pytest.mark.parametrize("key", list(JAVA), ids=lambda k: k.hex())
def test_the_reference_gives_the_java_values(key):
    assert _signed(murmur2_plain(key)) == JAVA[key]
    assert murmur2(key) == JAVA[key]


def test_one_key_in_lanes_equals_the_reference_on_many_keys():
    for key in KEYS:
        assert murmur2_in_lanes(key) == murmur2_plain(key), key
    for length in EDGE_LENGTHS:
        key = bytes(random.Random(length).getrandbits(8) for _ in range(length))
        assert murmur2_in_lanes(key) == murmur2_plain(key), length


@settings(max_examples=300, deadline=None)
@given(key=keys)
@example(key=b"")
@example(key=b"\xff" * 7)
def test_one_key_in_lanes_equals_the_reference(key):
    assert murmur2_in_lanes(key) == murmur2_plain(key)


@pytest.mark.parametrize("lanes", [False, True])
def test_the_chosen_hash_follows_the_switch(lanes):
    with fast_paths.override(MURMUR2_LANES=lanes):
        from kafka import murmur2 as module
        assert module.murmur2_unsigned is (murmur2_in_lanes if lanes else murmur2_plain)
        assert [murmur2_partition(k, 7) for k in KEYS[:40]] == [(murmur2_plain(k) & 0x7FFFFFFF) % 7
                                                                for k in KEYS[:40]]
    assert murmur2_unsigned is murmur2_plain or murmur2_unsigned is murmur2_in_lanes


@pytest.mark.parametrize("key_lanes", [False, True])
@pytest.mark.parametrize("count", [2, 3, 7, 1000, 2 ** 31 - 1])
def test_many_keys_at_once_equal_the_reference(key_lanes, count):
    keys = KEYS + KEYS[::3]  # repeated keys, groups big enough for lanes at most lengths
    random.Random(count).shuffle(keys)
    with fast_paths.override(MURMUR2_KEY_LANES=key_lanes):
        assert murmur2_partitions(keys, count) == [(murmur2_plain(k) & 0x7FFFFFFF) % count for k in keys]


@settings(max_examples=200, deadline=None)
@given(length=st.integers(0, 80), data=st.data(), count=st.integers(2, 50))
def test_a_group_of_one_length_hashed_in_lanes_equals_the_reference(length, data, count):
    # Keys of one block count (lengths 4b .. 4b+3): a single lane group, with and without tails.
    blocks = length >> 2
    size = st.integers(4 * blocks, 4 * blocks + 3)
    group = data.draw(st.lists(size.flatmap(lambda n: st.binary(min_size=n, max_size=n)),
                               min_size=max(_MIN_LANES, _MIN_GROUP), max_size=60))
    with fast_paths.override(MURMUR2_KEY_LANES=True):
        assert murmur2_partitions(group, count) == [(murmur2_plain(k) & 0x7FFFFFFF) % count for k in group]


@pytest.mark.parametrize("count", [1, 5, 2 ** 31 - 1])
def test_a_numpy_column_of_keys_equals_the_reference(count):
    np = pytest.importorskip("numpy")
    keys = KEYS
    data = np.frombuffer(b"".join(keys), np.uint8)
    lengths = np.array([len(k) for k in keys], np.int64)  # as BinaryColumn holds them
    got = murmur2_column_partitions(data, lengths, count)
    assert got.tolist() == [(murmur2_plain(k) & 0x7FFFFFFF) % count for k in keys]
