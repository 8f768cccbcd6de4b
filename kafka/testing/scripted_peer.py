"""A scripted Kafka peer: a loopback TCP server whose answers a test writes.

Neither embedded test broker can produce every answer a client must handle
(topic-id responses, the aborted-transactions list, a completed SASL login,
corrupted or truncated frames). :class:`ScriptedPeer` speaks Kafka framing over
real sockets and lets a test decide, request by request, what comes back:

>>> peer = ScriptedPeer(topics={"t": 1})
>>> peer.on("Produce", lambda req: {"responses": [...]})       # doctest: +SKIP
>>> producer = KafkaProducer(bootstrap_servers=peer.bootstrap)  # doctest: +SKIP

ApiVersions, Metadata and FindCoordinator are answered by default (the
versions in ``api_versions``; this peer as the only broker, leading every
partition of ``topics`` and coordinating every group and transaction); any
other request needs a handler registered with :meth:`on`, which also
replaces a default answer.
A handler receives the decoded :class:`ReceivedRequest` and returns one of:

* a ``dict`` or a response value: encoded as the answer at the request's
  version, with the request's correlation id;
* ``bytes``: written to the socket as they are (the test builds the whole
  frame, length prefix included; see :meth:`ReceivedRequest.frame`);
* :data:`NO_REPLY` (or ``None``): nothing is written;
* :data:`CLOSE`: the connection is closed.

Every request received is kept in :attr:`ScriptedPeer.requests`, decoded and
raw, so a test can assert what the client sent. A handler that raises closes
its connection and is recorded in :attr:`ScriptedPeer.errors`; leaving the
``with`` block then fails the test, unless the test cleared ``errors``.
Given a server-side ``ssl_context``, the peer speaks TLS on every connection
it accepts (for ``SSL`` and ``SASL_SSL`` clients).
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from kafka.protocol import apis
from kafka.protocol.framing import FrameBuffer, decode_request_header, encode_response
from kafka.protocol.schema import Api, StructValue

#: A handler's answer meaning "write nothing back".
NO_REPLY = object()
#: A handler's answer meaning "close this connection".
CLOSE = object()

Reply = Union[Mapping[str, Any], StructValue, bytes, object, None]
Handler = Callable[["ReceivedRequest"], Reply]


class ReceivedRequest:
    """One request as the peer received it."""

    def __init__(self, api: Api, version: int, correlation_id: int, client_id: Optional[str],
                 body: Any, raw: bytes, connection: int) -> None:
        self.api = api
        self.version = version
        self.correlation_id = correlation_id
        self.client_id = client_id
        #: the decoded request body
        self.body = body
        #: the whole frame body as received (header and request, no length prefix)
        self.raw = raw
        #: index of the connection it came on (0 for the first accepted)
        self.connection = connection

    def frame(self, response: Any) -> bytes:
        """The whole response frame answering this request with ``response``."""
        return encode_response(self.api, self.version, self.correlation_id, response)

    def __repr__(self) -> str:
        return "<ReceivedRequest %s v%d cid=%d conn=%d>" % (
            self.api.name, self.version, self.correlation_id, self.connection)


def _full_ranges() -> Dict[int, Tuple[int, int]]:
    return {api.key: (api.min_version, api.max_version) for api in apis.ALL_APIS}


def _api(name_or_key: Union[str, int]) -> Api:
    return apis.by_key(name_or_key) if isinstance(name_or_key, int) else apis.by_name(name_or_key)


class ScriptedPeer:
    """A Kafka-framed loopback server answering requests with test-written handlers.

    :param api_versions: ``{api name or key: (min, max)}`` advertised in
        ApiVersions; by default every API this library declares, in full.
        Entries given here replace the defaults; ``None`` as a range removes
        that API from the answer.
    :param topics: ``{topic: partition count}`` served by the default
        Metadata handler, each partition led by this peer.
    :param node_id: the broker id this peer reports for itself.
    :param topic_ids: topic ids by name; a random one is made for each topic
        that has none (see :meth:`topic_id`).
    :param ssl_context: a server-side :class:`ssl.SSLContext`; when given,
        each accepted connection first completes a TLS handshake with it. A
        failed handshake closes that connection and is kept in
        :attr:`tls_failures`.
    """

    def __init__(self, api_versions: Optional[Mapping[Union[str, int], Optional[Tuple[int, int]]]] = None,
                 topics: Optional[Mapping[str, int]] = None, node_id: int = 0,
                 topic_ids: Optional[Mapping[str, uuid.UUID]] = None,
                 ssl_context: Optional[ssl.SSLContext] = None) -> None:
        ranges = _full_ranges()
        for name, rng in (api_versions or {}).items():
            key = _api(name).key
            if rng is None:
                ranges.pop(key, None)
            else:
                ranges[key] = rng
        self.api_versions = ranges
        self.topics: Dict[str, int] = dict(topics or {})
        self.node_id = node_id
        self._topic_ids: Dict[str, uuid.UUID] = dict(topic_ids or {})
        self.requests: List[ReceivedRequest] = []
        self._handlers: Dict[int, Handler] = {
            apis.by_name("ApiVersions").key: self._answer_api_versions,
            apis.by_name("Metadata").key: self._answer_metadata,
            apis.by_name("FindCoordinator").key: self._answer_find_coordinator,
        }
        self._lock = threading.Condition()
        self._sockets: List[socket.socket] = []
        self._closed = False
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self.errors: List[BaseException] = []
        self.ssl_context = ssl_context
        #: TLS handshakes that failed, as the server saw them
        self.tls_failures: List[BaseException] = []
        self._accepter = threading.Thread(target=self._accept_loop, name="scripted-peer", daemon=True)
        self._accepter.start()

    # -- configuration -----------------------------------------------------

    @property
    def bootstrap(self) -> str:
        """``host:port`` to give a client as its bootstrap server."""
        return "127.0.0.1:%d" % self.port

    def topic_id(self, topic: str) -> uuid.UUID:
        """The id this peer uses for ``topic`` (made up once, then stable)."""
        with self._lock:
            if topic not in self._topic_ids:
                self._topic_ids[topic] = uuid.uuid4()
            return self._topic_ids[topic]

    def topic_name(self, topic_id: uuid.UUID) -> Optional[str]:
        """The topic that has ``topic_id``, if any."""
        with self._lock:
            for name, tid in self._topic_ids.items():
                if tid == topic_id:
                    return name
        return None

    def on(self, api: Union[str, int], handler: Handler) -> None:
        """Answer every request of ``api`` (a name such as ``"Produce"`` or a key) with ``handler``."""
        self._handlers[_api(api).key] = handler

    # -- what was received -------------------------------------------------

    def received(self, api: Union[str, int]) -> List[ReceivedRequest]:
        """The requests of ``api`` received so far, oldest first."""
        key = _api(api).key
        with self._lock:
            return [r for r in self.requests if r.api.key == key]

    def wait_for(self, api: Union[str, int], count: int = 1, timeout: float = 10.0) -> List[ReceivedRequest]:
        """Wait until ``count`` requests of ``api`` have arrived; return them.

        Raises ``AssertionError`` when they do not arrive in ``timeout`` seconds.
        """
        key = _api(api).key
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                got = [r for r in self.requests if r.api.key == key]
                if len(got) >= count:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("expected %d %s request(s) within %.1f s, received %d"
                                         % (count, _api(api).name, timeout, len(got)))
                self._lock.wait(left)

    # -- lifecycle ---------------------------------------------------------

    def close(self) -> None:
        """Stop accepting, close every connection and wait for the threads."""
        with self._lock:
            self._closed = True
            sockets = list(self._sockets)
        for sock in [self._server] + sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self._accepter.join(5)

    def close_connections(self) -> None:
        """Drop every open connection (clients see the broker go away), keep listening."""
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def __enter__(self) -> "ScriptedPeer":
        return self

    def __exit__(self, exc_type: Any, *exc: Any) -> None:
        self.close()
        if exc_type is None and self.errors:
            # A handler that raised only closed its connection, which a client
            # may well survive: fail the test here rather than let it pass
            # for the wrong reason. Clear ``errors`` to expect such failures.
            raise AssertionError("the scripted peer's handlers failed: %s"
                                 % "; ".join(repr(error) for error in self.errors))

    # -- default answers ---------------------------------------------------

    def _answer_api_versions(self, request: ReceivedRequest) -> Dict[str, Any]:
        keys = [{"api_key": key, "min_version": lo, "max_version": hi}
                for key, (lo, hi) in sorted(self.api_versions.items())]
        return {"error_code": 0, "api_keys": keys}

    def _answer_metadata(self, request: ReceivedRequest) -> Dict[str, Any]:
        asked = request.body.topics
        names = sorted(self.topics) if asked is None else [t.name or self.topic_name(t.topic_id) for t in asked]
        topics = []
        for name in names:
            if name in self.topics:
                partitions = [{"error_code": 0, "partition_index": p, "leader_id": self.node_id,
                               "leader_epoch": 0, "replica_nodes": [self.node_id],
                               "isr_nodes": [self.node_id]}
                              for p in range(self.topics[name])]
                topics.append({"error_code": 0, "name": name, "topic_id": self.topic_id(name),
                               "partitions": partitions})
            else:
                topics.append({"error_code": 3, "name": name, "partitions": []})  # UNKNOWN_TOPIC_OR_PARTITION
        return {"brokers": [{"node_id": self.node_id, "host": "127.0.0.1", "port": self.port}],
                "cluster_id": "scripted", "controller_id": self.node_id, "topics": topics}

    def _answer_find_coordinator(self, request: ReceivedRequest) -> Dict[str, Any]:
        if request.version >= 4:  # one answer per key
            return {"coordinators": [{"key": key, "node_id": self.node_id, "host": "127.0.0.1",
                                      "port": self.port, "error_code": 0}
                                     for key in request.body.coordinator_keys]}
        return {"error_code": 0, "node_id": self.node_id, "host": "127.0.0.1", "port": self.port}

    # -- serving -----------------------------------------------------------

    def _accept_loop(self) -> None:
        index = 0
        while True:
            try:
                sock, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                if self._closed:
                    sock.close()
                    return
                self._sockets.append(sock)
            threading.Thread(target=self._serve, args=(sock, index),
                             name="scripted-peer-%d" % index, daemon=True).start()
            index += 1

    def _serve(self, sock: socket.socket, index: int) -> None:
        frames = FrameBuffer()
        if self.ssl_context is not None:
            try:
                sock = self._wrap(sock)
            except (ssl.SSLError, OSError) as exc:
                self.tls_failures.append(exc)
                sock.close()
                return
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    return
                for frame in frames.feed(data):
                    if not self._answer(sock, bytes(frame), index):
                        return
        except OSError:
            return
        except Exception as exc:  # a broken handler must show up in the test, not vanish
            self.errors.append(exc)
        finally:
            sock.close()

    def _wrap(self, sock: socket.socket) -> socket.socket:
        assert self.ssl_context is not None
        sock.settimeout(10.0)  # a client that never finishes its handshake must not hold the thread
        tls = self.ssl_context.wrap_socket(sock, server_side=True)
        tls.settimeout(None)
        with self._lock:
            # close() and close_connections() must reach the TLS socket, not the raw one.
            self._sockets = [tls if s is sock else s for s in self._sockets]
        return tls

    def _answer(self, sock: socket.socket, frame: bytes, index: int) -> bool:
        header, pos = decode_request_header(
            frame, lambda key, version: apis.by_key(key).request_header_version(version) >= 2)
        api = apis.by_key(header.api_key)
        body = api.decode_request(frame[pos:], header.api_version)
        request = ReceivedRequest(api, header.api_version, header.correlation_id, header.client_id,
                                  body, frame, index)
        with self._lock:
            self.requests.append(request)
            self._lock.notify_all()
        handler = self._handlers.get(api.key)
        if handler is None:
            raise AssertionError("the scripted peer has no handler for %s v%d" % (api.name, header.api_version))
        reply = handler(request)
        if reply is CLOSE:
            return False
        if reply is NO_REPLY or reply is None:
            return True
        if isinstance(reply, (bytes, bytearray)):
            sock.sendall(reply)
        else:
            sock.sendall(request.frame(reply))
        return True
