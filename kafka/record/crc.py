"""Checksums used by the record formats.

* :func:`crc32` -- CRC-32 (IEEE 802.3), the checksum of message format v0/v1;
  always :func:`zlib.crc32`.
* :func:`crc32c` -- CRC-32C (Castagnoli), the checksum of record batch v2.
  The ``crc32c`` package is used when it is importable, else ``crcmod``'s C
  extension, else a pure-Python implementation that gives the same results
  (:data:`CRC32C_BACKEND` tells which).

Both take any bytes-like object and an optional running value, so that
``crcX(b + c) == crcX(c, crcX(b))``.

How the pure-Python CRC-32C is made fast
----------------------------------------
On CPython a byte-at-a-time loop costs ~100 ns per byte (10 MB/s).  For
larger inputs :func:`_crc32c_lanes` instead leans on C-speed primitives only:

1. The CRC register update is linear over GF(2), so the CRC of a block of
   ``N`` bytes (register starting at zero) is the XOR of one 32-bit table value
   per byte, the table depending only on the byte's position in the block.
2. ``data[k::N]`` gathers the byte at position ``k`` of every block; one
   ``bytes.translate`` per output byte-lane maps all of them to their
   contribution at once, and ``int.from_bytes`` + ``^`` XORs whole lanes.
   This yields the zero-start CRC of every ``N``-byte block.
3. Neighbouring block CRCs are merged pairwise (``crc(A+B) = shift(crc(A),
   len(B)) ^ crc(B)``), again with translate tables for the "shift over
   ``len(B)`` zero bytes" matrix, halving the number of values per round.

The result is ~7x faster than a slicing-by-8 loop on CPython.  PyPy's JIT
runs the plain loop faster than anything else, so PyPy uses that.
"""

from __future__ import annotations

import zlib
from typing import Callable, Dict, List, Optional, Tuple, Union, cast

from kafka import fast_paths

BytesLike = Union[bytes, bytearray, memoryview]

__all__ = ["crc32", "crc32c", "crc32c_pure", "CRC32C_ACCELERATED", "CRC32C_BACKEND"]


def crc32(data: BytesLike, value: int = 0) -> int:
    """Return the CRC-32 (IEEE, as used by message format v0/v1) of ``data``."""
    return zlib.crc32(data, value) & 0xFFFFFFFF


# ---------------------------------------------------------------------------
# Pure-Python CRC-32C
# ---------------------------------------------------------------------------

_POLY = 0x82F63B78  # Castagnoli polynomial, bit-reversed.


