"""Measurement child of ``benchmarks/records.py``; not meant to be run by hand.

Runs in the interpreter under test and prints one JSON object: for each
codec, the median records/s of building and of reading a batch.  ``--impl
ours`` measures ``kafka.record`` from this repository (put on ``PYTHONPATH``
by the parent); ``--impl kafka-python`` measures kafka-python's
``DefaultRecordBatchBuilder`` / ``DefaultRecordBatch`` and must run in
kafka-python's own environment with ``python -I`` so that its ``kafka``
package is the one imported.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time

CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
TIMESTAMP = 1700000000000
_FILLER = (
    b"lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
    b"tempor incididunt ut labore et dolore magna aliqua"
)


def make_values(count: int, size: int) -> list:
    """Deterministic, mildly compressible values, identical for both sides."""
    filler = _FILLER * (size // len(_FILLER) + 1)
    return [(b"record-%08d:" % i + filler)[:size] for i in range(count)]


def ours(codec: str, values: list):
    from kafka.record.batch import RecordBatch, RecordBatchBuilder

    def build() -> bytes:
        builder = RecordBatchBuilder(compression_type=codec)
        append = builder.append
        for i, value in enumerate(values):
            append(i, TIMESTAMP + (i >> 7), None, value)
        return builder.build()

    stamps = [TIMESTAMP + (i >> 7) for i in range(len(values))]

    def build_columns() -> bytes:
        # The producer's path for records without key and headers: a batch keeps
        # them as a timestamp and a value column and encodes both at once.
        builder = RecordBatchBuilder(compression_type=codec)
        builder.extend_values(stamps, values)
        return builder.build()

    def read(data: bytes) -> int:
        n = 0
        for record in RecordBatch(data):
            value = record.value  # noqa: F841 - touch the field, as a consumer does
            n += 1
        return n

    return build, read, build_columns


def theirs(codec: str, values: list):
    from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

    cid = CODEC_IDS[codec]

    def build() -> bytes:
        builder = DefaultRecordBatchBuilder(
            magic=2,
            compression_type=cid,
            is_transactional=False,
            producer_id=-1,
            producer_epoch=-1,
            base_sequence=-1,
            batch_size=1 << 30,
        )
        append = builder.append
        for i, value in enumerate(values):
            append(i, timestamp=TIMESTAMP + (i >> 7), key=None, value=value, headers=[])
        return bytes(builder.build())

    def read(data: bytes) -> int:
        n = 0
        for record in DefaultRecordBatch(data):
            value = record.value  # noqa: F841
            n += 1
        return n

    return build, read, None


def measure(fn, records: int, repeat: int, min_time: float) -> float:
    """Median records/s over ``repeat`` timed runs of ``fn``."""
    loops = 1
    while True:  # calibrate: each timed run lasts at least min_time
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            break
        loops *= 2
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        rates.append(records * loops / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--impl", choices=("ours", "kafka-python"), required=True)
    parser.add_argument("--codecs", default="none,lz4,zstd")
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--value-size", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()

    values = make_values(args.records, args.value_size)
    factory = ours if args.impl == "ours" else theirs
    result = {
        "impl": args.impl,
        "python": "%s %s" % (platform.python_implementation(), platform.python_version()),
        "results": {},
        "skipped": {},
    }
    try:
        if args.impl == "ours":
            from kafka.record import crc

            result["crc32c"] = "crc32c package" if crc.CRC32C_ACCELERATED else "pure Python"
        else:
            import kafka

            result["version"] = getattr(kafka, "__version__", "?")
    except ImportError:  # pragma: no cover
        pass
    for codec in args.codecs.split(","):
        try:
            build, read, build_columns = factory(codec, values)
            data = build()
            if read(data) != args.records:
                raise RuntimeError("read back a wrong number of records")
            if build_columns is not None and build_columns() != data:
                raise RuntimeError("the column builder's batch differs from the record builder's")
        except Exception as exc:  # codec missing in this environment, etc.
            result["skipped"][codec] = "%s: %s" % (type(exc).__name__, exc)
            continue
        result["results"][codec] = {
            "build": measure(build, args.records, args.repeat, args.min_time),
            "read": measure(
                lambda read=read, data=data: read(data), args.records, args.repeat, args.min_time
            ),
            "bytes": len(data),
        }
        if build_columns is not None:
            result["results"][codec]["columns"] = measure(build_columns, args.records, args.repeat, args.min_time)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
