"""Helpers shared by the ``produce``, ``consume`` and ``perf`` commands.

Argument types that turn bad values into one-line usage errors, a quick
check that the cluster answers and the topic exists (so an unreachable
broker or a misspelt topic is reported in seconds rather than after a
client's long internal timeouts), and safe writing to a stdout that may be
closed by the reader (``| head``).
"""

from __future__ import annotations

import argparse
import errno
import os
import select
import signal
import stat
import sys
import threading
import time
from types import FrameType
from typing import TYPE_CHECKING, Any, Dict, List, NoReturn, Optional, Tuple

from kafka import errors
from kafka.cli.options import split_servers

if TYPE_CHECKING:
    from kafka.client.routing import RoutingClient

#: Names accepted by ``--compression``.
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
#: Values accepted by ``--acks`` (Kafka's spelling: all and -1 are the same).
ACKS = ("all", "-1", "0", "1")


def usage_error(args: argparse.Namespace, message: str) -> NoReturn:
    """Exit 2 with ``message`` as a one-line usage error of the command that parsed ``args``."""
    parser = getattr(args, "_parser", None)
    if parser is None:
        raise errors.KafkaConfigurationError(message)
    parser.error(message)
    raise AssertionError("parser.error returned")  # pragma: no cover


def records(count: int) -> str:
    """``"1 record"``, ``"2 records"``."""
    return "{0} record{1}".format(count, "" if count == 1 else "s")


# -- argument types ---------------------------------------------------------------------------

def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: {0!r}".format(text)) from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more, got {0}".format(value))
    return value


def positive_int(text: str) -> int:
    """argparse type: an integer > 0."""
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be greater than 0, got 0")
    return value


