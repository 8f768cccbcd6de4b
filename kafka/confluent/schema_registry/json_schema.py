"""confluent-kafka's ``JSONSerializer`` and ``JSONDeserializer``, on jsonschema (``pip install 'kafkawire[json]'``).

The serializer checks a value (a dict, or what ``to_dict(obj, ctx)`` makes
of an object) against its JSON Schema (setting ``validate``, on by default),
writes it as compact UTF-8 JSON (``json.dumps`` with ``(",", ":")``
separators, non-ASCII kept, as confluent-kafka writes it without orjson) and
frames it with the schema's registry id. The deserializer reads the
framing, decodes the JSON and checks it against its own schema, the
subject's latest one (``use.latest.version``) or the writer's fetched by id.
A schema's ``title`` is its record name for the record subject name
strategies. Schemas given with ``references`` resolve ``$ref`` to the
referenced registered schemas by their reference names; other remote
``$ref`` URLs are not fetched.
"""

from __future__ import annotations

import io
import json
import threading
from typing import Any, Callable, Dict, Optional, Tuple, Union

from kafka.confluent.schema_registry import _optional
from kafka.confluent.schema_registry._model import Schema
from kafka.confluent.schema_registry._serde import RegistryDeserializer, RegistrySerializer, referenced_schemas
from kafka.confluent.schema_registry._wire import SchemaId
from kafka.confluent.schema_registry.schema_registry_client import SchemaRegistryClient
from kafka.confluent.serialization import SerializationContext, SerializationError

JSON_TYPE = "JSON"
ToDict = Callable[[Any, SerializationContext], Any]
FromDict = Callable[[Any, SerializationContext], Any]


def _json_dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class _Validators:
    """Each schema's parsed document, reference registry and validator, made once."""

    def __init__(self, registry: Optional[SchemaRegistryClient]) -> None:
        self._registry = registry
        self._parsed: Dict[Schema, Tuple[Any, Any]] = {}
        self._validators: Dict[Schema, Any] = {}
        self._lock = threading.Lock()

    def _references(self, schema: Schema, resources: Any) -> Any:
        referencing = _optional.load("referencing")
        drafts = _optional.load("referencing.jsonschema")
        for reference, text in referenced_schemas(self._registry, schema):
            if reference.name is None:
                raise TypeError("Name cannot be None")
            resource = referencing.Resource.from_contents(json.loads(text),
                                                          default_specification=drafts.DRAFT7)
            resources = resources.with_resource(reference.name, resource)
        return resources

    def parsed(self, schema: Schema) -> Tuple[Any, Any]:
        """(the schema's document, the registry of the schemas it references)."""
        with self._lock:
            if schema in self._parsed:
                return self._parsed[schema]
        if schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        found = (json.loads(schema.schema_str), self._references(schema, _optional.load("referencing").Registry()))
        with self._lock:
            self._parsed[schema] = found
        return found

    def validate(self, schema: Schema, value: Any) -> None:
        """Raise :class:`SerializationError` unless ``value`` is valid for ``schema``."""
        with self._lock:
            validator = self._validators.get(schema)
        if validator is None:
            document, resources = self.parsed(schema)
            cls = _optional.load("jsonschema.validators").validator_for(document)
            cls.check_schema(document)
            validator = cls(document, registry=resources)
            with self._lock:
                self._validators[schema] = validator
        try:
            validator.validate(value)
        except _optional.load("jsonschema").ValidationError as exc:
            raise SerializationError(exc.message) from None


def _as_schema(schema_str: Union[str, Schema, None]) -> Optional[Schema]:
    if isinstance(schema_str, str):
        return Schema(schema_str, schema_type=JSON_TYPE)
    return schema_str


def _title(document: Any) -> Optional[str]:
    return document.get("title") if isinstance(document, dict) else None


