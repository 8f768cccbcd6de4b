"""Partition-level operations routed to each partition's leader: delete records, list offsets."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from kafka import errors
from kafka.admin.base import AdminBase
from kafka.admin.resources import check_partitions
from kafka.admin.results import DeletedRecords, finish
from kafka.protocol.apis import DELETE_RECORDS, LIST_OFFSETS
from kafka.structs import TopicPartition

EARLIEST, LATEST = -2, -1


class RecordsMixin(AdminBase):
    """Operations sent to partition leaders."""

    def delete_records(self, records_to_delete: Mapping[TopicPartition, int], timeout_ms: Optional[float] = None,
                       partition_leader_id: Optional[int] = None, *,
                       raise_error: bool = True) -> Dict[TopicPartition, Any]:
        """Delete every record before an offset: ``{TopicPartition: offset}`` (-1: up to the high watermark).

        Returns ``{TopicPartition: DeletedRecords(low_watermark)}``; failures
        (e.g. :class:`~kafka.errors.OffsetOutOfRangeError` past the end) are
        reported per partition. Each partition goes to its current leader;
        with ``partition_leader_id`` (kafka-python's argument) all of them go
        to that broker in one request, without retries, and its answer for
        each partition is the result.
        """
        if not isinstance(records_to_delete, Mapping) or not records_to_delete:
            raise errors.IllegalArgumentError("delete_records takes a non-empty {TopicPartition: offset} mapping")
        parts = check_partitions(list(records_to_delete), "delete_records")
        items: List[Tuple[TopicPartition, Any]] = []
        for tp, offset in zip(parts, records_to_delete.values()):
            if isinstance(offset, bool) or not isinstance(offset, int) or offset < -1:
                raise errors.IllegalArgumentError("delete_records: %s-%d needs an offset >= 0 (or -1), got %r"
                                                  % (tp.topic, tp.partition, offset))
            items.append((tp, offset))
        broker_timeout = int(self.config["request_timeout_ms"] if timeout_ms is None else timeout_ms)
        R = DELETE_RECORDS.Request
        T = R.DeleteRecordsTopic

        def build(node: int, version: int, batch: List[Tuple[TopicPartition, Any]]) -> Any:
            topics: Dict[str, List[Any]] = {}
            for tp, offset in batch:
                topics.setdefault(tp.topic, []).append(T.DeleteRecordsPartition(partition_index=tp.partition,
                                                                                 offset=offset))
            return R(topics=[T(name=t, partitions=ps) for t, ps in topics.items()], timeout_ms=broker_timeout)

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            return {(t.name, p.partition_index): (p.error_code, DeletedRecords(p.low_watermark))
                    for t in response.topics for p in t.partitions}

        self._check_open()
        if partition_leader_id is not None:
            deadline = self._deadline(broker_timeout + self.config["request_timeout_ms"])
            answer = parse(self._send_to_node(partition_leader_id, DELETE_RECORDS,
                                              lambda version: build(partition_leader_id, version, items), deadline))
            results: Dict[TopicPartition, Any] = {}
            for tp, _ in items:
                code, value = answer.get((tp.topic, tp.partition), (3, None))  # UNKNOWN_TOPIC_OR_PARTITION
                error_cls = errors.for_code(code)
                results[tp] = value if error_cls is None else error_cls("%s-%d" % (tp.topic, tp.partition))
            return finish("delete_records", results, raise_error)
        outcomes = self._client.dispatch_by_leader(DELETE_RECORDS, items, build, parse,
                                                   timeout_ms=broker_timeout + self.config["request_timeout_ms"])
        results = {tp: (o.error if o.error is not None else o.value) for (tp, _), o in zip(items, outcomes)}
        return finish("delete_records", results, raise_error)

    def _list_offsets(self, partitions: Sequence[TopicPartition], timestamp: int,
                      what: str) -> Dict[TopicPartition, int]:
        found = self._list_offsets_and_times({tp: timestamp for tp in check_partitions(partitions, what)}, what)
        return {tp: offset for tp, (offset, _) in found.items()}

    def _list_offsets_and_times(self, specs: Mapping[TopicPartition, int], what: str,
                                isolation_level: int = 0) -> Dict[TopicPartition, Tuple[int, int]]:
        """``{partition: (offset, timestamp)}`` for ``{partition: timestamp or special value}``."""
        parts = list(specs)
        if not parts:
            return {}
        R = LIST_OFFSETS.Request

        def build(node: int, version: int, batch: List[Tuple[TopicPartition, Any]]) -> Any:
            topics: Dict[str, List[Any]] = {}
            for tp, ts in batch:
                topics.setdefault(tp.topic, []).append(R.ListOffsetsTopic.ListOffsetsPartition(
                    partition_index=tp.partition, timestamp=ts))
            return R(replica_id=-1, isolation_level=isolation_level,
                     topics=[R.ListOffsetsTopic(name=t, partitions=ps) for t, ps in topics.items()])

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            out = {}
            for t in response.topics:
                for p in t.partitions:
                    # v0 answers a list of offsets, later versions one offset.
                    offset = p.old_style_offsets[0] if p.old_style_offsets else p.offset
                    out[(t.name, p.partition_index)] = (p.error_code, (offset, getattr(p, "timestamp", -1)))
            return out

        self._check_open()
        outcomes = self._client.dispatch_by_leader(LIST_OFFSETS, [(tp, specs[tp]) for tp in parts], build, parse)
        results = {tp: (o.error if o.error is not None else o.value) for tp, o in zip(parts, outcomes)}
        return finish(what, results, True)

    def beginning_offsets(self, partitions: Sequence[TopicPartition]) -> Dict[TopicPartition, int]:
        """The log start offset of each partition."""
        return self._list_offsets(partitions, EARLIEST, "beginning_offsets")

    def end_offsets(self, partitions: Sequence[TopicPartition]) -> Dict[TopicPartition, int]:
        """The log end offset (high watermark) of each partition."""
        return self._list_offsets(partitions, LATEST, "end_offsets")
