"""Primitive wire types of the Kafka protocol.

Every type here is an object with two functions built for one encoding:

* ``read(buf, pos) -> (value, new_pos)`` reads from ``bytes``;
* ``write(out, value)`` appends to a ``bytearray``.

Readers check lengths against the bytes that remain before slicing, so a
bogus length prefix never allocates more than the frame already holds and
never silently returns a short value. Errors are raised as ``ValueError``
subclasses of :class:`DecodeError`; :mod:`kafka.protocol.schema` turns every
low-level failure into :class:`kafka.errors.ProtocolError`.

Types that change encoding in flexible versions (strings, bytes, arrays) are
declared once and resolved with :meth:`WireType.resolve`.
"""

from __future__ import annotations

import struct
import uuid as _uuid
from typing import Any, Callable, List, Optional, Tuple

Reader = Callable[[bytes, int], Tuple[Any, int]]
Writer = Callable[[bytearray, Any], None]


class DecodeError(ValueError):
    """Low-level decoding failure; converted to ProtocolError by the schema."""


class EncodeError(ValueError):
    """A value cannot be encoded as the declared type."""


# --------------------------------------------------------------------------
# Variable-length integers (unsigned LEB128 and zigzag signed forms)
# --------------------------------------------------------------------------

def write_uvarint(out: bytearray, value: int) -> None:
    """Append ``value`` (0 <= value < 2**64) as an unsigned varint."""
    if value < 0x80:
        if value < 0:
            raise EncodeError("unsigned varint cannot be negative: %r" % (value,))
        out.append(value)
        return
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def read_uvarint(buf: bytes, pos: int) -> Tuple[int, int]:
    """Read an unsigned varint of at most 10 bytes at ``pos``."""
    try:
        b = buf[pos]
    except IndexError:
        raise DecodeError("varint runs past the end of the data") from None
    if b < 0x80:
        return b, pos + 1
    result = b & 0x7F
    shift = 7
    pos += 1
    while True:
        if shift > 63:
            raise DecodeError("varint is longer than 10 bytes")
        try:
            b = buf[pos]
        except IndexError:
            raise DecodeError("varint runs past the end of the data") from None
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def write_varint(out: bytearray, value: int) -> None:
    """Append a signed 32/64-bit integer as a zigzag varint."""
    write_uvarint(out, (value << 1) ^ (value >> 63))


def read_varint(buf: bytes, pos: int) -> Tuple[int, int]:
    """Read a zigzag-encoded signed varint."""
    raw, pos = read_uvarint(buf, pos)
    return (raw >> 1) ^ -(raw & 1), pos


# --------------------------------------------------------------------------
# Type objects
# --------------------------------------------------------------------------

class WireType:
    """A primitive type with a reader, a writer and a default value."""

    __slots__ = ("name", "read", "write", "zero")

    def __init__(self, name: str, read: Reader, write: Writer, zero: Any) -> None:
        self.name = name
        self.read = read
        self.write = write
        self.zero = zero

    def resolve(self, flexible: bool) -> "WireType":
        """The concrete type used in a non-flexible or a flexible version."""
        return self

    def __repr__(self) -> str:
        return self.name


class FlexibleType(WireType):
    """A type whose encoding differs between non-flexible and flexible versions."""

    __slots__ = ("plain", "compact")

    def __init__(self, plain: WireType, compact: WireType) -> None:
        super().__init__(plain.name, plain.read, plain.write, plain.zero)
        self.plain = plain
        self.compact = compact

    def resolve(self, flexible: bool) -> WireType:
        return self.compact if flexible else self.plain


def _fixed(name: str, fmt: str, zero: Any = 0) -> WireType:
    packer = struct.Struct(fmt)
    size = packer.size
    unpack_from = packer.unpack_from
    pack = packer.pack

    def read(buf: bytes, pos: int) -> Tuple[Any, int]:
        try:
            return unpack_from(buf, pos)[0], pos + size
        except struct.error:
            raise DecodeError("%s runs past the end of the data" % name) from None

    def write(out: bytearray, value: Any) -> None:
        try:
            out += pack(value)
        except struct.error as exc:
            raise EncodeError("%s cannot hold %r: %s" % (name, value, exc)) from None

    return WireType(name, read, write, zero)


