"""The same kafka-python program gives the same results under kafka-python and under kafkawire.

``_program.py`` is written against kafka-python's API: it creates a topic
(and again, expecting TopicAlreadyExistsError), produces with futures and
callbacks, consumes with deserializers by iteration in a group, commits,
reads ``committed``, positions and beginning offsets, and deletes the topic.
It runs once under kafka-python 3 (``.cache/kafka-python-venv``) and once
under kafkawire, against the same broker, each on a topic and group of its
own; their JSON outputs must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any, Dict, List

from test.kafka_python.test_api_surface import ROOT, kafka_python_interpreter

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_program.py")


def run(python: List[str], env: Dict[str, str], bootstrap: str) -> Dict[str, Any]:
    suffix = uuid.uuid4().hex[:10]
    proc = subprocess.run(python + [PROGRAM, bootstrap, "diff-" + suffix, "diff-group-" + suffix], env=env,
                          cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_same_program_same_results(broker: Any) -> None:
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    theirs = run([kafka_python_interpreter(), "-I"], base_env, broker.bootstrap_servers)
    ours = run([sys.executable], dict(base_env, PYTHONPATH=ROOT), broker.bootstrap_servers)
    assert ours == theirs
    # And the program saw what it should (so equal does not mean equally broken).
    assert theirs["create_again"] == "TopicAlreadyExistsError" and theirs["listed"] and theirs["deleted"]
    assert len(theirs["records"]) == 21 and theirs["callbacks"] == list(range(20))
    assert sum(offset for _, offset in theirs["committed"]) == 21
