"""Child processes in tests: never left running by a failed test, and stopped the way a user stops them."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import time
from typing import Any, Iterator, Tuple


@contextlib.contextmanager
def reaped(process: "subprocess.Popen[Any]") -> Iterator["subprocess.Popen[Any]"]:
    """Yield ``process``; on the way out kill it (and wait for it) if it still runs."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def interrupt(process: "subprocess.Popen[Any]", timeout: float = 20.0,
              sig: int = signal.SIGINT) -> Tuple[Any, Any, float]:
    """Send ``sig`` (Ctrl-C by default) and wait for the exit: ``(stdout, stderr, seconds it took)``."""
    started = time.monotonic()
    process.send_signal(sig)
    out, err = process.communicate(timeout=timeout)
    return out, err, time.monotonic() - started
