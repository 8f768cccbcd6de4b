"""The base of the kafka-python 0.9.x producers.

:class:`Producer` holds what :class:`~kafka.SimpleProducer` and
:class:`~kafka.KeyedProducer` share: validating messages, turning them into
a :class:`~kafka.simple.common.ProduceRequest` (one message set per partition, built
with :func:`~kafka.protocol.create_message_set` and the producer's codec),
and sending it with :meth:`kafka.KafkaClient.send_produce_request`, which
routes it to the partition's leader at the Produce version negotiated with
that broker and retries moved or unavailable leaders.

Two modes
---------

*Synchronous* (the default): :meth:`Producer.send_messages` sends at once
and returns the list of :class:`~kafka.simple.common.ProduceResponse` (the
``offset`` of each is that of the first message written). Failures are
raised, or with ``sync_fail_on_error=False`` returned in the list (a response
with a non-zero ``error``, or a :class:`~kafka.simple.common.FailedPayloadsError`
for a request that got no answer).

*Asynchronous* (``async_send=True``; the 0.9.x keyword ``async`` is
accepted too): ``send_messages`` puts the messages on a queue and returns
``[]``. A background thread, using its own :meth:`~kafka.KafkaClient.copy`
of the client, takes them off in batches -- a batch is sent when it holds
``batch_send_every_n`` messages or when its first message has waited
``batch_send_every_t`` seconds -- one request per call covering every
partition of the batch. Failed requests that may succeed later are retried
after ``async_retry_backoff_ms`` (up to ``async_retry_limit`` times, or
forever when ``None``); new messages wait while a retry is pending, so each
partition keeps its order. What still fails is logged and dropped (with its
messages, or only their ``hash()`` when ``async_log_messages_on_error`` is
false). :meth:`Producer.stop` sends what is queued, giving up after
``async_stop_timeout`` seconds; it is also called at interpreter exit.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
import weakref
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from kafka import errors
from kafka.config_checks import check_number
from kafka.simple.common import (
    RETRY_ERROR_TYPES,
    FailedPayloadsError,
    ProduceRequest,
    ProduceResponse,
    RetryOptions,
    TopicAndPartition,
)
from kafka.simple.protocol import ALL_CODECS, CODEC_NONE, _text, create_message_set
from kafka.record import codecs as _codecs
from kafka.topic_names import check_partition_number, check_topic_name

log = logging.getLogger(__name__)

#: ``req_acks``: the broker answers without waiting for the write (no response is read).
ACK_NOT_REQUIRED = 0
#: ``req_acks``: the broker answers once the leader has written the messages.
ACK_AFTER_LOCAL_WRITE = 1
#: ``req_acks``: the broker answers once every in-sync replica has them.
ACK_AFTER_CLUSTER_COMMIT = -1

#: Default ``ack_timeout`` (ms).
DEFAULT_ACK_TIMEOUT = 1000
#: Default ``batch_send_every_n``.
BATCH_SEND_MSG_COUNT = 20
#: Default ``batch_send_every_t`` (seconds).
BATCH_SEND_DEFAULT_INTERVAL = 20
#: Default ``async_queue_maxsize`` (0: no limit).
ASYNC_QUEUE_MAXSIZE = 0
#: Default ``async_queue_put_timeout`` (seconds; 0: fail at once on a full queue).
ASYNC_QUEUE_PUT_TIMEOUT = 0
#: Default ``async_retry_limit`` (``None``: no limit).
ASYNC_RETRY_LIMIT = None
#: Default ``async_retry_backoff_ms``.
ASYNC_RETRY_BACKOFF_MS = 100
#: Default ``async_retry_on_timeouts``.
ASYNC_RETRY_ON_TIMEOUTS = True
#: Default ``async_log_messages_on_error``.
ASYNC_LOG_MESSAGES_ON_ERROR = True
#: Default ``async_stop_timeout`` (seconds).
ASYNC_STOP_TIMEOUT_SECS = 30

#: Put on the queue by :meth:`Producer.stop` to wake the background thread
#: (the value 0.9.x used; the thread only compares identity with this object).
STOP_ASYNC_PRODUCER = -1
_STOP = (STOP_ASYNC_PRODUCER, None, None)

_TIMEOUT_ERRORS = (errors.RequestTimedOutError, errors.KafkaTimeoutError)

_PartitionKey = Tuple[str, int]


class _Pending(NamedTuple):
    """A request of the background thread: how often it was retried, how many messages it holds."""

    request: ProduceRequest
    tries: int
    count: int  # type: ignore[assignment]  # a field, shadowing tuple.count on purpose


def _check_messages(topic: Any, msgs: Sequence[Any], key: Any) -> None:
    """Raise :class:`TypeError` unless topic, key and payloads are what the protocol carries.

    A topic name Kafka does not accept raises :class:`~kafka.errors.IllegalArgumentError`.
    """
    if not isinstance(topic, (str, bytes)):
        raise TypeError("the topic must be str or bytes, not %s" % type(topic).__name__)
    # A name no broker accepts would be retried until stop() gives up.
    check_topic_name(_text(topic))
    if key is not None and not isinstance(key, bytes):
        raise TypeError("the key must be bytes or None, not %s (encode it first, e.g. key.encode('utf-8'))"
                        % type(key).__name__)
    for msg in msgs:
        if msg is None:
            if key is None:
                raise TypeError("a message payload and its key cannot both be None")
        elif not isinstance(msg, bytes):
            raise TypeError("message payloads must be bytes or None, not %s "
                            "(encode text first, e.g. text.encode('utf-8'))" % type(msg).__name__)


def _is_timeout(error: Optional[BaseException], error_cls: Optional[type] = None) -> bool:
    if error_cls is not None and issubclass(error_cls, _TIMEOUT_ERRORS):
        return True
    while error is not None:
        if isinstance(error, _TIMEOUT_ERRORS):
            return True
        error = error.__cause__
    return False


class _Sender(threading.Thread):
    """The background thread of an asynchronous producer; see the module documentation."""

    def __init__(self, producer: "Producer", client: Any, messages: "queue.Queue[Any]") -> None:
        super().__init__(name="kafka-simple-producer", daemon=True)
        self.client = client
        self.queue = messages
        self.codec = producer.codec
        self.compresslevel = producer.codec_compresslevel
        self.acks = producer.req_acks
        self.ack_timeout = producer.ack_timeout
        self.batch_size = producer.batch_send_every_n
        self.batch_time = producer.batch_send_every_t
        self.retry_options = producer.retry_options
        self.log_messages = producer.async_log_messages_on_error
        self.stop_event = threading.Event()
        self.stop_budget = float(producer.async_stop_timeout)
        self.deadline: Optional[float] = None

    # -- control, from the producer's thread ----------------------------------------------

    def request_stop(self, budget: float) -> None:
        """Deliver what is queued, for at most ``budget`` seconds from now, then end."""
        self.stop_budget = float(budget)
        self.stop_event.set()
        # The marker wakes a get() that is waiting. A full queue has room again
        # as soon as the thread takes a message, unless it has already ended.
        while self.is_alive():
            try:
                self.queue.put(_STOP, timeout=0.05)
                return
            except queue.Full:
                continue

    # -- the thread --------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._loop()
        except Exception:  # pragma: no cover - a bug; do not die silently
            log.exception("the asynchronous producer thread failed")
        finally:
            try:
                self.client.close()
            except Exception:  # pragma: no cover
                log.debug("closing the producer thread's client failed", exc_info=True)

    def _stopping(self) -> bool:
        if not self.stop_event.is_set():
            return False
        if self.deadline is None:
            self.deadline = time.monotonic() + self.stop_budget
        return True

    def _loop(self) -> None:
        retries: Dict[_PartitionKey, _Pending] = {}
        while True:
            if self._stopping() and time.monotonic() >= self.deadline:  # type: ignore[operator]
                log.debug("asynchronous producer: async_stop_timeout reached")
                break
            if retries:
                pending = retries
            else:
                batch = self._collect()
                if not batch:
                    if self._stopping():
                        break  # stopping, and nothing is left in the queue
                    continue
                pending = {tp: _Pending(ProduceRequest(tp[0], tp[1], create_message_set(
                               items, self.codec, None, self.compresslevel)), 0, len(items))
                           for tp, items in batch.items()}
            retries = self._send(pending)
            if retries:
                self._backoff()
        unsent = sum(p.count for p in retries.values()) + self._drain_count()
        if unsent:
            log.error("asynchronous producer stopped with %d unsent message(s)", unsent)

    def _drain_count(self) -> int:
        count = 0
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return count
            if item is not _STOP:
                count += 1

    def _collect(self) -> Dict[_PartitionKey, List[Tuple[Any, Any]]]:
        """Take the next batch off the queue: ``{(topic, partition): [(payload, key), ...]}``."""
        batch: Dict[_PartitionKey, List[Tuple[Any, Any]]] = {}
        stopping = self._stopping()
        send_at = None
        count = 0
        while count < self.batch_size:
            stopping = stopping or self._stopping()
            try:
                if stopping:
                    item = self.queue.get_nowait()
                elif send_at is None:
                    item = self.queue.get()  # idle: wait for a message (or the stop marker)
                else:
                    left = send_at - time.monotonic()
                    if left <= 0:
                        break
                    item = self.queue.get(timeout=left)
            except queue.Empty:
                break
            if item is _STOP:
                continue  # stop() set the event before queueing the marker
            tp, msg, key = item
            batch.setdefault((tp.topic, tp.partition), []).append((msg, key))
            count += 1
            if send_at is None:
                send_at = time.monotonic() + self.batch_time
        return batch

    def _describe(self, request: ProduceRequest) -> Any:
        return list(request.messages) if self.log_messages else hash(tuple(request.messages))

    def _send(self, pending: Dict[_PartitionKey, _Pending]
              ) -> Dict[_PartitionKey, _Pending]:
        """Send ``pending`` in one call; return what is to be retried (with its try count)."""
        requests = [p.request for p in pending.values()]
        log.debug("asynchronous producer: sending %d message(s) to %d partition(s)",
                  sum(p.count for p in pending.values()), len(requests))
        failures: Dict[_PartitionKey, Tuple[type, Optional[BaseException]]] = {}
        try:
            responses = self.client.send_produce_request(requests, acks=self.acks, timeout=self.ack_timeout,
                                                         fail_on_error=False)
        except Exception as exc:  # fail_on_error=False reports per payload; this is the rest
            for tp in pending:
                failures[tp] = (type(exc), exc)
        else:
            for response in responses:
                if isinstance(response, FailedPayloadsError):
                    # No answer for this payload (connection lost, broker
                    # down, no response in time, ...): retried, as in 0.9.x,
                    # timeouts only with retry_on_timeouts.
                    payload = response.payload
                    failures[(_text(payload.topic), payload.partition)] = (FailedPayloadsError, response)
                elif isinstance(response, ProduceResponse) and response.error:
                    cls = errors.for_code(response.error) or errors.UnknownError
                    failures[(_text(response.topic), response.partition)] = (cls, None)
        retries: Dict[_PartitionKey, _Pending] = {}
        limit = self.retry_options.limit
        for tp, (error_cls, error) in failures.items():
            request, tries, count = pending[tp]
            name = type(error.__cause__ or error).__name__ if error is not None else error_cls.__name__
            if _is_timeout(error, error_cls):
                retriable = self.retry_options.retry_on_timeouts
            else:
                retriable = issubclass(error_cls, RETRY_ERROR_TYPES) or bool(getattr(error_cls, "retriable", False))
            if retriable and (limit is None or tries < limit):
                log.warning("%s producing %d message(s) to %s-%d; retrying (retry %d): %s",
                            name, count, request.topic, request.partition,
                            tries + 1, self._describe(request))
                retries[tp] = _Pending(request, tries + 1, count)
            else:
                log.error("%s producing %d message(s) to %s-%d; dropping them after %d retries: %s",
                          name, count, request.topic, request.partition,
                          tries, self._describe(request))
        return retries

    def _backoff(self) -> None:
        delay = self.retry_options.backoff_ms / 1000.0
        if self.deadline is not None:
            delay = min(delay, max(self.deadline - time.monotonic(), 0.0))
        if delay > 0:
            time.sleep(delay)


def _stop_at_exit(ref: "weakref.ref[Producer]") -> None:
    producer = ref()
    if producer is not None and not producer.stopped:
        producer.stop()


class Producer:
    """Base class of the simple producers; see the module documentation.

    :param client: the :class:`~kafka.KafkaClient` to send with. In
        asynchronous mode the background thread uses ``client.copy()``.
    :param req_acks: acknowledgements the broker waits for before answering:
        :attr:`ACK_NOT_REQUIRED` (0), :attr:`ACK_AFTER_LOCAL_WRITE` (1, the
        default) or :attr:`ACK_AFTER_CLUSTER_COMMIT` (-1).
    :param ack_timeout: how long (ms) the broker may wait for ``req_acks``
        (default 1000).
    :param codec: compression, one of :data:`kafka.protocol.ALL_CODECS`
        (``None``: no compression).
    :param codec_compresslevel: level for the codec (``None``: its default).
    :param sync_fail_on_error: in synchronous mode, raise failures (the
        default) or return them in the response list.
    :param async_send: send from a background thread (default ``False``).
        The 0.9.x spelling ``async`` is accepted as a keyword
        (``**{'async': True}``), and so is the deprecated ``batch_send``.
    :param batch_send_every_n: asynchronous mode: send when a batch holds this
        many messages (default 20).
    :param batch_send_every_t: asynchronous mode: send a batch at the latest
        this many seconds after its first message was taken (default 20).
    :param async_retry_limit: retries of a failed request, ``None`` (the
        default) for no limit.
    :param async_retry_backoff_ms: wait before a retry (default 100).
    :param async_retry_on_timeouts: also retry requests that timed out
        (default ``True``; the broker may have written them, so a retry can
        duplicate messages).
    :param async_queue_maxsize: at most this many messages waiting in the
        queue (default 0: no limit).
    :param async_queue_put_timeout: when the queue is full, wait this many
        seconds for room (default 0: fail at once) before raising
        :class:`~kafka.simple.common.AsyncProducerQueueFull`.
    :param async_log_messages_on_error: log the messages of dropped or
        retried requests (default), or only their ``hash()``.
    :param async_stop_timeout: seconds :meth:`stop` keeps trying to send what
        is queued (default 30).
    """

    ACK_NOT_REQUIRED = ACK_NOT_REQUIRED
    ACK_AFTER_LOCAL_WRITE = ACK_AFTER_LOCAL_WRITE
    ACK_AFTER_CLUSTER_COMMIT = ACK_AFTER_CLUSTER_COMMIT
    DEFAULT_ACK_TIMEOUT = DEFAULT_ACK_TIMEOUT

    def __init__(self, client: Any, req_acks: int = ACK_AFTER_LOCAL_WRITE, ack_timeout: int = DEFAULT_ACK_TIMEOUT,
                 codec: Optional[int] = None, codec_compresslevel: Optional[int] = None,
                 sync_fail_on_error: bool = True, async_send: Optional[bool] = None, batch_send: bool = False,
                 batch_send_every_n: int = BATCH_SEND_MSG_COUNT,
                 batch_send_every_t: float = BATCH_SEND_DEFAULT_INTERVAL,
                 async_retry_limit: Optional[int] = ASYNC_RETRY_LIMIT,
                 async_retry_backoff_ms: int = ASYNC_RETRY_BACKOFF_MS,
                 async_retry_on_timeouts: bool = ASYNC_RETRY_ON_TIMEOUTS,
                 async_queue_maxsize: int = ASYNC_QUEUE_MAXSIZE,
                 async_queue_put_timeout: float = ASYNC_QUEUE_PUT_TIMEOUT,
                 async_log_messages_on_error: bool = ASYNC_LOG_MESSAGES_ON_ERROR,
                 async_stop_timeout: float = ASYNC_STOP_TIMEOUT_SECS, **kwargs: Any) -> None:
        if "async" in kwargs:
            old_async = kwargs.pop("async")
            if async_send is not None and bool(async_send) != bool(old_async):
                raise errors.ConfigurationTypeError("async and async_send disagree; give one of them")
            async_send = old_async
        if kwargs:
            raise errors.ConfigurationTypeError("%s() got unexpected keyword argument(s): %s"
                            % (type(self).__name__, ", ".join(sorted(kwargs))))
        if batch_send:
            log.warning("batch_send is deprecated; use async_send=True")
            async_send = True
        if codec is None:
            codec = CODEC_NONE
        check_number("codec", codec, integer=True)
        if codec not in ALL_CODECS:
            raise errors.UnsupportedCodecConfigurationError("Codec 0x%02x unsupported" % (codec,))
        if not _codecs.is_available(codec):
            raise errors.UnsupportedCodecConfigurationError(
                "codec 0x%02x needs a compression library that is not installed" % (codec,))
        check_number("batch_send_every_n", batch_send_every_n, 1, integer=True)
        check_number("batch_send_every_t", batch_send_every_t)
        check_number("async_retry_limit", async_retry_limit, none_ok=True)
        check_number("async_queue_put_timeout", async_queue_put_timeout)
        check_number("async_retry_backoff_ms", async_retry_backoff_ms)
        check_number("async_queue_maxsize", async_queue_maxsize, integer=True)
        check_number("async_stop_timeout", async_stop_timeout)

        self.client = client
        self.req_acks = req_acks
        self.ack_timeout = ack_timeout
        self.codec = codec
        self.codec_compresslevel = codec_compresslevel
        self.sync_fail_on_error = sync_fail_on_error
        self.async_send = bool(async_send)
        setattr(self, "async", self.async_send)  # the 0.9.x attribute name, for getattr()
        self.batch_send_every_n = batch_send_every_n
        self.batch_send_every_t = batch_send_every_t
        self.retry_options = RetryOptions(limit=async_retry_limit, backoff_ms=async_retry_backoff_ms,
                                          retry_on_timeouts=async_retry_on_timeouts)
        self.async_queue_maxsize = async_queue_maxsize
        self.async_queue_put_timeout = async_queue_put_timeout
        self.async_log_messages_on_error = async_log_messages_on_error
        self.async_stop_timeout = async_stop_timeout
        self.stopped = False
        self._lock = threading.Lock()
        self._partition_lists: Dict[str, List[int]] = {}
        self.queue: Optional["queue.Queue[Any]"] = None
        self.thread: Optional[_Sender] = None
        if self.async_send:
            self.queue = queue.Queue(async_queue_maxsize)
            self.thread = _Sender(self, client.copy(), self.queue)
            self.thread.start()
            self._exit_hook = lambda ref=weakref.ref(self): _stop_at_exit(ref)
            atexit.register(self._exit_hook)

    # -- partitions -----------------------------------------------------------------------

    def _partition_ids(self, topic: Any) -> List[int]:
        """The partitions of ``topic``, looking the topic up (and waiting for it) if needed.

        While the client's metadata is being refreshed (after an error) the
        last list seen is used.
        """
        name = _text(topic)
        ids = self.client.get_partition_ids_for_topic(name)
        if not ids:
            ids = self._partition_lists.get(name)
            if not ids:
                timeout = self.client.timeout
                self.client.ensure_topic_exists(name, timeout=30 if timeout is None else min(timeout, 30))
                ids = self.client.get_partition_ids_for_topic(name)
                if not ids:  # pragma: no cover - ensure_topic_exists raises instead
                    raise errors.UnknownTopicOrPartitionError("topic %s has no partitions" % name)
        self._partition_lists[name] = ids
        return ids

    # -- sending ------------------------------------------------------------------------

    def send_messages(self, topic: Any, partition: int, *msg: Optional[bytes]) -> List[Any]:
        """Send the payloads ``msg`` (``bytes``) to ``partition`` of ``topic``, without key.

        Synchronous mode returns the list of
        :class:`~kafka.simple.common.ProduceResponse` (one for the request;
        ``offset`` is that of the first message); asynchronous mode queues
        the messages and returns ``[]``. Payloads must be ``bytes``: encode
        text first (``text.encode('utf-8')``); anything else raises
        :class:`TypeError`.
        """
        return self._send_messages(topic, partition, *msg)

    def _send_messages(self, topic: Any, partition: int, *msg: Optional[bytes], key: Optional[bytes] = None
                       ) -> List[Any]:
        _check_messages(topic, msg, key)
        # A partition the request cannot carry would fail, in asynchronous
        # mode, the whole batch holding it: other partitions' messages too.
        partition = check_partition_number(partition)
        if not msg:
            return []
        if self.async_send:
            return self._enqueue(topic, partition, msg, key)
        messages = create_message_set([(m, key) for m in msg], self.codec, key, self.codec_compresslevel)
        request = ProduceRequest(topic, partition, messages)
        return self.client.send_produce_request([request], acks=self.req_acks, timeout=self.ack_timeout,
                                                fail_on_error=self.sync_fail_on_error)

    def _enqueue(self, topic: Any, partition: int, msgs: Sequence[Optional[bytes]], key: Optional[bytes]
                 ) -> List[Any]:
        if self.stopped:
            raise errors.IllegalStateError("the producer is stopped")
        assert self.queue is not None
        tp = TopicAndPartition(_text(topic), partition)
        for index, msg in enumerate(msgs):
            try:
                if self.async_queue_put_timeout == 0:
                    self.queue.put_nowait((tp, msg, key))
                else:
                    self.queue.put((tp, msg, key), True, self.async_queue_put_timeout)
            except queue.Full:
                raise errors.AsyncProducerQueueFull(
                    list(msgs[index:]),
                    "the asynchronous producer's queue is full (%d messages)" % self.queue.qsize()) from None
        return []

    def stop(self, timeout: Optional[float] = None) -> None:
        """Stop an asynchronous producer once what is queued is sent.

        Blocks until the background thread ends. It keeps sending (and
        retrying) for at most ``timeout`` seconds -- ``async_stop_timeout``
        when ``None`` -- and logs the messages it could not send. New
        messages are refused afterwards. A synchronous producer has nothing
        to stop.
        """
        if not self.async_send:
            log.debug("stop() on a synchronous producer: nothing to do")
            return
        with self._lock:
            if self.stopped:
                log.debug("stop(): the producer is already stopped")
                return
            self.stopped = True
        budget = self.async_stop_timeout if timeout is None else timeout
        assert self.thread is not None
        self.thread.request_stop(budget)
        # A request in flight when the budget runs out may take up to the
        # client's request timeout to end.
        request_timeout = getattr(self.thread.client, "timeout", None)
        self.thread.join(budget + (request_timeout or 30.0) + self.ack_timeout / 1000.0 + 1.0)
        if self.thread.is_alive():  # pragma: no cover - a request that never ended
            log.error("the asynchronous producer thread did not end in time; unsent messages may be lost")
        atexit.unregister(self._exit_hook)


__all__ = [
    "Producer",
    "ACK_NOT_REQUIRED",
    "ACK_AFTER_LOCAL_WRITE",
    "ACK_AFTER_CLUSTER_COMMIT",
    "DEFAULT_ACK_TIMEOUT",
    "BATCH_SEND_MSG_COUNT",
    "BATCH_SEND_DEFAULT_INTERVAL",
    "ASYNC_QUEUE_MAXSIZE",
    "ASYNC_QUEUE_PUT_TIMEOUT",
    "ASYNC_RETRY_LIMIT",
    "ASYNC_RETRY_BACKOFF_MS",
    "ASYNC_RETRY_ON_TIMEOUTS",
    "ASYNC_LOG_MESSAGES_ON_ERROR",
    "ASYNC_STOP_TIMEOUT_SECS",
    "STOP_ASYNC_PRODUCER",
]
