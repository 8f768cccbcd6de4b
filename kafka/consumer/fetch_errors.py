"""What a reader of Fetch responses does about one partition's error code.

Both the consumer's :class:`~kafka.consumer.fetcher.Fetcher` and the Spark
range reader (:mod:`kafka.spark.fetch`) answer a partition's error the same
way, decided here from the error classes of :mod:`kafka.errors` and their
``retriable`` / ``invalid_metadata`` flags rather than from lists of codes.
"""

from __future__ import annotations

from kafka import errors

#: No error: the partition's records can be read.
OK = "ok"
#: The fetch offset is outside the log: look a position up again.
RESET = "reset"
#: The metadata is stale (leader moved, topic id unknown...): refresh it, then fetch again.
REFRESH = "refresh"
#: A transient broker condition: fetch again.
RETRY = "retry"
#: Nothing a retry can mend: the error goes to the application.
RAISE = "raise"


def classify_partition_error(code: int) -> str:
    """One of :data:`OK`, :data:`RESET`, :data:`REFRESH`, :data:`RETRY`, :data:`RAISE` for ``code``."""
    cls = errors.for_code(code)
    if cls is None:
        return OK
    if cls is errors.OffsetOutOfRangeError:
        return RESET
    if cls is errors.CorruptMessageError:
        # Retriable for a write, but data stored corrupt reads the same every time.
        return RAISE
    if cls.invalid_metadata:
        return REFRESH
    if cls.retriable:
        return RETRY
    return RAISE


def partition_error(code: int, where: str) -> errors.BrokerResponseError:
    """The exception for a partition's error ``code``, naming ``where`` it happened."""
    cls = errors.for_code(code)
    if cls is None:
        raise errors.IllegalArgumentError("error code 0 is not an error")
    return cls(where)
