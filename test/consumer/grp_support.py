"""Helpers for the KafkaConsumer-level group tests (mock cluster and embedded broker).

Not a test module: it holds the pieces the ``test_grp_*`` modules share —
a producer thread writing numbered records, KafkaConsumer poll loops in
threads, a crashable consumer in a child process, and a monitor that
watches the group's committed offsets from a client of its own.

Run as ``python -m test.consumer.grp_support BOOTSTRAP GROUP TOPIC STRATEGY
SESSION_MS HEARTBEAT_MS``, the module is that child consumer: it prints
one line per event on stdout (``A``/``R``/``L`` and partitions for the
listener calls, ``M partition offset`` for each record) and flushes after
every poll, so whatever it committed (auto-commit runs inside the next
``poll``) was reported before. The test kills it with SIGKILL: no
LeaveGroup, no final commit, sockets closed by the kernel — a crash.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from kafka import KafkaConsumer, KafkaProducer, errors
from kafka.consumer.group import CommitFailedError
from kafka.structs import TopicPartition
from test.support.waiting import wait_for  # also imported from here by the test_grp_* modules

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Recorder:
    """A rebalance listener that records its calls (thread-safe enough for reading from the test)."""

    def __init__(self) -> None:
        self.events: List[Tuple[str, Set[TopicPartition]]] = []

    def on_partitions_revoked(self, revoked: Set[TopicPartition]) -> None:
        self.events.append(("revoked", set(revoked)))

    def on_partitions_assigned(self, assigned: Set[TopicPartition]) -> None:
        self.events.append(("assigned", set(assigned)))

    def on_partitions_lost(self, lost: Set[TopicPartition]) -> None:
        self.events.append(("lost", set(lost)))

    def kinds(self) -> List[str]:
        """The kinds of the calls so far (``revoked``, ``assigned``, ``lost``), in order."""
        return [k for k, _ in self.events]


class SlowLeader:
    """An assignor wrapper that pauses 0.2 s before assigning.

    librdkafka's mock completes a generation as soon as the leader's
    SyncGroup arrives and refuses followers whose SyncGroup comes later
    (Kafka answers them), which costs one more rebalance. Letting the
    followers' SyncGroup go first keeps timings comparable between runs
    (test_group_mock_cluster.py uses it too).
    """

    def __init__(self, name: str) -> None:
        from kafka.consumer.group.assignors import lookup

        self.inner = lookup(name)
        self.name = self.inner.name
        self.protocol = self.inner.protocol

    def metadata(self, topics: Any, owned: Any) -> Any:
        return self.inner.metadata(topics, owned)

    def on_assignment(self, partitions: Any, generation: int) -> None:
        self.inner.on_assignment(partitions, generation)

    def assign(self, cluster: Any, members: Any) -> Any:
        time.sleep(0.2)
        return self.inner.assign(cluster, members)


class ProducerThread:
    """Writes records round-robin over ``partitions`` until stopped; remembers every acknowledged one."""

    def __init__(self, bootstrap: str, topic: str, partitions: int, rate: float = 200.0, **config: Any) -> None:
        config.setdefault("linger_ms", 5)
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, **config)
        self.topic = topic
        self.partitions = partitions
        self.interval = 1.0 / rate
        self.acked: Set[Tuple[int, int]] = set()  # (partition, offset)
        self.failed: List[BaseException] = []
        self.sent = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="grp-producer")
        self._thread.start()

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            partition = i % self.partitions
            try:
                future = self.producer.send(self.topic, value=b"v%d" % i, partition=partition)
            except Exception as exc:  # noqa: BLE001 - reported by the test
                self.failed.append(exc)
                time.sleep(0.1)
                continue
            future.add_callback(lambda md: self.acked.add((md.partition, md.offset)))
            future.add_errback(self.failed.append)
            self.sent += 1
            i += 1
            self._stop.wait(self.interval)  # the sending rate; stop() ends the wait

    def stop(self) -> None:
        """Stop sending and wait for every record to be acknowledged."""
        self._stop.set()
        self._thread.join(10)
        self.producer.flush(30)
        self.producer.close(10)


class ConsumerThread:
    """A KafkaConsumer in a group, polled by a thread of its own, recording what it consumed."""

    def __init__(self, bootstrap: str, group: str, topic: str, name: str = "c", **config: Any) -> None:
        self.listener = Recorder()
        config.setdefault("auto_offset_reset", "earliest")
        self.consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, **config)
        self.consumer.subscribe([topic], listener=self.listener)
        self.name = name
        self.consumed: List[Tuple[int, int]] = []  # (partition, offset), in order
        self.errors: List[BaseException] = []
        self.first_record_at: Optional[float] = None
        self.closed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="grp-consumer-%s" % name)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                batches = self.consumer.poll(timeout_ms=100)
            except Exception as exc:  # noqa: BLE001 - reported by the test
                self.errors.append(exc)
                time.sleep(0.1)
                continue
            for records in batches.values():
                if records and self.first_record_at is None:
                    self.first_record_at = time.monotonic()
                self.consumed.extend((r.partition, r.offset) for r in records)

    def _poll_once(self) -> None:
        for records in self.consumer.poll(timeout_ms=200).values():
            self.consumed.extend((r.partition, r.offset) for r in records)

    def assignment(self) -> Set[TopicPartition]:
        return set(self.consumer.assignment())

    def stable(self) -> bool:
        co = self.consumer._coordinator
        return co is not None and co.is_stable() and not co.need_rejoin()

    def stop(self) -> None:
        """Stop polling (the consumer stays open)."""
        self._stop.set()
        self._thread.join(15)
        assert not self._thread.is_alive(), "the poll loop of %s did not stop" % self.name

    def close(self, commit_timeout: float = 30.0, ends: Optional[Dict[int, int]] = None) -> None:
        """Stop polling, (catch up,) commit the positions, close.

        With ``ends`` (log end offset by partition) the consumer first polls
        until it has read its partitions to those ends. A commit refused
        because the group is rebalancing (the mock refuses commits as soon as
        a rebalance is pending, where Kafka accepts them from the current
        generation) is retried after polling. What those polls return is
        recorded, as a careful application would process it. With
        ``commit_timeout=0`` the consumer is just closed (its own final
        auto-commit is made, or logged as failed).
        """
        if self.closed:
            return
        self.stop()
        deadline = time.monotonic() + commit_timeout
        while ends and commit_timeout > 0 and time.monotonic() < deadline:
            try:
                if all(self.consumer.position(tp, timeout_ms=2000) >= ends.get(tp.partition, 0)
                       for tp in self.consumer.assignment()):
                    break
            except errors.KafkaError:
                pass
            self._poll_once()
        while commit_timeout > 0:
            try:
                self.consumer.commit(timeout_ms=10000)
                break
            except (errors.RebalanceInProgressError, CommitFailedError):
                if time.monotonic() > deadline:
                    raise
                self._poll_once()
        self.closed = True
        self.consumer.close(timeout_ms=10000)


class ChildConsumer:
    """A group member in a child process (``python -m test.consumer.grp_support``), to be SIGKILLed."""

    def __init__(self, bootstrap: str, group: str, topic: str, strategy: str, session_ms: int,
                 heartbeat_ms: int) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = REPO_ROOT + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "test.consumer.grp_support", bootstrap, group, topic, strategy,
             str(session_ms), str(heartbeat_ms)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO_ROOT, env=env)
        self.owned: Set[TopicPartition] = set()
        self.consumed: List[Tuple[int, int]] = []
        self.events: List[Tuple[str, Set[TopicPartition]]] = []
        self.topic = topic
        self._reader = threading.Thread(target=self._read, daemon=True, name="grp-child-reader")
        self._reader.start()
        self._stderr: List[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            parts = raw.decode().split()
            if not parts:
                continue
            kind, rest = parts[0], [int(x) for x in parts[1:]]
            if kind == "M":
                self.consumed.append((rest[0], rest[1]))
                continue
            tps = {TopicPartition(self.topic, p) for p in rest}
            self.events.append((kind, tps))
            if kind == "A":
                self.owned |= tps
            else:
                self.owned -= tps

    def assignment(self) -> Set[TopicPartition]:
        return set(self.owned)

    def kill(self) -> None:
        """SIGKILL: the member vanishes without LeaveGroup or a last commit."""
        self.proc.kill()
        self.proc.wait(10)
        self._reader.join(5)

    def stderr_tail(self) -> str:
        return b"".join(self._stderr)[-3000:].decode(errors="replace")


class CommitMonitor:
    """Reads the group's committed offsets over and over from a client of its own.

    A KafkaConsumer with the group's id that never subscribes, so it does
    not join; ``history[partition]`` is every committed offset seen, in order.
    """

    def __init__(self, bootstrap: str, group: str, partitions: Sequence[TopicPartition]) -> None:
        self.consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False,
                                      request_timeout_ms=10000)
        self.partitions = list(partitions)
        self.history: Dict[TopicPartition, List[int]] = {tp: [] for tp in self.partitions}
        self.errors: List[BaseException] = []
        self.rounds = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="grp-commit-monitor")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for tp in self.partitions:
                try:
                    offset = self.consumer.committed(tp)
                except Exception as exc:  # noqa: BLE001 - retriable trouble is expected with injected errors
                    self.errors.append(exc)
                    continue
                if offset is not None:
                    seen = self.history[tp]
                    if not seen or seen[-1] != offset:
                        seen.append(offset)
            self.rounds += 1
            self._stop.wait(0.1)

    def backwards(self) -> Dict[TopicPartition, List[int]]:
        """Partitions whose committed offset was ever seen to decrease, with their history."""
        return {tp: h for tp, h in self.history.items() if any(b < a for a, b in zip(h, h[1:]))}

    def close(self) -> None:
        self._stop.set()
        self._thread.join(15)
        self.consumer.close()


def settled(members: Sequence[Any], partitions: Set[TopicPartition]) -> bool:
    """Every partition owned by exactly one of ``members``, and the in-process ones stable."""
    owned = [tp for m in members for tp in m.assignment()]
    if len(owned) != len(set(owned)) or set(owned) != partitions:
        return False
    return all(m.stable() for m in members if isinstance(m, ConsumerThread))


def close_in_turn(members: List[ConsumerThread], partitions: Set[TopicPartition], ends: Dict[int, int],
                  timeout: float = 30) -> None:
    """Close members one by one, letting the rest take over (and settle) before the next closes.

    Each one reads its partitions to ``ends`` and commits before it closes
    (see :meth:`ConsumerThread.close`), so the group's offsets end at the
    log ends. (The mock refuses the commit a member makes as a rebalance
    starts, so a new owner may restart from an older commit and must catch
    up before it closes.)
    """
    while members:
        members.pop(0).close(ends=ends)
        if members:
            wait_for(lambda: settled(members, partitions), timeout, "the remaining members to settle")


def wait_for_final_commits(monitor: "CommitMonitor", topic: str, ends: Dict[int, int], timeout: float = 15) -> None:
    """Wait until the group's committed offset of every partition is its log end."""
    def last() -> Dict[int, Optional[int]]:
        return {p: (monitor.history[TopicPartition(topic, p)] or [None])[-1] for p in ends}
    try:
        wait_for(lambda: last() == ends, timeout, "the final commits")
    except AssertionError:
        raise AssertionError("committed offsets %s never reached the log ends %s (monitor errors: %s)"
                             % (last(), ends, monitor.errors[-3:])) from None


