"""confluent-kafka's legacy ``CachedSchemaRegistryClient``, on kafkawire's Schema Registry client.

The methods and their answers are the legacy client's: ``register`` and
``check_registration`` answer a schema id, ``get_by_id`` a
:class:`~kafka.confluent.avro._schema.ParsedSchema` (None when the registry
has no such id), ``get_latest_schema`` and ``get_by_version`` a tuple
``(schema_id, schema, version)`` (three Nones when there is none),
``get_version`` a version or None, ``test_compatibility`` a bool. Refusals
the legacy client reports raise
:class:`~kafka.confluent.avro.error.ClientError` with its texts; a registry
that cannot be reached raises the ``OSError`` of the connection.

Schemas may be :class:`ParsedSchema` objects (from ``load``/``loads``) or
JSON text; the client registers ``str(schema)``. Answers are cached for the
client's life, keyed by subject and schema, as the legacy client does.
See :mod:`kafka.confluent.avro._legacy_conf` for the configuration.
"""

from __future__ import annotations

import logging
import warnings
from collections import defaultdict
from typing import Any, Dict, Optional, Tuple, Union

from kafka.confluent.avro._legacy_conf import registry_conf
from kafka.confluent.avro._schema import ParsedSchema
from kafka.confluent.avro.error import ClientError
from kafka.confluent.avro.load import loads
from kafka.confluent.schema_registry import Schema, SchemaRegistryClient, SchemaRegistryError

VALID_LEVELS = ["NONE", "FULL", "FORWARD", "BACKWARD"]
VALID_METHODS = ["GET", "POST", "PUT", "DELETE"]
VALID_AUTH_PROVIDERS = ["URL", "USER_INFO", "SASL_INHERIT"]
log = logging.getLogger(__name__)

AnySchema = Union[ParsedSchema, str]
Lookup = Tuple[Optional[int], Optional[ParsedSchema], Optional[int]]


def _body(exc: SchemaRegistryError) -> Dict[str, Any]:
    """The error document the registry answered, as the legacy client quotes it."""
    return {"error_code": exc.error_code, "message": exc.error_message}


def _avro(schema: AnySchema) -> Schema:
    return Schema(str(schema), schema_type="AVRO")


