"""A Spark standalone cluster on loopback, started from the pip-installed pyspark.

:class:`SparkStandaloneCluster` runs one master and ``workers`` workers
(``spark-class org.apache.spark.deploy.master.Master`` / ``...worker.Worker``)
as child processes bound to 127.0.0.1, for tests and benchmarks that must
see the data source with driver, executors and Python workers in separate
processes. Nothing listens on another interface.

Every JVM is ended when :meth:`SparkStandaloneCluster.stop` is called, at
interpreter exit (:mod:`atexit`), and on Linux when this process dies in any
other way: each daemon gets a parent-death signal and its own process group,
and the executors and Python workers it starts stay in that group, so
killing the group ends them all.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import weakref
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

from kafka.testing.broker import _parent_death_signal, free_port

LOOPBACK = "127.0.0.1"
_live: "weakref.WeakSet[Any]" = weakref.WeakSet()  # clusters and Connect servers to stop at exit


def spark_home() -> str:
    """The Spark distribution inside the installed pyspark package."""
    import pyspark

    return os.path.dirname(os.path.abspath(pyspark.__file__))


def _preexec_fn() -> "Callable[[], None]":
    """Run in the child before exec: its own process group, and death with its parent."""
    death = _parent_death_signal()  # decided here, in the parent

    def preexec() -> None:
        os.setpgid(0, 0)
        if death is not None:
            death()

    return preexec


class SparkStandaloneCluster:
    """A master and ``workers`` one-core workers on 127.0.0.1.

    ``env`` is added to the environment of the daemons, and so of the
    executors and Python workers they start (e.g. ``PYTHONPATH``,
    ``PYSPARK_PYTHON``). Use as a context manager or call :meth:`start` and
    :meth:`stop`.
    """

    def __init__(self, workers: int = 2, cores: int = 1, memory: str = "1g",
                 env: Optional[Dict[str, str]] = None, start_timeout: float = 90.0) -> None:
        self.workers = workers
        self.cores = cores
        self.memory = memory
        self.start_timeout = start_timeout
        self.port = free_port()
        self.ui_port = free_port()
        self.work = tempfile.mkdtemp(prefix="kafkawire-spark-cluster-")
        self._env = dict(os.environ)
        self._env.update(SPARK_HOME=spark_home(), SPARK_LOCAL_IP=LOOPBACK, SPARK_LOCAL_HOSTNAME=LOOPBACK,
                         SPARK_LOG_DIR=os.path.join(self.work, "logs"))
        self._env.setdefault("PYSPARK_PYTHON", sys.executable)
        self._env.update(env or {})
        self.processes: List["subprocess.Popen[bytes]"] = []
        self.worker_dirs: List[str] = []
        self._deadline = 0.0

    @property
    def url(self) -> str:
        """The master URL to give ``spark.master``."""
        return "spark://%s:%d" % (LOOPBACK, self.port)

    def __enter__(self) -> "SparkStandaloneCluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _spawn(self, name: str, args: List[str]) -> None:
        log = open(os.path.join(self.work, name + ".log"), "wb")
        cmd = [os.path.join(spark_home(), "bin", "spark-class")] + args
        try:
            process = subprocess.Popen(cmd, env=self._env, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, preexec_fn=_preexec_fn(), cwd=self.work)
        finally:
            log.close()
        self.processes.append(process)

    def start(self) -> "SparkStandaloneCluster":
        """Start the master and the workers together; return once every worker is registered."""
        self.spawn()
        return self.wait_ready()

    def spawn(self) -> "SparkStandaloneCluster":
        """Start the master and the workers without waiting for them (see :meth:`wait_ready`)."""
        if self.processes:
            return self
        _live.add(self)
        self._spawn("master", ["org.apache.spark.deploy.master.Master", "--host", LOOPBACK,
                               "--port", str(self.port), "--webui-port", str(self.ui_port)])
        # Workers retry registering until the master is up, so they start at once.
        for i in range(self.workers):
            work_dir = os.path.join(self.work, "worker-%d" % i)
            os.makedirs(work_dir)
            self.worker_dirs.append(work_dir)
            self._spawn("worker-%d" % i, [
                "org.apache.spark.deploy.worker.Worker", "--host", LOOPBACK, "--port", str(free_port()),
                "--webui-port", str(free_port()), "--cores", str(self.cores), "--memory", self.memory,
                "--work-dir", work_dir, self.url])
        self._deadline = time.monotonic() + self.start_timeout
        return self

    def wait_ready(self) -> "SparkStandaloneCluster":
        """Wait until every worker is registered with the master (after :meth:`spawn`)."""
        if not self.processes:
            raise RuntimeError("the cluster was not started (or was stopped)")
        while True:
            for process in self.processes:
                if process.poll() is not None:
                    logs = self.logs()
                    self.stop()
                    raise RuntimeError("a Spark daemon exited with %s during start-up; logs: %s"
                                       % (process.returncode, logs))
            if len(self.alive_workers()) >= self.workers:
                return self
            if time.monotonic() > self._deadline:
                logs = self.logs()
                self.stop()
                raise RuntimeError("the Spark standalone cluster did not start within %.0f s: %s"
                                   % (self.start_timeout, logs))
            time.sleep(0.2)

    def state(self) -> Dict[str, Any]:
        """The master's JSON status (workers, running applications), or ``{}`` before it answers."""
        try:
            with urllib.request.urlopen("http://%s:%d/json/" % (LOOPBACK, self.ui_port), timeout=2) as answer:
                return json.loads(answer.read().decode("utf-8"))
        except (OSError, ValueError):
            return {}

    def alive_workers(self) -> List[Dict[str, Any]]:
        """The workers the master knows as ALIVE."""
        workers = self.state().get("workers", [])
        return [w for w in workers if isinstance(w, dict) and w.get("state") == "ALIVE"]

    def logs(self, tail: int = 3000) -> str:
        """The end of each daemon's log, for error messages."""
        parts = []
        for name in sorted(os.listdir(self.work)):
            if name.endswith(".log"):
                with open(os.path.join(self.work, name), "rb") as handle:
                    text = handle.read().decode("utf-8", "replace")
                parts.append("--- %s ---\n%s" % (name, text[-tail:]))
        return "\n".join(parts)

    def executor_pids(self) -> List[int]:
        """Process ids of the executor JVMs the workers run now."""
        return [pid for pid in descendants(p.pid for p in self.processes[1:])
                if b"CoarseGrainedExecutorBackend" in _cmdline(pid)]

    def stop(self, timeout: float = 10.0) -> None:
        """End every JVM (and the executors and Python workers under it); remove the work files."""
        _live.discard(self)
        groups = [p.pid for p in self.processes]
        for pgid in groups:
            _signal_group(pgid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        # Executors and Python workers may outlive their worker daemon: kill what is left.
        for pgid in groups:
            _signal_group(pgid, signal.SIGKILL)
        for process in self.processes:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        self.processes = []
        shutil.rmtree(self.work, ignore_errors=True)


class SparkConnectServer:
    """A Spark Connect server (``SparkConnectServer`` from pyspark's own jars) on 127.0.0.1.

    ``master`` is the Spark master it runs its work on (``local[2]`` by
    default, or a cluster's :attr:`SparkStandaloneCluster.url`). Clients
    connect to :attr:`url` with ``SparkSession.builder.remote(url)``, which
    needs pyspark's ``connect`` extra (grpcio, grpcio-status,
    googleapis-common-protos, zstandard). :meth:`start` returns at once;
    :meth:`wait_ready` waits for the port to accept connections.
    """

    def __init__(self, master: str = "local[2]", env: Optional[Dict[str, str]] = None,
                 conf: Optional[Dict[str, str]] = None) -> None:
        self.master = master
        self.port = free_port()
        self.work = tempfile.mkdtemp(prefix="kafkawire-spark-connect-")
        self._env = dict(os.environ)
        self._env.update(SPARK_HOME=spark_home(), SPARK_LOCAL_IP=LOOPBACK, SPARK_LOCAL_HOSTNAME=LOOPBACK)
        self._env.setdefault("PYSPARK_PYTHON", sys.executable)
        self._env.update(env or {})
        self.conf = {"spark.connect.grpc.binding.port": str(self.port),
                     "spark.connect.grpc.binding.address": LOOPBACK, "spark.ui.enabled": "false",
                     "spark.driver.host": LOOPBACK, "spark.driver.bindAddress": LOOPBACK,
                     "spark.local.dir": self.work}
        self.conf.update(conf or {})
        self.process: Optional["subprocess.Popen[bytes]"] = None

    @property
    def url(self) -> str:
        """The address to give ``SparkSession.builder.remote``."""
        return "sc://%s:%d" % (LOOPBACK, self.port)

    def __enter__(self) -> "SparkConnectServer":
        self.start()
        self.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "SparkConnectServer":
        """Start the server's JVM (its driver) without waiting for it."""
        _live.add(self)
        cmd = [os.path.join(spark_home(), "bin", "spark-submit"), "--class",
               "org.apache.spark.sql.connect.service.SparkConnectServer", "--master", self.master]
        for key, value in sorted(self.conf.items()):
            cmd += ["--conf", "%s=%s" % (key, value)]
        cmd.append("spark-internal")
        with open(os.path.join(self.work, "server.log"), "wb") as log:
            self.process = subprocess.Popen(cmd, env=self._env, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, preexec_fn=_preexec_fn(), cwd=self.work)
        return self

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Wait until the server accepts connections; raise RuntimeError with its log if it does not."""
        import socket

        assert self.process is not None, "start() first"
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection((LOOPBACK, self.port), 1).close()
                return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                with open(os.path.join(self.work, "server.log"), "rb") as handle:
                    log = handle.read().decode("utf-8", "replace")[-4000:]
                self.stop()
                raise RuntimeError("the Spark Connect server did not start: %s" % log)
            time.sleep(0.3)

    def stop(self, timeout: float = 10.0) -> None:
        """End the server's JVM and everything it started."""
        _live.discard(self)
        if self.process is not None:
            _signal_group(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(self.process.pid, signal.SIGKILL)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                pass
            self.process = None
        shutil.rmtree(self.work, ignore_errors=True)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _cmdline(pid: int) -> bytes:
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _children() -> Dict[int, List[int]]:
    children: Dict[int, List[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: parse after the last ')'.
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(name))
    return children


def descendants(roots: Iterable[int]) -> List[int]:
    """Every process below ``roots`` (Linux /proc), roots excluded."""
    children = _children()
    found: List[int] = []
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _socket_inodes(pid: int) -> Set[int]:
    inodes = set()
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    except OSError:
        pass
    return inodes


def connections_to(port: int, pids: Iterable[int]) -> Dict[int, int]:
    """How many established TCP connections to ``port`` each of ``pids`` holds (Linux /proc)."""
    established: Set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, "r", encoding="ascii") as handle:
                next(handle)
                for line in handle:
                    fields = line.split()
                    remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                    if remote_port == port and fields[3] == "01":
                        established.add(int(fields[9]))
        except OSError:
            continue
    return {pid: len(_socket_inodes(pid) & established) for pid in pids}


@atexit.register
def _stop_all() -> None:
    for daemon in list(_live):
        daemon.stop()
