"""The pytest plugin (``kafka.pytest_plugin``), as a project that installs kafkawire uses it.

``test/plugin_project`` is such a project: its tests use the plugin's
fixtures and nothing of this repository's test suite. It is copied out of
the repository and run by a pytest of its own, in the environment that
runs this suite (where kafkawire is installed, so the ``pytest11`` entry
point is there).
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
from typing import List

import pytest

from kafka.pytest_plugin import BOOTSTRAP_ENV_VAR, topic_name_for
from kafka.testing import BINARY_ENV_VAR, EmbeddedBroker
from kafka.topic_names import MAX_TOPIC_NAME_LENGTH, check_topic_name

PROJECT = pathlib.Path(__file__).resolve().parent / "plugin_project"


@pytest.fixture
def project(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the plugin project, away from this repository's conftest.py and pytest.ini."""
    copy = tmp_path / "plugin_project"
    shutil.copytree(str(PROJECT), str(copy))
    return copy


def _pytest(project: pathlib.Path, *args: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items()
                   if k not in (BOOTSTRAP_ENV_VAR, "PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    environment.update(env)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args],
                          cwd=str(project), env=environment, capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


def _plugins_line(out: str) -> List[str]:
    match = re.search(r"^plugins: (.*)$", out, re.M)
    return match.group(1).split(", ") if match else []


def test_the_project_passes_with_the_installed_plugin(project: pathlib.Path) -> None:
    out = _pytest(project, "-s")
    assert re.search(r"\b4 passed\b", out) and not re.search(r"\d+ (error|failed)", out), out
    # Loaded through the entry point (pytest lists those by distribution), not a conftest.
    assert any(p.startswith("kafkawire-") for p in _plugins_line(out)), out
    assert not list(project.rglob("conftest.py"))
    assert "KAFKAWIRE-BOOTSTRAP=127.0.0.1:" in out, out


def test_without_the_plugin_the_fixtures_are_gone(project: pathlib.Path) -> None:
    out = _pytest(project, "-p", "no:kafkawire", "-k", "records_come_back")
    assert "fixture 'kafka_topic' not found" in out, out
    assert not any(p.startswith("kafkawire-") for p in _plugins_line(out)), out


def test_an_external_cluster_replaces_the_embedded_broker(project: pathlib.Path, broker: EmbeddedBroker) -> None:
    out = _pytest(project, "-s", "--kafka-bootstrap=" + broker.bootstrap_servers,
                  "-k", "records_come_back or bootstrap_is_the_brokers")
    assert re.search(r"\b2 passed\b", out), out
    assert "KAFKAWIRE-BOOTSTRAP=%s\n" % broker.bootstrap_servers in out, out
    assert "kafkawire: kafka_* fixtures use the cluster at %s" % broker.bootstrap_servers in out, out


def test_the_environment_names_an_external_cluster(project: pathlib.Path, broker: EmbeddedBroker) -> None:
    out = _pytest(project, "-s", "-k", "bootstrap_is_the_brokers", **{BOOTSTRAP_ENV_VAR: broker.bootstrap_servers})
    assert re.search(r"\b1 passed\b", out), out
    assert "KAFKAWIRE-BOOTSTRAP=%s\n" % broker.bootstrap_servers in out, out


def test_a_missing_broker_fails_the_tests_that_need_it(project: pathlib.Path, tmp_path: pathlib.Path) -> None:
    out = _pytest(project, "-k", "records_come_back or injected_errors",
                  **{BINARY_ENV_VAR: str(tmp_path / "no-such-tansu")})
    # The mock cluster test needs no broker and still passes.
    assert re.search(r"\b1 passed, 2 deselected, 1 error\b", out), out
    assert "kafka_broker: %s=" % BINARY_ENV_VAR in out and "--kafka-bootstrap" in out, out
    assert "During handling" not in out and "Traceback" not in out, out


def test_importing_the_plugin_loads_nothing_else_of_kafkawire() -> None:
    """Every pytest session of a project with kafkawire installed imports the plugin."""
    code = ("import sys, kafka.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m == 'kafka' or m.startswith('kafka.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(eval(done.stdout))  # a printed list of str
    assert loaded <= {"kafka", "kafka._moved", "kafka.pytest_plugin"}, loaded


def test_the_entry_point_is_installed() -> None:
    from importlib.metadata import entry_points

    every = entry_points()
    group = every.select(group="pytest11") if hasattr(every, "select") else every.get("pytest11", [])  # 3.9
    found = [ep for ep in group if ep.name == "kafkawire"]
    assert [ep.value for ep in found] == ["kafka.pytest_plugin"], \
        "the installed metadata is stale: run ./build_integration.sh again"


@pytest.mark.parametrize("test_name", ["test_x", "test_p[a/b c]", "ü" * 300, "[]", "test_" + "x" * 400])
def test_topic_names_are_legal_and_unique(test_name: str) -> None:
    first, second = topic_name_for(test_name), topic_name_for(test_name)
    assert first != second
    assert check_topic_name(first) == first and len(first) <= MAX_TOPIC_NAME_LENGTH
