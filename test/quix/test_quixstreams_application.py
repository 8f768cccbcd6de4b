"""An unmodified quixstreams application gives the same output on kafkawire as on confluent-kafka.

quixstreams pins an older confluent-kafka than the test extras, so
``build_integration.sh`` gives it an environment of its own,
``.cache/quixstreams-venv`` (quixstreams and the confluent-kafka it wants;
kafkawire comes from this checkout, on ``PYTHONPATH``). ``quix_app_driver.py``
runs there twice against the session's embedded broker, at the same time,
each run with topics, consumer group and state directory of its own: once on
the real confluent-kafka and once after
:func:`kafka.confluent.install_as_confluent_kafka`. The application produces
timestamped readings with quixstreams' Producer, filters, maps and
aggregates them over tumbling windows into an output topic, and reads that
back with quixstreams' Consumer; the two runs must write the same records
to the same partitions in the same order, and confluent-kafka's run must
match the windows worked out without Kafka, so that equal never means
equally broken.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from test.quix.quix_app_driver import expected_windows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUIX_VENV = os.path.join(ROOT, ".cache", "quixstreams-venv")
DRIVER = os.path.join(HERE, "quix_app_driver.py")

pytestmark = pytest.mark.slow


def quix_interpreter() -> str:
    """The quixstreams environment's python (``build_integration.sh`` makes it)."""
    python = os.path.join(QUIX_VENV, "bin", "python")
    if not os.path.exists(python):
        pytest.skip("quixstreams' environment %s is missing: run ./build_integration.sh" % QUIX_VENV)
    return python


def run_both(broker: Any, tmp_path: Path, extra: List[str]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The driver's answers on confluent-kafka and on kafkawire, run side by side."""
    python = quix_interpreter()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    tag = uuid.uuid4().hex[:8]
    runs = {}
    for side in ("confluent", "kafkawire"):
        args = [broker.bootstrap_servers, "quix-%s-%s" % (tag, side), str(tmp_path / ("state-" + side))] + extra
        if side == "confluent":
            command, side_env = [python, "-I", DRIVER] + args, env
        else:
            command, side_env = [python, "-s", DRIVER] + args + ["--kafkawire"], dict(env, PYTHONPATH=ROOT)
        runs[side] = subprocess.Popen(command, env=side_env, cwd=str(tmp_path), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
    answers = {}
    for side, process in runs.items():
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, "the %s run failed:\n%s" % (side, err.decode(errors="replace")[-4000:])
        answers[side] = json.loads(out)
    return answers["confluent"], answers["kafkawire"]


def by_key(output: Dict[str, List[Any]]) -> Dict[str, List[Dict[str, int]]]:
    windows: Dict[str, List[Dict[str, int]]] = {}
    for records in output.values():
        for key, value, _ in records:
            windows.setdefault(key, []).append(value)
    return windows


@pytest.mark.parametrize("guarantee", ["at-least-once", "exactly-once"])
def test_same_windows_on_kafkawire_as_on_confluent_kafka(broker: Any, tmp_path: Path, guarantee: str) -> None:
    theirs, ours = run_both(broker, tmp_path, ["--exactly-once"] if guarantee == "exactly-once" else [])

    assert theirs["confluent_kafka"].startswith("confluent_kafka from " + QUIX_VENV)
    assert ours["confluent_kafka"] == "kafka.confluent from " + os.path.join(ROOT, "kafka", "confluent",
                                                                           "__init__.py")
    assert theirs["quixstreams"] == ours["quixstreams"] and theirs["quixstreams"].startswith("3.")
    assert theirs["guarantee"] == ours["guarantee"] == guarantee

    # confluent-kafka's run is right: every closed window, each key's in order.
    assert by_key(theirs["output"]) == expected_windows()
    assert all(theirs["output"][partition] for partition in ("0", "1", "2"))
    # kafkawire's wrote the same records (key, window, timestamp) to the same partitions in the same order.
    assert ours["output"] == theirs["output"]
    # Application.run collected the same rows (the order across partitions is not fixed).
    assert sorted(ours["collected"], key=json.dumps) == sorted(theirs["collected"], key=json.dumps)
