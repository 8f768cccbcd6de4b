"""Run a single Kafka-compatible broker (Tansu) as a child process for tests.

Tansu keeps everything in memory: topics, records and committed offsets are
gone once the broker stops, including across :meth:`EmbeddedBroker.restart`.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from types import TracebackType
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from kafka.errors import ProtocolError
from kafka.testing.locate import EmbeddedBrokerError, find_broker_binary
from kafka.testing.probe import probe_api_versions

_WILDCARD_HOSTS = ("", "0.0.0.0", "::")
_LOG_TAIL_LINES = 25
_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_ADDRESS_IN_USE = ("Address in use", "AddrInUse", "address already in use")
#: What Tansu writes once its listener is bound (not written when binding fails).
_READY_LINE = re.compile(r"^ready in ", re.M)
#: How long ApiVersions answers must keep coming, with our process alive, when no ready line is seen.
_READY_WITHOUT_LINE_S = 1.0


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port on ``host`` that nothing listens on right now.

    Another process may take it before it is used; :class:`EmbeddedBroker`
    retries with a new port when that happens.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_in_use(host: str, port: int) -> bool:
    """Return whether something already listens on ``host:port``.

    Checked by binding, because a connection attempt cannot tell our broker
    from another one on the same port.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        # SO_REUSEADDR lets the bind succeed over leftover TIME_WAIT connections.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def _mentions_address_in_use(text: str) -> bool:
    return any(marker in text for marker in _ADDRESS_IN_USE)


def _host_port(host: str, port: int) -> str:
    return "[{0}]:{1}".format(host, port) if ":" in host else "{0}:{1}".format(host, port)


