"""CPU and garbage-collection time per record of ``KafkaConsumer.poll`` by records per poll.

    python benchmarks/poll_collector.py                       # 300,000 small records, 500 and 10,000 per poll
    python benchmarks/poll_collector.py --poll-records 500,2000,10000 --repeat 3

Fills one partition of the embedded broker with records of the ``small``
shape (values 50-150 B, keys 8-36 B, 0-3 headers), written by confluent-kafka
in batches of up to 1 MB as the consumer benchmark does, then reads them in
this process with a loop that rebinds its variable at each poll, as
applications do. For each poll size it reports the consumer's CPU per record
and the time CPython's cyclic garbage collector spent (``gc.callbacks``),
with the number of passes by generation: the figure behind "The records and
CPython's garbage collector" in ``docs/consumer.rst``.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition  # noqa: E402
from kafka.admin import NewTopic  # noqa: E402
from kafka.testing import EmbeddedBroker  # noqa: E402

POOL = 4096
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


def small_shape(seed: int = 7) -> Tuple[List[bytes], List[bytes], List[Optional[List[Tuple[str, bytes]]]]]:
    rnd = random.Random(seed)
    values = [rnd.randbytes(rnd.randint(50, 150)) for _ in range(POOL)]
    keys = [rnd.randbytes(rnd.randint(8, 36)) for _ in range(POOL)]
    headers = [[("h%d" % j, rnd.randbytes(rnd.randint(8, 32))) for j in range(rnd.randint(0, 3))] or None
               for _ in range(POOL)]
    return values, keys, headers


def fill(bootstrap: str, records: int) -> None:
    import confluent_kafka

    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(TOPIC, 1, 1)])
    finally:
        admin.close()
    values, keys, headers = small_shape()
    producer = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.size": 1_000_000,
                                         "acks": 1})
    for i in range(records):
        while True:
            try:
                producer.produce(TOPIC, values[i % POOL], keys[i % POOL], partition=0, headers=headers[i % POOL])
                break
            except BufferError:
                producer.poll(0.005)
        if not i % 1000:
            producer.poll(0)
    if producer.flush(300):
        raise SystemExit("confluent-kafka did not deliver every record")


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
