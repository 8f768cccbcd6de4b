"""Windowed measurements: the numbers behind ``metrics()``.

A :class:`Sampled` keeps a small ring of time windows (``samples`` of them,
``window`` seconds each, from kafka-python's ``metrics_num_samples`` and
``metrics_sample_window_ms``). Each window holds an event count, a running
total and a maximum of the values recorded in it. Recording is a few
arithmetic steps and no lock: the engine records once per batch, request or
fetch response (never per record), from the one thread that owns that work,
and readers in other threads only look at the numbers.

Averages, maxima and rates are worked out when they are asked for, over the
windows that have not expired (a window expires ``samples * window``
seconds after it opened). A rate divides by the time since the oldest live
window opened, to which whole windows are added while fewer than
``samples - 1`` have passed, so a rate read just after start-up is not
inflated (Kafka's Java client and kafka-python divide the same way).
"""

from __future__ import annotations

import time
from typing import List

__all__ = ["WindowConfig", "Sampled", "NodeStats"]

_monotonic = time.monotonic
_NEG_INF = float("-inf")


class WindowConfig:
    """How many windows a measurement keeps and how long each lasts (seconds)."""

    __slots__ = ("samples", "window")

    def __init__(self, samples: int = 2, window_ms: float = 30000) -> None:
        if samples < 1:
            raise ValueError("metrics_num_samples must be at least 1, not %r" % (samples,))
        if window_ms <= 0:
            raise ValueError("metrics_sample_window_ms must be positive, not %r" % (window_ms,))
        self.samples = int(samples)
        self.window = window_ms / 1000.0


class Sampled:
    """Count, total and maximum of recorded values over a ring of time windows."""

    __slots__ = ("_config", "_starts", "_counts", "_totals", "_maxes", "_current")

    def __init__(self, config: WindowConfig) -> None:
        self._config = config
        self._starts: List[float] = []
        self._counts: List[int] = []
        self._totals: List[float] = []
        self._maxes: List[float] = []
        self._current = -1

    def record(self, value: float, now: float = 0.0) -> None:
        """Add ``value`` (at ``now``, monotonic seconds; the clock is read when 0)."""
        if not now:
            now = _monotonic()
        i = self._current
        if i < 0 or now - self._starts[i] >= self._config.window:
            i = self._advance(now)
        self._counts[i] += 1
        self._totals[i] += value
        if value > self._maxes[i]:
            self._maxes[i] = value

    def _advance(self, now: float) -> int:
        i = (self._current + 1) % self._config.samples
        if i >= len(self._starts):
            self._starts.append(now)
            self._counts.append(0)
            self._totals.append(0.0)
            self._maxes.append(_NEG_INF)
        else:
            self._starts[i] = now
            self._counts[i] = 0
            self._totals[i] = 0.0
            self._maxes[i] = _NEG_INF
        self._current = i
        return i

    def _live(self, now: float) -> List[int]:
        """Indexes of the windows that have not expired at ``now``."""
        expiry = self._config.samples * self._config.window
        starts = self._starts
        return [i for i in range(len(starts)) if now - starts[i] < expiry]

    def count(self, now: float = 0.0) -> int:
        """Values recorded in the live windows."""
        now = now or _monotonic()
        counts = self._counts
        return sum(counts[i] for i in self._live(now))

    def total(self, now: float = 0.0) -> float:
        """Sum of the values recorded in the live windows."""
        now = now or _monotonic()
        totals = self._totals
        return float(sum(totals[i] for i in self._live(now)))

    def avg(self, now: float = 0.0) -> float:
        """Mean of the values in the live windows; 0.0 when there are none."""
        now = now or _monotonic()
        live = self._live(now)
        count = sum(self._counts[i] for i in live)
        return float(sum(self._totals[i] for i in live)) / count if count else 0.0

    def max(self, now: float = 0.0) -> float:
        """Largest value in the live windows; ``-inf`` when there are none (as kafka-python reports it)."""
        now = now or _monotonic()
        maxes = self._maxes
        return max((maxes[i] for i in self._live(now)), default=_NEG_INF)

    def _elapsed(self, live: List[int], now: float) -> float:
        config = self._config
        oldest = min((self._starts[i] for i in live), default=now)
        elapsed = now - oldest
        full = int(elapsed / config.window)
        if full < config.samples - 1:
            elapsed += (config.samples - 1 - full) * config.window
        return elapsed

    def rate(self, now: float = 0.0) -> float:
        """Sum of the recorded values per second."""
        now = now or _monotonic()
        live = self._live(now)
        elapsed = self._elapsed(live, now)
        return float(sum(self._totals[i] for i in live)) / elapsed if elapsed > 0 else 0.0

    def event_rate(self, now: float = 0.0) -> float:
        """Recordings per second."""
        now = now or _monotonic()
        live = self._live(now)
        elapsed = self._elapsed(live, now)
        return float(sum(self._counts[i] for i in live)) / elapsed if elapsed > 0 else 0.0


class NodeStats:
    """One connection's request traffic, also added to the client's totals (``parent``).

    A connection calls :meth:`sent` per request, :meth:`received` per socket
    read, :meth:`answered` per response, and :meth:`connected` /
    :meth:`closed` as its socket opens and closes.
    """

    __slots__ = ("parent", "request_size", "incoming", "latency", "throttle", "connects", "closes")

    def __init__(self, config: WindowConfig, parent: "NodeStats | None" = None) -> None:
        self.parent = parent
        self.request_size = Sampled(config)
        self.incoming = Sampled(config)
        self.latency = Sampled(config)
        self.throttle = Sampled(config)
        self.connects = Sampled(config)
        self.closes = Sampled(config)

    def sent(self, size: int, now: float) -> None:
        """A request of ``size`` bytes was queued."""
        self.request_size.record(size, now)
        if self.parent is not None:
            self.parent.request_size.record(size, now)

    def received(self, size: int, now: float) -> None:
        """``size`` bytes were read from the socket."""
        self.incoming.record(size, now)
        if self.parent is not None:
            self.parent.incoming.record(size, now)

    def answered(self, latency: float, throttle_ms: float, now: float) -> None:
        """A response came ``latency`` seconds after its request, asking for ``throttle_ms`` of pause."""
        latency_ms = latency * 1000.0
        self.latency.record(latency_ms, now)
        self.throttle.record(throttle_ms, now)
        if self.parent is not None:
            self.parent.latency.record(latency_ms, now)
            self.parent.throttle.record(throttle_ms, now)

    def connected(self) -> None:
        """The connection was established."""
        now = _monotonic()
        self.connects.record(1, now)
        if self.parent is not None:
            self.parent.connects.record(1, now)

    def closed(self) -> None:
        """An established connection closed."""
        now = _monotonic()
        self.closes.record(1, now)
        if self.parent is not None:
            self.parent.closes.record(1, now)
