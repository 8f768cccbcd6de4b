"""``kafkawire produce`` and ``kafkawire consume`` run as a user runs them: subprocesses.

Against the embedded broker (Tansu) except where a feature needs exact Kafka
semantics Tansu lacks: its timestamp lookups always answer offset 0, so a
"nothing at or after this timestamp" case is checked on the librdkafka mock
cluster, which finds nothing for any timestamp (start at the end).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from typing import Dict, List, Optional

import pytest

from kafka.admin import KafkaAdminClient
from test.support.groups import narrow_group_versions
from test.support.processes import interrupt, reaped
from test.support.topics import new_topic
from test.support.waiting import wait_until

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
JSON_FIELDS = ["topic", "partition", "offset", "timestamp", "timestamp_type", "key", "value", "headers"]


def environment(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("KAFKAWIRE_BOOTSTRAP_SERVERS", None)
    env.update(extra or {})
    return env


def cli(*args: str, stdin: bytes = b"", timeout: float = 60.0,
        env: Optional[Dict[str, str]] = None) -> "subprocess.CompletedProcess[bytes]":
    return subprocess.run([sys.executable, "-m", "kafka"] + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout, env=environment(env), cwd=ROOT)


def spawn(*args: str) -> "subprocess.Popen[bytes]":
    return subprocess.Popen([sys.executable, "-m", "kafka"] + list(args), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(), cwd=ROOT)


def read_lines(process: "subprocess.Popen[bytes]", count: int, timeout: float) -> List[bytes]:
    """The first ``count`` lines of the process's stdout, or as many as came within ``timeout``."""
    lines: List[bytes] = []

    def read() -> None:
        for _ in range(count):
            lines.append(process.stdout.readline())  # type: ignore[union-attr]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    return list(lines)


def one_error_line(stderr: bytes, prog: str) -> str:
    text = stderr.decode()
    assert "Traceback" not in text, text
    assert text.count("\n") == 1 and text.startswith(prog + ": error: "), text
    return text


def make_topic(broker, partitions: int = 1) -> str:
    return new_topic(broker, partitions, prefix="cli")


def consume(bootstrap: str, topic: str, *more: str, count: Optional[int] = None) -> bytes:
    args = ["consume", topic, "--bootstrap-server", bootstrap] + list(more)
    if count is not None:
        args += ["--max-messages", str(count)]
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr.decode()
    return done.stdout


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- round trips ---------------------------------------------------------------------------------

@pytest.mark.parametrize("codec", CODECS)
def test_keyed_lines_with_headers_round_trip(broker, codec):
    topic = make_topic(broker)
    lines = ["user-1:first", "user-2:second:with colon", "user-1:", ":no key? empty key", "k:ünïcödé ✓"]
    done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--key-separator", ":",
               "--header", "source=cli", "--header", "empty=", "--compression", codec,
               stdin=("\n".join(lines) + "\n").encode())
    assert done.returncode == 0, done.stderr
    summary = done.stderr.decode()
    assert summary.startswith("kafkawire produce: 5 records (") and " delivered in " in summary
    assert summary.count("\n") == 1

    raw = consume(broker.bootstrap_servers, topic, "--from-beginning", "--print-key", "--key-separator", "|",
                  count=5)
    assert raw.decode() == "".join(line.replace(":", "|", 1) + "\n" for line in lines)

    out = consume(broker.bootstrap_servers, topic, "--from-beginning", "--format", "json", count=5)
    objects = [json.loads(line) for line in out.decode().splitlines()]
    assert [list(o) for o in objects] == [JSON_FIELDS] * 5
    assert all(isinstance(o["timestamp"], int) and o["timestamp"] > 1_600_000_000_000 for o in objects)
    assert [(o["topic"], o["partition"], o["offset"], o["timestamp_type"], o["key"], o["value"], o["headers"])
            for o in objects] == [
        (topic, 0, i, "CreateTime", line.split(":", 1)[0], line.split(":", 1)[1],
         [{"key": "source", "value": "cli"}, {"key": "empty", "value": ""}])
        for i, line in enumerate(lines)]


