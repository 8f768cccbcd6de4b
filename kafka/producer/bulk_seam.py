"""What the bulk paths (:mod:`kafka.producer.bulk`, :mod:`kafka.producer.encoded`) use of a producer.

They queue many records at once on :class:`~kafka.producer.KafkaProducer`'s
own accumulator and sender, through the members listed here; typing them
against this protocol, not the producer class, keeps the producer the only
one of them that imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Tuple

from kafka.serializer import Conversion
from kafka.structs import TopicPartition

if TYPE_CHECKING:
    from kafka.producer.accumulator import RecordAccumulator
    from kafka.producer.held import HeldRecords
    from kafka.producer.sender import Sender


class BulkProducer(Protocol):
    """The producer's members the bulk paths read and call (they belong to the same package)."""

    config: Dict[str, Any]
    _key_serializer: Optional[Conversion]
    _value_serializer: Optional[Conversion]
    _partitioner: Any
    _default_partitioner: bool
    _max_block: float
    _max_request_size: int
    _accumulator: RecordAccumulator
    _sender: Sender
    _held: Dict[str, HeldRecords]

    def _check_can_send(self) -> None: ...

    def _hand_over_topic(self, topic: str) -> None: ...

    def _partitions(self, topic: str, max_block: float) -> Tuple[List[int], List[int]]: ...

    def _tp_to_send(self, topic: str, partition: int) -> TopicPartition: ...


__all__ = ["BulkProducer"]
