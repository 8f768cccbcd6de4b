"""``Message`` and ``TopicPartition``, the value types of the confluent-kafka API."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import kafka.confluent.errors

OFFSET_BEGINNING = -2
OFFSET_END = -1
OFFSET_STORED = -1000
OFFSET_INVALID = -1001

TIMESTAMP_NOT_AVAILABLE = 0
TIMESTAMP_CREATE_TIME = 1
TIMESTAMP_LOG_APPEND_TIME = 2


class Message:
    """A consumed or produced record, or an event when :meth:`error` is not None.

    The constructor (every argument optional) is meant for tests; the
    clients build messages themselves.
    """

    __slots__ = ("_topic", "_partition", "_offset", "_key", "_value", "_headers", "_error",
                 "_timestamp", "_latency", "_leader_epoch")

    def __init__(self, topic: Optional[str] = None, partition: Optional[int] = None,
                 offset: Optional[int] = None, key: Any = None, value: Any = None, headers: Any = None,
                 error: Optional[kafka.confluent.errors.KafkaError] = None, timestamp: Tuple[int, int] = (TIMESTAMP_NOT_AVAILABLE, 0),
                 latency: Optional[float] = None, leader_epoch: Optional[int] = None) -> None:
        self._topic = topic
        self._partition = partition
        self._offset = offset
        self._key = key
        self._value = value
        self._headers = headers
        self._error = error
        self._timestamp = tuple(timestamp)
        self._latency = latency
        self._leader_epoch = leader_epoch

    __hash__ = None  # type: ignore[assignment]  # mutable, as in confluent-kafka

    def topic(self) -> Optional[str]:
        """The topic name."""
        return self._topic

    def partition(self) -> Optional[int]:
        """The partition number."""
        return self._partition

    def offset(self) -> Optional[int]:
        """The record's offset (None when not known, e.g. a failed delivery)."""
        return self._offset

    def key(self) -> Any:
        """The key (bytes, or None)."""
        return self._key

    def value(self) -> Any:
        """The value (bytes, or None); the event text for some events."""
        return self._value

    def headers(self) -> Any:
        """The headers as a list of ``(str, bytes)`` tuples, or None when there are none."""
        return self._headers

    def error(self) -> Optional[kafka.confluent.errors.KafkaError]:
        """None for a record; the KafkaError for an error or event."""
        return self._error

    def timestamp(self) -> Tuple[int, int]:
        """``(timestamp type, milliseconds since the epoch)``; type ``TIMESTAMP_NOT_AVAILABLE`` when unknown."""
        return self._timestamp  # type: ignore[return-value]

    def latency(self) -> Optional[float]:
        """For a delivery report: seconds from produce() to delivery. None otherwise."""
        return self._latency

    def leader_epoch(self) -> Optional[int]:
        """The partition leader epoch the record was read in (None if unknown)."""
        return self._leader_epoch

    def set_topic(self, topic: str) -> None:
        """Replace the topic name."""
        self._topic = topic

    def set_key(self, key: Any) -> None:
        """Replace the key (e.g. after deserializing it)."""
        self._key = key

    def set_value(self, value: Any) -> None:
        """Replace the value (e.g. after deserializing it)."""
        self._value = value

    def set_headers(self, headers: Any) -> None:
        """Replace the headers."""
        self._headers = headers

    def set_error(self, error: Optional[kafka.confluent.errors.KafkaError]) -> None:
        """Replace the error."""
        self._error = error

    def __len__(self) -> int:
        value = self._value
        return len(value) if value is not None else 0

    def __repr__(self) -> str:
        return "<Message topic=%r partition=%r offset=%r error=%r>" % (
            self._topic, self._partition, self._offset, self._error)


_new_message = object.__new__


def message_from_record(row: Any) -> Message:
    """A :class:`Message` for one engine ``ConsumerRecord`` row, built without calling ``__init__``.

    Rows are tuples (topic, partition, leader_epoch, offset, timestamp,
    timestamp_type, key, value, headers, ...): reading them by index and
    filling the slots directly is most of the consumer's per-record cost.
    """
    message = _new_message(Message)
    message._topic = row[0]
    message._partition = row[1]
    message._offset = row[3]
    message._key = row[6]
    message._value = row[7]
    headers = row[8]
    message._headers = list(headers) if headers else None
    message._error = None
    timestamp = row[4]
    message._timestamp = (row[5] + 1 if timestamp >= 0 else 0, timestamp)
    message._latency = None
    epoch = row[2]
    message._leader_epoch = epoch if epoch >= 0 else None
    return message


def messages_from_records(records: Any) -> List[Message]:
    """:func:`message_from_record` for each row."""
    return list(map(message_from_record, records))


class TopicPartition:
    """A topic, a partition and optionally an offset, metadata, leader epoch and error.

    Two instances are equal (and hash alike) when topic and partition are;
    they sort by topic, then partition.
    """

    __slots__ = ("topic", "partition", "offset", "metadata", "leader_epoch", "error")

    def __init__(self, topic: str, partition: int = -1, offset: int = OFFSET_INVALID,
                 metadata: Optional[str] = None, leader_epoch: Optional[int] = None) -> None:
        if not isinstance(topic, str):
            raise TypeError("argument 1 must be str, not %s" % type(topic).__name__)
        if not isinstance(partition, int):
            raise TypeError("partition must be an int, not %s" % type(partition).__name__)
        if not isinstance(offset, int):
            raise TypeError("offset must be an int, not %s" % type(offset).__name__)
        if metadata is not None and not isinstance(metadata, str):
            raise TypeError("metadata must be str, not %s" % type(metadata).__name__)
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.metadata = metadata
        self.leader_epoch = leader_epoch if leader_epoch is None or leader_epoch >= 0 else None
        self.error: Optional[kafka.confluent.errors.KafkaError] = None

    def _key(self) -> Tuple[str, int]:
        return (self.topic, self.partition)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, TopicPartition):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: Any) -> bool:
        if not isinstance(other, TopicPartition):
            return NotImplemented
        return self._key() != other._key()

    def __lt__(self, other: "TopicPartition") -> bool:
        return self._key() < other._key()

    def __le__(self, other: "TopicPartition") -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: "TopicPartition") -> bool:
        return self._key() > other._key()

    def __ge__(self, other: "TopicPartition") -> bool:
        return self._key() >= other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "TopicPartition{topic=%s,partition=%d,offset=%d,leader_epoch=%s,error=%s}" % (
            self.topic, self.partition, self.offset, self.leader_epoch, self.error)

    __str__ = __repr__


def partitions_list(partitions: Any, what: str = "partitions") -> List[TopicPartition]:
    """Check that ``partitions`` is a list of TopicPartition (TypeError otherwise)."""
    if not isinstance(partitions, (list, tuple)):
        raise TypeError("%s must be a list of TopicPartition" % what)
    for tp in partitions:
        if not isinstance(tp, TopicPartition):
            raise TypeError("%s must be a list of TopicPartition, found %s" % (what, type(tp).__name__))
    return list(partitions)
