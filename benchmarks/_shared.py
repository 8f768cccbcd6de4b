"""Helpers shared by the benchmark scripts (the parent side; the children stay self-contained).

The children run in other virtual environments, some with ``python -I``, so
they import nothing from this folder."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


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
