"""kafka-python 3's admin method names and arguments, on top of kafkawire's admin operations.

The methods here translate arguments (topic names or option dicts for
``create_topics``, ``raise_errors`` for ``raise_error``) and delegate to the
operations of the other mixins.  Results keep kafkawire's shapes (maps of
resource to result) except where noted; ``docs/compatibility.rst`` lists
the differences.
"""

from __future__ import annotations

import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from kafka import errors
from kafka.admin.resources import NewTopic
from kafka.structs import OffsetAndMetadata, OffsetAndTimestamp, TopicPartition
from kafka.topic_names import check_topic_partition


def _raise(raise_error: bool, raise_errors: Optional[bool]) -> bool:
    return raise_error if raise_errors is None else bool(raise_errors)


def _new_topics(new_topics: Any) -> List[NewTopic]:
    """NewTopic objects for kafka-python 3's inputs: names, ``{name: options}`` or NewTopic objects."""
    if isinstance(new_topics, (str, NewTopic)):
        new_topics = [new_topics]
    if isinstance(new_topics, Mapping):
        out = []
        for name, options in new_topics.items():
            options = dict(options or {})
            out.append(NewTopic(name, options.pop("num_partitions", -1), options.pop("replication_factor", -1),
                                replica_assignments=options.pop("assignments", None),
                                topic_configs=options.pop("configs", None)))
            if options:
                raise errors.IllegalArgumentError("create_topics: unknown options for %s: %s"
                                                  % (name, ", ".join(sorted(options))))
        return out
    return [NewTopic(t) if isinstance(t, str) else t for t in new_topics]


