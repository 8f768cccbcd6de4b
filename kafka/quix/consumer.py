"""``Consumer``: quixstreams' wrapper of confluent-kafka's Consumer.

The confluent-kafka client underneath (here :class:`kafka.confluent.Consumer`)
is created the first time a method needs it, so constructing a wrapper
makes no network call.
"""

from __future__ import annotations

import kafka.confluent.kafka_error

import functools
import logging
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from kafka.confluent import Consumer as ConfluentConsumer
from kafka.confluent import Message, TopicPartition
from kafka.confluent.admin import ClusterMetadata
from kafka.quix._defaults import _default_error_cb, logger
from kafka.quix.configuration import ConnectionConfig, connection_properties

try:  # Python 3.8+: Literal is in typing
    from typing import Literal
    AutoOffsetReset = Literal["earliest", "latest", "error"]
except ImportError:  # pragma: no cover
    AutoOffsetReset = str  # type: ignore[misc]

RebalancingCallback = Callable[[ConfluentConsumer, List[TopicPartition]], None]
OnCommit = Callable[[Optional[kafka.confluent.kafka_error.KafkaError], List[TopicPartition]], None]


def _timeout(value: Optional[float]) -> float:
    return -1 if value is None else value


class Consumer:
    """A lazily created confluent-kafka Consumer with quixstreams' defaults.

    ``broker_address`` is ``"host:port"`` or a :class:`~kafka.quix.ConnectionConfig`;
    ``consumer_group`` becomes ``group.id``, ``auto_offset_reset``
    ``auto.offset.reset``, ``auto_commit_enable`` ``enable.auto.commit`` and
    ``on_commit`` the offset commit callback. ``extra_config`` holds further
    librdkafka properties, which the arguments override. As in quixstreams,
    ``enable.auto.offset.store`` defaults to False (store offsets with
    :meth:`store_offsets`) and ``partition.assignment.strategy`` to ``range``.
    """

    def __init__(self, broker_address: Union[str, ConnectionConfig], consumer_group: Optional[str],
                 auto_offset_reset: AutoOffsetReset, auto_commit_enable: bool = True,
                 logger: logging.Logger = logger,
                 error_callback: Callable[[kafka.confluent.kafka_error.KafkaError], None] = _default_error_cb,
                 on_commit: Optional[OnCommit] = None, extra_config: Optional[dict] = None) -> None:
        config: Dict[str, Any] = {"enable.auto.offset.store": False, "partition.assignment.strategy": "range"}
        config.update(extra_config or {})
        config.update(connection_properties(broker_address))
        if consumer_group is not None:
            config["group.id"] = consumer_group
        config["enable.auto.commit"] = auto_commit_enable
        config["auto.offset.reset"] = auto_offset_reset
        config["error_cb"] = error_callback
        if on_commit is not None:
            config["on_commit"] = on_commit
        self._consumer_config = config
        self._logger = logger
        self._inner_consumer: Optional[ConfluentConsumer] = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def consumer_group(self) -> Optional[str]:
        """The ``group.id`` this consumer uses."""
        return self._consumer_config.get("group.id")

    @property
    def _consumer(self) -> ConfluentConsumer:
        with self._lock:
            if self._inner_consumer is None:
                if self._closed:
                    raise RuntimeError("Consumer closed")
                self._inner_consumer = ConfluentConsumer(dict(self._consumer_config), logger=self._logger)
            return self._inner_consumer

    def _wrap(self, callback: Optional[RebalancingCallback]) -> Optional[RebalancingCallback]:
        # Logged here, raised from poll() by the client, which keeps the records it had fetched.
        if callback is None:
            return None

        @functools.wraps(callback)
        def wrapper(consumer: ConfluentConsumer, partitions: List[TopicPartition]) -> None:
            try:
                callback(consumer, partitions)
            except Exception as exc:
                self._logger.error("Error in rebalance callback %r: %s", callback, exc)
                raise

        return wrapper

    def poll(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message, error or event, waiting up to ``timeout`` seconds (None: no limit).

        A rebalance callback (``on_assign``, ``on_revoke``, ``on_lost``) may
        run here; an exception it raised is raised from here.
        """
        return self._consumer.poll(_timeout(timeout))

    def subscribe(self, topics: List[str], on_assign: Optional[RebalancingCallback] = None,
                  on_revoke: Optional[RebalancingCallback] = None,
                  on_lost: Optional[RebalancingCallback] = None) -> None:
        """Subscribe to ``topics`` (replacing the previous subscription), with optional rebalance callbacks."""
        kwargs = {k: v for k, v in (("on_assign", self._wrap(on_assign)), ("on_revoke", self._wrap(on_revoke)),
                                    ("on_lost", self._wrap(on_lost))) if v is not None}
        self._consumer.subscribe(topics, **kwargs)

    def unsubscribe(self) -> None:
        """Drop the subscription."""
        self._consumer.unsubscribe()

    def store_offsets(self, message: Optional[Message] = None,
                      offsets: Optional[List[TopicPartition]] = None) -> None:
        """Store ``message``'s offset + 1, or ``offsets``, for the next commit (not both)."""
        if message is not None and offsets is not None:
            raise ValueError('Parameters "message" and "offsets" are mutually exclusive')
        if message is None and offsets is None:
            raise ValueError('One of "message" or "offsets" must be passed')
        if message is not None:
            self._consumer.store_offsets(message=message)
        else:
            self._consumer.store_offsets(offsets=offsets)

    def commit(self, message: Optional[Message] = None, offsets: Optional[List[TopicPartition]] = None,
               asynchronous: bool = True) -> Optional[List[TopicPartition]]:
        """Commit ``message``'s offset + 1, or ``offsets``, or else the stored offsets.

        Synchronous commits return the committed partitions (check each
        ``error``); asynchronous ones return None.
        """
        if message is not None and offsets is not None:
            raise ValueError('Parameters "message" and "offsets" are mutually exclusive')
        kwargs: dict = {"asynchronous": asynchronous}
        if message is not None:
            kwargs["message"] = message
        if offsets is not None:
            kwargs["offsets"] = offsets
        return self._consumer.commit(**kwargs)

    def committed(self, partitions: List[TopicPartition], timeout: Optional[float] = None) -> List[TopicPartition]:
        """The group's committed offsets of ``partitions``."""
        return self._consumer.committed(partitions, timeout=_timeout(timeout))

    def get_watermark_offsets(self, partition: TopicPartition, timeout: Optional[float] = None,
                              cached: bool = False) -> Tuple[int, int]:
        """``(low, high)`` offsets of ``partition`` (from cached values when ``cached``)."""
        return self._consumer.get_watermark_offsets(  # type: ignore[return-value]  # None only on timeout
            partition, timeout=_timeout(timeout), cached=cached)

    def list_topics(self, topic: Optional[str] = None, timeout: Optional[float] = None) -> ClusterMetadata:
        """Cluster metadata, of ``topic`` only or of every topic."""
        return self._consumer.list_topics(topic=topic, timeout=_timeout(timeout))

    def memberid(self) -> Optional[str]:
        """The member id the group coordinator gave this consumer, or None."""
        return self._consumer.memberid()

    def offsets_for_times(self, partitions: List[TopicPartition],
                          timeout: Optional[float] = None) -> List[TopicPartition]:
        """For each partition, the first offset whose timestamp is >= the one in ``offset`` (-1 past the end)."""
        return self._consumer.offsets_for_times(partitions, timeout=_timeout(timeout))

    def pause(self, partitions: List[TopicPartition]) -> None:
        """Stop fetching ``partitions`` (they stay assigned)."""
        self._consumer.pause(partitions)

    def resume(self, partitions: List[TopicPartition]) -> None:
        """Fetch paused ``partitions`` again."""
        self._consumer.resume(partitions)

    def position(self, partitions: List[TopicPartition]) -> List[TopicPartition]:
        """The next offset to be consumed of each partition."""
        return self._consumer.position(partitions)

    def seek(self, partition: TopicPartition) -> None:
        """Move an assigned partition's position to its ``offset`` (absolute or logical)."""
        self._consumer.seek(partition)

    def assignment(self) -> List[TopicPartition]:
        """The partitions currently assigned."""
        return self._consumer.assignment()

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Use these SASL PLAIN/SCRAM credentials for connections made from now on."""
        self._consumer_config["sasl.username"] = username
        self._consumer_config["sasl.password"] = password
        inner = self._inner_consumer
        if inner is None:
            return
        inner.set_sasl_credentials(username, password)

    def incremental_assign(self, partitions: List[TopicPartition]) -> None:
        """Add ``partitions`` to the assignment (outside the group's own assignment)."""
        self._consumer.incremental_assign(partitions)

    def incremental_unassign(self, partitions: List[TopicPartition]) -> None:
        """Remove ``partitions`` from the assignment."""
        self._consumer.incremental_unassign(partitions)

    def close(self) -> None:
        """Commit (with auto-commit), leave the group and release the client (no client is created for it).

        Afterwards the methods that need the client raise ``RuntimeError``,
        as the closed confluent-kafka Consumer does.
        """
        with self._lock:
            inner = self._inner_consumer
            self._closed = True
        if inner is not None:
            self._logger.debug("Closing Kafka consumer")
            inner.close()

    def consumer_group_metadata(self) -> Any:
        """The group metadata a transactional producer needs for ``send_offsets_to_transaction``."""
        return self._consumer.consumer_group_metadata()

    def __enter__(self) -> "Consumer":
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()
