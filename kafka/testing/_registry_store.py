"""The state of the test Schema Registry: subjects, versions, schema ids, configs and modes.

:class:`RegistryStore` answers the registry's operations with the JSON
documents Confluent's REST API returns, or raises :class:`RegistryError`
with the status and ``error_code`` the real registry uses. It knows nothing
of HTTP; :mod:`kafka.testing.schema_registry` serves it.

Rules kept as the real registry keeps them:

* a schema id is global: the same stored text, type and references
  registered under two subjects (or again after a deletion) get the same id;
  ids are never forgotten, so ``GET /schemas/ids/{id}`` finds a schema whose
  versions were all deleted; ids count from 1 in registration order;
* a schema's GUID is derived from its type, text and references (a UUID 5),
  so two servers given the same schemas answer the same GUIDs;
* registering a schema a subject already has as a live version answers that
  version's id without adding a version;
* a new version is one more than the subject's highest kept version (soft
  deleted ones included), so a subject deleted permanently starts again at 1;
* a deletion is soft first; a permanent deletion needs a soft one before it;
  deleting a subject drops its compatibility and mode settings too;
* compatibility is checked against the latest live version (all of them for
  the ``_TRANSITIVE`` levels); see :mod:`kafka.testing._schema_checks` for how;
* ``normalize`` is accepted and changes nothing (schemas are kept in a
  compact form anyway); ``subject`` on ``GET /schemas/ids/{id}`` names a
  context, and contexts other than the default one are not kept apart.
"""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from kafka.testing import _schema_checks as checks

Document = Dict[str, Any]

SUBJECT_NOT_FOUND = 40401
VERSION_NOT_FOUND = 40402
SCHEMA_NOT_FOUND = 40403
SUBJECT_SOFT_DELETED = 40404
SUBJECT_NOT_SOFT_DELETED = 40405
VERSION_SOFT_DELETED = 40406
VERSION_NOT_SOFT_DELETED = 40407
SUBJECT_COMPATIBILITY_NOT_CONFIGURED = 40408
SUBJECT_MODE_NOT_CONFIGURED = 40409
INCOMPATIBLE_SCHEMA = 409
INVALID_SCHEMA = 42201
INVALID_VERSION = 42202
INVALID_COMPATIBILITY_LEVEL = 42203
INVALID_MODE = 42204
OPERATION_NOT_PERMITTED = 42205

MODES = ("READWRITE", "READONLY", "READONLY_OVERRIDE", "IMPORT")
_CONFIG_FIELDS = ("compatibilityGroup", "defaultMetadata", "overrideMetadata", "defaultRuleSet", "overrideRuleSet")


