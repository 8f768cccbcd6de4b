"""Every client refuses a bad configuration value or key with KafkaConfigurationError.

Walks the settings of the producer, the consumers (modern and 0.9), the
admin client's connection settings, the simple clients and the Spark
options, each with a value of the wrong type or range, and checks the class
of what the constructor (or option parser) raises:
:class:`~kafka.errors.KafkaConfigurationError` or a subclass.
"""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.admin import KafkaAdminClient
from kafka.client import KafkaClient
from kafka.consumer import MultiProcessConsumer, SimpleConsumer
from kafka.consumer.kafka import KafkaConsumer, ModernKafkaConsumer
from kafka.producer import KafkaProducer, KeyedProducer, SimpleProducer
from kafka.spark.options import kafka_settings, parse_sink_options, parse_source_options

#: (setting, bad value) for the settings every client shares.
CONNECTION = [
    ("no_such_setting", 1), ("bootstrap_servers", 5), ("bootstrap_servers", [5]), ("client_id", 5),
    ("request_timeout_ms", "30s"), ("request_timeout_ms", -1), ("retry_backoff_ms", None),
    ("reconnect_backoff_ms", "x"), ("metadata_max_age_ms", -1), ("max_in_flight_requests_per_connection", 0),
    ("security_protocol", "TLS"), ("security_protocol", 5), ("allow_auto_create_topics", "yes"),
    ("ssl_check_hostname", "no"), ("security_protocol", "SASL_PLAINTEXT"),
]
#: kafka-python's keys that kafkawire takes but does not use (kafka.compat_config).
KAFKA_PYTHON = [("api_version", "two"), ("sasl_mechanism", "GSSAPI"), ("proxy_url", "socks5://h")]

PRODUCER = CONNECTION + KAFKA_PYTHON + [
    ("acks", "some"), ("compression_type", "rar"), ("batch_size", "big"), ("linger_ms", -5), ("retries", "x"),
    ("max_request_size", None), ("buffer_memory", -1), ("max_block_ms", "1m"), ("delivery_timeout_ms", True),
    ("enable_idempotence", "maybe"), ("transactional_id", 5), ("key_serializer", 5), ("value_serializer", "str"),
    ("partitioner", 3), ("serialize_none", 1), ("transaction_timeout_ms", "x"),
]

CONSUMER = CONNECTION + KAFKA_PYTHON + [
    ("group_id", 5), ("auto_offset_reset", "sideways"), ("enable_auto_commit", "x"), ("fetch_min_bytes", "x"),
    ("fetch_max_wait_ms", -1), ("fetch_max_bytes", None), ("max_partition_fetch_bytes", -1),
    ("max_poll_records", 0), ("isolation_level", "serializable"), ("session_timeout_ms", "x"),
    ("auto_commit_interval_ms", "x"), ("consumer_timeout_ms", "x"), ("group_protocol", "x"),
    ("key_deserializer", 5), ("value_deserializer", b"x"), ("check_crcs", "x"), ("client_rack", 5),
    ("deserialize_none", None),
]


def _ids(cases):
    return ["%s=%r" % case for case in cases]


@pytest.mark.parametrize("key,value", PRODUCER, ids=_ids(PRODUCER))
def test_producer(broker, key, value):
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaProducer(**dict({"bootstrap_servers": broker.bootstrap_servers}, **{key: value}))


@pytest.mark.parametrize("consumer_class", [ModernKafkaConsumer, KafkaConsumer])
@pytest.mark.parametrize("key,value", CONSUMER, ids=_ids(CONSUMER))
def test_consumers(broker, consumer_class, key, value):
    with pytest.raises(errors.KafkaConfigurationError):
        consumer_class(**dict({"bootstrap_servers": broker.bootstrap_servers}, **{key: value}))


@pytest.mark.parametrize("key,value", CONNECTION + KAFKA_PYTHON, ids=_ids(CONNECTION + KAFKA_PYTHON))
def test_admin_connection_settings(broker, key, value):
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaAdminClient(**dict({"bootstrap_servers": broker.bootstrap_servers}, **{key: value}))


@pytest.mark.parametrize("key,value", CONNECTION + [("timeout", "10s"), ("timeout", 0), ("hosts", 5)],
                         ids=_ids(CONNECTION + [("timeout", "10s"), ("timeout", 0), ("hosts", 5)]))
