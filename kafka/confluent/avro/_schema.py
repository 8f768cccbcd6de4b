"""The parsed schema that the legacy ``load``/``loads`` answer: :class:`ParsedSchema`.

confluent-kafka answers objects of the ``avro`` package; programs mostly
hand them straight back to ``AvroProducer`` or the registry client, or
print them. A :class:`ParsedSchema` keeps the schema's JSON, checked by
fastavro, and reads as the text the legacy client registers (see
:mod:`kafka.confluent.avro._schema_text`).
"""

from __future__ import annotations

import json
from typing import Any, Optional

from kafka.confluent.avro._schema_text import NAMED_TYPES, legacy_json, legacy_text
from kafka.confluent.schema_registry import _optional


class ParsedSchema:
    """An Avro schema checked by fastavro; ``str()`` is its JSON text in the layout avro writes.

    Two schemas are equal when their JSON is; equal schemas hash alike, so
    a schema can key the legacy client's caches as avro's schemas do.
    """

    __slots__ = ("_json", "_text", "_parsed")

    def __init__(self, schema_json: Any) -> None:
        self._json = legacy_json(schema_json)
        self._text = legacy_text(schema_json)
        self._parsed = _optional.load("fastavro.schema").parse_schema(schema_json, _write_hint=False)

    @property
    def type(self) -> str:
        """The schema's type: a primitive's name, ``record``, ``enum``, ``array``, ... or ``union``."""
        if isinstance(self._json, list):
            return "union"
        if isinstance(self._json, str):
            return self._json
        return str(self._json.get("type"))

    @property
    def name(self) -> Optional[str]:
        """A named type's name (without namespace), else None."""
        return self._json.get("name") if self.type in NAMED_TYPES else None

    @property
    def namespace(self) -> Optional[str]:
        """A named type's namespace, else None."""
        return self._json.get("namespace") if self.type in NAMED_TYPES else None

    @property
    def fullname(self) -> Optional[str]:
        """A named type's full name; a primitive's type name; else None."""
        if self.type in NAMED_TYPES:
            return "%s.%s" % (self.namespace, self.name) if self.namespace else self.name
        return self._json if isinstance(self._json, str) else None

    @property
    def parsed(self) -> Any:
        """fastavro's parsed form, for ``schemaless_writer`` and ``schemaless_reader``."""
        return self._parsed

    def to_json(self) -> Any:
        """The schema as JSON data (dicts, lists and strings), in avro's layout."""
        return json.loads(self._text)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "ParsedSchema(%s)" % self._text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ParsedSchema):
            return self._json == other._json
        return NotImplemented

    def __hash__(self) -> int:
        return hash(json.dumps(self._json, sort_keys=True))


__all__ = ["ParsedSchema"]
