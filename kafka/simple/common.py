"""The kafka-python 0.9.x ``kafka.common`` module (also importable under that name).

It holds the named tuples that the 0.9 protocol functions
(:mod:`kafka.simple.protocol`), ``KafkaClient`` and the simple producers and
consumers pass around, with the 0.9.x field names in the 0.9.x order, and
re-exports the error classes 0.9.x code imported from here. The error classes
themselves live in :mod:`kafka.errors`; the names below are the same objects,
so ``except kafka.simple.common.NotLeaderForPartitionError`` and ``except
kafka.errors.NotLeaderForPartitionError`` catch the same thing.

Text fields decoded from a broker (topic names, hosts, offset metadata) are
``str``; the encoders accept ``str`` or UTF-8 ``bytes`` for them. Message keys
and values are always ``bytes`` (or ``None``).

``kafka.simple.common.ConnectionError`` is the 0.9 name of
:class:`kafka.errors.KafkaConnectionError`. It is deliberately left out of
``__all__``, so ``from kafka.simple.common import *`` never hides Python's built-in
``ConnectionError``; import it by name if you need it.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Type

from kafka import errors as _errors
from kafka.errors import (
    AsyncProducerQueueFull,
    BrokerNotAvailableError,
    BrokerNotFoundError,
    BrokerResponseError,
    BufferUnderflowError,
    ChecksumError,
    ConsumerCoordinatorNotAvailableCode,
    ConsumerFetchSizeTooSmall,
    ConsumerNoMoreData,
    ConsumerTimeout,
    FailedPayloadsError,
    InvalidFetchRequest,
    InvalidFetchRequestError,
    InvalidMessageError,
    KafkaConfigurationError,
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    KafkaUnavailableError,
    LeaderNotAvailableError,
    LeaderNotFoundError,
    MessageSizeTooLargeError,
    NotCoordinatorForConsumerCode,
    NotLeaderForPartitionError,
    OffsetMetadataTooLargeError,
    OffsetOutOfRangeError,
    OffsetsLoadInProgressCode,
    ProtocolError,
    ReplicaNotAvailableError,
    RequestTimedOutError,
    StaleControllerEpochError,
    StaleLeaderEpochCodeError,
    UnknownError,
    UnknownTopicOrPartitionError,
    UnsupportedCodecError,
    for_code,
)

# The 0.9 name. Only this module binds it; see the module docstring.
ConnectionError = KafkaConnectionError  # noqa: A001  (0.9 name, shadows the builtin here only)

# Other names the 0.9.5 reference's index files under kafka.simple.common.
ConsumerCoordinatorNotAvailable = ConsumerCoordinatorNotAvailableCode
OffsetOutOfRangeException = OffsetOutOfRangeError

__all__ = [
    # requests
    "ProduceRequest",
    "FetchRequest",
    "OffsetRequest",
    "OffsetCommitRequest",
    "OffsetFetchRequest",
    "MetadataRequest",
    "ConsumerMetadataRequest",
    # responses
    "ProduceResponse",
    "FetchResponse",
    "OffsetResponse",
    "OffsetCommitResponse",
    "OffsetFetchResponse",
    "MetadataResponse",
    "ConsumerMetadataResponse",
    # metadata and messages
    "BrokerMetadata",
    "PartitionMetadata",
    "TopicMetadata",
    "TopicAndPartition",
    "Message",
    "OffsetAndMessage",
    "KafkaMessage",
    "RetryOptions",
    # errors
    "KafkaError",
    "BrokerResponseError",
    "UnknownError",
    "OffsetOutOfRangeError",
    "InvalidMessageError",
    "UnknownTopicOrPartitionError",
    "InvalidFetchRequest",
    "LeaderNotFoundError",
    "NotLeaderForPartitionError",
    "RequestTimedOutError",
    "BrokerNotFoundError",
    "ReplicaNotAvailableError",
    "MessageSizeTooLargeError",
    "StaleControllerEpochError",
    "OffsetMetadataTooLargeError",
    "StaleLeaderEpochCodeError",
    "OffsetsLoadInProgressCode",
    "ConsumerCoordinatorNotAvailableCode",
    "NotCoordinatorForConsumerCode",
    "BrokerNotAvailableError",
    "ConsumerCoordinatorNotAvailable",
    "InvalidFetchRequestError",
    "LeaderNotAvailableError",
    "OffsetOutOfRangeException",
    "KafkaUnavailableError",
    "KafkaTimeoutError",
    "KafkaConfigurationError",
    "KafkaConnectionError",
    "BufferUnderflowError",
    "ChecksumError",
    "ConsumerFetchSizeTooSmall",
    "ConsumerNoMoreData",
    "ConsumerTimeout",
    "ProtocolError",
    "UnsupportedCodecError",
    "FailedPayloadsError",
    "AsyncProducerQueueFull",
    # helpers
    "kafka_errors",
    "check_error",
    "RETRY_BACKOFF_ERROR_TYPES",
    "RETRY_REFRESH_ERROR_TYPES",
    "RETRY_ERROR_TYPES",
]


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------


class ProduceRequest(NamedTuple):
    """Messages to append to one partition.

    ``messages`` is a list of :class:`Message` (see
    :func:`kafka.protocol.create_message` and friends).
    """

    topic: Any
    partition: int
    messages: Sequence["Message"]


class FetchRequest(NamedTuple):
    """Read one partition from ``offset``, at most ``max_bytes`` of data."""

    topic: Any
    partition: int
    offset: int
    max_bytes: int


class OffsetRequest(NamedTuple):
    """Look up offsets of one partition by time.

    ``time`` is a timestamp in milliseconds, or ``-1`` for the latest offset
    (the offset the next message will get) and ``-2`` for the earliest one.
    ``max_offsets`` only matters to ListOffsets v0.
    """

    topic: Any
    partition: int
    time: int
    max_offsets: int


class OffsetCommitRequest(NamedTuple):
    """Commit ``offset`` (with an optional ``metadata`` string) for one partition."""

    topic: Any
    partition: int
    offset: int
    metadata: Any


class OffsetFetchRequest(NamedTuple):
    """Ask for the committed offset of one partition."""

    topic: Any
    partition: int


class MetadataRequest(NamedTuple):
    """Ask for metadata of ``topics`` (an empty list means every topic)."""

    topics: Sequence[Any]


class ConsumerMetadataRequest(NamedTuple):
    """Ask which broker coordinates the consumer group ``groups``.

    Despite the 0.9 plural name, one group is looked up per request.
    """

    groups: Any


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------


class ProduceResponse(NamedTuple):
    """Result of a produce for one partition: error code and first offset written."""

    topic: str
    partition: int
    error: int
    offset: int


class FetchResponse(NamedTuple):
    """Result of a fetch for one partition.

    ``messages`` is an iterable of :class:`OffsetAndMessage`.
    """

    topic: str
    partition: int
    error: int
    highwaterMark: int
    messages: Any


class OffsetResponse(NamedTuple):
    """Offsets found for one partition (a tuple, newest first)."""

    topic: str
    partition: int
    error: int
    offsets: Tuple[int, ...]


class OffsetCommitResponse(NamedTuple):
    """Result of an offset commit for one partition."""

    topic: str
    partition: int
    error: int


class OffsetFetchResponse(NamedTuple):
    """The committed offset and metadata of one partition (``-1`` if none)."""

    topic: str
    partition: int
    offset: int
    metadata: Optional[str]
    error: int


class MetadataResponse(NamedTuple):
    """Brokers (:class:`BrokerMetadata`) and topics (:class:`TopicMetadata`) of a cluster."""

    brokers: List["BrokerMetadata"]
    topics: List["TopicMetadata"]


class ConsumerMetadataResponse(NamedTuple):
    """The coordinator broker of a consumer group."""

    error: int
    nodeId: int
    host: str
    port: int


# ---------------------------------------------------------------------------
# Metadata
# ---------------------------------------------------------------------------


class BrokerMetadata(NamedTuple):
    """One broker: its node id, host and port."""

    nodeId: int
    host: str
    port: int


class PartitionMetadata(NamedTuple):
    """One partition: its leader, replicas and in-sync replicas (tuples of node ids)."""

    topic: str
    partition: int
    leader: int
    replicas: Tuple[int, ...]
    isr: Tuple[int, ...]
    error: int


class TopicMetadata(NamedTuple):
    """One topic: its error code and a list of :class:`PartitionMetadata`."""

    topic: str
    error: int
    partitions: List[PartitionMetadata]


class TopicAndPartition(NamedTuple):
    """A (topic, partition) pair, used as a dictionary key."""

    topic: Any
    partition: int


# ---------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------


class Message(NamedTuple):
    """One message as the 0.9 API sees it.

    ``magic`` is the message format (0 for messages built by
    :func:`kafka.protocol.create_message`); the low three bits of
    ``attributes`` name the compression codec. A compressed message's
    ``value`` holds a whole compressed message set.
    """

    magic: int
    attributes: int
    key: Optional[bytes]
    value: Optional[bytes]


class OffsetAndMessage(NamedTuple):
    """A :class:`Message` and the offset it has in its partition."""

    offset: int
    message: Message


class KafkaMessage(NamedTuple):
    """A consumed message with where it came from (0.9 ``KafkaConsumer``)."""

    topic: Any
    partition: int
    offset: int
    key: Optional[bytes]
    value: Any


class RetryOptions(NamedTuple):
    """Retry policy of the 0.9 asynchronous producer."""

    limit: Optional[int]
    backoff_ms: int
    retry_on_timeouts: bool


# ---------------------------------------------------------------------------
# Error helpers
# ---------------------------------------------------------------------------


def _broker_error_classes() -> Dict[int, Type[BrokerResponseError]]:
    codes = {value.errno for value in vars(_errors).values()
             if inspect.isclass(value) and issubclass(value, BrokerResponseError)
             and value.errno is not None}  # not the bases (BrokerResponseError, AuthorizationError)
    table: Dict[int, Type[BrokerResponseError]] = {}
    for code in sorted(codes):
        cls = for_code(code)
        if cls is not None:
            table[code] = cls
    return table


#: Broker error code -> exception class, for every code this library knows.
#: :func:`kafka.errors.for_code` also handles codes missing from this table.
kafka_errors: Dict[int, Type[BrokerResponseError]] = _broker_error_classes()


def check_error(response: Any) -> None:
    """Raise the error a response carries, if any.

    ``response`` is any object with an ``error`` attribute holding a broker
    error code (every 0.9 ``*Response`` tuple has one); a code of ``0``
    returns quietly. The exception raised is the class registered for the code
    (:class:`UnknownError` subclasses for codes this library does not know),
    with the response as its argument. An exception instance passed in (as
    the 0.9 client does with failed payloads) is raised as it is.
    """
    if isinstance(response, BaseException):
        raise response
    code = response.error
    if code:
        error_class = for_code(code)
        if error_class is None:  # pragma: no cover - for_code(0) only
            return
        raise error_class(response)


#: Errors after which the 0.9 async producer waits and tries again.
RETRY_BACKOFF_ERROR_TYPES: Tuple[Type[Exception], ...] = (
    KafkaUnavailableError,
    LeaderNotAvailableError,
    KafkaConnectionError,
    FailedPayloadsError,
)

#: Errors after which the 0.9 async producer refreshes metadata first.
RETRY_REFRESH_ERROR_TYPES: Tuple[Type[Exception], ...] = (
    NotLeaderForPartitionError,
    UnknownTopicOrPartitionError,
    LeaderNotAvailableError,
    KafkaConnectionError,
)

#: Every error the 0.9 async producer retries.
RETRY_ERROR_TYPES: Tuple[Type[Exception], ...] = RETRY_BACKOFF_ERROR_TYPES + RETRY_REFRESH_ERROR_TYPES

# The 0.9.5 module leaked its loop variable ``x`` (the last class of its error
# table, UnknownTopicOrPartitionError), and its API reference lists it. It is
# kept importable for that reason only, and stays out of ``__all__``.
x = UnknownTopicOrPartitionError