def test_files_value_per_file_and_binary_data(broker, tmp_path):
    topic = make_topic(broker)
    text_file = tmp_path / "a.txt"
    text_file.write_bytes(b"line one\r\nline two\n\nlast line without newline")
    binary = bytes(range(256)) + b"\n\xff\xfe"
    binary_file = tmp_path / "blob.bin"
    binary_file.write_bytes(binary)

    per_line = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
                   "--file", str(text_file), "--file", "-", stdin=b"from stdin\n")
    assert per_line.returncode == 0, per_line.stderr
    whole = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--value-per-file",
                "-f", str(binary_file), "-f", str(text_file), "--header", "kind=file")
    assert whole.returncode == 0, whole.stderr

    expected_values = [b"line one", b"line two", b"", b"last line without newline", b"from stdin",
                       binary, text_file.read_bytes()]
    raw = consume(broker.bootstrap_servers, topic, "--from-beginning", "--print-key", count=7)
    assert raw == b"".join(b"null\t" + v + b"\n" for v in expected_values)

    out = consume(broker.bootstrap_servers, topic, "--from-beginning", "--format", "json", count=7)
    objects = [json.loads(line) for line in out.decode().splitlines()]
    assert [o["key"] for o in objects] == [None] * 7
    assert [o["value"] for o in objects[:5]] == [v.decode() for v in expected_values[:5]]
    assert "value_encoding" not in objects[0]
    assert objects[5]["value_encoding"] == "base64"
    assert base64.b64decode(objects[5]["value"]) == binary
    assert list(objects[5]) == JSON_FIELDS[:7] + ["value_encoding", "headers"]
    assert objects[6]["value"] == text_file.read_bytes().decode()
    assert [o["headers"] for o in objects] == [[]] * 5 + [[{"key": "kind", "value": "file"}]] * 2


def test_binary_keys_and_headers_are_base64_in_json(broker, tmp_path):
    topic = make_topic(broker)
    from kafka.producer import KafkaProducer

    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers) as producer:
        producer.send(topic, value=None, key=b"\x80key", headers=[("h", b"\xc3"), ("n", None)]).get(10)
    out = consume(broker.bootstrap_servers, topic, "--from-beginning", "--format", "json", count=1)
    record = json.loads(out)
    assert record["key"] == base64.b64encode(b"\x80key").decode() and record["key_encoding"] == "base64"
    assert record["value"] is None and "value_encoding" not in record
    assert record["headers"] == [{"key": "h", "value": "ww==", "value_encoding": "base64"},
                                 {"key": "n", "value": None}]
    raw = consume(broker.bootstrap_servers, topic, "--from-beginning", "--print-key", count=1)
    assert raw == b"\x80key\tnull\n"


def test_partition_offset_and_acks(broker):
    topic = make_topic(broker, partitions=3)
    for acks in ("1", "all", "-1"):
        done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--partition", "2",
                   "--acks", acks, "--linger-ms", "0", "--batch-size", "100",
                   stdin=b"".join(b"%s-%d\n" % (acks.encode(), i) for i in range(3)))
        assert done.returncode == 0, done.stderr
    everything = [b"%s-%d" % (a, i) for a in (b"1", b"all", b"-1") for i in range(3)]
    assert consume(broker.bootstrap_servers, topic, "--partition", "2", "--offset", "earliest",
                   count=9) == b"".join(v + b"\n" for v in everything)
    assert consume(broker.bootstrap_servers, topic, "--partition", "2", "--offset", "4",
                   count=5) == b"".join(v + b"\n" for v in everything[4:])
    # acks=0 asks for no answer, so nothing tells the producer whether the
    # broker kept the records: only the order of what arrived is checked.
    done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--partition", "1",
               "--acks", "0", stdin=b"z-0\nz-1\nz-2\n")
    assert done.returncode == 0, done.stderr
    arrived = consume(broker.bootstrap_servers, topic, "--partition", "1", "--from-beginning",
                      "--timeout-ms", "1500").splitlines()
    assert arrived == [b"z-0", b"z-1", b"z-2"][:len(arrived)]
    # Nothing was written to partition 0, and "latest" on partition 2 waits for new records.
    assert consume(broker.bootstrap_servers, topic, "--partition", "0", "--from-beginning",
                   "--timeout-ms", "1000") == b""
    assert consume(broker.bootstrap_servers, topic, "--partition", "2", "--timeout-ms", "1000") == b""
    missing = cli("consume", topic, "--bootstrap-server", broker.bootstrap_servers, "--partition", "3")
    assert missing.returncode == 1
    assert "has no partition 3" in one_error_line(missing.stderr, "kafkawire consume")
    missing = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--partition", "7",
                  stdin=b"x\n")
    assert missing.returncode == 1
    one_error_line(missing.stderr, "kafkawire produce")


