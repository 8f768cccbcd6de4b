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
from typing import Any, List, Optional, Tuple

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


__all__ = ["Serializer", "Deserializer"]
