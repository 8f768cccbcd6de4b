"""How long a new consumer takes to its first record, in a new group and without one.

Usage::

    python benchmarks/group_join.py                       # 6 s session timeout, 3 runs
    python benchmarks/group_join.py --session-ms 6000,45000 --repeat 5
    python benchmarks/group_join.py --bootstrap-server HOST:PORT

The tests (``test/consumer/test_grp_first_record.py``,
``test/consumer/test_group_broker.py``) check that a new consumer joins and
gets its first record; how long that takes is measured here, where a loaded
machine cannot fail a build. Against one embedded Tansu broker (started by
this script unless ``--bootstrap-server`` is given), with a two-partition
topic of 20 records, each run creates a KafkaConsumer and polls until the
first record, and the time is split at the moments the group module logs:

- ``JoinGroup``: from creating the consumer to the first JoinGroup sent
  (bootstrap, FindCoordinator);
- ``held``: from the last JoinGroup sent to its answer (Tansu holds it for
  half the session timeout: 3 s at 6 s, about 23 s at the default 45 s);
- ``after``: from the join to the first record (SyncGroup, committed
  offsets, ListOffsets, the first Fetch);
- ``total``, and the number of JoinGroups sent (two with a
  MEMBER_ID_REQUIRED round).

The ``manual`` row is a consumer with assign() and no group. Every row is
the median of ``--repeat`` runs, in seconds. Everything but ``held`` is the
client's own work and takes well under a second on an idle machine.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
import uuid
from typing import Any, Dict, List, Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kafka.admin import KafkaAdminClient, NewTopic  # noqa: E402
from kafka.consumer import KafkaConsumer  # noqa: E402
from kafka.producer import KafkaProducer  # noqa: E402
from kafka.structs import TopicPartition  # noqa: E402

GROUP_LOGGER = "kafka.consumer.group.classic"


class JoinClock(logging.Handler):
    """Notes when JoinGroups were sent and when the member joined a generation (from the group module's log)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.join_sent_at: List[float] = []
        self.joined_at: Optional[float] = None

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "JoinGroup as" in message:
            self.join_sent_at.append(time.monotonic())
        elif "joined generation" in message and self.joined_at is None:
            self.joined_at = time.monotonic()


def prepare_topic(bootstrap: str) -> str:
    """A new two-partition topic holding 20 records; returns its name."""
    name = "join-bench-%s" % uuid.uuid4().hex[:8]
    with KafkaAdminClient(bootstrap_servers=bootstrap) as admin:
        admin.create_topics([NewTopic(name, num_partitions=2, replication_factor=1)])
    with KafkaProducer(bootstrap_servers=bootstrap) as producer:
        for i in range(20):
            producer.send(name, value=b"r%d" % i, partition=i % 2)
        producer.flush(30)
    return name


def poll_until_a_record(consumer: KafkaConsumer, limit: float) -> None:
    deadline = time.monotonic() + limit
    while not consumer.poll(timeout_ms=100):
        if time.monotonic() > deadline:
            raise RuntimeError("no record within %.0f s" % limit)


def group_run(bootstrap: str, topic: str, session_ms: int) -> Dict[str, float]:
    """One new consumer in a new group: the split of the time to its first record."""
    clock = JoinClock()
    log = logging.getLogger(GROUP_LOGGER)
    log.setLevel(logging.DEBUG)
    log.addHandler(clock)
    started = time.monotonic()
    consumer = KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                             group_id="join-bench-%s" % uuid.uuid4().hex[:8], session_timeout_ms=session_ms,
                             heartbeat_interval_ms=min(3000, session_ms // 3))
    try:
        poll_until_a_record(consumer, session_ms / 1000.0 + 60)
        done = time.monotonic()
    finally:
        log.removeHandler(clock)
        consumer.close()
    if clock.joined_at is None or not clock.join_sent_at:
        raise RuntimeError("the group module logged no join")
    return {"JoinGroup": clock.join_sent_at[0] - started, "held": clock.joined_at - clock.join_sent_at[-1],
            "after": done - clock.joined_at, "total": done - started, "joins": float(len(clock.join_sent_at))}


def manual_run(bootstrap: str, topic: str) -> Dict[str, float]:
    """One consumer with assign() and no group: the time to its first record."""
    started = time.monotonic()
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest")
    try:
        consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        consumer.seek_to_beginning()
        poll_until_a_record(consumer, 60)
        return {"total": time.monotonic() - started}
    finally:
        consumer.close()


COLUMNS = ("JoinGroup", "held", "after", "total", "joins")


def print_row(label: str, runs: List[Dict[str, float]]) -> None:
    cells = []
    for column in COLUMNS:
        values = [run[column] for run in runs if column in run]
        cells.append("%10s" % ("-" if not values else "%.3f" % statistics.median(values)))
    print("%-16s %s" % (label, " ".join(cells)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bootstrap-server", default=None,
                        help="use this broker (host:port) instead of starting an embedded one")
    parser.add_argument("--session-ms", default="6000", help="session timeouts to try, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row")
    args = parser.parse_args()

    broker: Any = None
    if args.bootstrap_server:
        bootstrap = args.bootstrap_server
    else:
        from kafka.testing import EmbeddedBroker

        broker = EmbeddedBroker().start()
        bootstrap = broker.bootstrap_servers
    try:
        topic = prepare_topic(bootstrap)
        print("%-16s %s   (seconds, median of %d runs)" % ("", " ".join("%10s" % c for c in COLUMNS), args.repeat))
        print_row("manual", [manual_run(bootstrap, topic) for _ in range(args.repeat)])
        for session_ms in (int(s) for s in args.session_ms.split(",")):
            print_row("group, %d s" % (session_ms // 1000),
                      [group_run(bootstrap, topic, session_ms) for _ in range(args.repeat)])
    finally:
        if broker is not None:
            broker.stop()


if __name__ == "__main__":
    main()
