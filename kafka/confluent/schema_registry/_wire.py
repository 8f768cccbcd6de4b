"""The Schema Registry framing of a Kafka key or value: which schema wrote the payload.

A serialized value starts with a magic byte and the schema's identity: byte
0 and the schema id as a 4-byte big-endian unsigned integer (Confluent's
wire format, the default), or byte 1 and the schema's 16-byte GUID. The
GUID may travel in a header instead (``__key_schema_id`` or
``__value_schema_id``), leaving the payload bare. The functions here are
the ``schema.id.serializer`` and ``schema.id.deserializer`` settings of the
serializers and deserializers.
"""

from __future__ import annotations

import io
import struct
import uuid
from typing import Any, Optional

from kafka.confluent.serialization import MessageField, SerializationContext, SerializationError

MAGIC_BYTE_V0 = 0
MAGIC_BYTE_V1 = 1
KEY_SCHEMA_ID_HEADER = "__key_schema_id"
VALUE_SCHEMA_ID_HEADER = "__value_schema_id"


class SchemaId:
    """Which schema wrote a payload: its ``schema_type`` and its ``id`` or ``guid``."""

    __slots__ = ["schema_type", "id", "guid", "message_indexes"]

    def __init__(self, schema_type: str, schema_id: Optional[int] = None, guid: Optional[str] = None) -> None:
        self.schema_type = schema_type
        self.id = schema_id
        self.guid = uuid.UUID(guid) if guid is not None else None
        self.message_indexes = None

    def from_bytes(self, payload: io.BytesIO) -> io.BytesIO:
        """Read the magic byte and identity from ``payload``; answers it positioned on the data."""
        magic = payload.read(1)
        if magic == bytes([MAGIC_BYTE_V0]):
            raw = payload.read(4)
            if len(raw) != 4:
                raise SerializationError("The payload ends inside its schema id")
            self.id = struct.unpack(">I", raw)[0]
        elif magic == bytes([MAGIC_BYTE_V1]):
            raw = payload.read(16)
            if len(raw) != 16:
                raise SerializationError("The payload ends inside its schema GUID")
            self.guid = uuid.UUID(bytes=raw)
        else:
            raise SerializationError("Invalid magic byte")
        return payload

    def id_to_bytes(self) -> bytes:
        """Magic byte 0 and the 4-byte id."""
        if self.id is None:
            raise SerializationError("Schema ID is not set")
        return struct.pack(">bI", MAGIC_BYTE_V0, self.id)

    def guid_to_bytes(self) -> bytes:
        """Magic byte 1 and the 16-byte GUID."""
        if self.guid is None:
            raise SerializationError("Schema GUID is not set")
        return bytes([MAGIC_BYTE_V1]) + self.guid.bytes


def _header_name(ctx: SerializationContext) -> str:
    return KEY_SCHEMA_ID_HEADER if ctx.field == MessageField.KEY else VALUE_SCHEMA_ID_HEADER


def prefix_schema_id_serializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> bytes:
    """The payload after magic byte 0 and the schema id (the default)."""
    return schema_id.id_to_bytes() + payload


def header_schema_id_serializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> bytes:
    """The payload as it is, the schema's GUID added to the context's headers."""
    if ctx is None:
        raise SerializationError("SerializationContext is required for header_schema_id_serializer")
    headers = ctx.headers
    if headers is None:
        raise SerializationError("Missing headers")
    value = schema_id.guid_to_bytes()
    if isinstance(headers, list):
        headers.append((_header_name(ctx), value))
    elif isinstance(headers, dict):
        headers[_header_name(ctx)] = value
    else:
        raise SerializationError("Invalid headers type")
    return payload


def prefix_schema_id_deserializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> io.BytesIO:
    """Read the schema's identity from the payload's start."""
    return schema_id.from_bytes(io.BytesIO(payload))


def dual_schema_id_deserializer(payload: bytes, ctx: Optional[SerializationContext], schema_id: Any) -> io.BytesIO:
    """Read the schema's identity from the context's headers if one is there, else from the payload (the default)."""
    found = None
    if ctx is not None and ctx.headers is not None:
        name = _header_name(ctx)
        if isinstance(ctx.headers, list):
            found = next((value for key, value in ctx.headers if key == name), None)
        elif isinstance(ctx.headers, dict):
            found = ctx.headers.get(name)
    if found is not None:
        schema_id.from_bytes(io.BytesIO(found))
        return io.BytesIO(payload)
    return schema_id.from_bytes(io.BytesIO(payload))


__all__ = ["SchemaId", "prefix_schema_id_serializer", "header_schema_id_serializer",
           "prefix_schema_id_deserializer", "dual_schema_id_deserializer"]
