"""kafka-python 3's partition-offset methods: ``list_partition_offsets`` and ``reset_group_offsets``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence

from kafka import errors
from kafka.admin.records import RecordsMixin
from kafka.enums import OffsetSpec, OffsetTimestamp
from kafka.structs import OffsetAndMetadata, OffsetAndTimestamp, TopicPartition
from kafka.topic_names import check_topic_partition


class KafkaPythonOffsets(RecordsMixin):
    """Offsets by spec, and resetting a group's committed offsets."""

    if TYPE_CHECKING:
        # GroupsMixin's, a neighbour in KafkaAdminClient.
        def list_consumer_group_offsets(self, group_id: str, partitions: Optional[Sequence[TopicPartition]] = None,
                                        raise_error: bool = True) -> Dict[TopicPartition, Any]: ...

        def alter_consumer_group_offsets(self, group_id: str, offsets: Mapping[TopicPartition, Any],
                                         raise_error: bool = True) -> Dict[TopicPartition, Any]: ...

    def list_partition_offsets(self, topic_partition_specs: Mapping[TopicPartition, int],
                               isolation_level: int = 0,
                               timeout_ms: Optional[float] = None) -> Dict[TopicPartition, OffsetAndTimestamp]:
        """Offsets by spec: ``{TopicPartition: OffsetSpec or timestamp}`` -> ``{TopicPartition: OffsetAndTimestamp}``.

        A spec is an :class:`~kafka.enums.OffsetSpec` (``LATEST``,
        ``EARLIEST``, ``MAX_TIMESTAMP`` ...) or a timestamp in ms (the first
        offset at or after it). ``isolation_level`` 1 (``READ_COMMITTED``)
        gives the last stable offset for ``LATEST``. ``timeout_ms`` is
        accepted for kafka-python's sake; ``request_timeout_ms`` applies.
        """
        specs = {check_topic_partition(tp): int(spec) for tp, spec in topic_partition_specs.items()}
        found = self._list_offsets_and_times(specs, "list_partition_offsets", int(isolation_level))
        return {tp: OffsetAndTimestamp(o.offset, o.timestamp) for tp, o in found.items()}

    def reset_group_offsets(self, group_id: str, offset_specs: Mapping[TopicPartition, int],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Dict[str, Any]]:
        """Set a group's committed offsets, as kafka-python 3 does.

        Each value is an :class:`~kafka.enums.OffsetSpec`, an
        :class:`~kafka.enums.OffsetTimestamp` (resolved with ListOffsets) or
        a plain int (that offset). Every offset is clamped to the partition's
        ``[earliest, latest]`` range (one that resolves to nothing goes to
        latest); the committed metadata is kept. Returns ``{TopicPartition:
        {'error': error class, 'offset': the offset committed}}``. The group
        must have no active members.
        """
        if not offset_specs:
            return {}
        parts = [check_topic_partition(tp) for tp in offset_specs]
        for tp, spec in offset_specs.items():
            if isinstance(spec, bool) or not isinstance(spec, int):
                raise errors.IllegalArgumentError("reset_group_offsets: %s-%d maps to %r, not an OffsetSpec, "
                                                  "OffsetTimestamp or offset" % (tp.topic, tp.partition, spec))
        earliest = self._list_offsets_and_times({tp: int(OffsetSpec.EARLIEST) for tp in parts}, "reset_group_offsets")
        latest = self._list_offsets_and_times({tp: int(OffsetSpec.LATEST) for tp in parts}, "reset_group_offsets")
        lookups = {tp: int(spec) for tp, spec in offset_specs.items()
                   if isinstance(spec, (OffsetSpec, OffsetTimestamp))}
        looked_up = self._list_offsets_and_times(lookups, "reset_group_offsets")
        current = self.list_consumer_group_offsets(group_id, parts)
        plan: Dict[TopicPartition, OffsetAndMetadata] = {}
        for tp, spec in offset_specs.items():
            low, high = earliest[tp].offset, latest[tp].offset
            offset = looked_up[tp].offset if tp in looked_up else int(spec)
            offset = high if offset < 0 or offset > high else max(offset, low)
            old = current.get(tp)
            plan[tp] = OffsetAndMetadata(offset, old.metadata if isinstance(old, OffsetAndMetadata) else "", -1)
        outcome = self.alter_consumer_group_offsets(group_id, plan, raise_error=False)
        return {tp: {"error": errors.NoError if outcome[tp] is None else type(outcome[tp]),
                     "offset": plan[tp].offset} for tp in plan}


__all__ = ["KafkaPythonOffsets"]
