"""``AIOKafkaProducer``: aiokafka's producer API on kafkawire's asyncio layer.

What a program written for aiokafka 0.14 does with its producer works here:
the constructor's keywords, ``await start()`` / ``await stop()`` (or
``async with``), ``await send(...)`` returning the future of the record's
:class:`~kafka.aio.structs.RecordMetadata`, ``send_and_wait``, ``flush``,
``partitions_for``. ``send()`` waits only until the record is in its
partition's batch (and for metadata of a topic it has not seen); the
returned future resolves once the broker answered for the batch.

Not yet: idempotence and transactions (``enable_idempotence=True``,
``transactional_id``), ``create_batch`` / ``send_batch``, Kerberos.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from time import time as _now
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from kafka.aio.accumulator import Accumulator
from kafka.aio.client import client_for
from kafka.aio.errors import IllegalOperation, ProducerClosed
from kafka.aio.partitioner import DefaultPartitioner, TopicLayout
from kafka.aio.sender import Sender
from kafka.aio.structs import RecordMetadata
from kafka.errors import KafkaConfigurationError, MessageSizeTooLargeError
from kafka.record import codecs
from kafka.record.batch import HEADER_SIZE, estimate_record_size
from kafka.structs import TopicPartition

log = logging.getLogger(__name__)

_ACKS = {0: 0, 1: 1, -1: -1, "all": -1}
_CODECS = {None: codecs.NONE, "gzip": codecs.GZIP, "snappy": codecs.SNAPPY, "lz4": codecs.LZ4,
           "zstd": codecs.ZSTD}
_BYTES = (bytes, bytearray, memoryview)


class AIOKafkaProducer:
    """An asyncio Kafka producer with aiokafka's API.

    Keywords as aiokafka 0.14's (defaults included): ``bootstrap_servers``,
    ``client_id``, ``metadata_max_age_ms``, ``request_timeout_ms``,
    ``acks`` (0, 1, -1 or ``"all"``; default 1), ``key_serializer``,
    ``value_serializer``, ``compression_type`` (``"gzip"``, ``"snappy"``,
    ``"lz4"``, ``"zstd"``, None), ``max_batch_size``, ``partitioner``
    (called as ``partitioner(key_bytes, all_partitions, available)``),
    ``max_request_size``, ``linger_ms``, ``retry_backoff_ms``,
    ``security_protocol`` (``PLAINTEXT``, ``SSL``, ``SASL_PLAINTEXT``,
    ``SASL_SSL``), ``ssl_context``, ``connections_max_idle_ms`` (accepted,
    not used yet), ``enable_idempotence`` (only False for now),
    ``sasl_mechanism`` (``PLAIN``, ``SCRAM-SHA-256``, ``SCRAM-SHA-512``,
    ``OAUTHBEARER``), ``sasl_plain_username``, ``sasl_plain_password``,
    ``sasl_oauth_token_provider``. ``loop`` and ``api_version`` are accepted
    and ignored, as aiokafka does.

    Records of ``send()`` wait in their partition's batch up to
    ``linger_ms`` (or until the batch holds ``max_batch_size`` bytes); a
    retriable error sends the batch again until ``request_timeout_ms`` has
    passed since its first record came.
    """

    def __init__(self, *, loop: Any = None, bootstrap_servers: Any = "localhost", client_id: Optional[str] = None,
                 metadata_max_age_ms: int = 300000, request_timeout_ms: int = 40000, api_version: Any = None,
                 acks: Any = None, key_serializer: Optional[Callable[[Any], Any]] = None,
                 value_serializer: Optional[Callable[[Any], Any]] = None, compression_type: Optional[str] = None,
                 max_batch_size: int = 16384, partitioner: Callable[..., int] = DefaultPartitioner(),
                 max_request_size: int = 1048576, linger_ms: float = 0, retry_backoff_ms: int = 100,
                 security_protocol: str = "PLAINTEXT", ssl_context: Optional[ssl.SSLContext] = None,
                 connections_max_idle_ms: int = 540000, enable_idempotence: bool = False,
                 transactional_id: Optional[str] = None, transaction_timeout_ms: int = 60000,
                 sasl_mechanism: str = "PLAIN", sasl_plain_password: Optional[str] = None,
                 sasl_plain_username: Optional[str] = None, sasl_kerberos_service_name: str = "kafka",
                 sasl_kerberos_domain_name: Optional[str] = None, sasl_oauth_token_provider: Any = None) -> None:
        if acks is None:
            acks = 1
        if acks not in _ACKS:
            raise ValueError("Invalid ACKS parameter")
        if compression_type not in _CODECS:
            raise ValueError("Invalid compression type!")
        codec = _CODECS[compression_type]
        if not codecs.is_available(codec):
            raise RuntimeError("Compression library for %s not found" % compression_type)
        if enable_idempotence or transactional_id is not None:
            raise KafkaConfigurationError(
                "kafka.aio.AIOKafkaProducer does not support enable_idempotence or transactional_id yet; "
                "use kafka.KafkaProducer for idempotent or transactional producing")
        self.client = client_for('producer', bootstrap_servers, client_id, request_timeout_ms=request_timeout_ms,
                                 metadata_max_age_ms=metadata_max_age_ms, retry_backoff_ms=retry_backoff_ms,
                                 security_protocol=security_protocol, ssl_context=ssl_context,
                                 sasl_mechanism=sasl_mechanism, sasl_plain_username=sasl_plain_username,
                                 sasl_plain_password=sasl_plain_password,
                                 sasl_oauth_token_provider=sasl_oauth_token_provider)
        self.client_id = self.client.client_id
        self._acks = _ACKS[acks]
        self._codec = codec
        self._key_serializer = key_serializer
        self._value_serializer = value_serializer
        self._partitioner = partitioner
        self._max_request_size = max_request_size
        #: The largest record (estimated) whose batch alone fits in ``max_request_size``.
        self._max_record_size = max_request_size - HEADER_SIZE
        self._max_batch_size = max_batch_size
        self._linger_ms = linger_ms
        self._request_timeout_ms = request_timeout_ms
        self._retry_backoff_ms = retry_backoff_ms
        self._accumulator: Optional[Accumulator] = None
        self._layouts: Dict[str, TopicLayout] = {}
        self._last_stamp = -1  # the latest timestamp send() made
        self._sender: Optional[Sender] = None
        self._closed = False

    def __repr__(self) -> str:
        return "<kafka.aio.AIOKafkaProducer client_id=%r %s>" % (
            self.client_id, "stopped" if self._closed else "started" if self._sender is not None else "new")

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to the cluster (learning its brokers) and start the sender task.

        Raises :class:`~kafka.errors.KafkaConnectionError` when no bootstrap
        server answers.
        """
        if self._sender is not None:
            return
        if self._closed:
            raise IllegalOperation("the producer was stopped; make a new one")
        await self.client.bootstrap()
        self._accumulator = Accumulator(self._max_batch_size, self._codec, self._linger_ms,
                                        self._request_timeout_ms)
        self._sender = Sender(self.client, self._accumulator, acks=self._acks,
                              request_timeout_ms=self._request_timeout_ms, retry_backoff_ms=self._retry_backoff_ms)
        self._sender.start()
        log.debug("%r started", self)

    async def flush(self) -> None:
        """Send every record now and wait until each one's future is resolved."""
        if self._accumulator is not None:
            await self._accumulator.flush()

    async def stop(self) -> None:
        """Send what is queued, wait for the answers, then close every connection."""
        if self._closed:
            return
        self._closed = True
        if self._accumulator is not None and self._sender is not None:
            self._accumulator.close(ProducerClosed("the producer is stopping"))
            try:
                await self._accumulator.flush()
            finally:
                await self._sender.stop()
                self._accumulator.fail_all(ProducerClosed("the producer stopped before the record was sent"))
        await self.client.close()
        log.debug("%r stopped", self)

    async def __aenter__(self) -> "AIOKafkaProducer":
        await self.start()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # -- sending ------------------------------------------------------------------------------

    async def partitions_for(self, topic: str) -> Set[int]:
        """The partition numbers of ``topic`` (metadata is fetched when unknown)."""
        return await self.client.wait_for_topic(topic, self._request_timeout_ms / 1000.0)

    async def send(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                   timestamp_ms: Optional[int] = None,
                   headers: Optional[Iterable[Tuple[str, bytes]]] = None) -> "asyncio.Future[RecordMetadata]":
        """Queue a record; the future of its :class:`RecordMetadata` (resolved once the broker answered).

        Waits for the topic's metadata the first time, and while the
        partition's batches are not sent fast enough (at most
        ``request_timeout_ms``). Cancelling the returned future does not
        stop the record from being sent; cancelling ``send()`` itself before
        it returns does.

        Most calls return without awaiting anything: the record goes into
        its partition's open batch (:meth:`Accumulator.append_now
        <kafka.aio.accumulator.Accumulator.append_now>`).
        """
        if value is None and key is None:
            raise AssertionError("Need at least one: key or value")
        accumulator = self._accumulator
        if accumulator is None or self._closed:
            raise ProducerClosed("the producer is not started" if not self._closed else "the producer is stopped")
        layout = self._layouts.get(topic)
        if layout is None or layout.version != self.client.cluster.version:
            layout = await self._layout(topic)
        if self._key_serializer is not None:
            key = self._key_serializer(key)
        if self._value_serializer is not None:
            value = self._value_serializer(value)
        header_list = _header_list(headers) if headers is not None else None
        if not (value is None or type(value) is bytes) or not (key is None or type(key) is bytes):
            _check_record(key, value)
            key, value = _as_bytes(key), _as_bytes(value)
        size = estimate_record_size(key, value, header_list)
        if size > self._max_record_size:
            raise MessageSizeTooLargeError(
                "The message is %d bytes when serialized which is larger than the maximum request size you have "
                "configured with the max_request_size configuration" % (size + HEADER_SIZE))
        if partition is None:
            partition = layout.only
            if partition is None:
                partition = self._partitioner(key, layout.partitions, layout.available)
            tp = layout.by_number.get(partition)
            if tp is None:  # a custom partitioner's choice outside the topic: the broker will say
                tp = TopicPartition(topic, partition)
        else:
            tp = layout.by_number.get(partition)
            if tp is None:
                raise AssertionError("Unrecognized partition")
        if timestamp_ms is None:
            timestamp_ms = int(_now() * 1000)
            if timestamp_ms == self._last_stamp:
                # One int object per millisecond, not per record: the records and their metadata share it.
                timestamp_ms = self._last_stamp
            else:
                self._last_stamp = timestamp_ms
        future = accumulator.append_now(tp, timestamp_ms, key, value, header_list, size)
        if future is None:
            future = await accumulator.append(tp, timestamp_ms, key, value, header_list, size,
                                              self._request_timeout_ms / 1000.0)
        return future

    async def _layout(self, topic: str) -> TopicLayout:
        """``topic``'s :class:`TopicLayout`, kept until the metadata changes (so ``send()`` does not sort
        partitions per record); waits for the topic's metadata when it is unknown."""
        cluster = self.client.cluster
        version = cluster.version
        partitions = cluster.partitions_for_topic(topic)
        if not partitions:
            partitions = await self.client.wait_for_topic(topic, self._request_timeout_ms / 1000.0)
            version = cluster.version
        available = cluster.available_partitions_for_topic(topic) or ()
        layout = TopicLayout(topic, version, sorted(partitions), sorted(available),
                             fixed=type(self._partitioner) is DefaultPartitioner)
        self._layouts[topic] = layout
        return layout

    async def send_and_wait(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                            timestamp_ms: Optional[int] = None,
                            headers: Optional[Iterable[Tuple[str, bytes]]] = None) -> RecordMetadata:
        """:meth:`send`, then wait for the record's :class:`RecordMetadata`."""
        future = await self.send(topic, value, key, partition, timestamp_ms, headers)
        return await future