def _parent_death_signal() -> Optional[Callable[[], None]]:
    """Return a ``preexec_fn`` that makes Linux kill the child when we die.

    This covers the cases ``atexit`` cannot: the test runner being killed with
    SIGKILL or SIGTERM. The kernel sends the signal when the *thread* that
    forked the child exits, so it is only used from the main thread.
    """
    if not sys.platform.startswith("linux"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1
    parent_pid = os.getpid()

    def set_pdeathsig() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return set_pdeathsig


def _terminate(process: "subprocess.Popen[bytes]", timeout: float) -> None:
    """Stop ``process``: SIGTERM, then SIGKILL after ``timeout`` seconds; reap it."""
    if process.poll() is None:
        try:
            process.terminate()
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        except OSError:
            pass
    else:
        process.wait()


def _cleanup(process: "subprocess.Popen[bytes]", log_path: str) -> None:
    """Last-resort cleanup run when an :class:`EmbeddedBroker` is collected or at exit."""
    _terminate(process, timeout=5.0)
    try:
        os.unlink(log_path)
    except OSError:
        pass


class EmbeddedBroker:
    """A Tansu broker running as a child process on a loopback port.

    ::

        with EmbeddedBroker() as broker:
            client = SomeClient(bootstrap_servers=broker.bootstrap_servers)

    :param port: TCP port to listen on; ``None`` picks a free one. The port
        stays the same across :meth:`restart`.
    :param host: address to listen on (default ``127.0.0.1``).
    :param advertised_host: address given to clients in metadata; defaults to
        ``host``, or ``127.0.0.1`` when ``host`` is a wildcard address.
    :param binary: path of the Tansu executable; found with
        :func:`~kafka.testing.find_broker_binary` when ``None``.
    :param advertised_port: port given to clients in metadata; defaults to
        ``port`` (set it to put a proxy, e.g. a TLS terminator, in front).
    :param extra_args: more command line arguments for ``tansu broker``.
    :param env: extra environment variables for the broker process.

    The child process is stopped by :meth:`stop`, when the object is garbage
    collected, at interpreter exit (through :mod:`atexit`), and on Linux also
    by the kernel if the process that started it dies.
    """

    def __init__(self, port: Optional[int] = None, host: str = "127.0.0.1",
                 advertised_host: Optional[str] = None, binary: Optional[str] = None,
                 extra_args: Sequence[str] = (), env: Optional[Mapping[str, str]] = None,
                 advertised_port: Optional[int] = None) -> None:
        if port is not None and not 0 < port < 65536:
            raise ValueError("port must be between 1 and 65535, got {0}".format(port))
        self._host = host
        if advertised_host is None:
            advertised_host = "127.0.0.1" if host in _WILDCARD_HOSTS else host
        self._advertised_host = advertised_host
        self._port_fixed = port is not None
        self._port = port if port is not None else free_port(self._probe_host)
        self._advertised_port = advertised_port
        self._binary = binary
        self._extra_args = list(extra_args)
        self._env = dict(env or {})
        self._process: Optional["subprocess.Popen[bytes]"] = None
        self._log_path: Optional[str] = None
        self._finalizer: Optional["weakref.finalize[..., EmbeddedBroker]"] = None

    # -- addresses -----------------------------------------------------------

    @property
    def host(self) -> str:
        """The address clients should connect to (the advertised host)."""
        return self._advertised_host

    @property
    def port(self) -> int:
        """The TCP port the broker listens on."""
        return self._port

    @property
    def bootstrap_servers(self) -> str:
        """``"host:port"``, ready to pass to a client's ``bootstrap_servers``."""
        return _host_port(self._advertised_host, self._port)

    @property
    def _bind_host(self) -> str:
        return self._host or "0.0.0.0"

    @property
    def _probe_host(self) -> str:
        return self._advertised_host if self._host in _WILDCARD_HOSTS else self._host

    # -- state ---------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the broker process is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> Optional[int]:
        """Process id of the broker, or ``None`` when it was never started or is stopped."""
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> Optional[int]:
        """Exit status of the broker process if it has exited, else ``None``."""
        return self._process.poll() if self._process is not None else None

    def log_tail(self, lines: int = _LOG_TAIL_LINES) -> str:
        """Return the last ``lines`` lines the broker wrote (stdout and stderr merged)."""
        if self._log_path is None:
            return ""
        try:
            with open(self._log_path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 16384))
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return ""
        text = _ANSI_ESCAPE.sub("", text)
        return "\n".join(text.splitlines()[-lines:])

    def api_versions(self, timeout: float = 2.0) -> Dict[int, Tuple[int, int]]:
        """Ask the broker for its ApiVersions ranges: ``{api_key: (min, max)}``."""
        return probe_api_versions(self._probe_host, self._port, timeout=timeout)

    # -- lifecycle -----------------------------------------------------------

    def start(self, timeout: float = 30.0) -> "EmbeddedBroker":
        """Start the broker and wait until it answers an ApiVersions request.

        Does nothing if the broker is already running. Returns ``self``.

        :raises BrokerBinaryNotFoundError: if no Tansu executable is installed.
        :raises EmbeddedBrokerError: if the broker exits or does not answer
            within ``timeout`` seconds; ``details`` holds the tail of its log.
        """
        if self.running:
            return self
        self._discard_process()
        binary = self._binary or find_broker_binary()
        deadline = time.monotonic() + timeout
        while True:
            details = ""
            if not port_in_use(self._bind_host, self._port):
                self._spawn(binary)
                try:
                    self._wait_ready(deadline)
                    return self
                except EmbeddedBrokerError as exc:
                    self._discard_process()
                    if not _mentions_address_in_use(exc.details):
                        raise
                    details = exc.details
            if self._port_fixed or time.monotonic() >= deadline:
                raise EmbeddedBrokerError(
                    "port {0} on {1} is already in use".format(self._port, self._bind_host),
                    details)
            self._port = free_port(self._probe_host)  # lost a race for the port: pick another

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the broker: SIGTERM, then SIGKILL after ``timeout`` seconds.

        The process is always reaped. Safe to call when not running. All data
        held by the broker is lost.
        """
        self._discard_process(timeout)

    def restart(self, timeout: float = 30.0) -> "EmbeddedBroker":
        """Stop the broker and start a new one on the same port (with no data)."""
        self.stop()
        self._port_fixed = True
        return self.start(timeout=timeout)

    def kill(self) -> None:
        """Kill the broker with SIGKILL at once, as a crash would (it is reaped)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
        self._discard_process()

    def __enter__(self) -> "EmbeddedBroker":
        return self.start()

    def __exit__(self, exc_type: Optional[Type[BaseException]],
                 exc: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return "<EmbeddedBroker {0} {1}>".format(self.bootstrap_servers, state)

    # -- internals -----------------------------------------------------------

    def _command(self, binary: str) -> List[str]:
        listen = "tcp://" + _host_port(self._bind_host, self._port)
        advertise = "tcp://" + _host_port(self._advertised_host, self._advertised_port or self._port)
        return [binary, "broker", "--listener-url", listen,
                "--advertised-listener-url", advertise] + self._extra_args

    def _spawn(self, binary: str) -> None:
        fd, self._log_path = tempfile.mkstemp(prefix="kafkawire-tansu-", suffix=".log")
        os.close(fd)
        env = dict(os.environ)
        env.setdefault("NO_COLOR", "1")
        env.update(self._env)
        # A file rather than a pipe: nobody drains a pipe, and a full one would block the broker.
        with open(self._log_path, "ab") as log:
            try:
                self._process = subprocess.Popen(
                    self._command(binary), stdin=subprocess.DEVNULL, stdout=log,
                    stderr=subprocess.STDOUT, env=env, close_fds=True,
                    preexec_fn=_parent_death_signal())
            except OSError as exc:
                self._remove_log()
                raise EmbeddedBrokerError("cannot run {0}: {1}".format(binary, exc)) from None
        self._finalizer = weakref.finalize(self, _cleanup, self._process, self._log_path)

    def _wait_ready(self, deadline: float) -> None:
        assert self._process is not None
        delay = 0.02
        last_error: Optional[BaseException] = None
        answered_since: Optional[float] = None
        while True:
            if self._process.poll() is not None:
                raise EmbeddedBrokerError(
                    "the broker exited with status {0} while starting"
                    .format(self._process.returncode), self.log_tail())
            try:
                self.api_versions(timeout=max(0.1, min(2.0, deadline - time.monotonic())))
            except (OSError, ProtocolError) as exc:
                last_error = exc
            else:
                tail = self.log_tail()
                if _mentions_address_in_use(tail):
                    # Whoever answered, it was not our process: it failed to bind.
                    raise EmbeddedBrokerError("the broker could not bind its port", tail)
                # An answer alone may come from another broker that took the port between
                # port_in_use() and our spawn (our process then fails to bind, a moment later).
                now = time.monotonic()
                answered_since = answered_since if answered_since is not None else now
                if _READY_LINE.search(tail) or now - answered_since >= _READY_WITHOUT_LINE_S:
                    return
            if time.monotonic() >= deadline:
                raise EmbeddedBrokerError(
                    "the broker on {0} did not answer ApiVersions in time (last error: {1})"
                    .format(self.bootstrap_servers, last_error), self.log_tail())
            time.sleep(delay)
            delay = min(delay * 2, 0.25)

    def _discard_process(self, timeout: float = 10.0) -> None:
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self._process is not None:
            _terminate(self._process, timeout)
            self._process = None
        self._remove_log()

    def _remove_log(self) -> None:
        if self._log_path is not None:
            try:
                os.unlink(self._log_path)
            except OSError:
                pass
            self._log_path = None
