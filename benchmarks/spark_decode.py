"""CPU per record of the Spark reader's columnar decoder, by record shape, against the record-by-record decoder.

    python benchmarks/spark_decode.py
    python benchmarks/spark_decode.py --records 20000 --repeat 5

Each shape is one uncompressed v2 batch built in memory; no broker, no Spark.
For every shape this reports the process CPU time per record (best of
``--repeat`` rounds) of :func:`kafka.spark.columnar_decode.decode_batch`
(records located and fields decoded with numpy, keys and values gathered
with numpy or Arrow)
and of :mod:`kafka.record`'s decoder turned into the same columns
(:meth:`RecordColumns.from_records`), and their ratio. Fixed-size records
take the strided paths; records of varying length are located one by one
and their keys and values gathered by index or through Arrow's binary views.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Any, Callable, Dict, Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from kafka.record import MemoryRecords, RecordBatchBuilder  # noqa: E402
from kafka.spark.columnar_decode import RecordColumns, decode_batch  # noqa: E402

Sized = Callable[[random.Random, int], Optional[bytes]]


def _batch(count: int, key: Sized, value: Sized) -> Any:
    rng = random.Random(count)
    builder = RecordBatchBuilder(base_offset=0)
    for i in range(count):
        builder.append(i, 1_700_000_000_000 + i, key(rng, i), value(rng, i))
    return next(iter(MemoryRecords(bytes(builder.build()))))


SHAPES: Dict[str, Any] = {
    "100-byte values, no keys": (lambda r, i: None, lambda r, i: b"x" * 100),
    "100-byte values, keys of 6-7 bytes": (lambda r, i: b"user-%d" % (i % 40), lambda r, i: b"x" * 100),
    "values of 10-60 bytes, keys": (lambda r, i: b"user-%d" % (i % 40), lambda r, i: bytes(r.randrange(10, 60))),
    "values of 50-150 bytes, keys": (lambda r, i: b"user-%d" % (i % 40), lambda r, i: bytes(r.randrange(50, 150))),
    "values of 50-150 bytes, keys of 8-36 bytes": (lambda r, i: bytes(r.randrange(8, 37)),
                                                   lambda r, i: bytes(r.randrange(50, 150))),
    "values of 200-2000 bytes, keys": (lambda r, i: b"user-%d" % (i % 40),
                                       lambda r, i: bytes(r.randrange(200, 2000))),
}


def _cpu_per_record(decode: Callable[[], Any], count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        decode()
        best = min(best, time.process_time() - started)
    return best / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000, help="records per batch (default 10000)")
    parser.add_argument("--repeat", type=int, default=15, help="rounds per decoder, the best is kept (default 15)")
    args = parser.parse_args()
    # glibc serves large blocks with fresh pages from the kernel until a large
    # block is freed; then it keeps them. Faulting in new pages for every
    # output array would add about 0.1 us per record, more or less depending on
    # what ran before: free one large block first, so that every run and every
    # decoder is measured in the same state.
    np.ones(16 << 20, np.uint8)  # made and freed at once
    print("%-44s %14s %14s %7s" % ("shape", "columnar us", "per record us", "ratio"))
    for name, (key, value) in SHAPES.items():
        batch = _batch(args.records, key, value)
        assert decode_batch(batch) is not None, "the columnar decoder left %s to kafka.record" % name
        columnar = _cpu_per_record(lambda: decode_batch(batch), args.records, args.repeat)
        by_record = _cpu_per_record(lambda: RecordColumns.from_records(list(batch)), args.records, args.repeat)
        print("%-44s %14.3f %14.3f %6.1fx" % (name, columnar, by_record, by_record / columnar))


if __name__ == "__main__":
    main()
