"""``AIOConsumer``: confluent-kafka's asyncio consumer on kafkawire's asyncio engine.

confluent-kafka 2.16's :class:`confluent_kafka.aio.AIOConsumer` runs each
call of the C consumer on a worker thread. This one runs on the event loop
alone, over :class:`kafka.aio.AIOKafkaConsumer`: ``assign()`` and the
partition calls (``poll``, ``consume``, ``seek``, ``pause`` / ``resume``,
``position``, ``commit`` / ``committed``, watermarks and offset look-ups)
work. The engine has no consumer group membership yet, so ``subscribe()``
raises :class:`~kafka.confluent.KafkaException` with ``_NOT_IMPLEMENTED``
(use the synchronous :class:`~kafka.confluent.Consumer` for groups).

Records are :class:`~kafka.confluent.Message` objects made from the
engine's rows without a copy per field (a Message *is* such a row).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from typing import Any, Dict, List, Optional, Tuple

from kafka import errors as engine_errors
from kafka.aio import AIOKafkaConsumer
from kafka.confluent import config as conf_mod
from kafka.confluent.aio._settings import consumer_keywords, not_implemented
from kafka.confluent.aio._starting import BackgroundStart
from kafka.confluent.kafka_error import KafkaError, KafkaException, call_error, from_engine
from kafka.confluent.message import (
    OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED, Message, TopicPartition, partitions_list)
from kafka.structs import OffsetAndMetadata
from kafka.structs import TopicPartition as EngineTP

log = logging.getLogger(__name__)

__all__ = ["AIOConsumer"]

#: How long "no limit" waits, in seconds (a day; getmany needs a number).
_FOREVER = 86400.0


def _seconds(timeout: Optional[float]) -> Optional[float]:
    """confluent-kafka's timeout (None or a negative number: no limit) as seconds or None."""
    if timeout is not None and not isinstance(timeout, (int, float)):
        raise TypeError("timeout must be a number")
    return None if timeout is None or timeout < 0 else float(timeout)


def _etp(tp: TopicPartition) -> EngineTP:
    return EngineTP(tp.topic, tp.partition)


def _as_message(record: Any) -> Message:
    """The confluent Message for an engine record (same row layout, :data:`kafka.record.rows.ROW_FIELDS`)."""
    return tuple.__new__(Message, record)


