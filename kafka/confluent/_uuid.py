"""``Uuid``: confluent-kafka's 128-bit identifier (topic ids), as two signed 64-bit halves."""

from __future__ import annotations

import base64
import operator
import struct
import uuid
from typing import Any


def _int64(value: Any, name: str) -> int:
    if isinstance(value, float) or not hasattr(value, "__index__"):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(value).__name__)
    number = operator.index(value)
    if not -(1 << 63) <= number < (1 << 63):
        raise OverflowError("%s does not fit in a signed 64-bit integer" % name)
    return number


class Uuid:
    """A 128-bit id made of its most and least significant 64 bits (each a signed int).

    ``str()`` gives the base64 text librdkafka prints (no padding). Two
    Uuids with the same bits are equal and hash alike.
    """

    __slots__ = ("_msb", "_lsb")

    def __init__(self, most_significant_bits: int, least_significant_bits: int) -> None:
        self._msb = _int64(most_significant_bits, "most_significant_bits")
        self._lsb = _int64(least_significant_bits, "least_significant_bits")

    @classmethod
    def from_uuid(cls, value: uuid.UUID) -> "Uuid":
        """The Uuid of a :class:`uuid.UUID` (as the engine gives topic ids)."""
        msb, lsb = struct.unpack(">qq", value.bytes)
        return cls(msb, lsb)

    def get_most_significant_bits(self) -> int:
        """The upper 64 bits, as a signed int."""
        return self._msb

    def get_least_significant_bits(self) -> int:
        """The lower 64 bits, as a signed int."""
        return self._lsb

    def _bytes(self) -> bytes:
        return struct.pack(">qq", self._msb, self._lsb)

    def __str__(self) -> str:
        return base64.b64encode(self._bytes()).decode("ascii").rstrip("=")

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Uuid):
            return NotImplemented
        return (self._msb, self._lsb) == (other._msb, other._lsb)

    def __hash__(self) -> int:
        return hash((self._msb, self._lsb))
