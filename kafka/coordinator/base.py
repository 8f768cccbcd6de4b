"""kafka-python's ``kafka.coordinator.base`` path: the group member states.

kafkawire's group coordinator lives in :mod:`kafka.consumer.group`; its
``state`` attribute and ``KafkaConsumer.group_metadata().state`` report the
:class:`~kafka.structs.MemberState` values defined there and re-exported here.
"""

from kafka.structs import MemberState

__all__ = ["MemberState"]
