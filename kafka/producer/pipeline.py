"""The producer's one pipeline, and the steps every way into it shares.

Records reach a :class:`~kafka.producer.KafkaProducer`'s batches through
four doors: ``send()`` (one record; its fast paths and ``_send``), the keyed
records ``send()`` holds back (:mod:`kafka.producer.held`), ``send_batch()``
(:mod:`kafka.producer.bulk`), and ``queue_prepared()`` /
:func:`~kafka.producer.encoded.send_encoded` (records checked, or encoded,
by the caller). Each goes through the same steps, and each step's rule lives
here once, as a method of :class:`ProducerPipeline`:

1. :meth:`~ProducerPipeline.check_can_send` / :meth:`~ProducerPipeline.open_topic`:
   the producer is open and usable, the topic name legal; records held back
   for the topic go first (:meth:`~ProducerPipeline.hand_over_topic`).
2. :meth:`~ProducerPipeline.partitions`: the topic's partitions from the
   metadata, waiting up to ``max_block_ms`` for it.
3. :meth:`~ProducerPipeline.choose_partition` (one record) and
   :meth:`~ProducerPipeline.partition_runs` (many): the partitioner's choice,
   checked (:meth:`~ProducerPipeline.check_partition`).
4. :meth:`~ProducerPipeline.check_sizes`: a record larger than
   ``max_request_size`` or ``buffer_memory`` is refused (the rule itself is
   :func:`~kafka.producer.record_checks.check_size_estimate`); the
   accumulator takes the memory (``buffer_memory``) when it appends.
5. :meth:`~ProducerPipeline.tp_to_send`: the partition, enrolled in the open
   transaction if any; then the accumulator appends (``append``,
   ``append_many``, ``append_batches``).
6. :meth:`~ProducerPipeline.batch_event` (one record) and
   :meth:`~ProducerPipeline.runs_queued` (many): the sender thread is woken
   when a batch is made or fills up, and the sticky partition moves on when
   its batch fills.

:class:`~kafka.producer.KafkaProducer` owns one pipeline
(:attr:`KafkaProducer.pipeline <kafka.producer.KafkaProducer.pipeline>`);
the bulk doors receive it, and use only what is documented here. ``send()``'s
fast paths inline steps 1-5 for records whose checks they can prove at less
cost (a call per record costs more than the rest of a fast path), on the
caches kept here (:class:`PartitionInfo`, :class:`StickyRoute`,
:class:`KeyRoutes`), and call :meth:`~ProducerPipeline.batch_event`.
"""

from __future__ import annotations

import threading
import time
from itertools import repeat
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

from kafka import errors
from kafka.producer.accumulator import RecordAccumulator
from kafka.producer.batch import BATCH_OVERHEAD
from kafka.producer.bulk_runs import group_by_partition, sticky_runs
from kafka.producer.future import ProduceResult
from kafka.producer.held import HeldRecords, place
from kafka.producer.murmur2_lanes import murmur2_partitions
from kafka.producer.partitioner import DefaultPartitioner
from kafka.producer.record_checks import check_partition, check_size_estimate
from kafka.record.batch import RECORD_OVERHEAD
from kafka.serializer import Conversion
from kafka.structs import TopicPartition
from kafka.topic_names import check_topic_name

if TYPE_CHECKING:
    from kafka.producer.sender import Sender
    from kafka.producer.transactions import TransactionManager

__all__ = ["ProducerPipeline", "ClusterUnusable", "PartitionInfo", "StickyRoute", "KeyRoutes", "Runs"]

#: Bytes of ``buffer_memory`` a group of held keyed records takes at a time
#: (at most an eighth of the budget): the group is handed over when they run out.
_HOLD_CHUNK = 256 * 1024

#: A topic whose held group is handed over with fewer records than this,
#: because a record of another kind came, stops holding its keyed records.
_MIN_HELD_RUN = 64

