"""The kafka-python 0.9.x ``kafka.util`` helpers (also importable under that name).

Byte-level readers and writers for the Kafka wire format's length-prefixed
strings, a CRC-32 helper, grouping of request payloads by topic and partition,
and :class:`ReentrantTimer`, a restartable periodic timer thread.

The readers take a buffer and a cursor and return ``(value, new_cursor)``;
asking for more bytes than the buffer holds raises
:class:`~kafka.errors.BufferUnderflowError`.
"""

from __future__ import annotations

import logging
import re
import struct
import threading
import weakref
from typing import Any, Callable, Dict, Iterable, Optional, Tuple, Union

from kafka.errors import BufferUnderflowError, IllegalArgumentError
from kafka.record.crc import crc32 as _crc32
from kafka.topic_names import MAX_TOPIC_NAME_LENGTH, check_topic_name

__all__ = [
    "crc32",
    "write_int_string",
    "write_short_string",
    "read_short_string",
    "read_int_string",
    "relative_unpack",
    "group_by_topic_and_partition",
    "kafka_bytestring",
    "ReentrantTimer",
    "TOPIC_MAX_LENGTH",
    "TOPIC_LEGAL_CHARS",
    "ensure_valid_topic_name",
]

log = logging.getLogger(__name__)

#: The longest topic name Kafka accepts (kafka-python 3's name).
TOPIC_MAX_LENGTH = MAX_TOPIC_NAME_LENGTH
#: A whole topic name made of the characters Kafka accepts (kafka-python 3's name).
TOPIC_LEGAL_CHARS = re.compile(r"^[a-zA-Z0-9._-]+$")


def ensure_valid_topic_name(topic: Any) -> None:
    """Raise unless Kafka accepts ``topic`` as a topic name (kafka-python 3's helper).

    ``None`` or a non-``str`` raises ``TypeError``; an empty name, ``.``,
    ``..``, a name over :data:`TOPIC_MAX_LENGTH` characters or one with a
    character outside ``[a-zA-Z0-9._-]`` raises ``ValueError`` (the checks
    are :func:`kafka.topic_names.check_topic_name`'s).
    """
    check_topic_name(topic)

BytesLike = Union[bytes, bytearray, memoryview]

_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")


def crc32(data: BytesLike) -> int:
    """The CRC-32 of ``data`` as an unsigned 32-bit integer (as message v0/v1 store it)."""
    return _crc32(data)


def _check_bytes(value: Any) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError("expected bytes or None, got %s" % type(value).__name__)
    return bytes(value)


def write_int_string(s: Optional[BytesLike]) -> bytes:
    """``s`` with a signed 32-bit big-endian length in front (``-1`` for ``None``).

    Raises :class:`TypeError` for anything but bytes-like objects and ``None``
    (text must be encoded by the caller).
    """
    if s is None:
        return _INT32.pack(-1)
    raw = _check_bytes(s)
    return _INT32.pack(len(raw)) + raw


def write_short_string(s: Optional[BytesLike]) -> bytes:
    """``s`` with a signed 16-bit big-endian length in front (``-1`` for ``None``).

    Raises :class:`TypeError` for anything but bytes-like objects and ``None``,
    and :class:`struct.error` when ``s`` is longer than 32767 bytes.
    """
    if s is None:
        return _INT16.pack(-1)
    raw = _check_bytes(s)
    return _INT16.pack(len(raw)) + raw


def _read_string(prefix: struct.Struct, data: BytesLike, cur: int) -> Tuple[Optional[bytes], int]:
    if cur < 0 or len(data) < cur + prefix.size:
        raise BufferUnderflowError("not enough data to read a string length at byte %d" % cur)
    (length,) = prefix.unpack_from(data, cur)
    cur += prefix.size
    if length == -1:
        return None, cur
    if length < 0:
        raise BufferUnderflowError("invalid string length %d at byte %d" % (length, cur - prefix.size))
    end = cur + length
    if len(data) < end:
        raise BufferUnderflowError(
            "string of %d bytes at byte %d runs past the end of the data (%d bytes)" % (length, cur, len(data)))
    return bytes(data[cur:end]), end


def read_short_string(data: BytesLike, cur: int) -> Tuple[Optional[bytes], int]:
    """Read a string with a 16-bit length at ``data[cur:]``; return ``(bytes or None, next cursor)``."""
    return _read_string(_INT16, data, cur)


def read_int_string(data: BytesLike, cur: int) -> Tuple[Optional[bytes], int]:
    """Read a string with a 32-bit length at ``data[cur:]``; return ``(bytes or None, next cursor)``."""
    return _read_string(_INT32, data, cur)