class KafkaPythonAdminMixin:
    """kafka-python 3's method names; mixed in before the operation mixins."""

    # -- topics --------------------------------------------------------------------------

    def create_topics(self, new_topics: Any, timeout_ms: Optional[float] = None, validate_only: bool = False,
                      raise_errors: Optional[bool] = None, wait_for_metadata: bool = False,
                      raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Create topics given as NewTopic objects, names, or ``{name: options}``.

        ``options`` keys are kafka-python 3's: ``num_partitions``,
        ``replication_factor``, ``assignments`` and ``configs``.
        ``raise_errors`` is kafka-python's name for ``raise_error``;
        ``wait_for_metadata`` waits (up to ``timeout_ms`` or 10 s) until the
        new topics have a leader for every partition.
        """
        if validate_only and wait_for_metadata:
            raise errors.IllegalArgumentError("validate_only and wait_for_metadata exclude each other")
        topics = _new_topics(new_topics)
        result = super().create_topics(topics, timeout_ms, validate_only,  # type: ignore[misc]
                                       raise_error=_raise(raise_error, raise_errors))
        if wait_for_metadata:
            created = [name for name, outcome in result.items() if outcome is None]
            self.wait_for_topics(created, timeout_ms if timeout_ms is not None else 10000)
        return result

    def delete_topics(self, topics: Sequence[str], timeout_ms: Optional[float] = None,
                      raise_errors: Optional[bool] = None,
                      raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Delete topics (``raise_errors``: kafka-python's name for ``raise_error``)."""
        return super().delete_topics(topics, timeout_ms,  # type: ignore[misc]
                                     raise_error=_raise(raise_error, raise_errors))

    def create_partitions(self, topic_partitions: Mapping[str, Any], timeout_ms: Optional[float] = None,
                          validate_only: bool = False, raise_errors: Optional[bool] = None,
                          raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Add partitions (``raise_errors``: kafka-python's name for ``raise_error``)."""
        return super().create_partitions(topic_partitions, timeout_ms,  # type: ignore[misc]
                                         validate_only, raise_error=_raise(raise_error, raise_errors))

    def wait_for_topics(self, topic_names: Sequence[str], timeout_ms: float = 10000) -> None:
        """Block until every topic is described with a leader for each partition.

        Raises :class:`~kafka.errors.KafkaTimeoutError` when some topic is
        still not ready after ``timeout_ms``.
        """
        names = list(topic_names)
        if not names:
            return
        deadline = time.monotonic() + timeout_ms / 1000.0
        pending: Dict[str, str] = {}
        while True:
            found = self.describe_topics(names, raise_error=False)  # type: ignore[attr-defined]
            pending = {}
            for name in names:
                description = found.get(name)
                if description is None or isinstance(description, BaseException):
                    pending[name] = repr(description)
                elif not description.partitions or any(p.leader < 0 or p.error for p in description.partitions):
                    pending[name] = "a partition has no leader yet"
            if not pending:
                return
            if time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("topics not ready after %s ms: %s" % (
                    timeout_ms, "; ".join("%s (%s)" % item for item in sorted(pending.items()))))
            time.sleep(0.1)

    # -- offsets -------------------------------------------------------------------------

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
        found = self._list_offsets_and_times(specs, "list_partition_offsets",  # type: ignore[attr-defined]
                                             int(isolation_level))
        return {tp: OffsetAndTimestamp(offset, timestamp) for tp, (offset, timestamp) in found.items()}

    def reset_group_offsets(self, group_id: str, offset_specs: Mapping[TopicPartition, int],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Any]:
        """Set a group's committed offsets from specs (as :meth:`list_partition_offsets`).

        Returns ``{TopicPartition: None or the error}``, as
        :meth:`alter_group_offsets`. The group must have no active members.
        """
        found = self.list_partition_offsets(offset_specs)
        return self.alter_group_offsets(group_id, {tp: found[tp].offset for tp in found})

    # -- groups --------------------------------------------------------------------------

    def list_groups(self, broker_ids: Optional[Sequence[int]] = None, states_filter: Optional[Sequence[str]] = None,
                    types_filter: Optional[Sequence[str]] = None) -> List[Any]:
        """:meth:`list_consumer_groups`, optionally filtered by state and group type (case-insensitive)."""
        groups = self.list_consumer_groups(broker_ids)  # type: ignore[attr-defined]
        if states_filter:
            states = {s.lower() for s in states_filter}
            groups = [g for g in groups if g.state.lower() in states]
        if types_filter:
            types = {t.lower() for t in types_filter}
            groups = [g for g in groups if g.group_type.lower() in types]
        return groups

    def describe_groups(self, group_ids: Sequence[str], group_coordinator_id: Optional[int] = None,
                        include_authorized_operations: bool = False) -> Dict[str, Any]:
        """:meth:`describe_consumer_groups`.

        The coordinator is always looked up, and authorized operations are
        not asked for: the two keywords are accepted and ignored.
        """
        return self.describe_consumer_groups(group_ids)  # type: ignore[attr-defined]

    def delete_groups(self, group_ids: Sequence[str],
                      group_coordinator_id: Optional[int] = None) -> List[Tuple[str, Any]]:
        """Delete groups; as kafka-python, a list of ``(group_id, error class)`` with ``NoError`` for success."""
        result = self.delete_consumer_groups(group_ids, raise_error=False)  # type: ignore[attr-defined]
        return [(group, errors.NoError if outcome is None else type(outcome)) for group, outcome in result.items()]

    def list_group_offsets(self, group_specs: Union[str, Sequence[str], Mapping[str, Any]]
                           ) -> Dict[str, Dict[TopicPartition, Any]]:
        """Committed offsets of groups: ``{group_id: {TopicPartition: OffsetAndMetadata}}``.

        ``group_specs``: a group id, a list of ids (every partition), or
        ``{group_id: [TopicPartition, ...] or None}``.
        """
        if isinstance(group_specs, str):
            specs: Dict[str, Any] = {group_specs: None}
        elif isinstance(group_specs, Mapping):
            specs = dict(group_specs)
        else:
            specs = {group: None for group in group_specs}
        return {group: self.list_consumer_group_offsets(group, partitions)  # type: ignore[attr-defined]
                for group, partitions in specs.items()}

    def alter_group_offsets(self, group_id: str, offsets: Mapping[TopicPartition, Union[int, OffsetAndMetadata]],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Any]:
        """:meth:`alter_consumer_group_offsets`; per-partition failures are returned, not raised."""
        return self.alter_consumer_group_offsets(group_id, offsets,  # type: ignore[attr-defined]
                                                 raise_error=False)

    def delete_group_offsets(self, group_id: str, partitions: Sequence[TopicPartition],
                             group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Any]:
        """:meth:`delete_consumer_group_offsets`; per-partition failures are returned, not raised."""
        return self.delete_consumer_group_offsets(group_id, partitions,  # type: ignore[attr-defined]
                                                  raise_error=False)


__all__ = ["KafkaPythonAdminMixin"]
