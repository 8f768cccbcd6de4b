"""Command-line helpers shared by the benchmark scripts."""

from __future__ import annotations

from typing import Dict, List, Optional


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
