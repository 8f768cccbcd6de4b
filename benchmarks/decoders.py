"""Worst-case time of the decoders on malformed input.

Usage::

    python benchmarks/decoders.py                 # every API and record format
    python benchmarks/decoders.py --inputs 2000   # more random inputs per decoder

The fuzz tests (``test/protocol/test_fuzz.py``, ``test/record/test_fuzz.py``)
check that malformed input raises only our own errors; how long one input
takes is measured here instead, where a loaded machine cannot fail a build.
For every response decoder (each API at each version) and for the record
batch reader, this feeds random bytes, every truncation of a valid encoding
and single bit flips of it, and reports the slowest input in milliseconds.
A decoder whose worst case is far above its neighbours' does work that grows
faster than its input: that is what to look at.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Callable, Iterator, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kafka.errors import KafkaError  # noqa: E402
from kafka.protocol.apis import ALL_APIS  # noqa: E402
from kafka.record import MemoryRecords, RecordBatchBuilder  # noqa: E402


def damaged(valid: bytes, rng: random.Random, flips: int) -> Iterator[bytes]:
    """Every truncation of ``valid``, then ``flips`` single-bit flips of it."""
    for cut in range(len(valid)):
        yield valid[:cut]
    for _ in range(flips if valid else 0):
        changed = bytearray(valid)
        changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
        yield bytes(changed)


def worst(decode: Callable[[bytes], object], inputs: Iterator[bytes]) -> Tuple[float, int]:
    """The slowest input's time in seconds and how many inputs there were."""
    slowest, count = 0.0, 0
    for data in inputs:
        started = time.perf_counter()
        try:
            decode(data)
        except KafkaError:
            pass
        slowest = max(slowest, time.perf_counter() - started)
        count += 1
    return slowest, count


def random_inputs(rng: random.Random, count: int, max_size: int) -> Iterator[bytes]:
    for _ in range(count):
        yield bytes(rng.getrandbits(8) for _ in range(rng.randrange(max_size)))


def response_rows(args: argparse.Namespace, rng: random.Random) -> List[Tuple[str, float, int]]:
    rows = []
    for api in ALL_APIS:
        for version in range(api.min_version, api.max_version + 1):
            valid = api.encode_response({}, version)

            def decode(data: bytes, api=api, version=version) -> object:
                return api.decode_response(data, version)

            inputs = list(random_inputs(rng, args.inputs, 200)) + list(damaged(valid, rng, args.flips))
            slowest, count = worst(decode, iter(inputs))
            rows.append(("%s v%d" % (api.name, version), slowest, count))
    return rows


def record_rows(args: argparse.Namespace, rng: random.Random) -> List[Tuple[str, float, int]]:
    rows = []
    for codec in ("none", "gzip"):
        builder = RecordBatchBuilder(compression_type=codec)
        for i in range(20):
            builder.append(i, 1_700_000_000_000 + i, b"k%d" % i, b"value %d" % i, [("h", b"v")])
        valid = bytes(builder.build())

        def decode(data: bytes) -> object:
            return [r.value for batch in MemoryRecords(data, check_crcs=True, max_output=1 << 20)
                    for r in batch]

        inputs = list(random_inputs(rng, args.inputs, 400)) + list(damaged(valid, rng, args.flips))
        slowest, count = worst(decode, iter(inputs))
        rows.append(("record batch v2 (%s)" % codec, slowest, count))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=200, help="random inputs per decoder (default 200)")
    parser.add_argument("--flips", type=int, default=100, help="bit flips per decoder (default 100)")
    parser.add_argument("--top", type=int, default=15, help="decoders to list, slowest first (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = response_rows(args, rng) + record_rows(args, rng)
    rows.sort(key=lambda row: row[1], reverse=True)
    print("%-40s %12s %8s" % ("decoder", "worst ms", "inputs"))
    for name, slowest, count in rows[:args.top]:
        print("%-40s %12.3f %8d" % (name, slowest * 1000, count))
    total = sum(count for _, _, count in rows)
    print("%d decoders, %d inputs; the slowest single input took %.3f ms"
          % (len(rows), total, rows[0][1] * 1000))


if __name__ == "__main__":
    main()