def test_every_partition_is_read_without_a_group(broker):
    topic = make_topic(broker, partitions=4)
    lines = [b"key-%d:value-%d" % (i, i) for i in range(40)]
    done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--key-separator", ":",
               stdin=b"\n".join(lines) + b"\n")
    assert done.returncode == 0, done.stderr
    out = consume(broker.bootstrap_servers, topic, "--from-beginning", "--format", "json", count=40)
    objects = [json.loads(line) for line in out.decode().splitlines()]
    assert sorted(o["value"] for o in objects) == sorted("value-%d" % i for i in range(40))
    assert len({o["partition"] for o in objects}) > 1  # keys spread over partitions
    assert all(o["value"] == o["key"].replace("key", "value") for o in objects)


def test_from_timestamp_before_all_records_reads_everything(broker):
    topic = make_topic(broker, partitions=2)
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
               stdin=b"a\nb\nc\n").returncode == 0
    out = consume(broker.bootstrap_servers, topic, "--from-timestamp", "0", "--timeout-ms", "1500")
    assert sorted(out.splitlines()) == [b"a", b"b", b"c"]


def test_from_timestamp_with_no_later_record_starts_at_the_end(mock_cluster):
    mock_cluster.create_topic("stamped", 2)
    for partition in (0, 1):  # one leader: the consumer positions both partitions with the same requests
        mock_cluster.set_partition_leader("stamped", partition, 1)
    servers = mock_cluster.bootstrap_servers
    assert cli("produce", "stamped", "--bootstrap-server", servers, stdin=b"old-1\nold-2\n").returncode == 0
    # The mock finds no offset for any timestamp: every partition starts at its end.
    mock_cluster.start_request_tracking()
    with reaped(spawn("consume", "stamped", "--bootstrap-server", servers, "--from-timestamp",
                      str(int(time.time() * 1000) + 3_600_000), "--max-messages", "1",
                      "--timeout-ms", "20000")) as process:
        # Positioned once it fetches: only then may the new record arrive.
        assert wait_until(lambda: mock_cluster.requests("Fetch") or process.poll() is not None, timeout=30)
        assert cli("produce", "stamped", "--bootstrap-server", servers, stdin=b"new\n").returncode == 0
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert out == b"new\n"


def test_read_committed_sees_ordinary_records(broker):
    topic = make_topic(broker)
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, stdin=b"x\ny\n").returncode == 0
    assert consume(broker.bootstrap_servers, topic, "--from-beginning", "--isolation-level", "read_committed",
                   count=2) == b"x\ny\n"


# -- groups and stopping ------------------------------------------------------------------------

GROUP_OPTIONS = ["--session-timeout-ms", "6000"]  # Tansu answers the first join after half of it


def test_group_resumes_where_it_stopped(broker):
    topic = make_topic(broker)
    group = "cli-group-" + uuid.uuid4().hex[:8]
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
               stdin=b"".join(b"m%d\n" % i for i in range(6))).returncode == 0
    first = consume(broker.bootstrap_servers, topic, "--group", group, "--from-beginning", *GROUP_OPTIONS,
                    count=4)
    assert first == b"m0\nm1\nm2\nm3\n"
    # The offsets of exactly the printed records were committed.
    rest = consume(broker.bootstrap_servers, topic, "--group", group, *GROUP_OPTIONS, "--timeout-ms", "2000")
    assert rest == b"m4\nm5\n"


def test_ctrl_c_stops_a_group_member_cleanly(broker):
    topic = make_topic(broker)
    group = "cli-ctrl-c-" + uuid.uuid4().hex[:8]
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, stdin=b"one\ntwo\n").returncode == 0
    with reaped(spawn("consume", topic, "--bootstrap-server", broker.bootstrap_servers, "--group", group,
                      "--from-beginning", *GROUP_OPTIONS)) as process:
        assert read_lines(process, 2, timeout=40) == [b"one\n", b"two\n"]
        out, err, took = interrupt(process)
    assert process.returncode == 0, err
    assert b"Traceback" not in err and err == b"kafkawire consume: 2 records\n"
    assert took < 10
    # It committed before leaving: the group starts after "two" now.
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, stdin=b"three\n").returncode == 0
    assert consume(broker.bootstrap_servers, topic, "--group", group, *GROUP_OPTIONS, count=1) == b"three\n"


