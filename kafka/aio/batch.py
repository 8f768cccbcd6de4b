"""One partition's batch for the asyncio producer: its records, their futures, and their completion.

A :class:`PendingBatch` keeps the records as they came, ``(timestamp,
key, value, headers)`` tuples, and one asyncio future per record (aiokafka's
``send()`` returns one). Appending costs a size check, a tuple and a
future; nothing is encoded until the batch is sent
(:meth:`PendingBatch.close`, through
:func:`kafka.record.queued.build_queued_batch`, the record layer's bulk
encoders), and completion resolves every future of the batch in one pass.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Callable, List, Optional, Sequence

from kafka.aio.structs import RecordMetadata
from kafka.record.batch import HEADER_SIZE
from kafka.record.queued import build_queued_batch
from kafka.record.record import Header
from kafka.structs import TopicPartition

__all__ = ["PendingBatch"]

_CREATE_TIME, _LOG_APPEND_TIME = 0, 1


def _future_factory(loop: asyncio.AbstractEventLoop) -> Callable[[], "asyncio.Future[RecordMetadata]"]:
    """``loop.create_future``, or the same call without its Python frame when the loop is asyncio's own."""
    if getattr(type(loop), "create_future", None) is asyncio.BaseEventLoop.create_future:
        return functools.partial(asyncio.Future, loop=loop)
    return loop.create_future


class PendingBatch:
    """Records for one partition, their futures and what became of them.

    :param tp: the partition.
    :param max_size: the largest batch, in uncompressed bytes (a first
        record goes in whatever its size; the broker judges it).
    :param created: when the batch was made (monotonic seconds).
    :param loop: the event loop the futures belong to.
    """

    __slots__ = ("tp", "created", "records", "futures", "size", "max_size", "sealed", "data", "attempts",
                 "retry_at", "delivered", "_new_future")

    def __init__(self, tp: TopicPartition, max_size: int, created: float, loop: asyncio.AbstractEventLoop) -> None:
        self.tp = tp
        self.created = created
        #: ``(timestamp, key, value, headers)`` per record, in offset order (kept until completion).
        self.records: List[Any] = []
        #: One future per record, in the same order.
        self.futures: List["asyncio.Future[RecordMetadata]"] = []
        #: Upper bound of the uncompressed batch size so far.
        self.size = HEADER_SIZE
        self.max_size = max_size
        #: No more records go in (it filled up, or the accumulator let it go).
        self.sealed = False
        #: The encoded batch once closed (the same bytes are sent again on a retry).
        self.data: Optional[bytes] = None
        self.attempts = 0
        self.retry_at = 0.0
        #: Resolves (with None) once every record's future is resolved, however.
        self.delivered: "asyncio.Future[None]" = loop.create_future()
        self._new_future = _future_factory(loop)

    def __repr__(self) -> str:
        return "<PendingBatch %s-%d records=%d attempts=%d>" % (self.tp.topic, self.tp.partition,
                                                                 len(self.futures), self.attempts)

    @property
    def closed(self) -> bool:
        """No more records go in (full, or taken by the sender)."""
        return self.sealed or self.data is not None

    @property
    def record_count(self) -> int:
        """Records in the batch."""
        return len(self.futures)

    def try_append(self, timestamp: int, key: Optional[bytes], value: Optional[bytes],
                   headers: Optional[Sequence[Header]], size: int) -> "Optional[asyncio.Future[RecordMetadata]]":
        """Add a record of ``size`` bytes (see :func:`~kafka.record.batch.estimate_record_size`); its future,
        or None when it does not fit (the batch is left as it is).

        The caller checks that the batch is open (:attr:`closed`).
        """
        total = self.size + size
        if total > self.max_size and self.records:
            return None
        self.size = total
        self.records.append((timestamp, key, value, headers))
        future = self._new_future()
        self.futures.append(future)
        return future

    def close(self, compression: int) -> bytes:
        """Take no more records; the encoded batch (encoded once)."""
        self.sealed = True
        if self.data is None:
            self.data = build_queued_batch(self.records, compression_type=compression)
        return self.data

    def succeed(self, base_offset: int, log_append_time: int = -1, log_start_offset: int = -1) -> None:
        """Resolve every record's future with where it was written (futures a caller cancelled are skipped).

        A plain loop: on CPython building the metadata with ``map`` in C
        was no faster measurably, and on PyPy it was slower.
        """
        tp = self.tp
        topic, partition = tp
        kind = _LOG_APPEND_TIME if log_append_time != -1 else _CREATE_TIME
        offset = base_offset if base_offset >= 0 else -1
        step = 1 if base_offset >= 0 else 0
        for future, record in zip(self.futures, self.records):
            if not future.done():
                future.set_result(RecordMetadata(topic, partition, tp, offset,
                                                 log_append_time if kind else record[0], kind, log_start_offset))
            offset += step
        self._finish()

    def fail(self, error: BaseException) -> None:
        """Fail every record's future with ``error``."""
        for future in self.futures:
            if not future.done():
                future.set_exception(error)
        self._finish()

    def _finish(self) -> None:
        self.sealed = True
        self.records = []  # the values are not needed any more; the futures hold the outcome
        self.futures = []
        if not self.delivered.done():
            self.delivered.set_result(None)
