"""confluent-kafka's ``SchemaRegistryClient``: the Schema Registry's REST API as method calls.

The methods, their arguments, defaults and answers are confluent-kafka's
(2.16): ``register_schema`` answers the id, ``lookup_schema`` and
``get_version`` a :class:`RegisteredSchema`, ``get_schema`` a :class:`Schema`,
``set_compatibility`` and ``set_config`` the registry's answer as it came.
Answers that cannot change (a schema's id, an id's schema, a registered
version) are cached for the client's life, the latest version of a subject
in a bounded cache (``cache.capacity`` entries, ``cache.latest.ttl.sec``).
HTTP, TLS, credentials and retries are :mod:`kafka.confluent.schema_registry._rest`'s.

Configuration keys: ``url`` (several may be given, comma-separated, tried
in turn), ``basic.auth.user.info`` (``user:password``; credentials in the
URL are used otherwise), ``basic.auth.credentials.source`` (``USER_INFO``,
``URL`` or ``SASL_INHERIT`` with ``sasl.username``/``sasl.password``: the
older confluent-kafka client's key, refused by confluent-kafka 2.16 and kept
here for programs written for it), ``ssl.ca.location`` (a file or directory
of CA certificates, or False not to check the server's),
``ssl.certificate.location``, ``ssl.key.location``, ``ssl.key.password``,
``proxy``, ``timeout`` (seconds), ``cache.capacity``,
``cache.latest.ttl.sec``, ``max.retries``, ``retries.wait.ms``,
``retries.max.wait.ms``, and ``bearer.auth.credentials.source``
``STATIC_TOKEN`` (``bearer.auth.token``, ``bearer.auth.logical.cluster``,
``bearer.auth.identity.pool.id``) or ``CUSTOM``
(``bearer.auth.custom.provider.function`` and ``.config``). Another key
raises ``ValueError``.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Union

from kafka.confluent.schema_registry._cache import BoundedCache, SchemaCache
from kafka.confluent.schema_registry._model import RegisteredSchema, Schema, SchemaVersion, ServerConfig
from kafka.confluent.schema_registry._rest import RestClient, path_part
from kafka.confluent.schema_registry.error import SchemaRegistryError

Version = Union[int, str]


def _flag(value: bool) -> str:
    return "true" if value else "false"


class SchemaRegistryClient:
    """A client of a Confluent Schema Registry (see the module's documentation for ``conf``)."""

    def __init__(self, conf: Dict[str, Any]) -> None:
        self._conf = conf
        self._rest_client = RestClient(conf)
        self._cache = SchemaCache()
        ttl = self._rest_client.cache_latest_ttl_sec
        capacity = self._rest_client.cache_capacity
        self._latest_version_cache: BoundedCache[RegisteredSchema] = BoundedCache(capacity, ttl)
        self._latest_with_metadata_cache: BoundedCache[RegisteredSchema] = BoundedCache(capacity, ttl)
        self._latest_lock = threading.Lock()

    def __enter__(self) -> "SchemaRegistryClient":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def close(self) -> None:
        """Release the client's resources (safe to call more than once)."""
        self._rest_client.close()

    def config(self) -> Dict[str, Any]:
        """The configuration the client was made with."""
        return self._conf

    @staticmethod
    def new_client(conf: Dict[str, Any]) -> "SchemaRegistryClient":
        """A client for ``conf`` (confluent-kafka's factory; ``mock://`` URLs are not supported)."""
        return SchemaRegistryClient(conf)

    def _get(self, path: str, query: Optional[Dict[str, Any]] = None) -> Any:
        return self._rest_client.request("GET", path, query=query)

    # -- registering and looking up ---------------------------------------------

    def register_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> int:
        """Register ``schema`` under ``subject_name`` and answer its id."""
        registered = self.register_schema_full_response(subject_name, schema, normalize_schemas=normalize_schemas)
        return registered.schema_id  # type: ignore[return-value]

    def register_schema_full_response(self, subject_name: str, schema: Schema,
                                      normalize_schemas: bool = False) -> RegisteredSchema:
        """Register ``schema`` under ``subject_name``; the answer holds its id (and GUID, if the registry gives one)."""
        schema_id = self._cache.id_by_schema(subject_name, schema)
        if schema_id is not None:
            known = self._cache.schema_by_id(subject_name, schema_id)
            if known is not None:
                return RegisteredSchema(schema_id=schema_id, guid=known[0], subject=subject_name, version=None,
                                        schema=known[1])
        answer = self._rest_client.request(
            "POST", "subjects/%s/versions?normalize=%s" % (path_part(subject_name), _flag(normalize_schemas)),
            body=schema.to_dict())
        answered = RegisteredSchema.from_dict(answer)
        registered = RegisteredSchema(schema_id=answered.schema_id, guid=answered.guid,
                                      subject=answered.subject or subject_name, version=answered.version,
                                      schema=answered.schema)
        kept = registered.schema if registered.schema.schema_str is not None else schema
        self._cache.set_schema(subject_name, registered.schema_id, registered.guid, kept)
        return registered

    def lookup_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False,
                      fmt: Optional[str] = None, deleted: bool = False) -> RegisteredSchema:
        """The registration of ``schema`` under ``subject_name`` (40403 when it has none)."""
        known = self._cache.registered_by_schema(subject_name, schema)
        if known is not None:
            return known
        query: Dict[str, Any] = {"normalize": normalize_schemas, "deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        answer = self._rest_client.request("POST", "subjects/%s" % path_part(subject_name), body=schema.to_dict(),
                                           query=query)
        answered = RegisteredSchema.from_dict(answer)
        registered = RegisteredSchema(schema_id=answered.schema_id, guid=answered.guid, subject=answered.subject,
                                      version=answered.version, schema=schema)
        self._cache.set_registered(schema, registered)
        return registered

    def get_schema(self, schema_id: int, subject_name: Optional[str] = None, fmt: Optional[str] = None,
                   reference_format: Optional[str] = None) -> Schema:
        """The schema of ``schema_id`` (40403 when there is none)."""
        known = self._cache.schema_by_id(subject_name, schema_id)
        if known is not None:
            return known[1]
        query = {key: value for key, value in (("subject", subject_name), ("format", fmt),
                                               ("reference_format", reference_format)) if value is not None}
        registered = RegisteredSchema.from_dict(self._get("schemas/ids/%s" % schema_id, query))
        self._cache.set_schema(subject_name, schema_id, registered.guid, registered.schema)
        if subject_name is not None:
            self._cache.set_registered(registered.schema, registered)
        return registered.schema

    def get_schema_by_guid(self, guid: str, fmt: Optional[str] = None) -> Schema:
        """The schema of ``guid``."""
        known = self._cache.schema_by_guid(guid)
        if known is not None:
            return known
        query = {"format": fmt} if fmt is not None else {}
        registered = RegisteredSchema.from_dict(self._get("schemas/guids/%s" % path_part(guid), query))
        self._cache.set_schema(None, registered.schema_id, registered.guid, registered.schema)
        return registered.schema

    def get_schema_types(self) -> List[str]:
        """The schema types the registry supports."""
        return self._get("schemas/types")

    def get_subjects_by_schema_id(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False,
                                  offset: int = 0, limit: int = -1) -> List[str]:
        """The subjects holding ``schema_id``."""
        query: Dict[str, Any] = {"offset": offset, "limit": limit}
        if subject_name is not None:
            query["subject"] = subject_name
        if deleted:
            query["deleted"] = deleted
        return self._get("schemas/ids/%s/subjects" % schema_id, query)

    def get_schema_versions(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False,
                            offset: int = 0, limit: int = -1) -> List[SchemaVersion]:
        """The (subject, version) pairs holding ``schema_id``."""
        query: Dict[str, Any] = {"offset": offset, "limit": limit}
        if subject_name is not None:
            query["subject"] = subject_name
        if deleted:
            query["deleted"] = deleted
        return [SchemaVersion.from_dict(item) for item in self._get("schemas/ids/%s/versions" % schema_id, query)]

    # -- subjects and versions ---------------------------------------------------

    def get_subjects(self, subject_prefix: Optional[str] = None, deleted: bool = False, deleted_only: bool = False,
                     offset: int = 0, limit: int = -1) -> List[str]:
        """The registered subjects."""
        query: Dict[str, Any] = {"deleted": deleted, "deleted_only": deleted_only, "offset": offset, "limit": limit}
        if subject_prefix is not None:
            query["subjectPrefix"] = subject_prefix
        return self._get("subjects", query)

    def delete_subject(self, subject_name: str, permanent: bool = False) -> List[int]:
        """Delete ``subject_name`` (softly unless ``permanent``) and answer the versions deleted."""
        if permanent:
            versions = self._rest_client.request("DELETE", "subjects/%s?permanent=true" % path_part(subject_name))
            self._cache.forget_subject(subject_name)
        else:
            versions = self._rest_client.request("DELETE", "subjects/%s" % path_part(subject_name))
        return versions

    def get_latest_version(self, subject_name: str, fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of ``subject_name`` (cached; see ``cache.latest.ttl.sec``)."""
        with self._latest_lock:
            known = self._latest_version_cache.get(subject_name)
        if known is not None:
            return known
        query = {"format": fmt} if fmt is not None else None
        registered = RegisteredSchema.from_dict(
            self._get("subjects/%s/versions/latest" % path_part(subject_name), query))
        with self._latest_lock:
            self._latest_version_cache.set(subject_name, registered)
        return registered

    def get_latest_with_metadata(self, subject_name: str, metadata: Dict[str, str], deleted: bool = False,
                                 fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of ``subject_name`` whose metadata holds ``metadata`` (cached)."""
        key = (subject_name, frozenset(metadata.items()), deleted)
        with self._latest_lock:
            known = self._latest_with_metadata_cache.get(key)
        if known is not None:
            return known
        query: Dict[str, Any] = {"deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        if metadata:
            query["key"] = list(metadata)
            query["value"] = [metadata[k] for k in metadata]
        registered = RegisteredSchema.from_dict(self._get("subjects/%s/metadata" % path_part(subject_name), query))
        with self._latest_lock:
            self._latest_with_metadata_cache.set(key, registered)
        return registered

    def get_version(self, subject_name: str, version: Version = "latest", deleted: bool = False,
                    fmt: Optional[str] = None) -> RegisteredSchema:
        """Version ``version`` (a number or ``"latest"``) of ``subject_name``."""
        if version != "latest":
            known = self._cache.registered_by_version(subject_name, version)
            if known is not None:
                return known
        query: Dict[str, Any] = {"deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        registered = RegisteredSchema.from_dict(
            self._get("subjects/%s/versions/%s" % (path_part(subject_name), version), query))
        self._cache.set_registered(registered.schema, registered)
        return registered

    def get_referenced_by(self, subject_name: str, version: Version = "latest", offset: int = 0,
                          limit: int = -1) -> List[int]:
        """The ids of the schemas that reference this version."""
        return self._get("subjects/%s/versions/%s/referencedby" % (path_part(subject_name), version),
                         {"offset": offset, "limit": limit})

    def get_versions(self, subject_name: str, deleted: bool = False, deleted_only: bool = False, offset: int = 0,
                     limit: int = -1) -> List[int]:
        """The version numbers of ``subject_name``."""
        query: Dict[str, Any] = {"deleted": deleted, "deleted_only": deleted_only, "offset": offset, "limit": limit}
        return self._get("subjects/%s/versions" % path_part(subject_name), query)

    def delete_version(self, subject_name: str, version: int, permanent: bool = False) -> int:
        """Delete one version (softly unless ``permanent``) and answer its number."""
        path = "subjects/%s/versions/%s" % (path_part(subject_name), version)
        answer = self._rest_client.request("DELETE", path + ("?permanent=true" if permanent else ""))
        self._cache.forget_version(subject_name, version)
        return answer

    # -- compatibility, config and mode ---------------------------------------------

    def set_compatibility(self, subject_name: Optional[str] = None, level: Optional[str] = None) -> Any:
        """Set the global or ``subject_name``'s compatibility level; answers the registry's reply."""
        if level is None:
            raise ValueError("level must be set")
        path = "config" if subject_name is None else "config/%s" % path_part(subject_name)
        return self._rest_client.request("PUT", path, body={"compatibility": level.upper()})

    def get_compatibility(self, subject_name: Optional[str] = None) -> str:
        """The global or ``subject_name``'s compatibility level (40408 when the subject has none of its own)."""
        path = "config" if subject_name is None else "config/%s" % path_part(subject_name)
        return self._get(path)["compatibilityLevel"]

    def test_compatibility(self, subject_name: str, schema: Schema, version: Version = "latest",
                           normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` may follow version ``version`` of ``subject_name``."""
        answer = self._rest_client.request(
            "POST", "compatibility/subjects/%s/versions/%s?normalize=%s&verbose=%s"
            % (path_part(subject_name), version, _flag(normalize), _flag(verbose)), body=schema.to_dict())
        return answer["is_compatible"]

    def test_compatibility_all_versions(self, subject_name: str, schema: Schema, normalize: bool = False,
                                        verbose: bool = False) -> bool:
        """Whether ``schema`` may follow the versions of ``subject_name`` its compatibility level compares with."""
        answer = self._rest_client.request(
            "POST", "compatibility/subjects/%s/versions?normalize=%s&verbose=%s"
            % (path_part(subject_name), _flag(normalize), _flag(verbose)), body=schema.to_dict())
        return answer["is_compatible"]

    def set_config(self, subject_name: Optional[str] = None, config: Optional[ServerConfig] = None) -> Any:
        """Set the global or ``subject_name``'s configuration; answers the registry's reply."""
        if config is None:
            raise ValueError("config must be set")
        path = "config" if subject_name is None else "config/%s" % path_part(subject_name)
        return self._rest_client.request("PUT", path, body=config.to_dict())

    def delete_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """Remove ``subject_name``'s configuration (or reset the global one); answers the one removed."""
        path = "config" if subject_name is None else "config/%s" % path_part(subject_name)
        return ServerConfig.from_dict(self._rest_client.request("DELETE", path))

    def get_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """The global or ``subject_name``'s configuration."""
        path = "config" if subject_name is None else "config/%s" % path_part(subject_name)
        return ServerConfig.from_dict(self._get(path))

    def get_mode(self, subject_name: str) -> str:
        """``subject_name``'s mode (READWRITE, READONLY, IMPORT, ...)."""
        return self._get("mode/%s" % path_part(subject_name))["mode"]

    def update_mode(self, subject_name: str, mode: str, force: bool = False) -> str:
        """Set ``subject_name``'s mode."""
        answer = self._rest_client.request("PUT", "mode/%s?force=%s" % (path_part(subject_name), _flag(force)),
                                           body={"mode": mode})
        return answer["mode"]

    def delete_mode(self, subject_name: str) -> str:
        """Remove ``subject_name``'s own mode."""
        return self._rest_client.request("DELETE", "mode/%s" % path_part(subject_name))["mode"]

    def get_global_mode(self) -> str:
        """The registry's mode."""
        return self._get("mode")["mode"]

    def update_global_mode(self, mode: str, force: bool = False) -> str:
        """Set the registry's mode."""
        return self._rest_client.request("PUT", "mode?force=%s" % _flag(force), body={"mode": mode})["mode"]

    def get_contexts(self, offset: int = 0, limit: int = -1) -> List[str]:
        """The registry's contexts."""
        return self._get("contexts", {"offset": offset, "limit": limit})

    def clear_latest_caches(self) -> None:
        """Forget the cached latest versions."""
        with self._latest_lock:
            self._latest_version_cache.clear()
            self._latest_with_metadata_cache.clear()

    def clear_caches(self) -> None:
        """Forget everything cached."""
        self.clear_latest_caches()
        self._cache.clear()


__all__ = ["SchemaRegistryClient", "SchemaRegistryError"]
