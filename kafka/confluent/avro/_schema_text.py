"""The JSON text the legacy ``confluent_kafka.avro`` gives a parsed schema, from the schema's JSON.

confluent-kafka's legacy client parses schemas with the ``avro`` package and
registers ``str(schema)``: avro's own re-rendering of the schema, not the
text the program wrote. The registry keeps that text, so the schema id a
program gets depends on it. :func:`legacy_text` renders parsed JSON the same
way, so kafkawire's legacy client registers the same text, and gets the same
id, as confluent-kafka's for the same schema:

* keys come in avro's order: ``type``, then the properties avro does not
  know (in the order written), then ``name`` and ``namespace``, then the
  type's own parts (``fields``, ``symbols``, ``size``, ``items``,
  ``values``) and ``doc``; a field's unknown properties come first, then
  ``type``, ``name``, ``default``, ``order`` and ``doc``;
* a primitive type with no property but ``type`` (``doc`` is dropped there)
  is its bare name;
* a named type carries its resolved namespace, inherited ones included, and
  a name met again is written as its full name;
* a valid decimal gets ``"scale": 0`` when it has none.

The output is ``json.dumps`` with its default separators, as avro's is.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional

PRIMITIVE_TYPES = ("null", "boolean", "string", "bytes", "int", "long", "float", "double")
NAMED_TYPES = ("record", "error", "enum", "fixed")
_SCHEMA_KEYS = ("type", "name", "namespace", "fields", "items", "size", "symbols", "values", "doc")
_FIELD_KEYS = ("default", "name", "doc", "order", "type")


def _others(node: Dict[str, Any], known: tuple) -> Dict[str, Any]:
    return {key: value for key, value in node.items() if key not in known}


def _full_name(name: str, space: Optional[str], default: Optional[str]) -> str:
    """``name``'s full name: as written when it holds a dot, else in ``space`` or the enclosing namespace."""
    if "." in name or space == "" or not (space or default):
        return name
    return "%s.%s" % (space or default, name)


def _space_of(full_name: str) -> Optional[str]:
    return full_name.rsplit(".", 1)[0] if "." in full_name else None


def _valid_decimal(precision: Any, scale: Any, max_precision: int) -> bool:
    return (isinstance(precision, int) and 0 < precision <= max_precision
            and isinstance(scale, int) and 0 <= scale <= precision)


class _Renderer:
    """One rendering: the named types met so far, by full name (None: write a reference)."""

    def __init__(self) -> None:
        self.named: Dict[str, Optional[Dict[str, Any]]] = {}

    def render(self, node: Any, default: Optional[str]) -> Any:
        if isinstance(node, list):
            return [self.render(branch, default) for branch in node]
        if isinstance(node, str):
            if node in PRIMITIVE_TYPES:
                return node
            full = _full_name(node, None, default)
            inline = self.named.get(full)
            return dict(inline) if inline is not None else full
        if not isinstance(node, dict):
            return node
        kind = node.get("type")
        if kind in NAMED_TYPES:
            return self._named(node, kind, default)
        out: Dict[str, Any] = {"type": kind}
        out.update(_others(node, _SCHEMA_KEYS))
        if kind == "array":
            out["items"] = self.render(node.get("items"), default)
        elif kind == "map":
            out["values"] = self.render(node.get("values"), default)
        elif kind == "bytes" and node.get("logicalType") == "decimal":
            if _valid_decimal(node.get("precision"), node.get("scale", 0), (1 << 31) - 1):
                out["scale"] = node.get("scale", 0)
        if kind in PRIMITIVE_TYPES and len(out) == 1:
            return kind
        return out

    def _named(self, node: Dict[str, Any], kind: str, default: Optional[str]) -> Any:
        name = node.get("name")
        if not isinstance(name, str):
            return node
        written = node.get("namespace", default)
        full = _full_name(name, written or None, default)
        out: Dict[str, Any] = {"type": kind}
        out.update(_others(node, _SCHEMA_KEYS))
        out["name"] = name.split(".")[-1]
        space = _space_of(full)
        if space:
            out["namespace"] = space
        if kind == "fixed":
            out["size"] = node.get("size")
            if node.get("logicalType") == "decimal" and isinstance(out["size"], int):
                limit = int(math.floor(math.log10(2) * (8 * out["size"] - 1)))
                if _valid_decimal(node.get("precision"), node.get("scale", 0), limit):
                    out["scale"] = node.get("scale", 0)
                    self.named[full] = out  # avro writes a fixed decimal out in full each time
                    return dict(out)
            self.named[full] = None
        elif kind == "enum":
            self.named[full] = None
            out["symbols"] = node.get("symbols")
            if node.get("doc") is not None:
                out["doc"] = node["doc"]
        else:
            self.named[full] = None
            inner = _space_of(_full_name(name, written, default))
            out["fields"] = [self._field(field, inner) for field in node.get("fields") or []]
            if node.get("doc") is not None:
                out["doc"] = node["doc"]
        return out

    def _field(self, field: Any, default: Optional[str]) -> Any:
        if not isinstance(field, dict):
            return field
        out = _others(field, _FIELD_KEYS)
        out["type"] = self.render(field.get("type"), default)
        out["name"] = field.get("name")
        if "default" in field:
            out["default"] = field["default"]
        for key in ("order", "doc"):
            if field.get(key) is not None:
                out[key] = field[key]
        return out


def legacy_json(parsed: Any) -> Any:
    """``parsed`` (a schema's JSON, as :func:`json.loads` gives it) in avro's layout."""
    return _Renderer().render(parsed, None)


def legacy_text(parsed: Any) -> str:
    """``parsed`` rendered as the text confluent-kafka's legacy client registers for it."""
    return json.dumps(legacy_json(parsed))


__all__ = ["legacy_json", "legacy_text", "PRIMITIVE_TYPES", "NAMED_TYPES"]
