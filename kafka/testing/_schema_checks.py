"""Schema checks for the test Schema Registry: validity, stored form and compatibility.

What :class:`~kafka.testing.schema_registry.SchemaRegistryServer` decides
about a schema text is decided here:

* **validity**: an Avro schema must be JSON that ``fastavro.parse_schema``
  accepts (named types of referenced schemas included); a JSON Schema must be
  a JSON object or boolean that its draft's meta-schema accepts (checked with
  ``jsonschema`` when installed); a Protobuf schema must be non-empty text.
  Without ``fastavro`` (or ``jsonschema``) only the JSON syntax is checked.
* **stored form**: Avro and JSON schemas are kept as compact JSON (no
  whitespace, keys in their given order), as Confluent's registry prints
  them; two registrations of the same text in another layout are the same
  schema. Protobuf text is kept as given, stripped.
* **compatibility**: Avro schemas are checked with the Avro specification's
  schema resolution rules (:func:`avro_can_read`); BACKWARD means the new
  schema reads data written with the old one, FORWARD the reverse, FULL both.
  JSON Schema and Protobuf schemas are always compatible with each other's
  versions of their own type (a simplified rule: this server does not compare
  them); a schema of another type than the version it is checked against is
  incompatible.
"""

from __future__ import annotations

import importlib
import json
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

AVRO = "AVRO"
JSON = "JSON"
PROTOBUF = "PROTOBUF"
SCHEMA_TYPES = (JSON, PROTOBUF, AVRO)

_PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
_NAMED = {"record", "error", "enum", "fixed"}
#: (writer type, reader type) pairs that Avro resolution promotes.
_PROMOTIONS = {("int", "long"), ("int", "float"), ("int", "double"), ("long", "float"), ("long", "double"),
               ("float", "double"), ("string", "bytes"), ("bytes", "string")}


class InvalidSchema(ValueError):
    """The schema text is not a valid schema of its type."""


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def stored_form(schema: str, schema_type: str) -> str:
    """The text the registry keeps for ``schema`` (raises :class:`InvalidSchema` on bad JSON)."""
    if schema_type == PROTOBUF:
        text = schema.strip()
        if not text:
            raise InvalidSchema("empty Protobuf schema")
        return text
    try:
        parsed = json.loads(schema)
    except ValueError as exc:
        raise InvalidSchema("not JSON: %s" % exc) from None
    return json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)


def parse_avro(schema: str, named: Optional[Dict[str, Any]] = None) -> Optional[Tuple[Any, Dict[str, Any]]]:
    """``schema`` parsed by fastavro and every named type it sees (``named`` too), or None without fastavro."""
    fastavro_schema = _optional("fastavro.schema")
    if fastavro_schema is None:
        return None
    known = dict(named or {})
    try:
        return fastavro_schema.parse_schema(json.loads(schema), named_schemas=known), known
    except Exception as exc:  # fastavro raises SchemaParseException, UnknownType, KeyError, ...
        raise InvalidSchema("%s: %s" % (type(exc).__name__, exc)) from None


def named_types(schemas: Iterable[str]) -> Dict[str, Any]:
    """The named Avro types that ``schemas`` (referenced ones, dependencies first) define."""
    named: Dict[str, Any] = {}
    fastavro_schema = _optional("fastavro.schema")
    if fastavro_schema is None:
        return named
    for text in schemas:
        try:
            fastavro_schema.parse_schema(json.loads(text), named_schemas=named)
        except Exception as exc:
            raise InvalidSchema("referenced schema: %s: %s" % (type(exc).__name__, exc)) from None
    return named


def check_json_schema(schema: str) -> None:
    """Raise :class:`InvalidSchema` unless ``schema`` is a valid JSON Schema document."""
    document = json.loads(schema)
    if not isinstance(document, (dict, bool)):
        raise InvalidSchema("a JSON Schema is an object or a boolean")
    validators = _optional("jsonschema.validators")
    if validators is None or isinstance(document, bool):
        return
    try:
        validators.validator_for(document).check_schema(document)
    except Exception as exc:  # jsonschema.exceptions.SchemaError
        raise InvalidSchema(getattr(exc, "message", str(exc))) from None


# ---------------------------------------------------------------------------
# Avro schema resolution
# ---------------------------------------------------------------------------

def _collect(schema: Any, names: Dict[str, Any]) -> None:
    if isinstance(schema, list):
        for branch in schema:
            _collect(branch, names)
    elif isinstance(schema, dict):
        kind = schema.get("type")
        if kind in _NAMED and "name" in schema:
            names[schema["name"]] = schema
        if kind in ("record", "error"):
            for field in schema.get("fields", []):
                _collect(field.get("type"), names)
        elif kind == "array":
            _collect(schema.get("items"), names)
        elif kind == "map":
            _collect(schema.get("values"), names)
        elif isinstance(kind, (dict, list)):
            _collect(kind, names)


def _resolve(schema: Any, names: Dict[str, Any]) -> Any:
    """Follow named references and unwrap ``{"type": <type>}`` (logical types included)."""
    for _ in range(64):
        if isinstance(schema, str) and schema in names:
            schema = names[schema]
        elif isinstance(schema, dict) and schema.get("type") not in _NAMED | {"array", "map"}:
            schema = schema.get("type")
        else:
            break
    return schema


def _kind(schema: Any) -> str:
    if isinstance(schema, str):
        return schema
    return str(schema.get("type"))


def _short(name: str) -> str:
    return name.rpartition(".")[2]


