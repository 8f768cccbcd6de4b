"""Futures handed out by the producer.

One :class:`ProduceResult` exists per batch; every record of the batch gets
a light :class:`FutureRecordMetadata` that only refers to it. Nothing is
done per record when a batch completes unless the application registered a
callback on that record, so completing a batch of a thousand records costs
one event, not a thousand futures.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

from kafka.errors import KafkaTimeoutError
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)


class RecordMetadata(NamedTuple):
    """Where a record was written.

    kafka-python's nine fields in kafka-python's order, so code unpacking
    the tuple works unchanged. ``serialized_header_size`` is -1 for a record
    without headers.
    """

    topic: str
    partition: int
    topic_partition: TopicPartition
    offset: int
    timestamp: int
    checksum: Optional[int]
    serialized_key_size: int
    serialized_value_size: int
    serialized_header_size: int


def header_size(headers: Any) -> int:
    """Serialized size of ``headers`` as kafka-python counts it (UTF-8 keys plus values), -1 for none."""
    if not headers:
        return -1
    return sum(len(k.encode("utf-8")) + (len(v) if v is not None else 0) for k, v in headers)


class ProduceResult:
    """The outcome of one batch: base offset and log-append time, or an error.

    A batch the broker refused as too large is split in two (see
    :meth:`split_at`); its result then stands for the results of the two
    halves, :attr:`parts`, and completes when both have. Each record's
    outcome is then its half's: :meth:`leaf` finds it.
    """

    __slots__ = ("topic_partition", "base_offset", "log_append_time", "log_start_offset", "error",
                 "_event", "_callbacks", "_lock", "hurried", "on_wait", "stamps", "value_sizes", "parts")

    #: False: a batch's result (:class:`kafka.producer.held.HeldRecords` stands in for one before).
    is_held = False

    def __init__(self, topic_partition: TopicPartition) -> None:
        self.topic_partition = topic_partition
        self.base_offset = -1
        self.log_append_time = -1
        self.log_start_offset = -1
        self.error: Optional[BaseException] = None
        self._event = threading.Event()
        self._callbacks: Optional[List[Tuple[Callable[..., Any], Any]]] = None
        self._lock = threading.Lock()
        #: Set when someone blocks on the batch: it leaves without lingering.
        self.hurried = False
        #: Called (by the producer's accumulator) when a caller starts waiting.
        self.on_wait: Optional[Callable[[], None]] = None
        #: Timestamp and value size of each record that has a :class:`ValueRecordFuture`, by index;
        #: set by the batch before it completes.
        self.stamps: Optional[List[int]] = None
        self.value_sizes: Optional[List[int]] = None
        #: After :meth:`split_at`: ``(records in the first half, first half's result, second half's result)``.
        self.parts: Optional[Tuple[int, "ProduceResult", "ProduceResult"]] = None

    def split_at(self, count: int) -> Tuple["ProduceResult", "ProduceResult"]:
        """Results for records ``0..count-1`` and ``count..`` of this one; it completes when both have.

        Once both are done this result takes the first half's offsets and
        the first error of either (what code reading the whole batch sees);
        a record's own outcome is its half's (:meth:`leaf`).
        """
        first, second = ProduceResult(self.topic_partition), ProduceResult(self.topic_partition)
        first.on_wait = second.on_wait = self.on_wait
        first.hurried = second.hurried = self.hurried
        self.parts = (count, first, second)
        first.on_done(self._part_done, None)
        second.on_done(self._part_done, None)
        return first, second

    def _part_done(self, _: Any) -> None:
        assert self.parts is not None
        _, first, second = self.parts
        if first.is_done and second.is_done:
            self.done(first.base_offset, first.log_append_time, max(first.log_start_offset, second.log_start_offset),
                      first.error if first.error is not None else second.error)

    def leaf(self, index: int) -> Tuple["ProduceResult", int]:
        """The result that holds record ``index``'s own outcome, and its index there (itself unless split)."""
        result = self
        parts = result.parts
        while parts is not None:
            count, first, second = parts
            if index < count:
                result = first
            else:
                result, index = second, index - count
            parts = result.parts
        return result, index

    def leaves(self, index: int, count: int) -> List[Tuple["ProduceResult", int, int]]:
        """``(result, index there, record count)`` runs that hold records ``index..index+count-1``, in order."""
        parts = self.parts
        if parts is None:
            return [(self, index, count)]
        split, first, second = parts
        runs: List[Tuple[ProduceResult, int, int]] = []
        if index < split:
            runs += first.leaves(index, min(count, split - index))
        if index + count > split:
            start = max(index, split)
            runs += second.leaves(start - split, index + count - start)
        return runs

    @property
    def is_done(self) -> bool:
        """Whether the batch completed."""
        return self._event.is_set()

    def wait(self, timeout: Optional[float]) -> bool:
        """Block until done or ``timeout`` seconds pass.

        A batch still lingering is sent at once: waiting for ``linger_ms``
        gains nothing when the caller already blocks on the answer, and
        ``send(...).get()`` in a loop would otherwise pay it per record.
        """
        if self._event.is_set():
            return True
        if not self.hurried:
            self.hurried = True
            on_wait = self.on_wait
            if on_wait is not None:
                on_wait()
        return self._event.wait(timeout)

    def done(self, base_offset: int = -1, log_append_time: int = -1, log_start_offset: int = -1,
             error: Optional[BaseException] = None) -> None:
        """Complete the batch and run the callbacks registered on its records."""
        with self._lock:
            if self._event.is_set():
                return
            self.base_offset = base_offset
            self.log_append_time = log_append_time
            self.log_start_offset = log_start_offset
            self.error = error
            self._event.set()
            callbacks, self._callbacks = self._callbacks, None
        for fn, future in callbacks or ():
            try:
                fn(future)
            except Exception:  # a faulty callback must not stop the sender
                log.exception("error in producer callback")

    def on_done(self, fn: Callable[[Any], None], arg: Any) -> None:
        """Call ``fn(arg)`` once the batch completes (now, in this thread, if it already has).

        Otherwise ``fn`` runs on the sender thread: it must not block, and
        what it raises is logged, not propagated.
        """
        with self._lock:
            if not self._event.is_set():
                if self._callbacks is None:
                    self._callbacks = []
                self._callbacks.append((fn, arg))
                return
        fn(arg)


