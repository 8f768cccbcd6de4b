"""Records/s of building and reading record batches: kafkawire vs kafka-python.

Usage::

    python benchmarks/records.py                 # our side on this interpreter
    python benchmarks/records.py --python pypy3  # our side on PyPy

Each side builds and reads a batch of 1,000 records with 100-byte values
(uncompressed, lz4, zstd) and reports the median of several timed runs.
Our side also reports ``columns``: the same batch built from a column of
timestamps and one of values (``RecordBatchBuilder.extend_values``), which
is how the producer encodes records without key and headers.

kafka-python imports as ``kafka`` too, so it is measured in a virtual
environment of its own, ``benchmarks/.venvs/kafka-python`` (created on first
use with ``pip install kafka-python lz4 zstandard``), by the helper
``benchmarks/_records_child.py``.  With ``--python`` pointing at another
interpreter, our side runs there, in ``benchmarks/.venvs/ours-<name>`` with
whichever of lz4 / zstandard / crc32c install for it; codecs that do not
install are reported as skipped.

kafka-python uses the ``crc32c`` package when it is installed, and a pure
Python CRC-32C otherwise; ``--kafka-python-extra crc32c`` measures it with
the package (in ``benchmarks/.venvs/kafka-python-crc32c``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Dict, Optional

from _venvs import HERE, ROOT, kafka_python_python, ours_python

CHILD = os.path.join(HERE, "_records_child.py")


def run_child(python: str, impl: str, args: argparse.Namespace) -> Dict:
    """Measure ``impl`` under ``python``, one fresh process per codec.

    Separate processes keep one codec's JIT traces and heap (PyPy) from
    colouring the next codec's figures.
    """
    env = dict(os.environ)
    cmd = [python]
    if impl == "kafka-python":
        cmd.append("-I")  # never import this repository's "kafka"
    else:
        env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    merged: Dict = {}
    for codec in args.codecs.split(","):
        options = {
            "--impl": impl,
            "--codecs": codec,
            "--records": args.records,
            "--value-size": args.value_size,
            "--repeat": args.repeat,
            "--min-time": args.min_time,
        }
        argv = cmd + [CHILD] + [str(x) for item in options.items() for x in item]
        out = subprocess.run(argv, env=env, cwd=HERE, check=True, stdout=subprocess.PIPE)
        result = json.loads(out.stdout)
        if not merged:
            merged = result
        else:
            merged["results"].update(result["results"])
            merged["skipped"].update(result["skipped"])
    return merged


def fmt_rate(rate: Optional[float]) -> str:
    return "-" if rate is None else "{:,.0f}".format(rate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--python",
        default=None,
        help="interpreter for our side (e.g. pypy3); default: this one",
    )
    parser.add_argument("--codecs", default="none,lz4,zstd")
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--value-size", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per figure")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed run")
    parser.add_argument("--no-kafka-python", action="store_true", help="measure our side only")
    parser.add_argument(
        "--kafka-python-extra",
        action="append",
        default=[],
        metavar="PKG",
        help="also install PKG for kafka-python (e.g. crc32c, which it uses when present)",
    )
    args = parser.parse_args()

    ours = run_child(ours_python(args.python) if args.python else sys.executable, "ours", args)
    theirs = None
    if not args.no_kafka_python:
        # kafka-python runs on CPython (the interpreter running this script,
        # or python3 when this script itself runs on PyPy).
        theirs = run_child(kafka_python_python(args.kafka_python_extra), "kafka-python", args)

    print(
        "%d records of %d-byte values per batch; median of %d runs"
        % (args.records, args.value_size, args.repeat)
    )
    print("ours:         %s (CRC-32C: %s)" % (ours["python"], ours.get("crc32c", "?")))
    if theirs:
        extra = " + " + ", ".join(args.kafka_python_extra) if args.kafka_python_extra else ""
        print(
            "kafka-python: %s, kafka-python %s%s" % (theirs["python"], theirs.get("version"), extra)
        )
    print()
    header = "%-7s %-7s %16s %16s %8s" % ("codec", "op", "ours rec/s", "kafka-python", "ratio")
    print(header)
    print("-" * len(header))
    for codec in args.codecs.split(","):
        for op in ("build", "columns", "read"):
            mine = ours["results"].get(codec, {}).get(op)
            # "columns" (ours only: the producer's path for records without key
            # and headers) is compared with kafka-python's build.
            other = theirs["results"].get(codec, {}).get("build" if op == "columns" else op) if theirs else None
            ratio = "%.2fx" % (mine / other) if mine and other else "-"
            print("%-7s %-7s %16s %16s %8s" % (codec, op, fmt_rate(mine), fmt_rate(other), ratio))
    for side in filter(None, (ours, theirs)):
        for codec, reason in side["skipped"].items():
            print("note: %s skipped %s (%s)" % (side["impl"], codec, reason))


if __name__ == "__main__":
    main()
