"""Compression codecs of Kafka record batches and message sets.

Codec ids are the values of the low three attribute bits:

=====  ======  ==============================================================
id     name    implementation
=====  ======  ==============================================================
0      none
1      gzip    stdlib :mod:`zlib`
2      snappy  ``cramjam`` or ``python-snappy`` (``pip install kafkawire[snappy]``)
3      lz4     ``lz4`` or ``cramjam`` (``pip install kafkawire[lz4]``)
4      zstd    ``zstandard`` or ``cramjam`` (``pip install kafkawire[zstd]``)
=====  ======  ==============================================================

:func:`compress` writes what the Java client writes (xerial framing for
snappy, a 64 KiB-block LZ4 frame, the broken LZ4 header checksum for message
format v0).  :func:`decompress` accepts every variant found in the wild and
never returns more than ``max_output`` bytes: larger output, and any damaged
input, raise :class:`~kafka.errors.CorruptRecordError`.  A codec whose
library is missing raises :class:`~kafka.errors.UnsupportedCodecError`
naming the extra to install.
"""

from __future__ import annotations

import sys
import threading
import zlib
from typing import Any, Dict, List, Optional, Union

from kafka.errors import CorruptRecordError, KafkaError, UnsupportedCodecError
from kafka.record import _lz4frame
from kafka.record import _snappy as _xerial
from kafka.record._zstdframe import zstd_bound
from kafka.record.record import BytesLike

__all__ = [
    "NONE",
    "GZIP",
    "SNAPPY",
    "LZ4",
    "ZSTD",
    "DEFAULT_MAX_OUTPUT",
    "codec_id",
    "codec_name",
    "is_available",
    "ensure_available",
    "compress",
    "decompress",
]

NONE = 0
GZIP = 1
SNAPPY = 2
LZ4 = 3
ZSTD = 4

#: Default cap on the decompressed size of one batch (256 MiB).
DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024

_NAMES = {NONE: "none", GZIP: "gzip", SNAPPY: "snappy", LZ4: "lz4", ZSTD: "zstd"}
_IDS = {name: cid for cid, name in _NAMES.items()}
_EXTRAS = {SNAPPY: "snappy", LZ4: "lz4", ZSTD: "zstd"}
_LIBRARIES = {
    SNAPPY: "cramjam or python-snappy",
    LZ4: "lz4 or cramjam",
    ZSTD: "zstandard or cramjam",
}

Codec = Union[int, str, None]


# ---------------------------------------------------------------------------
# Optional libraries.  Tests simulate a missing one by setting these to None.
# ---------------------------------------------------------------------------


def _try_import(name: str) -> Any:
    try:
        module = __import__(name)
        for part in name.split(".")[1:]:
            module = getattr(module, part)
        return module
    except ImportError:
        return None


_cramjam = _try_import("cramjam")
_lz4_frame = _try_import("lz4.frame")
_lz4_block = _try_import("lz4.block")
_zstandard = _try_import("zstandard")
_python_snappy = _try_import("snappy")
if _python_snappy is not None and not hasattr(_python_snappy, "uncompress"):  # pragma: no cover
    _python_snappy = None  # some other module called "snappy"


def codec_id(codec: Codec) -> int:
    """Return the numeric id of ``codec`` (an id, a name, or ``None``)."""
    if codec is None:
        return NONE
    if isinstance(codec, str):
        cid = _IDS.get(codec.lower())
        if cid is None:
            raise UnsupportedCodecError("unknown compression type %r" % codec)
        return cid
    if isinstance(codec, int) and codec in _NAMES:
        return codec
    raise UnsupportedCodecError("unknown compression codec id %r" % (codec,))


def codec_name(codec: Codec) -> str:
    """Return the lower-case name (``'none'``, ``'gzip'`` ...) of ``codec``."""
    return _NAMES[codec_id(codec)]


def is_available(codec: Codec) -> bool:
    """True if ``codec`` can be used with the libraries installed."""
    cid = codec_id(codec)
    if cid == SNAPPY:
        return _cramjam is not None or _python_snappy is not None
    if cid == LZ4:
        return _lz4_block is not None or _cramjam is not None
    if cid == ZSTD:
        return _zstandard is not None or _cramjam is not None
    return True


