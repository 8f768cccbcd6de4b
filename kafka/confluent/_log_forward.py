"""The ``logger`` keyword: the engine's log records for one client, handed to the application's logger.

confluent-kafka forwards librdkafka's log lines to the ``logging.Logger``
given as ``logger``, from ``poll()`` (in the application's thread), as
``logger.log(level, "%s [%s] %s", facility, client_name, text)``. Here the
lines are the records of the ``kafka`` logger hierarchy emitted by this
client's threads: its engine's I/O thread (a producer's sender) and the
threads that poll it (a consumer runs its engine in the polling thread).
:class:`LogForwarder` queues those records as they are emitted and
:meth:`LogForwarder.serve` passes them on.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
from typing import Any, Deque, Optional, Set

#: Records kept for a client that is not polled; older ones are dropped.
_MAX_QUEUED = 10000
_numbers = itertools.count(1)


def threads_named(prefix: str) -> Set[int]:
    """Idents of the running threads whose name starts with ``prefix``."""
    return {t.ident for t in threading.enumerate() if t.name.startswith(prefix) and t.ident is not None}


def client_name(client_id: str, role: str) -> str:
    """librdkafka's client instance name, e.g. ``rdkafka#producer-1``."""
    return "%s#%s-%d" % (client_id, role, next(_numbers))


def forwarder_for(logger: Any, name: str) -> Optional["LogForwarder"]:
    """A forwarder to ``logger`` for the client ``name``, or None when no logger was given."""
    return None if logger is None else LogForwarder(logger, name)


class LogForwarder(logging.Handler):
    """A handler on the ``kafka`` logger that keeps the records of the watched threads."""

    def __init__(self, target: logging.Logger, name: str) -> None:
        super().__init__(logging.NOTSET)
        self._target = target
        self._target_prefix = target.name + "."
        self._name = name
        self._threads: Set[int] = set()
        self._records: Deque[logging.LogRecord] = collections.deque(maxlen=_MAX_QUEUED)
        logging.getLogger("kafka").addHandler(self)

    def watch_current_thread(self) -> None:
        """Forward what the calling thread logs from now on."""
        self._threads.add(threading.get_ident())

    def watch_threads(self, idents: Set[int]) -> None:
        """Forward what the threads ``idents`` log from now on."""
        self._threads.update(idents)

    def emit(self, record: logging.LogRecord) -> None:
        # A record of the target logger itself (when it lives under ``kafka``) is not taken
        # back: serving it would log it again, for ever.
        if record.thread in self._threads and not record.name.startswith(self._target_prefix) and \
                record.name != self._target.name:
            self._records.append(record)

    def serve(self) -> int:
        """Log every queued record on the application's logger; return how many."""
        served = 0
        records = self._records
        while records:
            record = records.popleft()
            self._target.log(record.levelno, "%s [%s] %s", record.name, self._name, record.getMessage())
            served += 1
        return served

    def close(self) -> None:
        """Stop collecting (what is queued can still be served)."""
        logging.getLogger("kafka").removeHandler(self)
        super().close()
