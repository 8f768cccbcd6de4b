"""``KafkaError`` and ``KafkaException`` as confluent-kafka shapes them.

Error codes and names are librdkafka's (see :mod:`kafka.confluent._tables`):
broker error codes keep Kafka's numbers, codes local to the client are
negative and their names start with an underscore (``_PARTITION_EOF``).
Also how the engine's exceptions (:mod:`kafka.errors`) become a
``KafkaError`` (:func:`from_engine`, :func:`raise_from_engine`, ...).

Not to be confused with :mod:`kafka.confluent.error`, confluent-kafka's
public module of the errors that *carry* a ``KafkaError`` (``ConsumeError``,
``ProduceError``, ...). confluent-kafka keeps ``KafkaError`` in its C module;
this module was ``kafka.confluent.errors`` (still an alias, :mod:`kafka._moved`).
"""

from __future__ import annotations

from typing import Any, Optional

from kafka import errors as engine_errors
from kafka.confluent._tables import ERROR_CODES


def error_name(code: int) -> str:
    """librdkafka's name of ``code`` (``ERR_<code>?`` for an unknown one)."""
    found = ERROR_CODES.get(code)
    return found[0] if found else "ERR_%d?" % code


def error_description(code: int) -> str:
    """librdkafka's one-line description of ``code``."""
    found = ERROR_CODES.get(code)
    return found[1] if found else "Err-%d?" % code


#: ``str`` under another name, for annotations inside KafkaError (whose ``str()`` method hides it).
_Text = str


class KafkaError:
    """An error or event reported by a client: a code, a text and flags.

    ``KafkaError(code, reason=None, fatal=False, retriable=False,
    txn_requires_abort=False)``. Compares equal to its code, so
    ``err == KafkaError._PARTITION_EOF`` and ``err.code() == ...`` both work.
    """

    __slots__ = ("_code", "_reason", "_fatal", "_retriable", "_txn_requires_abort")

    def __init__(self, error: int, reason: Optional[str] = None, fatal: bool = False,
                 retriable: bool = False, txn_requires_abort: bool = False) -> None:
        self._code = int(error)
        self._reason = reason
        self._fatal = bool(fatal)
        self._retriable = bool(retriable)
        self._txn_requires_abort = bool(txn_requires_abort)

    def code(self) -> int:
        """The numeric error code."""
        return self._code

    def name(self) -> str:
        """The code's name, e.g. ``UNKNOWN_TOPIC_OR_PART`` or ``_MSG_TIMED_OUT``."""
        return error_name(self._code)

    def str(self) -> str:
        """The reason given, or else the code's description."""
        return self._reason if self._reason is not None else error_description(self._code)

    def fatal(self) -> bool:
        """True when the client can no longer be used."""
        return self._fatal

    def retriable(self) -> bool:
        """True when trying the operation again may succeed."""
        return self._retriable

    def txn_requires_abort(self) -> bool:
        """True when the current transaction must be aborted."""
        return self._txn_requires_abort

    def __repr__(self) -> _Text:
        return 'KafkaError{%scode=%s,val=%d,str="%s"}' % (
            "FATAL," if self._fatal else "", self.name(), self._code, self.str())

    __str__ = __repr__

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, KafkaError):
            return self._code == other._code
        if isinstance(other, int):
            return self._code == other
        return NotImplemented

    def __ne__(self, other: Any) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __lt__(self, other: Any) -> bool:
        return self._code < (other._code if isinstance(other, KafkaError) else other)

    def __hash__(self) -> int:
        return hash(self._code)


for _code, (_name, _desc) in ERROR_CODES.items():
    setattr(KafkaError, _name, _code)
del _code, _name, _desc


class KafkaException(Exception):
    """Raised by the clients; ``args[0]`` is usually a :class:`~kafka.confluent.kafka_error.KafkaError`."""


class ConcurrentModificationException(RuntimeError):
    """confluent-kafka's error for a client used from two threads at once where it cannot be.

    Defined for programs that catch it; kafkawire's clients take calls from
    several threads and do not raise it.
    """


def from_engine(exc: BaseException) -> KafkaError:
    """The KafkaError that best describes an engine exception.

    Its ``retriable()`` is False, as in every error confluent-kafka's C layer
    builds itself (delivery reports, consumer events, commit results,
    exceptions of most calls); only the transactional calls report
    librdkafka's flags, which :class:`~kafka.confluent.Producer` sets.
    """
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        return exc.args[0]
    if isinstance(exc, engine_errors.CorruptRecordError) and not isinstance(exc, engine_errors.CorruptMessageError):
        # Records this client could not decode (the broker's own code 2 is CorruptMessageError).
        return KafkaError(KafkaError._BAD_MSG, str(exc) or None)  # type: ignore[attr-defined]
    code = getattr(exc, "errno", None)
    if isinstance(code, int) and code > 0 and code in ERROR_CODES:
        # A broker's answer is worded as librdkafka words it: the message the broker sent, else
        # librdkafka's text for the code. Errors this client raised itself keep their own text.
        said = getattr(exc, "broker_message", None)
        return KafkaError(code, (said or None) if said is not None else (str(exc) or None))
    if isinstance(exc, engine_errors.KafkaTimeoutError):
        return KafkaError(KafkaError._TIMED_OUT, str(exc) or None)  # type: ignore[attr-defined]
    if isinstance(exc, (engine_errors.KafkaConnectionError, ConnectionError)):
        return KafkaError(KafkaError._TRANSPORT, str(exc) or None)  # type: ignore[attr-defined]
    if isinstance(exc, engine_errors.IllegalStateError):
        return KafkaError(KafkaError._STATE, str(exc) or None)  # type: ignore[attr-defined]
    if isinstance(exc, (engine_errors.IllegalArgumentError, ValueError)):
        return KafkaError(KafkaError._INVALID_ARG, str(exc) or None)  # type: ignore[attr-defined]
    return KafkaError(KafkaError._FAIL, str(exc) or type(exc).__name__)  # type: ignore[attr-defined]


#: Engine errors meaning no broker answered (in time): librdkafka gives each call its own code for that.
#: (A connection that broke during the call is ``_TRANSPORT``, whichever call it was.)
UNREACHABLE = (engine_errors.NoBrokersAvailable, engine_errors.KafkaTimeoutError, engine_errors.NodeNotReadyError)


def call_error(exc: BaseException, prefix: str, unreachable_code: int) -> KafkaError:
    """The error a call reports, as librdkafka words it: ``prefix`` (``"Failed to get offsets: "``)
    before the error's description, and ``unreachable_code`` when no broker answered in time."""
    if isinstance(exc, UNREACHABLE):
        return KafkaError(unreachable_code, prefix + KafkaError(unreachable_code).str())
    error = from_engine(exc)
    return KafkaError(error.code(), prefix + error.str())


def fatal_from_engine(exc: BaseException) -> KafkaError:
    """The fatal error librdkafka reports where the engine's producer hit ``exc`` and became unusable.

    Being fenced by a newer producer with the same transactional id is
    ``_FENCED`` in librdkafka, whichever request found it out.
    """
    if isinstance(exc, engine_errors.ProducerFencedError):
        return KafkaError(KafkaError._FENCED, fatal=True)  # type: ignore[attr-defined]
    error = from_engine(exc)
    return KafkaError(error.code(), error.str(), fatal=True)


def raise_from_engine(exc: BaseException) -> "KafkaException":
    """A KafkaException wrapping :func:`from_engine`'s error (to raise ``from exc``)."""
    return KafkaException(from_engine(exc))
