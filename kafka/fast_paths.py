"""Which interpreter runs us, and which fast paths are on: decided once, here.

A *fast path* is code that exists only for speed beside a plain reference
implementation that gives the same results: CPython gains from C-level
iteration (strided slices, ``struct``, ``map``, big-integer lanes), PyPy's
JIT from plain loops and its own builders. Each one is listed in
:data:`FAST_PATHS` with the interpreter it is for, the module that holds
it, what it replaces and the test that checks it against its reference
(``docs/fast_paths.rst`` is the same table for readers).

The modules read their switch from here when they run (``fast_paths.NAME``),
or, where a choice is made once at import, through :func:`on_switch`.
Setting the environment variable ``KAFKAWIRE_NO_FAST_PATHS=1`` before the
package is imported turns every fast path off: each module then runs its
reference implementation. Tests turn single paths on or off with
:func:`override`.

Whether a C library (``crc32c``, the compression codecs) is used is not a
fast path: those are optional dependencies detected where they are used.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Callable, Dict, Iterator, List, NamedTuple

__all__ = ["INTERPRETER", "CPYTHON", "PYPY", "NO_FAST_PATHS_ENV", "DISABLED", "FastPath", "FAST_PATHS",
           "enabled", "on_switch", "override"]

#: ``sys.implementation.name``: ``"cpython"`` or ``"pypy"`` (others run the reference code).
INTERPRETER: str = sys.implementation.name
CPYTHON: bool = INTERPRETER == "cpython"
PYPY: bool = INTERPRETER == "pypy"

#: The environment variable that turns every fast path off when set to anything but "" or "0".
NO_FAST_PATHS_ENV = "KAFKAWIRE_NO_FAST_PATHS"
DISABLED: bool = os.environ.get(NO_FAST_PATHS_ENV, "") not in ("", "0")


class FastPath(NamedTuple):
    """One fast path: where it runs, what it replaces, and what checks it."""

    interpreter: str  # "cpython", "pypy", or "any"
    module: str  # the modules that read the switch (", " between them)
    replaces: str  # the reference implementation it stands in for
    test: str  # the test file that compares the two


#: Every fast path by the name of its switch (an attribute of this module).
FAST_PATHS: Dict[str, FastPath] = {
    "UNIFORM_RUNS": FastPath(
        "cpython", "kafka.record.record_reader",
        "RecordReader's record-by-record decoding (kafka.record.record_reader.decode_each)",
        "test/record/test_record_reader.py"),
    "CRC32C_TABLES": FastPath(
        "cpython", "kafka.record.crc",
        "the byte-at-a-time table loop of crc32c_pure (_crc32c_loop)",
        "test/record/test_crc.py"),
    "BYTES_BUILDER": FastPath(
        "pypy", "kafka.record.batch",
        "encoding a batch's records into a list joined at the end (join_records)",
        "test/record/test_record_encoding.py"),
    "MURMUR2_LANES": FastPath(
        "cpython", "kafka.murmur2",
        "murmur2_plain, the block-by-block loop over one key",
        "test/test_murmur2.py"),
    "MURMUR2_KEY_LANES": FastPath(
        "cpython", "kafka.murmur2",
        "murmur2_partition of each key in turn (murmur2_partitions of many keys)",
        "test/test_murmur2.py"),
    "COMPACT_FUTURES": FastPath(
        "pypy", "kafka.producer.batch, kafka.producer.accumulator",
        "a full FutureRecordMetadata per record without key and headers (ValueRecordFuture)",
        "test/producer/test_value_columns.py"),
    "PLAIN_LOOPS": FastPath(
        "pypy", "kafka.producer.bulk_runs, kafka.producer.held",
        "C-level iteration (accumulate, sorted, map(setattr)) over a send_batch's columns",
        "test/producer/test_bulk_runs.py"),
    "ACCUMULATOR_RLOCK": FastPath(
        "pypy", "kafka.producer.accumulator",
        "a threading.Lock as the accumulator's lock",
        "test/producer/test_accumulator_lock.py"),
    "GC_PAUSE": FastPath(
        "cpython", "kafka.gc_pause",
        "polling with the cyclic garbage collector left as it is",
        "test/consumer/test_gc_pause.py"),
    "SPARK_ENCODED_WRITE": FastPath(
        "any", "kafka.spark.worker",
        "KafkaProducer.send_batch of each Arrow batch's rows as Python bytes (the fast code: "
        "kafka.spark.encoded_write)",
        "test/spark/test_encoded_write.py"),
}


def _decide(name: str) -> bool:
    """Whether fast path ``name`` is on here: its interpreter runs us and the switch is not off."""
    where = FAST_PATHS[name].interpreter
    return not DISABLED and where in ("any", INTERPRETER)


UNIFORM_RUNS: bool = _decide("UNIFORM_RUNS")
CRC32C_TABLES: bool = _decide("CRC32C_TABLES")
BYTES_BUILDER: bool = _decide("BYTES_BUILDER")
MURMUR2_LANES: bool = _decide("MURMUR2_LANES")
MURMUR2_KEY_LANES: bool = _decide("MURMUR2_KEY_LANES")
COMPACT_FUTURES: bool = _decide("COMPACT_FUTURES")
PLAIN_LOOPS: bool = _decide("PLAIN_LOOPS")
ACCUMULATOR_RLOCK: bool = _decide("ACCUMULATOR_RLOCK")
GC_PAUSE: bool = _decide("GC_PAUSE")
SPARK_ENCODED_WRITE: bool = _decide("SPARK_ENCODED_WRITE")

_followers: List[Callable[[], None]] = []


def enabled() -> Dict[str, bool]:
    """Each fast path's switch as it stands now."""
    this = sys.modules[__name__]
    return {name: getattr(this, name) for name in FAST_PATHS}


def on_switch(follow: Callable[[], None]) -> None:
    """Call ``follow`` now and whenever :func:`override` changes a switch.

    For modules that choose an implementation once (a function bound to a
    name, a module-level copy of a switch kept under an older public name)
    instead of reading the switch on every call.
    """
    _followers.append(follow)
    follow()


@contextlib.contextmanager
def override(**switches: bool) -> Iterator[None]:
    """Set the named switches (``override(COMPACT_FUTURES=True)``) for the ``with`` block.

    Meant for tests: a path forced on runs on either interpreter (a few rely
    on CPython's ``gc`` functions). The previous values come back afterwards.
    """
    unknown = set(switches) - set(FAST_PATHS)
    if unknown:
        raise ValueError("no fast path named %s" % ", ".join(sorted(unknown)))
    this = sys.modules[__name__]
    saved = {name: getattr(this, name) for name in switches}
    try:
        _apply(switches)
        yield
    finally:
        _apply(saved)


def _apply(switches: Dict[str, bool]) -> None:
    this = sys.modules[__name__]
    for name, value in switches.items():
        setattr(this, name, bool(value))
    for follow in _followers:
        follow()
