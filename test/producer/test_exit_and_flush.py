"""What happens around the sending: the exit hooks of several producers."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import weakref

import kafka
from kafka.producer import KafkaProducer
from kafka.testing.scripted_peer import ScriptedPeer
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
