"""``AIOProducer``: confluent-kafka's asyncio producer on kafkawire's asyncio engine.

confluent-kafka 2.16's :class:`confluent_kafka.aio.AIOProducer` buffers
records in Python and hands them to the C producer on worker threads.
This one needs no thread: ``await produce()`` puts the record straight into
:class:`kafka.aio.AIOKafkaProducer`'s partition batch (whose
``queue.buffering.max.ms`` linger replaces the ``batch_size`` /
``buffer_timeout`` buffer) and returns an :class:`asyncio.Future` that
resolves to the delivered :class:`~kafka.confluent.Message`, or raises
:class:`~kafka.confluent.KafkaException` with the code librdkafka reports.

Until a broker answered for the first time, records wait in order in a
backlog (as librdkafka queues them while it connects); one still waiting
after ``message.timeout.ms`` fails with ``_MSG_TIMED_OUT``.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import time
from typing import Any, Deque, NamedTuple, Optional

from kafka import errors as engine_errors
from kafka.aio import AIOKafkaProducer, RecordMetadata
from kafka.confluent import config as conf_mod
from kafka.confluent.aio._settings import message_timeout, not_implemented, producer_keywords
from kafka.confluent.aio._starting import BackgroundStart
from kafka.confluent.kafka_error import KafkaError, KafkaException, from_engine
from kafka.confluent.message import TIMESTAMP_CREATE_TIME, Message

log = logging.getLogger(__name__)

__all__ = ["AIOProducer"]

#: librdkafka's "any partition" (RD_KAFKA_PARTITION_UA).
PARTITION_UA = -1


class _Record(NamedTuple):
    """A record on its way to the engine."""

    topic: str
    value: Optional[bytes]
    key: Optional[bytes]
    partition: int
    result: "asyncio.Future[Message]"
    queued_at: float


def _as_bytes(data: Any) -> Optional[bytes]:
    """What librdkafka would store for a key or value: str as UTF-8, the rest as bytes."""
    if data is None or isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data)


def delivery_error(exc: BaseException) -> KafkaError:
    """The KafkaError a failed delivery reports for an engine exception (librdkafka's codes)."""
    if isinstance(exc, AssertionError):
        # aiokafka's (and so the engine's) refusals: a partition the topic does not have, or a
        # record with neither key nor value (which librdkafka would send; the engine cannot yet).
        if "partition" in str(exc).lower():
            code = KafkaError._UNKNOWN_PARTITION  # type: ignore[attr-defined]
            return KafkaError(code, "Message failed: " + KafkaError(code).str())
        return KafkaError(KafkaError._INVALID_ARG, "Message failed: %s" % exc)  # type: ignore[attr-defined]
    if isinstance(exc, (engine_errors.KafkaTimeoutError, asyncio.TimeoutError)):
        return KafkaError(KafkaError._MSG_TIMED_OUT)  # type: ignore[attr-defined]
    if isinstance(exc, engine_errors.KafkaConnectionError):
        return KafkaError(KafkaError._TRANSPORT, str(exc) or None)  # type: ignore[attr-defined]
    return from_engine(exc)


class AIOProducer:
    """confluent-kafka's ``AIOProducer`` (2.16) on :class:`kafka.aio.AIOKafkaProducer`.

    ``producer_conf`` takes librdkafka property names, checked as the
    synchronous :class:`~kafka.confluent.Producer` checks them. Create it
    inside a running event loop. ``max_workers``, ``executor``,
    ``batch_size`` and ``buffer_timeout`` are accepted for compatibility and
    not used (no thread, no Python-side buffer). Callbacks in the
    configuration (``error_cb``, ``stats_cb``, ``throttle_cb``, ``logger``)
    are accepted and not called yet.
    """

    def __init__(self, producer_conf: Any, max_workers: int = 4,
                 executor: Optional[concurrent.futures.Executor] = None, batch_size: int = 1000,
                 buffer_timeout: float = 1.0) -> None:
        self._loop = asyncio.get_running_loop()
        self._config = conf_mod.parse(producer_conf, "producer")
        keywords = producer_keywords(self._config)
        self._engine = AIOKafkaProducer(**keywords)
        self._timeout = message_timeout(self._config)
        self._starting = BackgroundStart(self._engine.start, keywords["retry_backoff_ms"] / 1000.0)
        self._backlog: Deque[_Record] = collections.deque()
        self._feeder: Optional["asyncio.Task[None]"] = None
        self._unfinished = 0
        self._is_closed = False

    async def __aenter__(self) -> "AIOProducer":
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    def __len__(self) -> int:
        """Records produced whose future is not resolved yet (0 once closed)."""
        return 0 if self._is_closed else self._unfinished

    # -- producing ------------------------------------------------------------------------------

    async def produce(self, topic: str, value: Any = None, key: Any = None, *args: Any,
                      **kwargs: Any) -> "asyncio.Future[Message]":
        """Queue a record; the future of its delivered :class:`~kafka.confluent.Message`.

        ``partition`` (keyword) picks the partition; by default the
        ``partitioner`` property does (librdkafka's ``consistent_random``),
        so a key lands where confluent-kafka puts it.
        ``headers`` and ``timestamp`` raise :class:`NotImplementedError`,
        as confluent-kafka 2.16's AIOProducer does (its batch mode cannot
        carry them).
        """
        if self._is_closed:
            raise RuntimeError("Producer has been closed")
        if "headers" in kwargs:
            raise NotImplementedError("Headers are not supported by AIOProducer (as in confluent-kafka 2.16); "
                                      "use the synchronous Producer.produce() to send headers")
        if "timestamp" in kwargs:
            raise NotImplementedError("Message timestamps are not supported by AIOProducer (as in "
                                      "confluent-kafka 2.16); use the synchronous Producer.produce()")
        partition = kwargs.get("partition", PARTITION_UA)
        result: "asyncio.Future[Message]" = self._loop.create_future()
        self._unfinished += 1
        record = _Record(topic, _as_bytes(value), _as_bytes(key), partition, result, time.monotonic())
        if self._starting.done and not self._backlog:
            await self._send(record)
        else:
            self._backlog.append(record)
            if self._feeder is None or self._feeder.done():
                self._feeder = asyncio.ensure_future(self._feed())
        return result

    def _fail(self, record: _Record, error: KafkaError) -> None:
        """Resolve ``record``'s future with ``error`` (each record is resolved once, here or in _report)."""
        self._unfinished -= 1
        if not record.result.done():
            record.result.set_exception(KafkaException(error))

    async def _send(self, record: _Record) -> None:
        """Hand ``record`` to the engine; its future is resolved from the engine's."""
        try:
            delivered = await self._engine.send(record.topic, record.value, record.key,
                                                partition=None if record.partition == PARTITION_UA
                                                else record.partition)
        except Exception as exc:  # noqa: BLE001 - reported through the record's future, as librdkafka does
            self._fail(record, delivery_error(exc))
            return
        delivered.add_done_callback(lambda engine_future: self._report(engine_future, record))

    def _report(self, engine_future: "asyncio.Future[RecordMetadata]", record: _Record) -> None:
        result = record.result
        if engine_future.cancelled():
            self._fail(record, KafkaError(KafkaError._PURGE_QUEUE))  # type: ignore[attr-defined]
            return
        exc = engine_future.exception()
        if exc is not None:
            self._fail(record, delivery_error(exc))
            return
        self._unfinished -= 1
        if result.done():  # cancelled by the application
            return
        meta = engine_future.result()
        stamp_type = TIMESTAMP_CREATE_TIME + (meta.timestamp_type or 0)
        result.set_result(Message(meta.topic, meta.partition, meta.offset, record.key, record.value,
                                  timestamp=(stamp_type, meta.timestamp if meta.timestamp is not None else -1),
                                  latency=time.monotonic() - record.queued_at))

    async def _feed(self) -> None:
        """Send the backlog in order once the engine has started; fail what waited too long."""
        backlog = self._backlog
        while backlog:
            record = backlog[0]
            left = record.queued_at + self._timeout - time.monotonic()
            started = await self._starting.wait(max(left, 0.0))
            if backlog and backlog[0] is record:
                backlog.popleft()
            else:
                continue  # purged meanwhile
            if not started or record.result.done():
                self._fail(record, KafkaError(KafkaError._MSG_TIMED_OUT))  # type: ignore[attr-defined]
                continue
            await self._send(record)

    async def poll(self, timeout: float = 0, *args: Any, **kwargs: Any) -> int:
        """Returns 0: delivery reports resolve the futures as they come, with no callback to serve."""
        await asyncio.sleep(0)
        return 0

    async def flush(self, timeout: Optional[float] = None, *args: Any, **kwargs: Any) -> int:
        """Send everything now and wait for the reports (at most ``timeout`` s; None or -1: no limit).

        Returns the number of records still without a report, as confluent-kafka does.
        """
        limit = None if timeout is None or timeout < 0 else timeout
        try:
            await asyncio.wait_for(asyncio.shield(self._drain()), limit)
        except asyncio.TimeoutError:
            pass
        return len(self)

    async def _drain(self) -> None:
        while self._feeder is not None and not self._feeder.done():
            await asyncio.gather(self._feeder, return_exceptions=True)
        if self._starting.done:
            await self._engine.flush()

    async def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Cancel the futures of records still in the backlog (not yet handed to the engine).

        Records already in the engine's batches are sent: the asyncio engine
        cannot take them back yet.
        """
        while self._backlog:
            record = self._backlog.popleft()
            self._unfinished -= 1
            record.result.cancel()

    async def cluster_id(self, timeout: Optional[float] = None) -> Optional[str]:
        """The cluster id the brokers reported (None when no broker answered within ``timeout``)."""
        if not await self._starting.wait(None if timeout is None or timeout < 0 else timeout):
            return None
        return self._engine.client.cluster.cluster_id

    async def close(self) -> None:
        """Flush, then stop the engine (closing its connections). Calling it again does nothing."""
        if self._is_closed:
            return
        try:
            await self.flush()
        finally:
            self._is_closed = True
            await self._starting.stop()
            await self._engine.stop()

    # -- not on the asyncio engine yet ----------------------------------------------------------

    async def list_topics(self, *args: Any, **kwargs: Any) -> Any:
        raise not_implemented("AIOProducer.list_topics()")

    async def init_transactions(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("Transactions")

    async def begin_transaction(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("Transactions")

    async def send_offsets_to_transaction(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("Transactions")

    async def commit_transaction(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("Transactions")

    async def abort_transaction(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("Transactions")

    async def set_sasl_credentials(self, *args: Any, **kwargs: Any) -> None:
        raise not_implemented("set_sasl_credentials()")

