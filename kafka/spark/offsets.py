"""Offset resolution and planning on the driver.

:class:`OffsetReader` asks the cluster (with our client) which partitions a
query reads and where they start and end. The functions below it are pure:
they turn offsets into the ranges Spark partitions read (:func:`plan_ranges`,
split for ``minPartitions`` as Spark's connector does), rate-limit a
micro-batch (:func:`rate_limit`, prorated across partitions as Spark does),
and convert offsets to and from Spark's JSON form ``{"topic": {"0": 23}}``.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, TypeVar

from kafka import errors
from kafka.client import topic_ids
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.client.routing import RoutingClient
from kafka.client.network import DEFAULT_CONFIG as CLIENT_CONFIG
from kafka.consumer.fetcher import Fetcher
from kafka.consumer.subscription import SubscriptionState
from kafka.protocol.apis import FETCH
from kafka.spark.options import EARLIEST, LATEST, OffsetSpec, SourceOptions, TimestampSpec
from kafka.structs import TopicPartition

T = TypeVar("T")


Offsets = Dict[Tuple[str, int], int]


class OffsetRange(NamedTuple):
    """Records ``[start, end)`` of one Kafka partition: what one Spark partition reads."""

    topic: str
    partition: int
    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


# -- Spark's JSON offset form --------------------------------------------------------------

def to_json_offsets(offsets: Mapping[Tuple[str, int], int]) -> Dict[str, Dict[str, int]]:
    """``{(topic, partition): offset}`` into ``{"topic": {"partition": offset}}``."""
    out: Dict[str, Dict[str, int]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        out.setdefault(topic, {})[str(partition)] = int(offset)
    return out


def from_json_offsets(value: Mapping[str, Mapping[str, Any]]) -> Offsets:
    """The inverse of :func:`to_json_offsets`."""
    return {(topic, int(partition)): int(offset) for topic, parts in value.items()
            for partition, offset in parts.items()}


# -- driver-side lookups -------------------------------------------------------------------

class OffsetReader:
    """Partition discovery and offset lookups for one query, on the driver.

    Holds a client (sockets): create it on the driver only and close it when
    done; never keep it on an object that Spark pickles.
    """

    def __init__(self, options: SourceOptions) -> None:
        self.options = options
        config = {k: v for k, v in options.client.items() if k in CLIENT_CONFIG}
        config.setdefault("request_timeout_ms", 30000)
        self.timeout_ms = config["request_timeout_ms"]
        self.read_committed = options.client.get("isolation_level") == "read_committed"
        self.client = RoutingClient(**config)
        self._looked_up = False
        self._fetcher = Fetcher(self.client, SubscriptionState(),
                                isolation_level=options.client.get("isolation_level", "read_uncommitted"))

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> "OffsetReader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _retrying(self, lookup: Callable[[], T]) -> T:
        """``lookup()``, tried again on a retriable error as ``fetchOffset.numRetries`` /
        ``fetchOffset.retryIntervalMs`` say (Spark's defaults: 3 retries, 10 ms apart)."""
        attempt = 0
        while True:
            try:
                return lookup()
            except errors.KafkaError as exc:
                if not exc.retriable or attempt >= self.options.fetch_offset_retries:
                    raise
                attempt += 1
                time.sleep(self.options.fetch_offset_retry_interval_ms / 1000.0)

    def partitions(self) -> List[Tuple[str, int]]:
        """The partitions the query reads now (topics that do not exist contribute none)."""
        return self._retrying(self._partitions)

    def _partitions(self) -> List[Tuple[str, int]]:
        opts = self.options
        if opts.assign is not None:
            return sorted(set(opts.assign))
        if opts.subscribe is not None:
            topics = list(opts.subscribe)
            if self._looked_up:
                # Streaming triggers must see partitions added since: ask for a
                # refresh without waiting for it (the lookups that follow do the
                # I/O), so new partitions show up at the next trigger.
                self.client.request_metadata_update()
            self.client.ensure_topics(topics, timeout_ms=self.timeout_ms)
            self._looked_up = True
        else:
            assert opts.pattern is not None
            self.client.track_all_topics()
            self.client.refresh_metadata(self.timeout_ms)
            regex = re.compile(opts.pattern)
            topics = [t for t in self.client.cluster.topics(True) if regex.fullmatch(t)]
        found = []
        for topic in topics:
            for partition in self.client.cluster.partitions_for_topic(topic) or ():
                found.append((topic, partition))
        return sorted(found)

    def _list(self, timestamps: Mapping[Tuple[str, int], int]) -> Dict[Tuple[str, int], Optional[int]]:
        if not timestamps:
            return {}
        found = self._retrying(lambda: self._fetcher.list_offsets(
            {TopicPartition(*tp): ts for tp, ts in timestamps.items()}, self.timeout_ms))
        return {tp: (found[TopicPartition(*tp)].offset if TopicPartition(*tp) in found else None)
                for tp in timestamps}

    def earliest(self, partitions: Iterable[Tuple[str, int]]) -> Offsets:
        """Log start offset of each partition."""
        found = self._list({tp: EARLIEST for tp in partitions})
        return {tp: offset if offset is not None else 0 for tp, offset in found.items()}

    def latest(self, partitions: Iterable[Tuple[str, int]]) -> Offsets:
        """End offset of each partition (high watermark; last stable offset with read_committed).

        ListOffsets is asked first; then a Fetch from that offset reports the
        high watermark and the larger of the two wins. On a Kafka broker the
        two agree; some Kafka-compatible brokers (Tansu) answer ListOffsets
        with the start of the last batch, which would cut reads short.
        """
        parts = list(partitions)
        listed = self._list({tp: LATEST for tp in parts})
        base = {tp: offset if offset is not None else 0 for tp, offset in listed.items()}
        # No fallback to ListOffsets' answer when a watermark cannot be had:
        # on such a broker that would end the range one batch short, silently.
        marks = self._retrying(lambda: self._watermarks(base))
        return {tp: max(base[tp], marks[tp]) for tp in parts}

    def _watermarks(self, positions: Offsets) -> Offsets:
        """The high watermark (last stable offset with read_committed) of every partition of ``positions``.

        Raises for the first partition that has none: a RetriableError (which
        :meth:`_retrying` asks again after) unless the broker's error says
        that asking again cannot help.
        """
        if not positions:
            return {}
        cluster = self.client.cluster
        committed = self.read_committed

        def build(node: int, version: int, items: List[Tuple[TopicPartition, int]]) -> Any:
            wanted = [PartitionFetch(tp.topic, tp.partition, offset, 1, cluster.leader_epoch_for_partition(tp))
                      for tp, offset in items]
            return build_fetch_request(wanted, topic_ids.ids_by_name(cluster, (p.topic for p in wanted)),
                                       max_wait_ms=10, min_bytes=1, max_bytes=1, isolation_level=int(committed))

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, int]]:
            names = {cluster.topic_id(t): t for t, _ in positions}
            out: Dict[Tuple[str, int], Tuple[int, int]] = {}
            for topic_response in response.responses:
                topic = topic_response.topic or names.get(topic_response.topic_id)
                if topic is None:
                    continue  # an id we did not ask about
                for part in topic_response.partitions:
                    mark = part.last_stable_offset if committed and part.last_stable_offset >= 0 \
                        else part.high_watermark
                    out[(topic, part.partition_index)] = (part.error_code, mark)
            return out

        items = [(TopicPartition(*tp), offset) for tp, offset in positions.items()]
        outcomes = self.client.dispatch_by_leader(FETCH, items, build, parse, timeout_ms=self.timeout_ms)
        marks = {}
        for (tp, _), outcome in zip(items, outcomes):
            error = outcome.error
            if error is None and outcome.value is not None and outcome.value >= 0:
                marks[(tp.topic, tp.partition)] = outcome.value
                continue
            where = "kafkawire: no high watermark for %s-%d" % (tp.topic, tp.partition)
            # A ProtocolError here is mostly an answer that left the partition
            # out, which a broker may do now and then: worth asking again.
            if error is None or getattr(error, "retriable", False) or isinstance(error, errors.ProtocolError):
                raise errors.RetriableError("%s yet: %s" % (where, error or "the answer had none")) from error
            raise errors.KafkaError("%s: %s" % (where, error)) from error
        return marks

    def by_timestamp(self, timestamps: Mapping[Tuple[str, int], int]) -> Dict[Tuple[str, int], Optional[int]]:
        """First offset whose timestamp is at least the one given (None when there is none)."""
        return self._list(timestamps)

    # -- resolving a query's start and end --------------------------------------------------

    def resolve(self, spec: OffsetSpec, ts_spec: Optional[TimestampSpec], partitions: List[Tuple[str, int]],
                what: str) -> Offsets:
        """Offsets of ``partitions`` for a starting (``what='starting'``) or ending spec.

        Timestamps win over offsets, as in Spark. A timestamp matching no
        record means: the end of the partition for an ending spec; for a
        starting spec, an error unless ``startingOffsetsByTimestampStrategy``
        is ``latest``.
        """
        if ts_spec is not None:
            return self._resolve_timestamps(ts_spec, partitions, what)
        wanted: Dict[Tuple[str, int], int] = {}
        if isinstance(spec, int):
            wanted = {tp: spec for tp in partitions}
        else:
            missing = [tp for tp in partitions if tp not in spec]
            if missing and what == "starting" and self.options.assign is None and self.options.pattern is None:
                # Spark requires every subscribed partition in a JSON spec.
                raise errors.KafkaConfigurationError(
                    "kafkawire: startingOffsets does not name %s" % ", ".join("%s-%d" % tp for tp in missing))
            for tp in partitions:
                wanted[tp] = spec.get(tp, EARLIEST if what == "starting" else LATEST)
        out: Offsets = {}
        earliest = [tp for tp, o in wanted.items() if o == EARLIEST]
        latest = [tp for tp, o in wanted.items() if o == LATEST]
        out.update(self.earliest(earliest))
        out.update(self.latest(latest))
        out.update({tp: o for tp, o in wanted.items() if o >= 0})
        return out

    def _resolve_timestamps(self, ts_spec: TimestampSpec, partitions: List[Tuple[str, int]], what: str) -> Offsets:
        if ts_spec.per_partition is not None:
            missing = [tp for tp in partitions if tp not in ts_spec.per_partition]
            if missing:
                raise errors.KafkaConfigurationError(
                    "kafkawire: %sOffsetsByTimestamp does not name %s"
                    % (what, ", ".join("%s-%d" % tp for tp in missing)))
            wanted = {tp: ts_spec.per_partition[tp] for tp in partitions}
        else:
            assert ts_spec.all_partitions is not None
            wanted = {tp: ts_spec.all_partitions for tp in partitions}
        found = self.by_timestamp(wanted)
        unmatched = [tp for tp, offset in found.items() if offset is None]
        if unmatched and what == "starting" and self.options.starting_ts_strategy == "error":
            raise errors.OffsetOutOfRangeError(
                "kafkawire: no record at or after the starting timestamp in %s (set "
                "startingOffsetsByTimestampStrategy=latest to start at the end instead)"
                % ", ".join("%s-%d" % tp for tp in unmatched))
        ends = self.latest(unmatched)
        return {tp: offset if offset is not None else ends[tp] for tp, offset in found.items()}