def _names_match(reader: Dict[str, Any], writer: Dict[str, Any]) -> bool:
    if _short(reader["name"]) == _short(writer["name"]):
        return True
    aliases = {_short(a) for a in reader.get("aliases", [])}
    return _short(writer["name"]) in aliases


class _Resolution:
    def __init__(self, reader: Tuple[Any, Dict[str, Any]], writer: Tuple[Any, Dict[str, Any]]) -> None:
        self.reader_names: Dict[str, Any] = dict(reader[1])
        self.writer_names: Dict[str, Any] = dict(writer[1])
        _collect(reader[0], self.reader_names)
        _collect(writer[0], self.writer_names)
        self.assumed: Set[Tuple[int, int]] = set()
        self.problems: List[str] = []

    def can_read(self, reader: Any, writer: Any, where: str) -> bool:
        reader = _resolve(reader, self.reader_names)
        writer = _resolve(writer, self.writer_names)
        if isinstance(writer, list):
            return all(self.can_read(reader, branch, where) for branch in writer)
        if isinstance(reader, list):
            if any(self._quietly(branch, writer, where) for branch in reader):
                return True
            return self._problem(where, "the reader's union has no branch for the writer's %s" % _kind(writer))
        reader_kind, writer_kind = _kind(reader), _kind(writer)
        if reader_kind != writer_kind:
            if (writer_kind, reader_kind) in _PROMOTIONS:
                return True
            return self._problem(where, "a %s cannot be read as a %s" % (writer_kind, reader_kind))
        if reader_kind in _PRIMITIVES:
            return True
        if reader_kind in _NAMED:
            if not _names_match(reader, writer):
                return self._problem(where, "the name %s does not match %s" % (writer["name"], reader["name"]))
            pair = (id(reader), id(writer))
            if pair in self.assumed:  # a recursive type already being compared
                return True
            self.assumed.add(pair)
        if reader_kind == "fixed":
            if reader.get("size") != writer.get("size"):
                return self._problem(where, "the fixed sizes differ")
            return True
        if reader_kind == "enum":
            missing = set(writer.get("symbols", [])) - set(reader.get("symbols", []))
            if missing and "default" not in reader:
                return self._problem(where, "the reader's enum lacks the symbols %s" % sorted(missing))
            return True
        if reader_kind == "array":
            return self.can_read(reader.get("items"), writer.get("items"), where + "/items")
        if reader_kind == "map":
            return self.can_read(reader.get("values"), writer.get("values"), where + "/values")
        if reader_kind in ("record", "error"):
            return self._record(reader, writer, where)
        return True  # the same name of a type neither side defines

    def _record(self, reader: Dict[str, Any], writer: Dict[str, Any], where: str) -> bool:
        written = {field["name"]: field for field in writer.get("fields", [])}
        ok = True
        for field in reader.get("fields", []):
            names = [field["name"]] + list(field.get("aliases", []))
            source = next((written[n] for n in names if n in written), None)
            path = "%s/fields/%s" % (where, field["name"])
            if source is None:
                if "default" not in field:
                    ok = self._problem(path, "the reader's field has no default and the writer lacks it")
            elif not self.can_read(field.get("type"), source.get("type"), path):
                ok = False
        return ok

    def _quietly(self, reader: Any, writer: Any, where: str) -> bool:
        kept = list(self.problems)
        result = self.can_read(reader, writer, where)
        self.problems = kept
        return result

    def _problem(self, where: str, text: str) -> bool:
        self.problems.append("%s: %s" % (where or "/", text))
        return False


def avro_can_read(reader: Tuple[Any, Dict[str, Any]], writer: Tuple[Any, Dict[str, Any]]) -> List[str]:
    """Why data written with ``writer`` cannot be read with ``reader`` (empty: it can).

    Both are what :func:`parse_avro` returns. The rules are the Avro
    specification's: equal primitive types or a promotion (int to long, float
    or double; long to float or double; float to double; string and bytes);
    records with the same unqualified name (or a reader alias), whose reader
    fields are each in the writer or have a default; enums whose writer
    symbols the reader has (or the reader has a default); fixed of the same
    size; arrays and maps by their items and values; every branch of a writer
    union readable, a reader union with a branch for a writer that is not one.
    """
    resolution = _Resolution(reader, writer)
    resolution.can_read(reader[0], writer[0], "")
    return resolution.problems


_DIRECTIONS = {
    "BACKWARD": ("backward",), "BACKWARD_TRANSITIVE": ("backward",),
    "FORWARD": ("forward",), "FORWARD_TRANSITIVE": ("forward",),
    "FULL": ("backward", "forward"), "FULL_TRANSITIVE": ("backward", "forward"),
    "NONE": (),
}
LEVELS = tuple(_DIRECTIONS)


def incompatibilities(level: str, new: Tuple[str, str, Any], old: Tuple[str, str, Any]) -> List[str]:
    """Why ``new`` may not follow ``old`` under ``level``; each is (type, text, parsed Avro or None)."""
    directions = _DIRECTIONS[level]
    if not directions:
        return []
    if new[0] != old[0]:
        return ["the schema type %s differs from %s" % (new[0], old[0])]
    if new[0] != AVRO or new[2] is None or old[2] is None:
        return []
    found: List[str] = []
    if "backward" in directions:
        found += ["BACKWARD " + p for p in avro_can_read(new[2], old[2])]
    if "forward" in directions:
        found += ["FORWARD " + p for p in avro_can_read(old[2], new[2])]
    return found
