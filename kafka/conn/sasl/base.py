"""The common shape of every SASL client mechanism: a small sans-IO state machine.

A mechanism never touches a socket and knows nothing of Kafka framing. The
connection layer drives it like this::

    token = mechanism.initial_response()
    while True:
        response = send SaslAuthenticate(auth_bytes=token)
        if response.error_code:
            raise mechanism.failure or the broker's error
        token = mechanism.respond(response.auth_bytes)
        if token is None:          # mechanism.complete is now True
            break
    mechanism.set_session_lifetime(response.session_lifetime_ms)

A server that signals success without data (PLAIN, OAUTHBEARER) is answered
by passing ``b""`` to :meth:`SaslMechanism.respond`. Each instance serves one
exchange; :meth:`SaslMechanism.renew` gives a fresh one with the same
configuration for re-authentication (KIP-368).
"""

from __future__ import annotations

import abc
import logging
import random
from typing import Callable, Optional

from kafka.conn.sasl.errors import SaslAuthenticationError
from kafka.errors import IllegalStateError, KafkaConfigurationError

log = logging.getLogger("kafka.conn.sasl")

# States of an exchange.
_NEW = "new"            # initial_response() not called yet
_RUNNING = "running"    # waiting for the server's next message
_COMPLETE = "complete"  # the client has nothing more to send or verify
_FAILED = "failed"      # the exchange cannot succeed any more

# KIP-368: re-authenticate after 85 % to 95 % of the session lifetime, so that
# network latency and clock drift are absorbed and many connections opened
# together do not all re-authenticate at the same moment.
_REAUTH_FLOOR = 0.85
_REAUTH_JITTER = 0.10


def reauthentication_delay_ms(session_lifetime_ms: int,
                              rand: Callable[[], float] = random.random) -> Optional[int]:
    """Return after how many milliseconds a connection should re-authenticate.

    ``session_lifetime_ms`` is the value from a SaslAuthenticate (v1+)
    response. ``0`` or less means the broker sets no limit: ``None`` is
    returned. Otherwise the delay is a random 85 % to 95 % of the lifetime,
    as the Java client does; ``rand`` returns a float in ``[0, 1)``.
    """
    if isinstance(session_lifetime_ms, bool) or not isinstance(session_lifetime_ms, int):
        raise TypeError("session_lifetime_ms must be an int")
    if session_lifetime_ms <= 0:
        return None
    factor = _REAUTH_FLOOR + _REAUTH_JITTER * rand()
    return max(1, int(session_lifetime_ms * factor))


def check_text(value: object, what: str, *, allow_empty: bool = False) -> str:
    """Validate a configuration string without ever echoing its value.

    Raises :class:`kafka.errors.KafkaConfigurationError` naming only ``what``
    when ``value`` is not a ``str``, is empty, or cannot be encoded as UTF-8
    (lone surrogates).
    """
    if not isinstance(value, str):
        raise KafkaConfigurationError("{0} must be a str, not {1}".format(what, type(value).__name__))
    if not value and not allow_empty:
        raise KafkaConfigurationError("{0} must not be empty".format(what))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise KafkaConfigurationError("{0} is not valid Unicode text (lone surrogate)".format(what)) from None
    return value


