"""A non-blocking, pipelined connection to one broker.

:class:`BrokerConnection` owns one socket and moves it through these states::

    DISCONNECTED -> CONNECTING -> [TLS handshake] -> API_VERSIONS
                 -> [SASL authentication] -> CONNECTED

It never blocks: the client's selector loop calls :meth:`connect` while the
socket is setting up, :meth:`send_pending` when it is writable and
:meth:`recv` when it is readable. Requests are pipelined up to
``max_in_flight_requests_per_connection`` and matched to their responses by
correlation id (through :class:`kafka.protocol.framing.ClientFramer`); each
waits at most ``request_timeout_ms``. When the connection fails, every
request in flight fails with the cause, and reconnection waits an
exponentially growing, jittered back-off capped at
``reconnect_backoff_max_ms``.
"""

from __future__ import annotations

import errno
import logging
import random
import socket
import ssl
import time
from collections import deque
from typing import Any, Deque, Dict, List, Optional, Set, Tuple

from kafka.errors import (
    HostResolutionError,
    IllegalSaslStateError,
    IllegalStateError,
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    NodeNotReadyError,
    ProtocolError,
    SaslAuthenticationFailedError,
    SslCertificateError,
    UnsupportedSaslMechanismError,
    UnsupportedVersionError,
    for_code,
)
from kafka.future import Future
from kafka.sampling import NodeStats
from kafka.protocol.apis import API_VERSIONS, SASL_AUTHENTICATE, SASL_HANDSHAKE
from kafka.protocol.framing import DEFAULT_MAX_FRAME_SIZE, ClientFramer
from kafka.protocol.negotiate import VersionTable, api_versions_request, api_versions_retry_version
from kafka.protocol.schema import Api, StructValue
from kafka.conn.outbox import Outbox
from kafka.conn.tls import uses_sasl, uses_tls

log = logging.getLogger(__name__)

DISCONNECTED = "disconnected"
CONNECTING = "connecting"
HANDSHAKE = "tls_handshake"
API_VERSIONS_STATE = "api_versions"
AUTHENTICATING = "authenticating"
CONNECTED = "connected"

_RECV_SIZE = 256 * 1024

