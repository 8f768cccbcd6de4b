"""The one exception hierarchy of kafkawire.

Every exception the library raises on purpose derives from :class:`KafkaError`.
Client-side problems (bad bytes from a peer, a codec that is not installed,
no protocol version in common) have their own classes below; errors reported
by a broker as an error code are :class:`BrokerResponseError` subclasses, one
per code, looked up with :func:`for_code`.
"""

from __future__ import annotations

from typing import Dict, Optional, Type


class KafkaError(RuntimeError):
    """Base class of every error raised by kafkawire.

    ``retriable`` tells whether the same operation may succeed if tried again;
    ``invalid_metadata`` tells whether cluster metadata should be refreshed
    before retrying.
    """

    retriable = False
    invalid_metadata = False

    def __str__(self) -> str:
        if not self.args:
            return self.__class__.__name__
        return "{0}: {1}".format(self.__class__.__name__, super().__str__())


class IllegalStateError(KafkaError):
    """An operation was called at a time the object cannot perform it."""


class IllegalArgumentError(KafkaError, ValueError):
    """An argument given by the caller is invalid."""


class KafkaConfigurationError(KafkaError, ValueError):
    """A configuration value is unknown or invalid."""


class KafkaTimeoutError(KafkaError):
    """An operation did not complete within its time limit."""

    retriable = True


class ProtocolError(KafkaError):
    """Bytes received from a peer do not follow the Kafka protocol."""


class FrameTooLargeError(ProtocolError):
    """A frame's length prefix exceeds the configured maximum frame size."""


class CorrelationIdError(ProtocolError):
    """A response carried a correlation id that no request in flight has."""


class CorruptRecordError(ProtocolError):
    """A record batch or message set is malformed or fails its checksum."""


class ChecksumError(CorruptRecordError):
    """A CRC-32 (message v0/v1) or CRC-32C (batch v2) check failed."""


class UnsupportedCodecError(KafkaError):
    """A compression codec is unknown, or its optional library is missing."""


class BrokerResponseError(KafkaError):
    """An error code returned by a broker.

    Each subclass stands for one code: ``errno`` is the code, ``message`` the
    protocol's upper-case name and ``description`` a sentence about it.
    """

    errno = -1
    message = "UNKNOWN"
    description = ""

    def __str__(self) -> str:
        text = "[Error {0}] {1}".format(self.errno, self.__class__.__name__)
        if self.args:
            text += ": " + " ".join(str(a) for a in self.args)
        return text


#: Broker error classes by code; filled by :func:`_register` below.
_BY_CODE: Dict[int, Type[BrokerResponseError]] = {}


def _register(cls: Type[BrokerResponseError]) -> Type[BrokerResponseError]:
    _BY_CODE[cls.errno] = cls
    return cls


class UnknownError(BrokerResponseError):
    errno = -1
    message = "UNKNOWN_SERVER_ERROR"
    description = "The server experienced an unexpected error when processing the request."


_register(UnknownError)


class UnsupportedVersionError(BrokerResponseError):
    """The broker does not support a version of an API the client needs.

    Raised both when a broker answers with code 35 and when version
    negotiation finds no version both sides support.
    """

    errno = 35
    message = "UNSUPPORTED_VERSION"
    description = "The version of API is not supported."


_register(UnsupportedVersionError)


# ---------------------------------------------------------------------------
# BROKER ERROR TABLE: one class per broker error code follows.
# ---------------------------------------------------------------------------


def for_code(code: int) -> Optional[Type[BrokerResponseError]]:
    """Return the exception class for a broker error ``code``.

    ``0`` (no error) returns ``None``; a code this version of the library does
    not know returns a fresh :class:`UnknownError` subclass carrying that code,
    so the number is never lost.
    """
    if code == 0:
        return None
    cls = _BY_CODE.get(code)
    if cls is None:
        cls = type("UnknownBrokerError{0}".format(code if code >= 0 else "_" + str(-code)),
                   (UnknownError,), {"errno": code, "message": "UNKNOWN_CODE_{0}".format(code)})
        _BY_CODE[code] = cls
    return cls


def check_error_code(code: int) -> None:
    """Raise the broker error for ``code``, or return if it is ``0``."""
    cls = for_code(code)
    if cls is not None:
        raise cls()
