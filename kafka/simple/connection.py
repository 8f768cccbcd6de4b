"""The kafka-python 0.9.x ``KafkaConnection`` and ``collect_hosts``.

:class:`KafkaConnection` is a plain blocking socket to one broker that moves
already-encoded frames: :meth:`~KafkaConnection.send` writes the bytes a
:class:`kafka.protocol.KafkaProtocol` ``encode_*`` method returned, and
:meth:`~KafkaConnection.recv` reads one response frame and returns it without
its 4-byte size prefix, which is what the ``decode_*`` methods take. It does
no version negotiation, no correlation and no retries; the modern client
(:class:`kafka.client.KafkaClient`) does not use it.

Every failure of the socket -- refused or lost connection, a peer that closes
mid-frame, a send or receive that takes longer than ``timeout`` seconds --
closes the socket and raises :class:`kafka.errors.KafkaConnectionError` (the
0.9 ``kafka.common.ConnectionError``). The next :meth:`~KafkaConnection.send`
or :meth:`~KafkaConnection.recv` connects again, as in 0.9.x.
"""

from __future__ import annotations

import logging
import random
import socket
import struct
import threading
import time
from typing import Any, List, Optional, Sequence, Tuple, Union

from kafka.conn.blocking import parse_address
from kafka.errors import KafkaConnectionError
from kafka.protocol.framing import DEFAULT_MAX_FRAME_SIZE

log = logging.getLogger(__name__)

#: Port assumed when a host is given without one.
DEFAULT_KAFKA_PORT = 9092
#: Seconds a 0.9 connection waits on its socket unless told otherwise.
DEFAULT_SOCKET_TIMEOUT_SECONDS = 120

_SIZE = struct.Struct(">i")
_NOT_GIVEN: Any = object()

Hosts = Union[str, bytes, Sequence[Any]]


def _host_entry(entry: Any) -> Tuple[str, int]:
    if isinstance(entry, (tuple, list)) and len(entry) == 2:
        host, port = entry
        if isinstance(host, bytes):
            host = host.decode("utf-8")
        return str(host).strip().strip("[]"), int(port)
    if isinstance(entry, bytes):
        entry = entry.decode("utf-8")
    if not isinstance(entry, str):
        raise TypeError("a host must be 'host[:port]' or a (host, port) pair, not %r" % (entry,))
    return parse_address(entry, DEFAULT_KAFKA_PORT)


def collect_hosts(hosts: Hosts, randomize: bool = True) -> List[Tuple[str, int]]:
    """Turn ``"host1:port1,host2:port2"`` into ``[(host1, port1), (host2, port2)]``.

    ``hosts`` may also be a list of ``"host:port"`` strings (or of
    ``(host, port)`` pairs). A host without a port gets 9092; IPv6 addresses
    are written in brackets (``"[::1]:9092"``). Blank entries are skipped.
    With ``randomize`` (the default) the list is shuffled, so that many
    clients given the same list do not all start with the same broker.
    """
    if isinstance(hosts, bytes):
        hosts = hosts.decode("utf-8")
    if isinstance(hosts, str):
        entries: Sequence[Any] = hosts.strip().split(",")
    else:
        entries = list(hosts)
    result = []
    for entry in entries:
        if isinstance(entry, (str, bytes)) and not entry.strip():
            continue
        result.append(_host_entry(entry))
    if randomize:
        random.shuffle(result)
    return result