#: ``[(partition, its records: their indices in order, a slice, or None for all)]``.
Runs = List[Tuple[int, Union[None, slice, List[int]]]]


class ClusterUnusable(Exception):
    """Metadata cannot come because every broker failed for good (``error`` says how)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


# The caches below are read by send()'s fast paths once per record: classes with __slots__, whose
# attribute reads cost what a tuple's indexing does on CPython (a NamedTuple's cost half as much again).

class PartitionInfo:
    """A topic's partitions as the metadata of ``version`` gave them (sorted)."""

    __slots__ = ("version", "all", "available")

    def __init__(self, version: int, all_parts: List[int], available: List[int]) -> None:
        self.version = version
        self.all = all_parts
        self.available = available


class StickyRoute:
    """send()'s keyless fast path for a topic: the sticky partition ``tp`` chosen under metadata ``version``."""

    __slots__ = ("version", "tp", "all", "available")

    def __init__(self, version: int, tp: TopicPartition, all_parts: List[int], available: List[int]) -> None:
        self.version = version
        self.tp = tp
        self.all = all_parts
        self.available = available


class KeyRoutes:
    """send()'s keyed fast path for a topic under metadata ``version``.

    ``tps``: the TopicPartition of each partition, in order (murmur2 of a
    key picks one); ``hold``: whether its keyed records are held back for a
    bulk hand-over (:mod:`kafka.producer.held`).
    """

    __slots__ = ("version", "tps", "all", "available", "hold")

    def __init__(self, version: int, tps: List[TopicPartition], all_parts: List[int], available: List[int],
                 hold: bool = True) -> None:
        self.version = version
        self.tps = tps
        self.all = all_parts
        self.available = available
        self.hold = hold


