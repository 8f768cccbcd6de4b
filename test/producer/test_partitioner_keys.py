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

from kafka import direct
from kafka.conn.blocking import BlockingConnection
from kafka.producer import KafkaProducer
from kafka.producer.partitioner import murmur2, murmur2_partition

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
