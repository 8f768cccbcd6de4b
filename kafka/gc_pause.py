"""Keeping CPython's cyclic garbage collector off a poll's records (the synchronous and asyncio consumers).

A poll builds up to ``max_poll_records`` record tuples that stay alive
together.  Each one counts as an allocation for the collector, so a large
poll would set off many young-generation passes while it decodes; the
records survive them, get promoted, and soon make the collector walk the
whole old generation (every module, class and function of the process)
again and again.  With 10,000 records a poll that cost more than the
decoding itself.  So the collector is off while a poll builds its records.

Records hold only strings, bytes, ints and tuples of them: they can never be
part of a reference cycle, so sparing them the collector loses nothing.

When the poll returns, its records are still alive and its allocations are
far past the young generation's threshold: with the collector simply back
on, the first allocation after the poll starts a pass that walks every
record just made (0.5-1 µs per record with 10,000 ``small`` records per
poll, most of what made large polls dearer than small ones).  So the poll
also lifts the young generation's threshold by what it left allocated:
the application's own allocations after the poll get the usual allowance
before a pass, and records it has dropped by then are never walked.  The
next poll (or :func:`restore_threshold`, which closing a consumer calls)
puts the threshold back first. The last poll's records are usually still
alive then (a loop rebinds its variable only when the poll returns), so
the pass that was put off runs only if the young generation holds more
than those records and the usual allowance: records the application keeps
poll after poll, or its own allocations, are walked as they would have
been.  A threshold the application sets in between is its own and is left
alone.

All this is the ``GC_PAUSE`` fast path of :mod:`kafka.fast_paths`: on
CPython only, as PyPy's collector is not CPython's generational cycle
collector and gains nothing from it.
"""

from __future__ import annotations

import gc
import threading
from typing import Any, Optional, Tuple

from kafka import fast_paths

__all__ = ["gc_paused", "restore_threshold"]

_lock = threading.Lock()
#: While a lift is on: ``(the application's young-generation threshold, the lifted one set instead,
#: what the poll that lifted it allocated)``.
_lift: Optional[Tuple[int, int, int]] = None


def restore_threshold() -> None:
    """Put back the young-generation threshold a poll lifted, and run the pass it put off if now due."""
    if fast_paths.GC_PAUSE:
        _restore()


def _restore() -> int:
    """End a lift; return how many of the lifting poll's objects are still spared (0 after a pass)."""
    global _lift
    with _lock:
        if _lift is None:
            return 0
        original, lifted, exempt = _lift
        _lift = None
        young, middle, old = gc.get_threshold()
        if young != lifted:
            return 0  # the application set a threshold of its own meanwhile
        gc.set_threshold(original, middle, old)
    # The last poll's records may still be alive (the application's variable
    # is rebound only when this poll returns): only what lies beyond them and
    # the usual allowance makes a pass due. Outside the lock: finalizers run
    # by the pass may close a consumer.
    if gc.isenabled() and gc.get_count()[0] > original + exempt:
        gc.collect(0)
        return 0
    return exempt


def _lift_from(allocated_before: int, spared: int) -> None:
    global _lift
    with _lock:
        young, middle, old = gc.get_threshold()
        original = young
        if _lift is not None and young == _lift[1]:
            original = _lift[0]  # another poll's lift is on: lift from the application's threshold
        allocated = gc.get_count()[0]
        if original and allocated > original:
            # A poll that made few records (none had arrived yet) still spares
            # the records of the poll before it, which may well be alive.
            exempt = max(allocated - allocated_before, spared)
            _lift = (original, allocated + original, exempt)
            gc.set_threshold(allocated + original, middle, old)


class gc_paused:  # noqa: N801 - used like a function: ``with gc_paused():``
    """Context manager around a poll: the collector is off inside, unless it was off already.

    On the way in, a threshold lifted by the poll before is put back; on the
    way out, the threshold is lifted past what the poll allocated (see the
    module's text). Not meant for code that turns the collector on or off
    itself from another thread while a poll runs: the poll turns it back on
    when it ends.
    """

    __slots__ = ("_paused", "_allocated", "_spared")

    def __init__(self) -> None:
        self._paused = False
        self._allocated = 0
        self._spared = 0

    def __enter__(self) -> None:
        if not fast_paths.GC_PAUSE:
            return
        self._spared = _restore()
        if gc.isenabled():
            gc.disable()
            self._paused = True
            self._allocated = gc.get_count()[0]

    def __exit__(self, *exc: Any) -> None:
        if self._paused:
            _lift_from(self._allocated, self._spared)
            gc.enable()