def _make_table() -> List[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_T0 = _make_table()


def _zero_byte(c: int) -> int:
    """Advance the CRC register over one zero byte."""
    return (c >> 8) ^ _T0[c & 0xFF]


# Slicing-by-8 tables: _T8[k][b] is the register after byte b followed by k
# zero bytes.
_T8 = [_T0]
for _k in range(1, 8):
    _T8.append([_zero_byte(v) for v in _T8[-1]])
del _k


def _crc32c_loop(data: bytes, value: int = 0) -> int:
    """Plain table loop: the fastest form under PyPy's JIT."""
    c = value ^ 0xFFFFFFFF
    t = _T0
    for b in data:
        c = (c >> 8) ^ t[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def _crc32c_sliced(data: bytes, value: int = 0) -> int:
    """Slicing-by-8: best on CPython for short inputs."""
    c = value ^ 0xFFFFFFFF
    t0, t1, t2, t3, t4, t5, t6, t7 = _T8
    n = len(data)
    cut = n - (n & 7)
    it = iter(data[:cut])
    for a, b, d, e, f, g, h, i in zip(it, it, it, it, it, it, it, it):
        c = (
            t7[(c ^ a) & 0xFF]
            ^ t6[((c >> 8) ^ b) & 0xFF]
            ^ t5[((c >> 16) ^ d) & 0xFF]
            ^ t4[(c >> 24) ^ e]
            ^ t3[f]
            ^ t2[g]
            ^ t1[h]
            ^ t0[i]
        )
    for b in data[cut:]:
        c = (c >> 8) ^ t0[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


_BLOCK = 32  # bytes per block in step 1 of the lane algorithm


def _split_lanes(values: List[int]) -> List[bytes]:
    """Turn 256 32-bit table values into four 256-byte translate tables."""
    return [bytes((v >> (8 * j)) & 0xFF for v in values) for j in range(4)]


def _make_block_tables() -> List[List[bytes]]:
    # Contribution of byte x at position k of a _BLOCK-byte block: the
    # register after x, then (_BLOCK - 1 - k) zero bytes.
    tables = []
    values = list(_T0)
    per_position = []
    for _ in range(_BLOCK):
        per_position.append(values)
        values = [_zero_byte(v) for v in values]
    for k in range(_BLOCK):
        tables.append(_split_lanes(per_position[_BLOCK - 1 - k]))
    return tables


_BLOCK_TABLES: Optional[List[List[bytes]]] = None

# Shift matrices, as translate tables, by the number of zero bytes they skip:
# _SHIFT_TABLES[s][i][j][x] = byte j of shift_s(x << 8*i).
_SHIFT_TABLES: Dict[int, List[List[bytes]]] = {}


def _mat_apply(columns: List[int], v: int) -> int:
    r = 0
    i = 0
    while v:
        if v & 1:
            r ^= columns[i]
        v >>= 1
        i += 1
    return r


def _shift_tables(nbytes: int) -> List[List[bytes]]:
    tables = _SHIFT_TABLES.get(nbytes)
    if tables is None:
        # Square-and-multiply on the 32x32 GF(2) matrix of "one zero byte".
        step = [_zero_byte(1 << i) for i in range(32)]
        result = [1 << i for i in range(32)]
        n = nbytes
        while n:
            if n & 1:
                result = [_mat_apply(step, col) for col in result]
            step = [_mat_apply(step, col) for col in step]
            n >>= 1
        tables = []
        for i in range(4):
            # The map is linear: build all 256 images from the 8 bit images.
            images = [0] * 256
            for x in range(1, 256):
                low = x & -x
                images[x] = images[x ^ low] ^ result[8 * i + low.bit_length() - 1]
            tables.append(_split_lanes(images))
        _SHIFT_TABLES[nbytes] = tables
    return tables


def _crc32c_lanes(data: bytes, value: int = 0) -> int:
    """CRC-32C of ``data`` (len >= 4) using only C-level bulk operations."""
    global _BLOCK_TABLES
    if _BLOCK_TABLES is None:
        _BLOCK_TABLES = _make_block_tables()
    # A preset register equals XOR-ing its bytes into the first four data
    # bytes and starting from zero; leading zero bytes leave a zero register
    # untouched, so the data can be left-padded to whole blocks.
    init = value ^ 0xFFFFFFFF
    head = (int.from_bytes(data[:4], "little") ^ init).to_bytes(4, "little")
    pad = -len(data) % _BLOCK
    buf = b"\x00" * pad + head + bytes(data[4:])
    count = len(buf) // _BLOCK
    frombytes = int.from_bytes
    a0 = a1 = a2 = a3 = 0
    for k, (l0, l1, l2, l3) in enumerate(_BLOCK_TABLES):
        s = buf[k::_BLOCK]
        a0 ^= frombytes(s.translate(l0), "little")
        a1 ^= frombytes(s.translate(l1), "little")
        a2 ^= frombytes(s.translate(l2), "little")
        a3 ^= frombytes(s.translate(l3), "little")
    lanes = [a.to_bytes(count, "little") for a in (a0, a1, a2, a3)]
    span = _BLOCK
    while count > 1:
        if count & 1:
            # A zero value in front is a no-op: the register starts at zero.
            lanes = [b"\x00" + lane for lane in lanes]
            count += 1
        tables = _shift_tables(span)
        acc = [frombytes(lane[1::2], "little") for lane in lanes]
        for i in range(4):
            even = lanes[i][0::2]
            t = tables[i]
            acc[0] ^= frombytes(even.translate(t[0]), "little")
            acc[1] ^= frombytes(even.translate(t[1]), "little")
            acc[2] ^= frombytes(even.translate(t[2]), "little")
            acc[3] ^= frombytes(even.translate(t[3]), "little")
        count >>= 1
        span <<= 1
        lanes = [a.to_bytes(count, "little") for a in acc]
    c = lanes[0][0] | lanes[1][0] << 8 | lanes[2][0] << 16 | lanes[3][0] << 24
    return c ^ 0xFFFFFFFF


_LANES_THRESHOLD = 1024


def crc32c_pure(data: BytesLike, value: int = 0) -> int:
    """Pure-Python CRC-32C of ``data``, continuing from ``value``.

    The byte loop is the reference, and PyPy's fastest; on CPython (the
    ``CRC32C_TABLES`` fast path of :mod:`kafka.fast_paths`) slicing-by-8
    below 1 KiB and the lanes above it.
    """
    if not isinstance(data, bytes):
        data = bytes(data)
    if not fast_paths.CRC32C_TABLES:
        return _crc32c_loop(data, value)
    if len(data) < _LANES_THRESHOLD:
        return _crc32c_sliced(data, value)
    return _crc32c_lanes(data, value)


def _crc32c_from_crc32c_package() -> Optional[Callable[[BytesLike, int], int]]:
    try:
        from crc32c import crc32c as function
    except ImportError:
        return None
    # Any to mypy where crc32c is not installed.
    return cast(Callable[[BytesLike, int], int], function)


def _crc32c_from_crcmod() -> Optional[Callable[[BytesLike, int], int]]:
    # crcmod falls back to a pure-Python loop when its C extension did not
    # build; that loop is slower than crc32c_pure, so only the extension counts.
    try:
        import crcmod._crcfunext  # noqa: F401
        from crcmod.predefined import mkCrcFun
    except ImportError:
        return None
    return mkCrcFun("crc-32c")  # type: ignore[no-any-return]


def _choose_backend() -> Tuple[str, Callable[[BytesLike, int], int]]:
    # Fastest first: crc32c uses the CPU's CRC instructions (about 30 GB/s
    # here), crcmod's C table loop about 0.5 GB/s, crc32c_pure 0.17 GB/s.
    for name, load in (("crc32c", _crc32c_from_crc32c_package), ("crcmod", _crc32c_from_crcmod)):
        function = load()
        if function is not None:
            return name, function
    return "pure-python", crc32c_pure


#: Which implementation :func:`crc32c` uses: ``"crc32c"`` (the crc32c
#: package), ``"crcmod"`` (crcmod's C extension) or ``"pure-python"``.
CRC32C_BACKEND, _crc32c_impl = _choose_backend()

#: True when a C implementation of CRC-32C is in use.
CRC32C_ACCELERATED = CRC32C_BACKEND != "pure-python"

if CRC32C_ACCELERATED:

    def crc32c(data: BytesLike, value: int = 0) -> int:
        """Return the CRC-32C (Castagnoli) of ``data``, continuing from ``value``."""
        return _crc32c_impl(data, value)

else:  # pragma: no cover - depends on the environment
    crc32c = crc32c_pure
