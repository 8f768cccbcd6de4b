"""kafka-python 3's group methods: its names, arguments and result shapes."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from kafka import errors
from kafka.admin.groups import _COORDINATOR_MOVED, GroupsMixin, _group_ids, check_group_id
from kafka.admin.kafka_python.shapes import authorized_operations, plain
from kafka.errors import ProtocolError
from kafka.protocol.apis import DESCRIBE_GROUPS, LEAVE_GROUP
from kafka.protocol.apis.groups import decode_assignment, decode_subscription
from kafka.structs import OffsetAndMetadata, TopicPartition


class MemberToRemove:
    """A member for :meth:`~kafka.admin.KafkaAdminClient.remove_group_members`.

    Give ``member_id`` (a dynamic member) or ``group_instance_id`` (a
    static member); ``reason`` is sent to brokers that take one (LeaveGroup
    v5+).
    """

    __slots__ = ("member_id", "group_instance_id", "reason")

    def __init__(self, member_id: Optional[str] = None, group_instance_id: Optional[str] = None,
                 reason: Optional[str] = None) -> None:
        if not member_id and not group_instance_id:
            raise errors.IllegalArgumentError("MemberToRemove needs a member_id or a group_instance_id")
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason

    def _key(self) -> Any:
        return (self.member_id, self.group_instance_id, self.reason)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemberToRemove) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "MemberToRemove(member_id=%r, group_instance_id=%r, reason=%r)" % self._key()


def _decoded(data: Optional[bytes], decode: Any) -> Any:
    """A consumer-protocol payload as a dict; the bytes as they are when they are not one."""
    if not data:
        return data
    try:
        return plain(decode(data))
    except ProtocolError:
        return data


def _group_dict(group: Any) -> Dict[str, Any]:
    out = plain(group)
    code = out.pop("error_code")
    message = out.pop("error_message", None)
    consumer = (group.protocol_type or "") == "consumer"
    for member, raw in zip(out["members"], group.members):
        if consumer:
            member["member_metadata"] = _decoded(raw.member_metadata, decode_subscription)
            member["member_assignment"] = _decoded(raw.member_assignment, decode_assignment)
    out["authorized_operations"] = authorized_operations(out.get("authorized_operations"))
    cls = errors.for_code(code)
    out["error"] = str(cls(message or "")) if cls is not None else None
    return out


def _error_classes(results: Mapping[Any, Any]) -> Dict[Any, Any]:
    """``{key: error class}`` (``NoError`` for success) from ``{key: None or exception}``."""
    return {key: errors.NoError if outcome is None else type(outcome) for key, outcome in results.items()}


class KafkaPythonGroups(GroupsMixin):
    """``list_groups``, ``describe_groups``, ``delete_groups``, the ``*_group_offsets`` methods
    and ``remove_group_members``."""

    def list_groups(self, broker_ids: Optional[Sequence[int]] = None, states_filter: Optional[Sequence[str]] = None,
                    types_filter: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
        """Every group of the cluster (or of ``broker_ids``) as kafka-python lists them.

        Each is a dict with ``group_id``, ``protocol_type``, ``group_state``
        and ``group_type`` (empty strings when the broker does not report
        them). ``states_filter`` and ``types_filter`` keep the groups whose
        state or type is listed (compared case-insensitively).
        """
        groups = self.list_consumer_groups(broker_ids)
        if states_filter:
            states = {str(s).lower().replace("_", "") for s in states_filter}
            groups = [g for g in groups if g.state.lower() in states]
        if types_filter:
            types = {str(t).lower() for t in types_filter}
            groups = [g for g in groups if g.group_type.lower() in types]
        return [{"group_id": g.group_id, "protocol_type": g.protocol_type, "group_state": g.state,
                 "group_type": g.group_type} for g in groups]

    def describe_groups(self, group_ids: Sequence[str], group_coordinator_id: Optional[int] = None,
                        include_authorized_operations: bool = False) -> Dict[str, Dict[str, Any]]:
        """``{group_id: description dict}`` as kafka-python gives it.

        Each dict has ``group_id``, ``group_state``, ``protocol_type``,
        ``protocol_data``, ``members`` (dicts with ``member_id``,
        ``group_instance_id``, ``client_id``, ``client_host`` and, for
        consumer groups, ``member_metadata`` / ``member_assignment`` decoded
        as dicts), ``authorized_operations`` (names; always asked for, as
        kafka-python does) and ``error`` (None, or the error's text). The
        coordinator is always looked up; ``group_coordinator_id`` and
        ``include_authorized_operations`` are accepted and ignored.
        """
        out: Dict[str, Dict[str, Any]] = {}
        for group_id in _group_ids(group_ids, "describe_groups"):
            def build(version: int, group_id: str = group_id) -> Any:
                # kafka-python always asks (its keyword is not looked at); so do we.
                return DESCRIBE_GROUPS.Request(groups=[group_id], include_authorized_operations=True)

            def moved(response: Any) -> int:
                code = response.groups[0].error_code if response.groups else 0
                return code if code in _COORDINATOR_MOVED else 0

            _, response = self._to_coordinator(group_id, DESCRIBE_GROUPS, build, moved)
            for group in response.groups:
                out[group.group_id] = _group_dict(group)
        return out

    def delete_groups(self, group_ids: Sequence[str],
                      group_coordinator_id: Optional[int] = None) -> Dict[str, str]:
        """Delete groups: ``{group_id: 'OK' or the error class's name}``, as kafka-python."""
        result = self.delete_consumer_groups(group_ids, raise_error=False)
        return {group: "OK" if outcome is None else type(outcome).__name__ for group, outcome in result.items()}

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
        return {group: self.list_consumer_group_offsets(group, partitions)
                for group, partitions in specs.items()}

    def alter_group_offsets(self, group_id: str, offsets: Mapping[TopicPartition, Union[int, OffsetAndMetadata]],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Any]:
        """Set committed offsets: ``{TopicPartition: error class}``, ``NoError`` for success."""
        if not offsets:
            return {}
        return _error_classes(self.alter_consumer_group_offsets(group_id, offsets, raise_error=False))

    def delete_group_offsets(self, group_id: str, partitions: Sequence[TopicPartition],
                             group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Any]:
        """Delete committed offsets: ``{TopicPartition: error class}``, ``NoError`` for success.

        A group-level failure (unknown group, group still consuming) raises.
        """
        if not partitions:
            return {}
        return _error_classes(self.delete_consumer_group_offsets(group_id, partitions, raise_error=False))

    def remove_group_members(self, group_id: str, members: Sequence[MemberToRemove],
                             group_coordinator_id: Optional[int] = None) -> Dict[MemberToRemove, Any]:
        """Remove members from a group (LeaveGroup v3+, one request).

        Returns ``{MemberToRemove: error class}`` (``NoError`` for success);
        a group-level error raises.
        """
        check_group_id(group_id)
        wanted = list(members)
        if not wanted:
            return {}
        if not all(isinstance(m, MemberToRemove) for m in wanted):
            raise errors.IllegalArgumentError("remove_group_members takes MemberToRemove objects")
        R = LEAVE_GROUP.Request

        def build(version: int) -> Any:
            if version < 3:
                raise errors.UnsupportedVersionError("removing members needs LeaveGroup v3+ (Kafka 2.4+)")
            return R(group_id=group_id, members=[
                R.MemberIdentity(member_id=m.member_id or "", group_instance_id=m.group_instance_id,
                                 reason=m.reason) for m in wanted])

        _, response = self._to_coordinator(group_id, LEAVE_GROUP, build, lambda r: r.error_code)
        answered = {(m.member_id or None, m.group_instance_id): m.error_code for m in response.members}
        out: Dict[MemberToRemove, Any] = {}
        for m in wanted:
            code = answered.get((m.member_id or None, m.group_instance_id))
            if code is None:
                code = next((c for (mid, iid), c in answered.items()
                             if (m.member_id and mid == m.member_id) or
                             (m.group_instance_id and iid == m.group_instance_id)), None)
            out[m] = errors.ProtocolError if code is None else errors.for_code(code) or errors.NoError
        return out


__all__ = ["KafkaPythonGroups", "MemberToRemove"]
