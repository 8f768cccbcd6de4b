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

from typing import Any, Dict, Hashable, Iterable, Mapping, NamedTuple, Optional, Tuple

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


_COMBINED: Dict[Tuple[type, ...], type] = {}


def _error_class(failures: Iterable[BaseException]) -> type:
    """AdminResultError, made also a subclass of every failure's class.

    So ``except TopicAlreadyExistsError`` catches a ``create_topics`` that
    failed only for that reason, as it does with kafka-python, while the
    error still carries every resource's result.
    """
    classes = tuple(sorted({type(e) for e in failures if isinstance(e, Exception)},
                           key=lambda c: (c.__module__, c.__qualname__)))
    combined = _COMBINED.get(classes)
    if combined is None:
        try:
            combined = type("AdminResultError", (AdminResultError,) + classes,
                            {"__str__": KafkaError.__str__, "__module__": AdminResultError.__module__})
        except TypeError:  # classes that cannot be combined (layout or MRO conflict)
            combined = AdminResultError
        _COMBINED[classes] = combined
    return combined


def finish(operation: str, results: Dict[Any, Any], raise_error: bool) -> Dict[Any, Any]:
    """Return ``results``, or raise :class:`AdminResultError` if any value is an exception.

    The error raised is also an instance of each failure's class (see
    :func:`_error_class`).
    """
    if raise_error:
        failures = [v for v in results.values() if isinstance(v, BaseException)]
        if failures:
            raise _error_class(failures)(operation, results)
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


class RawMemberDescription(NamedTuple):
    """A group member with its protocol metadata and assignment as the bytes the broker sent."""

    member_id: str
    client_id: str
    client_host: str
    metadata: bytes
    assignment: bytes


class RawGroupDescription(NamedTuple):
    """A group as one broker's DescribeGroups answers it: its error code (0 for none), nothing decoded."""

    group_id: str
    error_code: int
    state: str
    protocol_type: str
    protocol: str
    members: Tuple[RawMemberDescription, ...]


class DeletedRecords(NamedTuple):
    """The new log start offset (low watermark) of a partition after DeleteRecords."""

    low_watermark: int


__all__ = ["AdminResultError", "TopicDescription", "ClusterDescription", "GroupListing", "MemberDescription",
           "GroupDescription", "RawMemberDescription", "RawGroupDescription", "DeletedRecords"]