def _check_record(key: Any, value: Any) -> None:
    """Refuse a key or value that cannot go into a record (after the serializers ran)."""
    if key is not None and not isinstance(key, _BYTES):
        raise TypeError("Not supported type for key: %s" % type(key))
    if value is not None and not isinstance(value, _BYTES):
        raise TypeError("Not supported type for value: %s" % type(value))


def _header_list(headers: Iterable[Any]) -> Optional[List[Tuple[str, Optional[bytes]]]]:
    """``headers`` as a list of ``(str, bytes | None)`` tuples (pairs given as lists too, as aiokafka takes
    them), None for none; :class:`TypeError` for anything else."""
    if not headers:
        return None
    pairs = [tuple(h) if type(h) is list else h for h in headers]
    for header in pairs:
        if (type(header) is not tuple or len(header) != 2 or type(header[0]) is not str
                or not (header[1] is None or isinstance(header[1], _BYTES))):
            if not (isinstance(header, tuple) and len(header) == 2 and isinstance(header[0], str)
                    and (header[1] is None or isinstance(header[1], _BYTES))):
                raise TypeError("Headers must be (str, bytes) pairs, not %r" % (header,))
    return pairs


def _as_bytes(data: Any) -> Optional[bytes]:
    return data if data is None or type(data) is bytes else bytes(data)


__all__ = ["AIOKafkaProducer"]