def test_ctrl_c_while_joining_does_not_wait_for_the_join(broker):
    """Tansu answers this first join after 15 s (half the session timeout); Ctrl-C must not wait for it."""
    topic = make_topic(broker)
    group = "cli-joining-" + uuid.uuid4().hex[:8]
    with reaped(spawn("consume", topic, "--bootstrap-server", broker.bootstrap_servers, "--group", group,
                      "--session-timeout-ms", "30000")) as process:
        with KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers) as admin:
            # The broker lists the member as soon as its JoinGroup arrived, and holds the answer 15 s.
            assert wait_until(lambda: admin.describe_consumer_groups([group])[group].members, timeout=30)
        assert process.poll() is None
        out, err, took = interrupt(process)
    assert process.returncode == 0 and err == b"kafkawire consume: 0 records\n", err
    assert out == b"" and took < 5


def test_ctrl_c_ends_interactive_produce(broker):
    topic = make_topic(broker)
    with reaped(subprocess.Popen([sys.executable, "-m", "kafka", "produce", topic, "--bootstrap-server",
                                  broker.bootstrap_servers], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=environment(), cwd=ROOT)) as process:
        process.stdin.write(b"typed line\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        # Once the line is readable the producer is inside its read loop, waiting for more.
        assert consume(broker.bootstrap_servers, topic, "--from-beginning", count=1) == b"typed line\n"
        out, err, _ = interrupt(process)
    assert process.returncode == 0, err
    assert err.startswith(b"kafkawire produce: 1 record (10 bytes) delivered in ") and err.count(b"\n") == 1


def test_reader_closing_the_pipe_ends_the_consumer(broker):
    topic = make_topic(broker)
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
               stdin=b"".join(b"r%d\n" % i for i in range(50))).returncode == 0
    # What `consume ... | head -1` does: read one line, then close the pipe.
    consumer = spawn("consume", topic, "--bootstrap-server", broker.bootstrap_servers, "--from-beginning")
    with reaped(consumer) as process:
        assert process.stdout.readline() == b"r0\n"  # type: ignore[union-attr]
        process.stdout.close()  # type: ignore[union-attr]
        process.wait(timeout=20)
        err = process.stderr.read()  # type: ignore[union-attr]
    assert process.returncode == 0, err
    assert b"Traceback" not in err and b"Exception" not in err, err
    assert err.startswith(b"kafkawire consume: ") and err.count(b"\n") == 1


def test_shell_pipe_into_head(broker):
    topic = make_topic(broker)
    assert cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
               stdin=b"".join(b"line %d\n" % i for i in range(2000))).returncode == 0
    command = "{0} -m kafka consume {1} --bootstrap-server {2} --from-beginning | head -n 3; " \
              "echo status=${{PIPESTATUS[0]}}".format(sys.executable, topic, broker.bootstrap_servers)
    done = subprocess.run(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60, env=environment())
    assert done.stdout == b"line 0\nline 1\nline 2\nstatus=0\n"
    assert b"Traceback" not in done.stderr and b"Error" not in done.stderr, done.stderr


def test_environment_supplies_the_bootstrap_servers(broker):
    topic = make_topic(broker)
    env = {"KAFKAWIRE_BOOTSTRAP_SERVERS": broker.bootstrap_servers}
    assert cli("produce", topic, stdin=b"via env\n", env=env).returncode == 0
    done = cli("consume", topic, "--from-beginning", "--max-messages", "1", env=env)
    assert done.returncode == 0 and done.stdout == b"via env\n"


