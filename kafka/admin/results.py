"""What the admin client returns: per-resource results and the descriptions it builds.

Operations on several resources (topics, groups, configs, partitions, ACLs)
succeed or fail *per resource*. Each such method returns a ``dict`` mapping
every requested resource to its result (``None`` when there is nothing more
to say than "done"). When one or more resources failed, the method raises
:class:`AdminResultError` (unless called with ``raise_error=False``, in which
case the failed resources map to their exception instead), which carries the
whole mapping: which resources succeeded, which failed and why.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, NamedTuple, Optional, Tuple

from kafka.errors import KafkaError
from kafka.structs import BrokerMetadata, PartitionMetadata, TopicPartition


class AdminResultError(KafkaError):
    """Some resources of an admin operation failed; the others succeeded.

    ``results`` maps every resource to its value, or to the exception (a
    :class:`~kafka.errors.KafkaError`) that made it fail; ``errors`` holds the
    failed ones only and ``succeeded`` the others.
    """

    def __init__(self, operation: str, results: Mapping[Hashable, Any]) -> None:
        self.operation = operation
        self.results: Dict[Hashable, Any] = dict(results)
        self.errors: Dict[Hashable, BaseException] = {k: v for k, v in self.results.items()
                                                      if isinstance(v, BaseException)}
        self.succeeded: Dict[Hashable, Any] = {k: v for k, v in self.results.items()
                                               if not isinstance(v, BaseException)}
        failed = "; ".join("%s: %s" % (_label(k), _error_text(v)) for k, v in self.errors.items())
        super().__init__("%s failed for %d of %d: %s" % (operation, len(self.errors), len(self.results), failed))


def _label(key: Any) -> str:
    if isinstance(key, TopicPartition):
        return "%s-%d" % key
    if isinstance(key, tuple) and len(key) == 2 and hasattr(key[0], "name"):
        return "%s %s" % (key[0].name, key[1])
    return str(key)


def _error_text(error: BaseException) -> str:
    name = type(error).__name__
    detail = " ".join(str(a) for a in error.args if a) if error.args else ""
    return "%s (%s)" % (name, detail) if detail else name


def finish(operation: str, results: Dict[Any, Any], raise_error: bool) -> Dict[Any, Any]:
    """Return ``results``, or raise :class:`AdminResultError` if any value is an exception."""
    if raise_error and any(isinstance(v, BaseException) for v in results.values()):
        raise AdminResultError(operation, results)
    return results


class TopicDescription(NamedTuple):
    """A topic as Metadata describes it; ``partitions`` is sorted by partition number."""

    name: str
    topic_id: Optional[Any]
    is_internal: bool
    partitions: Tuple[PartitionMetadata, ...]


class ClusterDescription(NamedTuple):
    """The cluster id, the controller's node id (or None) and the brokers, sorted by id."""

    cluster_id: Optional[str]
    controller_id: Optional[int]
    brokers: Tuple[BrokerMetadata, ...]


class GroupListing(NamedTuple):
    """One group as ListGroups reports it (state and type are empty when the broker omits them)."""

    group_id: str
    protocol_type: str
    state: str = ""
    group_type: str = ""
    coordinator: int = -1


class MemberDescription(NamedTuple):
    """A member of a described group and the partitions assigned to it (when decodable)."""

    member_id: str
    client_id: str
    client_host: str
    group_instance_id: Optional[str]
    assignment: Tuple[TopicPartition, ...]


class GroupDescription(NamedTuple):
    """A consumer group as DescribeGroups reports it."""

    group_id: str
    state: str
    protocol_type: str
    protocol: str
    members: Tuple[MemberDescription, ...]
    coordinator: int


class DeletedRecords(NamedTuple):
    """The new log start offset (low watermark) of a partition after DeleteRecords."""

    low_watermark: int


__all__ = ["AdminResultError", "TopicDescription", "ClusterDescription", "GroupListing", "MemberDescription",
           "GroupDescription", "DeletedRecords"]

