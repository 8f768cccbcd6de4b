"""A blocking, one-request-at-a-time connection to a single broker.

This is the smallest useful transport over :class:`kafka.protocol.framing.ClientFramer`:
connect, negotiate versions with ApiVersions, then send a request and wait for
its response. It serves the demo, tools and tests that talk to one broker
directly. Every wait is bounded by ``timeout``; a peer that is not a Kafka
broker yields a clear :class:`kafka.errors.KafkaError`, never a hang.
"""

from __future__ import annotations

import socket
import time
from typing import Any, Optional, Tuple

from kafka.errors import KafkaConnectionError, KafkaTimeoutError, ProtocolError, UnsupportedVersionError
from kafka.protocol.apis import API_VERSIONS
from kafka.protocol.framing import ClientFramer, DEFAULT_MAX_FRAME_SIZE
from kafka.protocol.negotiate import VersionTable, api_versions_request, api_versions_retry_version
from kafka.protocol.schema import Api, StructValue


class BlockingConnection:
    """A connection to one broker, negotiated and ready for requests.

    :param host: broker host name or address.
    :param port: broker port.
    :param timeout: seconds allowed for connecting and for each request.
    :param client_id: sent in every request header.
    :param max_frame_size: largest response frame accepted.
    """

    def __init__(self, host: str, port: int, timeout: float = 10.0, client_id: str = "kafkawire",
                 max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self._framer = ClientFramer(client_id=client_id, max_frame_size=max_frame_size)
        self._sock: Optional[socket.socket] = None
        self.versions: VersionTable = VersionTable({})
        self._connect()

    def __repr__(self) -> str:
        return "<BlockingConnection %s:%d %s>" % (self.host, self.port, "open" if self._sock else "closed")

    def __enter__(self) -> "BlockingConnection":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the socket; requests in flight are forgotten."""
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None
                self._framer.fail_all()

    # -- requests -----------------------------------------------------------

    def version_for(self, api: Api, highest: Optional[int] = None) -> int:
        """The version of ``api`` this connection will use."""
        return self.versions.choose(api, highest=highest)

    def request(self, api: Api, body: Any, version: Optional[int] = None,
                timeout: Optional[float] = None) -> StructValue:
        """Send ``body`` and wait for the response (at the negotiated version)."""
        if version is None:
            version = self.version_for(api)
        self._send(api, version, body, True)
        return self._receive(timeout if timeout is not None else self.timeout)

    def send_only(self, api: Api, body: Any, version: Optional[int] = None) -> None:
        """Send a request the broker will not answer (Produce with acks=0)."""
        if version is None:
            version = self.version_for(api)
        self._send(api, version, body, False)

    # -- internals ------------------------------------------------------------

    def _connect(self) -> None:
        try:
            self._sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        except OSError as exc:
            raise KafkaConnectionError("cannot connect to %s:%d: %s" % (self.host, self.port, exc)) from None
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.versions = self._negotiate()
        except BaseException:
            self.close()
            raise

    def _negotiate(self) -> VersionTable:
        version = API_VERSIONS.max_version
        while True:
            response = self.request(API_VERSIONS, api_versions_request(version), version=version)
            retry = api_versions_retry_version(response, version)
            if retry is None:
                if response.error_code:
                    raise UnsupportedVersionError(
                        "%s:%d refused ApiVersions (error %d)" % (self.host, self.port, response.error_code))
                return VersionTable.from_response(response)
            version = retry

    def _send(self, api: Api, version: int, body: Any, expect_response: bool) -> None:
        if self._sock is None:
            raise KafkaConnectionError("connection to %s:%d is closed" % (self.host, self.port))
        _cid, frame = self._framer.send_request(api, version, body, expect_response)
        try:
            self._sock.settimeout(self.timeout)
            self._sock.sendall(frame)
        except OSError as exc:
            self.close()
            raise KafkaConnectionError("sending to %s:%d failed: %s" % (self.host, self.port, exc)) from None

    def _receive(self, timeout: float) -> StructValue:
        assert self._sock is not None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise KafkaTimeoutError("no response from %s:%d within %.1f s" % (self.host, self.port, timeout))
            try:
                self._sock.settimeout(remaining)
                data = self._sock.recv(1 << 20)
            except socket.timeout:
                continue
            except OSError as exc:
                self.close()
                raise KafkaConnectionError("receiving from %s:%d failed: %s" % (self.host, self.port, exc)) from None
            if not data:
                self.close()
                raise KafkaConnectionError("%s:%d closed the connection" % (self.host, self.port))
            try:
                responses = self._framer.receive_data(data)
            except ProtocolError:
                self.close()
                raise
            if self._framer.error is not None:
                self.close()  # junk after the response: it stands, the stream does not
            if responses:
                return responses[0].body


def parse_address(address: str, default_port: int = 9092) -> Tuple[str, int]:
    """Split ``"host:port"`` (or ``"[v6]:port"``, or a bare host) into its parts."""
    address = address.strip()
    if address.startswith("["):
        host, _, rest = address[1:].partition("]")
        port = rest.lstrip(":")
    elif address.count(":") == 1:
        host, port = address.split(":")
    else:
        host, port = address, ""
    try:
        return host, int(port) if port else default_port
    except ValueError:
        raise ValueError("bad broker address %r" % (address,)) from None
