"""kafka-python 3's serializer interface, and the one rule for calling a configured (de)serializer.

kafkawire's clients take plain callables (``value_serializer=json.dumps``),
called with the data alone.  :class:`Serializer` and :class:`Deserializer`
are kafka-python 3's object interface: an instance given as a
``*_serializer`` / ``*_deserializer`` setting is called as kafka-python 3
calls it, ``serialize(topic, headers, data)`` /
``deserialize(topic, headers, data)`` (an older subclass whose method takes
``(topic, data)`` is called that way).  :func:`conversion` decides which,
once, when a client is built; the per-record code only unpacks its answer.
"""

from __future__ import annotations

import abc
import inspect
import json
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

Headers = Optional[List[Tuple[str, bytes]]]


class Serializer(abc.ABC):
    """Turns a key or value into bytes before it is sent."""

    @abc.abstractmethod
    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        """The bytes to send for ``data``."""

    def close(self) -> None:
        """Release what the serializer holds; nothing by default."""


class Deserializer(abc.ABC):
    """Turns the bytes of a received key or value into an object."""

    @abc.abstractmethod
    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        """The object for the received ``data``."""

    def close(self) -> None:
        """Release what the deserializer holds; nothing by default."""


class DefaultSerializer(Serializer, Deserializer):
    """``str`` to and from bytes in ``encoding``; bytes-like values and ``None`` pass through.

    Anything else given to :meth:`serialize` fails as in kafka-python (an
    ``int`` has no ``encode``): numbers are not silently turned into text.
    """

    def __init__(self, encoding: str = "utf-8") -> None:
        self.encoding = encoding

    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        if data is None or isinstance(data, (bytes, bytearray, memoryview)):
            return data
        encoded: bytes = data.encode(self.encoding)  # AttributeError for a non-str, as kafka-python
        return encoded

    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        return None if data is None else bytes(data).decode(self.encoding)


class JsonSerializer(DefaultSerializer):
    """JSON text in ``encoding``; ``None`` stays ``None`` (a tombstone), not ``null``."""

    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        return None if data is None else super().serialize(topic, headers, json.dumps(data))

    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        return None if data is None else json.loads(super().deserialize(topic, headers, data))


class SerializeWrapper(Serializer):
    """A plain callable as a :class:`Serializer` (``None`` as the callable: bytes pass through)."""

    def __init__(self, fn: Optional[Callable[[Any], Optional[bytes]]]) -> None:
        self.fn = fn

    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        return data if self.fn is None else self.fn(data)


class DeserializeWrapper(Deserializer):
    """A plain callable as a :class:`Deserializer` (``None`` as the callable: bytes pass through)."""

    def __init__(self, fn: Optional[Callable[[Optional[bytes]], Any]]) -> None:
        self.fn = fn

    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        return data if self.fn is None else self.fn(data)


class Conversion(NamedTuple):
    """How a configured (de)serializer is called, decided once by :func:`conversion`.

    ``fn(data)`` or, with ``contextual``, ``fn(topic, headers, data)``.
    Hot loops unpack the pair once and branch on ``contextual``; other code
    calls the conversion itself.
    """

    fn: Callable[..., Any]
    contextual: bool

    def __call__(self, topic: Optional[str], headers: Any, data: Any) -> Any:
        return self.fn(topic, headers, data) if self.contextual else self.fn(data)


def conversion(configured: Any, kind: str) -> Optional[Conversion]:
    """The :class:`Conversion` for a ``*_serializer`` (``kind`` ``"serialize"``) or ``*_deserializer`` setting.

    ``None`` stays ``None`` (data passes through).  A :class:`Serializer`
    (for ``"serialize"``) or :class:`Deserializer` (for ``"deserialize"``)
    is called through its method with ``(topic, headers, data)``, or with
    ``(topic, data)`` when its method takes just two arguments; anything
    else is a callable taking the data alone.
    """
    if configured is None:
        return None
    interface = Serializer if kind == "serialize" else Deserializer
    if not isinstance(configured, interface):
        return Conversion(configured, False)
    method = getattr(configured, kind)
    if _positional_count(method) == 2:  # an older interface: (topic, data)
        return Conversion(lambda topic, headers, data: method(topic, data), True)
    return Conversion(method, True)


def _positional_count(method: Callable[..., Any]) -> Optional[int]:
    """How many positional arguments ``method`` takes; None when unbounded or not known."""
    try:
        params = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return None
    count = 0
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            return None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            count += 1
    return count


def close_converter(configured: Any) -> None:
    """Close a configured :class:`Serializer` or :class:`Deserializer` (as kafka-python's clients do on close)."""
    if isinstance(configured, (Serializer, Deserializer)):
        configured.close()


__all__ = ["Serializer", "Deserializer", "DefaultSerializer", "JsonSerializer", "SerializeWrapper",
           "DeserializeWrapper", "Conversion", "conversion", "close_converter"]