class JSONSerializer(RegistrySerializer):
    """JSON values checked against their schema and framed with its registry id."""

    schema_type = JSON_TYPE

    def __init__(self, schema_str: Union[str, Schema, None], schema_registry_client: SchemaRegistryClient,
                 to_dict: Optional[ToDict] = None, conf: Optional[Dict[str, Any]] = None, *,
                 json_encode: Optional[Callable[[Any], Union[str, bytes]]] = None) -> None:
        _optional.load("jsonschema")
        if schema_str is not None and not isinstance(schema_str, (str, Schema)):
            raise TypeError("You must pass either str or Schema")
        self._schema = _as_schema(schema_str)
        self._json_encode = json_encode or _json_dumps
        if to_dict is not None and not callable(to_dict):
            raise ValueError("to_dict must be callable with the signature to_dict(object, SerializationContext)->dict")
        self._to_dict = to_dict
        own = self._configure(schema_registry_client, conf, {"validate": True})
        if not isinstance(own["validate"], bool):
            raise ValueError("validate must be a boolean value")
        self._validate = own["validate"]
        self._validators = _Validators(schema_registry_client)
        self._schema_name = _title(self._validators.parsed(self._schema)[0]) if self._schema is not None else None

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        if obj is None:
            return None
        schema_id, latest = self._subject_and_id(ctx, self._schema, self._schema_name)
        value = self._as_dict(obj, ctx)
        schema = latest.schema if latest is not None else self._schema
        if self._validate and schema is not None:
            self._validators.validate(schema, value)
        encoded = self._json_encode(value)
        payload = encoded.encode("utf8") if isinstance(encoded, str) else encoded
        return self._frame(payload, ctx, schema_id)


class JSONDeserializer(RegistryDeserializer):
    """Reads framed JSON values, checked against a schema, into dicts (or what ``from_dict`` makes of them)."""

    schema_type = JSON_TYPE

    def __init__(self, schema_str: Union[str, Schema, None], from_dict: Optional[FromDict] = None,
                 schema_registry_client: Optional[SchemaRegistryClient] = None,
                 conf: Optional[Dict[str, Any]] = None, *,
                 json_decode: Optional[Callable[[Union[str, bytes]], Any]] = None) -> None:
        _optional.load("jsonschema")
        if isinstance(schema_str, Schema):
            if schema_str.references and schema_registry_client is None:
                raise ValueError('schema_registry_client must be provided if "schema_str" is a Schema instance '
                                 'with references')
        elif schema_str is None:
            if schema_registry_client is None:
                raise ValueError('schema_registry_client must be provided if "schema_str" is not provided')
        elif not isinstance(schema_str, str):
            raise TypeError("You must pass either str or Schema")
        self._schema = _as_schema(schema_str)
        self._json_decode = json_decode or json.loads
        own = self._configure(schema_registry_client, conf, {"validate": True})
        if not isinstance(own["validate"], bool):
            raise ValueError("validate must be a boolean value")
        self._validate = own["validate"]
        self._validators = _Validators(schema_registry_client)
        if self._schema is not None:
            self._validators.parsed(self._schema)
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature from_dict(dict, SerializationContext) "
                             "-> object")
        self._from_dict = from_dict

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        if value is None:
            return None
        subject = self._subject(ctx, None)
        latest = self._reader_schema(subject) if subject is not None else None
        schema_id = SchemaId(JSON_TYPE)
        payload = self._schema_id_deserializer(value, ctx, schema_id)
        writer: Optional[Schema] = None
        if self._registry is not None:
            writer = self._writer_schema(schema_id, subject)
            if subject is None:
                subject = self._subject(ctx, _title(self._validators.parsed(writer)[0]))
                if subject is not None:
                    latest = self._reader_schema(subject)
        if isinstance(payload, bytes):
            payload = io.BytesIO(payload)
        record = self._json_decode(payload.read())
        if latest is not None and writer is not None:
            reader: Optional[Schema] = latest.schema
        elif self._schema is not None:
            reader = self._schema
        else:
            reader = writer
        if self._validate and reader is not None:
            self._validators.validate(reader, record)
        return self._from_record(record, ctx)


__all__ = ["JSONSerializer", "JSONDeserializer"]
