"""The optional packages the serializers stand on, loaded when first needed.

``fastavro`` (Avro, ``pip install 'kafkawire[avro]'``) and ``jsonschema``
(JSON Schema, ``pip install 'kafkawire[json]'``) are not dependencies of
kafkawire: a serializer made without its package installed raises an
``ImportError`` naming the extra to install. They are loaded by name, so
type checking kafkawire does not need them either.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXTRAS = {"fastavro": "avro", "jsonschema": "json", "referencing": "json"}


def load(module: str) -> Any:
    """Import ``module`` (such as ``fastavro.schema``), or explain which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.partition(".")[0]
        raise ImportError("%s is needed here: pip install 'kafkawire[%s]'" % (top, _EXTRAS.get(top, top))) from exc


__all__ = ["load"]
