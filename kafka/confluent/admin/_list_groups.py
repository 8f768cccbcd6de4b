"""confluent-kafka's deprecated ``list_groups()``: every group with its members' raw metadata.

As librdkafka does, each broker is asked for the groups it coordinates
(ListGroups) and then to describe them (DescribeGroups); members keep their
protocol metadata and assignment as the bytes the broker sent.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from kafka.admin import KafkaAdminClient, RawGroupDescription
from kafka.confluent.admin._types import GroupMember, GroupMetadata
from kafka.confluent._metadata import BrokerMetadata
from kafka.confluent.kafka_error import KafkaError


def list_groups(engine: KafkaAdminClient, group: Optional[str], timeout_ms: float) -> List[GroupMetadata]:
    """The groups of the cluster (only ``group`` when given), described by the broker that listed them."""
    by_node: Dict[int, List[str]] = {}
    for listing in engine.list_consumer_groups():
        if group is None or listing.group_id == group:
            by_node.setdefault(listing.coordinator, []).append(listing.group_id)
    out: List[GroupMetadata] = []
    for node, group_ids in sorted(by_node.items()):
        described = engine.describe_groups_at(node, group_ids, timeout_ms)
        broker = _broker(engine, node)
        out.extend(_group(d, broker) for d in described)
    return out


def _broker(engine: KafkaAdminClient, node: int) -> BrokerMetadata:
    broker = BrokerMetadata()
    broker.id = node
    found = engine.broker_metadata(node)
    if found is not None:
        broker.host, broker.port = found.host, found.port
    return broker


def _group(described: RawGroupDescription, broker: BrokerMetadata) -> GroupMetadata:
    group = GroupMetadata()
    group.broker = broker
    group.id = described.group_id
    group.error = KafkaError(described.error_code) if described.error_code else None
    group.state = described.state
    group.protocol_type = described.protocol_type
    group.protocol = described.protocol
    for m in described.members:
        member = GroupMember()
        member.id, member.client_id, member.client_host = m.member_id, m.client_id, m.client_host
        member.metadata, member.assignment = m.metadata, m.assignment
        group.members.append(member)
    return group


__all__ = ["list_groups"]