class ProducerPipeline:
    """The steps from a record accepted to a record in a batch, shared by every door of the producer.

    Built by :class:`~kafka.producer.KafkaProducer`, which owns it; the bulk
    doors (:func:`~kafka.producer.bulk.send_batch`,
    :func:`~kafka.producer.encoded.send_encoded`,
    :meth:`KafkaProducer.queue_prepared`) receive it. Attributes (read only
    for its users): ``config`` (the producer's), ``accumulator``, ``sender``,
    ``partitioner`` (``default_partitioner``: whether it is a
    :class:`DefaultPartitioner`), ``key_serializer`` and
    ``value_serializer`` (:class:`~kafka.serializer.Conversion` or None),
    ``transactions`` (None without a ``transactional_id``), ``max_block``
    (seconds), ``max_request_size``, ``buffer_memory``, ``batch_size``,
    ``max_fast_value`` (the largest key plus value plus headers a fast path
    takes without the size check), ``closed``.
    """

    def __init__(self, config: Dict[str, Any], client: Any, accumulator: RecordAccumulator, sender: "Sender",
                 partitioner: Any, key_serializer: Optional[Conversion], value_serializer: Optional[Conversion],
                 transactions: Optional["TransactionManager"],
                 on_new_batch: Optional[Callable[[str, int], None]] = None,
                 choose: Optional[Callable[..., Any]] = None) -> None:
        self.config = config
        self.client = client
        self.cluster = client.cluster
        self.accumulator = accumulator
        self.sender = sender
        self.partitioner = partitioner
        self.default_partitioner = isinstance(partitioner, DefaultPartitioner)
        self.key_serializer = key_serializer
        self.value_serializer = value_serializer
        self.transactions = transactions
        self.on_new_batch = on_new_batch  # a custom partitioner's hook, told of a new batch for keyless records
        self._choose = choose  # a custom partitioner, called as kafka.producer.custom_partitioner makes it
        self.max_block: float = config["max_block_ms"] / 1000.0
        self.max_request_size: int = config["max_request_size"]
        self.buffer_memory: int = config["buffer_memory"]
        self.batch_size: int = config["batch_size"]
        self.max_fast_value = min(self.max_request_size, self.buffer_memory) - RECORD_OVERHEAD - BATCH_OVERHEAD
        self.closed = False
        #: Notified when the metadata changes (partitions() waits on it).
        self.metadata_changed = threading.Condition()
        self.cluster.add_listener(self._on_metadata)
        self.checked_topics: Set[str] = set()
        #: topic -> PartitionInfo of the latest metadata asked about.
        self.partition_cache: Dict[str, PartitionInfo] = {}
        self.tps: Dict[Tuple[str, int], TopicPartition] = {}
        #: topic -> StickyRoute, for send()'s keyless fast path.
        self.sticky_tps: Dict[str, StickyRoute] = {}
        #: topic -> KeyRoutes, for send()'s keyed fast path; set only when murmur2 of the key bytes alone
        #: places a record (default partitioner, no serializer, no transaction).
        self.key_routes: Dict[str, KeyRoutes] = {}
        # Keyed records send() holds back for a bulk hand-over (see kafka.producer.held): at most
        # one open group per topic; placing orders the hand-overs, held_lock guards held.
        self.held: Dict[str, HeldRecords] = {}
        self.held_lock = threading.Lock()
        self._placing = threading.Lock()
        self.hold_chunk = max(1, min(_HOLD_CHUNK, self.buffer_memory // 8))

    def _on_metadata(self, cluster: Any) -> None:
        with self.metadata_changed:
            self.metadata_changed.notify_all()

    # -- 1. checks -------------------------------------------------------------------------------

    def check_can_send(self) -> None:
        """Raise unless records may be queued: the producer is open and has no fatal error."""
        if self.closed:
            raise errors.IllegalStateError("cannot send: the producer is closed")
        if self.sender.fatal_error is not None:
            raise self.sender.fatal_error

    def open_topic(self, topic: str, check_name: bool = True) -> None:
        """:meth:`check_can_send`, check ``topic``'s name, and hand its held records over.

        Held records of the topic thus stay ahead of the records about to be
        queued, in each partition. ``check_name=False``: the caller checked it.
        """
        self.check_can_send()
        if check_name and (type(topic) is not str or topic not in self.checked_topics):
            check_topic_name(topic)
            self.checked_topics.add(topic)
        if self.held:
            self.hand_over_topic(topic)

    def check_sizes(self, sizes: Sequence[int], largest: Optional[int] = None) -> None:
        """Raise MessageSizeTooLargeError if a record's size estimate is more than the producer can send.

        ``sizes`` are :func:`~kafka.record.batch.estimate_record_size` values
        (headers included); ``largest``: the largest of them, if known.
        """
        if largest is None:
            largest = max(sizes)
        check_size_estimate(largest, self.max_request_size, self.buffer_memory)

    # -- 2. metadata -----------------------------------------------------------------------------

    def partitions(self, topic: str, max_block: Optional[float] = None) -> Tuple[List[int], List[int]]:
        """``(partitions, available partitions)`` of ``topic``, sorted; waits for metadata up to ``max_block``.

        Raises KafkaTimeoutError when the topic is still unknown then, the
        topic's error when it is not retriable, and :class:`ClusterUnusable`
        when no broker can ever be used.
        """
        cluster = self.cluster
        version = cluster.version
        parts = cluster.partitions_for_topic(topic)
        if parts:
            found = sorted(parts), sorted(cluster.available_partitions_for_topic(topic) or ())
            self.partition_cache[topic] = PartitionInfo(version, found[0], found[1])
            return found
        deadline = time.monotonic() + (self.max_block if max_block is None else max_block)
        self.client.add_topic(topic)
        with self.metadata_changed:
            while True:
                parts = cluster.partitions_for_topic(topic)
                if parts:
                    return sorted(parts), sorted(cluster.available_partitions_for_topic(topic) or ())
                fatal = self.client.fatal_error()
                if fatal is not None:
                    raise ClusterUnusable(fatal)
                code = cluster.topic_error(topic)
                if code and not errors.for_code(code).retriable:  # type: ignore[union-attr]
                    raise errors.for_code(code)("topic %r" % topic)  # type: ignore[misc]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise errors.KafkaTimeoutError("topic %r not found in metadata within max_block_ms" % topic)
                cluster.request_update()
                self.sender.wakeup()
                self.metadata_changed.wait(min(left, 0.1))

    def cached_partitions(self, topic: str) -> Tuple[int, List[int], List[int]]:
        """``(metadata version, partitions, available partitions)``: :meth:`partitions`, cached per version."""
        version = self.cluster.version
        cached = self.partition_cache.get(topic)
        if cached is not None and cached.version == version:
            return version, cached.all, cached.available
        all_parts, available = self.partitions(topic)
        return version, all_parts, available

    # -- 3. partition choice -----------------------------------------------------------------------

    @staticmethod
    def check_partition(topic: str, partition: Any, all_parts: List[int], chosen: bool = False) -> int:
        """``partition`` if it is one of ``all_parts``; IllegalArgumentError otherwise.

        ``chosen``: the partitioner chose it (the message says so), rather
        than the caller.
        """
        if chosen:
            if type(partition) is not int or partition not in all_parts:
                raise errors.IllegalArgumentError("the partitioner chose %r, not a partition of topic %r"
                                                  % (partition, topic))
            return partition
        partition = check_partition(partition)
        if partition not in all_parts:
            raise errors.IllegalArgumentError("topic %r has no partition %r" % (topic, partition))
        return partition

    def choose_partition(self, topic: str, given_key: Any, key: Optional[bytes], given_value: Any,
                         value: Optional[bytes], all_parts: List[int], available: List[int]) -> int:
        """The partition the partitioner chooses for one record (``given_*``: before serialization)."""
        if self.default_partitioner:
            return self.partitioner(key, all_parts, available, topic)
        assert self._choose is not None
        partition = self._choose(topic, given_key, key, given_value, value, all_parts, available, self.cluster)
        return self.check_partition(topic, partition, all_parts, chosen=True)

    def partition_runs(self, topic: str, partition: Optional[int], keys: Optional[List[Any]], sizes: List[int],
                       all_parts: List[int], available: List[int], sums: Optional[List[int]] = None) -> Runs:
        """Many records' partitions, as runs ``[(partition, its records' indices in order, a slice, or None)]``.

        ``partition``: all go there; otherwise as :meth:`choose_partition`
        places them one by one (by key; records without a key a batch's
        worth at a time to the sticky partition), in their given order
        within each partition. ``sums``: the
        :func:`~kafka.producer.bulk_runs.prefix_sums` of ``sizes``, if known.
        """
        if partition is not None:
            return [(self.check_partition(topic, partition, all_parts), None)]
        partitioner = self.partitioner
        default = self.default_partitioner
        if keys is None and default:
            # Sticky, as send() does: a batch's worth of records to one partition, then the next.
            runs: Runs = []
            for start, stop in sticky_runs(sizes, self.batch_size, sums):
                runs.append((partitioner(None, all_parts, available, topic), slice(start, stop)))
                partitioner.next_sticky(topic, all_parts, available)
            if len(runs) == 1:
                return [(runs[0][0], None)]
            return runs
        if type(partitioner) is DefaultPartitioner and keys is not None and None not in keys:
            return [(all_parts[index], run) for index, run in group_by_partition(
                murmur2_partitions(keys, len(all_parts)), len(all_parts))]
        groups: Dict[int, List[int]] = {}
        if keys is None:
            keys = list(repeat(None, len(sizes)))
        for i, key in enumerate(keys):
            if default:
                part = partitioner(key, all_parts, available, topic)
            else:
                part = self.check_partition(topic, partitioner(key, all_parts, available), all_parts, chosen=True)
            group = groups.get(part)
            if group is None:
                group = groups[part] = []
            group.append(i)
        return [(part, indices) for part, indices in groups.items()]

    # -- 5. the partition records go to ----------------------------------------------------------

    def tp(self, topic: str, partition: int) -> TopicPartition:
        """The one TopicPartition kept for ``(topic, partition)``."""
        tp = self.tps.get((topic, partition))
        if tp is None:
            tp = self.tps[(topic, partition)] = TopicPartition(topic, partition)
        return tp

    def tp_to_send(self, topic: str, partition: int) -> TopicPartition:
        """The TopicPartition records are about to be queued for, enrolled in the open transaction if any."""
        tp = self.tp(topic, partition)
        if self.transactions is not None:
            self.transactions.ensure_partition(tp)
        return tp

    # -- 6. waking the sender ------------------------------------------------------------------

    def batch_event(self, topic: str, full: bool, sticky: bool, all_parts: List[int],
                    available: List[int]) -> None:
        """One record made a batch or filled one: move the sticky partition on (``sticky``), wake the sender."""
        if full and sticky:
            # Sticky partitioning moves on when a batch fills.
            self.sticky_tps.pop(topic, None)
            self.partitioner.next_sticky(topic, all_parts, available)
        self.sender.wakeup()

    def runs_queued(self, placed: List[Tuple[ProduceResult, int, int]], full: bool, since: int = 0) -> None:
        """Runs of records were appended (``placed[since:]``): wake the sender if a batch was made or filled.

        A run that joined a lingering batch leaves with it. Never wakes from
        the sender thread itself (a turn hook queueing records).
        """
        if full or any(first == 0 for _, first, _ in placed[since:]):
            if threading.current_thread() is not self.sender:
                self.sender.wakeup()

    # -- the keyed records send() holds back (kafka.producer.held) -------------------------------

    def start_held_group(self, topic: str, routes: KeyRoutes, size: int) -> bool:
        """Open the topic's next group of held records, with room for a record of ``size`` at least.

        The group's memory is taken here, so that send() blocks for it as for
        any record (up to ``max_block_ms``); the groups before it are handed
        over first, so the sender can free memory meanwhile. False when
        another thread opened one first (raises if the producer closed).
        """
        reserved = max(self.hold_chunk, size)
        self.hand_over_held()
        self.accumulator.reserve(reserved, self.max_block)
        with self.held_lock:
            if topic not in self.held and not self.closed:
                self.held[topic] = HeldRecords(topic, routes.version, routes.tps, reserved, self.hand_over_held)
                return True
        self.accumulator.unreserve(reserved)
        self.check_can_send()
        return False

    def hand_over_topic(self, topic: str) -> None:
        """Hand ``topic``'s held records over before a record of another kind is queued for it.

        Their order within each partition is kept so. When the group is
        short, the topic's records of other kinds come in between keyed ones
        so often that holding costs more than it saves: its keyed records go
        straight to their batches until the metadata changes.
        """
        held = self.held.get(topic)
        if held is None:
            return
        if len(held.records) < _MIN_HELD_RUN:
            routes = self.key_routes.get(topic)
            if routes is not None and routes.hold:
                self.key_routes[topic] = KeyRoutes(routes.version, routes.tps, routes.all, routes.available, False)
        self.hand_over_held(topic)

    def hand_over_held(self, topic: Optional[str] = None) -> None:
        """Put the held records (only ``topic``'s when given) in their batches, oldest group first.

        Also the sender thread's turn hook.
        """
        if not self.held:  # checked again under the locks
            return
        with self._placing:
            with self.held_lock:
                if topic is None:
                    groups = list(self.held.values())
                    self.held.clear()
                else:
                    one = self.held.pop(topic, None)
                    groups = [one] if one is not None else []
            failure = self.sender.fatal_error
            full = False
            for held in groups:
                full = place(self.accumulator, held, failure) or full
        if full and threading.current_thread() is not self.sender:
            self.sender.wakeup()
