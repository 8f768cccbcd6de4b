"""How the differential tests describe an exception, so that both libraries' can be compared."""

from __future__ import annotations

from typing import Tuple


def raised(exc: BaseException, with_text: bool = True) -> Tuple[str, ...]:
    """``(exception class name, error name[, error text])`` for a KafkaException (its KafkaError's
    ``name()`` and ``str()``), ``(class name, str(exc))`` for any other exception."""
    error = exc.args[0] if exc.args else None
    if hasattr(error, "name"):
        if with_text:
            return (type(exc).__name__, error.name(), error.str())
        return (type(exc).__name__, error.name())
    return (type(exc).__name__, str(exc))
