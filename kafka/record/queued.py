"""A v2 record batch from queued ``(timestamp, key, value, headers)`` records: :func:`build_queued_batch`.

A producer that queues records as they are sent and encodes them when the
batch goes out calls this once per batch. Records that all have neither
key nor headers (the common ``send(topic, value)``) are encoded as two
columns, timestamps and values
(:meth:`~kafka.record.batch.RecordBatchBuilder.extend_values`, whose
column encoder runs mostly in C); any other mix goes through the record
loop (:meth:`~kafka.record.batch.RecordBatchBuilder.extend`). Both give the
same bytes as appending the records one by one.

The size of a batch is the caller's rule (it decides which records go in
before they are encoded): nothing is refused here.
"""

from __future__ import annotations

from operator import itemgetter
from typing import List, Optional, Sequence, Tuple

from kafka.record import codecs
from kafka.record.batch import RecordBatchBuilder
from kafka.record.record_encoding import Record

__all__ = ["build_queued_batch", "value_columns"]

_TIMESTAMP, _KEY, _VALUE, _HEADERS = (itemgetter(i) for i in range(4))

#: No limit: the caller already measured the records.
_NO_LIMIT = 0x7FFFFFFF


def value_columns(records: Sequence[Record]) -> Optional[Tuple[List[int], List[Optional[bytes]]]]:
    """``(timestamps, values)`` of ``records`` when none has a key or headers, else None."""
    count = len(records)
    if not count or records[0][1] is not None or records[0][3] is not None:
        return None
    if list(map(_KEY, records)).count(None) != count or list(map(_HEADERS, records)).count(None) != count:
        return None
    return list(map(_TIMESTAMP, records)), list(map(_VALUE, records))


def build_queued_batch(records: Sequence[Record], *, compression_type: int = codecs.NONE,
                       is_transactional: bool = False, producer_id: int = -1, producer_epoch: int = -1,
                       base_sequence: int = -1,
                       columns: Optional[Tuple[List[int], List[Optional[bytes]]]] = None) -> bytes:
    """The v2 batch of ``records`` (``(timestamp, key, value, headers)`` tuples) at offset deltas 0, 1, ...

    Every timestamp must be an int (milliseconds); headers are a sequence
    of ``(str, bytes | None)`` or None. ``b""`` for no records. A caller
    that kept records without key and headers as ``columns`` (timestamps,
    values) gives those instead of ``records``.
    """
    builder = RecordBatchBuilder(compression_type=compression_type, is_transactional=is_transactional,
                                 producer_id=producer_id, producer_epoch=producer_epoch,
                                 base_sequence=base_sequence, batch_size=_NO_LIMIT)
    if columns is None:
        columns = value_columns(records)
    if columns is not None:
        builder.extend_values(*columns)
    else:
        builder.extend(records)
    return builder.build()
