"""Plain-dict renderings of broker answers, in the shapes kafka-python 3's admin client returns.

kafka-python 3 hands back each response struct as a dict keyed by the
protocol's field names (the same snake_case names as our schemas), with
topic ids as strings, authorized-operation bit sets as sets of
:class:`~kafka.admin.ACLOperation` (None when not asked for), and config
sources and types as names.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict, List, Optional

from kafka import errors
from kafka.admin.acl_resource import ACLOperation
from kafka.protocol.schema import StructValue

#: The int32 that means "authorized operations were not asked for".
_NOT_ASKED = -2147483648

#: kafka-python's names of the DescribeConfigs config sources.
CONFIG_SOURCE_NAMES = {
    0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG", 3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG", 6: "DYNAMIC_BROKER_LOGGER_CONFIG",
    7: "DYNAMIC_CLIENT_METRICS_CONFIG", 8: "DYNAMIC_GROUP_CONFIG",
}

#: kafka-python's names of the DescribeConfigs config types.
CONFIG_TYPE_NAMES = {0: "UNKNOWN", 1: "BOOLEAN", 2: "STRING", 3: "INT", 4: "SHORT", 5: "LONG", 6: "DOUBLE",
                     7: "LIST", 8: "CLASS", 9: "PASSWORD"}


def plain(value: Any) -> Any:
    """A struct (or list of them) as nested dicts; UUIDs as strings, the all-zero UUID as None."""
    if isinstance(value, StructValue):
        return {name: plain(getattr(value, name)) for name in value._names}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, uuid.UUID):
        return str(value) if value.int else None
    return value


def authorized_operations(bits: Optional[int]) -> Optional[List[str]]:
    """The names of the operations in an authorized-operations bit set; None when not asked for."""
    if bits is None or bits == _NOT_ASKED:
        return None
    return [op.name for op in ACLOperation if op > ACLOperation.ALL and bits & (1 << int(op))]


def topic_dict(topic: Any) -> Dict[str, Any]:
    """A Metadata response topic as kafka-python's ``describe_topics`` lists it."""
    out = plain(topic)
    out["authorized_operations"] = authorized_operations(out.pop("topic_authorized_operations", None))
    return out


def config_dict(config: Any) -> Dict[str, Any]:
    """One DescribeConfigs entry, without its name, as kafka-python's ``describe_configs`` gives it."""
    out = plain(config)
    del out["name"]
    is_default = out.pop("is_default", False)
    source = out.get("config_source", -1)
    if source is None or source < 0:  # DescribeConfigs v0 has no source; derive it as Kafka does
        source = 5 if is_default else 0
    out["config_source"] = CONFIG_SOURCE_NAMES.get(source, "UNKNOWN")
    out["config_type"] = CONFIG_TYPE_NAMES.get(out.get("config_type") or 0, "UNKNOWN")
    out["synonyms"] = [dict(s, source=CONFIG_SOURCE_NAMES.get(s["source"], "UNKNOWN"))
                       for s in out.get("synonyms") or []]
    return out


def error_text(code: int, message: Optional[str]) -> str:
    """A broker error as kafka-python writes it in its result dicts: ``"[Error 42] InvalidRequestError: text"``."""
    cls = errors.for_code(code) or errors.NoError
    return str(cls(message) if message else cls())


def error_names(results: Dict[Any, Any]) -> List[Any]:
    """``[(key, error class name or 'OK')]`` for a ``{key: None or exception}`` mapping."""
    return [(key, "OK" if outcome is None else type(outcome).__name__) for key, outcome in results.items()]


__all__ = ["plain", "authorized_operations", "topic_dict", "config_dict", "error_names", "error_text",
           "CONFIG_SOURCE_NAMES", "CONFIG_TYPE_NAMES"]
