"""Starting an asyncio engine client in the background, as librdkafka connects in the background.

confluent-kafka's constructors return at once and its clients keep trying
to reach a broker; kafkawire's asyncio clients connect in ``await start()``
and raise when no bootstrap server answers. :class:`BackgroundStart` bridges
the two: it calls ``start()`` in a task until it succeeds (waiting
``backoff`` seconds between attempts) and lets calls wait for it with a
time limit.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Optional

from kafka import errors as engine_errors

log = logging.getLogger(__name__)

__all__ = ["BackgroundStart"]


class BackgroundStart:
    """Runs ``start`` (an engine's ``start`` method) until it succeeds; :meth:`wait` for it."""

    def __init__(self, start: Callable[[], Awaitable[None]], backoff: float) -> None:
        self._start = start
        self._backoff = max(backoff, 0.05)
        self._started = asyncio.get_running_loop().create_future()
        self._task: Optional["asyncio.Task[None]"] = asyncio.ensure_future(self._run())
        self.last_error: Optional[BaseException] = None

    @property
    def done(self) -> bool:
        """True once the engine has started."""
        return self._started.done() and not self._started.cancelled()

    async def _run(self) -> None:
        while True:
            try:
                await self._start()
            except (engine_errors.KafkaError, OSError) as exc:
                self.last_error = exc
                log.debug("no broker answered yet (%s); trying again in %.2f s", exc, self._backoff)
                await asyncio.sleep(self._backoff)
                continue
            if not self._started.done():
                self._started.set_result(None)
            return

    async def wait(self, timeout: Optional[float]) -> bool:
        """Wait until the engine started, at most ``timeout`` seconds (None: as long as it takes); True if it did."""
        if self.done:
            return True
        if self._task is None:
            return False
        try:
            await asyncio.wait_for(asyncio.shield(self._started), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def stop(self) -> None:
        """Stop trying (the engine's own ``stop()`` is the caller's)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if not self._started.done():
            self._started.cancel()

    def __repr__(self) -> str:
        return "<BackgroundStart %s>" % ("started" if self.done else "starting")
