"""The main job (``./run_demo.sh`` / ``python -m kafka demo``) run as a user would, with few events."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _in_project_venv() -> bool:
    return os.path.realpath(sys.prefix) == os.path.realpath(os.path.join(ROOT, ".venv"))


def _demo_command(*args: str):
    """The README's main-job command when the suite runs in the project's .venv (as in CI)."""
    if _in_project_venv():
        return [os.path.join(ROOT, "run_demo.sh")] + list(args)
    return [sys.executable, "-m", "kafka", "demo"] + list(args)


def test_main_job_with_its_own_broker_and_the_spark_pipelines(broker_binary):
    result = subprocess.run(_demo_command("--events", "2000", "--quiet"), capture_output=True, text=True,
                            timeout=900, cwd=ROOT)
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "embedded broker started at 127.0.0.1:" in out
    assert re.search(r"^produced 2000 events at \d+ events/s \(lz4\); read 2000 back", out, re.M), out
    # Under ./run_tests.sh (KAFKAWIRE_STRICT=1) pyspark is installed: the pipelines must run.
    strict = os.environ.get("KAFKAWIRE_STRICT", "") not in ("", "0")
    if importlib.util.find_spec("pyspark") is None and not strict:
        assert "Spark pipelines skipped: pyspark is not installed" in out
    else:
        assert re.search(r"^Spark batch pipeline: 28 aggregate records written .*they match the events$", out, re.M)
        assert re.search(r"^Spark streaming pipeline: \d+ aggregate records written .*they match the events$",
                         out, re.M), out
    assert "user       action     events       amount" in out
    assert out.rstrip().endswith("result: OK")


def test_main_job_against_a_given_broker_without_spark(broker):
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--events", "300", "--no-spark",
                             "--compression", "zstd", "--bootstrap-server", broker.bootstrap_servers],
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "embedded broker" not in result.stdout
    assert "produced 300 events" in result.stdout and "(zstd)" in result.stdout
    assert "Spark pipelines skipped (--no-spark)" in result.stdout
    assert "produce: 300/300" in result.stderr  # the progress bar's last line


def test_main_job_with_an_unreachable_broker_is_one_clear_line():
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--bootstrap-server", "127.0.0.1:1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert "127.0.0.1:1" in result.stderr and "Connection refused" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_arguments_are_usage_errors():
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--events", "0"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "--events must be positive" in result.stderr