# -- pure planning -------------------------------------------------------------------------

def _split(r: OffsetRange, parts: int) -> List[OffsetRange]:
    """``r`` cut into ``parts`` nearly equal non-empty pieces."""
    out = []
    remaining, begin = r.size, r.start
    for index in range(parts):
        share = remaining // (parts - index)
        remaining -= share
        stop = min(begin + share, r.end)
        if stop > begin:
            out.append(OffsetRange(r.topic, r.partition, begin, stop))
        begin = stop
    return out


def plan_ranges(start: Mapping[Tuple[str, int], int], end: Mapping[Tuple[str, int], int],
                min_partitions: Optional[int] = None,
                max_records_per_partition: Optional[int] = None) -> List[OffsetRange]:
    """Non-empty ranges from ``start`` to ``end`` per partition, split to reach ``min_partitions``.

    As Spark's connector does: a range holding more than
    ``max_records_per_partition`` records is first cut into that many
    records or fewer; then, when there are fewer ranges than
    ``min_partitions``, each range is cut into pieces in proportion to its
    share of all records (at least one piece each).
    """
    ranges = [OffsetRange(tp[0], tp[1], start[tp], end[tp]) for tp in sorted(end) if tp in start]
    ranges = [r for r in ranges if r.size > 0]
    if max_records_per_partition:
        ranges = [piece for r in ranges for piece in _split(r, -(-r.size // max_records_per_partition))]
    if not min_partitions or len(ranges) >= min_partitions:
        return ranges
    total = sum(r.size for r in ranges)
    out: List[OffsetRange] = []
    for r in ranges:
        out.extend(_split(r, max(int(r.size / total * min_partitions + 0.5), 1)))
    return out


def rate_limit(limit: int, start: Mapping[Tuple[str, int], int],
               latest: Mapping[Tuple[str, int], int]) -> Offsets:
    """End offsets reading at most about ``limit`` records, prorated by each partition's backlog.

    Spark's rule: each partition gets ``limit * backlog / total`` records,
    rounded down, but a share under one record is rounded up so that small
    partitions are not starved.
    """
    sizes = {tp: end - start[tp] for tp, end in latest.items() if tp in start and end - start[tp] > 0}
    total = float(sum(sizes.values()))
    if total < 1:
        return dict(latest)
    out: Offsets = {}
    for tp, end in latest.items():
        if tp not in sizes:
            out[tp] = end
            continue
        share = limit * (sizes[tp] / total)
        whole = int(share) if share >= 1 else 1
        out[tp] = min(end, start[tp] + whole)
    return out
