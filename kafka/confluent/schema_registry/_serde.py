"""What the Avro and JSON Schema serializers share: their settings and how they find the schema id.

A serializer asks its subject name strategy for the subject, then either
uses the subject's registered schema (``use.schema.id``,
``use.latest.version``) or makes sure its own schema is registered under the
subject, registering it (``auto.register.schemas``, the default) or looking
it up, once per subject. A deserializer reads the schema id from the
framing, fetches that writer schema (cached by the client) and reads the
payload with its own schema, the subject's latest one
(``use.latest.version``) or the writer's.

Settings, as confluent-kafka names them: ``auto.register.schemas``,
``normalize.schemas``, ``use.schema.id``, ``use.latest.version``,
``use.latest.with.metadata``, ``subject.name.strategy`` (a callable),
``subject.name.strategy.type`` (``TOPIC``, ``RECORD`` or ``TOPIC_RECORD``),
``subject.name.strategy.conf``, ``schema.id.serializer`` and
``schema.id.deserializer``. Data contract rules (migrations, encryption,
CEL conditions) are not run: a subject's rule set is ignored.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Iterator, Optional, Set, Tuple

from kafka.confluent.schema_registry._model import RegisteredSchema, Schema, SchemaReference
from kafka.confluent.schema_registry._naming import STRATEGY_TYPES, default_subject_name_strategy
from kafka.confluent.schema_registry._wire import (SchemaId, dual_schema_id_deserializer,
                                                   prefix_schema_id_serializer)
from kafka.confluent.schema_registry.schema_registry_client import SchemaRegistryClient
from kafka.confluent.serialization import Deserializer, SerializationContext, SerializationError, Serializer

def referenced_schemas(registry: Optional[SchemaRegistryClient],
                       schema: Schema) -> Iterator[Tuple[SchemaReference, str]]:
    """The text of every schema ``schema`` references, fetched from ``registry``, each after its own references."""
    for reference in schema.references or []:
        if reference.subject is None or reference.version is None:
            raise TypeError("Subject or version cannot be None")
        if registry is None:
            raise ValueError("a schema with references needs a schema registry client")
        referenced = registry.get_version(reference.subject, reference.version, True).schema
        yield from referenced_schemas(registry, referenced)
        if referenced.schema_str is None:
            raise TypeError("Schema string cannot be None")
        yield reference, referenced.schema_str


SERIALIZER_DEFAULTS: Dict[str, Any] = {
    "auto.register.schemas": True,
    "normalize.schemas": False,
    "use.schema.id": None,
    "use.latest.version": False,
    "use.latest.with.metadata": None,
    "subject.name.strategy.type": None,
    "subject.name.strategy.conf": None,
    "subject.name.strategy": None,
    "schema.id.serializer": prefix_schema_id_serializer,
}

DESERIALIZER_DEFAULTS: Dict[str, Any] = {
    "use.latest.version": False,
    "use.latest.with.metadata": None,
    "subject.name.strategy.type": None,
    "subject.name.strategy.conf": None,
    "subject.name.strategy": None,
    "schema.id.deserializer": dual_schema_id_deserializer,
}


def _boolean(conf: Dict[str, Any], key: str) -> bool:
    value = conf.pop(key)
    if not isinstance(value, bool):
        raise ValueError("%s must be a boolean value" % key)
    return value


class _Settings:
    """The settings both directions read, taken out of ``conf`` (what is left is the caller's)."""

    def __init__(self, conf: Dict[str, Any]) -> None:
        self.use_latest_version = _boolean(conf, "use.latest.version")
        self.use_latest_with_metadata = conf.pop("use.latest.with.metadata")
        if self.use_latest_with_metadata is not None and not isinstance(self.use_latest_with_metadata, dict):
            raise ValueError("use.latest.with.metadata must be a dict value")
        strategy = conf.pop("subject.name.strategy")
        strategy_type = conf.pop("subject.name.strategy.type")
        conf.pop("subject.name.strategy.conf")
        if strategy is not None:
            if not callable(strategy):
                raise ValueError("subject.name.strategy must be callable")
        elif strategy_type is not None:
            name = getattr(strategy_type, "value", strategy_type)
            strategy = STRATEGY_TYPES.get(str(name).upper())
            if strategy is None:
                raise ValueError("Invalid subject.name.strategy.type: %s. Valid values are: %s (kafkawire does not "
                                 "support ASSOCIATED)" % (strategy_type, list(STRATEGY_TYPES)))
        self.subject_name_func: Callable[[Optional[SerializationContext], Optional[str]], Optional[str]] = \
            strategy or default_subject_name_strategy


class _Registry:
    """The schema lookups both directions make."""

    _registry: Optional[SchemaRegistryClient]
    _use_schema_id: Optional[int]
    _settings: _Settings

    def _reader_schema(self, subject: str) -> Optional[RegisteredSchema]:
        """The subject's registered schema the settings ask to use, or None to use one's own."""
        registry = self._registry
        if registry is None:
            return None
        if self._use_schema_id is not None:
            schema = registry.get_schema(self._use_schema_id, subject)
            known = registry._cache.registered_by_id(subject, self._use_schema_id)
            if known is not None:
                return known
            return registry.lookup_schema(subject, schema, normalize_schemas=False, deleted=True)
        if self._settings.use_latest_with_metadata is not None:
            return registry.get_latest_with_metadata(subject, self._settings.use_latest_with_metadata, deleted=True)
        if self._settings.use_latest_version:
            return registry.get_latest_version(subject)
        return None

    def _writer_schema(self, schema_id: SchemaId, subject: Optional[str]) -> Schema:
        assert self._registry is not None
        if schema_id.id is not None:
            return self._registry.get_schema(schema_id.id, subject)
        if schema_id.guid is not None:
            return self._registry.get_schema_by_guid(str(schema_id.guid))
        raise SerializationError("Schema ID or GUID is not set")


class RegistrySerializer(_Registry, Serializer):
    """A serializer that frames its payload with the id of its schema in the registry."""

    schema_type = "AVRO"

    def _configure(self, schema_registry_client: SchemaRegistryClient, conf: Optional[Dict[str, Any]],
                   extra_defaults: Dict[str, Any]) -> Dict[str, Any]:
        """Read the shared settings; answers the serializer's own ones (``extra_defaults`` filled in)."""
        self._registry = schema_registry_client
        self._known_subjects: Set[str] = set()
        self._ids: Dict[str, SchemaId] = {}
        self._lock = threading.Lock()
        conf_copy = dict(SERIALIZER_DEFAULTS, **extra_defaults)
        conf_copy.update(conf or {})
        self._auto_register = _boolean(conf_copy, "auto.register.schemas")
        self._normalize_schemas = _boolean(conf_copy, "normalize.schemas")
        self._use_schema_id = conf_copy.pop("use.schema.id")
        if self._use_schema_id is not None and not isinstance(self._use_schema_id, int):
            raise ValueError("use.schema.id must be an int value")
        self._settings = _Settings(conf_copy)
        if self._settings.use_latest_version and self._auto_register:
            raise ValueError("cannot enable both use.latest.version and auto.register.schemas")
        self._schema_id_serializer = conf_copy.pop("schema.id.serializer")
        if not callable(self._schema_id_serializer):
            raise ValueError("schema.id.serializer must be callable")
        own = {key: conf_copy.pop(key) for key in extra_defaults}
        if conf_copy:
            raise ValueError("Unrecognized properties: {}".format(", ".join(conf_copy)))
        return own

    #: ``to_dict(obj, ctx)`` the serializer was given (None: ``obj`` is serialized as it is).
    _to_dict: Any = None

    def _as_dict(self, obj: Any, ctx: Optional[SerializationContext]) -> Any:
        """``obj`` turned by ``to_dict`` into what the schema describes, when one was given."""
        if self._to_dict is None:
            return obj
        if ctx is None:
            raise TypeError("SerializationContext cannot be None")
        return self._to_dict(obj, ctx)

    def _subject_and_id(self, ctx: Optional[SerializationContext], schema: Optional[Schema],
                        schema_name: Optional[str]) -> Tuple[Optional[SchemaId], Optional[RegisteredSchema]]:
        """The schema id to frame with, and the subject's registered schema when the settings use it."""
        subject = self._settings.subject_name_func(ctx, schema_name)
        latest = self._reader_schema(subject) if subject else None
        if latest is not None:
            return SchemaId(self.schema_type, latest.schema_id, latest.guid), latest
        if subject is None:
            return None, None
        registry = self._registry
        assert registry is not None
        with self._lock:
            if subject not in self._known_subjects:
                if schema is None:
                    raise ValueError("a serializer made without a schema needs use.latest.version or use.schema.id")
                if self._auto_register:
                    registered = registry.register_schema_full_response(
                        subject, schema, normalize_schemas=self._normalize_schemas)
                else:
                    registered = registry.lookup_schema(subject, schema, normalize_schemas=self._normalize_schemas)
                self._ids[subject] = SchemaId(self.schema_type, registered.schema_id, registered.guid)
                self._known_subjects.add(subject)
            return self._ids[subject], None

    def _frame(self, payload: bytes, ctx: Optional[SerializationContext], schema_id: Optional[SchemaId]) -> bytes:
        return self._schema_id_serializer(payload, ctx, schema_id or SchemaId(self.schema_type))


class RegistryDeserializer(_Registry, Deserializer):
    """A deserializer that reads the framing's schema id and fetches the writer's schema."""

    schema_type = "AVRO"
    #: ``from_dict(record, ctx)`` the deserializer was given (None: the record is handed out as read).
    _from_dict: Any = None

    def _from_record(self, record: Any, ctx: Optional[SerializationContext]) -> Any:
        """The record read, turned into an object by ``from_dict`` when one was given."""
        if self._from_dict is None:
            return record
        if ctx is None:
            raise TypeError("SerializationContext cannot be None")
        return self._from_dict(record, ctx)

    def _configure(self, schema_registry_client: Optional[SchemaRegistryClient], conf: Optional[Dict[str, Any]],
                   extra_defaults: Dict[str, Any]) -> Dict[str, Any]:
        """Read the shared settings; answers the deserializer's own ones."""
        self._registry = schema_registry_client
        self._use_schema_id = None
        conf_copy = dict(DESERIALIZER_DEFAULTS, **extra_defaults)
        conf_copy.update(conf or {})
        self._settings = _Settings(conf_copy)
        self._schema_id_deserializer = conf_copy.pop("schema.id.deserializer")
        if not callable(self._schema_id_deserializer):
            raise ValueError("schema.id.deserializer must be callable")
        own = {key: conf_copy.pop(key) for key in extra_defaults}
        if conf_copy:
            raise ValueError("Unrecognized properties: {}".format(", ".join(conf_copy)))
        return own

    def _subject(self, ctx: Optional[SerializationContext], name: Optional[str]) -> Optional[str]:
        return self._settings.subject_name_func(ctx, name)


__all__ = ["RegistrySerializer", "RegistryDeserializer", "SERIALIZER_DEFAULTS", "DESERIALIZER_DEFAULTS"]