INT8 = _fixed("int8", ">b")
INT16 = _fixed("int16", ">h")
INT32 = _fixed("int32", ">i")
INT64 = _fixed("int64", ">q")
UINT16 = _fixed("uint16", ">H")
UINT32 = _fixed("uint32", ">I")
FLOAT64 = _fixed("float64", ">d", 0.0)


def _read_bool(buf: bytes, pos: int) -> Tuple[bool, int]:
    try:
        return buf[pos] != 0, pos + 1
    except IndexError:
        raise DecodeError("bool runs past the end of the data") from None


def _write_bool(out: bytearray, value: Any) -> None:
    out.append(1 if value else 0)


BOOLEAN = WireType("bool", _read_bool, _write_bool, False)


def _read_uvarint_type(buf: bytes, pos: int) -> Tuple[int, int]:
    return read_uvarint(buf, pos)


UVARINT = WireType("uvarint", _read_uvarint_type, write_uvarint, 0)
VARINT = WireType("varint", read_varint, write_varint, 0)

ZERO_UUID = _uuid.UUID(int=0)


def _read_uuid(buf: bytes, pos: int) -> Tuple[_uuid.UUID, int]:
    end = pos + 16
    if end > len(buf):
        raise DecodeError("uuid runs past the end of the data")
    return _uuid.UUID(bytes=bytes(buf[pos:end])), end


def _write_uuid(out: bytearray, value: Any) -> None:
    if value is None:
        out += bytes(16)
    elif isinstance(value, _uuid.UUID):
        out += value.bytes
    elif isinstance(value, (bytes, bytearray)) and len(value) == 16:
        out += value
    elif isinstance(value, str):
        out += _uuid.UUID(value).bytes
    else:
        raise EncodeError("not a uuid: %r" % (value,))


UUID = WireType("uuid", _read_uuid, _write_uuid, ZERO_UUID)


# -- length-prefixed byte strings ----------------------------------------------

def _take(buf: bytes, pos: int, n: int, what: str) -> Tuple[bytes, int]:
    end = pos + n
    if end > len(buf):
        raise DecodeError("%s of %d bytes runs past the end of the data" % (what, n))
    return bytes(buf[pos:end]), end


def _read_string(buf: bytes, pos: int) -> Tuple[Optional[str], int]:
    n, pos = INT16.read(buf, pos)
    if n < 0:
        if n == -1:
            return None, pos
        raise DecodeError("negative string length %d" % n)
    raw, pos = _take(buf, pos, n, "string")
    try:
        return raw.decode("utf-8"), pos
    except UnicodeDecodeError:
        raise DecodeError("string is not valid UTF-8") from None


