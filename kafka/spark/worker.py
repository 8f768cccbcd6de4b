"""What runs on the executors: reading offset ranges and writing rows.

Spark reuses its Python worker processes between tasks, so each worker keeps
its clients, one per distinct configuration, in module-level caches
(:func:`cached_fetcher` for reads, :func:`cached_producer`) instead of connecting
again for every task. The reader and writer objects Spark pickles
carry only options; clients are made here, in the worker process.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Tuple, TypeVar

from kafka import errors, fast_paths
from kafka.client.routing import RoutingClient
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG
from kafka.enums import IsolationLevel
from kafka.spark.arrow_columns import ColumnBatchBuilder
from kafka.spark.encoded_write import binary_list, rows_of, send_arrow
from kafka.spark.fetch import RangeFetcher
from kafka.spark.offsets import OffsetRange
from kafka.spark.columnar_decode import columns_between
from kafka.structs import TopicPartition

if TYPE_CHECKING:
    from kafka.producer import KafkaProducer

T = TypeVar("T")

#: Rows per Arrow batch handed to Spark (Spark's own default for Arrow batches).
ROWS_PER_BATCH = 10000
#: Key and value bytes after which an Arrow batch is handed over even if it has fewer rows
#: (binary columns have 32-bit offsets).
BYTES_PER_BATCH = 64 * 1024 * 1024

#: Whether writes encode records from the Arrow columns (kafka.spark.encoded_write); when false,
#: or for rows that path declines, rows go through KafkaProducer.send_batch as Python bytes.
#: Follows the ``SPARK_ENCODED_WRITE`` fast path of :mod:`kafka.fast_paths` (benchmarks/spark_write.py
#: sets it directly).
ENCODE = fast_paths.SPARK_ENCODED_WRITE
#: Set to "1" by Spark in the environment of Python workers it reuses between tasks.
REUSED_WORKER_ENV = "SPARK_REUSE_WORKER"
#: Set to "0" (e.g. with ``spark.executorEnv.KAFKAWIRE_SPARK_FREEZE=0``) to keep tasks from freezing
#: the worker's long-lived objects (see :func:`freeze_long_lived`).
FREEZE_ENV = "KAFKAWIRE_SPARK_FREEZE"
#: Whether this interpreter can freeze objects (CPython 3.7+; PyPy cannot).
_CAN_FREEZE = hasattr(gc, "freeze")


def _follow_switch() -> None:
    global ENCODE
    ENCODE = fast_paths.SPARK_ENCODED_WRITE


fast_paths.on_switch(_follow_switch)

_lock = threading.Lock()
#: How many modules were loaded when :func:`freeze_long_lived` last froze (0: never).
_modules_when_frozen = 0
_producers: Dict[Any, "KafkaProducer"] = {}
_fetchers: Dict[Any, RangeFetcher] = {}
#: Seconds spent inside our client by this worker process (fetch + decode, Arrow
#: building, send + flush).
timings = {"read_s": 0.0, "arrow_s": 0.0, "write_s": 0.0}
#: When set, each task appends one JSON line of timings to this file (used by
#: benchmarks/spark.py to tell our client's time from Spark's).
TIMINGS_ENV = "KAFKAWIRE_SPARK_TIMINGS"


def _report(kind: str, **numbers: Any) -> None:
    path = os.environ.get(TIMINGS_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(dict(numbers, kind=kind, pid=os.getpid(),
                                        frozen=gc.get_freeze_count() if _CAN_FREEZE else 0)) + "\n")


def _key(config: Dict[str, Any]) -> Tuple:
    return tuple(sorted((k, repr(v)) for k, v in config.items()))


def cached_fetcher(client: Dict[str, Any]) -> RangeFetcher:
    """This worker's range fetcher (and its client) for ``client`` settings (made on first use)."""
    config = {k: v for k, v in client.items() if k in CLIENT_CONFIG}
    return _cached(_fetchers, _key(client), lambda: RangeFetcher(
        RoutingClient(**config), max_partition_bytes=client.get("max_partition_fetch_bytes", 8 * 1024 * 1024),
        max_wait_ms=client.get("fetch_max_wait_ms", 100), check_crcs=client.get("check_crcs", True),
        isolation_level=IsolationLevel[client.get("isolation_level", "read_uncommitted").upper()]))