class KafkaConnection(threading.local):
    """A blocking socket connection to one Kafka broker.

    :param host: the broker's host name or address.
    :param port: the broker's port.
    :param timeout: seconds allowed to connect and for each send or receive
        (default 120); ``None`` waits without limit, as the socket module does.

    The constructor connects at once (raising
    :class:`~kafka.errors.KafkaConnectionError` if it cannot). Requests are
    not multiplexed: each :meth:`send` must be followed by a :meth:`recv`
    for its response before the next request is sent.

    Like the 0.9.x class this is a :class:`threading.local`: every thread that
    uses the same object gets a socket of its own, opened the first time that
    thread touches it. Within one thread it is not safe to share.
    """

    def __init__(self, host: str, port: int, timeout: Optional[float] = DEFAULT_SOCKET_TIMEOUT_SECONDS,
                 max_frame_size: int = DEFAULT_MAX_FRAME_SIZE, _connect: bool = True) -> None:
        super().__init__()
        if isinstance(host, bytes):
            host = host.decode("utf-8")
        self.host = host
        self.port = int(port)
        self.timeout = timeout
        self.max_frame_size = max_frame_size
        self._sock: Optional[socket.socket] = None
        if _connect:
            self.reinit()

    def __getnewargs__(self) -> Tuple[str, int, Optional[float]]:
        return (self.host, self.port, self.timeout)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_sock"] = None  # a copy or a pickle never carries the socket
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return "<KafkaConnection host=%s port=%d %s>" % (self.host, self.port,
                                                         "connected" if self._sock else "not connected")

    # -- connecting ---------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether this thread's socket is open."""
        return self._sock is not None

    def _address(self) -> str:
        return "[%s]:%d" % (self.host, self.port) if ":" in self.host else "%s:%d" % (self.host, self.port)

    def _fail(self, what: str, cause: Optional[BaseException] = None) -> KafkaConnectionError:
        """Close the socket and build the error to raise."""
        self.close()
        reason = "" if cause is None else ": %s" % (cause,)
        return KafkaConnectionError("Kafka @ %s %s%s" % (self._address(), what, reason))

    def reinit(self) -> None:
        """Close the socket if it is open and connect again.

        Raises :class:`~kafka.errors.KafkaConnectionError` when the broker
        cannot be reached within ``timeout``.
        """
        self.close()
        log.debug("connecting to %s", self._address())
        try:
            sock = socket.create_connection((self.host, self.port), self.timeout)
        except socket.timeout:
            raise self._fail("did not accept a connection within %s s" % (self.timeout,)) from None
        except OSError as exc:
            raise self._fail("could not be reached", exc) from None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # pragma: no cover - not a TCP socket (never with create_connection)
            pass
        self._sock = sock

    def get_connected_socket(self) -> socket.socket:
        """This thread's socket, connecting first if needed."""
        if self._sock is None:
            self.reinit()
        assert self._sock is not None
        return self._sock

    def close(self) -> None:
        """Shut down and close this thread's socket (nothing happens if none is open)."""
        sock, self._sock = self._sock, None
        if sock is None:
            return
        log.debug("closing the connection to %s", self._address())
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the peer may have closed it already
        sock.close()

    def copy(self) -> "KafkaConnection":
        """An unconnected connection to the same broker, e.g. for another thread.

        Call :meth:`reinit` (or just use it: :meth:`send` connects) before use.
        """
        return type(self)(self.host, self.port, self.timeout, max_frame_size=self.max_frame_size, _connect=False)

    # -- requests -----------------------------------------------------------------

    def send(self, request_id: int, payload: bytes) -> None:
        """Write one encoded request frame (from a ``KafkaProtocol.encode_*`` method).

        ``request_id`` only appears in log messages: the correlation id is the
        one encoded in ``payload``.
        """
        sock = self.get_connected_socket()
        log.debug("sending request %s (%d bytes) to %s", request_id, len(payload), self._address())
        try:
            sock.settimeout(self.timeout)
            sock.sendall(payload)
        except socket.timeout:
            raise self._fail("did not take request %s within %s s" % (request_id, self.timeout)) from None
        except OSError as exc:
            raise self._fail("went away while request %s was sent" % (request_id,), exc) from None

    def recv(self, request_id: int) -> bytes:
        """Read one response frame and return it without its 4-byte size.

        The result starts with the response's correlation id, as the
        ``KafkaProtocol.decode_*`` methods expect. ``request_id`` only
        appears in log messages.
        """
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        (size,) = _SIZE.unpack(self._read(4, request_id, deadline))
        if size < 4 or size > self.max_frame_size:
            raise self._fail("sent a response frame of %d bytes to request %s, which is not a Kafka response"
                             % (size, request_id))
        body = self._read(size, request_id, deadline)
        log.debug("received %d bytes for request %s from %s", size, request_id, self._address())
        return body

    def _read(self, count: int, request_id: int, deadline: Optional[float]) -> bytes:
        sock = self.get_connected_socket()
        chunks = []
        missing = count
        while missing:
            if deadline is None:
                sock.settimeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fail("sent no complete response to request %s within %s s"
                                     % (request_id, self.timeout))
                sock.settimeout(left)
            try:
                chunk = sock.recv(min(missing, 1 << 16))
            except socket.timeout:
                raise self._fail("sent no complete response to request %s within %s s"
                                 % (request_id, self.timeout)) from None
            except OSError as exc:
                raise self._fail("went away while reading the response to request %s" % (request_id,),
                                 exc) from None
            if not chunk:
                raise self._fail("closed the connection with %d of %d bytes of the response to request %s "
                                 "unread" % (missing, count, request_id))
            chunks.append(chunk)
            missing -= len(chunk)
        return b"".join(chunks)


__all__ = ["KafkaConnection", "collect_hosts", "DEFAULT_KAFKA_PORT", "DEFAULT_SOCKET_TIMEOUT_SECONDS"]
