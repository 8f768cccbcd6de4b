"""The values a Schema Registry client hands out and takes: schemas, references, registrations, configs.

Each has ``to_dict()`` (the registry's JSON fields) and ``from_dict()``,
and the attribute names of confluent-kafka's classes. Metadata and rule sets
(data contracts) are kept as the registry's plain JSON documents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional

Document = Dict[str, Any]


@dataclass(frozen=True)
class SchemaReference:
    """A schema's use of another one: the ``name`` it imports it by, and the ``subject`` and ``version`` holding it."""

    name: Optional[str]
    subject: Optional[str]
    version: Optional[int]

    def to_dict(self) -> Document:
        """The fields that are set."""
        return {key: value for key, value in (("name", self.name), ("subject", self.subject),
                                              ("version", self.version)) if value is not None}

    @classmethod
    def from_dict(cls, src_dict: Document) -> "SchemaReference":
        """From the registry's JSON."""
        return cls(name=src_dict.get("name"), subject=src_dict.get("subject"), version=src_dict.get("version"))


@dataclass(frozen=True)
class Schema:
    """A schema's text and type (``AVRO``, ``JSON`` or ``PROTOBUF``), with the schemas it references.

    Equal schemas hash alike whatever their references, so a schema can key
    a cache.
    """

    schema_str: Optional[str]
    schema_type: Optional[str] = "AVRO"
    references: Optional[List[SchemaReference]] = field(default_factory=list, hash=False)
    metadata: Optional[Any] = field(default=None, hash=False)
    rule_set: Optional[Any] = field(default=None, hash=False)

    def to_dict(self) -> Document:
        """The registration request's fields: ``schema``, ``schemaType``, ``references`` and the data contract."""
        found: Document = {}
        if self.schema_str is not None:
            found["schema"] = self.schema_str
        if self.schema_type is not None:
            found["schemaType"] = self.schema_type
        found["references"] = [ref.to_dict() for ref in self.references or []]
        for key, value in (("metadata", self.metadata), ("ruleSet", self.rule_set)):
            if value is not None:
                found[key] = value.to_dict() if hasattr(value, "to_dict") else value
        return found

    @classmethod
    def from_dict(cls, src_dict: Document) -> "Schema":
        """From the registry's JSON (a missing ``schemaType`` is ``AVRO``)."""
        return cls(schema_str=src_dict.get("schema"), schema_type=src_dict.get("schemaType", "AVRO"),
                   references=[SchemaReference.from_dict(r) for r in src_dict.get("references") or []],
                   metadata=src_dict.get("metadata"), rule_set=src_dict.get("ruleSet"))


@dataclass(frozen=True)
class RegisteredSchema:
    """A schema as registered: its ``subject``, ``version``, global ``schema_id`` and ``guid``."""

    subject: Optional[str]
    version: Optional[int]
    schema_id: Optional[int]
    guid: Optional[str]
    schema: Schema

    def to_dict(self) -> Document:
        """The schema's fields with ``id``, ``guid``, ``subject`` and ``version`` when known."""
        found = self.schema.to_dict() if self.schema is not None else {}
        for key, value in (("id", self.schema_id), ("guid", self.guid), ("subject", self.subject),
                           ("version", self.version)):
            if value is not None:
                found[key] = value
        return found

    @classmethod
    def from_dict(cls, src_dict: Document) -> "RegisteredSchema":
        """From the registry's JSON answer."""
        return cls(subject=src_dict.get("subject"), version=src_dict.get("version"),
                   schema_id=src_dict.get("id"), guid=src_dict.get("guid"), schema=Schema.from_dict(src_dict))


@dataclass(frozen=True)
class SchemaVersion:
    """One ``(subject, version)`` use of a schema id."""

    subject: Optional[str]
    version: Optional[int]

    @classmethod
    def from_dict(cls, src_dict: Document) -> "SchemaVersion":
        """From the registry's JSON."""
        return cls(subject=src_dict.get("subject"), version=src_dict.get("version"))


class ConfigCompatibilityLevel(str, Enum):
    """The compatibility a subject's new versions must keep with the earlier ones."""

    BACKWARD = "BACKWARD"
    BACKWARD_TRANSITIVE = "BACKWARD_TRANSITIVE"
    FORWARD = "FORWARD"
    FORWARD_TRANSITIVE = "FORWARD_TRANSITIVE"
    FULL = "FULL"
    FULL_TRANSITIVE = "FULL_TRANSITIVE"
    NONE = "NONE"

    def __str__(self) -> str:
        return str(self.value)


def _level(value: Any) -> Optional[ConfigCompatibilityLevel]:
    return None if value is None else ConfigCompatibilityLevel(value)


_CONFIG_KEYS = (("compatibility_group", "compatibilityGroup"), ("default_metadata", "defaultMetadata"),
                ("override_metadata", "overrideMetadata"), ("default_rule_set", "defaultRuleSet"),
                ("override_rule_set", "overrideRuleSet"))


@dataclass
class ServerConfig:
    """A global or subject configuration: compatibility level, group, default and override data contracts.

    ``compatibility`` is the field a configuration is written with,
    ``compatibility_level`` the one the registry reads it back as.
    """

    compatibility: Optional[ConfigCompatibilityLevel] = None
    compatibility_level: Optional[ConfigCompatibilityLevel] = None
    compatibility_group: Optional[str] = None
    default_metadata: Optional[Any] = None
    override_metadata: Optional[Any] = None
    default_rule_set: Optional[Any] = None
    override_rule_set: Optional[Any] = None

    def to_dict(self) -> Document:
        """The fields that are set, under the registry's names."""
        found: Document = {}
        if self.compatibility is not None:
            found["compatibility"] = ConfigCompatibilityLevel(self.compatibility).value
        if self.compatibility_level is not None:
            found["compatibilityLevel"] = ConfigCompatibilityLevel(self.compatibility_level).value
        for attribute, key in _CONFIG_KEYS:
            value = getattr(self, attribute)
            if value is not None:
                found[key] = value.to_dict() if hasattr(value, "to_dict") else value
        return found

    @classmethod
    def from_dict(cls, src_dict: Document) -> "ServerConfig":
        """From the registry's JSON."""
        kept = {attribute: src_dict.get(key) for attribute, key in _CONFIG_KEYS}
        return cls(compatibility=_level(src_dict.get("compatibility")),
                   compatibility_level=_level(src_dict.get("compatibilityLevel")), **kept)


__all__ = ["SchemaReference", "Schema", "RegisteredSchema", "SchemaVersion", "ConfigCompatibilityLevel",
           "ServerConfig"]