def test_simple_client(broker, key, value):
    settings = {"hosts": broker.bootstrap_servers} if key in ("timeout", "hosts") else \
        {"bootstrap_servers": broker.bootstrap_servers}
    settings[key] = value
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(**settings)


def test_0_9_consumer_options(broker):
    for bad in [{"socket_timeout_ms": "x"}, {"auto_commit_interval_messages": -1}, {"no_such_setting": 1}]:
        with pytest.raises(errors.KafkaConfigurationError):
            KafkaConsumer("t", bootstrap_servers=broker.bootstrap_servers, group_id="g", **bad)


SIMPLE_PRODUCER = [("codec", 0x7), ("codec", "gzip"), ("batch_send_every_n", 0), ("batch_send_every_t", "x"),
                   ("async_retry_limit", -1), ("async_queue_put_timeout", -1), ("async_retry_backoff_ms", "x"),
                   ("async_queue_maxsize", 1.5), ("async_stop_timeout", None), ("asynch", True)]
SIMPLE_CONSUMER = [("buffer_size", 0), ("buffer_size", "4k"), ("max_buffer_size", "x"), ("fetch_size_bytes", -1),
                   ("iter_timeout", "x"), ("auto_offset_reset", 5), ("auto_commit_every_n", 0),
                   ("auto_commit_every_t", "x")]


@pytest.fixture(scope="module")
def simple_client(broker):
    client = KafkaClient(broker.bootstrap_servers, timeout=10)
    client.ensure_topic_exists("config-errors")
    yield client
    client.close()


@pytest.mark.parametrize("key,value", SIMPLE_PRODUCER, ids=_ids(SIMPLE_PRODUCER))
def test_simple_producers(simple_client, key, value):
    for producer_class in (SimpleProducer, KeyedProducer):
        with pytest.raises(errors.KafkaConfigurationError):
            producer_class(simple_client, **{key: value})


@pytest.mark.parametrize("key,value", SIMPLE_CONSUMER + [("num_procs", 0), ("partitions_per_proc", "x"),
                                                          ("start_method", "teleport"), ("no_such_option", 1)],
                         ids=_ids(SIMPLE_CONSUMER + [("num_procs", 0), ("partitions_per_proc", "x"),
                                                     ("start_method", "teleport"), ("no_such_option", 1)]))
def test_simple_consumers(simple_client, key, value):
    classes = [MultiProcessConsumer] if key in ("num_procs", "partitions_per_proc", "start_method") else \
        [SimpleConsumer, MultiProcessConsumer]
    for consumer_class in classes:
        with pytest.raises(errors.KafkaConfigurationError):
            consumer_class(simple_client, None, "config-errors", **{key: value})


def test_the_errors_keep_the_classes_raised_before():
    # The simple clients raised IllegalArgumentError, TypeError and UnsupportedCodecError here.
    assert issubclass(errors.ConfigurationValueError, errors.IllegalArgumentError)
    assert issubclass(errors.ConfigurationTypeError, (TypeError, errors.IllegalArgumentError))
    assert issubclass(errors.UnsupportedCodecConfigurationError, errors.UnsupportedCodecError)


SPARK_SOURCE = [{"subscribe": "t"}, {"subscribe": "t", "assign": '{"t":[0]}'},
                {"subscribe": "t", "kafka.fetch.min.bytes": "lots"}, {"subscribe": "t", "kafka.no.such": "1"},
                {"subscribe": "t", "minPartitions": "0"}, {"subscribe": "t", "startingOffsets": "{"},
                {"subscribe": "t", "kafka.check.crcs": "maybe"}]
SPARK_SINK = [{"kafka.acks": "some"}, {"kafka.linger.ms": "soon"}, {"kafka.bootstrap.servers": ""}]


@pytest.mark.parametrize("options", SPARK_SOURCE, ids=repr)
def test_spark_source_options(options):
    options = dict(options)
    options.setdefault("kafka.bootstrap.servers", "h:9092")
    if options == {"subscribe": "t", "kafka.bootstrap.servers": "h:9092"}:
        del options["kafka.bootstrap.servers"]  # the required setting missing
    with pytest.raises(errors.KafkaConfigurationError):
        parse_source_options(options, streaming=False)


@pytest.mark.parametrize("options", SPARK_SINK, ids=repr)
def test_spark_sink_options(options):
    options = dict({"kafka.bootstrap.servers": "h:9092", "topic": "t"}, **options)
    with pytest.raises(errors.KafkaConfigurationError):
        parse_sink_options(options)
        kafka_settings(options, "producer")
