"""The main job (``./run_demo.sh`` / ``python -m kafka demo``) run as a user would, with few events."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _in_project_venv() -> bool:
    return os.path.realpath(sys.prefix) == os.path.realpath(os.path.join(ROOT, ".venv"))


#: Lines Spark's JVM prints on start-up (issue 31): none may reach the terminal.
JVM_LINES = ("WARNING: Using incubator modules", "Using Spark's default log4j profile", "WARN Utils:",
             "resolves to a loopback address", "NativeCodeLoader", "Setting default log level",
             "To adjust logging level", "WARN SparkConf")


def _spark_log_named_in(out: str) -> str:
    """The path of the ``Spark's log: PATH`` line of the demo's report."""
    found = re.findall(r"^Spark's log: (.+)$", out, re.M)
    assert len(found) == 1, out
    return found[0]


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
        _check_spark_log(result.stdout, result.stderr)
    assert "user       action     events       amount" in out
    assert out.rstrip().endswith("result: OK")


def _check_spark_log(out: str, err: str) -> None:
    """Spark's JVM lines are in the file the report names (the report's next-to-last line), not on the
    terminal (standard output or error); the file is removed."""
    terminal = out + err
    shown = [line for line in terminal.splitlines() if any(marker in line for marker in JVM_LINES)]
    assert shown == [], terminal
    path = _spark_log_named_in(out)
    assert out.rstrip().splitlines()[-2] == "Spark's log: " + path, out
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            text = log.read()
    finally:
        os.unlink(path)
    # log4j's start-up note, or (with a log4j configuration of the user's) a line of its default layout
    assert "Using Spark's default log4j profile" in text or re.search(r"^\S+ \S+ (WARN|INFO|ERROR) ", text, re.M), text


def test_a_jvm_that_does_not_start_is_one_error_line_and_its_output_is_in_the_log(broker, tmp_path):
    """A spark-submit that fails (a stand-in, no JVM): its output goes to the log, the error names it."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    spark_home = tmp_path / "spark"
    (spark_home / "bin").mkdir(parents=True)
    submit = spark_home / "bin" / "spark-submit"
    submit.write_text("#!/bin/sh\necho 'WARN Utils: Your hostname, h, resolves to a loopback address' >&2\n"
                      "echo 'JAVA_HOME is not set'\nexit 1\n")
    submit.chmod(0o755)
    log = tmp_path / "spark.log"
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--events", "20", "--quiet",
                             "--bootstrap-server", broker.bootstrap_servers, "--spark-log", str(log)],
                            capture_output=True, text=True, timeout=240,
                            env=dict(os.environ, SPARK_HOME=str(spark_home)))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Spark's log: %s\n" % log in result.stdout
    assert result.stderr.startswith("kafkawire demo: error: Spark did not start (see Spark's log): ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert "Your hostname" not in result.stdout + result.stderr
    assert log.read_text().splitlines() == ["WARN Utils: Your hostname, h, resolves to a loopback address",
                                            "JAVA_HOME is not set"]


def test_main_job_against_a_given_broker_without_spark(broker):
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--events", "300", "--no-spark",
                             "--compression", "zstd", "--bootstrap-server", broker.bootstrap_servers],
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "embedded broker" not in result.stdout
    assert "produced 300 events" in result.stdout and "(zstd)" in result.stdout
    assert "Spark pipelines skipped (--no-spark)" in result.stdout
    assert "Spark's log" not in result.stdout
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
