"""`python -m kafka broker` run as a real subprocess."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from typing import Dict, List, Optional

import pytest

from kafka.testing import probe_api_versions
from test.support.processes import interrupt, reaped

LINE = re.compile(r"^bootstrap servers: (?P<host>[\d.]+):(?P<port>\d+)$")


def spawn(*args: str, env: Optional[Dict[str, str]] = None) -> "subprocess.Popen[str]":
    return subprocess.Popen(
        [sys.executable, "-m", "kafka"] + list(args), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=dict(os.environ, **(env or {})))


def read_address(process: "subprocess.Popen[str]", timeout: float = 30.0) -> str:
    """Read the first stdout line, failing the test if it does not come in time."""
    lines: List[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()),  # type: ignore[union-attr]
                              daemon=True)
    reader.start()
    reader.join(timeout)
    if not lines:
        process.kill()
        pytest.fail("no address line within {0}s; stderr: {1}".format(
            timeout, process.communicate()[1]))
    return lines[0].strip()


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM],
                         ids=["SIGINT", "SIGTERM"])
def test_broker_command_serves_until_signalled(broker_binary: str, stop_signal: int) -> None:
    with reaped(spawn("broker", env={"KAFKAWIRE_TANSU_BIN": broker_binary})) as process:
        line = read_address(process)
        match = LINE.match(line)
        assert match, line
        host, port = match.group("host"), int(match.group("port"))
        assert 18 in probe_api_versions(host, port)
        out, err, _ = interrupt(process, timeout=10, sig=stop_signal)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    with pytest.raises(OSError):
        probe_api_versions(host, port, timeout=1.0)


def test_missing_binary_is_one_line_without_traceback(tmp_path: object) -> None:
    process = spawn("broker", env={"KAFKAWIRE_TANSU_BIN": os.path.join(str(tmp_path), "nope")})
    out, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("kafkawire broker: error:"), err


def test_bad_port_is_a_usage_error() -> None:
    process = spawn("broker", "--port", "not-a-port")
    out, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "Traceback" not in err
    assert err.count("\n") == 1 and "--port" in err, err


def test_taken_port_is_reported(broker: object) -> None:
    process = spawn("broker", "--port", str(broker.port))  # type: ignore[attr-defined]
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert "already in use" in err and "Traceback" not in err
    assert err.count("\n") == 1, err
