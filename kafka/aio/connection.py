"""One broker connection on asyncio streams.

:class:`AsyncConnection` opens a TCP (optionally TLS) stream, runs the
ApiVersions handshake (and SASL when asked), then pipelines requests: each
:meth:`AsyncConnection.request` writes its frame at once and waits for the
answer, which one reader task matches by correlation id through the sans-IO
:class:`~kafka.protocol.framing.ClientFramer`. Nothing here blocks the event
loop: no thread, no blocking socket call.

A request that times out closes the connection (Kafka answers a connection's
requests in order, so a missing answer stalls every later one), failing the
others with the same error; the caller connects again.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from typing import Any, Callable, Dict, Optional

from kafka.errors import (
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    ProtocolError,
    RequestTimedOutError,
    SaslAuthenticationFailedError,
    UnsupportedVersionError,
    for_code,
)
from kafka.protocol.apis import API_VERSIONS, SASL_AUTHENTICATE, SASL_HANDSHAKE
from kafka.protocol.framing import DEFAULT_MAX_FRAME_SIZE, ClientFramer
from kafka.protocol.negotiate import VersionTable, api_versions_request, api_versions_retry_version
from kafka.protocol.schema import Api

log = logging.getLogger(__name__)

_READ_SIZE = 256 * 1024

#: Makes a fresh SASL mechanism (see :func:`kafka.conn.sasl.create_mechanism`) per connection.
SaslFactory = Callable[[], Any]


class AsyncConnection:
    """A connection to one broker, usable once :meth:`connect` returned.

    :param host: host name or address.
    :param port: TCP port.
    :param node_id: the broker's node id (negative for a bootstrap address).
    :param client_id: sent in every request header.
    :param ssl_context: wrap the stream in TLS with this context (None: plaintext).
    :param sasl_factory: authenticate with the mechanism it returns (None: no SASL).
    :param request_timeout_ms: how long a request waits for its answer.
    """

    def __init__(self, host: str, port: int, *, node_id: int = -1, client_id: Optional[str] = "kafkawire",
                 ssl_context: Optional[ssl.SSLContext] = None, sasl_factory: Optional[SaslFactory] = None,
                 request_timeout_ms: float = 40000, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.host = host
        self.port = port
        self.node_id = node_id
        self.request_timeout = request_timeout_ms / 1000.0
        self.versions: Optional[VersionTable] = None
        self._ssl_context = ssl_context
        self._sasl_factory = sasl_factory
        self._framer = ClientFramer(client_id=client_id, max_frame_size=max_frame_size)
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._read_task: Optional[asyncio.Task[None]] = None
        self._waiting: Dict[int, asyncio.Future[Any]] = {}
        self._drain_lock = asyncio.Lock()
        self._closed_with: Optional[BaseException] = None
        self._connected = False

    def __repr__(self) -> str:
        state = "connected" if self.connected else "closed" if self._closed_with is not None else "new"
        return "<AsyncConnection node=%s %s:%d %s>" % (self.node_id, self.host, self.port, state)

    @property
    def connected(self) -> bool:
        """Handshake done and not closed since."""
        return self._connected and self._closed_with is None

    @property
    def closed(self) -> bool:
        """Closed (by :meth:`close` or a failure); a closed connection is not used again."""
        return self._closed_with is not None

    @property
    def in_flight(self) -> int:
        """Requests awaiting their answer."""
        return len(self._waiting)

    # -- setting up -------------------------------------------------------------------------

    async def connect(self, timeout: float) -> None:
        """Open the stream and run the handshakes within ``timeout`` seconds.

        Raises :class:`KafkaConnectionError` when the broker cannot be
        reached or the stream breaks, :class:`KafkaTimeoutError` when the
        set-up takes too long, and the broker's error when it refuses the
        handshake (unsupported versions, SASL).
        """
        try:
            await asyncio.wait_for(self._set_up(), timeout)
        except asyncio.TimeoutError:
            error: BaseException = KafkaTimeoutError("connecting to %s:%d took longer than %.1f s"
                                                     % (self.host, self.port, timeout))
            self.close(error)
            raise error from None
        except (OSError, ssl.SSLError) as exc:
            error = KafkaConnectionError("cannot connect to %s:%d: %s" % (self.host, self.port, exc))
            self.close(error)
            raise error from None
        except BaseException as exc:
            self.close(exc if isinstance(exc, KafkaError) else None)
            raise

    async def _set_up(self) -> None:
        context = self._ssl_context
        self._reader, self._writer = await asyncio.open_connection(
            self.host, self.port, ssl=context, server_hostname=self.host if context is not None else None)
        sock = self._writer.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._read_task = asyncio.ensure_future(self._read_loop())
        await self._negotiate_versions()
        if self._sasl_factory is not None:
            await self._authenticate(self._sasl_factory())
        self._connected = True
        log.debug("%r: ready", self)

    async def _negotiate_versions(self) -> None:
        version = API_VERSIONS.max_version
        while True:
            response = await self._send(API_VERSIONS, version, api_versions_request(version), True)
            retry = api_versions_retry_version(response, version)
            if retry is None:
                break
            version = retry
        if response.error_code:
            raise UnsupportedVersionError("%s:%d answered ApiVersions with error %d"
                                          % (self.host, self.port, response.error_code))
        self.versions = VersionTable.from_response(response)

    async def _authenticate(self, mechanism: Any) -> None:
        assert self.versions is not None
        answer = await self._send(SASL_HANDSHAKE, self.versions.choose(SASL_HANDSHAKE),
                                  SASL_HANDSHAKE.Request(mechanism=mechanism.name), True)
        if answer.error_code:
            raise _broker_error(answer.error_code, "broker %s:%d does not enable SASL mechanism %s (enabled: %s)"
                                % (self.host, self.port, mechanism.name, ", ".join(answer.mechanisms or ())))
        token: Optional[bytes] = mechanism.initial_response()
        version = self.versions.choose(SASL_AUTHENTICATE)
        while token is not None:
            answer = await self._send(SASL_AUTHENTICATE, version, SASL_AUTHENTICATE.Request(auth_bytes=token), True)
            if answer.error_code:
                # The broker's text never contains our secret.
                raise _broker_error(answer.error_code, "SASL %s authentication with %s:%d failed: %s"
                                    % (mechanism.name, self.host, self.port, answer.error_message or ""))
            token = mechanism.respond(answer.auth_bytes or b"")

    # -- requests ---------------------------------------------------------------------------

    def version_for(self, api: Api, highest: Optional[int] = None) -> int:
        """The version of ``api`` to send: the highest both sides support (at most ``highest``)."""
        if self.versions is None:
            raise KafkaConnectionError("%r has not finished its handshake" % (self,))
        return self.versions.choose(api, highest=highest)

    async def request(self, api: Api, request: Any, version: Optional[int] = None,
                      expect_response: bool = True) -> Any:
        """Send ``request`` and return the decoded answer (None when ``expect_response`` is false).

        Raises :class:`KafkaConnectionError` when the connection is or
        becomes closed, :class:`RequestTimedOutError` after
        ``request_timeout_ms`` without an answer (the connection is closed
        then). Cancelling the caller leaves the connection usable: the
        answer is read and dropped.
        """
        if not self.connected:
            raise self._not_usable()
        if version is None:
            version = self.version_for(api)
        return await self._send(api, version, request, expect_response)

    async def _send(self, api: Api, version: int, request: Any, expect_response: bool) -> Any:
        writer = self._writer
        if writer is None or self._closed_with is not None:
            raise self._not_usable()
        cid, parts = self._framer.send_request_parts(api, version, request, expect_response)
        future: Optional[asyncio.Future[Any]] = None
        if expect_response:
            future = asyncio.get_running_loop().create_future()
            self._waiting[cid] = future
        writer.writelines(parts)
        transport = writer.transport
        if transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1]:
            async with self._drain_lock:  # one drain at a time (Python 3.9 refuses concurrent ones)
                try:
                    await writer.drain()
                except (OSError, ssl.SSLError) as exc:
                    self.close(KafkaConnectionError("sending to %s:%d failed: %s" % (self.host, self.port, exc)))
        if future is None:
            if self._closed_with is not None:
                raise self._not_usable()
            return None
        try:
            return await asyncio.wait_for(future, self.request_timeout)
        except asyncio.TimeoutError:
            if future.done() and not future.cancelled():
                raise  # pragma: no cover - the answer's own error
            error = RequestTimedOutError("%s:%d did not answer %s within %d ms"
                                         % (self.host, self.port, api.name, self.request_timeout * 1000))
            self.close(error)
            raise error from None

    def _not_usable(self) -> KafkaConnectionError:
        cause = self._closed_with
        if isinstance(cause, KafkaConnectionError):
            return cause
        return KafkaConnectionError("connection to %s:%d is not usable%s"
                                    % (self.host, self.port, ": %s" % cause if cause is not None else ""))

    async def _read_loop(self) -> None:
        reader = self._reader
        assert reader is not None
        try:
            while True:
                data = await reader.read(_READ_SIZE)
                if not data:
                    self.close(KafkaConnectionError("%s:%d closed the connection" % (self.host, self.port)))
                    return
                for response in self._framer.receive_data(data):
                    future = self._waiting.pop(response.correlation_id, None)
                    if future is not None and not future.done():
                        future.set_result(response.body)
                if self._framer.error is not None:
                    self.close(self._framer.error)
                    return
        except ProtocolError as exc:
            self.close(exc)
        except (OSError, ssl.SSLError) as exc:
            self.close(KafkaConnectionError("receiving from %s:%d failed: %s" % (self.host, self.port, exc)))
        except asyncio.CancelledError:
            pass

    # -- closing ----------------------------------------------------------------------------

    def close(self, error: Optional[BaseException] = None) -> None:
        """Close the stream; every request awaiting an answer fails with ``error`` (or a connection error)."""
        if self._closed_with is not None:
            return
        failure = error if error is not None else KafkaConnectionError(
            "connection to %s:%d closed" % (self.host, self.port))
        self._closed_with = failure
        self._connected = False
        if error is not None:
            log.info("%r: closed: %s", self, error)
        if self._writer is not None:
            self._writer.close()
        task = self._read_task
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(failure)
        self._framer.fail_all()

    async def wait_closed(self) -> None:
        """Wait until the stream is closed (after :meth:`close`)."""
        if self._writer is not None:
            try:
                await self._writer.wait_closed()
            except (OSError, ssl.SSLError):
                pass
        if self._read_task is not None:
            await asyncio.gather(self._read_task, return_exceptions=True)


def _current_task() -> Optional["asyncio.Task[Any]"]:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def _broker_error(code: int, message: str) -> KafkaError:
    cls = for_code(code)
    if cls is None:  # pragma: no cover - the code is not 0
        return SaslAuthenticationFailedError(message)
    return cls(message)