class AIOConsumer:
    """confluent-kafka's ``AIOConsumer`` (2.16) on :class:`kafka.aio.AIOKafkaConsumer`, for assigned partitions.

    ``consumer_conf`` takes librdkafka property names (``group.id`` is
    required, as in confluent-kafka). Create it inside a running event loop.
    ``max_workers`` and ``executor`` are accepted for compatibility and not
    used. Every method is a coroutine, as in confluent-kafka; after
    :meth:`close` they raise ``RuntimeError("Consumer closed")``.
    """

    def __init__(self, consumer_conf: Any, max_workers: int = 100,
                 executor: Optional[concurrent.futures.Executor] = None) -> None:
        if executor is None and max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        asyncio.get_running_loop()  # RuntimeError outside a loop, as confluent-kafka's constructor
        self._config = conf_mod.parse(consumer_conf, "consumer")
        keywords = consumer_keywords(self._config)
        self._engine = AIOKafkaConsumer(**keywords)
        self._starting = BackgroundStart(self._engine.start, keywords["retry_backoff_ms"] / 1000.0)
        self._assigned: List[EngineTP] = []
        self._positions: Dict[EngineTP, int] = {}  # the offset after the last record handed out
        self._stored: Dict[EngineTP, int] = {}  # what commit() without arguments commits
        self._auto_store = self._config.get_bool("enable.auto.offset.store")
        self._seeks: List[Tuple[EngineTP, int]] = []  # to the log start or end, once started
        self._closed = False

    async def __aenter__(self) -> "AIOConsumer":
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    def _check(self) -> None:
        if self._closed:
            raise RuntimeError("Consumer closed")

    async def _ready(self, timeout: Optional[float]) -> bool:
        """Wait until the engine started (at most ``timeout`` s) and pending seeks are done."""
        if not await self._starting.wait(timeout):
            return False
        while self._seeks:
            etp, where = self._seeks.pop(0)
            if etp in self._assigned:
                if where == OFFSET_BEGINNING:
                    await self._engine.seek_to_beginning(etp)
                else:
                    await self._engine.seek_to_end(etp)
        return True

    # -- assignment -----------------------------------------------------------------------------

    async def assign(self, partitions: Any) -> None:
        """Read ``partitions`` (replacing the assignment), each from its ``offset`` when one is given."""
        self._check()
        self._set_assignment(partitions_list(partitions), replace=True)

    async def incremental_assign(self, partitions: Any) -> None:
        """Add ``partitions`` to the assignment."""
        self._check()
        self._set_assignment(partitions_list(partitions), replace=False)

    async def incremental_unassign(self, partitions: Any) -> None:
        """Remove ``partitions`` from the assignment."""
        self._check()
        gone = {_etp(tp) for tp in partitions_list(partitions)}
        self._assigned = [etp for etp in self._assigned if etp not in gone]
        self._engine.assign(self._assigned)
        for etp in gone:
            self._positions.pop(etp, None)
            self._stored.pop(etp, None)

    async def unassign(self) -> None:
        """Read nothing."""
        self._check()
        self._assigned = []
        self._positions.clear()
        self._stored.clear()
        self._engine.assign([])

    def _set_assignment(self, partitions: List[TopicPartition], replace: bool) -> None:
        wanted = [_etp(tp) for tp in partitions]
        kept = [] if replace else [etp for etp in self._assigned if etp not in wanted]
        self._assigned = kept + wanted
        for known in (self._positions, self._stored):
            for etp in list(known):
                if etp not in self._assigned:
                    del known[etp]
        self._engine.assign(self._assigned)
        for tp, etp in zip(partitions, wanted):
            self._position_at(etp, tp.offset)

    def _position_at(self, etp: EngineTP, offset: int) -> None:
        """Move ``etp`` to ``offset`` (a logical offset waits until the engine started)."""
        if offset >= 0:
            self._engine.seek(etp, offset)
        elif offset in (OFFSET_BEGINNING, OFFSET_END):
            self._seeks.append((etp, offset))
        # OFFSET_STORED / OFFSET_INVALID: the committed offset, else auto.offset.reset (the engine's default)

    async def assignment(self) -> List[TopicPartition]:
        """The assigned partitions, in the order they were assigned."""
        self._check()
        return [TopicPartition(etp.topic, etp.partition, OFFSET_STORED) for etp in self._assigned]

    async def subscribe(self, topics: Any, *args: Any, **kwargs: Any) -> None:
        """Not yet: the asyncio engine has no consumer group membership (raises ``_NOT_IMPLEMENTED``)."""
        self._check()
        raise not_implemented("subscribe() (consumer group membership on the asyncio engine); "
                              "assign() partitions, or use kafka.confluent.Consumer for groups")

    async def unsubscribe(self) -> None:
        """Not yet, as :meth:`subscribe`."""
        self._check()
        raise not_implemented("unsubscribe() (consumer group membership on the asyncio engine)")

    # -- records --------------------------------------------------------------------------------

    async def poll(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next record, waiting up to ``timeout`` seconds (None or -1: no limit); None if none came."""
        found = await self._take(1, timeout)
        return found[0] if found else None

    async def consume(self, num_messages: int = 1, timeout: Optional[float] = -1) -> List[Message]:
        """Up to ``num_messages`` records, waiting up to ``timeout`` seconds for the first ones."""
        if isinstance(num_messages, bool) or not isinstance(num_messages, int):
            raise TypeError("num_messages must be an int")
        if not 0 <= num_messages <= 1000000:
            raise ValueError("num_messages must be between 0 and 1000000 (1M)")
        return await self._take(num_messages, timeout)

    async def _take(self, count: int, timeout: Optional[float]) -> List[Message]:
        self._check()
        limit = _seconds(timeout)
        deadline = time.monotonic() + (limit if limit is not None else _FOREVER)
        if count == 0 or not await self._ready(limit):
            return []
        left = max(deadline - time.monotonic(), 0.0)
        try:
            batches = await self._engine.getmany(timeout_ms=int(left * 1000), max_records=count)
        except engine_errors.KafkaError as exc:
            return [Message(error=from_engine(exc))]
        out: List[Message] = []
        positions = self._positions
        for etp, records in batches.items():
            if records:
                out.extend(_as_message(record) for record in records)
                positions[etp] = records[-1].offset + 1
                if self._auto_store:
                    self._stored[etp] = records[-1].offset + 1
        return out

    # -- positions ------------------------------------------------------------------------------

    async def seek(self, partition: TopicPartition) -> None:
        """Read ``partition`` from its ``offset`` (an offset, ``OFFSET_BEGINNING`` or ``OFFSET_END``)."""
        self._check()
        if not isinstance(partition, TopicPartition):
            raise TypeError("expected a TopicPartition")
        etp = _etp(partition)
        if etp not in self._assigned:
            raise KafkaException(KafkaError(KafkaError._STATE,  # type: ignore[attr-defined]
                                            "Failed to seek to offset %d: Local: Erroneous state" % partition.offset))
        self._position_at(etp, partition.offset)

    async def position(self, partitions: Any) -> List[TopicPartition]:
        """The offset after the last record handed out of each partition (``OFFSET_INVALID`` before one)."""
        self._check()
        return [TopicPartition(tp.topic, tp.partition, self._positions.get(_etp(tp), OFFSET_INVALID))
                for tp in partitions_list(partitions)]

    async def pause(self, partitions: Any) -> None:
        """Stop fetching and handing out records of ``partitions``."""
        self._check()
        self._engine.pause(*[_etp(tp) for tp in partitions_list(partitions)])

    async def resume(self, partitions: Any) -> None:
        """Fetch and hand out records of ``partitions`` again."""
        self._check()
        self._engine.resume(*[_etp(tp) for tp in partitions_list(partitions)])

    async def get_watermark_offsets(self, partition: TopicPartition, timeout: Optional[float] = None,
                                    cached: bool = False) -> Optional[Tuple[int, int]]:
        """``(low, high)`` offsets of ``partition``; with ``cached`` the high watermark fetching last saw."""
        self._check()
        if not isinstance(partition, TopicPartition):
            raise TypeError("expected a TopicPartition")
        etp = _etp(partition)
        if cached:
            high = self._engine.highwater(etp) if etp in self._assigned else None
            return (OFFSET_INVALID, high if high is not None else OFFSET_INVALID)

        async def look_up() -> Tuple[int, int]:
            low = (await self._engine.beginning_offsets([etp]))[etp]
            return low, (await self._engine.end_offsets([etp]))[etp]

        return await self._call(look_up, timeout, "Failed to get watermark offsets: ")

    async def offsets_for_times(self, partitions: Any, timeout: Optional[float] = None) -> List[TopicPartition]:
        """For each partition (its ``offset`` holding a timestamp in ms), the first offset at or after it."""
        self._check()
        parts = partitions_list(partitions)

        async def look_up() -> Any:
            return await self._engine.offsets_for_times({_etp(tp): tp.offset for tp in parts})

        found = await self._call(look_up, timeout, "Failed to get offsets: ")
        out = []
        for tp in parts:
            answer = found.get(_etp(tp))
            out.append(TopicPartition(tp.topic, tp.partition, answer.offset if answer is not None else OFFSET_END))
        return out

    async def _call(self, look_up: Any, timeout: Optional[float], prefix: str) -> Any:
        """Run ``look_up`` on the started engine within ``timeout``; errors as librdkafka words them."""
        limit = _seconds(timeout)
        start = time.monotonic()
        unreachable = KafkaError._ALL_BROKERS_DOWN  # type: ignore[attr-defined]
        if not await self._starting.wait(limit):
            raise KafkaException(KafkaError(unreachable, prefix + KafkaError(unreachable).str()))
        left = None if limit is None else max(limit - (time.monotonic() - start), 0.0)
        try:
            return await asyncio.wait_for(look_up(), left)
        except asyncio.TimeoutError as exc:
            timed_out = KafkaError._TIMED_OUT  # type: ignore[attr-defined]
            raise KafkaException(KafkaError(timed_out, prefix + KafkaError(timed_out).str())) from exc
        except engine_errors.KafkaError as exc:
            raise KafkaException(call_error(exc, prefix, unreachable)) from exc

    # -- commits --------------------------------------------------------------------------------

    async def commit(self, message: Optional[Message] = None, offsets: Any = None,
                     asynchronous: bool = True) -> Optional[List[TopicPartition]]:
        """Commit the offset after ``message``, or ``offsets``, or the stored offsets (see :meth:`store_offsets`;
        with ``enable.auto.offset.store``, the default, the offset after each record handed out).

        Waits for the coordinator's answer either way; returns the committed
        partitions when ``asynchronous`` is False, None otherwise (as
        confluent-kafka does).
        """
        self._check()
        if message is not None and offsets is not None:
            raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                            "message and offsets are mutually exclusive"))
        if message is not None:
            if not isinstance(message, Message):
                raise TypeError("message must be a Message")
            topic, partition = message.topic(), message.partition()
            if topic is None or partition is None:
                raise KafkaException(KafkaError(KafkaError._INVALID_ARG))  # type: ignore[attr-defined]
            wanted = {EngineTP(topic, partition): (message.offset() or 0) + 1}
        elif offsets is not None:
            wanted = {_etp(tp): tp.offset for tp in partitions_list(offsets, "offsets")}
        else:
            wanted = {etp: offset for etp, offset in self._stored.items() if etp in self._assigned}
        if not wanted:
            raise KafkaException(KafkaError(KafkaError._NO_OFFSET))  # type: ignore[attr-defined]

        async def send() -> None:
            await self._engine.commit({etp: OffsetAndMetadata(offset, "") for etp, offset in wanted.items()})

        await self._call(send, None, "Commit failed: ")
        if asynchronous:
            return None
        return [TopicPartition(etp.topic, etp.partition, offset) for etp, offset in wanted.items()]

    async def committed(self, partitions: Any, timeout: Optional[float] = None) -> List[TopicPartition]:
        """The group's committed offset of each partition (``OFFSET_INVALID`` where there is none)."""
        self._check()
        parts = partitions_list(partitions)

        async def look_up() -> List[TopicPartition]:
            out = []
            for tp in parts:
                offset = await self._engine.committed(_etp(tp))
                out.append(TopicPartition(tp.topic, tp.partition, offset if offset is not None else OFFSET_INVALID))
            return out

        return await self._call(look_up, timeout, "Failed to get committed offsets: ")

    # -- life cycle and the rest ----------------------------------------------------------------

    async def cluster_id(self, timeout: Optional[float] = None) -> Optional[str]:
        """The cluster id the brokers reported (None when no broker answered within ``timeout``)."""
        self._check()
        if not await self._starting.wait(_seconds(timeout)):
            return None
        return self._engine.client.cluster.cluster_id

    async def close(self) -> None:
        """Commit (with ``enable.auto.commit``), stop fetching and close the connections."""
        self._check()
        self._closed = True
        await self._starting.stop()
        await self._engine.stop()

    async def store_offsets(self, message: Optional[Message] = None, offsets: Any = None) -> None:
        """Keep the offset after ``message`` (or ``offsets``) for the next :meth:`commit` without arguments."""
        self._check()
        if (message is None) == (offsets is None):
            raise ValueError("exactly one of message and offsets must be given")
        if message is not None:
            if not isinstance(message, Message):
                raise TypeError("message must be a Message")
            topic, partition, offset = message.topic(), message.partition(), message.offset()
            if topic is not None and partition is not None and offset is not None:
                self._stored[EngineTP(topic, partition)] = offset + 1
            return
        for tp in partitions_list(offsets, "offsets"):
            self._stored[_etp(tp)] = tp.offset

    async def consumer_group_metadata(self, *args: Any, **kwargs: Any) -> Any:
        self._check()
        raise not_implemented("consumer_group_metadata()")

    async def list_topics(self, *args: Any, **kwargs: Any) -> Any:
        self._check()
        raise not_implemented("AIOConsumer.list_topics()")

    async def set_sasl_credentials(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        raise not_implemented("set_sasl_credentials()")
