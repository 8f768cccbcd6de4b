"""The value objects handed out by the record readers and builders.

They are tuples (``typing.NamedTuple``, so ``collections.namedtuple``)
because a tuple is the cheapest object CPython can build: the readers
construct them with ``tuple.__new__`` directly, without a Python-level
``__init__``.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Tuple, Union

from kafka.errors import CorruptRecordError

__all__ = [
    "TimestampType",
    "ControlRecordType",
    "Record",
    "ControlRecord",
    "Header",
    "BytesLike",
    "AnyRecord",
    "NO_TIMESTAMP",
]

#: A record header: ``(key, value)``, key a ``str``, value ``bytes`` or ``None``.
Header = Tuple[str, Optional[bytes]]

#: Anything the readers and codecs accept as input bytes.
BytesLike = Union[bytes, bytearray, memoryview]

#: Timestamp of a v0 message (the format has none).
NO_TIMESTAMP = -1


class TimestampType:
    """Values of a record's ``timestamp_type``."""

    #: Message format v0: there is no timestamp.
    NO_TIMESTAMP_TYPE = -1
    #: The timestamp was set by the producer.
    CREATE_TIME = 0
    #: The timestamp was set by the broker when it appended the batch.
    LOG_APPEND_TIME = 1


class ControlRecordType:
    """Values of :attr:`ControlRecord.control_type` (the key's type field)."""

    ABORT = 0
    COMMIT = 1
    #: The remaining ones are written by KRaft into metadata logs.
    LEADER_CHANGE = 2
    SNAPSHOT_HEADER = 3
    SNAPSHOT_FOOTER = 4
    KRAFT_VERSION = 5
    KRAFT_VOTERS = 6

    NAMES = {
        0: "ABORT",
        1: "COMMIT",
        2: "LEADER_CHANGE",
        3: "SNAPSHOT_HEADER",
        4: "SNAPSHOT_FOOTER",
        5: "KRAFT_VERSION",
        6: "KRAFT_VOTERS",
    }


if TYPE_CHECKING:
    _HeaderTuple = Tuple[Header, ...]
else:
    _HeaderTuple = tuple  # not typing's Tuple, which would add Generic to the class's bases


class RecordHeaders(_HeaderTuple):
    """A record's headers: ``(str, bytes | None)`` pairs, in the order they were written.

    An immutable sequence that compares equal to a list of the same pairs
    and prints as one, so that code written for kafka-python, whose records
    carry a list (``record.headers == []``, ``== [("k", b"v")]``), reads
    ours unchanged; it is also equal to the tuple of the same pairs.
    Records read are immutable, so their headers are too: ``list(headers)``
    gives a list to change. Records without headers share one empty
    instance, :data:`NO_HEADERS`.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is list:
            return tuple.__eq__(self, tuple(other))
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self) -> Any:
        return (RecordHeaders, (tuple(self),))


#: The headers of every record that has none.
NO_HEADERS = RecordHeaders()


class Record(NamedTuple):
    """One record read from a batch."""

    #: Absolute offset of the record in its partition.
    offset: int
    #: Milliseconds since the epoch; ``-1`` for message format v0.
    timestamp: int
    #: A :class:`TimestampType` value.
    timestamp_type: int
    #: The key bytes, or ``None``.
    key: Optional[bytes]
    #: The value bytes, or ``None`` (a tombstone).
    value: Optional[bytes]
    #: The record's :class:`RecordHeaders`, :data:`NO_HEADERS` when it has
    #: none (always before v2).
    headers: RecordHeaders


class ControlRecord(NamedTuple):
    """A record of a control batch (transaction markers and KRaft records).

    Besides the fields of :class:`Record` it carries the decoded key:
    ``control_type`` (a :class:`ControlRecordType` value) and ``version``
    (the key's schema version); and, for ABORT/COMMIT markers,
    ``coordinator_epoch`` from the value (``None`` for other types).
    """

    offset: int
    timestamp: int
    timestamp_type: int
    key: Optional[bytes]
    value: Optional[bytes]
    headers: RecordHeaders
    control_type: int
    version: int
    coordinator_epoch: Optional[int]

    @property
    def is_commit(self) -> bool:
        """True for a transaction COMMIT marker."""
        return self.control_type == ControlRecordType.COMMIT

    @property
    def is_abort(self) -> bool:
        """True for a transaction ABORT marker."""
        return self.control_type == ControlRecordType.ABORT

    @property
    def type_name(self) -> str:
        """Upper-case name of ``control_type`` (``"UNKNOWN"`` if not known)."""
        return ControlRecordType.NAMES.get(self.control_type, "UNKNOWN")


_KEY = struct.Struct(">hh")
_MARKER_VALUE = struct.Struct(">hi")


def make_control_record(record: Record) -> ControlRecord:
    """Decode the key (and marker value) of a control batch's ``record``.

    Raises :class:`~kafka.errors.CorruptRecordError` when the key is not the
    4-byte ``version int16, type int16`` of the control record schema, or a
    transaction marker's value is shorter than ``version int16,
    coordinatorEpoch int32``.
    """
    key = record.key
    if key is None or len(key) < 4:
        raise CorruptRecordError("control record key must hold version and type")
    version, control_type = _KEY.unpack_from(key)
    if version < 0:
        raise CorruptRecordError("invalid control record key version %d" % version)
    coordinator_epoch = None
    if control_type in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        value = record.value
        if value is None or len(value) < 6:
            raise CorruptRecordError("transaction marker value too short")
        _value_version, coordinator_epoch = _MARKER_VALUE.unpack_from(value)
    return ControlRecord(*record, control_type, version, coordinator_epoch)


def encode_control_key(control_type: int, version: int = 0) -> bytes:
    """Return a control record key: ``version int16, type int16``."""
    return _KEY.pack(version, control_type)


def encode_marker_value(coordinator_epoch: int, version: int = 0) -> bytes:
    """Return a transaction marker value: ``version int16, coordinatorEpoch int32``."""
    return _MARKER_VALUE.pack(version, coordinator_epoch)


#: What iterating a batch yields: control batches yield ControlRecord.
AnyRecord = Union[Record, ControlRecord]