class CachedSchemaRegistryClient:
    """A legacy-style client of a Schema Registry (see the module's documentation).

    ``CachedSchemaRegistryClient(conf)`` with a configuration dict; the older
    ``CachedSchemaRegistryClient(url, max_schemas_per_subject, ca_location,
    cert_location, key_location)`` form still works and warns, as it does
    in confluent-kafka.
    """

    def __init__(self, url: Union[str, Dict[str, Any]], max_schemas_per_subject: int = 1000,
                 ca_location: Optional[str] = None, cert_location: Optional[str] = None,
                 key_location: Optional[str] = None) -> None:
        if isinstance(url, dict):
            conf = dict(url)
        else:
            conf = {"url": url, "ssl.ca.location": ca_location, "ssl.certificate.location": cert_location,
                    "ssl.key.location": key_location}
            warnings.warn("CachedSchemaRegistry constructor is being deprecated. Use "
                          "CachedSchemaRegistryClient(dict: config) instead. Existing params ca_location, "
                          "cert_location and key_location will be replaced with their librdkafka equivalents as "
                          "keys in the conf dict: `ssl.ca.location`, `ssl.certificate.location` and "
                          "`ssl.key.location` respectively", category=DeprecationWarning, stacklevel=2)
        self.url, self.auto_register_schemas, ours = registry_conf(conf)
        #: subject -> {schema: id}
        self.subject_to_schema_ids: Dict[str, Dict[Any, int]] = defaultdict(dict)
        #: id -> schema
        self.id_to_schema: Dict[int, Any] = {}
        #: subject -> {schema: version}
        self.subject_to_schema_versions: Dict[str, Dict[Any, int]] = defaultdict(dict)
        self._client = SchemaRegistryClient(ours)

    def __enter__(self) -> "CachedSchemaRegistryClient":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def close(self) -> None:
        """Release the client's connections (safe to call more than once)."""
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()

    def _cache_schema(self, schema: Any, schema_id: int, subject: Optional[str] = None,
                      version: Optional[int] = None) -> None:
        # The first schema seen for an id stays the one answered for it.
        schema = self.id_to_schema.setdefault(schema_id, schema)
        if subject:
            self.subject_to_schema_ids[subject][schema] = schema_id
            if version:
                self.subject_to_schema_versions[subject][schema] = version

    def register(self, subject: str, avro_schema: AnySchema) -> int:
        """Register ``avro_schema`` under ``subject``; answers its id."""
        schema_id = self.subject_to_schema_ids[subject].get(avro_schema)
        if schema_id is not None:
            return schema_id
        try:
            schema_id = self._client.register_schema(subject, _avro(avro_schema))
        except SchemaRegistryError as exc:
            code, body = exc.http_status_code, _body(exc)
            if code in (401, 403):
                raise ClientError("Unauthorized access. Error code:%s message:%s" % (code, body)) from None
            if code == 409:
                raise ClientError("Incompatible Avro schema:%s message:%s" % (code, body)) from None
            if code == 422:
                raise ClientError("Invalid Avro schema:%s message:%s" % (code, body)) from None
            raise ClientError("Unable to register schema. Error code:%s message:%s" % (code, body)) from None
        self._cache_schema(avro_schema, schema_id, subject)
        return schema_id

    def check_registration(self, subject: str, avro_schema: AnySchema) -> int:
        """The id ``avro_schema`` is registered with under ``subject``; ClientError when it is not."""
        schema_id = self.subject_to_schema_ids[subject].get(avro_schema)
        if schema_id is not None:
            return schema_id
        try:
            registered = self._client.lookup_schema(subject, _avro(avro_schema))
        except SchemaRegistryError as exc:
            code = exc.http_status_code
            if code in (401, 403):
                raise ClientError("Unauthorized access. Error code:%s" % code) from None
            if code == 404:
                raise ClientError("Schema or subject not found:%s" % code) from None
            raise ClientError("Unable to check schema registration. Error code:%s" % code) from None
        schema_id = registered.schema_id
        assert schema_id is not None
        self._cache_schema(avro_schema, schema_id, subject)
        return schema_id

    def delete_subject(self, subject: str) -> Any:
        """Delete ``subject`` (softly); answers the versions deleted."""
        try:
            return self._client.delete_subject(subject)
        except SchemaRegistryError as exc:
            raise ClientError("Unable to delete subject: %s" % (_body(exc),)) from None

    def get_by_id(self, schema_id: int) -> Optional[ParsedSchema]:
        """The schema registered with ``schema_id``, or None (logged) when the registry has none."""
        if schema_id in self.id_to_schema:
            return self.id_to_schema[schema_id]
        try:
            text = self._client.get_schema(schema_id).schema_str
        except SchemaRegistryError as exc:
            if exc.http_status_code == 404:
                log.error("Schema not found:%s", exc.http_status_code)
            else:
                log.error("Unable to get schema for the specific ID:%s", exc.http_status_code)
            return None
        try:
            schema = loads(text or "")
        except ClientError as exc:
            raise ClientError("Received bad schema (id %s) from registry: %s" % (schema_id, exc)) from None
        self._cache_schema(schema, schema_id)
        return schema

    def get_latest_schema(self, subject: str) -> Lookup:
        """``(schema_id, schema, version)`` of ``subject``'s latest version (asks the registry each time)."""
        return self.get_by_version(subject, "latest")

    def get_by_version(self, subject: str, version: Union[int, str]) -> Lookup:
        """``(schema_id, schema, version)`` of a version of ``subject``, or three Nones (logged)."""
        try:
            registered = self._client.get_version(subject, version)
        except SchemaRegistryError as exc:
            if exc.http_status_code == 404:
                log.error("Schema not found:%s", exc.http_status_code)
            elif exc.http_status_code == 422:
                log.error("Invalid version:%s", exc.http_status_code)
            return (None, None, None)
        schema_id, number = registered.schema_id, registered.version
        assert schema_id is not None
        if schema_id in self.id_to_schema:
            schema = self.id_to_schema[schema_id]
        else:
            schema = loads(registered.schema.schema_str or "")
        self._cache_schema(schema, schema_id, subject, number)
        return (schema_id, schema, number)

    def get_version(self, subject: str, avro_schema: AnySchema) -> Optional[int]:
        """The version ``avro_schema`` holds under ``subject``, or None (logged)."""
        version = self.subject_to_schema_versions[subject].get(avro_schema)
        if version is not None:
            return version
        try:
            registered = self._client.lookup_schema(subject, _avro(avro_schema))
        except SchemaRegistryError as exc:
            if exc.http_status_code == 404:
                log.error("Not found:%s", exc.http_status_code)
            else:
                log.error("Unable to get version of a schema:%s", exc.http_status_code)
            return None
        assert registered.schema_id is not None
        self._cache_schema(avro_schema, registered.schema_id, subject, registered.version)
        return registered.version

    def test_compatibility(self, subject: str, avro_schema: AnySchema, version: Union[int, str] = "latest") -> bool:
        """Whether ``avro_schema`` may follow ``version`` of ``subject``; False (logged) on any failure."""
        try:
            return bool(self._client.test_compatibility(subject, _avro(avro_schema), version))
        except SchemaRegistryError as exc:
            if exc.http_status_code == 404:
                log.error("Subject or version not found:%s", exc.http_status_code)
            elif exc.http_status_code == 422:
                log.error("Invalid subject or schema:%s", exc.http_status_code)
            else:
                log.error("Unable to check the compatibility: %s", exc.http_status_code)
            return False
        except Exception as exc:  # noqa: BLE001 - the legacy client answers False whatever failed
            log.error("_send_request() failed: %s", exc)
            return False

    def update_compatibility(self, level: str, subject: Optional[str] = None) -> str:
        """Set the global or ``subject``'s compatibility level (one of :data:`VALID_LEVELS`); answers it."""
        if level not in VALID_LEVELS:
            raise ClientError("Invalid level specified: %s" % (level,))
        try:
            return self._client.set_compatibility(subject, level)["compatibility"]
        except SchemaRegistryError as exc:
            raise ClientError("Unable to update level: %s. Error code: %d" % (level, exc.http_status_code)) from None

    def get_compatibility(self, subject: Optional[str] = None) -> str:
        """The global or ``subject``'s compatibility level; ClientError when it is not one of :data:`VALID_LEVELS`."""
        try:
            level = self._client.get_compatibility(subject)
        except SchemaRegistryError as exc:
            raise ClientError("Unable to fetch compatibility level. Error code: %d" % exc.http_status_code) from None
        if level not in VALID_LEVELS:
            raise ClientError("Invalid compatibility level received: %s"
                              % ("No compatibility was returned" if level is None else level))
        return level


__all__ = ["CachedSchemaRegistryClient", "ClientError", "VALID_LEVELS"]
