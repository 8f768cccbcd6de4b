"""Consumer groups: the group coordinator client and the partition assignors.

:class:`~kafka.consumer.group.coordinator.ConsumerCoordinator` keeps a
consumer in its group (classic JoinGroup/SyncGroup/Heartbeat or KIP-848
ConsumerGroupHeartbeat), commits and fetches offsets, and calls the
rebalance listener. :mod:`kafka.group.assignors` holds the
client-side assignors of the classic protocol.
"""

from kafka.consumer.group.common import CommitFailedError, GroupMetadata

__all__ = ["CommitFailedError", "ConsumerCoordinator", "GroupMetadata"]


def __getattr__(name: str):  # the coordinator pulls in the client: import it on first use
    if name == "ConsumerCoordinator":
        from kafka.consumer.group.coordinator import ConsumerCoordinator
        return ConsumerCoordinator
    raise AttributeError(name)