def _missing(cid: int) -> UnsupportedCodecError:
    name = _NAMES[cid]
    return UnsupportedCodecError(
        "%s compression needs %s, which is not installed: "
        "pip install kafkawire[%s]" % (name, _LIBRARIES[cid], _EXTRAS[cid])
    )


def check_reader_codec(cid: int) -> None:
    """Refuse to decode a ``cid`` batch when :mod:`kafka.codec` says its library is missing.

    The record readers call this once per compressed batch. ``kafka.codec``
    sits above this layer, so it is looked up in ``sys.modules`` rather than
    imported: when no one has imported it, no one can have patched it and
    there is nothing to ask. Raises
    :class:`~kafka.errors.UnsupportedCodecError` with kafka-python's wording.
    """
    facade = sys.modules.get("kafka.codec")
    if facade is None or not is_available(cid):
        return  # not loaded; or the library really is missing, which decompress() reports with the extra to install
    name = _NAMES.get(cid, str(cid))
    check = getattr(facade, "has_%s" % (name,), None)
    if check is not None and not check():
        raise UnsupportedCodecError("Libraries for %s compression codec not found" % (name,))


def ensure_available(codec: Codec) -> int:
    """Return the id of ``codec``; raise UnsupportedCodecError if unusable."""
    cid = codec_id(codec)
    if not is_available(cid):
        raise _missing(cid)
    return cid


# ---------------------------------------------------------------------------
# Compression
# ---------------------------------------------------------------------------

_local = threading.local()


def _zstd_compressor(level: int) -> Any:
    # ZstdCompressor objects are costly to create and not thread-safe.
    cache: Optional[Dict[int, Any]] = getattr(_local, "zstd", None)
    if cache is None:
        cache = _local.zstd = {}
    cctx = cache.get(level)
    if cctx is None:
        cctx = cache[level] = _zstandard.ZstdCompressor(level=level)
    return cctx


def _lz4_block_compressor(level: Optional[int]) -> Any:
    if _lz4_block is not None:
        if level:
            return lambda chunk: _lz4_block.compress(
                chunk, mode="high_compression", compression=level, store_size=False
            )
        return lambda chunk: _lz4_block.compress(chunk, store_size=False)
    if level:
        return lambda chunk: bytes(
            _cramjam.lz4.compress_block(
                chunk, mode="high_compression", compression=level, store_size=False
            )
        )
    return lambda chunk: bytes(_cramjam.lz4.compress_block(chunk, store_size=False))


def _snappy_raw_compressor() -> Any:
    if _cramjam is not None:
        return lambda chunk: bytes(_cramjam.snappy.compress_raw(chunk))
    return lambda chunk: _python_snappy.compress(bytes(chunk))


def compress(
    codec: Codec, data: BytesLike, *, magic: int = 2, level: Optional[int] = None
) -> bytes:
    """Compress ``data`` the way Kafka clients write ``codec`` data.

    ``magic`` is the message format the data is for (it changes the LZ4
    framing); ``level`` is a codec-specific level, ``None`` for its default.
    """
    cid = codec_id(codec)
    if cid == NONE:
        return bytes(data)
    if cid == GZIP:
        c = zlib.compressobj(
            zlib.Z_DEFAULT_COMPRESSION if level is None else level, zlib.DEFLATED, 31
        )
        return c.compress(data) + c.flush()
    ensure_available(cid)
    if cid == SNAPPY:
        return _xerial.xerial_encode(data, _snappy_raw_compressor())
    if cid == LZ4:
        return _lz4frame.write_frame(data, _lz4_block_compressor(level), magic)
    # ZSTD
    if _zstandard is not None:
        compressed: bytes = _zstd_compressor(3 if level is None else level).compress(data)
        return compressed
    return bytes(_cramjam.zstd.compress(data, 3 if level is None else level))


# ---------------------------------------------------------------------------
# Decompression
# ---------------------------------------------------------------------------


def _too_large(limit: int) -> CorruptRecordError:
    return CorruptRecordError("decompressed data exceeds the limit of %d bytes" % limit)


def _gunzip(data: bytes, max_output: int) -> bytes:
    parts: List[bytes] = []
    total = 0
    while True:
        d = zlib.decompressobj(31)
        piece = d.decompress(data, max_output - total + 1)
        total += len(piece)
        if total > max_output:
            raise _too_large(max_output)
        parts.append(piece)
        if not d.eof:
            raise CorruptRecordError("truncated gzip data")
        data = d.unused_data
        if not data:  # further members are allowed, as in GZIPInputStream
            return b"".join(parts)


