"""kafkawire offers kafka-python 3's public surface, checked against kafka-python itself.

``build_integration.sh`` installs kafka-python 3.x into
``.cache/kafka-python-venv`` (it imports as ``kafka`` too, so it needs an
environment of its own).  ``_surface.py`` prints each side's public names,
module paths, the parameters of the three clients' public methods, their
``DEFAULT_CONFIG`` keys and the error classes; the test compares them.
Every difference must be in :data:`ALLOWED` (deliberate, documented in
``docs/compatibility.rst``) or :data:`NOT_YET` (admin APIs kafkawire does
not implement); anything else fails, and so does an entry that no longer
differs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Dict, List

import pytest

from test.kafka_python.surface_diff import differences

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KAFKA_PYTHON_VENV = os.path.join(ROOT, ".cache", "kafka-python-venv")
SURFACE = os.path.join(HERE, "_surface.py")

#: Deliberate differences, each with its reason.
ALLOWED = {
    # kafka-python's internals, not API: its logging setup and metrics registry
    # (kafkawire keeps none; metrics() reports the clients' own counters).
    "module kafka.logging", "module kafka.metrics",
    # NOT_CONTROLLER also calls for a metadata refresh here (it finds the new
    # controller); NotControllerError is an InvalidMetadataError as well as
    # kafka-python's RetriableError, which catches it as before.
    "invalid_metadata NotControllerError",
}

#: kafka-python 3 admin APIs kafkawire does not implement yet (none left).
NOT_YET: set = set()


def kafka_python_interpreter() -> str:
    python = os.path.join(KAFKA_PYTHON_VENV, "bin", "python")
    if not os.path.exists(python):
        pytest.skip("kafka-python's environment %s is missing: run ./build_integration.sh" % KAFKA_PYTHON_VENV)
    return python


def surface(python: List[str], env: Dict[str, str], modules: List[str] = ()) -> Dict[str, Any]:  # type: ignore[assignment]
    out = subprocess.run(python + [SURFACE] + list(modules), env=env, cwd="/", check=True,
                         stdout=subprocess.PIPE, timeout=120)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def surfaces() -> Dict[str, Dict[str, Any]]:
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    theirs = surface([kafka_python_interpreter(), "-I"], base_env)
    ours = surface([sys.executable], dict(base_env, PYTHONPATH=ROOT), theirs["modules"])
    return {"theirs": theirs, "ours": ours}


def found_differences(surfaces: Dict[str, Dict[str, Any]]) -> List[str]:
    theirs, ours = surfaces["theirs"], surfaces["ours"]
    found = differences(theirs, ours)
    found += ["module %s" % m for m, ok in ours["importable"].items() if not ok]
    return found


def test_kafka_python_is_3x(surfaces: Dict[str, Dict[str, Any]]) -> None:
    # The comparison is against kafka-python 3's API (the KafkaAdminClient
    # methods below exist only there).
    assert "list_groups" in surfaces["theirs"]["clients"]["KafkaAdminClient"]["methods"]


def test_only_allowed_differences(surfaces: Dict[str, Dict[str, Any]]) -> None:
    found = set(found_differences(surfaces))
    unexpected = sorted(found - ALLOWED - NOT_YET)
    assert not unexpected, "kafkawire differs from kafka-python 3 beyond the allow-list:\n" + "\n".join(unexpected)


def test_allow_list_is_current(surfaces: Dict[str, Dict[str, Any]]) -> None:
    found = set(found_differences(surfaces))
    stale = sorted((ALLOWED | NOT_YET) - found)
    assert not stale, "allow-list entries that no longer differ (remove them):\n" + "\n".join(stale)


def test_every_config_key_constructs() -> None:
    """Each kafka-python DEFAULT_CONFIG key is accepted by our constructors with kafka-python's default."""
    python = kafka_python_interpreter()
    script = ("import json, kafka, kafka.admin; print(json.dumps({c.__name__: sorted(c.DEFAULT_CONFIG) for c in "
              "(kafka.KafkaProducer, kafka.KafkaConsumer, kafka.admin.KafkaAdminClient)}))")
    keys = json.loads(subprocess.run([python, "-I", "-c", script], check=True, stdout=subprocess.PIPE,
                                     cwd="/", timeout=120).stdout)
    import kafka
    from kafka.admin import KafkaAdminClient

    for cls in (kafka.KafkaProducer, kafka.KafkaConsumer, KafkaAdminClient):
        missing = [k for k in keys[cls.__name__] if k not in cls.DEFAULT_CONFIG]  # type: ignore[attr-defined]
        assert not missing, (cls.__name__, missing)
