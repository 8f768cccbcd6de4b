"""What happens around the sending: the exit hooks of several producers, and how flush() waits."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import time
import weakref
from typing import Callable

import pytest

import kafka
from kafka import errors
from kafka.producer import KafkaProducer
from kafka.testing.scripted_peer import NO_REPLY, ScriptedPeer
from test.support.processes import reaped
from test.support.scripted_produce import producing_peer

_SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(kafka.__file__)))

# Two producers; the first is closed, the second is left for the exit hook,
# its record waiting out a long linger_ms when the interpreter exits.
_TWO_PRODUCERS = textwrap.dedent("""
    import sys
    from kafka.producer import KafkaProducer

    first = KafkaProducer(bootstrap_servers=sys.argv[1], acks=1, linger_ms=60000)
    second = KafkaProducer(bootstrap_servers=sys.argv[1], acks=1, linger_ms=60000)
    first.send("t", b"from-first", partition=0)
    first.close()
    second.send("t", b"from-second", partition=1)
    print("queued", flush=True)
""")


def test_closing_one_producer_keeps_the_exit_hook_of_another():
    peer, log = producing_peer({"t": 2})
    with peer:
        env = dict(os.environ, PYTHONPATH=_SOURCE_ROOT)
        process = subprocess.Popen([sys.executable, "-c", _TWO_PRODUCERS, peer.bootstrap], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with reaped(process):
            out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode(errors="replace")
        assert out.strip() == b"queued"
        assert log.values("t", 0) == [b"from-first"]
        assert log.values("t", 1) == [b"from-second"]


def test_the_exit_hook_does_not_keep_a_producer_alive():
    with ScriptedPeer(topics={"t": 1}) as peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1)
        hook, ref = producer._exit_hook, weakref.ref(producer)
        producer.close(timeout=5)
        del producer
        gc.collect()
        assert ref() is None
        hook()  # what runs at exit for a producer that is gone: nothing


def _calls_made_by(action: Callable[[], object]) -> int:
    """How many functions (Python and built-in) this thread calls while running ``action``."""
    calls = [0]

    def count(frame: object, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            calls[0] += 1

    sys.setprofile(count)  # this thread only
    try:
        action()
    finally:
        sys.setprofile(None)
    return calls[0]


def test_flush_sleeps_while_the_broker_does_not_answer():
    peer = ScriptedPeer(api_versions={"Produce": (3, 9)}, topics={"t": 1})
    peer.on("Produce", lambda request: NO_REPLY)
    with peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1, request_timeout_ms=30000,
                                 delivery_timeout_ms=60000)
        try:
            producer.send("t", b"stuck")
            peer.wait_for("Produce")

            def flush() -> None:
                with pytest.raises(errors.KafkaTimeoutError):
                    producer.flush(timeout=2.0)

            calls = _calls_made_by(flush)
            # Waiting on a condition wakes a few times in 2 s (about a hundred calls);
            # polling every millisecond would make thousands. A count, unlike CPU
            # seconds, does not depend on the machine's load; the CPU time itself
            # is measured by benchmarks/idle_cpu.py.
            assert calls < 1000, "flush() made %d calls in 2 s while waiting" % calls
        finally:
            producer.close(timeout=0.5)


def test_flush_returns_as_soon_as_the_records_are_acknowledged():
    peer, log = producing_peer({"t": 1})
    with peer:
        producer = KafkaProducer(bootstrap_servers=peer.bootstrap, acks=1, linger_ms=60000)
        try:
            futures = [producer.send("t", b"%d" % i) for i in range(10)]
            started = time.monotonic()
            producer.flush(timeout=10)
            assert time.monotonic() - started < 5
            assert all(f.is_done for f in futures)
        finally:
            producer.close(timeout=5)