class FutureRecordMetadata:
    """The eventual :class:`RecordMetadata` of one sent record.

    ``get(timeout)`` blocks; ``add_callback(fn)`` calls ``fn(metadata)`` and
    ``add_errback(fn)`` calls ``fn(exception)`` once the record's batch is
    acknowledged or fails; ``is_done`` tells whether that happened.
    """

    __slots__ = ("_result", "_index", "_timestamp", "_key_size", "_value_size", "_header_size")

    def __init__(self, result: ProduceResult, index: int, timestamp: int, key_size: int, value_size: int,
                 header_size: int) -> None:
        self._result = result
        self._index = index
        self._timestamp = timestamp
        self._key_size = key_size
        self._value_size = value_size
        self._header_size = header_size

    def __repr__(self) -> str:
        result = self._result
        if result.is_held:
            held: Any = result  # a kafka.producer.held.HeldRecords
            return "<FutureRecordMetadata %s held>" % (held.topic,)
        state = "pending" if not self.is_done else ("failed" if self.exception else "done")
        return "<FutureRecordMetadata %s-%d #%d %s>" % (
            result.topic_partition[0], result.topic_partition[1], self._index, state)

    def _placed(self) -> ProduceResult:
        """The result of the record's batch; a record the producer still holds back is handed over first."""
        result = self._result
        if result.is_held:
            held: Any = result  # a kafka.producer.held.HeldRecords
            held.hand_over()
            result = self._result
        return result

    @property
    def is_done(self) -> bool:
        """Whether the record was acknowledged or failed."""
        return self._result.is_done

    def _outcome(self) -> Tuple[ProduceResult, int]:
        """The result holding this record's own outcome and its index there (see :meth:`ProduceResult.leaf`)."""
        result = self._result
        if result.parts is None:
            return result, self._index
        return result.leaf(self._index)

    @property
    def exception(self) -> Optional[BaseException]:
        """The failure, if the record failed."""
        return self._outcome()[0].error if self._result.is_done else None

    def succeeded(self) -> bool:
        """Acknowledged by the broker."""
        return self._result.is_done and self._outcome()[0].error is None

    def failed(self) -> bool:
        """Failed for good."""
        return self._result.is_done and self._outcome()[0].error is not None

    @property
    def value(self) -> Optional[RecordMetadata]:
        """The metadata once acknowledged, else None."""
        return self._metadata() if self.succeeded() else None

    def _metadata(self) -> RecordMetadata:
        result, index = self._outcome()
        tp = result.topic_partition
        offset = result.base_offset + index if result.base_offset >= 0 else -1
        timestamp = result.log_append_time if result.log_append_time >= 0 else self._timestamp
        return RecordMetadata(tp.topic, tp.partition, tp, offset, timestamp, None,
                              self._key_size, self._value_size, self._header_size)

    def get(self, timeout: Optional[float] = None) -> RecordMetadata:
        """The record's metadata; raises the failure, or KafkaTimeoutError after ``timeout`` s."""
        result = self._placed()
        if not result.wait(timeout):
            raise KafkaTimeoutError("record not acknowledged within %s s" % (timeout,))
        error = self._outcome()[0].error
        if error is not None:
            raise error
        return self._metadata()

    def add_callback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureRecordMetadata":
        """Call ``fn(*args, metadata, **kwargs)`` when acknowledged."""
        def on_done(future: "FutureRecordMetadata") -> None:
            if future._outcome()[0].error is None:
                fn(*args, future._metadata(), **kwargs)
        self._placed().on_done(on_done, self)
        return self

    def add_errback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureRecordMetadata":
        """Call ``fn(*args, exception, **kwargs)`` when the record fails."""
        def on_done(future: "FutureRecordMetadata") -> None:
            error = future._outcome()[0].error
            if error is not None:
                fn(*args, error, **kwargs)
        self._placed().on_done(on_done, self)
        return self

    def on_completion(self, fn: Callable[[Any], Any], arg: Any) -> "FutureRecordMetadata":
        """Call ``fn(arg)`` once the record is acknowledged or has failed, whichever happens.

        A cheaper hook than :meth:`add_callback` plus :meth:`add_errback` for
        code that handles many records: one registration per record, no
        closure, nothing computed for ``fn``. ``fn`` then reads the outcome
        from the future (:attr:`exception`, :meth:`offset_and_timestamp`). It
        runs on the sender thread, before :meth:`KafkaProducer.flush` returns,
        and must not block; there its exceptions are logged, not raised. If
        the record is already done, ``fn`` runs at once in the caller's thread.
        """
        self._placed().on_done(fn, arg)
        return self

    def offset_and_timestamp(self) -> Tuple[int, int]:
        """``(offset, timestamp)`` of an acknowledged record, without building :class:`RecordMetadata`.

        The offset is -1 when the broker returned none (acks=0).
        """
        result, index = self._outcome()
        offset = result.base_offset + index if result.base_offset >= 0 else -1
        return offset, (result.log_append_time if result.log_append_time >= 0 else self._timestamp)

    def add_both(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> "FutureRecordMetadata":
        """Call ``fn`` on success (with the metadata) and on failure (with the error)."""
        self.add_callback(fn, *args, **kwargs)
        return self.add_errback(fn, *args, **kwargs)


class ValueRecordFuture(FutureRecordMetadata):
    """:class:`FutureRecordMetadata` of a record without key and headers that keeps only its index.

    Its timestamp and value size are read from its batch's result
    (:attr:`ProduceResult.stamps`, :attr:`ProduceResult.value_sizes`), which
    the batch fills in before it completes, when the metadata can first be
    read. Used on PyPy (the ``COMPACT_FUTURES`` fast path of
    :mod:`kafka.fast_paths`), where an application
    keeping its futures keeps two objects per record (the future and its
    boxed index) instead of four (with a boxed timestamp and value size),
    which the garbage collector copies out of the nursery and traces on
    every major collection. Not on CPython: it frees the integers of a
    future by reference counting, and the sizes the batch would compute on
    completion would cost its sender thread more than the smaller future saves.
    """

    __slots__ = ()
    _key_size = -1
    _header_size = -1

    def __init__(self, result: ProduceResult, index: int) -> None:  # noqa: super().__init__ not called: no fields
        self._result = result
        self._index = index

    @property
    def _timestamp(self) -> int:  # type: ignore[override]
        stamps = self._result.stamps
        return stamps[self._index] if stamps is not None else -1

    @property
    def _value_size(self) -> int:  # type: ignore[override]
        sizes = self._result.value_sizes
        return sizes[self._index] if sizes is not None else -1