# -- mistakes ------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["produce", "t", "--header", "no-equals-sign"],
    ["produce", "t", "--header", "=value"],
    ["produce", "t", "--compression", "brotli"],
    ["produce", "t", "--acks", "2"],
    ["produce", "t", "--partition", "-1"],
    ["produce", "t", "--linger-ms", "soon"],
    ["produce", "t", "--key-separator", ""],
    ["produce", "t", "--value-per-file", "--key-separator", ":"],
    ["produce"],
    ["consume", "t", "--offset", "5"],
    ["consume", "t", "--partition", "0", "--offset", "first"],
    ["consume", "t", "--partition", "0", "--offset", "3", "--from-beginning"],
    ["consume", "t", "--from-timestamp", "5", "--from-beginning"],
    ["consume", "t", "--group", "g", "--partition", "1"],
    ["consume", "t", "--group", "g", "--from-timestamp", "0"],
    ["consume", "t", "--max-messages", "0"],
    ["consume", "t", "--format", "xml"],
    ["consume", "t", "--isolation-level", "serializable"],
    ["consume", "t", "--timeout", "0"],
], ids=lambda a: " ".join(a))
def test_bad_arguments_are_one_usage_line(args):
    done = cli(*args, "--bootstrap-server", "127.0.0.1:%d" % closed_port())
    assert done.returncode == 2, done.stderr
    one_error_line(done.stderr, "kafkawire " + args[0])
    assert done.stdout == b""


@pytest.mark.parametrize("command", ["produce", "consume"])
def test_unreachable_broker_fails_fast(command):
    started = time.monotonic()
    done = cli(command, "some-topic", "--bootstrap-server", "127.0.0.1:%d" % closed_port(), "--timeout", "2",
               stdin=b"x\n")
    took = time.monotonic() - started
    assert done.returncode == 1
    text = one_error_line(done.stderr, "kafkawire " + command)
    assert "cannot reach 127.0.0.1:" in text and "Connection refused" in text
    assert took < 10


def test_unreachable_broker_default_timeout_is_bounded():
    started = time.monotonic()
    done = cli("consume", "t", "--bootstrap-server", "127.0.0.1:%d" % closed_port())
    assert done.returncode == 1
    one_error_line(done.stderr, "kafkawire consume")
    assert time.monotonic() - started < 20


def test_unknown_topic(broker):
    for command in ("consume", "produce"):
        done = cli(command, "no-such-topic-" + uuid.uuid4().hex[:6], "--bootstrap-server",
                   broker.bootstrap_servers, stdin=b"x\n")
        assert done.returncode == 1
        assert "does not exist" in one_error_line(done.stderr, "kafkawire " + command)


def test_line_without_separator_stops_after_delivering_earlier_lines(broker):
    topic = make_topic(broker)
    done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers, "--key-separator", "=",
               stdin=b"a=1\nb=2\nno separator here\nc=3\n")
    assert done.returncode == 1
    text = one_error_line(done.stderr, "kafkawire produce")
    assert "line 3 of <stdin> has no key separator '='" in text and "2 records sent" in text
    assert consume(broker.bootstrap_servers, topic, "--from-beginning", "--print-key", "--key-separator", "=",
                   "--timeout-ms", "1500") == b"a=1\nb=2\n"


def test_missing_input_file(broker, tmp_path):
    topic = make_topic(broker)
    done = cli("produce", topic, "--bootstrap-server", broker.bootstrap_servers,
               "--file", str(tmp_path / "absent.txt"))
    assert done.returncode == 1
    assert "cannot read" in one_error_line(done.stderr, "kafkawire produce")


def test_ctrl_c_leaves_the_group(mock_cluster):
    """Ctrl-C makes the member send LeaveGroup before it exits.

    (The mock cluster makes a new member wait about the session timeout
    even after a clean leave, as it does with librdkafka's consumer, so the
    request itself is what is checked.)
    """
    narrow_group_versions(mock_cluster, "left", 1)  # the mock's flexible group versions are broken
    servers = mock_cluster.bootstrap_servers
    assert cli("produce", "left", "--bootstrap-server", servers, stdin=b"one\ntwo\n").returncode == 0
    mock_cluster.start_request_tracking()
    with reaped(spawn("consume", "left", "--bootstrap-server", servers, "--group", "g",
                      "--from-beginning")) as process:
        assert read_lines(process, 2, timeout=30) == [b"one\n", b"two\n"]
        assert mock_cluster.requests("LeaveGroup") == []
        out, err, _ = interrupt(process)
    assert process.returncode == 0 and err == b"kafkawire consume: 2 records\n", err
    assert len(mock_cluster.requests("LeaveGroup")) == 1
    assert len(mock_cluster.requests("OffsetCommit")) >= 1
