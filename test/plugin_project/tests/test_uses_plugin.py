"""Tests of an application that uses the kafkawire pytest plugin's fixtures only."""

from kafka.errors import NotLeaderForPartitionError


def test_records_come_back(kafka_topic, kafka_producer_factory, kafka_consumer_factory):
    producer = kafka_producer_factory()
    for n in range(3):
        producer.send(kafka_topic, key=b"k%d" % n, value=b"v%d" % n)
    producer.flush(timeout=10)

    consumer = kafka_consumer_factory(kafka_topic)
    received = []
    for record in consumer:
        received.append((record.key, record.value))
        if len(received) == 3:
            break
    assert received == [(b"k0", b"v0"), (b"k1", b"v1"), (b"k2", b"v2")]


def test_topics_are_new_and_sized(kafka_topic, kafka_topic_factory, kafka_consumer_factory):
    wide = kafka_topic_factory(partitions=3)
    assert wide != kafka_topic
    assert wide.startswith("test_topics_are_new_and_sized-")
    consumer = kafka_consumer_factory()
    assert consumer.partitions_for_topic(wide) == {0, 1, 2}
    assert consumer.partitions_for_topic(kafka_topic) == {0}


def test_bootstrap_is_the_brokers(kafka_broker, kafka_bootstrap):
    assert kafka_broker.bootstrap_servers == kafka_bootstrap
    print("KAFKAWIRE-BOOTSTRAP=" + kafka_bootstrap)


def test_produce_survives_injected_errors(kafka_mock_cluster, kafka_producer_factory):
    kafka_mock_cluster.create_topic("orders", partitions=1)
    kafka_mock_cluster.start_request_tracking()
    not_leader = NotLeaderForPartitionError.errno
    kafka_mock_cluster.push_request_errors("Produce", not_leader, not_leader)

    producer = kafka_producer_factory(bootstrap_servers=kafka_mock_cluster.bootstrap_servers,
                                      retry_backoff_ms=10)
    metadata = producer.send("orders", b"paid").get(timeout=20)

    assert (metadata.topic, metadata.partition, metadata.offset) == ("orders", 0, 0)
    # two refused attempts, then the one the broker wrote
    assert sum(kafka_mock_cluster.request_counts("Produce").values()) == 3
