"""confluent-kafka's legacy ``MessageSerializer``: Avro records framed with their schema's registry id.

A framed record is magic byte 0, the schema id as a 4-byte big-endian
integer, then the record in Avro's binary encoding (fastavro's
``schemaless_writer``; ``pip install 'kafkawire[avro]'``): the bytes of
confluent-kafka's legacy serializer and of the newer ``AvroSerializer``.
Encoding registers the schema under ``<topic>-value`` or ``<topic>-key``
(or, with ``auto.register.schemas`` off, looks its id up); decoding fetches
the writer's schema by id and reads with the reader schema given for keys
or values, if any (Avro schema resolution).
"""

from __future__ import annotations

import io
import json
import struct
from typing import Any, Callable, Dict, Optional, Tuple

from kafka.confluent.avro._schema import ParsedSchema
from kafka.confluent.avro.error import ClientError
from kafka.confluent.avro.serializer import KeySerializerError, SerializerError, ValueSerializerError
from kafka.confluent.schema_registry import _optional

MAGIC_BYTE = 0
_HEADER = struct.Struct(">bI")

Encoder = Callable[[Any, io.BytesIO], None]
Decoder = Callable[[io.BytesIO], Any]


def _parsed(schema: Any) -> Any:
    """fastavro's parsed form of a :class:`ParsedSchema` or of schema JSON text."""
    if isinstance(schema, ParsedSchema):
        return schema.parsed
    return _optional.load("fastavro.schema").parse_schema(json.loads(str(schema)), _write_hint=False)


class MessageSerializer:
    """Encodes records for, and decodes records from, Kafka with the schemas of a registry.

    ``registry_client`` is a
    :class:`~kafka.confluent.avro.cached_schema_registry_client.CachedSchemaRegistryClient`
    (or anything with its ``register``, ``check_registration``, ``get_by_id``
    and ``auto_register_schemas``); ``reader_key_schema`` and
    ``reader_value_schema`` are the schemas to read keys and values with
    (None: the writer's).
    """

    def __init__(self, registry_client: Any, reader_key_schema: Any = None, reader_value_schema: Any = None) -> None:
        self.registry_client = registry_client
        self.reader_key_schema = reader_key_schema
        self.reader_value_schema = reader_value_schema
        #: schema id -> encoding function
        self.id_to_writers: Dict[int, Encoder] = {}
        #: (schema id, is_key) -> decoding function
        self.id_to_decoder_func: Dict[Tuple[int, bool], Decoder] = {}

    @staticmethod
    def _encoder(schema: Any) -> Encoder:
        fastavro = _optional.load("fastavro")
        parsed = _parsed(schema)
        return lambda record, out: fastavro.schemaless_writer(out, parsed, record)

    def encode_record_with_schema(self, topic: str, schema: Any, record: Any, is_key: bool = False) -> bytes:
        """``record`` framed and encoded with ``schema``, registered under ``topic``'s key or value subject.

        Raises ``ClientError`` when the registry refuses the schema, and
        ``KeySerializerError``/``ValueSerializerError`` when it answers no id.
        """
        error = KeySerializerError if is_key else ValueSerializerError
        subject = topic + ("-key" if is_key else "-value")
        if self.registry_client.auto_register_schemas:
            schema_id = self.registry_client.register(subject, schema)
        else:
            schema_id = self.registry_client.check_registration(subject, schema)
        if not schema_id:
            raise error("Unable to retrieve schema id for subject %s" % subject)
        if schema_id not in self.id_to_writers:
            self.id_to_writers[schema_id] = self._encoder(schema)
        return self.encode_record_with_schema_id(schema_id, record, is_key=is_key)

    def encode_record_with_schema_id(self, schema_id: int, record: Any, is_key: bool = False) -> bytes:
        """``record`` framed and encoded with the schema the registry has for ``schema_id``."""
        error = KeySerializerError if is_key else ValueSerializerError
        if schema_id not in self.id_to_writers:
            try:
                schema = self.registry_client.get_by_id(schema_id)
            except ClientError as exc:
                raise error("unable to fetch schema with id %d: %s" % (schema_id, exc)) from exc
            if not schema:
                raise error("Schema does not exist")
            self.id_to_writers[schema_id] = self._encoder(schema)
        out = io.BytesIO()
        out.write(_HEADER.pack(MAGIC_BYTE, schema_id))
        self.id_to_writers[schema_id](record, out)
        return out.getvalue()

    def _decoder(self, schema_id: int, is_key: bool) -> Decoder:
        known = self.id_to_decoder_func.get((schema_id, is_key))
        if known is not None:
            return known
        try:
            writer_schema = self.registry_client.get_by_id(schema_id)
        except ClientError as exc:
            raise SerializerError("unable to fetch schema with id %d: %s" % (schema_id, exc)) from exc
        if writer_schema is None:
            raise SerializerError("unable to fetch schema with id %d" % schema_id)
        reader_schema = self.reader_key_schema if is_key else self.reader_value_schema
        writer = _parsed(writer_schema)
        reader = _parsed(reader_schema) if reader_schema is not None else None
        fastavro = _optional.load("fastavro")

        def decode(payload: io.BytesIO) -> Any:
            return fastavro.schemaless_reader(payload, writer, reader)

        self.id_to_decoder_func[(schema_id, is_key)] = decode
        return decode

    def decode_message(self, message: Optional[bytes], is_key: bool = False) -> Any:
        """The record framed in ``message`` (None stays None).

        Raises ``SerializerError`` when the bytes are not a framed record
        (too short, another magic byte), the registry has no schema for
        their id, or the record does not read with it.
        """
        if message is None:
            return None
        if len(message) <= 5:
            raise SerializerError("message is too small to decode")
        magic, schema_id = _HEADER.unpack_from(message)
        if magic != MAGIC_BYTE:
            raise SerializerError("message does not start with magic byte")
        decode = self._decoder(schema_id, is_key)
        try:
            return decode(io.BytesIO(message[5:]))
        except Exception as exc:  # fastavro raises EOFError, SchemaResolutionError, ValueError, ...
            raise SerializerError("unable to decode message with schema id %d: %s: %s"
                                  % (schema_id, type(exc).__name__, exc)) from exc


__all__ = ["MessageSerializer", "MAGIC_BYTE"]
