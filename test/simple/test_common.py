"""kafka.simple.common: the 0.9 names, tuple layouts and error helpers."""

from __future__ import annotations

import builtins
import importlib
import os
import re

import pytest

import kafka.simple.common as common
from kafka import errors

# Every name the 0.9.5 API reference lists under ``kafka.simple.common`` (seed 001),
# written out here so the test does not depend on the seed file being present.
SEED_NAMES = [
    "AsyncProducerQueueFull", "BrokerMetadata", "BrokerNotFoundError", "BrokerResponseError",
    "BufferUnderflowError", "ChecksumError", "ConnectionError", "ConsumerCoordinatorNotAvailableCode",
    "ConsumerFetchSizeTooSmall", "ConsumerMetadataRequest", "ConsumerMetadataResponse",
    "ConsumerNoMoreData", "ConsumerTimeout", "FailedPayloadsError", "FetchRequest", "FetchResponse",
    "InvalidFetchRequest", "InvalidMessageError", "KafkaConfigurationError", "KafkaError",
    "KafkaMessage", "KafkaTimeoutError", "KafkaUnavailableError", "LeaderNotFoundError", "Message",
    "MessageSizeTooLargeError", "MetadataRequest", "MetadataResponse", "NotCoordinatorForConsumerCode",
    "NotLeaderForPartitionError", "OffsetAndMessage", "OffsetCommitRequest", "OffsetCommitResponse",
    "OffsetFetchRequest", "OffsetFetchResponse", "OffsetMetadataTooLargeError", "OffsetOutOfRangeError",
    "OffsetRequest", "OffsetResponse", "OffsetsLoadInProgressCode", "PartitionMetadata",
    "ProduceRequest", "ProduceResponse", "ProtocolError", "ReplicaNotAvailableError",
    "RequestTimedOutError", "RetryOptions", "StaleControllerEpochError", "StaleLeaderEpochCodeError",
    "TopicAndPartition", "TopicMetadata", "UnknownError", "UnknownTopicOrPartitionError",
    "UnsupportedCodecError", "check_error", "x",
    # Named only in the reference's index (aliases of the classes above).
    "BrokerNotAvailableError", "ConsumerCoordinatorNotAvailable", "InvalidFetchRequestError",
    "LeaderNotAvailableError", "OffsetOutOfRangeException",
]

# Field names, in order, from the same reference.
TUPLES = {
    "ProduceRequest": ("topic", "partition", "messages"),
    "FetchRequest": ("topic", "partition", "offset", "max_bytes"),
    "OffsetRequest": ("topic", "partition", "time", "max_offsets"),
    "OffsetCommitRequest": ("topic", "partition", "offset", "metadata"),
    "OffsetFetchRequest": ("topic", "partition"),
    "MetadataRequest": ("topics",),
    "ConsumerMetadataRequest": ("groups",),
    "ProduceResponse": ("topic", "partition", "error", "offset"),
    "FetchResponse": ("topic", "partition", "error", "highwaterMark", "messages"),
    "OffsetResponse": ("topic", "partition", "error", "offsets"),
    "OffsetCommitResponse": ("topic", "partition", "error"),
    "OffsetFetchResponse": ("topic", "partition", "offset", "metadata", "error"),
    "MetadataResponse": ("brokers", "topics"),
    "ConsumerMetadataResponse": ("error", "nodeId", "host", "port"),
    "BrokerMetadata": ("nodeId", "host", "port"),
    "PartitionMetadata": ("topic", "partition", "leader", "replicas", "isr", "error"),
    "TopicMetadata": ("topic", "error", "partitions"),
    "TopicAndPartition": ("topic", "partition"),
    "Message": ("magic", "attributes", "key", "value"),
    "OffsetAndMessage": ("offset", "message"),
    "KafkaMessage": ("topic", "partition", "offset", "key", "value"),
    "RetryOptions": ("limit", "backoff_ms", "retry_on_timeouts"),
}

# errno of each 0.9 broker error, from the reference.
CLASSIC_ERRNOS = {
    "UnknownError": -1, "OffsetOutOfRangeError": 1, "InvalidMessageError": 2,
    "UnknownTopicOrPartitionError": 3, "InvalidFetchRequest": 4, "LeaderNotFoundError": 5,
    "NotLeaderForPartitionError": 6, "RequestTimedOutError": 7, "BrokerNotFoundError": 8,
    "ReplicaNotAvailableError": 9, "MessageSizeTooLargeError": 10, "StaleControllerEpochError": 11,
    "OffsetMetadataTooLargeError": 12, "StaleLeaderEpochCodeError": 13, "OffsetsLoadInProgressCode": 14,
    "ConsumerCoordinatorNotAvailableCode": 15, "NotCoordinatorForConsumerCode": 16,
}


@pytest.mark.parametrize("name", SEED_NAMES)
def test_seed_name_is_importable(name):
    namespace = {}
    exec("from kafka.simple.common import %s" % name, namespace)  # noqa: S102 - the import statement is the test
    assert namespace[name] is getattr(common, name)