class RegistryError(Exception):
    """An answer other than success: the HTTP ``status``, Confluent's ``code`` and a message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def document(self) -> Document:
        """The error body the registry sends."""
        return {"error_code": self.code, "message": self.message}


def _not_found(code: int, message: str) -> RegistryError:
    return RegistryError(404, code, message)


def _unprocessable(code: int, message: str) -> RegistryError:
    return RegistryError(422, code, message)


@dataclass
class _Schema:
    """One schema under its global id."""

    schema_id: int
    schema_type: str
    text: str
    references: List[Document]
    guid: str


@dataclass
class _Version:
    number: int
    schema_id: int
    deleted: bool = False


@dataclass
class _Subject:
    versions: List[_Version] = field(default_factory=list)

    def live(self) -> List[_Version]:
        return [v for v in self.versions if not v.deleted]


class RegistryStore:
    """Thread-safe in-memory registry state; every public method is one REST operation."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._schemas: Dict[int, _Schema] = {}
        self._ids: Dict[Tuple[str, str, str], int] = {}
        self._guids: Dict[str, int] = {}
        self._subjects: Dict[str, _Subject] = {}
        self._config: Document = {"compatibilityLevel": "BACKWARD"}
        self._subject_config: Dict[str, Document] = {}
        self._mode = "READWRITE"
        self._subject_mode: Dict[str, str] = {}

    # -- helpers -------------------------------------------------------------

    def _subject(self, name: str, deleted: bool = False) -> _Subject:
        subject = self._subjects.get(name)
        if subject is None or not subject.versions or (not deleted and not subject.live()):
            raise _not_found(SUBJECT_NOT_FOUND, "Subject '%s' not found." % name)
        return subject

    def _version(self, name: str, subject: _Subject, version: str, deleted: bool) -> _Version:
        candidates = subject.versions if deleted else subject.live()
        if version in ("latest", "-1"):
            if not candidates:
                raise _not_found(VERSION_NOT_FOUND, "Version %s not found." % version)
            return candidates[-1]
        try:
            number = int(version)
        except ValueError:
            number = 0
        if number <= 0:
            raise _unprocessable(INVALID_VERSION, "The specified version '%s' is not a valid version id. Allowed "
                                 "values are between [1, 2^31-1] and the string \"latest\"" % version)
        for candidate in candidates:
            if candidate.number == number:
                return candidate
        raise _not_found(VERSION_NOT_FOUND, "Version %d not found." % number)

    def _describe(self, schema: _Schema) -> Document:
        found: Document = {"schema": schema.text}
        if schema.schema_type != checks.AVRO:
            found["schemaType"] = schema.schema_type
        if schema.references:
            found["references"] = [dict(r) for r in schema.references]
        found["guid"] = schema.guid
        return found

    def _describe_version(self, name: str, version: _Version) -> Document:
        found: Document = {"subject": name, "version": version.number, "id": version.schema_id}
        found.update(self._describe(self._schemas[version.schema_id]))
        return found

    def _referenced_texts(self, references: List[Document], seen: Optional[set] = None) -> List[str]:
        """The texts of the referenced schemas, each after those it references itself."""
        seen = set() if seen is None else seen
        texts: List[str] = []
        for reference in references:
            if not isinstance(reference, dict) or not reference.get("subject") or "version" not in reference:
                raise _unprocessable(INVALID_SCHEMA, "Invalid schema reference %r" % (reference,))
            name = str(reference["subject"])
            try:
                target = self._version(name, self._subject(name, True), str(reference["version"]), True)
            except RegistryError:
                raise _unprocessable(INVALID_SCHEMA, "Invalid schema: the reference %s version %s is not "
                                     "registered" % (name, reference["version"])) from None
            if target.schema_id in seen:
                continue
            seen.add(target.schema_id)
            schema = self._schemas[target.schema_id]
            texts += self._referenced_texts(schema.references, seen)
            texts.append(schema.text)
        return texts

    def _parse(self, body: Any) -> Tuple[str, str, List[Document], Any]:
        """(type, stored text, references, parsed Avro or None) of a request body; 42201 when invalid."""
        if not isinstance(body, dict) or not isinstance(body.get("schema"), str):
            raise _unprocessable(INVALID_SCHEMA, "Invalid schema: the request has no schema text")
        schema_type = body.get("schemaType") or checks.AVRO
        references = body.get("references") or []
        if schema_type not in checks.SCHEMA_TYPES:
            raise _unprocessable(INVALID_SCHEMA, "Invalid schema type %s" % schema_type)
        if not isinstance(references, list):
            raise _unprocessable(INVALID_SCHEMA, "Invalid schema: references must be a list")
        try:
            text = checks.stored_form(body["schema"], schema_type)
            referenced = self._referenced_texts(references)
            parsed = None
            if schema_type == checks.AVRO:
                parsed = checks.parse_avro(text, checks.named_types(referenced))
            elif schema_type == checks.JSON:
                checks.check_json_schema(text)
        except checks.InvalidSchema as exc:
            raise _unprocessable(INVALID_SCHEMA, "Invalid schema %s, details: %s" % (body["schema"], exc)) from None
        kept = [{"name": r.get("name"), "subject": r["subject"], "version": r["version"]} for r in references]
        return schema_type, text, kept, parsed

    def _parsed(self, schema: _Schema) -> Tuple[str, str, Any]:
        parsed = None
        if schema.schema_type == checks.AVRO:
            parsed = checks.parse_avro(schema.text, checks.named_types(self._referenced_texts(schema.references)))
        return schema.schema_type, schema.text, parsed

    def _level(self, name: str) -> str:
        return str(self._subject_config.get(name, self._config).get("compatibilityLevel", "BACKWARD"))

    def _problems(self, name: str, new: Tuple[str, str, Any], against: List[_Version], level: str) -> List[str]:
        problems: List[str] = []
        for version in against:
            old = self._parsed(self._schemas[version.schema_id])
            problems += ["version %d: %s" % (version.number, p) for p in checks.incompatibilities(level, new, old)]
        return problems

    def _writable(self, name: str) -> None:
        mode = self._subject_mode.get(name, self._mode)
        if mode.startswith("READONLY"):
            raise _unprocessable(OPERATION_NOT_PERMITTED, "Subject %s is in read-only mode" % name)

    # -- subjects and versions ----------------------------------------------

    def register(self, name: str, body: Any) -> Document:
        """POST /subjects/{subject}/versions."""
        with self._lock:
            self._writable(name)
            schema_type, text, references, parsed = self._parse(body)
            key = (schema_type, text, json.dumps(references, sort_keys=True))
            subject = self._subjects.setdefault(name, _Subject())
            known = self._ids.get(key)
            for version in reversed(subject.live()):
                if version.schema_id == known:
                    return {"id": known, "guid": self._schemas[known].guid}
            level = self._level(name)
            live = subject.live()
            against = live if level.endswith("_TRANSITIVE") else live[-1:]
            problems = self._problems(name, (schema_type, text, parsed), against, level)
            if problems:
                if not subject.versions:
                    del self._subjects[name]
                raise RegistryError(409, INCOMPATIBLE_SCHEMA, "Schema being registered is incompatible with an "
                                    "earlier schema for subject \"%s\", details: %s" % (name, problems))
            if known is None:
                known = max(self._schemas, default=0) + 1
                guid = str(uuid.uuid5(uuid.NAMESPACE_URL, "kafkawire-schema:" + "\0".join(key)))
                self._schemas[known] = _Schema(known, schema_type, text, references, guid)
                self._ids[key] = known
                self._guids[guid] = known
            number = max((v.number for v in subject.versions), default=0) + 1
            subject.versions.append(_Version(number, known))
            return {"id": known, "guid": self._schemas[known].guid}

    def lookup(self, name: str, body: Any, deleted: bool) -> Document:
        """POST /subjects/{subject}: the version of ``subject`` holding this schema."""
        with self._lock:
            subject = self._subject(name, deleted)
            schema_type, text, references, _ = self._parse(body)
            known = self._ids.get((schema_type, text, json.dumps(references, sort_keys=True)))
            candidates = subject.versions if deleted else subject.live()
            for version in reversed(candidates):
                if version.schema_id == known:
                    return self._describe_version(name, version)
            raise _not_found(SCHEMA_NOT_FOUND, "Schema not found")

    def subjects(self, prefix: Optional[str], deleted: bool, deleted_only: bool) -> List[str]:
        """GET /subjects."""
        with self._lock:
            found = []
            for name, subject in self._subjects.items():
                if not subject.versions or (prefix and not name.startswith(prefix)):
                    continue
                alive = bool(subject.live())
                if deleted_only:
                    keep = not alive or any(v.deleted for v in subject.versions)
                else:
                    keep = alive or deleted
                if keep:
                    found.append(name)
            return sorted(found)

    def versions(self, name: str, deleted: bool, deleted_only: bool) -> List[int]:
        """GET /subjects/{subject}/versions."""
        with self._lock:
            subject = self._subject(name, deleted or deleted_only)
            if deleted_only:
                return [v.number for v in subject.versions if v.deleted]
            return [v.number for v in (subject.versions if deleted else subject.live())]

    def version(self, name: str, version: str, deleted: bool) -> Document:
        """GET /subjects/{subject}/versions/{version}."""
        with self._lock:
            subject = self._subject(name, deleted)
            return self._describe_version(name, self._version(name, subject, version, deleted))

    def referenced_by(self, name: str, version: str) -> List[int]:
        """GET /subjects/{subject}/versions/{version}/referencedby: ids of schemas referring to it."""
        with self._lock:
            target = self._version(name, self._subject(name), version, False)
            found = set()
            for schema in self._schemas.values():
                for reference in schema.references:
                    if reference["subject"] == name and int(reference["version"]) == target.number:
                        found.add(schema.schema_id)
            return sorted(found)

    def delete_subject(self, name: str, permanent: bool) -> List[int]:
        """DELETE /subjects/{subject}."""
        with self._lock:
            subject = self._subject(name, deleted=True)
            if permanent:
                if subject.live():
                    raise _not_found(SUBJECT_NOT_SOFT_DELETED, "Subject '%s' was not deleted first before being "
                                     "deleted permanently" % name)
                del self._subjects[name]
                gone = [v.number for v in subject.versions]
            else:
                if not subject.live():
                    raise _not_found(SUBJECT_SOFT_DELETED, "Subject '%s' was soft deleted.Set permanent=true to "
                                     "delete permanently" % name)
                gone = []
                for version in subject.live():
                    version.deleted = True
                    gone.append(version.number)
            self._subject_config.pop(name, None)
            self._subject_mode.pop(name, None)
            return gone

    def delete_version(self, name: str, version: str, permanent: bool) -> int:
        """DELETE /subjects/{subject}/versions/{version}."""
        with self._lock:
            subject = self._subject(name, deleted=permanent)
            target = self._version(name, subject, version, deleted=True)
            if permanent:
                if not target.deleted:
                    raise _not_found(VERSION_NOT_SOFT_DELETED, "Subject '%s' Version %d was not deleted first "
                                     "before being permanently deleted" % (name, target.number))
                subject.versions.remove(target)
                if not subject.versions:
                    del self._subjects[name]
            else:
                if target.deleted:
                    raise _not_found(VERSION_SOFT_DELETED, "Subject '%s' Version %d was soft deleted.Set "
                                     "permanent=true to delete permanently" % (name, target.number))
                target.deleted = True
            return target.number

    # -- schemas by id ---------------------------------------------------------

    def _by_id(self, schema_id: str) -> _Schema:
        try:
            return self._schemas[int(schema_id)]
        except (KeyError, ValueError):
            raise _not_found(SCHEMA_NOT_FOUND, "Schema %s not found" % schema_id) from None

    def schema(self, schema_id: str) -> Document:
        """GET /schemas/ids/{id} (the optional ``subject`` names a context, so it changes nothing here)."""
        with self._lock:
            return self._describe(self._by_id(schema_id))

    def schema_by_guid(self, guid: str) -> Document:
        """GET /schemas/guids/{guid}."""
        with self._lock:
            if guid not in self._guids:
                raise _not_found(SCHEMA_NOT_FOUND, "Schema %s not found" % guid)
            found = {"id": self._guids[guid]}
            found.update(self._describe(self._schemas[self._guids[guid]]))
            return found

    def _uses(self, schema_id: int, subject: Optional[str], deleted: bool) -> List[Tuple[str, int]]:
        return sorted((name, v.number) for name, s in self._subjects.items() for v in s.versions
                      if v.schema_id == schema_id and (deleted or not v.deleted) and subject in (None, name))

    def schema_versions(self, schema_id: str, subject: Optional[str], deleted: bool) -> List[Document]:
        """GET /schemas/ids/{id}/versions."""
        with self._lock:
            schema = self._by_id(schema_id)
            return [{"subject": n, "version": v} for n, v in self._uses(schema.schema_id, subject, deleted)]

    def schema_subjects(self, schema_id: str, subject: Optional[str], deleted: bool) -> List[str]:
        """GET /schemas/ids/{id}/subjects."""
        with self._lock:
            schema = self._by_id(schema_id)
            return sorted({n for n, _ in self._uses(schema.schema_id, subject, deleted)})

    # -- compatibility ---------------------------------------------------------

    def test_compatibility(self, name: str, version: Optional[str], body: Any, verbose: bool) -> Document:
        """POST /compatibility/subjects/{subject}/versions[/{version}]."""
        with self._lock:
            level = self._level(name)
            if version is None:
                subject = self._subjects.get(name)
                live = subject.live() if subject else []
                against = live if level.endswith("_TRANSITIVE") else live[-1:]
            else:
                against = [self._version(name, self._subject(name), version, False)]
            schema_type, text, _, parsed = self._parse(body)
            problems = self._problems(name, (schema_type, text, parsed), against, level)
            answer: Document = {"is_compatible": not problems}
            if verbose:
                answer["messages"] = problems
            return answer

    # -- config and mode -------------------------------------------------------

    def get_config(self, name: Optional[str], default_to_global: bool) -> Document:
        """GET /config and /config/{subject}."""
        with self._lock:
            if name is None:
                return dict(self._config)
            if name in self._subject_config:
                return dict(self._subject_config[name])
            if default_to_global:
                return dict(self._config)
            raise _not_found(SUBJECT_COMPATIBILITY_NOT_CONFIGURED, "Subject '%s' does not have subject-level "
                             "compatibility configured" % name)

    def set_config(self, name: Optional[str], body: Any) -> Document:
        """PUT /config and /config/{subject}: answers the request as accepted."""
        if not isinstance(body, dict):
            body = {}
        level = body.get("compatibility", body.get("compatibilityLevel"))
        if level is not None and (not isinstance(level, str) or level.upper() not in checks.LEVELS):
            raise _unprocessable(INVALID_COMPATIBILITY_LEVEL, "Invalid compatibility level. Valid values are none, "
                                 "backward, forward, full, backward_transitive, forward_transitive, and "
                                 "full_transitive")
        with self._lock:
            current = dict(self._config if name is None else self._subject_config.get(name, {}))
            answer: Document = {}
            if level is not None:
                current["compatibilityLevel"] = answer["compatibility"] = level.upper()
            for key in _CONFIG_FIELDS:
                if body.get(key) is not None:
                    current[key] = answer[key] = body[key]
            if name is None:
                current.setdefault("compatibilityLevel", "BACKWARD")
                self._config = current
            else:
                self._subject_config[name] = current
            return answer

    def delete_config(self, name: Optional[str]) -> Document:
        """DELETE /config (back to BACKWARD) and /config/{subject}: answers the config removed."""
        with self._lock:
            if name is None:
                old, self._config = self._config, {"compatibilityLevel": "BACKWARD"}
                return old
            if name not in self._subject_config:
                raise _not_found(SUBJECT_COMPATIBILITY_NOT_CONFIGURED, "Subject '%s' does not have subject-level "
                                 "compatibility configured" % name)
            return self._subject_config.pop(name)

    def get_mode(self, name: Optional[str], default_to_global: bool) -> Document:
        """GET /mode and /mode/{subject}."""
        with self._lock:
            if name is None:
                return {"mode": self._mode}
            if name in self._subject_mode:
                return {"mode": self._subject_mode[name]}
            if default_to_global:
                return {"mode": self._mode}
            raise _not_found(SUBJECT_MODE_NOT_CONFIGURED, "Subject '%s' does not have subject-level mode "
                             "configured" % name)

    def set_mode(self, name: Optional[str], body: Any) -> Document:
        """PUT /mode and /mode/{subject}."""
        mode = body.get("mode") if isinstance(body, dict) else None
        if not isinstance(mode, str) or mode.upper() not in MODES:
            raise _unprocessable(INVALID_MODE, "Invalid mode. Valid values are READWRITE, READONLY, "
                                 "READONLY_OVERRIDE and IMPORT")
        with self._lock:
            if name is None:
                self._mode = mode.upper()
            else:
                self._subject_mode[name] = mode.upper()
            return {"mode": mode.upper()}

    def delete_mode(self, name: str) -> Document:
        """DELETE /mode/{subject}: answers the mode removed."""
        with self._lock:
            if name not in self._subject_mode:
                raise _not_found(SUBJECT_MODE_NOT_CONFIGURED, "Subject '%s' does not have subject-level mode "
                                 "configured" % name)
            return {"mode": self._subject_mode.pop(name)}


__all__ = ["RegistryError", "RegistryStore", "MODES"]
