"""A small progress display for long-running commands.

On a terminal it redraws one line in place (a bar, the count, the percentage
and the rate); on anything else (a pipe, a log file) it writes a plain line
every few seconds instead, so logs stay readable. Nothing here touches
Kafka: ``perf`` and the demo drive it with :meth:`Progress.update`.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from typing import Any, Callable, Optional, TextIO

#: Seconds between two redraws of the bar on a terminal.
TTY_INTERVAL = 0.1
#: Seconds between two plain lines when the stream is not a terminal.
PLAIN_INTERVAL = 2.0


def _count(n: float) -> str:
    return "{0:,}".format(int(n))


class Progress:
    """Progress of ``total`` units of work (``None`` when the total is unknown).

    ``update(n)`` records ``n`` more units done; it is cheap (one addition
    and a clock read) and thread-safe, and draws only when the last drawing
    is older than the interval. ``close()`` draws the final state and ends
    the line. Usable as a context manager.

    ``tty`` forces the terminal (True) or plain-line (False) style instead
    of asking ``stream.isatty()``; ``enabled=False`` draws nothing at all;
    ``clock`` replaces :func:`time.monotonic` (tests).
    """

    def __init__(self, total: Optional[int], label: str, stream: Optional[TextIO] = None, *,
                 tty: Optional[bool] = None, enabled: bool = True, interval: Optional[float] = None,
                 width: Optional[int] = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total if total is None or total > 0 else None
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            tty = bool(isatty()) if callable(isatty) else False
        self.tty = tty
        self.enabled = enabled
        self.interval = interval if interval is not None else (TTY_INTERVAL if tty else PLAIN_INTERVAL)
        self._width = width
        self._clock = clock
        self._lock = threading.Lock()
        self.done = 0
        self.started = clock()
        self._last_draw = self.started
        self._closed = False

    # -- counting ----------------------------------------------------------------------------

    def update(self, n: int = 1) -> None:
        """Record ``n`` more units done and redraw if it is time to."""
        with self._lock:
            self.done += n
            if not self.enabled or self._closed:
                return
            now = self._clock()
            if now - self._last_draw < self.interval:
                return
            self._last_draw = now
            self._draw(now, final=False)

    def close(self) -> None:
        """Draw the final state (ending the terminal line); later calls do nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self.enabled:
                self._draw(self._clock(), final=True)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- drawing -----------------------------------------------------------------------------

    def rate(self, now: Optional[float] = None) -> float:
        """Units per second since the start."""
        elapsed = (self._clock() if now is None else now) - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def render(self, now: Optional[float] = None, width: Optional[int] = None) -> str:
        """The text of one progress line (without line ending), at most ``width`` characters."""
        now = self._clock() if now is None else now
        rate = "{0}/s".format(_count(self.rate(now)))
        if self.total is None:
            return "{0} {1} {2}".format(self.label, _count(self.done), rate)
        fraction = min(self.done / self.total, 1.0)
        counts = "{0}/{1} {2:3.0f}% {3}".format(_count(self.done), _count(self.total), fraction * 100, rate)
        if not self.tty:
            return "{0}: {1}".format(self.label, counts)
        width = width or self._width or shutil.get_terminal_size((80, 24)).columns
        room = width - len(self.label) - len(counts) - 5  # spaces and brackets
        if room < 10:
            return "{0} {1}".format(self.label, counts)[:max(width - 1, 1)]
        room = min(room, 40)
        filled = int(fraction * room)
        return "{0} [{1}{2}] {3}".format(self.label, "#" * filled, "." * (room - filled), counts)

    def _draw(self, now: float, final: bool) -> None:
        text = self.render(now)
        try:
            if self.tty:
                # \r back to the start, text, then clear what a longer previous line left.
                self.stream.write("\r" + text + "\x1b[K" + ("\n" if final else ""))
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False  # the stream went away (closed pipe): stop drawing
