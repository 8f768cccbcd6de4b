"""confluent-kafka's ``AvroSerializer`` and ``AvroDeserializer``, on fastavro (``pip install 'kafkawire[avro]'``).

The serializer writes a value (a dict, or what ``to_dict(obj, ctx)`` makes
of an object) as Avro binary data with fastavro's ``schemaless_writer``,
framed with the schema's registry id; the bytes are confluent-kafka's for
the same schema and value. The deserializer reads the framing, fetches the
writer's schema by id and reads the data with its own schema when it has one
(Avro schema resolution), else with the writer's; ``from_dict(dict, ctx)``
may turn the dict into an object.

A schema is given as text: JSON, or a bare primitive type name (``"string"``,
registered as ``{"type":"string"}``, as confluent-kafka does), or as a
:class:`Schema` whose ``references`` name the registered schemas defining
the types it uses. Settings besides those of
:mod:`kafka.confluent.schema_registry._serde`: ``validate.strict`` and
``validate.strict.allow.default`` (fastavro's ``strict`` and
``strict_allow_default``: refuse records with fields the schema lacks, or
missing fields even with defaults).
"""

from __future__ import annotations

import io
import json
import threading
from typing import Any, Callable, Dict, Optional, Union

from kafka.confluent.schema_registry import _optional
from kafka.confluent.schema_registry._model import Schema
from kafka.confluent.schema_registry._serde import RegistryDeserializer, RegistrySerializer, referenced_schemas
from kafka.confluent.schema_registry._wire import SchemaId
from kafka.confluent.schema_registry.schema_registry_client import SchemaRegistryClient
from kafka.confluent.serialization import SerializationContext, SerializationError

AVRO_TYPE = "AVRO"
ToDict = Callable[[Any, SerializationContext], Any]
FromDict = Callable[[Any, SerializationContext], Any]


def _schema_loads(schema_str: str) -> Schema:
    """A :class:`Schema` for Avro text; a bare type name becomes ``{"type":<name>}``."""
    schema_str = schema_str.strip()
    if schema_str[:1] not in ("{", "["):
        schema_str = '{"type":' + schema_str + "}"
    return Schema(schema_str, schema_type=AVRO_TYPE)


def _as_schema(schema_str: Union[str, Schema, None]) -> Optional[Schema]:
    if isinstance(schema_str, str):
        return _schema_loads(schema_str)
    if isinstance(schema_str, Schema) or schema_str is None:
        return schema_str
    raise TypeError("You must pass either schema string or schema object")


class _ParsedSchemas:
    """fastavro's parsed form of each schema met, its referenced named types fetched from the registry."""

    def __init__(self, registry: Optional[SchemaRegistryClient]) -> None:
        self._registry = registry
        self._parsed: Dict[Schema, Any] = {}
        self._lock = threading.Lock()

    def _named(self, schema: Schema, named: Dict[str, Any]) -> None:
        fastavro_schema = _optional.load("fastavro.schema")
        for _reference, text in referenced_schemas(self._registry, schema):
            fastavro_schema.parse_schema(json.loads(text), named_schemas=named)

    def get(self, schema: Schema) -> Any:
        """``schema`` parsed by fastavro."""
        with self._lock:
            if schema in self._parsed:
                return self._parsed[schema]
        if schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        named: Dict[str, Any] = {}
        self._named(schema, named)
        text = _schema_loads(schema.schema_str).schema_str
        assert text is not None
        parsed = _optional.load("fastavro.schema").parse_schema(json.loads(text), named_schemas=named)
        with self._lock:
            self._parsed[schema] = parsed
        return parsed


def _is_bytes(parsed: Any) -> bool:
    return parsed == "bytes" or (isinstance(parsed, dict) and parsed.get("type") == "bytes")


