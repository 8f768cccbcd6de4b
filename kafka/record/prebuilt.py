"""A v2 record batch around records encoded elsewhere: :func:`build_batch`.

:class:`~kafka.record.batch.RecordBatchBuilder` encodes records one by one.
A caller that encodes them in bulk (the Spark writer encodes whole Arrow
columns) hands their bytes here for the header, compression and CRC; see
:mod:`kafka.record.batch` for the layout.
"""

from __future__ import annotations

import struct

from kafka.record import codecs
from kafka.record.batch import HEADER_SIZE, LOG_OVERHEAD, TRANSACTIONAL_MASK
from kafka.record.crc import crc32c
from kafka.record.record import BytesLike

__all__ = ["build_batch"]

# The header before the CRC (base offset, batch length, partition leader epoch, magic),
# the CRC, and the header after it, which the CRC covers with the records.
_BEFORE_CRC = struct.Struct(">qiib")
_CRC = struct.Struct(">I")
_AFTER_CRC = struct.Struct(">hiqqqhii")


def build_batch(records: BytesLike, count: int, first_timestamp: int, max_timestamp: int, *,
                compression_type: int = codecs.NONE, is_transactional: bool = False, producer_id: int = -1,
                producer_epoch: int = -1, base_sequence: int = -1, base_offset: int = 0,
                partition_leader_epoch: int = -1) -> bytes:
    """The v2 batch of ``count`` records whose uncompressed bytes are ``records``.

    The records must be encoded as :meth:`RecordBatchBuilder.extend
    <kafka.record.batch.RecordBatchBuilder.extend>` encodes them: offset
    deltas 0 to ``count - 1``, timestamp deltas from ``first_timestamp``
    (the first record's); ``max_timestamp`` is the latest. The result is
    byte for byte what a builder with the same settings and records builds.
    """
    if compression_type == codecs.NONE:
        body = bytes(records)
    else:
        # Released at once: PyPy (7.3) keeps a view handed to a C extension alive until then.
        with memoryview(records) as view:
            body = codecs.compress(compression_type, view, magic=2)
    attributes = compression_type | (TRANSACTIONAL_MASK if is_transactional else 0)
    after = _AFTER_CRC.pack(attributes, count - 1, first_timestamp, max_timestamp, producer_id, producer_epoch,
                            base_sequence, count)
    before = _BEFORE_CRC.pack(base_offset, HEADER_SIZE - LOG_OVERHEAD + len(body), partition_leader_epoch, 2)
    return before + _CRC.pack(crc32c(body, crc32c(after))) + after + body
