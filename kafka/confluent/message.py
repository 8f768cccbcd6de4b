"""``Message`` and ``TopicPartition``, the value types of the confluent-kafka API."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import kafka.confluent.errors
from kafka.record import rows

OFFSET_BEGINNING = -2
OFFSET_END = -1
OFFSET_STORED = -1000
OFFSET_INVALID = -1001

TIMESTAMP_NOT_AVAILABLE = 0
TIMESTAMP_CREATE_TIME = 1
TIMESTAMP_LOG_APPEND_TIME = 2


_TOPIC, _PARTITION, _EPOCH, _OFFSET, _TS, _TS_TYPE, _KEY, _VALUE, _HEADERS = (
    rows.TOPIC, rows.PARTITION, rows.LEADER_EPOCH, rows.OFFSET, rows.TIMESTAMP, rows.TIMESTAMP_TYPE, rows.KEY,
    rows.VALUE, rows.HEADERS)
#: Marks a field that no ``set_*`` call and no constructor argument replaced.
_FROM_ROW: Any = object()


class Message(tuple):
    """A consumed or produced record, or an event when :meth:`error` is not None.

    The constructor (every argument optional) is meant for tests; the
    clients build messages themselves. A consumed message *is* the engine's
    record row (the fields of :data:`kafka.record.rows.ROW_FIELDS`, in that
    order): the engine builds it as this class (see
    :meth:`kafka.consumer.kafka.ModernKafkaConsumer.set_record_class`), so
    handing records out costs nothing per record. What the constructor or a
    ``set_*`` call gives replaces the row's field.
    """

    # Replacements of the row's fields (instance attributes once set).
    _topic: Any = _FROM_ROW
    _partition: Any = _FROM_ROW
    _offset: Any = _FROM_ROW
    _key: Any = _FROM_ROW
    _value: Any = _FROM_ROW
    _headers: Any = _FROM_ROW
    _timestamp: Any = _FROM_ROW
    _leader_epoch: Any = _FROM_ROW
    _error: Optional["kafka.confluent.errors.KafkaError"] = None
    _latency: Optional[float] = None
    _delivery_count: Optional[int] = None

    def __new__(cls, topic: Optional[str] = None, partition: Optional[int] = None,
                offset: Optional[int] = None, key: Any = None, value: Any = None, headers: Any = None,
                error: Optional["kafka.confluent.errors.KafkaError"] = None,
                timestamp: Tuple[int, int] = (TIMESTAMP_NOT_AVAILABLE, 0),
                latency: Optional[float] = None, leader_epoch: Optional[int] = None) -> "Message":
        message = tuple.__new__(cls, _EMPTY_ROW)
        message._topic = topic
        message._partition = partition
        message._offset = offset
        message._key = key
        message._value = value
        message._headers = headers
        message._timestamp = tuple(timestamp)
        message._leader_epoch = leader_epoch
        if error is not None:
            message._error = error
        if latency is not None:
            message._latency = latency
        return message

    __hash__ = None  # type: ignore[assignment]  # mutable, as in confluent-kafka

    def __eq__(self, other: object) -> bool:
        # confluent-kafka compares messages by their fields.
        if not isinstance(other, Message):
            return False
        return _observed(self) == _observed(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def _unordered(self, other: object) -> Any:
        return NotImplemented  # so ``<`` and friends raise TypeError, as in confluent-kafka

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __iter__(self) -> Any:
        raise TypeError("'Message' object is not iterable")

    def topic(self) -> Optional[str]:
        """The topic name."""
        topic = self._topic
        return self[_TOPIC] if topic is _FROM_ROW else topic

    def partition(self) -> Optional[int]:
        """The partition number."""
        partition = self._partition
        return self[_PARTITION] if partition is _FROM_ROW else partition

    def offset(self) -> Optional[int]:
        """The record's offset (None when not known, e.g. a failed delivery)."""
        offset = self._offset
        return self[_OFFSET] if offset is _FROM_ROW else offset

    def key(self) -> Any:
        """The key (bytes, or None)."""
        key = self._key
        return self[_KEY] if key is _FROM_ROW else key

    def value(self) -> Any:
        """The value (bytes, or None); the event text for some events."""
        value = self._value
        return self[_VALUE] if value is _FROM_ROW else value

    def headers(self) -> Any:
        """The headers as a list of ``(str, bytes)`` tuples, or None when there are none."""
        headers = self._headers
        if headers is _FROM_ROW:
            headers = self[_HEADERS]
            return list(headers) if headers else None
        return headers

    def error(self) -> Optional["kafka.confluent.errors.KafkaError"]:
        """None for a record; the KafkaError for an error or event."""
        return self._error

    def timestamp(self) -> Tuple[int, int]:
        """``(timestamp type, milliseconds since the epoch)``; type ``TIMESTAMP_NOT_AVAILABLE`` when unknown."""
        timestamp = self._timestamp
        if timestamp is _FROM_ROW:
            ms = self[_TS]
            # The engine counts types from 0 (create time); librdkafka from 1.
            return (self[_TS_TYPE] + 1 if ms >= 0 else TIMESTAMP_NOT_AVAILABLE, ms)
        return timestamp

    def delivery_count(self) -> Optional[int]:
        """For a record from a share consumer: how many times it was delivered (1 the first time); else None."""
        return self._delivery_count

    def latency(self) -> Optional[float]:
        """For a delivery report: seconds from produce() to delivery. None otherwise."""
        return self._latency

    def leader_epoch(self) -> Optional[int]:
        """The partition leader epoch the record was read in (None if unknown)."""
        epoch = self._leader_epoch
        if epoch is _FROM_ROW:
            epoch = self[_EPOCH]
            return epoch if epoch >= 0 else None
        return epoch

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

    def set_error(self, error: Optional["kafka.confluent.errors.KafkaError"]) -> None:
        """Replace the error."""
        self._error = error

    def __len__(self) -> int:
        value = self.value()
        return len(value) if value is not None else 0

    def __repr__(self) -> str:
        return "<Message topic=%r partition=%r offset=%r error=%r>" % (
            self.topic(), self.partition(), self.offset(), self._error)


#: The row under a message made by the constructor (every field replaced).
_EMPTY_ROW = (None,) * len(rows.ROW_FIELDS)


def _observed(message: Message) -> Tuple[Any, ...]:
    return (message.topic(), message.partition(), message.offset(), message.key(), message.value(),
            message.headers(), message.error(), message.timestamp(), message.latency(), message.leader_epoch())


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