def cached_producer(client: Dict[str, Any]) -> "KafkaProducer":
    """This worker's producer for ``client`` settings (made on first use)."""
    from kafka.producer import KafkaProducer

    return _cached(_producers, _key(client), lambda: KafkaProducer(**client))


def _cached(cache: Dict[Any, T], key: Any, make: Callable[[], T]) -> T:
    """``cache[key]``, made by ``make()`` on first use (one per worker process)."""
    with _lock:
        value = cache.get(key)
        if value is None:
            value = cache[key] = make()
        return value


def freeze_long_lived() -> bool:
    """In a reused Spark Python worker, move the objects alive now out of the cyclic collector's sight.

    When Spark reuses its Python worker processes (``spark.python.worker.reuse``,
    on by default, which Spark tells its workers through ``SPARK_REUSE_WORKER``),
    the worker runs a full ``gc.collect()`` after every task. A worker that has
    imported pyspark, pyarrow and this library holds some 55-100 thousand objects
    that live as long as the process (modules, classes, functions), and walking
    them all cost 15-30 ms of CPU per task before the worker could take its
    next task. Called as each task starts, this freezes them (:func:`gc.freeze`)
    whenever modules were imported since the last time: in the first task, and
    in the next one for what pyspark and pyarrow import lazily during a task.
    Frozen objects are still freed by reference counting; only reference
    cycles among them would stay, and those are the process's long-lived
    structures. Returns whether it froze; anywhere else (a process that is not
    such a worker, an interpreter without :func:`gc.freeze`, or with
    ``KAFKAWIRE_SPARK_FREEZE=0`` in the environment) it does nothing.
    """
    global _modules_when_frozen
    if not _CAN_FREEZE or os.environ.get(REUSED_WORKER_ENV) != "1" or os.environ.get(FREEZE_ENV) == "0":
        return False
    loaded = len(sys.modules)
    if loaded == _modules_when_frozen:
        return False
    gc.collect()
    gc.freeze()
    _modules_when_frozen = loaded
    return True


def _close_all() -> None:
    with _lock:
        for producer in _producers.values():
            producer.close(timeout=10)
        for fetcher in _fetchers.values():
            fetcher.client.close()
        _fetchers.clear()
        _producers.clear()


atexit.register(_close_all)


def read_range(client: Dict[str, Any], rng: OffsetRange, include_headers: bool, fail_on_data_loss: bool,
               poll_timeout_ms: int) -> Iterator[Any]:
    """Records ``[rng.start, rng.end)`` of one partition as ``pyarrow.RecordBatch`` objects.

    Record batches are decoded straight into Arrow columns (see
    :mod:`kafka.spark.columnar_decode`). With ``read_committed`` the records
    of aborted transactions are left out. With ``fail_on_data_loss`` a range
    whose records are gone from the log (deleted by retention, or a
    partition that vanished) raises OffsetOutOfRangeError; otherwise the
    missing records are skipped.
    """
    if rng.end <= rng.start:
        return
    freeze_long_lived()
    fetcher = cached_fetcher(client)
    tp = TopicPartition(rng.topic, rng.partition)
    builder = ColumnBatchBuilder(rng.topic, rng.partition, include_headers)
    task_started = time.perf_counter()
    cpu_started = time.process_time()
    client_s = arrow_s = 0.0
    chunks = fetcher.fetch_range(tp, rng.start, rng.end, fail_on_data_loss, poll_timeout_ms,
                                 decode=columns_between)
    while True:
        started = time.perf_counter()
        records = next(chunks, None)
        if records is not None:
            builder.add(records)
        client_s += time.perf_counter() - started
        if records is None or len(builder) >= ROWS_PER_BATCH or builder.byte_size >= BYTES_PER_BATCH:
            if len(builder):
                started = time.perf_counter()
                batch = builder.build()
                arrow_s += time.perf_counter() - started
                yield batch
            if records is None:
                break
    timings["read_s"] += client_s
    timings["arrow_s"] += arrow_s
    # cpu_s: this Python worker's CPU time during the task, Spark's handling of the batches included.
    _report("read", rows=rng.end - rng.start, client_s=client_s, arrow_s=arrow_s,
            task_s=time.perf_counter() - task_started, cpu_s=time.process_time() - cpu_started)


