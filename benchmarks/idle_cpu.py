"""CPU time spent waiting on a peer that does not answer.

Usage::

    python benchmarks/idle_cpu.py                 # both cases, 5 runs each
    python benchmarks/idle_cpu.py --case flush --repeat 9 --seconds 5

The tests check that these waits do not spin by counting what the waiting
thread does (function calls while ``flush()`` waits, selector calls while
a TLS handshake waits: ``test/producer/test_exit_and_flush.py``,
``test/conn/test_tls.py``); the CPU time itself is measured here, where a
loaded machine cannot fail a build. Cases:

- ``flush``: ``KafkaProducer.flush(timeout)`` with one record sent to a
  scripted broker that never answers Produce.
- ``tls-handshake``: ``KafkaClient.await_ready(node, timeout)`` against a
  TCP server that accepts and never answers, so the TLS handshake waits
  for the ServerHello.

Every run is a child process of its own (``--run CASE``), so that no
thread left over from an earlier run is counted. It reports the CPU time
of the thread that waits and of the whole process (which includes the
producer's sender thread and the in-process peer) while it waited. Each
case runs ``--repeat`` times; the table gives medians and maxima in
milliseconds of CPU per second of waiting. Waiting on a condition or the
selector costs a few ms/s at most; polling every millisecond costs tens.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import socketserver
import ssl
import statistics
import subprocess
import sys
import threading
import time
from typing import Callable, Dict, Iterator, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kafka import errors  # noqa: E402
from kafka.client import KafkaClient  # noqa: E402
from kafka.producer import KafkaProducer  # noqa: E402
from kafka.testing.scripted_peer import NO_REPLY, ScriptedPeer  # noqa: E402


def flush_cpu(seconds: float) -> Tuple[float, float]:
    """CPU seconds (thread, process) while flush() waits ``seconds`` for a broker that never answers."""
    peer = ScriptedPeer(api_versions={"Produce": (3, 9)}, topics={"t": 1})
    peer.on("Produce", lambda request: NO_REPLY)
    with peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1, request_timeout_ms=600000,
                                 delivery_timeout_ms=1200000)
        try:
            producer.send("t", b"stuck")
            peer.wait_for("Produce")
            thread, process = time.thread_time(), time.process_time()
            try:
                producer.flush(timeout=seconds)
            except errors.KafkaTimeoutError:
                pass
            else:
                raise RuntimeError("flush() returned although the broker never answered")
            return time.thread_time() - thread, time.process_time() - process
        finally:
            producer.close(timeout=0.5)


@contextlib.contextmanager
def silent_server() -> Iterator[int]:
    """A TCP server on loopback that accepts connections and never sends a byte; yields its port."""
    stop = threading.Event()

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            stop.wait(600)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


def tls_handshake_cpu(seconds: float) -> Tuple[float, float]:
    """CPU seconds (thread, process) while a client waits ``seconds`` for a ServerHello that never comes."""
    with silent_server() as port:
        client = KafkaClient(bootstrap_servers="127.0.0.1:%d" % port, security_protocol="SSL",
                             ssl_context=ssl.create_default_context(),
                             socket_connection_setup_timeout_ms=int(seconds * 1000) + 60000)
        try:
            node = client.least_loaded_node()
            thread, process = time.thread_time(), time.process_time()
            if client.await_ready(node, int(seconds * 1000)):
                raise RuntimeError("the connection became ready although the server never answered")
            return time.thread_time() - thread, time.process_time() - process
        finally:
            client.close()


CASES: Dict[str, Callable[[float], Tuple[float, float]]] = {"flush": flush_cpu, "tls-handshake": tls_handshake_cpu}


def run_in_child(case: str, seconds: float) -> Tuple[float, float]:
    """One run of ``case`` in a fresh interpreter: (thread, process) CPU seconds."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--run", case, "--seconds", str(seconds)],
                         check=True, stdout=subprocess.PIPE, timeout=seconds + 120).stdout
    thread, process = json.loads(out)
    return thread, process


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES),
                        help="what to measure (repeatable; default every case)")
    parser.add_argument("--seconds", type=float, default=2.0, help="how long each run waits")
    parser.add_argument("--repeat", type=int, default=5, help="runs per case")
    parser.add_argument("--run", choices=sorted(CASES), help=argparse.SUPPRESS)  # one run, in a child
    args = parser.parse_args()
    if args.run:
        logging.getLogger("kafka").setLevel(logging.ERROR)  # closing a producer with a stuck record warns
        print(json.dumps(CASES[args.run](args.seconds)))
        return

    print("%-14s %14s %14s %14s %14s   (ms of CPU per second waited, %d runs of %.1f s)"
          % ("case", "thread median", "thread max", "process median", "process max", args.repeat, args.seconds))
    for name in args.case or sorted(CASES):
        runs = [run_in_child(name, args.seconds) for _ in range(args.repeat)]
        thread = [t * 1000.0 / args.seconds for t, _ in runs]
        process = [p * 1000.0 / args.seconds for _, p in runs]
        print("%-14s %14.3f %14.3f %14.3f %14.3f" % (name, statistics.median(thread), max(thread),
                                                     statistics.median(process), max(process)))


if __name__ == "__main__":
    main()
