"""Helpers for the Schema Registry tests: both clients side by side, and answers made comparable.

confluent-kafka's ``confluent_kafka.schema_registry`` is imported under its
own name next to kafkawire's ``kafka.confluent.schema_registry``; nothing
here calls ``install_as_confluent_kafka``.
"""

from __future__ import annotations

import enum
from types import ModuleType
from typing import Any, Callable, Dict, Iterator, Tuple

import pytest

from kafka.testing.schema_registry import SchemaRegistryServer


def real_modules() -> Dict[str, ModuleType]:
    """confluent-kafka's schema_registry, avro, json_schema and serialization modules."""
    pytest.importorskip("confluent_kafka")
    import confluent_kafka.schema_registry as sr
    import confluent_kafka.schema_registry.avro as avro
    import confluent_kafka.schema_registry.json_schema as json_schema
    import confluent_kafka.serialization as serialization

    return {"sr": sr, "avro": avro, "json_schema": json_schema, "serialization": serialization}


def our_modules() -> Dict[str, ModuleType]:
    """kafkawire's modules of the same names."""
    import kafka.confluent.schema_registry as sr
    import kafka.confluent.schema_registry.avro as avro
    import kafka.confluent.schema_registry.json_schema as json_schema
    import kafka.confluent.serialization as serialization

    return {"sr": sr, "avro": avro, "json_schema": json_schema, "serialization": serialization}


def plain(value: Any) -> Any:
    """``value`` as plain data, the same for both libraries' answers when they agree."""
    if isinstance(value, BaseException):
        if type(value).__name__ == "SchemaRegistryError":
            return ("SchemaRegistryError", value.http_status_code, value.error_code, value.error_message)
        return (type(value).__name__, str(value))
    if isinstance(value, enum.Enum):
        return value.value
    if hasattr(value, "to_dict"):
        return (type(value).__name__, plain(value.to_dict()))
    if type(value).__name__ == "SchemaVersion":
        return ("SchemaVersion", value.subject, value.version)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def outcome(call: Callable[[], Any]) -> Any:
    """What ``call()`` answers or raises, as plain data."""
    try:
        return ("ok", plain(call()))
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return ("raised", plain(exc))


@pytest.fixture
def registry() -> Iterator[SchemaRegistryServer]:
    with SchemaRegistryServer() as server:
        yield server


@pytest.fixture(scope="module")
def libs() -> Tuple[Dict[str, ModuleType], Dict[str, ModuleType]]:
    """(confluent-kafka's modules, kafkawire's modules)."""
    return real_modules(), our_modules()
