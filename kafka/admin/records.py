"""Partition-level operations routed to each partition's leader: delete records, list offsets."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from kafka import errors
from kafka.admin.base import AdminBase
from kafka.admin.resources import check_partitions
from kafka.admin.results import DeletedRecords, finish
from kafka.protocol.apis import DELETE_RECORDS, LIST_OFFSETS
from kafka.protocol.list_offsets import OffsetQuery, list_offsets_request, listed_offsets
from kafka.structs import OffsetAndTimestamp, TopicPartition

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

    def list_offsets(self, specs: Mapping[TopicPartition, int], isolation_level: int = 0,
                     timeout_ms: Optional[float] = None, *,
                     raise_error: bool = True) -> Dict[TopicPartition, Any]:
        """Look offsets up: ``{TopicPartition: timestamp or OffsetSpec}`` -> ``{TopicPartition: OffsetAndTimestamp}``.

        A spec is a timestamp in ms (the first offset at or after it) or an
        :class:`~kafka.enums.OffsetSpec` value (-2 earliest, -1 latest, -3
        max timestamp, ...). Each result carries the offset, the timestamp of
        that record and the leader epoch the leader answered with (-1 where
        nothing matched or the broker does not say). ``isolation_level`` 1
        (``read_committed``) answers the last stable offset for latest. Each
        partition goes to its leader, retried on retriable errors within
        ``timeout_ms`` (default ``request_timeout_ms``); failures are reported
        per partition (see ``raise_error`` in :class:`KafkaAdminClient`).
        """
        parts = check_partitions(list(specs), "list_offsets")
        for tp, spec in zip(parts, specs.values()):
            if isinstance(spec, bool) or not isinstance(spec, int):
                raise errors.IllegalArgumentError("list_offsets: %s-%d maps to %r, not a timestamp or OffsetSpec"
                                                  % (tp.topic, tp.partition, spec))
        checked = {tp: int(spec) for tp, spec in zip(parts, specs.values())}
        return finish("list_offsets", self._offsets_found(checked, isolation_level, timeout_ms), raise_error)

    def _offsets_found(self, specs: Mapping[TopicPartition, int], isolation_level: int = 0,
                       timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Any]:
        """``{partition: OffsetAndTimestamp or exception}`` for ``{partition: timestamp or special value}``."""
        parts = list(specs)
        if not parts:
            return {}

        def build(node: int, version: int, batch: List[Tuple[TopicPartition, Any]]) -> Any:
            return list_offsets_request([OffsetQuery(tp.topic, tp.partition, ts) for tp, ts in batch],
                                        isolation_level)

        def parse(response: Any) -> Dict[Tuple[str, int], Tuple[int, Any]]:
            return {key: (found.error_code, OffsetAndTimestamp(found.offset, found.timestamp, found.leader_epoch))
                    for key, found in listed_offsets(response).items()}

        self._check_open()
        outcomes = self._client.dispatch_by_leader(LIST_OFFSETS, [(tp, specs[tp]) for tp in parts], build, parse,
                                                   timeout_ms=timeout_ms)
        return {tp: (o.error if o.error is not None else o.value) for tp, o in zip(parts, outcomes)}

    def _list_offsets_and_times(self, specs: Mapping[TopicPartition, int], what: str,
                                isolation_level: int = 0) -> Dict[TopicPartition, OffsetAndTimestamp]:
        return finish(what, self._offsets_found(specs, isolation_level), True)

    def _list_offsets(self, partitions: Sequence[TopicPartition], timestamp: int,
                      what: str) -> Dict[TopicPartition, int]:
        found = self._list_offsets_and_times({tp: timestamp for tp in check_partitions(partitions, what)}, what)
        return {tp: o.offset for tp, o in found.items()}

    def beginning_offsets(self, partitions: Sequence[TopicPartition]) -> Dict[TopicPartition, int]:
        """The log start offset of each partition."""
        return self._list_offsets(partitions, EARLIEST, "beginning_offsets")

    def end_offsets(self, partitions: Sequence[TopicPartition]) -> Dict[TopicPartition, int]:
        """The log end offset (high watermark) of each partition."""
        return self._list_offsets(partitions, LATEST, "end_offsets")
