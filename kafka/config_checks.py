"""Checks of configuration values, before a client uses any of them.

A client's ``DEFAULT_CONFIG`` says what each setting holds: a flag, a
number, a text or a callable. :func:`check_config_values` refuses a value of
another kind, and a negative number, with
:class:`~kafka.errors.ConfigurationTypeError` or
:class:`~kafka.errors.ConfigurationValueError` (both
:class:`~kafka.errors.KafkaConfigurationError`), so a bad value fails at
construction instead of as a ``TypeError`` deep inside a background thread.
Settings with rules of their own (``acks``, ``bootstrap_servers``, ...) are
checked where they are used.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from kafka import errors
from kafka.serializer import Deserializer, Serializer

#: Numeric settings where a negative value means something (0.9's -1: no timeout).
NEGATIVE_ALLOWED = frozenset(["consumer_timeout_ms"])
#: Numeric settings that must be at least 1.
POSITIVE = frozenset(["max_in_flight_requests_per_connection", "max_poll_records"])
#: Flags that may also be None ("decide for me").
FLAG_OR_NONE = frozenset(["enable_idempotence"])
#: Settings holding a callable (or None). (``partitioner`` also takes objects: see kafka.producer.custom_partitioner.)
CALLABLES = frozenset(["key_serializer", "value_serializer", "key_deserializer", "value_deserializer",
                       "default_offset_commit_callback"])
#: Callable settings that also take kafka-python 3's (de)serializer objects.
_INTERFACES = {"key_serializer": Serializer, "value_serializer": Serializer,
               "key_deserializer": Deserializer, "value_deserializer": Deserializer}
#: Settings holding a text (or None) whose default is None.
TEXT_OR_NONE = frozenset(["client_id", "transactional_id"])


def check_config_values(config: Mapping[str, Any], defaults: Mapping[str, Any],
                        checked_elsewhere: Iterable[str] = ()) -> None:
    """Raise if a value in ``config`` cannot be meant for its setting, judged by ``defaults``.

    Values equal to their default and keys in ``checked_elsewhere`` are not
    looked at; keys missing from ``defaults`` are the caller's concern.
    """
    skip = set(checked_elsewhere)
    for key, value in config.items():
        if key in skip or key not in defaults or value is defaults[key]:
            continue
        _check_value(key, value, defaults[key])


def check_number(name: str, value: Any, minimum: float = 0, *, integer: bool = False,
                 none_ok: bool = False) -> None:
    """Raise unless ``value`` is a number (an int with ``integer``) of at least ``minimum`` (or None with ``none_ok``)."""
    if value is None and none_ok:
        return
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise errors.ConfigurationTypeError("%s must be %s%s, got %r" % (
            name, "an int" if integer else "a number", " or None" if none_ok else "", value))
    if value < minimum:
        raise errors.ConfigurationValueError("%s must be at least %s, got %r" % (name, minimum, value))


def _check_value(key: str, value: Any, default: Any) -> None:
    if key in CALLABLES:
        if value is not None and not callable(value) and not isinstance(value, _INTERFACES.get(key, ())):
            raise errors.ConfigurationTypeError("%s must be callable or None, not %r" % (key, value))
    elif key in FLAG_OR_NONE:
        if value is not None and not isinstance(value, bool):
            raise errors.ConfigurationTypeError("%s must be True, False or None, not %r" % (key, value))
    elif key in TEXT_OR_NONE:
        if value is not None and not isinstance(value, str):
            raise errors.ConfigurationTypeError("%s must be a str or None, not %r" % (key, value))
    elif isinstance(default, bool):
        if not isinstance(value, bool):
            raise errors.ConfigurationTypeError("%s must be True or False, not %r" % (key, value))
    elif isinstance(default, (int, float)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise errors.ConfigurationTypeError("%s must be a number, not %r" % (key, value))
        if value < 0 and key not in NEGATIVE_ALLOWED:
            raise errors.ConfigurationValueError("%s must not be negative, got %r" % (key, value))
        if value < 1 and key in POSITIVE:
            raise errors.ConfigurationValueError("%s must be at least 1, got %r" % (key, value))
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise errors.ConfigurationTypeError("%s must be a str, not %r" % (key, value))


__all__ = ["check_config_values", "check_number"]
