"""Pausing CPython's cyclic garbage collector while a poll builds its records.

A poll builds up to ``max_poll_records`` record tuples that stay alive
together.  Each one counts as an allocation for the collector, so a large
poll sets off many young-generation passes; the records survive them, get
promoted, and soon make the collector walk the whole old generation (every
module, class and function of the process) again and again.  With 10,000
records a poll that cost more than the decoding itself.

Records hold only strings, bytes, ints and tuples of them: they can never be
part of a reference cycle, so leaving the collector off while they are built
loses nothing.  Allocations made meanwhile still count, and the collector
runs as usual at the first allocation after the poll.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

__all__ = ["gc_paused"]

#: PyPy's collector is not CPython's generational cycle collector, and gains nothing from this.
_PAUSE = sys.implementation.name == "cpython"


class gc_paused:  # noqa: N801 - used like a function: ``with gc_paused():``
    """Context manager: the cyclic collector is off inside, unless it was off already.

    Not meant for code that turns the collector on or off itself from
    another thread while a poll runs: the poll turns it back on when it ends.
    """

    __slots__ = ("_paused",)

    def __init__(self) -> None:
        self._paused = False

    def __enter__(self) -> None:
        if _PAUSE and gc.isenabled():
            gc.disable()
            self._paused = True

    def __exit__(self, *exc: Any) -> None:
        if self._paused:
            gc.enable()
