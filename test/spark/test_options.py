"""Option parsing and offset planning of the Spark source (no Spark session needed)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafka import errors
from kafka.spark.offsets import OffsetRange, from_json_offsets, plan_ranges, rate_limit, to_json_offsets
from kafka.spark.options import (
    EARLIEST,
    LATEST,
    kafka_settings,
    parse_duration_ms,
    parse_sink_options,
    parse_source_options,
)

BOOT = {"kafka.bootstrap.servers": "h:9092"}


def test_importing_kafka_does_not_import_pyspark():
    code = "import sys, kafka, kafka.spark, kafka.spark.options, kafka.spark.offsets; " \
           "assert 'pyspark' not in sys.modules and 'pyarrow' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_kafka_settings_are_mapped_to_our_names():
    settings = kafka_settings(dict(BOOT, **{"kafka.client.id": "me", "kafka.request.timeout.ms": "5000",
                                            "kafka.security.protocol": "SASL_SSL", "kafka.sasl.mechanism": "PLAIN",
                                            "kafka.sasl.jaas.config": 'x.PlainLoginModule required '
                                                                      'username="u" password="p";',
                                            "kafka.check.crcs": "false", "kafka.group.id": "ignored",
                                            "kafka.linger.ms": "7"}), "consumer")
    assert settings == {"bootstrap_servers": "h:9092", "client_id": "me", "request_timeout_ms": 5000,
                        "security_protocol": "SASL_SSL", "sasl_mechanism": "PLAIN", "sasl_plain_username": "u",
                        "sasl_plain_password": "p", "check_crcs": False}
    producer = kafka_settings(dict(BOOT, **{"kafka.linger.ms": "7", "kafka.acks": "all",
                                            "kafka.check.crcs": "false"}), "producer")
    assert producer == {"bootstrap_servers": "h:9092", "linger_ms": 7, "acks": "all"}


@pytest.mark.parametrize("key", ["auto.offset.reset", "key.deserializer", "value.deserializer", "key.serializer",
                                 "value.serializer", "enable.auto.commit", "interceptor.classes"])
def test_keys_spark_rejects_are_rejected(key):
    with pytest.raises(errors.KafkaConfigurationError, match="kafka.%s is not supported" % key):
        kafka_settings(dict(BOOT, **{"kafka." + key: "x"}), "consumer")


def test_source_defaults_and_case_insensitive_names():
    batch = parse_source_options(dict(BOOT, SUBSCRIBE="a, b"), streaming=False)
    assert batch.subscribe == ["a", "b"] and batch.starting == EARLIEST and batch.ending == LATEST
    assert batch.fail_on_data_loss and not batch.include_headers and batch.min_partitions is None
    stream = parse_source_options(dict(BOOT, subscribePattern="a.*", maxOffsetsPerTrigger="100",
                                       minOffsetsPerTrigger="10", maxTriggerDelay="2s"), streaming=True)
    assert stream.starting == LATEST and stream.pattern == "a.*"
    assert (stream.max_offsets_per_trigger, stream.min_offsets_per_trigger, stream.max_trigger_delay_ms) == \
        (100, 10, 2000)
    assigned = parse_source_options(dict(BOOT, assign='{"t":[0,2],"u":[1]}',
                                         startingOffsets='{"t":{"0":5,"2":-2}}', failOnDataLoss="false"),
                                    streaming=False)
    assert assigned.assign == [("t", 0), ("t", 2), ("u", 1)]
    assert assigned.starting == {("t", 0): 5, ("t", 2): EARLIEST} and not assigned.fail_on_data_loss


@pytest.mark.parametrize("options, streaming, message", [
    ({"subscribe": "a", "endingOffsets": "latest"}, True, "batch queries only"),
    ({"subscribe": "a", "startingOffsets": '{"a":{"0":-1}}'}, False, "may not be latest"),
    ({"subscribe": "a", "startingOffsets": "latest"}, False, "may not be latest"),
    ({"subscribe": "a", "endingOffsets": "earliest"}, False, "may not be earliest"),
    ({"subscribe": "a", "endingOffsets": '{"a":{"0":5,"1":-2}}'}, False, "may not be earliest"),
    ({"subscribe": "a", "assign": '{"a":[0]}', "subscribePattern": "x"}, False, "exactly one of"),
    ({"subscribePattern": "("}, False, "not a valid regex"),
    ({"assign": '{"a":"0"}'}, False, "list of integers"),
    ({"subscribe": "a", "minPartitions": "0"}, False, "at least 1"),
    ({"subscribe": "a", "failOnDataLoss": "maybe"}, False, "true or false"),
    ({"subscribe": "a", "startingOffsetsByTimestampStrategy": "skip"}, False, "'error' or 'latest'"),
    ({"subscribe": "a", "startingTimestamp": "yesterday"}, False, "milliseconds"),
    ({"subscribe": "a", "maxTriggerDelay": "soon"}, True, "duration"),
    ({"subscribe": "a", "kafka.request.timeout.ms": "fast"}, False, "must be an integer"),
])
def test_bad_source_options(options, streaming, message):
    with pytest.raises(errors.KafkaConfigurationError, match=message):
        parse_source_options(dict(BOOT, **options), streaming=streaming)


def test_sink_options():
    assert parse_sink_options(dict(BOOT, topic="out")).topic == "out"
    assert parse_sink_options(BOOT).topic is None
    with pytest.raises(errors.KafkaConfigurationError, match="kafka.bootstrap.servers is required"):
        parse_sink_options({"topic": "t"})


def test_writers_take_the_producer_s_batch_size_unless_told():
    # Their encoded batches are split like any other when a topic refuses them as too large.
    assert "batch_size" not in parse_sink_options(BOOT).client
    assert parse_sink_options(dict(BOOT, **{"kafka.batch.size": "50000"})).client["batch_size"] == 50000


def test_durations():
    assert [parse_duration_ms("d", v) for v in ("15m", "30s", "250ms", "2 hours", "5")] == \
        [900000, 30000, 250, 7200000, 5000]


def test_json_offsets_round_trip():
    offsets = {("t", 0): 5, ("t", 10): 7, ("u", 1): 0}
    assert to_json_offsets(offsets) == {"t": {"0": 5, "10": 7}, "u": {"1": 0}}
    assert from_json_offsets(to_json_offsets(offsets)) == offsets


def test_plan_ranges_skips_empty_and_splits_for_min_partitions():
    start = {("t", 0): 0, ("t", 1): 10, ("t", 2): 5}
    end = {("t", 0): 100, ("t", 1): 10, ("t", 2): 25}
    assert plan_ranges(start, end) == [OffsetRange("t", 0, 0, 100), OffsetRange("t", 2, 5, 25)]
    split = plan_ranges(start, end, min_partitions=6)
    # 100 of 120 records -> 5 pieces, 20 of 120 -> 1 piece (Spark's rounding).
    assert split == [OffsetRange("t", 0, 0, 20), OffsetRange("t", 0, 20, 40), OffsetRange("t", 0, 40, 60),
                     OffsetRange("t", 0, 60, 80), OffsetRange("t", 0, 80, 100), OffsetRange("t", 2, 5, 25)]
    assert plan_ranges(start, end, min_partitions=2) == plan_ranges(start, end)


def test_rate_limit_prorates_like_spark():
    start = {("t", 0): 0, ("t", 1): 0, ("t", 2): 50}
    latest = {("t", 0): 300, ("t", 1): 100, ("t", 2): 50}
    # 100 records over backlogs 300 and 100: 75 and 25.
    assert rate_limit(100, start, latest) == {("t", 0): 75, ("t", 1): 25, ("t", 2): 50}
    # A share under one record is rounded up so small partitions are not starved.
    assert rate_limit(10, {("t", 0): 0, ("t", 1): 0}, {("t", 0): 1000, ("t", 1): 1}) == {("t", 0): 9, ("t", 1): 1}
    # Nothing to read: the latest offsets as they are.
    assert rate_limit(10, latest, latest) == latest


def test_group_fetch_offset_and_partitioning_options():
    default = parse_source_options(dict(BOOT, subscribe="a"), streaming=True)
    assert (default.group_id, default.group_id_prefix) == (None, "spark-kafka-source")
    assert (default.fetch_offset_retries, default.fetch_offset_retry_interval_ms) == (3, 10)
    assert default.max_records_per_partition is None and "group_id" not in default.client
    given = parse_source_options(dict(BOOT, subscribe="a", **{
        "kafka.group.id": "readers", "groupIdPrefix": "mine", "fetchOffset.numRetries": "0",
        "fetchOffset.retryIntervalMs": "250", "maxRecordsPerPartition": "1000"}), streaming=False)
    assert (given.group_id, given.client["group_id"], given.group_id_prefix) == ("readers", "readers", "mine")
    assert (given.fetch_offset_retries, given.fetch_offset_retry_interval_ms) == (0, 250)
    assert given.max_records_per_partition == 1000


@pytest.mark.parametrize("options, message", [
    ({"kafka.group.id": " "}, "kafka.group.id is empty"),
    ({"groupIdPrefix": ""}, "groupIdPrefix is empty"),
    ({"fetchOffset.numRetries": "-1"}, "at least 0"),
    ({"fetchOffset.retryIntervalMs": "soon"}, "must be an integer"),
    ({"maxRecordsPerPartition": "0"}, "at least 1"),
])
def test_bad_group_and_partitioning_options(options, message):
    with pytest.raises(errors.KafkaConfigurationError, match=message):
        parse_source_options(dict(BOOT, subscribe="a", **options), streaming=False)


def test_sink_include_headers():
    assert parse_sink_options(BOOT).include_headers
    assert not parse_sink_options(dict(BOOT, includeHeaders="false")).include_headers


def test_plan_ranges_cuts_ranges_to_max_records_per_partition():
    start = {("t", 0): 0, ("t", 1): 10}
    end = {("t", 0): 100, ("t", 1): 15}
    assert plan_ranges(start, end, max_records_per_partition=40) == [
        OffsetRange("t", 0, 0, 33), OffsetRange("t", 0, 33, 66), OffsetRange("t", 0, 66, 100),
        OffsetRange("t", 1, 10, 15)]
    # minPartitions applies to the pieces: about max(100/40 + 1, 6) ranges.
    assert len(plan_ranges(start, end, min_partitions=6, max_records_per_partition=40)) >= 6


def test_offset_lookups_are_retried_as_fetch_offset_options_say():
    from kafka.spark.offsets import OffsetReader

    reader = OffsetReader.__new__(OffsetReader)
    reader.options = parse_source_options(dict(BOOT, subscribe="a", **{"fetchOffset.numRetries": "2",
                                                                       "fetchOffset.retryIntervalMs": "1"}),
                                          streaming=False)
    calls = []

    def flaky(failures):
        def lookup():
            calls.append(1)
            if len(calls) <= failures:
                raise errors.KafkaTimeoutError("slow")
            return "found"
        return lookup

    assert reader._retrying(flaky(2)) == "found" and len(calls) == 3
    calls.clear()
    with pytest.raises(errors.KafkaTimeoutError):
        reader._retrying(flaky(3))
    assert len(calls) == 3
    calls.clear()

    def fatal():
        calls.append(1)
        raise errors.KafkaConfigurationError("bad")

    with pytest.raises(errors.KafkaConfigurationError):
        reader._retrying(fatal)
    assert len(calls) == 1
