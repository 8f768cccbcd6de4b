"""A stand-in for PyPy's bytes builder, to run the PyPy record loops on CPython."""

from __future__ import annotations

from typing import List


class ListBuilder:
    """``__pypy__.builders.BytesBuilder``'s interface (``append``, ``build``) over a list."""

    def __init__(self) -> None:
        self.parts: List[bytes] = []
        self.append = self.parts.append

    def build(self) -> bytes:
        return b"".join(self.parts)
