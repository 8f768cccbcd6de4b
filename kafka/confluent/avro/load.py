"""confluent-kafka's ``confluent_kafka.avro.load``: parse an Avro schema from text or a file.

:func:`loads` and :func:`load` answer a
:class:`~kafka.confluent.avro._schema.ParsedSchema` (confluent-kafka answers
an ``avro`` package schema); a schema that is not JSON or not valid Avro
raises :class:`~kafka.confluent.avro.error.ClientError` ("Schema parse
failed: ..."). Parsing needs fastavro (``pip install 'kafkawire[avro]'``).
"""

from __future__ import annotations

import json

from kafka.confluent.avro._schema import ParsedSchema
from kafka.confluent.avro.error import ClientError
from kafka.confluent.schema_registry import _optional


def loads(schema_str: str) -> ParsedSchema:
    """Parse the Avro schema in ``schema_str``."""
    try:
        schema_json = json.loads(schema_str)
    except (TypeError, ValueError) as exc:
        raise ClientError("Schema parse failed: Error parsing JSON: %s, error = %s" % (schema_str, exc)) from None
    _optional.load("fastavro.schema")
    try:
        return ParsedSchema(schema_json)
    except Exception as exc:  # fastavro raises SchemaParseException, UnknownType, KeyError, TypeError, ...
        reason = "unknown type %s" % exc if type(exc).__name__ == "UnknownType" else str(exc)
        raise ClientError("Schema parse failed: %s" % reason) from None


def load(fp: str) -> ParsedSchema:
    """Parse the Avro schema in the file at path ``fp``."""
    with open(fp) as handle:
        return loads(handle.read())


__all__ = ["load", "loads", "ParsedSchema"]
