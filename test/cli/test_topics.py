"""``kafkawire topics`` run as a user runs it: a subprocess against the embedded broker."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from typing import Dict, Optional

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli(*args: str, env: Optional[Dict[str, str]] = None, timeout: float = 60.0) -> "subprocess.CompletedProcess[str]":
    environment = dict(os.environ, PYTHONPATH=ROOT)
    environment.pop("KAFKAWIRE_BOOTSTRAP_SERVERS", None)
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "kafka"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=timeout, env=environment, cwd=ROOT)


def one_error_line(result: "subprocess.CompletedProcess[str]", prog: str) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(prog + ": error: "), result.stderr
    return result.stderr


def name(prefix: str = "clitopic") -> str:
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def test_create_list_describe_delete(broker):
    topic = name()
    bs = broker.bootstrap_servers
    created = cli("topics", "create", topic, "--partitions", "3", "--replication-factor", "1",
                  "--config", "retention.ms=60000", "--bootstrap-server", bs)
    assert (created.returncode, created.stdout, created.stderr) == (0, "Created topic %s.\n" % topic, "")

    listed = cli("topics", "list", "--bootstrap-servers", bs)
    assert listed.returncode == 0 and topic in listed.stdout.splitlines()

    described = cli("topics", "describe", topic, "--bootstrap-server", bs)
    assert described.returncode == 0, described.stderr
    lines = described.stdout.splitlines()
    assert lines[0].startswith("Topic: %s\tTopicId: " % topic)
    assert "\tPartitionCount: 3\tReplicationFactor: 1\t" in lines[0]
    assert [line.split("\t")[2] for line in lines[1:]] == ["Partition: 0", "Partition: 1", "Partition: 2"]
    assert all("\tLeader: " in line and "\tIsr: " in line for line in lines[1:])

    deleted = cli("topics", "delete", topic, "--bootstrap-server", bs)
    assert (deleted.returncode, deleted.stdout) == (0, "Deleted topic %s.\n" % topic)
    assert topic not in cli("topics", "list", "--bootstrap-server", bs).stdout.splitlines()


def test_bootstrap_server_from_the_environment(broker):
    topic = name()
    created = cli("topics", "create", topic, "--partitions", "1",
                  env={"KAFKAWIRE_BOOTSTRAP_SERVERS": broker.bootstrap_servers})
    assert created.returncode == 0, created.stderr
    described = cli("topics", "describe", env={"KAFKAWIRE_BOOTSTRAP_SERVERS": broker.bootstrap_servers})
    assert "Topic: %s\t" % topic in described.stdout


def test_existing_and_unknown_topics_are_one_line_errors(broker):
    topic = name()
    bs = broker.bootstrap_servers
    assert cli("topics", "create", topic, "--bootstrap-server", bs).returncode == 0
    again = cli("topics", "create", topic, "--bootstrap-server", bs)
    assert again.returncode == 1 and again.stdout == ""
    assert "TopicAlreadyExistsError" in one_error_line(again, "kafkawire topics")
    tolerated = cli("topics", "create", topic, "--if-not-exists", "--bootstrap-server", bs)
    assert (tolerated.returncode, tolerated.stdout) == (0, "Topic %s already exists.\n" % topic)

    missing = name("missing")
    gone = cli("topics", "delete", missing, "--bootstrap-server", bs)
    assert gone.returncode == 1
    assert "UnknownTopicOrPartitionError" in one_error_line(gone, "kafkawire topics") and missing in gone.stderr
    unknown = cli("topics", "describe", missing, "--bootstrap-server", bs)
    assert unknown.returncode == 1 and unknown.stdout == ""
    assert missing in one_error_line(unknown, "kafkawire topics")


@pytest.mark.parametrize("args, prog, fragment", [
    (["topics"], "topics", "required: ACTION"),
    (["topics", "shuffle"], "topics", "invalid choice"),
    (["topics", "create"], "topics create", "required: NAME"),
    (["topics", "create", "t", "--partitions", "0"], "topics create", "--partitions"),
    (["topics", "create", "t", "--partitions", "many"], "topics create", "not an integer"),
    (["topics", "create", "t", "--config", "retention"], "topics create", "KEY=VALUE"),
    (["topics", "create", "bad/name"], "topics create", "not allow"),
    (["topics", "list", "--timeout", "0"], "topics list", "--timeout"),
    (["topics", "delete"], "topics delete", "required: NAME"),
])
def test_usage_errors_exit_2_with_one_line(args, prog, fragment):
    result = cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert fragment in one_error_line(result, "kafkawire " + prog)


def test_unreachable_broker_is_one_line_in_bounded_time():
    start = time.monotonic()
    result = cli("topics", "list", "--bootstrap-server", "127.0.0.1:1")
    elapsed = time.monotonic() - start
    assert result.returncode == 1 and result.stdout == ""
    assert "127.0.0.1:1" in one_error_line(result, "kafkawire topics")
    assert elapsed < 10, elapsed
