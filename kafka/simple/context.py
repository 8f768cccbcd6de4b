"""Commit or roll back a 0.9 consumer's offsets around a block of work (0.9.x ``kafka.context``)."""

from __future__ import annotations

import logging
from typing import Any, Dict, Optional

from kafka.simple.common import OffsetCommitRequest, check_error

log = logging.getLogger(__name__)


class OffsetCommitContext:
    """Commit/rollback semantics around a :class:`~kafka.SimpleConsumer`.

    Meant for a consumer without auto-commit whose application records, with
    :meth:`mark`, each message it processed successfully::

        consumer = SimpleConsumer(client, group, topic, auto_commit=False)
        consumer.provide_partition_info()
        consumer.fetch_last_known_offsets()

        while some_condition:
            with OffsetCommitContext(consumer) as context:
                messages = consumer.get_messages(count, block=False)
                for partition, message in messages:
                    if can_process(message):
                        context.mark(partition, message.offset)
                    else:
                        break
                if not context:
                    sleep(delay)

    On leaving the block normally the marked offsets are committed and the
    consumer is positioned just after them (:meth:`commit`); partitions with
    nothing marked go back to where the block started, so the first message
    not processed is read again. On an exception nothing is committed and
    every partition goes back to where the block started (:meth:`rollback`);
    the exception propagates. A context is true once something was marked.
    """

    def __init__(self, consumer: Any) -> None:
        self.consumer = consumer
        self.initial_offsets: Optional[Dict[int, int]] = None
        self.high_water_mark: Optional[Dict[int, int]] = None

    def mark(self, partition: int, offset: int) -> None:
        """Record that the message at ``offset`` of ``partition`` was processed.

        The high-water mark of the partition becomes ``offset + 1`` (it never
        moves back). Use :meth:`~kafka.SimpleConsumer.provide_partition_info`
        to get each message's partition.
        """
        if self.high_water_mark is None:
            raise RuntimeError("mark() is only valid inside the 'with' block")
        mark = max(offset + 1, self.high_water_mark.get(partition, 0))
        log.debug("high-water mark of partition %s: %d", partition, mark)
        self.high_water_mark[partition] = mark

    def __bool__(self) -> bool:
        return bool(self.high_water_mark)

    def __enter__(self) -> "OffsetCommitContext":
        self.initial_offsets = dict(self.consumer.offsets)
        self.high_water_mark = {}
        log.debug("context starts at %s", self.initial_offsets)
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        try:
            if exc_type is None:
                self.commit()
            else:
                self.rollback()
        finally:
            self.high_water_mark = None
            self.initial_offsets = None

    def commit(self) -> None:
        """Commit the marked offsets and position the consumer after them.

        Partitions with nothing marked go back to their offsets at the start
        of the block. With nothing marked at all, nothing is committed.
        """
        if self.high_water_mark:
            log.info("committing offsets %s", self.high_water_mark)
            self.commit_partition_offsets(self.high_water_mark)
            self.update_consumer_offsets({**(self.initial_offsets or {}), **self.high_water_mark})
        else:
            self.update_consumer_offsets(self.initial_offsets or {})

    def rollback(self) -> None:
        """Position the consumer at its offsets of the start of the block; commit nothing."""
        self.update_consumer_offsets(self.initial_offsets or {})

    def commit_partition_offsets(self, partition_offsets: Dict[int, int]) -> None:
        """Commit explicit ``{partition: offset}`` pairs for the consumer's group.

        Raises the broker's error (a :mod:`kafka.errors` class) if a commit fails.
        """
        requests = [OffsetCommitRequest(self.consumer.topic, partition, offset, None)
                    for partition, offset in sorted(partition_offsets.items())]
        for response in self.consumer.client.send_offset_commit_request(self.consumer.group, requests):
            check_error(response)

    def update_consumer_offsets(self, partition_offsets: Dict[int, int]) -> None:
        """Position the consumer at explicit ``{partition: offset}`` pairs (buffered messages are dropped)."""
        log.debug("moving the consumer to %s", partition_offsets)
        for partition, offset in partition_offsets.items():
            self.consumer.offsets[partition] = offset
        # A relative seek by zero makes the consumer fetch from ``offsets`` again.
        self.consumer.seek(0, 1)

    def handle_out_of_range(self) -> None:
        """Seek to the beginning of the valid ranges (an offset out of range is rarely past the end)."""
        log.info("offset out of range; seeking to the beginning")
        self.consumer.seek(0, 0)


__all__ = ["OffsetCommitContext"]