# -- writing -------------------------------------------------------------------------------

def _text_or_bytes(value: Any, column: str) -> Optional[bytes]:
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise errors.IllegalArgumentError("kafkawire: column %s must be binary or string, got %s"
                                      % (column, type(value).__name__))


def _unfinished(futures: List[Any], failures: List[BaseException]) -> List[Any]:
    """The futures still pending; the errors of failed ones are added to ``failures``."""
    pending = []
    for future in futures:
        if not future.is_done:
            pending.append(future)
        elif future.exception is not None:
            failures.append(future.exception)
    return pending


Groups = Optional[Dict[int, List[int]]]


def _target(batch: Any, default_topic: Optional[str]) -> Optional[Tuple[str, Groups]]:
    """The batch's one topic, and its rows by the value of its partition column (None: no such column).

    None when the rows cannot go in bulk without changing their order within
    a Kafka partition: several topics in the topic column, or a partition
    column with nulls (those rows are placed by key, between the others).
    """
    names = batch.schema.names
    topic = default_topic
    if topic is None:
        topics = batch.column(names.index("topic"))
        if topics.null_count:
            raise errors.IllegalArgumentError("kafkawire: a row has a null topic and no topic option is set")
        distinct = topics.unique()
        if len(distinct) != 1:
            return None
        topic = distinct[0].as_py()
    assert topic is not None
    parts = batch.column(names.index("partition")) if "partition" in names else None
    if parts is None or parts.null_count == len(parts):
        return topic, None
    if parts.null_count:
        return None
    groups: Dict[int, List[int]] = {}
    for i, partition in enumerate(parts.to_pylist()):
        groups.setdefault(partition, []).append(i)
    return topic, groups


def _send_encoded(producer: "KafkaProducer", batch: Any, topic: str, groups: Groups) -> Optional[List[Any]]:
    """Futures of the rows sent through :mod:`kafka.spark.encoded_write`; None when that path does not apply."""
    names = batch.schema.names
    if "headers" in names and batch.column(names.index("headers")).null_count != batch.num_rows:
        return None
    values = batch.column(names.index("value"))
    keys = batch.column(names.index("key")) if "key" in names else None
    if groups is None:
        future = send_arrow(producer, topic, None, values, keys)
        return None if future is None else [future]
    futures = []
    for partition, rows in groups.items():
        # Only the first call can decline (the arrays taken for the others hold no odd nulls), before
        # anything is sent.
        future = send_arrow(producer, topic, partition, rows_of(values, rows),
                            None if keys is None else rows_of(keys, rows))
        if future is None:
            return None
        futures.append(future)
    return futures


def _bulk_groups(batch: Any, topic: str, groups: Groups) -> List[Tuple[str, Optional[int], List[Any],
                                                                       Optional[List[Any]], Optional[List[Any]]]]:
    """``(topic, partition, values, keys, headers)`` runs for :meth:`KafkaProducer.send_batch`."""
    names = batch.schema.names
    values = binary_list(batch.column(names.index("value")), "value")
    keys = binary_list(batch.column(names.index("key")), "key") if "key" in names else None
    # Both C-level membership tests first: the row-by-row check runs only when both columns have a null.
    if None in values and (keys is None or (None in keys and any(k is None and v is None
                                                                 for k, v in zip(keys, values)))):
        raise errors.IllegalArgumentError("kafkawire: a row has neither a key nor a value")
    headers = None
    if "headers" in names and batch.column(names.index("headers")).null_count != batch.num_rows:
        headers = [[(h["key"], _text_or_bytes(h["value"], "headers.value")) for h in row] if row else None
                   for row in batch.column(names.index("headers")).to_pylist()]
    if groups is None:
        return [(topic, None, values, keys, headers)]
    out: List[Tuple[str, Optional[int], List[Any], Optional[List[Any]], Optional[List[Any]]]] = []
    for partition, rows in groups.items():
        out.append((topic, partition, [values[i] for i in rows], None if keys is None else [keys[i] for i in rows],
                    None if headers is None else [headers[i] for i in rows]))
    return out