def relative_unpack(fmt: str, data: BytesLike, cur: int) -> Tuple[Tuple[Any, ...], int]:
    """Unpack the :mod:`struct` format ``fmt`` at ``data[cur:]``; return ``(values, next cursor)``."""
    size = struct.calcsize(fmt)
    if cur < 0 or len(data) < cur + size:
        raise BufferUnderflowError(
            "need %d bytes at byte %d, the data has %d bytes" % (size, cur, len(data)))
    return struct.unpack_from(fmt, data, cur), cur + size


def group_by_topic_and_partition(tuples: Iterable[Any]) -> Dict[Any, Dict[int, Any]]:
    """Arrange payloads by topic, then partition: ``{topic: {partition: payload}}``.

    Each payload is any object with ``topic`` and ``partition`` attributes
    (the 0.9 request tuples). Two payloads for the same partition raise
    :class:`~kafka.errors.IllegalArgumentError`, since a request may name a
    partition only once.
    """
    out: Dict[Any, Dict[int, Any]] = {}
    for t in tuples:
        partitions = out.setdefault(t.topic, {})
        if t.partition in partitions:
            raise IllegalArgumentError(
                "duplicate %s for topic %r partition %d" % (type(t).__name__, t.topic, t.partition))
        partitions[t.partition] = t
    return out


def kafka_bytestring(s: Union[str, bytes]) -> bytes:
    """``s`` as bytes: text is encoded as UTF-8, bytes are returned unchanged.

    Anything else raises :class:`TypeError`.
    """
    if isinstance(s, bytes):
        return s
    if isinstance(s, str):
        return s.encode("utf-8")
    raise TypeError("expected str or bytes, got %s" % type(s).__name__)


class ReentrantTimer:
    """Call ``fn(*args, **kwargs)`` every ``t`` milliseconds on a background thread.

    Unlike :class:`threading.Timer` it repeats until stopped, and it can be
    started again after :meth:`stop`. :meth:`start` on a running timer
    restarts it. The thread is a daemon thread (it never keeps the process
    alive) and it ends by itself when the timer object is garbage collected.
    An exception raised by ``fn`` is logged and the timer keeps going.

    :param t: interval in milliseconds (must be positive).
    :param fn: the callable to run.
    :param args: positional arguments for ``fn``.
    :param kwargs: keyword arguments for ``fn``.
    """

    def __init__(self, t: float, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        if not t or t <= 0:
            raise ValueError("the timer interval must be a positive number of milliseconds, not %r" % (t,))
        if not callable(fn):
            raise ValueError("fn must be callable")
        self.t = t / 1000.0
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.thread: Optional[threading.Thread] = None
        self.active: Optional[threading.Event] = None
        self._finalizer: Optional[weakref.finalize] = None
        self._lock = threading.Lock()

    @property
    def is_running(self) -> bool:
        """True while the timer thread is alive and not asked to stop."""
        thread, active = self.thread, self.active
        return thread is not None and thread.is_alive() and active is not None and not active.is_set()

    def start(self) -> None:
        """Start calling ``fn`` every interval (restarting the timer if it runs)."""
        self.stop()
        with self._lock:
            active = threading.Event()
            thread = threading.Thread(
                target=_run_timer, args=(weakref.ref(self), active, self.t),
                name="kafka-ReentrantTimer", daemon=True)
            self.active = active
            self.thread = thread
            # Stop the thread when this object is collected without stop().
            self._finalizer = weakref.finalize(self, active.set)
            thread.start()

    def stop(self, timeout: Optional[float] = None) -> None:
        """Stop the timer and wait for its thread to end.

        A call of ``fn`` in progress is allowed to finish; ``timeout`` (seconds)
        bounds that wait. Called from ``fn`` itself, it only asks the thread to
        end. Stopping a timer that is not running does nothing.
        """
        with self._lock:
            thread, active, finalizer = self.thread, self.active, self._finalizer
            self.thread = None
            self.active = None
            self._finalizer = None
        if finalizer is not None:
            finalizer.detach()
        if active is not None:
            active.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)


def _run_timer(ref: "weakref.ReferenceType[ReentrantTimer]", active: threading.Event, interval: float) -> None:
    # Only a weak reference to the timer is held between calls, so dropping the
    # last reference to it ends this thread (through the finalizer's set()).
    while not active.wait(interval):
        timer = ref()
        if timer is None:
            return
        fn, args, kwargs = timer.fn, timer.args, timer.kwargs
        del timer
        try:
            fn(*args, **kwargs)
        except Exception:
            log.exception("ReentrantTimer callback %r raised", fn)
