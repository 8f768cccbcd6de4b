"""CPU and garbage-collection time per record of ``KafkaConsumer.poll`` by records per poll.

    python benchmarks/poll_collector.py                       # 300,000 small records, 500 and 10,000 per poll
    python benchmarks/poll_collector.py --poll-records 500,2000,10000 --repeat 3

Fills one partition of the embedded broker with records of the ``small``
shape (values 50-150 B, keys 8-36 B, 0-3 headers), written by confluent-kafka
in batches of up to 1 MB with the consumer benchmark's own shape and filler,
then reads them in this process with a loop that rebinds its variable at
each poll, as applications do. For each poll size it reports the consumer's CPU per record
and the time CPython's cyclic garbage collector spent (``gc.callbacks``),
with the number of passes by generation: the figure behind "The records and
CPython's garbage collector" in ``docs/consumer.rst``.
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import Dict

from consumer import fill_confluent  # also puts the repository first on sys.path
from _producer_child import make_shape

from kafka import KafkaConsumer, TopicPartition  # noqa: E402
from kafka.conn.blocking import BlockingConnection  # noqa: E402
from kafka.direct import create_topic  # noqa: E402
from kafka.testing import EmbeddedBroker  # noqa: E402

TOPIC = "poll-collector"


class CollectorClock:
    """Time spent in the collector's passes, and their number by generation, while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.passes: Dict[int, int] = {}
        self._started = 0.0

    def __enter__(self) -> "CollectorClock":
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._seen)

    def _seen(self, phase: str, info: Dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.seconds += time.perf_counter() - self._started
        generation = info["generation"]
        self.passes[generation] = self.passes.get(generation, 0) + 1


def fill(bootstrap: str, records: int) -> None:
    """The topic, filled as ``benchmarks/consumer.py`` fills its ``small`` topics (its shape, its filler)."""
    host, port = bootstrap.rsplit(":", 1)
    with BlockingConnection(host, int(port), timeout=30) as conn:
        create_topic(conn, TOPIC)
    fill_confluent(bootstrap, TOPIC, "none", records, make_shape("small", 100))


def read_all(bootstrap: str, records: int, poll_records: int) -> Dict[str, object]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, max_poll_records=poll_records)
    try:
        tp = TopicPartition(TOPIC, 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        batch = consumer.poll(timeout_ms=10_000)  # connects and fetches: not timed
        got = first = sum(len(r) for r in batch.values())
        with CollectorClock() as clock:
            started, cpu_started = time.perf_counter(), time.process_time()
            while got < records:
                batch = consumer.poll(timeout_ms=1000)
                got += sum(len(r) for r in batch.values())
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    finally:
        consumer.close()
    timed = got - first
    return {"rate": timed / wall, "cpu_us": 1e6 * cpu / timed, "gc_us": 1e6 * clock.seconds / timed,
            "passes": dict(sorted(clock.passes.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=300_000)
    parser.add_argument("--poll-records", default="500,10000", help="comma-separated max_poll_records values")
    parser.add_argument("--repeat", type=int, default=2, help="rounds over all poll sizes")
    args = parser.parse_args()
    sizes = [int(s) for s in args.poll_records.split(",") if s]
    with EmbeddedBroker() as broker:
        fill(broker.bootstrap_servers, args.records)
        for round_ in range(1, args.repeat + 1):
            for size in sizes:
                r = read_all(broker.bootstrap_servers, args.records, size)
                print("round %d, %6d per poll: %9.0f records/s, CPU %.2f us per record, collector %.2f us per "
                      "record, passes by generation %s" % (round_, size, r["rate"], r["cpu_us"], r["gc_us"],
                                                           r["passes"]), flush=True)


if __name__ == "__main__":
    main()
