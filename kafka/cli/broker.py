"""``python -m kafka broker``: run the embedded test broker in the foreground.

Prints ``bootstrap servers: HOST:PORT`` once the broker answers, then runs
until Ctrl-C (SIGINT) or SIGTERM and stops it cleanly with exit code 0.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Optional

from kafka.cli import report_error

_POLL_INTERVAL = 0.2
# After the broker dies on its own, how long to wait for a stop signal that may
# have been delivered to the whole process group (Ctrl-C in a terminal).
_SIGNAL_GRACE = 0.5


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a port number: {0!r}".format(text)) from None
    if not 0 <= value < 65536:
        raise argparse.ArgumentTypeError("port must be between 0 and 65535, got {0}".format(value))
    return value


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``broker`` command."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "broker", help="run the embedded Kafka-compatible test broker (Tansu)",
        description="Run the embedded Tansu broker until Ctrl-C or SIGTERM. "
                    "Data is kept in memory only and is lost when it stops.")
    parser.add_argument("--port", type=_port, default=0,
                        help="TCP port to listen on (default: a free port)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--start-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="how long to wait for the broker to answer (default: 30)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show the broker's log tail when it fails")
    return parser


class _StopRequested:
    def __init__(self) -> None:
        self.signal: Optional[int] = None

    def __call__(self, signum: int, frame: Optional[FrameType]) -> None:
        self.signal = signum


def run(args: argparse.Namespace) -> int:
    """Start the broker, print its address and wait for a stop signal."""
    from kafka.testing import EmbeddedBroker, EmbeddedBrokerError

    prog = "kafkawire broker"
    stop = _StopRequested()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    broker = EmbeddedBroker(port=args.port or None, host=args.host)
    try:
        try:
            broker.start(timeout=args.start_timeout)
        except EmbeddedBrokerError as exc:
            report_error(prog, exc.args[0])
            if args.verbose and exc.details:
                sys.stderr.write(exc.details + "\n")
            return 1
        if stop.signal is not None:
            return 0
        sys.stdout.write("bootstrap servers: {0}\n".format(broker.bootstrap_servers))
        sys.stdout.flush()
        while stop.signal is None and broker.running:
            time.sleep(_POLL_INTERVAL)
        if stop.signal is None:
            time.sleep(_SIGNAL_GRACE)
        if stop.signal is None:
            report_error(prog, "the broker exited unexpectedly (status {0})"
                         .format(broker.returncode))
            if args.verbose:
                sys.stderr.write(broker.log_tail() + "\n")
            return 1
        return 0
    finally:
        broker.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