DEFAULT_CONNECTION_CONFIG: Dict[str, Any] = {
    "client_id": "kafkawire",
    "request_timeout_ms": 30000,
    "socket_connection_setup_timeout_ms": 10000,
    "reconnect_backoff_ms": 50,
    "reconnect_backoff_max_ms": 1000,
    "max_in_flight_requests_per_connection": 5,
    "socket_options": [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
    "send_buffer_bytes": None,
    "receive_buffer_bytes": None,
    "security_protocol": "PLAINTEXT",
    "ssl_context": None,
    "max_frame_size": DEFAULT_MAX_FRAME_SIZE,
    "api_version_request": True,
    "sasl_mechanism": None,
    "sasl_factory": None,  # callable() -> a SASL mechanism object, set by the client
}


#: Resolves with the decoded response body; with None for a request sent
#: without expecting a response (Produce with acks=0).
ResponseFuture = Future[Optional[StructValue]]


#: Connection failures that another attempt cannot cure: the broker refused
#: our certificate checks or login, or speaks no protocol version we do.
PERMANENT_FAILURES = (
    SslCertificateError,
    SaslAuthenticationFailedError,
    UnsupportedSaslMechanismError,
    IllegalSaslStateError,
    UnsupportedVersionError,
)


def _certificate_alert(exc: ssl.SSLError) -> bool:
    """Whether ``exc`` is a TLS alert by which the peer refused a certificate (ours, or no certificate)."""
    reason = (exc.reason or "").upper()
    return "ALERT" in reason and ("CERTIFICATE" in reason or "UNKNOWN_CA" in reason)


def is_permanent_failure(error: Optional[BaseException]) -> bool:
    """Whether a connection closed with ``error`` will fail the same way on every retry."""
    return isinstance(error, PERMANENT_FAILURES)


class InFlight:
    """A request awaiting its response."""

    __slots__ = ("correlation_id", "api", "version", "future", "sent_at", "internal", "timeout")

    def __init__(self, correlation_id: int, api: Api, version: int, future: ResponseFuture, sent_at: float,
                 internal: bool = False, timeout: Optional[float] = None) -> None:
        self.correlation_id = correlation_id
        self.api = api
        self.version = version
        self.future = future
        self.sent_at = sent_at
        self.internal = internal  # handshake traffic, resolved by the connection itself
        self.timeout = timeout  # seconds; None: the connection's request_timeout_ms


def resolve_addresses(host: str, port: int) -> List[Tuple[int, Tuple[Any, ...]]]:
    """Every (family, sockaddr) ``host`` resolves to, IPv4 and IPv6."""
    try:
        infos = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise HostResolutionError("cannot resolve %s: %s" % (host, exc)) from None
    seen: Set[Tuple[int, Tuple[Any, ...]]] = set()
    out: List[Tuple[int, Tuple[Any, ...]]] = []
    for family, _type, _proto, _name, sockaddr in infos:
        key = (family, sockaddr[:2])
        if key not in seen:
            seen.add(key)
            out.append((family, sockaddr))
    return out


class BrokerConnection:
    """One broker's socket, its handshake state and its requests in flight.

    :param node_id: the broker's node id (negative for bootstrap addresses).
    :param host: host name or address.
    :param port: TCP port.
    :param config: options; see ``DEFAULT_CONNECTION_CONFIG``.
    """

    def __init__(self, node_id: int, host: str, port: int, **config: Any) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.config = dict(DEFAULT_CONNECTION_CONFIG)
        unknown = set(config) - set(DEFAULT_CONNECTION_CONFIG)
        if unknown:
            raise TypeError("unknown connection options: %s" % ", ".join(sorted(unknown)))
        self.config.update(config)
        self.state = DISCONNECTED
        self.sock: Optional[socket.socket] = None
        self.versions: Optional[VersionTable] = None
        self.last_error: Optional[BaseException] = None
        self._framer = ClientFramer(client_id=self.config["client_id"],
                                    max_frame_size=self.config["max_frame_size"])
        self._in_flight: Dict[int, InFlight] = {}
        self._out = Outbox()
        # Fire-and-forget requests (no response) complete once their frame is
        # written: each waits here with the stream position its frame ends at.
        self._unwritten: Deque[Tuple[int, InFlight]] = deque()
        self._addresses: List[Tuple[int, Tuple[Any, ...]]] = []
        self._failures = 0
        self._next_attempt = 0.0
        self._setup_deadline = 0.0
        self._api_versions_version = API_VERSIONS.max_version
        self._sasl: Any = None
        self._handshake_future: Optional[ResponseFuture] = None
        self._handshake_wants_write = True
        #: Requests sent, their bytes, responses received, their bytes (for statistics).
        self.tx = self.tx_bytes = self.rx = self.rx_bytes = 0
        #: Connections made and failed (for statistics).
        self.connects = self.disconnects = 0
        #: Windowed request measurements for ``metrics()``; the client attaches them (None: not measured).
        self.stats: Optional[NodeStats] = None

    def __repr__(self) -> str:
        return "<BrokerConnection node=%s %s:%d %s>" % (self.node_id, self.host, self.port, self.state)

    # -- state queries ------------------------------------------------------------

    def connected(self) -> bool:
        """Ready for requests."""
        return self.state == CONNECTED

    def connecting(self) -> bool:
        """Somewhere between DISCONNECTED and CONNECTED."""
        return self.state not in (DISCONNECTED, CONNECTED)

    def disconnected(self) -> bool:
        """No socket."""
        return self.state == DISCONNECTED

    def fileno(self) -> int:
        """The socket's file descriptor (for selectors)."""
        if self.sock is None:
            raise IllegalStateError("connection has no socket")
        return self.sock.fileno()

    def in_flight_count(self) -> int:
        """Requests sent (or queued) and not yet answered."""
        return len(self._in_flight)

    def can_send_more(self) -> bool:
        """Whether another request fits in the pipeline."""
        limit: int = self.config["max_in_flight_requests_per_connection"]
        return len(self._in_flight) < limit

    def wants_write(self) -> bool:
        """Whether the selector should wait for writability."""
        if self.state == HANDSHAKE:
            return self._handshake_wants_write
        return self.state == CONNECTING or bool(self._out)

    def setup_deadline(self) -> float:
        """When setting up the current connection attempt times out (monotonic seconds)."""
        return self._setup_deadline

    def next_request_expiry(self) -> Optional[float]:
        """When the first request in flight times out (monotonic seconds), if any is in flight."""
        default = self.config["request_timeout_ms"] / 1000.0
        expiries = [e.sent_at + (e.timeout if e.timeout is not None else default) for e in self._in_flight.values()]
        expiries.extend(e.sent_at + (e.timeout if e.timeout is not None else default) for _end, e in self._unwritten)
        return min(expiries) if expiries else None

    def connection_delay(self, now: float) -> float:
        """Seconds before a reconnect may be tried (0 if it may be now)."""
        if self.state != DISCONNECTED:
            return 0.0 if self.state == CONNECTED else max(self._setup_deadline - now, 0.0)
        return max(self._next_attempt - now, 0.0)

    def blacked_out(self, now: float) -> bool:
        """Disconnected and still inside the reconnect back-off."""
        return self.state == DISCONNECTED and now < self._next_attempt

    # -- connecting -----------------------------------------------------------------

    def connect(self, now: Optional[float] = None) -> str:
        """Make progress setting up the connection; return the new state."""
        now = time.monotonic() if now is None else now
        try:
            if self.state == DISCONNECTED:
                if now < self._next_attempt:
                    return self.state
                self._start_connect(now)
            if self.state == CONNECTING:
                self._finish_connect()
            if self.state == HANDSHAKE:
                self._tls_handshake()
            if self.state in (API_VERSIONS_STATE, AUTHENTICATING) and self._handshake_future is None:
                self._begin_protocol_handshake()
            if self.state != CONNECTED and now > self._setup_deadline and self.state != DISCONNECTED:
                raise KafkaTimeoutError("setting up the connection to %s:%d took longer than %d ms (state %s)"
                                        % (self.host, self.port,
                                           self.config["socket_connection_setup_timeout_ms"], self.state))
        except KafkaError as exc:
            self.close(exc)
        except (OSError, ssl.SSLError) as exc:
            self.close(self._io_error("connection to", exc))
        return self.state

    def _start_connect(self, now: float) -> None:
        if not self._addresses:
            self._addresses = resolve_addresses(self.host, self.port)
        family, sockaddr = self._addresses[0]
        # Rotate so the next attempt tries the next address of the host.
        self._addresses = self._addresses[1:] + self._addresses[:1]
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            for option in self.config["socket_options"] or ():
                sock.setsockopt(*option)
            if self.config["send_buffer_bytes"]:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config["send_buffer_bytes"])
            if self.config["receive_buffer_bytes"]:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.config["receive_buffer_bytes"])
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        self.sock = sock
        self._setup_deadline = now + self.config["socket_connection_setup_timeout_ms"] / 1000.0
        self.state = CONNECTING
        self._framer = ClientFramer(client_id=self.config["client_id"], max_frame_size=self.config["max_frame_size"])
        result = sock.connect_ex(sockaddr)
        if result not in (0, errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY, errno.EAGAIN):
            raise KafkaConnectionError("cannot connect to %s:%d: %s" % (self.host, self.port, os_strerror(result)))
        log.debug("%r: connecting to %s", self, sockaddr)

    def _finish_connect(self) -> None:
        assert self.sock is not None
        err = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if err:
            raise KafkaConnectionError("cannot connect to %s:%d: %s" % (self.host, self.port, os_strerror(err)))
        try:
            self.sock.getpeername()
        except OSError as exc:
            if exc.errno in (errno.ENOTCONN, errno.EINVAL):
                return  # still connecting
            raise
        if uses_tls(self.config["security_protocol"]):
            context = self.config["ssl_context"]
            if context is None:
                raise IllegalStateError("TLS requested without an ssl_context")
            self.sock = context.wrap_socket(self.sock, server_hostname=self.host, do_handshake_on_connect=False)
            self.state = HANDSHAKE
            self._handshake_wants_write = True
        else:
            self.state = API_VERSIONS_STATE if self.config["api_version_request"] else self._after_versions()

    def _tls_handshake(self) -> None:
        assert isinstance(self.sock, ssl.SSLSocket)
        try:
            self.sock.do_handshake()
        except ssl.SSLWantReadError:
            self._handshake_wants_write = False
            return
        except ssl.SSLWantWriteError:
            self._handshake_wants_write = True
            return
        except ssl.SSLCertVerificationError as exc:
            raise SslCertificateError("TLS certificate of %s:%d rejected: %s"
                                      % (self.host, self.port, exc.verify_message or exc.reason)) from None
        except ssl.SSLError as exc:
            if _certificate_alert(exc):
                raise SslCertificateError("TLS handshake with %s:%d failed: the broker refused our certificate: "
                                          "%s" % (self.host, self.port, exc)) from None
            raise KafkaConnectionError("TLS handshake with %s:%d failed: %s"
                                       % (self.host, self.port, exc.reason or exc)) from None
        self.state = API_VERSIONS_STATE if self.config["api_version_request"] else self._after_versions()

    def _io_error(self, doing: str, exc: BaseException) -> KafkaError:
        """The error to close with after a socket call failed with ``exc``."""
        if isinstance(exc, ssl.SSLError) and _certificate_alert(exc):
            # With TLS 1.3 a server's refusal of our certificate arrives
            # after our side of the handshake is done, on the first read.
            return SslCertificateError("%s %s:%d failed: the broker refused our certificate: %s"
                                       % (doing, self.host, self.port, exc))
        return KafkaConnectionError("%s %s:%d failed: %s" % (doing, self.host, self.port, exc))

    def _after_versions(self) -> str:
        return AUTHENTICATING if uses_sasl(self.config["security_protocol"]) else CONNECTED

    def _begin_protocol_handshake(self) -> None:
        if self.state == API_VERSIONS_STATE:
            future = self._queue(API_VERSIONS, self._api_versions_version,
                                 api_versions_request(self._api_versions_version), internal=True)
            future.add_callback(self._on_api_versions).add_errback(self._on_handshake_error)
        else:
            factory = self.config["sasl_factory"]
            if factory is None:
                raise IllegalStateError("SASL requested without a mechanism")
            self._sasl = factory()
            version = self._handshake_version(SASL_HANDSHAKE)
            future = self._queue(SASL_HANDSHAKE, version, {"mechanism": self._sasl.name}, internal=True)
            future.add_callback(self._on_sasl_handshake).add_errback(self._on_handshake_error)
        self._handshake_future = future

    def _handshake_version(self, api: Api) -> int:
        if self.versions is None:
            return api.min_send
        return self.versions.choose(api)

    def _on_api_versions(self, response: Any) -> None:
        self._handshake_future = None
        retry = api_versions_retry_version(response, self._api_versions_version)
        if retry is not None:
            log.debug("%r: ApiVersions v%d unsupported, retrying with v%d", self, self._api_versions_version, retry)
            self._api_versions_version = retry
            return
        if response.error_code:
            self.close(UnsupportedVersionError("%s:%d answered ApiVersions with error %d"
                                               % (self.host, self.port, response.error_code)))
            return
        self.versions = VersionTable.from_response(response)
        self.state = self._after_versions()
        if self.state == CONNECTED:
            self._on_connected()

    def _on_sasl_handshake(self, response: Any) -> None:
        self._handshake_future = None
        if response.error_code:
            cls = for_code(response.error_code)
            assert cls is not None  # the code is not 0
            self.close(cls("broker %s:%d does not enable SASL mechanism %s (enabled: %s)" % (
                self.host, self.port, self._sasl.name, ", ".join(response.mechanisms or ()))))
            return
        self._send_sasl_bytes(self._sasl.initial_response())

    def _send_sasl_bytes(self, data: bytes) -> None:
        version = self._handshake_version(SASL_AUTHENTICATE)
        future = self._queue(SASL_AUTHENTICATE, version, {"auth_bytes": data}, internal=True)
        future.add_callback(self._on_sasl_authenticate).add_errback(self._on_handshake_error)
        self._handshake_future = future

    def _on_sasl_authenticate(self, response: Any) -> None:
        self._handshake_future = None
        if response.error_code:
            cls = for_code(response.error_code)
            assert cls is not None  # the code is not 0
            # error_message is the broker's text; it never contains our secret.
            self.close(cls("SASL %s authentication with %s:%d failed: %s" % (
                self._sasl.name, self.host, self.port, response.error_message or "")))
            return
        try:
            reply = self._sasl.respond(response.auth_bytes or b"")
        except KafkaError as exc:
            self.close(exc)
            return
        if reply is not None:
            self._send_sasl_bytes(reply)
            return
        self.state = CONNECTED
        self._on_connected()

    def _on_handshake_error(self, exc: BaseException) -> None:
        self._handshake_future = None
        if self.state != DISCONNECTED:
            self.close(exc)

    def _on_connected(self) -> None:
        self.connects += 1
        if self.stats is not None:
            self.stats.connected()
        self._failures = 0
        self._addresses = []
        log.debug("%r: ready", self)

    # -- requests -------------------------------------------------------------------

    def send(self, api: Api, request: Any, version: Optional[int] = None,
             expect_response: bool = True, now: Optional[float] = None,
             timeout_ms: Optional[float] = None) -> ResponseFuture:
        """Queue ``request``; the future resolves with the decoded response body.

        The version is the highest both sides support unless given. With
        ``expect_response=False`` (Produce with acks=0) the future resolves
        with None once the whole frame has been handed to the socket (through
        what :meth:`send_pending` returns), and fails if the connection closes
        before that. ``timeout_ms`` replaces
        ``request_timeout_ms`` for this request (a JoinGroup may wait for
        the whole rebalance timeout).
        """
        future: ResponseFuture = Future()
        if self.state != CONNECTED:
            return future.failure(NodeNotReadyError("node %s is not connected (%s)" % (self.node_id, self.state)))
        try:
            if version is None:
                assert self.versions is not None
                version = self.versions.choose(api)
            self._queue(api, version, request, expect_response=expect_response, future=future, now=now,
                        timeout=timeout_ms / 1000.0 if timeout_ms is not None else None)
        except KafkaError as exc:
            if not future.is_done:
                future.failure(exc)
        return future

    def _queue(self, api: Api, version: int, request: Any, expect_response: bool = True,
               future: Optional[ResponseFuture] = None, now: Optional[float] = None, internal: bool = False,
               timeout: Optional[float] = None) -> ResponseFuture:
        future = future or Future()
        cid, parts = self._framer.send_request_parts(api, version, request, expect_response)
        self.tx += 1
        size = self._out.append(parts)
        self.tx_bytes += size
        sent_at = time.monotonic() if now is None else now
        if self.stats is not None:
            self.stats.sent(size, sent_at)
        entry = InFlight(cid, api, version, future, sent_at, internal, timeout)
        if expect_response:
            self._in_flight[cid] = entry
        else:
            self._unwritten.append((self._out.queued, entry))
        return future

    def unwritten_count(self) -> int:
        """Fire-and-forget requests whose frame is not fully written yet."""
        return len(self._unwritten)

    def send_pending(self) -> List[Tuple[ResponseFuture, Any]]:
        """Write as much queued data as the socket accepts.

        Returns (future, None) pairs of the fire-and-forget requests whose
        frame is now fully written; like :meth:`recv`, it leaves resolving
        them to the caller, outside its locks.
        """
        if self.sock is None or self.state in (DISCONNECTED, CONNECTING, HANDSHAKE):
            return []
        try:
            self._out.write_to(self.sock)
        except (BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
            pass
        except (OSError, ssl.SSLError) as exc:
            self.close(self._io_error("sending to", exc))
            return []
        return self._take_written()

    def _take_written(self) -> List[Tuple[ResponseFuture, Any]]:
        unwritten = self._unwritten
        if not unwritten or unwritten[0][0] > self._out.written:
            return []
        written = self._out.written
        done: List[Tuple[ResponseFuture, Any]] = []
        while unwritten and unwritten[0][0] <= written:
            done.append((unwritten.popleft()[1].future, None))
        return done

    def recv(self) -> List[Tuple[ResponseFuture, Any]]:
        """Read what the socket has; return (future, response) pairs completed.

        The futures of callers' requests are not resolved here: the caller
        resolves them outside its locks (``future.success(response)``).
        Handshake responses are handled at once, moving the connection on.
        """
        if self.sock is None or self.state in (DISCONNECTED, CONNECTING, HANDSHAKE):
            return []
        completed: List[Tuple[ResponseFuture, Any]] = []
        while self.sock is not None:
            try:
                space = self._framer.receive_buffer()
                count = self.sock.recv_into(space)
            except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                break
            except (OSError, ssl.SSLError) as exc:
                self.close(self._io_error("receiving from", exc))
                break
            if not count:
                self.close(KafkaConnectionError("%s:%d closed the connection" % (self.host, self.port)))
                break
            self.rx_bytes += count
            try:
                responses = self._framer.received(count)
            except ProtocolError as exc:
                self.close(exc)
                break
            self.rx += len(responses)
            stats = self.stats
            if stats is not None:
                now = time.monotonic()
                stats.received(count, now)
            for response in responses:
                entry = self._in_flight.pop(response.correlation_id, None)
                if entry is None:
                    continue
                if stats is not None:
                    stats.answered(now - entry.sent_at, getattr(response.body, "throttle_time_ms", 0) or 0, now)
                if entry.internal:
                    entry.future.success(response.body)
                    if self.state == DISCONNECTED:
                        break
                else:
                    completed.append((entry.future, response.body))
            if self._framer.error is not None:
                # Junk followed the responses above: they stand, the requests
                # still in flight fail with the junk's error.
                if self.state != DISCONNECTED:
                    self.close(self._framer.error)
                break
            if count < len(space):
                break
        return completed

    def shutdown_output(self) -> bool:
        """Half-close a connected socket with nothing left to write; return whether it did.

        The broker then reads every request up to the end of the stream and
        closes its side; :meth:`drain_input` waits for that.
        """
        if self.sock is None or self.state != CONNECTED or self._out:
            return False
        try:
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            return False
        return True

    def drain_input(self) -> bool:
        """After :meth:`shutdown_output`, read and drop what arrives; True once the peer has closed.

        Closing a socket whose input is unread resets the connection, and a
        broker may then drop requests it received but had not handled yet.
        """
        if self.sock is None:
            return True
        try:
            while self.sock.recv(_RECV_SIZE):
                pass
        except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return False
        except (OSError, ssl.SSLError):
            pass
        return True

    def timed_out(self, now: float) -> Optional[InFlight]:
        """A request past its timeout (its own, or ``request_timeout_ms``), if any.

        A fire-and-forget request times out when its frame is not written in
        time (the peer stopped reading).
        """
        limit = self.config["request_timeout_ms"] / 1000.0
        for entry in self._in_flight.values():
            if now - entry.sent_at > (entry.timeout if entry.timeout is not None else limit):
                return entry
        for _end, entry in self._unwritten:
            if now - entry.sent_at > (entry.timeout if entry.timeout is not None else limit):
                return entry
        return None

    def close(self, error: Optional[BaseException] = None) -> None:
        """Close the socket; fail every request in flight, and every unwritten one, with ``error``."""
        was = self.state
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
            self.sock = None
        self.state = DISCONNECTED
        self.last_error = error
        self._out.clear()
        unwritten, self._unwritten = self._unwritten, deque()
        self._handshake_future = None
        self._framer.fail_all()
        if error is not None or was != CONNECTED:
            self._failures += 1
        if error is not None and was != DISCONNECTED:
            self.disconnects += 1
        if was == CONNECTED and self.stats is not None:
            self.stats.closed()
        self._next_attempt = time.monotonic() + self._backoff()
        pending, self._in_flight = self._in_flight, {}
        failure = error or KafkaConnectionError("connection to %s:%d closed" % (self.host, self.port))
        if error is not None:
            log.info("%r: closed: %s", self, error)
        for entry in pending.values():
            if not entry.future.is_done:
                entry.future.failure(failure)
        for _end, entry in unwritten:
            if not entry.future.is_done:
                entry.future.failure(failure)

    def _backoff(self) -> float:
        base: float = self.config["reconnect_backoff_ms"]
        cap: float = self.config["reconnect_backoff_max_ms"]
        exponent = min(max(self._failures - 1, 0), 30)
        backoff: float = min(base * (2 ** exponent), cap)
        return backoff * random.uniform(0.8, 1.2) / 1000.0


def os_strerror(code: int) -> str:
    """The text for an errno value."""
    import os
    try:
        return os.strerror(code)
    except ValueError:
        return "error %d" % code
