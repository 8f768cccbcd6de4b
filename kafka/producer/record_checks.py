"""Checks of the arguments of ``KafkaProducer.send()``.

A record is encoded only when its batch is sent, on the sender thread; a
value that cannot be encoded there would fail the whole batch (and, before
the sender learned to fail batches one by one, the whole request). So every
argument is checked when ``send()`` is called, where the caller sees the
error. The checks start with cheap ``type(x) is ...`` tests so the common
arguments pass quickly.
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, Tuple

from kafka.errors import IllegalArgumentError, IllegalArgumentTypeError, MessageSizeTooLargeError
from kafka.producer.batch import BATCH_OVERHEAD, Header
from kafka.producer.future import header_size
from kafka.record.batch import RECORD_OVERHEAD, estimate_record_size
from kafka.topic_names import check_partition_number as check_partition  # the same check everywhere

__all__ = ["check_bytes", "check_headers", "check_headers_sized", "check_key_value", "check_partition",
           "check_timestamp", "check_record_size", "check_size_estimate"]

#: The largest timestamp a record batch can hold (a signed 64-bit integer).
MAX_TIMESTAMP_MS = (1 << 63) - 1


def check_bytes(data: Any, what: str, serialized: bool = False) -> Optional[bytes]:
    """``data`` as ``bytes`` (or None); bytes-like values are copied, others refused.

    ``serialized`` tells that ``data`` is what the ``<what>_serializer``
    returned, for the error message.
    """
    if data is None or type(data) is bytes:
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if serialized:
        raise IllegalArgumentTypeError("the %s_serializer returned %s, not bytes" % (what, type(data).__name__))
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
        if not isinstance(header, (tuple, list)):
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


def check_headers_sized(headers: Any) -> Tuple[Optional[Sequence[Header]], int, int]:
    """:func:`check_headers` (None for no headers), with the sizes the producer needs of them.

    Returns ``(headers, estimate, serialized)``: what the headers add to
    :func:`~kafka.record.batch.estimate_record_size`, and their
    :func:`~kafka.producer.future.header_size` (-1 for none). The usual
    headers -- a list or tuple of ``(str, bytes or None)`` tuples with ASCII
    keys -- are checked and sized in one pass without encoding a key. The
    headers come back as a tuple: a record queued with a list stays tracked by CPython's
    cyclic garbage collector until it is sent, a tuple of such pairs (and the
    record's tuple holding it) does not. Sending 300,000 records of the
    benchmarks' ``small`` shape, the collector's passes took 1.4-1.8 µs per
    record with tuples against 1.8-2.6 µs with lists. Headers of any other form
    go through :func:`check_headers`, which converts them or raises.
    """
    if type(headers) is list or type(headers) is tuple:
        estimate = serialized = 0
        for header in headers:
            if type(header) is not tuple or len(header) != 2:
                break
            key, value = header
            if type(key) is not str or not key.isascii():
                break
            if value is None:
                length = 0
            elif type(value) is bytes:
                length = len(value)
            else:
                break
            estimate += 10 + len(key) * 3 + length
            serialized += len(key) + length
        else:
            return (tuple(headers), estimate, serialized) if headers else (None, 0, -1)
    checked = check_headers(headers)
    if not checked:
        return None, 0, -1
    return tuple(checked), estimate_record_size(None, None, checked) - RECORD_OVERHEAD, header_size(checked)


def _as_int(value: Any, what: str) -> int:
    """``value`` as an ``int`` if it is an integer (numpy's too), not a bool or a float."""
    if isinstance(value, bool):
        raise IllegalArgumentTypeError("%s must be an int, got bool %r" % (what, value))
    try:
        return operator.index(value)
    except TypeError:
        raise IllegalArgumentTypeError("%s must be an int, got %s %r" % (what, type(value).__name__, value)) from None


def check_timestamp(timestamp_ms: Any) -> int:
    """``timestamp_ms`` if it is an integer from 0 to 2**63-1 (milliseconds since the epoch).

    Negative values are refused, -1 included: Kafka uses -1 for "no
    timestamp", which a producer never sends (leave ``timestamp_ms`` None to
    stamp the current time).
    """
    if type(timestamp_ms) is not int:
        timestamp_ms = _as_int(timestamp_ms, "timestamp_ms (milliseconds, or None)")
    if not 0 <= timestamp_ms <= MAX_TIMESTAMP_MS:
        raise IllegalArgumentError("timestamp_ms must be from 0 to 2**63-1, got %d" % timestamp_ms)
    return timestamp_ms


def check_record_size(key: Optional[bytes], value: Optional[bytes], headers: Optional[Sequence[Header]],
                      max_request_size: int, buffer_memory: int) -> int:
    """The record's estimated size in a batch of its own; raise if no request or buffer could hold it."""
    return check_size_estimate(estimate_record_size(key, value, headers), max_request_size, buffer_memory)


def check_size_estimate(estimate: int, max_request_size: int, buffer_memory: int) -> int:
    """A record's size in a batch of its own, from its ``estimate``; raise if no request or buffer could hold it.

    The producer's one size rule, for every way records enter it
    (:meth:`kafka.producer.pipeline.ProducerPipeline.check_sizes` for many).
    """
    size = estimate + BATCH_OVERHEAD
    if size > max_request_size or size > buffer_memory:
        limit, name = min((max_request_size, "max_request_size"), (buffer_memory, "buffer_memory"))
        raise MessageSizeTooLargeError(
            "a record of about %d bytes once encoded is larger than %s (%d bytes)" % (size, name, limit))
    return size


def check_key_value(key: Any, value: Any, key_serialized: bool = False,
                    value_serialized: bool = False) -> Tuple[Optional[bytes], Optional[bytes]]:
    """Serialized ``key`` and ``value`` as bytes (or None)."""
    return check_bytes(key, "key", key_serialized), check_bytes(value, "value", value_serialized)