def test_seed_list_matches_the_reference_when_present():
    here = os.path.dirname(os.path.abspath(__file__))
    seeds = os.path.join(here, "..", "..", "..", "shared", "seeds")
    path = None
    if os.path.isdir(seeds):
        for entry in os.listdir(seeds):
            if entry.startswith("001_"):
                path = os.path.join(seeds, entry)
    if path is None:
        pytest.skip("the seed reference is not beside the repository")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # "org.apache.kafka.simple.common.utils" (a Java class mentioned in passing) is not ours.
    listed = set(re.findall(r"(?<![\w.])kafka\.common\.([A-Za-z_][A-Za-z0-9_]*)", text))
    listed |= set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)(?:\(\))? \((?:in module|class in|exception in) kafka\.common\)",
                             text))
    assert listed <= set(SEED_NAMES), sorted(listed - set(SEED_NAMES))


@pytest.mark.parametrize("name, fields", sorted(TUPLES.items()))
def test_tuple_fields_and_order(name, fields):
    cls = getattr(common, name)
    assert cls._fields == fields
    value = cls(*range(len(fields)))
    assert tuple(value) == tuple(range(len(fields)))
    assert isinstance(value, tuple)


@pytest.mark.parametrize("name, errno", sorted(CLASSIC_ERRNOS.items()))
def test_simple_error_codes(name, errno):
    cls = getattr(common, name)
    assert issubclass(cls, common.BrokerResponseError)
    assert issubclass(cls, common.KafkaError)
    assert cls.errno == errno
    assert common.kafka_errors[errno] is cls


def test_client_side_errors_are_kafka_errors():
    for name in ("AsyncProducerQueueFull", "BufferUnderflowError", "ChecksumError", "ConnectionError",
                 "ConsumerFetchSizeTooSmall", "ConsumerNoMoreData", "ConsumerTimeout", "FailedPayloadsError",
                 "KafkaConfigurationError", "KafkaTimeoutError", "KafkaUnavailableError", "ProtocolError",
                 "UnsupportedCodecError", "BrokerResponseError"):
        assert issubclass(getattr(common, name), common.KafkaError), name
    assert issubclass(common.KafkaError, RuntimeError)
    assert common.FailedPayloadsError("p").payload == "p"
    assert common.AsyncProducerQueueFull(["m"]).failed_msgs == ["m"]


def test_errors_are_the_same_objects_as_in_kafka_errors():
    assert common.NotLeaderForPartitionError is errors.NotLeaderForPartitionError
    assert common.ConnectionError is errors.KafkaConnectionError
    assert common.x is errors.UnknownTopicOrPartitionError


def test_connection_error_does_not_shadow_the_builtin_elsewhere():
    assert builtins.ConnectionError is not errors.KafkaConnectionError
    namespace = {}
    exec("from kafka.simple.common import *", namespace)  # noqa: S102
    assert "ConnectionError" not in namespace
    assert "x" not in namespace
    assert namespace["ProduceRequest"] is common.ProduceRequest
    for module_name in ("kafka", "kafka.simple.util", "kafka.simple.codec", "kafka.protocol", "kafka.simple.protocol"):
        module = importlib.import_module(module_name)
        assert getattr(module, "ConnectionError", builtins.ConnectionError) is builtins.ConnectionError, module_name


def test_kafka_errors_covers_every_known_code():
    assert 0 not in common.kafka_errors
    for code, cls in common.kafka_errors.items():
        assert cls.errno == code
        assert errors.for_code(code) is cls
    assert common.kafka_errors[35] is errors.UnsupportedVersionError


def test_check_error():
    ok = common.ProduceResponse("t", 0, 0, 5)
    assert common.check_error(ok) is None
    bad = common.ProduceResponse("t", 0, 6, -1)
    with pytest.raises(common.NotLeaderForPartitionError) as info:
        common.check_error(bad)
    assert info.value.args == (bad,)
    with pytest.raises(common.UnknownError) as info:
        common.check_error(common.OffsetCommitResponse("t", 0, 31999))
    assert info.value.errno == 31999
    with pytest.raises(common.FailedPayloadsError):
        common.check_error(common.FailedPayloadsError("payload"))


def test_retry_error_types():
    assert common.NotLeaderForPartitionError in common.RETRY_REFRESH_ERROR_TYPES
    assert common.KafkaUnavailableError in common.RETRY_BACKOFF_ERROR_TYPES
    assert set(common.RETRY_ERROR_TYPES) == set(common.RETRY_BACKOFF_ERROR_TYPES) | set(
        common.RETRY_REFRESH_ERROR_TYPES)


def test_tuples_are_hashable_keys():
    key = common.TopicAndPartition("t", 1)
    assert {key: 1}[common.TopicAndPartition("t", 1)] == 1
