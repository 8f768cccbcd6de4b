"""Helpers shared by the benchmark scripts (the parent side; the children stay self-contained).

The children run in other virtual environments, some with ``python -I``, so
they import nothing from this folder."""

from __future__ import annotations

import statistics
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from _producer_child import WORKLOADS, Shape, make_shape


def parse_records(spec: Optional[str], sizes: List[int], defaults: Dict[int, int], cap: int) -> Dict[int, int]:
    """``--records``: one count for every value size, or ``SIZE:COUNT,...``.

    Sizes given neither way take ``defaults``, else about 100 MB worth of
    values, between 10,000 and ``cap`` records.
    """
    given: Dict[int, int] = {}
    single = None
    if spec:
        if ":" in spec:
            for item in spec.split(","):
                size, count = item.split(":")
                given[int(size)] = int(count)
        else:
            single = int(spec)
    counts = {}
    for size in sizes:
        if single is not None:
            counts[size] = single
        elif size in given:
            counts[size] = given[size]
        elif size in defaults:
            counts[size] = defaults[size]
        else:
            counts[size] = min(cap, max(10_000, 100_000 * 1024 // size))
    return counts


def describe(exc: BaseException) -> str:
    """``exc`` as one line that names its type."""
    text = str(exc) or "(no message)"
    name = type(exc).__name__
    return text if text.startswith(name) else "%s: %s" % (name, text)


def delete_topic(conn: Any, name: str, topic_id: Any) -> None:
    """Ask the broker behind ``conn`` (a ``BlockingConnection``) to delete ``name``; the answer is not checked."""
    # Imported here: the scripts put the checkout on sys.path before importing kafka.
    from kafka.protocol.apis import DELETE_TOPICS

    request = DELETE_TOPICS.Request(
        topics=[DELETE_TOPICS.Request.DeleteTopicState(name=name, topic_id=topic_id)],
        topic_names=[name],
        timeout_ms=30000,
    )
    conn.request(DELETE_TOPICS, request)


def fmt(value: Optional[float], pattern: str) -> str:
    """``pattern`` filled with ``value``, or ``-`` when there is none."""
    return "-" if value is None else pattern.format(value)


class DataSet(NamedTuple):
    """One topic's records: a fixed value size or a realistic workload."""

    label: str  # "100" (bytes, workload fixed) or the workload's name
    workload: str
    size: int  # value bytes of fixed, else 0
    shape: Shape
    records: int
    mean: float  # mean value bytes, for MB/s


WORKLOAD_TEXT = {
    "small": "values 50-150 B (uniform), keys 8-36 B, 0-3 headers (8-32 B values)",
    "large": "values 200-2,000 B (uniform), keys 8-36 B, 0-3 headers (8-32 B values)",
    "keyed": "values 50-150 B (uniform), keys 8-36 B, no headers",
    "values": "values 50-150 B (uniform), null keys, no headers",
    "headers": "values 50-150 B (uniform), null keys, 0-3 headers (8-32 B values)",
}


def parse_workloads(text: str) -> List[str]:
    """``--workload``: comma-separated names of ``_producer_child.WORKLOADS``."""
    workloads = [w.strip() for w in text.split(",") if w.strip()]
    for workload in workloads:
        if workload not in WORKLOADS:
            raise SystemExit("unknown workload %r (choose from %s)" % (workload, ", ".join(WORKLOADS)))
    return workloads


WORKLOAD_HELP = ("comma-separated record shapes: fixed (values of --sizes, null keys, no headers), small (values "
                 "50-150 B, keys 8-36 B, 0-3 headers), large (values 200-2,000 B, keys and headers as small), "
                 "keyed (values and keys as small, no headers), values (values as small, null keys, no "
                 "headers), headers (values and headers as small, null keys); default fixed")


def plan_data(records: Optional[str], sizes: List[int], workloads: List[str], defaults: Dict[int, int], cap: int,
              workload_records: Dict[str, int], spread: float = 0.0) -> List[DataSet]:
    """The data sets of ``--workload``: one per ``--sizes`` entry for ``fixed``, one per other workload.

    ``records`` is ``--records`` (see :func:`parse_records`; a single N
    applies to the workloads too, else ``workload_records``).
    """
    out = []
    for workload in workloads:
        if workload == "fixed":
            counts = parse_records(records, sizes, defaults, cap)
            for size in sizes:
                out.append(DataSet(str(size), "fixed", size, make_shape("fixed", size, spread), counts[size], size))
            continue
        shape = make_shape(workload, 0)
        count = int(records) if records and ":" not in records else workload_records[workload]
        out.append(DataSet(workload, workload, 0, shape, count, statistics.mean(map(len, shape.values))))
    return out


def print_facade_ratios(pairs: List[Tuple[str, str, float, float]]) -> None:
    """Print ``(sides, case, facade msg/s, native msg/s)`` as "facade / native" ratios of the medians."""
    if not pairs:
        return
    print()
    print("facade / native, same interpreter (ratio of the medians):")
    for sides, case, mine, theirs in pairs:
        print("  %-34s %-20s %.2fx (%s / %s msg/s)" % (sides, case, mine / theirs, "{:,.0f}".format(mine),
                                                     "{:,.0f}".format(theirs)))