def _unlz4(data: bytes, magic: int, max_output: int) -> bytes:
    if magic == 0:
        data = _lz4frame.repair_v0_checksum(data)
    frame = _lz4frame.walk_frame(data)
    if frame.length != len(data):
        raise CorruptRecordError("trailing bytes after the lz4 frame")
    if frame.independent and _lz4_block is not None:
        # Block by block: exact accounting, and no allocation beyond one
        # block at a time.  (Block checksums, if any, are not verified.)
        parts: List[bytes] = []
        total = 0
        block_max = frame.block_max
        for start, size, stored in frame.blocks:
            chunk = data[start : start + size]
            piece = chunk if stored else _lz4_block.decompress(chunk, uncompressed_size=block_max)
            total += len(piece)
            if total > max_output:
                raise _too_large(max_output)
            parts.append(piece)
        return b"".join(parts)
    # Linked blocks (not written by Kafka clients) or no lz4 package: decode
    # the whole frame once its worst-case size is known to be acceptable.
    if frame.bound > max_output:
        raise _too_large(max_output)
    if _lz4_frame is not None:
        decompressed: bytes = _lz4_frame.decompress(data)
        return decompressed
    return bytes(_cramjam.lz4.decompress(data))


_ZSTD_CHUNK = 1 << 22


def _unzstd(data: bytes, max_output: int) -> bytes:
    # The walk also catches truncated frames, which zstandard's stream
    # reader would silently end early on.
    bound = zstd_bound(data)
    if _zstandard is not None:
        dctx = getattr(_local, "zstd_d", None)
        if dctx is None:
            dctx = _local.zstd_d = _zstandard.ZstdDecompressor()
        reader = dctx.stream_reader(data, read_across_frames=True)
        parts: List[bytes] = []
        total = 0
        limit = min(bound, max_output)
        while True:
            # Reads allocate their full size: ask for what can still come.
            piece = reader.read(min(limit - total + 1, _ZSTD_CHUNK))
            if not piece:
                break
            total += len(piece)
            if total > limit:
                if total > max_output:
                    raise _too_large(max_output)
                raise CorruptRecordError("zstd data larger than its blocks allow")
            parts.append(piece)
        return b"".join(parts)
    if bound > max_output:
        raise _too_large(max_output)
    return bytes(_cramjam.zstd.decompress(data))


def _unsnappy(data: bytes, max_output: int) -> bytes:
    if _cramjam is not None:
        raw = lambda block: bytes(_cramjam.snappy.decompress_raw(block))  # noqa: E731
    else:
        raw = _python_snappy.uncompress
    return _xerial.decode(data, raw, max_output)


def decompress(
    codec: Codec, data: BytesLike, *, magic: int = 2, max_output: int = DEFAULT_MAX_OUTPUT
) -> bytes:
    """Decompress ``data`` written with ``codec``.

    ``magic`` is the message format the data came in (magic 0 LZ4 frames get
    their header checksum repaired).  Raises
    :class:`~kafka.errors.CorruptRecordError` if the data is damaged or
    would decompress to more than ``max_output`` bytes, and
    :class:`~kafka.errors.UnsupportedCodecError` if the codec is unknown or
    its library is not installed.

    Memory stays bounded by ``max_output`` (plus one LZ4 block or zstd read
    chunk).  Where a library cannot stop at a limit -- LZ4 frames with linked
    blocks, which Kafka clients do not write, and zstd through ``cramjam`` --
    the frame's worst-case size from its block headers is checked instead,
    so such data may be refused somewhat below the limit.
    """
    cid = codec_id(codec)
    if cid == NONE:
        return bytes(data)
    if cid != GZIP:
        ensure_available(cid)
    if not isinstance(data, bytes):
        data = bytes(data)
    try:
        if cid == GZIP:
            return _gunzip(data, max_output)
        if cid == SNAPPY:
            return _unsnappy(data, max_output)
        if cid == LZ4:
            return _unlz4(data, magic, max_output)
        return _unzstd(data, max_output)
    except KafkaError:
        raise
    except Exception as exc:  # any failure inside a codec library
        raise CorruptRecordError(
            "corrupt %s data: %s: %s" % (_NAMES[cid], type(exc).__name__, exc)
        ) from exc
