"""Checks of the arguments of ``KafkaProducer.send()``.

A record is encoded only when its batch is sent, on the sender thread; a
value that cannot be encoded there would fail the whole batch (and, before
the sender learned to fail batches one by one, the whole request). So every
argument is checked when ``send()`` is called, where the caller sees the
error. The checks start with cheap ``type(x) is ...`` tests so the common
arguments pass quickly.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from kafka.errors import IllegalArgumentError, IllegalArgumentTypeError, MessageSizeTooLargeError
from kafka.producer.batch import BATCH_OVERHEAD, Header, estimate_record_size

#: The largest timestamp a record batch can hold (a signed 64-bit integer).
MAX_TIMESTAMP_MS = (1 << 63) - 1


def check_bytes(data: Any, what: str) -> Optional[bytes]:
    """``data`` as ``bytes`` (or None); bytes-like values are copied, others refused."""
    if data is None or type(data) is bytes:
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise IllegalArgumentTypeError("%s must be bytes (or set a %s_serializer), got %s"
                                   % (what, what, type(data).__name__))


def check_headers(headers: Any) -> List[Header]:
    """``headers`` as a list of ``(str, bytes or None)`` pairs whose keys encode as UTF-8."""
    if isinstance(headers, (str, bytes, bytearray, dict)):
        raise IllegalArgumentTypeError("headers must be a list of (str, bytes) pairs, got %s"
                                       % type(headers).__name__)
    try:
        items = list(headers)
    except TypeError:
        raise IllegalArgumentTypeError("headers must be a list of (str, bytes) pairs, got %s"
                                       % type(headers).__name__) from None
    checked: List[Header] = []
    for header in items:
        if type(header) is not tuple and not isinstance(header, (tuple, list)):
            raise IllegalArgumentTypeError("each header must be a (str, bytes) pair, got %r" % (header,))
        if len(header) != 2:
            raise IllegalArgumentError("each header must be a (str, bytes) pair, got %r" % (header,))
        key, value = header
        if not isinstance(key, str):
            raise IllegalArgumentTypeError("a header key must be a str, got %s %r" % (type(key).__name__, key))
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            raise IllegalArgumentError("header key %r cannot be encoded as UTF-8" % (key,)) from None
        if value is not None and type(value) is not bytes:
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise IllegalArgumentTypeError("header %r: the value must be bytes or None, got %s"
                                               % (key, type(value).__name__))
            value = bytes(value)
        checked.append((key, value))
    return checked


def check_partition(partition: Any) -> int:
    """``partition`` if it is an ``int`` >= 0 (a bool or a float is refused)."""
    if type(partition) is not int:
        if isinstance(partition, bool) or not isinstance(partition, int):
            raise IllegalArgumentTypeError("partition must be an int, got %s %r"
                                           % (type(partition).__name__, partition))
        partition = int(partition)
    if partition < 0:
        raise IllegalArgumentError("partition must be >= 0, got %d" % partition)
    return partition


def check_timestamp(timestamp_ms: Any) -> int:
    """``timestamp_ms`` if it is an ``int`` from 0 to 2**63-1 (milliseconds since the epoch).

    Negative values are refused, -1 included: Kafka uses -1 for "no
    timestamp", which a producer never sends (leave ``timestamp_ms`` None to
    stamp the current time).
    """
    if type(timestamp_ms) is not int:
        if isinstance(timestamp_ms, bool) or not isinstance(timestamp_ms, int):
            raise IllegalArgumentTypeError("timestamp_ms must be an int (milliseconds) or None, got %s %r"
                                           % (type(timestamp_ms).__name__, timestamp_ms))
        timestamp_ms = int(timestamp_ms)
    if not 0 <= timestamp_ms <= MAX_TIMESTAMP_MS:
        raise IllegalArgumentError("timestamp_ms must be from 0 to 2**63-1, got %d" % timestamp_ms)
    return timestamp_ms


def check_record_size(key: Optional[bytes], value: Optional[bytes], headers: Optional[List[Header]],
                      max_request_size: int, buffer_memory: int) -> int:
    """The record's estimated size in a batch of its own; raise if no request or buffer could hold it."""
    size = estimate_record_size(key, value, headers) + BATCH_OVERHEAD
    if size > max_request_size or size > buffer_memory:
        limit, name = min((max_request_size, "max_request_size"), (buffer_memory, "buffer_memory"))
        raise MessageSizeTooLargeError(
            "the record is about %d bytes once encoded, more than %s (%d bytes)" % (size, name, limit))
    return size


def check_key_value(key: Any, value: Any) -> Tuple[Optional[bytes], Optional[bytes]]:
    """Serialized ``key`` and ``value`` as bytes (or None)."""
    return check_bytes(key, "key"), check_bytes(value, "value")
