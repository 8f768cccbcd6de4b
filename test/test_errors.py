"""The broker error table in kafka.errors."""

from __future__ import annotations

import inspect
import re
from typing import Dict, List, Type

import pytest

import kafka.errors as errors
from kafka.errors import BrokerResponseError, KafkaError, for_code


#: kafka-python's base classes and names that are not codes of their own
#: (CorruptRecordError carries code 2 as in kafka-python, but the class for
#: the broker's code 2 is its subclass CorruptMessageError).
KAFKA_PYTHON_NAMES = {"AuthorizationError", "NoError", "IncompatibleBrokerVersion", "CorruptRecordError",
                      "ChecksumError"}


def table_classes() -> List[Type[BrokerResponseError]]:
    """Every distinct broker error class defined in kafka.errors (aliases once)."""
    seen: Dict[int, Type[BrokerResponseError]] = {}
    for _, obj in inspect.getmembers(errors, inspect.isclass):
        if (issubclass(obj, BrokerResponseError) and obj is not BrokerResponseError
                and obj.__name__ not in KAFKA_PYTHON_NAMES
                and obj.__module__ == errors.__name__
                and not obj.__name__.startswith("UnknownBrokerError")):
            seen[id(obj)] = obj
    return list(seen.values())


def test_codes_are_unique_and_cover_the_protocol() -> None:
    codes = [cls.errno for cls in table_classes()]
    assert len(codes) == len(set(codes))
    assert set(codes) == {-1} | set(range(1, 134))


def test_protocol_names_are_unique_upper_case() -> None:
    names = [cls.message for cls in table_classes()]
    assert len(names) == len(set(names))
    for name in names:
        assert re.match(r"^[A-Z][A-Z0-9_]*$", name), name


@pytest.mark.parametrize("cls", table_classes(), ids=lambda cls: cls.__name__)
def test_every_class_is_reachable_by_code(cls: Type[BrokerResponseError]) -> None:
    assert for_code(cls.errno) is cls
    assert issubclass(cls, KafkaError)
    assert cls.description and cls.description.strip() == cls.description
    assert isinstance(cls.retriable, bool) and isinstance(cls.invalid_metadata, bool)
    if cls.invalid_metadata:
        assert cls.retriable, "refreshing metadata only helps an error that is retried"


@pytest.mark.parametrize("code, name, retriable, invalid_metadata", [
    (-1, "UNKNOWN_SERVER_ERROR", False, False),
    (1, "OFFSET_OUT_OF_RANGE", False, False),
    (2, "CORRUPT_MESSAGE", True, False),
    (3, "UNKNOWN_TOPIC_OR_PARTITION", True, True),
    (5, "LEADER_NOT_AVAILABLE", True, True),
    (6, "NOT_LEADER_OR_FOLLOWER", True, True),
    (7, "REQUEST_TIMED_OUT", True, False),
    (10, "MESSAGE_TOO_LARGE", False, False),
    (14, "COORDINATOR_LOAD_IN_PROGRESS", True, False),
    (15, "COORDINATOR_NOT_AVAILABLE", True, False),
    (16, "NOT_COORDINATOR", True, False),
    (22, "ILLEGAL_GENERATION", False, False),
    (25, "UNKNOWN_MEMBER_ID", False, False),
    (27, "REBALANCE_IN_PROGRESS", False, False),
    (29, "TOPIC_AUTHORIZATION_FAILED", False, False),
    (35, "UNSUPPORTED_VERSION", False, False),
    (36, "TOPIC_ALREADY_EXISTS", False, False),
    (45, "OUT_OF_ORDER_SEQUENCE_NUMBER", False, False),
    (47, "INVALID_PRODUCER_EPOCH", False, False),
    (56, "KAFKA_STORAGE_ERROR", True, True),
    (74, "FENCED_LEADER_EPOCH", True, True),
    (90, "PRODUCER_FENCED", False, False),
    (100, "UNKNOWN_TOPIC_ID", True, True),
    (129, "REBOOTSTRAP_REQUIRED", False, False),
    (133, "SHARE_SESSION_LIMIT_REACHED", True, False),
])
def test_flags_of_known_codes(code: int, name: str, retriable: bool,
                              invalid_metadata: bool) -> None:
    cls = for_code(code)
    assert cls is not None
    assert cls.errno == code
    assert cls.message == name
    assert cls.retriable is retriable
    assert cls.invalid_metadata is invalid_metadata