def _encode_text(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    raise EncodeError("not a string: %r" % (value,))


def _write_string(out: bytearray, value: Any) -> None:
    if value is None:
        out += b"\xff\xff"
        return
    raw = _encode_text(value)
    if len(raw) > 0x7FFF:
        raise EncodeError("string of %d bytes is too long" % len(raw))
    out += len(raw).to_bytes(2, "big")
    out += raw


def _read_compact_string(buf: bytes, pos: int) -> Tuple[Optional[str], int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    raw, pos = _take(buf, pos, n - 1, "string")
    try:
        return raw.decode("utf-8"), pos
    except UnicodeDecodeError:
        raise DecodeError("string is not valid UTF-8") from None


def _write_compact_string(out: bytearray, value: Any) -> None:
    if value is None:
        out.append(0)
        return
    raw = _encode_text(value)
    write_uvarint(out, len(raw) + 1)
    out += raw


def _read_bytes(buf: bytes, pos: int) -> Tuple[Optional[bytes], int]:
    n, pos = INT32.read(buf, pos)
    if n < 0:
        if n == -1:
            return None, pos
        raise DecodeError("negative bytes length %d" % n)
    return _take(buf, pos, n, "bytes")


def _write_bytes(out: bytearray, value: Any) -> None:
    if value is None:
        out += b"\xff\xff\xff\xff"
        return
    out += len(value).to_bytes(4, "big")
    out += value


def _read_compact_bytes(buf: bytes, pos: int) -> Tuple[Optional[bytes], int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    return _take(buf, pos, n - 1, "bytes")


def _write_compact_bytes(out: bytearray, value: Any) -> None:
    if value is None:
        out.append(0)
        return
    write_uvarint(out, len(value) + 1)
    out += value


STRING = FlexibleType(WireType("string", _read_string, _write_string, ""),
                      WireType("compact_string", _read_compact_string, _write_compact_string, ""))
BYTES = FlexibleType(WireType("bytes", _read_bytes, _write_bytes, b""),
                     WireType("compact_bytes", _read_compact_bytes, _write_compact_bytes, b""))


#: Record sets at least this large are not copied into a :class:`PartsBuffer`.
SPILL_SIZE = 32 * 1024


class PartsBuffer(bytearray):
    """An encoding buffer that large record sets stay out of, to be written from their own bytes.

    A Produce request is mostly its record batches: copying them into the
    frame costs more than encoding the rest of it (on PyPy several times
    more). Written into a ``PartsBuffer``, a record set of ``SPILL_SIZE``
    bytes or more is only noted, with the position it belongs at;
    :meth:`parts` then gives the whole encoding as buffers to write in order.
    """

    __slots__ = ("spilled", "spilled_size")

    def __init__(self, size: int = 0) -> None:
        super().__init__(size)
        self.spilled: List[Tuple[int, bytes]] = []
        #: Bytes left out so far.
        self.spilled_size = 0

    def spill(self, value: bytes) -> None:
        """Have ``value`` follow the bytes written so far, without copying it in."""
        self.spilled.append((len(self), value))
        self.spilled_size += len(value)

    def parts(self) -> List[bytes]:
        """The encoding as non-empty buffers, in order."""
        if not self.spilled:
            return [bytes(self)]
        parts: List[bytes] = []
        start = 0
        for position, value in self.spilled:
            if position > start:
                parts.append(bytes(self[start:position]))
            parts.append(value)
            start = position
        if len(self) > start:
            parts.append(bytes(self[start:]))
        return parts


def _spills(out: bytearray, value: Any) -> bool:
    return type(out) is PartsBuffer and type(value) is bytes and len(value) >= SPILL_SIZE


def _write_records(out: bytearray, value: Any) -> None:
    if _spills(out, value):
        out += len(value).to_bytes(4, "big")
        out.spill(value)  # type: ignore[attr-defined]
    else:
        _write_bytes(out, value)


def _write_compact_records(out: bytearray, value: Any) -> None:
    if _spills(out, value):
        write_uvarint(out, len(value) + 1)
        out.spill(value)  # type: ignore[attr-defined]
    else:
        _write_compact_bytes(out, value)


#: Record data inside Produce and Fetch: nullable bytes, parsed by kafka.record.
RECORDS = FlexibleType(WireType("records", _read_bytes, _write_records, None),
                       WireType("compact_records", _read_compact_bytes, _write_compact_records, None))


# -- arrays ------------------------------------------------------------------

def array_reader(item_read: Reader, compact: bool) -> Reader:
    """A reader for an array (plain or compact) of items read by ``item_read``."""

    def read(buf: bytes, pos: int) -> Tuple[Optional[List[Any]], int]:
        if compact:
            n, pos = read_uvarint(buf, pos)
            if n == 0:
                return None, pos
            n -= 1
        else:
            n, pos = INT32.read(buf, pos)
            if n < 0:
                if n == -1:
                    return None, pos
                raise DecodeError("negative array length %d" % n)
        # Each element takes at least one byte: a larger count is corrupt, and
        # checking it first keeps a bogus count from driving a long loop.
        if n > len(buf) - pos:
            raise DecodeError("array of %d elements cannot fit in %d bytes" % (n, len(buf) - pos))
        items: List[Any] = []
        append = items.append
        for _ in range(n):
            item, pos = item_read(buf, pos)
            append(item)
        return items, pos

    return read


def array_writer(item_write: Writer, compact: bool) -> Writer:
    """A writer for an array (plain or compact) of items written by ``item_write``."""

    def write(out: bytearray, value: Any) -> None:
        if value is None:
            if compact:
                out.append(0)
            else:
                out += b"\xff\xff\xff\xff"
            return
        if compact:
            write_uvarint(out, len(value) + 1)
        else:
            out += len(value).to_bytes(4, "big")
        for item in value:
            item_write(out, item)

    return write


class Array:
    """Declares an array field of ``item`` (a primitive type or a Struct)."""

    __slots__ = ("item",)

    def __init__(self, item: Any) -> None:
        self.item = item

    def __repr__(self) -> str:
        return "[%r]" % (self.item,)