def shut_down(members: Sequence[Any], producer: "ProducerThread", monitor: "CommitMonitor") -> None:
    """The end of a test, passed or failed: close every member without committing, stop the rest.

    Closing is best effort (a member may already be closed or broken by
    the test's faults); the producer is stopped unless the test did.
    """
    for m in members:
        try:
            m.close(commit_timeout=0)
        except Exception:  # noqa: BLE001 - best effort
            pass
    if not producer._stop.is_set():
        producer.stop()
    monitor.close()


def end_offsets(acked: Set[Tuple[int, int]]) -> Dict[int, int]:
    """The log end offset of each partition, from acknowledged (partition, offset) pairs."""
    ends: Dict[int, int] = {}
    for p, o in acked:
        ends[p] = max(ends.get(p, 0), o + 1)
    return ends


def _child_main(argv: Sequence[str]) -> None:
    bootstrap, group, topic, strategy, session_ms, heartbeat_ms = argv
    out = sys.stdout

    class Listener:
        def on_partitions_assigned(self, tps: Set[TopicPartition]) -> None:
            out.write("A %s\n" % " ".join(str(tp.partition) for tp in sorted(tps)))

        def on_partitions_revoked(self, tps: Set[TopicPartition]) -> None:
            out.write("R %s\n" % " ".join(str(tp.partition) for tp in sorted(tps)))

        def on_partitions_lost(self, tps: Set[TopicPartition]) -> None:
            out.write("L %s\n" % " ".join(str(tp.partition) for tp in sorted(tps)))

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                             session_timeout_ms=int(session_ms), heartbeat_interval_ms=int(heartbeat_ms),
                             auto_commit_interval_ms=500, partition_assignment_strategy=[strategy])
    consumer.subscribe([topic], listener=Listener())
    while True:
        batches = consumer.poll(timeout_ms=100)
        for records in batches.values():
            out.write("".join("M %d %d\n" % (r.partition, r.offset) for r in records))
        out.flush()


if __name__ == "__main__":
    _child_main(sys.argv[1:])