def header(text: str) -> Tuple[str, bytes]:
    """argparse type for ``--header KEY=VALUE``: ``(KEY, VALUE as UTF-8)``; the value may be empty."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("expected KEY=VALUE, got {0!r}".format(text))
    return name, value.encode("utf-8")


def separator(text: str) -> bytes:
    """argparse type for a non-empty separator, as UTF-8 bytes (the two characters ``\\t`` mean a tab)."""
    if not text:
        raise argparse.ArgumentTypeError("the separator must not be empty")
    return text.replace("\\t", "\t").encode("utf-8")


def producer_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """KafkaProducer settings from the common producer options (``--compression``, ``--acks``...)."""
    acks: Any = "all" if args.acks in ("all", "-1") else int(args.acks)
    settings: Dict[str, Any] = {
        "bootstrap_servers": split_servers(args.bootstrap_servers),
        "acks": acks,
        "compression_type": None if args.compression == "none" else args.compression,
        "linger_ms": args.linger_ms,
        "batch_size": args.batch_size,
        "max_block_ms": int(args.timeout * 1000),
    }
    return settings


def add_producer_options(parser: argparse.ArgumentParser, linger_ms: int = 5) -> None:
    """Add ``--compression``, ``--acks``, ``--linger-ms`` and ``--batch-size``."""
    parser.add_argument("--compression", choices=CODECS, default="none",
                        help="compression codec of the record batches (default: none)")
    parser.add_argument("--acks", choices=ACKS, default="all",
                        help="acknowledgements to wait for: all (= -1), 1 or 0 (default: all)")
    parser.add_argument("--linger-ms", type=non_negative_int, default=linger_ms, metavar="MS",
                        help="wait this long for more records before sending a batch (default: %(default)s)")
    parser.add_argument("--batch-size", type=positive_int, default=16384, metavar="BYTES",
                        help="largest batch per partition, in bytes (default: %(default)s)")


# -- the cluster ------------------------------------------------------------------------------

#: Seconds of nothing but refused connections after which the cluster counts as down,
#: even when ``--timeout`` is longer (a refused connection is a definite answer).
REFUSED_GRACE = 2.0


def _all_refused(client: RoutingClient) -> bool:
    """Whether every connection attempt so far ended with "connection refused"."""
    refused = os.strerror(errno.ECONNREFUSED)
    nodes = client.connected_nodes()
    return bool(nodes) and all(refused in str(client.connection_error(node) or "") for node in nodes)


def topic_partitions(bootstrap_servers: str, topic: str, timeout: float) -> List[int]:
    """The partition numbers of ``topic``, checked within ``timeout`` seconds.

    Raises :class:`~kafka.errors.NoBrokersAvailable` when no bootstrap server
    answers (after :data:`REFUSED_GRACE` seconds already when every one
    refuses connections), :class:`~kafka.errors.UnknownTopicOrPartitionError`
    when the topic does not exist and :class:`~kafka.errors.KafkaTimeoutError`
    when the cluster answers but not in time.
    """
    from kafka.client.routing import RoutingClient

    servers = split_servers(bootstrap_servers)
    if not servers:
        raise errors.KafkaConfigurationError("--bootstrap-server is empty")
    client = RoutingClient(bootstrap_servers=servers, request_timeout_ms=int(timeout * 1000),
                         allow_auto_create_topics=False)
    started = time.monotonic()
    deadline = started + timeout
    try:
        while True:
            try:
                client.ensure_topics([topic], timeout_ms=min(max(deadline - time.monotonic(), 0.0), 0.5) * 1000)
                break
            except errors.KafkaTimeoutError:
                now = time.monotonic()
                down = client.cluster.version == 0
                if now >= deadline or (down and now - started >= REFUSED_GRACE and _all_refused(client)):
                    if down:
                        raise errors.NoBrokersAvailable("cannot reach {0} ({1})".format(
                            ",".join(servers), client.last_connection_error())) from None
                    raise errors.KafkaTimeoutError("no metadata for topic {0!r} within {1:g} s".format(
                        topic, timeout)) from None
        code = client.cluster.topic_error(topic)
        if code:
            error = errors.for_code(code)
            assert error is not None  # the code is not 0
            if error is errors.UnknownTopicOrPartitionError:
                raise errors.UnknownTopicOrPartitionError("topic {0!r} does not exist".format(topic))
            raise error("topic {0!r}: {1}".format(topic, error.__name__))
        return sorted(client.cluster.partitions_for_topic(topic) or ())
    finally:
        client.close()


# -- stopping and output ----------------------------------------------------------------------

class StopFlag:
    """Set by SIGINT/SIGTERM while installed, so loops can stop between two polls.

    Using a flag instead of :class:`KeyboardInterrupt` keeps the client's
    state intact: the command finishes its current step, then closes
    cleanly (leaving its group, committing offsets). A second Ctrl-C raises
    :class:`KeyboardInterrupt` for those who will not wait.
    """

    def __init__(self) -> None:
        self.signal: Optional[int] = None
        self._previous: Dict[int, Any] = {}

    def __call__(self, signum: int, frame: Optional[FrameType]) -> None:
        if self.signal is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: stop waiting for a clean end
        self.signal = signum

    def __bool__(self) -> bool:
        return self.signal is not None

    def __enter__(self) -> "StopFlag":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self)
        return self

    def __exit__(self, *exc: Any) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()


def silence_stdout() -> None:
    """Point stdout at /dev/null after the reader went away (``| head``).

    Without this, the interpreter's final flush of the dead pipe prints an
    error on exit.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class ReaderGone:
    """Tells whether the reading end of a stdout pipe was closed (``| head`` exited).

    A write to such a pipe fails with :class:`BrokenPipeError`, but a
    consumer waiting for new records writes nothing and would never notice;
    polling the pipe for an error condition notices at once. Not a pipe:
    always False.
    """

    def __init__(self, stream: Any = None) -> None:
        self._poller: Any = None
        try:
            fd = (stream if stream is not None else sys.stdout).fileno()
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and hasattr(select, "poll"):
                self._poller = select.poll()
                self._poller.register(fd, 0)  # POLLERR and POLLHUP are always reported
        except (OSError, ValueError, AttributeError):
            self._poller = None

    def __call__(self) -> bool:
        if self._poller is None:
            return False
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in self._poller.poll(0))