class SaslMechanism(abc.ABC):
    """One client side of one SASL exchange.

    Attributes:

    ``name``
        the mechanism name as sent in SaslHandshake, e.g. ``"SCRAM-SHA-256"``.
    ``username``
        the identity authenticated as, or ``None`` when the mechanism has no
        user name (OAUTHBEARER: the identity is inside the token).
    ``failure``
        ``None``, or the :class:`SaslAuthenticationError` describing why the
        exchange failed. Set when :meth:`respond` raises, and also when the
        server reported an error that still has to be acknowledged
        (OAUTHBEARER answers an error challenge with ``b"\\x01"`` before the
        broker closes the exchange): the connection layer should raise it
        when the broker then returns an error code.
    ``session_lifetime_ms`` / ``reauthenticate_after_ms``
        set by :meth:`set_session_lifetime`; ``None`` until then.

    Credentials are kept in private attributes and never appear in
    ``repr()``, in log messages or in exception messages.
    """

    #: Mechanism name as offered by brokers in SaslHandshake.
    name: str = ""

    def __init__(self, username: Optional[str]) -> None:
        self.username = username
        self.failure: Optional[SaslAuthenticationError] = None
        self.session_lifetime_ms: Optional[int] = None
        self.reauthenticate_after_ms: Optional[int] = None
        self._state = _NEW

    def __repr__(self) -> str:
        if self.username is None:
            return "<{0} {1}>".format(type(self).__name__, self.name)
        return "<{0} {1} username={2!r}>".format(type(self).__name__, self.name, self.username)

    __str__ = __repr__

    @property
    def complete(self) -> bool:
        """True once the exchange succeeded as far as the client can tell.

        The client has sent its last message and verified everything it can
        (for SCRAM, the server's signature). The broker's own verdict is its
        SaslAuthenticate error code, which the connection layer checks.
        """
        return self._state == _COMPLETE

    @property
    def started(self) -> bool:
        """True once :meth:`initial_response` has been called."""
        return self._state != _NEW

    def initial_response(self) -> bytes:
        """Return the client's first message, to send in the first SaslAuthenticate.

        May be called once per instance.

        :raises kafka.errors.IllegalStateError: when called a second time.
        :raises kafka.errors.KafkaConfigurationError: when a runtime
            credential (an OAUTHBEARER token) is unusable.
        """
        if self._state != _NEW:
            raise IllegalStateError("{0}: initial_response() was already called".format(self.name))
        self._state = _RUNNING
        try:
            message = self._start()
        except BaseException:
            self._state = _FAILED
            raise
        log.debug("%r: sending initial response (%d bytes)", self, len(message))
        return message

    def respond(self, challenge: bytes) -> Optional[bytes]:
        """Process the server's next message and return the client's reply.

        Returns ``None`` when the client has nothing more to send; the
        mechanism is then :attr:`complete`. Pass ``b""`` when the server
        signalled success without data.

        :raises SaslAuthenticationError: the server's message is malformed,
            fails verification, or reports an error; also on any call after
            the exchange failed.
        :raises kafka.errors.IllegalStateError: before :meth:`initial_response`
            or after the exchange completed.
        """
        if self._state == _NEW:
            raise IllegalStateError("{0}: call initial_response() before respond()".format(self.name))
        if self._state == _COMPLETE:
            raise IllegalStateError("{0}: the exchange is already complete".format(self.name))
        if self._state == _FAILED:
            raise self.failure or SaslAuthenticationError("{0}: the exchange already failed".format(self.name))
        if not isinstance(challenge, (bytes, bytearray, memoryview)):
            raise TypeError("challenge must be bytes, not {0}".format(type(challenge).__name__))
        try:
            reply = self._step(bytes(challenge))
        except SaslAuthenticationError as exc:
            self.failure = exc
            self._state = _FAILED
            log.debug("%r: authentication failed: %s", self, exc)
            raise
        except BaseException:
            self._state = _FAILED
            raise
        if self._state == _FAILED:
            # The mechanism must still send ``reply`` before giving up.
            log.debug("%r: server reported an error; acknowledging it", self)
        elif reply is None:
            self._state = _COMPLETE
            log.debug("%r: exchange complete", self)
        else:
            log.debug("%r: sending response (%d bytes)", self, len(reply))
        return reply

    def set_session_lifetime(self, session_lifetime_ms: int,
                             rand: Callable[[], float] = random.random) -> Optional[int]:
        """Record the broker's session lifetime and return the re-authentication delay.

        ``session_lifetime_ms`` comes from the last SaslAuthenticate (v1+)
        response; ``0`` means no limit. Stores it in
        :attr:`session_lifetime_ms` and stores in
        :attr:`reauthenticate_after_ms` (and returns) the delay computed by
        :func:`reauthentication_delay_ms`, or ``None`` when there is no limit.
        """
        delay = reauthentication_delay_ms(session_lifetime_ms, rand)
        self.session_lifetime_ms = session_lifetime_ms
        self.reauthenticate_after_ms = delay
        return delay

    @abc.abstractmethod
    def renew(self) -> "SaslMechanism":
        """Return a new, unstarted mechanism with the same configuration.

        Used to re-authenticate a connection (KIP-368): every exchange needs
        fresh state (a new SCRAM nonce, a new OAUTHBEARER token).
        """

    # -- for subclasses --------------------------------------------------------

    @abc.abstractmethod
    def _start(self) -> bytes:
        """Build the initial response."""

    @abc.abstractmethod
    def _step(self, challenge: bytes) -> Optional[bytes]:
        """Handle one server message; raise SaslAuthenticationError on failure."""

    def _fail_after_reply(self, failure: SaslAuthenticationError) -> None:
        """Mark the exchange failed while still letting ``_step`` return a reply."""
        self.failure = failure
        self._state = _FAILED
