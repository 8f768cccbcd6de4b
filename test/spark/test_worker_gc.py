"""A reused Spark Python worker freezes its long-lived objects once it has a client.

Spark's Python daemon runs ``gc.collect()`` after every task of a reused
worker; without the freeze each collection walks every module, class and
client the worker holds. Each case runs in a fresh interpreter, because
freezing is process-wide and must not touch the test process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("pyarrow")

_SCRIPT = textwrap.dedent("""
    import gc, json
    from kafka.spark import worker

    before = gc.get_freeze_count()
    worker.cached_fetcher({"bootstrap_servers": "127.0.0.1:1"})
    first = gc.get_freeze_count()
    tracked_after_first = len(gc.get_objects())
    worker.cached_fetcher({"bootstrap_servers": "127.0.0.1:1"})  # the same client: no second freeze
    again = gc.get_freeze_count()
    print(json.dumps({"before": before, "first": first, "again": again,
                      "tracked_after_first": tracked_after_first}))
""")


def _run(reuse: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "SPARK_REUSE_WORKER"}
    if reuse is not None:
        env["SPARK_REUSE_WORKER"] = reuse
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_reused_worker_freezes_what_it_holds_when_it_makes_its_first_client() -> None:
    got = _run("1")
    assert got["before"] == 0
    # Everything imported so far (pyarrow, numpy, this library) and the client itself.
    assert got["first"] > 10000
    # What the collector still walks right after the freeze is next to nothing.
    assert got["tracked_after_first"] < 1000
    # Taking the cached client again does not freeze the task's objects.
    assert got["again"] == got["first"]


@pytest.mark.parametrize("reuse", [None, "0"])
def test_other_processes_keep_their_collector_as_it_was(reuse: str | None) -> None:
    got = _run(reuse)
    assert got["first"] == got["again"] == 0
    assert got["tracked_after_first"] > 10000
