"""``Producer`` and ``TransactionalProducer``: quixstreams' wrappers of confluent-kafka's Producer.

The confluent-kafka client underneath (here :class:`kafka.confluent.Producer`)
is created the first time it is needed, so constructing a wrapper makes no
network call.
"""

from __future__ import annotations

import kafka.confluent.kafka_error

import logging
import threading
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from kafka.confluent import Message
from kafka.confluent import Producer as ConfluentProducer
from kafka.confluent import TopicPartition
from kafka.quix._defaults import _default_error_cb, logger
from kafka.quix.configuration import ConnectionConfig, connection_properties

Headers = Union[List[Tuple[str, Any]], Dict[str, Any]]
DeliveryCallback = Callable[[Optional[kafka.confluent.kafka_error.KafkaError], Message], None]


class Producer:
    """A lazily created confluent-kafka Producer with quixstreams' defaults and conveniences.

    ``broker_address`` is ``"host:port"`` or a :class:`~kafka.quix.ConnectionConfig`;
    ``extra_config`` holds further librdkafka properties, which the
    arguments override. ``flush_timeout`` (s) is what :meth:`flush` waits by
    default (forever when None).
    """

    def __init__(self, broker_address: Union[str, ConnectionConfig], logger: logging.Logger = logger,
                 error_callback: Callable[[kafka.confluent.kafka_error.KafkaError], None] = _default_error_cb,
                 extra_config: Optional[dict] = None, flush_timeout: Optional[float] = None,
                 transactional: bool = False) -> None:
        config: Dict[str, Any] = {"partitioner": "murmur2"}  # Java clients' key partitioning
        config.update(extra_config or {})
        config.update(connection_properties(broker_address))
        config["logger"] = logger
        config["error_cb"] = error_callback
        self._producer_config = config
        self._flush_timeout = flush_timeout
        self._transactional = transactional
        self._inner_producer: Optional[ConfluentProducer] = None
        self._lock = threading.Lock()

    @property
    def _producer(self) -> ConfluentProducer:
        with self._lock:
            if self._inner_producer is None:
                config = dict(self._producer_config)
                log = config.pop("logger")
                producer = ConfluentProducer(config, logger=log)
                if self._transactional:
                    producer.init_transactions()
                self._inner_producer = producer
            return self._inner_producer

    def produce(self, topic: str, value: Optional[Union[str, bytes]] = None,
                key: Optional[Union[str, bytes]] = None, headers: Optional[Headers] = None,
                partition: Optional[int] = None, timestamp: Optional[int] = None, poll_timeout: float = 5.0,
                buffer_error_max_tries: int = 3, on_delivery: Optional[DeliveryCallback] = None) -> None:
        """Queue a message for ``topic``.

        Serves pending callbacks first (``poll(0)``) so the queue has room;
        when the queue is still full (``BufferError``) polls up to
        ``poll_timeout`` seconds and tries again, at most
        ``buffer_error_max_tries`` times (0: raise at once).
        """
        optional = {"partition": partition, "timestamp": timestamp, "headers": headers,
                    "on_delivery": on_delivery}
        kwargs: Dict[str, Any] = {k: v for k, v in optional.items() if v is not None}  # confluent-kafka rejects None here
        producer = self._producer
        producer.poll(0)
        while True:
            try:
                producer.produce(topic, value, key, **kwargs)
                return
            except BufferError:
                if buffer_error_max_tries < 1:
                    raise
                buffer_error_max_tries -= 1
                producer.poll(poll_timeout)

    def poll(self, timeout: float = 0) -> int:
        """Serve delivery callbacks, waiting up to ``timeout`` seconds (default 0; -1 waits for one)."""
        return self._producer.poll(timeout)

    def flush(self, timeout: Optional[float] = None) -> int:
        """Wait for queued messages to be delivered; return how many remain.

        ``timeout`` None uses the producer's ``flush_timeout`` (no limit when unset).
        """
        if timeout is None:
            timeout = self._flush_timeout if self._flush_timeout is not None else -1
        return self._producer.flush(timeout)

    def __len__(self) -> int:
        """Messages and callbacks still queued."""
        return len(self._producer)

    def __enter__(self) -> "Producer":
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        logger.debug("Flushing kafka producer")
        self.flush()


class TransactionalProducer(Producer):
    """A :class:`Producer` with ``transactional.id`` set (random unless given in ``extra_config``).

    ``init_transactions`` runs when the client is created; then use
    :meth:`begin_transaction`, :meth:`send_offsets_to_transaction`,
    :meth:`commit_transaction` and :meth:`abort_transaction`.
    """

    def __init__(self, broker_address: Union[str, ConnectionConfig], logger: logging.Logger = logger,
                 error_callback: Callable[[kafka.confluent.kafka_error.KafkaError], None] = _default_error_cb,
                 extra_config: Optional[dict] = None, flush_timeout: Optional[float] = None,
                 transaction_timeout_ms: int = 70000) -> None:
        extra = dict(extra_config or {})
        extra.setdefault("transactional.id", str(uuid.uuid4()))
        extra.setdefault("transaction.timeout.ms", transaction_timeout_ms)
        extra["enable.idempotence"] = True
        super().__init__(broker_address, logger=logger, error_callback=error_callback, extra_config=extra,
                         flush_timeout=flush_timeout, transactional=True)
        self._active_transaction = False

    @property
    def active_transaction(self) -> bool:
        """True between :meth:`begin_transaction` and its commit or abort."""
        return self._active_transaction

    def begin_transaction(self) -> None:
        """Start a transaction."""
        self._producer.begin_transaction()
        self._active_transaction = True

    def send_offsets_to_transaction(self, positions: List[TopicPartition], group_metadata: Any,
                                    timeout: Optional[float] = None) -> None:
        """Commit a consumer's ``positions`` as part of the transaction."""
        self._producer.send_offsets_to_transaction(positions, group_metadata, -1 if timeout is None else timeout)

    def commit_transaction(self, timeout: Optional[float] = None) -> None:
        """Commit the transaction (flushes first)."""
        self._producer.commit_transaction(-1 if timeout is None else timeout)
        self._active_transaction = False

    def abort_transaction(self, timeout: Optional[float] = None) -> None:
        """Abort the transaction: its messages are never visible to read_committed consumers."""
        self._producer.abort_transaction(-1 if timeout is None else timeout)
        self._active_transaction = False
