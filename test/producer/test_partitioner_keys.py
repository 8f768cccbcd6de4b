"""murmur2 and keys with bytes of 0x80 and above.

Java's bytes are signed: Kafka's Utils.murmur2 masks each with ``0xff``. A
port that forgets the mask (or masks one place and not another) agrees with
Java on ASCII keys and silently places every non-ASCII key elsewhere, so
these tests use UTF-8 keys and raw high bytes, in the 4-byte blocks and in
the 1-3 byte tail.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.murmur2 import (_TABLED_BLOCKS, murmur2, murmur2_in_lanes, murmur2_partition, murmur2_plain,
                           murmur2_unsigned)

# Computed with OpenJDK 17 (javac) running a transcription of Kafka's
# Utils.murmur2 on the UTF-8 bytes of each key; the broker test below checks
# the same placement against librdkafka's murmur2 independently.
JAVA_VALUES = {
    "café".encode(): -1358007374,                  # 5 bytes: one block, a 1-byte tail
    "naïve-ключ".encode(): -1282183802,            # high bytes inside the blocks
    "日本語のキー".encode(): -734675706,             # 18 bytes, every byte >= 0x80
    "\u00ff\u00fe".encode(): -1869419400,          # 4 bytes c3 bf c3 be: one block, no tail
    "ü".encode(): 1419834458,                      # 2 bytes: tail only
    bytes([0x80, 0xFF, 0xFE, 0x81, 0xC3, 0xA9, 0x90]): 71599670,  # 3-byte tail of high bytes
}


@pytest.mark.parametrize("key", list(JAVA_VALUES), ids=lambda k: k.hex())
def test_murmur2_of_high_bytes_matches_java(key):
    assert murmur2(key) == JAVA_VALUES[key]


def _murmur2_block_by_block(data):
    """Kafka's Utils.murmur2 step by step, every intermediate cut to 32 bits: the reference."""
    m, mask = 0x5BD1E995, 0xFFFFFFFF
    length = len(data)
    h = (0x9747B28C ^ length) & mask
    for at in range(0, length & ~3, 4):
        k = data[at] | data[at + 1] << 8 | data[at + 2] << 16 | data[at + 3] << 24
        k = k * m & mask
        k ^= k >> 24
        k = k * m & mask
        h = (h * m & mask) ^ k
    tail = length & ~3
    rest = length & 3
    if rest == 3:
        h ^= data[tail + 2] << 16
    if rest >= 2:
        h ^= data[tail + 1] << 8
    if rest >= 1:
        h ^= data[tail]
        h = h * m & mask
    h ^= h >> 13
    h = h * m & mask
    h ^= h >> 15
    return h


@pytest.mark.parametrize("key", list(JAVA_VALUES), ids=lambda k: k.hex())
def test_the_reference_gives_the_java_values_too(key):
    h = _murmur2_block_by_block(key)
    assert h - (1 << 32 if h >> 31 else 0) == JAVA_VALUES[key]


@settings(max_examples=500, deadline=None)
@given(key=st.binary(max_size=4 * _TABLED_BLOCKS + 40) | st.binary(min_size=8, max_size=40),
       partitions=st.integers(1, 1000))
@example(key=b"\xff" * (4 * _TABLED_BLOCKS + 3), partitions=7)  # the last block count done in lanes, all ones
@example(key=b"\xff" * (4 * _TABLED_BLOCKS + 4), partitions=7)  # the first one past it
@example(key=b"\xff" * 12, partitions=7)  # the fewest blocks done in lanes
@example(key=b"\x80\x00\xff\x7f" * 11 + b"\xfe\x81", partitions=13)
def test_murmur2_equals_the_block_by_block_reference(key, partitions):
    """Lanes and the unmasked mixing loop must give the reference's bits for every length and byte."""
    expected = _murmur2_block_by_block(key)
    assert murmur2_unsigned(key) == expected
    assert murmur2(key) == (expected - (1 << 32) if expected >> 31 else expected)
    assert murmur2_partition(key, partitions) == (expected & 0x7FFFFFFF) % partitions


@pytest.mark.parametrize("key", list(JAVA_VALUES), ids=lambda k: k.hex())
def test_the_plain_loop_pypy_uses_gives_the_java_values(key):
    h = murmur2_plain(key)
    assert h - (1 << 32 if h >> 31 else 0) == JAVA_VALUES[key]


@settings(max_examples=300, deadline=None)
@given(key=st.binary(max_size=4 * _TABLED_BLOCKS + 40))
@example(key=b"\xff" * 7)  # all ones, a 3-byte tail: the largest intermediate values
@example(key=b"")
def test_the_plain_loop_equals_the_lanes_and_the_reference(key):
    """PyPy hashes with murmur2_plain; it is checked against CPython's lanes and this file's own transcription."""
    assert murmur2_plain(key) == _murmur2_block_by_block(key)
    assert murmur2_plain(key) == murmur2_in_lanes(key)


def test_a_very_long_key_is_hashed_block_by_block():
    key = bytes(range(256)) * 4096 + b"xy"  # 1 MiB and a 2-byte tail
    assert murmur2_unsigned(key) == _murmur2_block_by_block(key)
    assert murmur2_in_lanes(key) == _murmur2_block_by_block(key)


def test_keys_with_high_bytes_land_where_librdkafka_puts_them(broker):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    partitions = 13
    topic = "murmur-" + uuid.uuid4().hex[:8]
    with BlockingConnection(broker.host, broker.port) as conn:
        direct.create_topic(conn, topic, partitions=partitions)
    words = ["café", "naïve", "ключ", "日本語", "Größe", "ÿ", "€", "ñandú", "Ωμέγα", "😀"]
    keys = list(JAVA_VALUES) + [("%s-%d" % (w, i)).encode() for w in words for i in range(8)]
    keys += [bytes([0x80 + i % 0x7F, 0xFF - i % 5, i]) * (1 + i % 3) for i in range(40)]
    reference = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers,
                                          "partitioner": "murmur2_random"})
    theirs = {}

    def report(err, msg):
        assert err is None, err
        theirs[msg.key()] = msg.partition()

    for key in keys:
        reference.produce(topic, key=key, value=b"x", on_delivery=report)
    assert reference.flush(30) == 0
    assert len(theirs) == len(set(keys))
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=5) as producer:
        futures = {key: producer.send(topic, key=key, value=b"y") for key in keys}
        ours = {key: f.get(10).partition for key, f in futures.items()}
    assert ours == theirs
    assert all(ours[k] == murmur2_partition(k, partitions) for k in keys)
    assert len(set(ours.values())) > 5  # the keys really spread over the partitions
