"""kafka-python's ``kafka.codec`` functions (also importable as ``kafka.simple.codec``).

Thin adapters over :mod:`kafka.record.codecs`, which does the real work:
``has_*`` tell whether a codec's library is installed, ``*_encode`` compress
and ``*_decode`` decompress. A codec whose library is missing raises
:class:`~kafka.errors.UnsupportedCodecError` naming the extra to install
(``pip install kafkawire[snappy]`` and so on); damaged input raises
:class:`~kafka.errors.CorruptRecordError`.

The record decoders consult this module's ``has_*`` functions once per
compressed batch while the module is loaded, as kafka-python's do: a program
(or a test) that patches ``kafka.codec.has_gzip`` to return False gets
:class:`~kafka.errors.UnsupportedCodecError` ("Libraries for gzip compression
codec not found") from a consumer reading a gzip batch.

Every decoder accepts all the framings found in the wild (for snappy: one raw
block, or snappy-java's "xerial" stream), so data written by any client reads
back.
"""

from __future__ import annotations

import struct
from typing import Callable, List, Optional, Union

from kafka.record import codecs as _codecs

__all__ = [
    "has_gzip",
    "has_snappy",
    "has_lz4",
    "has_zstd",
    "gzip_encode",
    "gzip_decode",
    "snappy_encode",
    "snappy_decode",
    "lz4_encode",
    "lz4_decode",
    "lz4_encode_old_kafka",
    "lz4_decode_old_kafka",
    "zstd_encode",
    "zstd_decode",
]

BytesLike = Union[bytes, bytearray, memoryview]

#: Block size of snappy-java's stream format, and the 0.9 default.
XERIAL_BLOCKSIZE = 32 * 1024
_XERIAL_HEADER = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)
_INT32 = struct.Struct(">i")


def has_gzip() -> bool:
    """Always true: gzip uses the standard library."""
    return True


def has_snappy() -> bool:
    """True if a snappy library (``cramjam`` or ``python-snappy``) is installed."""
    return _codecs.is_available(_codecs.SNAPPY)


def has_lz4() -> bool:
    """True if an LZ4 library (``lz4`` or ``cramjam``) is installed."""
    return _codecs.is_available(_codecs.LZ4)


def has_zstd() -> bool:
    """True if a zstd library (``zstandard`` or ``cramjam``) is installed."""
    return _codecs.is_available(_codecs.ZSTD)


def gzip_encode(payload: BytesLike, compresslevel: Optional[int] = None) -> bytes:
    """Gzip ``payload``; ``compresslevel`` 0-9, 9 (the 0.9 default) when ``None``."""
    return _codecs.compress(_codecs.GZIP, payload, level=9 if compresslevel is None else compresslevel)


def gzip_decode(payload: BytesLike) -> bytes:
    """Decompress gzip data (several concatenated gzip members are accepted)."""
    return _codecs.decompress(_codecs.GZIP, payload)


def _raw_snappy_compressor() -> Callable[[BytesLike], bytes]:
    # kafka.record.codecs only writes the xerial framing; the 0.9 API can
    # also write one raw block (xerial_compatible=False) or xerial blocks of
    # another size, which need the raw block compressor itself.
    _codecs.ensure_available(_codecs.SNAPPY)
    try:
        import cramjam

        return lambda data: bytes(cramjam.snappy.compress_raw(bytes(data)))
    except ImportError:  # pragma: no cover - depends on the installed libraries
        import snappy

        return lambda data: snappy.compress(bytes(data))


def snappy_encode(payload: BytesLike, xerial_compatible: bool = False,
                  xerial_blocksize: int = XERIAL_BLOCKSIZE) -> bytes:
    """Compress ``payload`` with snappy.

    By default (as in the 0.9 API) the result is one raw snappy block.
    With ``xerial_compatible=True`` it is the stream format of the Java
    library snappy-java, which the Java client writes and every broker
    reads::

        header   82 53 4E 41 50 50 59 00  int32 1 (version)  int32 1 (compatible version)
        blocks   int32 length, raw snappy block   (repeated)

    Each block compresses ``xerial_blocksize`` bytes of input (the last one
    possibly fewer), so a block's compressed length may be smaller or
    slightly larger than the block size.
    """
    if xerial_compatible:
        if xerial_blocksize == XERIAL_BLOCKSIZE:
            return _codecs.compress(_codecs.SNAPPY, payload)
        if xerial_blocksize <= 0:
            raise ValueError("xerial_blocksize must be positive, not %r" % (xerial_blocksize,))
        compress_raw = _raw_snappy_compressor()
        view = memoryview(bytes(payload))
        parts: List[bytes] = [_XERIAL_HEADER]
        for start in range(0, len(view), xerial_blocksize):
            block = compress_raw(view[start:start + xerial_blocksize])
            parts.append(_INT32.pack(len(block)))
            parts.append(block)
        return b"".join(parts)
    return _raw_snappy_compressor()(payload)


def snappy_decode(payload: BytesLike) -> bytes:
    """Decompress snappy data: a raw block or a xerial stream (detected by its header)."""
    return _codecs.decompress(_codecs.SNAPPY, payload)


def lz4_encode(payload: BytesLike, level: Optional[int] = None) -> bytes:
    """Compress ``payload`` as an LZ4 frame, as written for message formats v1 and v2."""
    return _codecs.compress(_codecs.LZ4, payload, magic=2, level=level)


def lz4_decode(payload: BytesLike) -> bytes:
    """Decompress an LZ4 frame."""
    return _codecs.decompress(_codecs.LZ4, payload, magic=2)


def lz4_encode_old_kafka(payload: BytesLike, level: Optional[int] = None) -> bytes:
    """Compress as Kafka 0.8/0.9 brokers expect for message format v0.

    Those versions computed the LZ4 frame header checksum wrongly, and message
    format v0 keeps that mistake for compatibility.
    """
    return _codecs.compress(_codecs.LZ4, payload, magic=0, level=level)


def lz4_decode_old_kafka(payload: BytesLike) -> bytes:
    """Decompress an LZ4 frame written for message format v0 (see :func:`lz4_encode_old_kafka`)."""
    return _codecs.decompress(_codecs.LZ4, payload, magic=0)


def zstd_encode(payload: BytesLike, level: Optional[int] = None) -> bytes:
    """Compress ``payload`` with zstd (level 3 when ``None``)."""
    return _codecs.compress(_codecs.ZSTD, payload, level=level)


def zstd_decode(payload: BytesLike) -> bytes:
    """Decompress zstd data."""
    return _codecs.decompress(_codecs.ZSTD, payload)
