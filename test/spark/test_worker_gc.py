"""Tasks in a reused Spark Python worker freeze its long-lived objects.

Spark's Python daemon runs ``gc.collect()`` after every task of a reused
worker; without the freeze each collection walks every module, class and
function the worker holds (tens of thousands of objects). Each case runs the
executors' real read and write paths against the embedded broker in a fresh
interpreter, because freezing is process-wide and must not touch the test
process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from typing import Dict, Optional

import pytest

pytest.importorskip("pyarrow")

from test.spark.conftest import make_topic  # noqa: E402

_SCRIPT = textwrap.dedent("""
    import gc, json, sys
    import pyarrow as pa
    from kafka.spark import worker
    from kafka.spark.offsets import OffsetRange

    servers, topic = sys.argv[1], sys.argv[2]
    client = {"bootstrap_servers": servers}
    batch = pa.RecordBatch.from_arrays([pa.array([b"v%d" % i for i in range(100)], pa.binary())], ["value"])
    freezes = []
    real_freeze = gc.freeze
    gc.freeze = lambda: (freezes.append(1), real_freeze())[1]
    seen = {}

    def task(name, run):
        run()
        gc.collect()  # what Spark's daemon does after each task
        seen[name] = len(freezes)
        seen[name + "_tracked"] = len(gc.get_objects())

    def write():
        worker.write_batches(client, topic, iter([batch]))

    def read():
        got = worker.read_range(client, OffsetRange(topic, 0, 0, 300), False, True, 10000)
        assert sum(b.num_rows for b in got) == 300

    task("write1", write)
    task("write2", write)
    task("write3", write)
    import email.mime.multipart, http.server, xml.dom.minidom  # noqa: F401,E401  (new modules)
    gc.collect()
    seen["imported_tracked"] = len(gc.get_objects())
    task("write4", write)
    task("read1", read)
    task("read2", read)
    task("read3", read)
    print(json.dumps(seen))
""")


def _run(broker, reuse: Optional[str], freeze: Optional[str] = None) -> Dict[str, int]:
    topic = make_topic(broker.host, broker.port)
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_REUSE_WORKER", "KAFKAWIRE_SPARK_FREEZE")}
    if reuse is not None:
        env["SPARK_REUSE_WORKER"] = reuse
    if freeze is not None:
        env["KAFKAWIRE_SPARK_FREEZE"] = freeze
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-c", _SCRIPT, broker.bootstrap_servers, topic], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_reused_worker_freezes_what_it_imported_as_tasks_start(broker) -> None:
    got = _run(broker, "1")
    # The first task froze what was imported before it; the next one what the first imported
    # on its way (if anything); then nothing new, no freeze.
    assert got["write1"] == 1
    assert got["write3"] == got["write2"] <= 2
    # What a collection still walks after a task is next to nothing...
    assert got["write3_tracked"] < 2000
    # ... until modules are imported outside a task: the next task freezes them too.
    assert got["imported_tracked"] > got["write3_tracked"] + 1000
    assert got["write4"] == got["write3"] + 1
    assert got["write4_tracked"] < 2000
    assert got["read3"] == got["read2"] <= got["write4"] + 1
    assert got["read3_tracked"] < 2000


@pytest.mark.parametrize("reuse, freeze", [(None, None), ("0", None), ("1", "0")],
                         ids=["not-spark", "not-reused", "turned-off"])
def test_other_processes_keep_their_collector_as_it_was(broker, reuse: Optional[str],
                                                        freeze: Optional[str]) -> None:
    got = _run(broker, reuse, freeze)
    assert got["read3"] == 0
    assert got["write3_tracked"] > 10000