def test_no_error_is_none() -> None:
    assert for_code(0) is None
    errors.check_error_code(0)


@pytest.mark.parametrize("code", [134, 999, 32767, -2, -100])
def test_unknown_code_keeps_its_number(code: int) -> None:
    cls = for_code(code)
    assert cls is not None
    assert cls.errno == code
    assert issubclass(cls, errors.UnknownError)
    assert for_code(code) is cls
    with pytest.raises(errors.UnknownError) as info:
        errors.check_error_code(code)
    assert info.value.errno == code
    assert str(code) in str(info.value)


def test_str_shows_code_and_name() -> None:
    exc = errors.NotLeaderForPartitionError()
    assert str(exc) == "[Error 6] NotLeaderForPartitionError"
    text = str(errors.OffsetOutOfRangeError("my-topic", 0))
    assert "[Error 1]" in text and "OffsetOutOfRangeError" in text and "my-topic" in text


def test_check_error_code_raises_the_class() -> None:
    with pytest.raises(errors.RequestTimedOutError):
        errors.check_error_code(7)
    with pytest.raises(KafkaError):
        errors.check_error_code(29)


@pytest.mark.parametrize("alias, code", [
    ("NotLeaderForPartitionError", 6),
    ("NotLeaderOrFollowerError", 6),
    ("LeaderNotFoundError", 5),
    ("ConsumerCoordinatorNotAvailableCode", 15),
    ("GroupCoordinatorNotAvailableError", 15),
    ("NotCoordinatorForConsumerCode", 16),
    ("NotCoordinatorError", 16),
    ("OffsetsLoadInProgressCode", 14),
    ("CoordinatorLoadInProgressError", 14),
    ("InvalidMessageError", 2),
    ("CorruptMessageError", 2),
    ("ReplicaNotAvailableError", 9),
    ("BrokerNotAvailableError", 8),
    ("BrokerNotFoundError", 8),
    ("OffsetMetadataTooLargeError", 12),
    ("StaleControllerEpochError", 11),
    ("MessageSizeTooLargeError", 10),
    ("InvalidFetchRequest", 4),
    ("StaleLeaderEpochCodeError", 13),
    ("UnknownTopicOrPartitionError", 3),
])
def test_0_9_names(alias: str, code: int) -> None:
    assert getattr(errors, alias) is for_code(code)


def test_client_side_errors_are_not_broker_errors() -> None:
    for name in ("KafkaConnectionError", "NoBrokersAvailable", "KafkaUnavailableError",
                 "BufferUnderflowError", "ConsumerFetchSizeTooSmall", "ConsumerNoMoreData",
                 "ConsumerTimeout", "FailedPayloadsError", "AsyncProducerQueueFull",
                 "NodeNotReadyError"):
        cls = getattr(errors, name)
        assert issubclass(cls, KafkaError) and not issubclass(cls, BrokerResponseError)
    assert errors.KafkaConnectionError.retriable and errors.KafkaConnectionError.invalid_metadata
    assert errors.FailedPayloadsError("payload").payload == "payload"
    assert errors.AsyncProducerQueueFull(["m"]).failed_msgs == ["m"]


def test_kafka_python_names() -> None:
    assert errors.kafka_errors[0] is errors.NoError and errors.NoError.errno == 0
    assert for_code(0) is None  # kept: see docs/compatibility.rst
    assert issubclass(errors.IncompatibleBrokerVersion, errors.UnsupportedVersionError)
    for cls in table_classes():
        assert errors.kafka_errors[cls.errno] is cls
        assert issubclass(cls, errors.RetriableError) == cls.retriable, cls
        assert issubclass(cls, errors.InvalidMetadataError) == cls.invalid_metadata, cls
        assert issubclass(cls, errors.AuthorizationError) == cls.message.endswith("_AUTHORIZATION_FAILED"), cls
