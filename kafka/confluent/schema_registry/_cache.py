"""What a Schema Registry client remembers: schemas by id, ids by schema, registrations, latest versions.

Registry answers about a schema id or a registered version never change, so
:class:`SchemaCache` keeps them for the client's life (until a deletion
through the same client); the latest version of a subject does change, so
it goes into a :class:`BoundedCache`, least recently used first out, with an
optional time to live (``cache.latest.ttl.sec``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Dict, Generic, Hashable, Optional, Tuple, TypeVar

from kafka.confluent.schema_registry._model import RegisteredSchema, Schema

V = TypeVar("V")

#: The clock entries' ages are read from (a module attribute, so that tests can move it on).
clock = time.monotonic


class BoundedCache(Generic[V]):
    """A thread-safe mapping of at most ``capacity`` entries, each kept at most ``ttl`` seconds (None: no limit)."""

    def __init__(self, capacity: int, ttl: Optional[float] = None) -> None:
        self._capacity = max(int(capacity), 1)
        self._ttl = ttl
        self._entries: "OrderedDict[Hashable, Tuple[float, V]]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Optional[V]:
        """The value kept for ``key``, or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if self._ttl is not None and clock() - entry[0] >= self._ttl:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def set(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used entry when full."""
        with self._lock:
            self._entries[key] = (clock(), value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._entries.clear()


class SchemaCache:
    """The registry's lasting answers, each under the subject it was asked for (None for none)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: Dict[Optional[str], Dict[int, Tuple[Optional[str], Schema]]] = {}
        self._ids: Dict[Optional[str], Dict[Schema, int]] = {}
        self._by_guid: Dict[str, Schema] = {}
        self._registered_by_id: Dict[Optional[str], Dict[int, RegisteredSchema]] = {}
        self._registered_by_version: Dict[Optional[str], Dict[Any, RegisteredSchema]] = {}
        self._registered_by_schema: Dict[Optional[str], Dict[Schema, RegisteredSchema]] = {}

    def _per_subject(self) -> Tuple[Dict[Any, Any], ...]:
        return (self._by_id, self._ids, self._registered_by_id, self._registered_by_version,
                self._registered_by_schema)

    def set_schema(self, subject: Optional[str], schema_id: Optional[int], guid: Optional[str],
                   schema: Schema) -> None:
        """Remember ``schema`` as the one of ``schema_id`` (and ``guid``)."""
        with self._lock:
            if schema_id is not None:
                self._by_id.setdefault(subject, {})[schema_id] = (guid, schema)
                self._ids.setdefault(subject, {})[schema] = schema_id
            if guid is not None:
                self._by_guid[guid] = schema

    def set_registered(self, schema: Schema, registered: RegisteredSchema) -> None:
        """Remember a registration of ``schema`` (by its id, version and schema)."""
        subject = registered.subject
        with self._lock:
            if registered.schema_id is not None:
                self._by_id.setdefault(subject, {})[registered.schema_id] = (registered.guid, schema)
                self._ids.setdefault(subject, {})[schema] = registered.schema_id
                self._registered_by_id.setdefault(subject, {})[registered.schema_id] = registered
            if registered.guid is not None:
                self._by_guid[registered.guid] = schema
            self._registered_by_version.setdefault(subject, {})[registered.version] = registered
            self._registered_by_schema.setdefault(subject, {})[schema] = registered

    def schema_by_id(self, subject: Optional[str], schema_id: int) -> Optional[Tuple[Optional[str], Schema]]:
        """(guid, schema) of ``schema_id``, if known."""
        with self._lock:
            return self._by_id.get(subject, {}).get(schema_id)

    def schema_by_guid(self, guid: str) -> Optional[Schema]:
        """The schema of ``guid``, if known."""
        with self._lock:
            return self._by_guid.get(guid)

    def id_by_schema(self, subject: Optional[str], schema: Schema) -> Optional[int]:
        """The id ``schema`` got under ``subject``, if known."""
        with self._lock:
            return self._ids.get(subject, {}).get(schema)

    def registered_by_schema(self, subject: str, schema: Schema) -> Optional[RegisteredSchema]:
        """The registration of ``schema`` under ``subject``, if known."""
        with self._lock:
            return self._registered_by_schema.get(subject, {}).get(schema)

    def registered_by_id(self, subject: str, schema_id: int) -> Optional[RegisteredSchema]:
        """The registration of ``schema_id`` under ``subject``, if known."""
        with self._lock:
            return self._registered_by_id.get(subject, {}).get(schema_id)

    def registered_by_version(self, subject: str, version: Any) -> Optional[RegisteredSchema]:
        """Version ``version`` of ``subject``, if known."""
        with self._lock:
            return self._registered_by_version.get(subject, {}).get(version)

    def forget_subject(self, subject: str) -> None:
        """Drop what is known under ``subject``."""
        with self._lock:
            for index in self._per_subject():
                index.pop(subject, None)

    def forget_version(self, subject: str, version: int) -> None:
        """Drop version ``version`` of ``subject`` and what was learned through it."""
        with self._lock:
            by_id = self._registered_by_id.get(subject, {})
            for key in [k for k, r in by_id.items() if r.version == version]:
                del by_id[key]
            by_schema = self._registered_by_schema.get(subject, {})
            for schema in [s for s, r in by_schema.items() if r.version == version]:
                del by_schema[schema]
            registered = self._registered_by_version.get(subject, {}).pop(version, None)
            if registered is not None:
                if registered.schema_id is not None:
                    self._by_id.get(subject, {}).pop(registered.schema_id, None)
                self._ids.get(subject, {}).pop(registered.schema, None)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            for index in self._per_subject():
                index.clear()
            self._by_guid.clear()


__all__ = ["BoundedCache", "SchemaCache"]
