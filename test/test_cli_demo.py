"""The main job (``python -m kafka demo``) run as a user would, with few records."""

from __future__ import annotations

import re
import subprocess
import sys


def test_demo_against_its_own_embedded_broker(broker_binary):
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--records", "1500"],
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "embedded broker started at 127.0.0.1:" in out
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        assert re.search(r"^%s\s+1500 records at offsets \d+\.\.\d+ came back intact$" % codec, out, re.M), out
    assert out.count("came back intact") == 5
    assert "produce rec/s" in out and "last record:" in out


def test_demo_against_a_given_broker(broker):
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--records", "100",
                             "--bootstrap-server", broker.bootstrap_servers],
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "embedded broker" not in result.stdout
    assert result.stdout.count("came back intact") == 5


def test_demo_with_an_unreachable_broker_is_one_clear_line():
    result = subprocess.run([sys.executable, "-m", "kafka", "demo", "--bootstrap-server", "127.0.0.1:1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0
    assert "cannot connect to 127.0.0.1:1" in result.stderr
    assert "Traceback" not in result.stderr
