"""The consumer's row layout, defined once.

The record readers can build the consumer's records straight from the
bytes (:meth:`kafka.record.batch.RecordBatch.rows`): tuples of a class the
consumer passes in, :class:`ConsumerRecord`, defined here (below both
consumers, the synchronous :mod:`kafka.consumer` and the asyncio
:mod:`kafka.aio`, which hand out the same records) with the order of its
fields; ``test/consumer/test_row_layout.py`` checks that every builder puts
each field where its name says.

The hot loops still write rows as tuple displays, in this order: naming
each column there would cost a lookup per record.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from kafka.record.record import RecordHeaders

__all__ = [
    "ConsumerRecord", "ROW_FIELDS", "PREFIX_FIELDS", "TOPIC", "PARTITION", "LEADER_EPOCH", "OFFSET", "TIMESTAMP",
    "TIMESTAMP_TYPE", "KEY", "VALUE", "HEADERS", "CHECKSUM", "KEY_SIZE", "VALUE_SIZE", "HEADER_SIZE",
]

class ConsumerRecord(NamedTuple):
    """A record as the consumers hand it out (:class:`kafka.KafkaConsumer`, :class:`kafka.aio.AIOKafkaConsumer`).

    It has kafka-python's fields and every attribute of aiokafka's record.
    ``headers`` is a :class:`~kafka.record.record.RecordHeaders` of
    ``(str, bytes | None)`` pairs (equal to kafka-python's list and to
    aiokafka's tuple), :data:`~kafka.record.record.NO_HEADERS` for a record
    without headers. The record readers build these tuples straight from
    the bytes, by position, in the order of :data:`ROW_FIELDS`.
    """

    topic: str
    partition: int
    leader_epoch: int
    offset: int
    timestamp: int
    timestamp_type: int
    key: Any
    value: Any
    headers: RecordHeaders
    checksum: Optional[int]
    serialized_key_size: int
    serialized_value_size: int
    serialized_header_size: int


#: Field names of a row, in order.
ROW_FIELDS: Tuple[str, ...] = ConsumerRecord._fields

#: The fields the caller supplies once per batch (the readers' ``prefix``).
PREFIX_FIELDS: Tuple[str, ...] = ROW_FIELDS[:3]

#: Index of each field in a row; ``test_row_layout.py`` checks each against its name.
#: ``KEY_SIZE`` and ``VALUE_SIZE`` are ``len(key)`` and ``len(value)``, -1 for
#: null; ``HEADER_SIZE`` the UTF-8 bytes of the header keys plus the header
#: value bytes, -1 without headers (as kafka-python counts them).
(TOPIC, PARTITION, LEADER_EPOCH, OFFSET, TIMESTAMP, TIMESTAMP_TYPE, KEY, VALUE, HEADERS, CHECKSUM,
 KEY_SIZE, VALUE_SIZE, HEADER_SIZE) = range(len(ROW_FIELDS))
