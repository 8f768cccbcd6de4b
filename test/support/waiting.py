"""Waiting in tests for something another thread, process or peer brings about."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, interval: float = 0.05) -> bool:
    """Poll ``condition`` until it is true or ``timeout`` seconds passed; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def wait_for(condition: Callable[[], bool], timeout: float, what: str, interval: float = 0.05) -> float:
    """Poll ``condition`` until true; return the seconds it took, fail naming ``what`` after ``timeout``."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError("timed out after %.1f s waiting for %s" % (timeout, what))
        time.sleep(interval)
    return time.monotonic() - start
