"""``Message`` and ``TopicPartition``, the value types of the confluent-kafka API."""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Tuple

import kafka.confluent.kafka_error
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

    The clients build messages themselves; the constructor, with
    confluent-kafka's arguments (``topic``, ``partition``, ``offset``,
    ``key``, ``value``, ``headers``, ``error``, ``timestamp``, ``latency``,
    ``leader_epoch``, ``delivery_count``, by position or keyword), is for
    tests and for programs that build messages themselves. Messages pickle.
    A consumed message *is* the engine's record row (the fields of
    :data:`kafka.record.rows.ROW_FIELDS`, in that order): the engine builds
    it as this class (see
    :meth:`kafka.consumer.modern.ModernKafkaConsumer.set_record_class`), so
    handing records out costs nothing per record. What the constructor or a
    ``set_*`` call gives replaces the row's field.

    As in confluent-kafka, a partition of -1, an offset, leader epoch or
    latency below 0 and a delivery count of 0 or less read as None. Calling
    a method on something that is not a Message raises ``TypeError``.
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
    _error: Optional["kafka.confluent.kafka_error.KafkaError"] = None
    _latency: Optional[float] = None
    _delivery_count: Optional[int] = None

    def __new__(cls, *args: Any, **kwargs: Any) -> "Message":
        # What confluent-kafka's allocation gives before __init__: numbers 0, the rest None.
        if not (isinstance(cls, type) and issubclass(cls, Message)):
            raise TypeError("Message.__new__(%r): not a subtype of Message" % (cls,))
        message = tuple.__new__(cls, _ZERO_ROW)
        message._timestamp = (TIMESTAMP_NOT_AVAILABLE, 0)
        message._latency = 0.0
        return message

    def __init__(self, topic: Any = None, partition: Any = -1, offset: Any = OFFSET_INVALID, key: Any = None,
                 value: Any = None, headers: Any = None, error: Any = None, timestamp: Any = None,
                 latency: Any = -1.0, leader_epoch: Any = -1, delivery_count: Any = -1) -> None:
        if not isinstance(self, Message):
            raise TypeError("descriptor '__init__' requires a 'Message' object, not %s" % type(self).__name__)
        partition = _c_integer(partition, 32, "partition")
        offset = _c_integer(offset, 64, "offset")
        leader_epoch = _c_integer(leader_epoch, 32, "leader_epoch")
        delivery_count = _c_integer(delivery_count, 16, "delivery_count")
        if isinstance(latency, str) or not hasattr(latency, "__float__"):
            raise TypeError("latency must be a float, not %s" % type(latency).__name__)
        if timestamp is None:
            timestamp = (TIMESTAMP_NOT_AVAILABLE, 0)
        elif not isinstance(timestamp, tuple) or len(timestamp) != 2:
            raise TypeError("timestamp must be a tuple of (int, int)")
        else:
            timestamp = (int(timestamp[0]), int(timestamp[1]))
        self._topic = topic
        self._partition = -1 if partition < 0 else partition
        self._offset = OFFSET_INVALID if offset < 0 else offset
        self._key = key
        self._value = value
        self._headers = headers
        self._error = error
        self._timestamp = timestamp
        # Kept in whole microseconds, as confluent-kafka keeps it.
        self._latency = None if float(latency) < 0 else int(float(latency) * 1000000) / 1000000.0
        self._leader_epoch = -1 if leader_epoch < 0 else leader_epoch
        self._delivery_count = None if delivery_count <= 0 else delivery_count

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Pickled as confluent-kafka's message: the base class and its constructor's arguments."""
        partition, offset, epoch = self.partition(), self.offset(), self.leader_epoch()
        latency, count = self.latency(), self.delivery_count()
        return (Message, (self.topic(), -1 if partition is None else partition,
                          OFFSET_INVALID if offset is None else offset, self.key(), self.value(), self.headers(),
                          self.error(), self.timestamp(), -1.0 if latency is None else latency,
                          -1 if epoch is None else epoch, -1 if count is None else count))

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
        try:
            topic = self._topic
        except AttributeError:
            raise _not_a_message(self) from None
        return self[_TOPIC] if topic is _FROM_ROW else topic

    def partition(self) -> Optional[int]:
        """The partition number (None when not known)."""
        try:
            partition = self._partition
        except AttributeError:
            raise _not_a_message(self) from None
        if partition is _FROM_ROW:
            return self[_PARTITION]
        return None if partition is None or partition == -1 else partition

    def offset(self) -> Optional[int]:
        """The record's offset (None when not known, e.g. a failed delivery)."""
        try:
            offset = self._offset
        except AttributeError:
            raise _not_a_message(self) from None
        if offset is _FROM_ROW:
            return self[_OFFSET]
        return None if offset is None or offset < 0 else offset

    def key(self) -> Any:
        """The key (bytes, or None)."""
        try:
            key = self._key
        except AttributeError:
            raise _not_a_message(self) from None
        return self[_KEY] if key is _FROM_ROW else key

    def value(self) -> Any:
        """The value (bytes, or None); the event text for some events."""
        try:
            value = self._value
        except AttributeError:
            raise _not_a_message(self) from None
        return self[_VALUE] if value is _FROM_ROW else value

    def headers(self) -> Any:
        """The headers as a list of ``(str, bytes)`` tuples, or None when there are none."""
        try:
            headers = self._headers
        except AttributeError:
            raise _not_a_message(self) from None
        if headers is _FROM_ROW:
            headers = self[_HEADERS]
            return list(headers) if headers else None
        return headers

    def error(self) -> Optional["kafka.confluent.kafka_error.KafkaError"]:
        """None for a record; the KafkaError for an error or event."""
        try:
            return self._error
        except AttributeError:
            raise _not_a_message(self) from None

    def timestamp(self) -> Tuple[int, int]:
        """``(timestamp type, milliseconds since the epoch)``; type ``TIMESTAMP_NOT_AVAILABLE`` when unknown."""
        try:
            timestamp = self._timestamp
        except AttributeError:
            raise _not_a_message(self) from None
        if timestamp is _FROM_ROW:
            ms = self[_TS]
            # The engine counts types from 0 (create time); librdkafka from 1.
            return (self[_TS_TYPE] + 1 if ms >= 0 else TIMESTAMP_NOT_AVAILABLE, ms)
        return timestamp

    def delivery_count(self) -> Optional[int]:
        """For a record from a share consumer: how many times it was delivered (1 the first time); else None."""
        try:
            count = self._delivery_count
        except AttributeError:
            raise _not_a_message(self) from None
        return count if count is not None and count > 0 else None

    def latency(self) -> Optional[float]:
        """For a delivery report: seconds from produce() to delivery. None otherwise."""
        try:
            return self._latency
        except AttributeError:
            raise _not_a_message(self) from None

    def leader_epoch(self) -> Optional[int]:
        """The partition leader epoch the record was read in (None if unknown)."""
        try:
            epoch = self._leader_epoch
        except AttributeError:
            raise _not_a_message(self) from None
        if epoch is _FROM_ROW:
            epoch = self[_EPOCH]
        return epoch if epoch is not None and epoch >= 0 else None

    def set_topic(self, topic: str) -> None:
        """Replace the topic name."""
        _check_message(self)
        self._topic = topic

    def set_key(self, key: Any) -> None:
        """Replace the key (e.g. after deserializing it)."""
        _check_message(self)
        self._key = key

    def set_value(self, value: Any) -> None:
        """Replace the value (e.g. after deserializing it)."""
        _check_message(self)
        self._value = value

    def set_headers(self, headers: Any) -> None:
        """Replace the headers."""
        _check_message(self)
        self._headers = headers

    def set_error(self, error: Optional["kafka.confluent.kafka_error.KafkaError"]) -> None:
        """Replace the error."""
        _check_message(self)
        self._error = error

    def __len__(self) -> int:
        """The value's length (0 without a value)."""
        value = self.value()
        return len(value) if value is not None else 0

    def __repr__(self) -> str:
        return "<Message topic=%r partition=%r offset=%r error=%r>" % (
            self.topic(), self.partition(), self.offset(), self._error)


#: The row under a message made by the constructor: what confluent-kafka's allocation holds.
_ZERO_ROW = (None, 0, 0, 0, 0, 0, None, None, None, None, -1, -1, -1)
assert len(_ZERO_ROW) == len(rows.ROW_FIELDS)


def _not_a_message(obj: Any) -> TypeError:
    return TypeError("a Message method was called on %s, not a Message" % type(obj).__name__)


def _check_message(obj: Any) -> None:
    if not isinstance(obj, Message):
        raise _not_a_message(obj)


def _c_integer(value: Any, bits: int, name: str) -> int:
    """``value`` as a C integer of ``bits`` bits would take it: TypeError for a non-integer
    (a float included), OverflowError outside the range."""
    if isinstance(value, float) or not hasattr(value, "__index__"):
        raise TypeError("%s must be an integer, not %s" % (name, type(value).__name__))
    number = operator.index(value)
    if not -(1 << (bits - 1)) <= number < (1 << (bits - 1)):
        raise OverflowError("%s %d does not fit in %d bits" % (name, number, bits))
    return number


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
        self.error: Optional[kafka.confluent.kafka_error.KafkaError] = None

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
