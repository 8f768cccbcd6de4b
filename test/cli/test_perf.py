"""``kafkawire perf produce|consume`` as subprocesses against the embedded broker."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Dict, List

import pytest

from test.cli.test_produce_consume import ROOT, cli, closed_port, environment, one_error_line
from test.support.topics import new_topic

MB = 1024 * 1024
NUMBER = r"(\d+(?:\.\d+)?)"
SUMMARY = re.compile(
    r"^perf (?P<mode>produce|consume): (?P<records>\d+) records, {0} MB, {0} s, {0} records/s, {0} MB/s"
    r"(?:, latency avg {0} ms, p50 {0} ms, p99 {0} ms)?\n$".format(NUMBER))


def make_topic(broker, partitions: int = 1) -> str:
    return new_topic(broker, partitions, prefix="perf")


def summary(stdout: bytes) -> Dict[str, float]:
    match = SUMMARY.match(stdout.decode())
    assert match, stdout
    values: List[str] = list(match.groups())
    names = ["mode", "records", "mb", "seconds", "rate", "mb_rate", "avg", "p50", "p99"]
    out: Dict[str, float] = {}
    for name, value in zip(names[1:], values[1:]):
        if value is not None:
            out[name] = float(value)
    return out


@pytest.mark.parametrize("codec,acks", [("none", "all"), ("lz4", "1")])
def test_produce_then_consume(broker, codec, acks):
    topic = make_topic(broker, partitions=2)
    produced = cli("perf", "produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--num-records",
                   "3000", "--record-size", "200", "--compression", codec, "--acks", acks)
    assert produced.returncode == 0, produced.stderr
    p = summary(produced.stdout)
    assert p["records"] == 3000
    assert p["mb"] == round(3000 * 200 / MB, 2)
    # seconds is rounded to 0.01 s; the rates come from the exact time.
    assert p["seconds"] == pytest.approx(3000 / p["rate"], abs=0.006)
    assert p["mb_rate"] == pytest.approx(p["rate"] * 200 / MB, abs=0.006)
    assert 0 < p["p50"] <= p["p99"] and p["avg"] > 0
    assert p["p99"] < p["seconds"] * 1000 + 1
    # stderr is a pipe here: plain progress lines, the last one complete.
    lines = produced.stderr.decode().splitlines()
    assert lines and "\r" not in produced.stderr.decode()
    assert all(re.match(r"^produce: [\d,]+/3,000 +\d+% [\d,]+/s$", line) for line in lines), lines
    assert lines[-1].startswith("produce: 3,000/3,000 100% ")

    consumed = cli("perf", "consume", topic, "--bootstrap-server", broker.bootstrap_servers,
                   "--num-records", "3000")
    assert consumed.returncode == 0, consumed.stderr
    c = summary(consumed.stdout)
    assert c["records"] == 3000 and c["mb"] == round(3000 * 200 / MB, 2) and "p50" not in c
    assert consumed.stderr.decode().splitlines()[-1].startswith("consume: 3,000/3,000 100% ")


def test_quiet_and_short_topic(broker):
    topic = make_topic(broker)
    produced = cli("perf", "produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--num-records",
                   "500", "--record-size", "10", "--quiet")
    assert produced.returncode == 0 and produced.stderr == b""
    assert summary(produced.stdout)["records"] == 500
    # Asking for more records than the topic has: what arrived is reported, then an error.
    short = cli("perf", "consume", topic, "--bootstrap-server", broker.bootstrap_servers, "--num-records",
                "800", "--quiet", "--timeout", "2")
    assert short.returncode == 1
    assert summary(short.stdout)["records"] == 500
    assert "only 500 of 800 records arrived" in one_error_line(short.stderr, "kafkawire perf")


def test_progress_bar_on_a_terminal(broker):
    topic = make_topic(broker)
    master, slave = os.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "kafka", "perf", "produce", topic, "--bootstrap-server",
             broker.bootstrap_servers, "--num-records", "20000", "--record-size", "100"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=environment(), cwd=ROOT)
        os.close(slave)
        slave = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the process closed its end
                break
            if not chunk:
                break
            drawn += chunk
        out = process.communicate(timeout=60)[0]
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)
    assert process.returncode == 0, drawn
    assert summary(out)["records"] == 20000
    text = drawn.decode()
    assert text.startswith("\rproduce [") and text.endswith("\x1b[K\r\n")  # the tty turns \n into \r\n
    assert "] 20,000/20,000 100% " in text.split("\r")[-2]


@pytest.mark.parametrize("args", [
    ["perf"],
    ["perf", "produce", "t", "--num-records", "10"],
    ["perf", "produce", "t", "--num-records", "0", "--record-size", "10"],
    ["perf", "produce", "t", "--num-records", "10", "--record-size", "10", "--compression", "bogus"],
    ["perf", "consume", "t"],
    ["perf", "measure", "t"],
], ids=lambda a: " ".join(a))
def test_bad_arguments(args):
    done = cli(*args)
    assert done.returncode == 2
    text = done.stderr.decode()
    assert "Traceback" not in text and text.count("\n") == 1 and text.startswith("kafkawire perf"), text


def test_unreachable_broker():
    done = cli("perf", "consume", "t", "--bootstrap-server", "127.0.0.1:%d" % closed_port(),
               "--num-records", "5")
    assert done.returncode == 1
    assert "cannot reach" in one_error_line(done.stderr, "kafkawire perf")