def _send_rows(producer: "KafkaProducer", batch: Any, default_topic: Optional[str], futures: List[Any]) -> int:
    """Send the rows of ``batch`` one ``send()`` each (rows of several topics, or some without a partition)."""
    names = batch.schema.names
    n = batch.num_rows
    values = batch.column(names.index("value")).to_pylist()
    keys = batch.column(names.index("key")).to_pylist() if "key" in names else [None] * n
    topics = batch.column(names.index("topic")).to_pylist() if "topic" in names else [None] * n
    parts = batch.column(names.index("partition")).to_pylist() if "partition" in names else [None] * n
    headers = batch.column(names.index("headers")).to_pylist() if "headers" in names else None
    send = producer.send
    append = futures.append
    for i in range(n):
        topic = default_topic if default_topic is not None else topics[i]
        if topic is None:
            raise errors.IllegalArgumentError(
                "kafkawire: a row has a null topic and no topic option is set")
        key = keys[i]
        value = values[i]
        if key is not None and type(key) is not bytes:
            key = _text_or_bytes(key, "key")
        if value is not None and type(value) is not bytes:
            value = _text_or_bytes(value, "value")
        row_headers = None
        if headers is not None and headers[i]:
            row_headers = [(h["key"], _text_or_bytes(h["value"], "headers.value")) for h in headers[i]]
        if value is None and key is None:
            raise errors.IllegalArgumentError("kafkawire: a row has neither a key nor a value")
        append(send(topic, value=value, key=key, headers=row_headers, partition=parts[i]))
    return n


def write_batches(client: Dict[str, Any], default_topic: Optional[str], batches: Iterator[Any]) -> int:
    """Send the rows of Arrow ``batches``; return how many once all are acknowledged.

    Columns: ``value`` (required), ``key``, ``topic`` (else the ``topic``
    option), ``partition``, ``headers``. Everything sent is flushed and its
    acknowledgement checked before returning, so a task that reports success
    has delivered its rows (at least once).
    """
    freeze_long_lived()
    producer = cached_producer(client)
    failures: List[BaseException] = []
    futures: List[Any] = []
    count = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    send_s = 0.0
    for batch in batches:
        batch_started = time.perf_counter()
        target = _target(batch, default_topic)
        if target is None:
            count += _send_rows(producer, batch, default_topic, futures)
        else:
            topic, groups = target
            sent = _send_encoded(producer, batch, topic, groups) if ENCODE else None
            if sent is not None:
                futures.extend(sent)
            else:
                for topic, partition, values, keys, headers in _bulk_groups(batch, topic, groups):
                    futures.append(producer.send_batch(topic, values, keys=keys, headers=headers,
                                                       partition=partition))
            count += batch.num_rows
        # Checking futures in bulk costs far less than a callback per record.
        futures = _unfinished(futures, failures)
        send_s += time.perf_counter() - batch_started
        if failures:
            break
    flush_started = time.perf_counter()
    producer.flush()
    _unfinished(futures, failures)
    elapsed = time.perf_counter() - started
    timings["write_s"] += elapsed
    # cpu_s: this Python worker's CPU time during the task (all its threads, Spark's handing over of rows too).
    _report("write", rows=count, task_s=elapsed, flush_s=time.perf_counter() - flush_started,
            send_s=send_s, cpu_s=time.process_time() - cpu_started)
    if failures:
        raise errors.KafkaError("kafkawire: records could not be written (%d failed send(s)): %r"
                                % (len(failures), failures[0]))
    return count