class AvroSerializer(RegistrySerializer):
    """Avro values framed with their schema's registry id (see the module's documentation)."""

    schema_type = AVRO_TYPE

    def __init__(self, schema_registry_client: SchemaRegistryClient, schema_str: Union[str, Schema, None] = None,
                 to_dict: Optional[ToDict] = None, conf: Optional[Dict[str, Any]] = None) -> None:
        self._fastavro = _optional.load("fastavro")
        schema = _as_schema(schema_str)
        if to_dict is not None and not callable(to_dict):
            raise ValueError("to_dict must be callable with the signature to_dict(object, SerializationContext)->dict")
        self._to_dict = to_dict
        own = self._configure(schema_registry_client, conf,
                              {"validate.strict": False, "validate.strict.allow.default": False})
        for key in own:
            if not isinstance(own[key], bool):
                raise ValueError("%s must be a boolean value" % key)
        self._strict = own["validate.strict"]
        self._strict_allow_default = own["validate.strict.allow.default"]
        self._parsed_schemas = _ParsedSchemas(schema_registry_client)
        self._schema = schema
        self._schema_name: Optional[str] = None
        self._parsed_schema: Any = None
        if schema is not None:
            self._parsed_schema = self._parsed_schemas.get(schema)
            if isinstance(self._parsed_schema, dict) and schema.schema_str is not None:
                self._schema_name = self._parsed_schema.get("name", json.loads(schema.schema_str).get("type"))

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        if obj is None:
            return None
        schema_id, latest = self._subject_and_id(ctx, self._schema, self._schema_name)
        value = self._as_dict(obj, ctx)
        parsed = self._parsed_schemas.get(latest.schema) if latest is not None else self._parsed_schema
        if _is_bytes(parsed):
            payload = value if isinstance(value, bytes) else value.encode()
        else:
            out = io.BytesIO()
            self._fastavro.schemaless_writer(out, parsed, value, strict=self._strict,
                                             strict_allow_default=self._strict_allow_default)
            payload = out.getvalue()
        return self._frame(payload, ctx, schema_id)


class AvroDeserializer(RegistryDeserializer):
    """Reads framed Avro values into dicts (or what ``from_dict`` makes of them)."""

    schema_type = AVRO_TYPE

    def __init__(self, schema_registry_client: SchemaRegistryClient, schema_str: Union[str, Schema, None] = None,
                 from_dict: Optional[FromDict] = None, return_record_name: bool = False,
                 conf: Optional[Dict[str, Any]] = None) -> None:
        self._fastavro = _optional.load("fastavro")
        self._schema = _as_schema(schema_str)
        self._configure(schema_registry_client, conf, {})
        self._parsed_schemas = _ParsedSchemas(schema_registry_client)
        self._reader = self._parsed_schemas.get(self._schema) if self._schema is not None else None
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature from_dict(SerializationContext, dict) "
                             "-> object")
        self._from_dict = from_dict
        if not isinstance(return_record_name, bool):
            raise ValueError("return_record_name must be a boolean value")
        self._return_record_name = return_record_name

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        if value is None:
            return None
        if len(value) <= 5:
            raise SerializationError("Expecting data framing of length 6 bytes or more but total data size is {} "
                                     "bytes. This message was not produced with a Confluent Schema Registry "
                                     "serializer".format(len(value)))
        subject = self._subject(ctx, None) if ctx else None
        latest = self._reader_schema(subject) if subject is not None else None
        schema_id = SchemaId(AVRO_TYPE)
        payload = self._schema_id_deserializer(value, ctx, schema_id)
        writer_schema = self._writer_schema(schema_id, subject)
        writer = self._parsed_schemas.get(writer_schema)
        if subject is None and isinstance(writer, dict) and ctx:
            subject = self._subject(ctx, writer.get("name"))
            if subject is not None:
                latest = self._reader_schema(subject)
        if latest is not None:
            reader = self._parsed_schemas.get(latest.schema)
        elif self._reader is not None:
            reader = self._reader
        else:
            reader = writer
        if isinstance(payload, bytes):
            payload = io.BytesIO(payload)
        if _is_bytes(writer):
            record = payload.read()
        else:
            record = self._fastavro.schemaless_reader(payload, writer, reader, self._return_record_name)
        return self._from_record(record, ctx)


__all__ = ["AvroSerializer", "AvroDeserializer"]
