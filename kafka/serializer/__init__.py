"""kafka-python 3's serializer interface.

kafkawire's clients take plain callables (``value_serializer=json.dumps``).
:class:`Serializer` and :class:`Deserializer` are kafka-python 3's object
interface on top of that: their instances are callables too (``__call__``
runs :meth:`Serializer.serialize` with ``topic`` and ``headers`` unknown,
``None``), so a subclass written for kafka-python can be passed wherever a
serializer callable is accepted.
"""

from __future__ import annotations

import abc
import json
from typing import Any, Callable, List, Optional, Tuple

Headers = Optional[List[Tuple[str, bytes]]]


class Serializer(abc.ABC):
    """Turns a key or value into bytes before it is sent."""

    @abc.abstractmethod
    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        """The bytes to send for ``data``."""

    def close(self) -> None:
        """Release what the serializer holds; nothing by default."""

    def __call__(self, data: Any) -> Optional[bytes]:
        return self.serialize(None, None, data)


class Deserializer(abc.ABC):
    """Turns the bytes of a received key or value into an object."""

    @abc.abstractmethod
    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        """The object for the received ``data``."""

    def close(self) -> None:
        """Release what the deserializer holds; nothing by default."""

    def __call__(self, data: Optional[bytes]) -> Any:
        return self.deserialize(None, None, data)


class DefaultSerializer(Serializer, Deserializer):
    """``str`` to and from bytes in ``encoding``; bytes-like values and ``None`` pass through."""

    def __init__(self, encoding: str = "utf-8") -> None:
        self.encoding = encoding

    def serialize(self, topic: Optional[str], headers: Headers, data: Any) -> Optional[bytes]:
        if data is None or isinstance(data, (bytes, bytearray, memoryview)):
            return data
        return str(data).encode(self.encoding)

    def deserialize(self, topic: Optional[str], headers: Headers, data: Optional[bytes]) -> Any:
        return None if data is None else bytes(data).decode(self.encoding)

    # Both interfaces define __call__; as a value it serializes.
    __call__ = Serializer.__call__


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


__all__ = ["Serializer", "Deserializer", "DefaultSerializer", "JsonSerializer", "SerializeWrapper",
           "DeserializeWrapper"]
