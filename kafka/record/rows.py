"""The consumer's row layout, defined once.

The record readers can build the consumer's records straight from the
bytes (:meth:`kafka.record.batch.RecordBatch.rows`): tuples of a class the
consumer passes in, :class:`kafka.consumer.fetcher.ConsumerRecord`.  The
readers sit below the consumer and cannot import it, so the order of the
fields lives here; ``test/consumer/test_row_layout.py`` checks that it is
``ConsumerRecord._fields`` and that every builder puts each field where its
name says.

The hot loops still write rows as tuple displays, in this order: naming
each column there would cost a lookup per record.
"""

from __future__ import annotations

from typing import Tuple

__all__ = [
    "ROW_FIELDS", "PREFIX_FIELDS", "TOPIC", "PARTITION", "LEADER_EPOCH", "OFFSET", "TIMESTAMP",
    "TIMESTAMP_TYPE", "KEY", "VALUE", "HEADERS", "CHECKSUM", "KEY_SIZE", "VALUE_SIZE", "HEADER_SIZE",
]

#: Field names of a row, in order.
ROW_FIELDS: Tuple[str, ...] = (
    "topic", "partition", "leader_epoch", "offset", "timestamp", "timestamp_type", "key", "value",
    "headers", "checksum", "serialized_key_size", "serialized_value_size", "serialized_header_size",
)

#: The fields the caller supplies once per batch (the readers' ``prefix``).
PREFIX_FIELDS: Tuple[str, ...] = ROW_FIELDS[:3]

#: Index of each field in a row; ``test_row_layout.py`` checks each against its name.
#: ``KEY_SIZE`` and ``VALUE_SIZE`` are ``len(key)`` and ``len(value)``, -1 for
#: null; ``HEADER_SIZE`` the UTF-8 bytes of the header keys plus the header
#: value bytes, -1 without headers (as kafka-python counts them).
(TOPIC, PARTITION, LEADER_EPOCH, OFFSET, TIMESTAMP, TIMESTAMP_TYPE, KEY, VALUE, HEADERS, CHECKSUM,
 KEY_SIZE, VALUE_SIZE, HEADER_SIZE) = range(len(ROW_FIELDS))
