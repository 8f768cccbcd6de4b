"""Bound the decompressed size of Zstandard data without decoding it.

Used only with the ``cramjam`` backend, whose zstd decoder cannot stop at an
output limit: walking the frame and block headers gives an upper bound that
is checked before anything is allocated.  Raw and RLE blocks state their
exact size; a compressed block decodes to at most 128 KiB.
"""

from __future__ import annotations

import struct

from kafka.errors import CorruptRecordError

_U32 = struct.Struct("<I")
_FRAME_MAGIC = 0xFD2FB528
_BLOCK_LIMIT = 1 << 17
_DICT_ID_LEN = (0, 1, 2, 4)


def zstd_bound(data: bytes) -> int:
    """Upper bound of the decompressed size of all frames in ``data``.

    Raises :class:`~kafka.errors.CorruptRecordError` if ``data`` is not a
    sequence of well-formed (and complete) zstd or skippable frames.
    """
    n = len(data)
    pos = 0
    bound = 0
    if n == 0:
        raise CorruptRecordError("empty zstd data")
    try:
        while pos < n:
            magic = _U32.unpack_from(data, pos)[0]
            if magic == _FRAME_MAGIC:
                fhd = data[pos + 4]
                pos += 5
                if fhd & 0x08:
                    raise CorruptRecordError("zstd frame header reserved bit set")
                single_segment = fhd & 0x20
                if not single_segment:
                    pos += 1  # window descriptor
                pos += _DICT_ID_LEN[fhd & 0x03]
                fcs_flag = fhd >> 6
                pos += (1 if single_segment else 0, 2, 4, 8)[fcs_flag]
                while True:
                    header = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
                    pos += 3
                    block_type = (header >> 1) & 0x03
                    size = header >> 3
                    if block_type == 0:
                        bound += size
                        pos += size
                    elif block_type == 1:
                        bound += size
                        pos += 1
                    elif block_type == 2:
                        if size > _BLOCK_LIMIT:
                            raise CorruptRecordError("zstd block too large")
                        bound += _BLOCK_LIMIT
                        pos += size
                    else:
                        raise CorruptRecordError("reserved zstd block type")
                    if header & 1:
                        break
                if fhd & 0x04:
                    pos += 4  # content checksum
            elif magic & 0xFFFFFFF0 == 0x184D2A50:
                pos += 8 + _U32.unpack_from(data, pos + 4)[0]
            else:
                raise CorruptRecordError("not a zstd frame")
            if pos > n:
                raise CorruptRecordError("truncated zstd frame")
    except (IndexError, struct.error):
        raise CorruptRecordError("truncated zstd frame") from None
    return bound
