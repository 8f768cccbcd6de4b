"""A small Confluent Schema Registry for tests, over HTTP on a loopback port.

:class:`SchemaRegistryServer` serves the documented REST endpoints of
Confluent's Schema Registry that clients use (``/subjects``,
``/schemas/ids``, ``/config``, ``/compatibility``, ``/mode``, ...) from
memory, so that a Schema Registry client, kafkawire's or confluent-kafka's,
can be tested without a registry installed:

.. code-block:: python

    from kafka.testing.schema_registry import SchemaRegistryServer

    with SchemaRegistryServer() as registry:
        client = SchemaRegistryClient({"url": registry.url})

It runs in a thread of the test process (``http.server``), one handler
thread per connection. Answers use Confluent's media type
``application/vnd.schemaregistry.v1+json`` and its error bodies
(``{"error_code": 40401, "message": ...}``). With ``user`` and ``password``
every request must carry them as HTTP basic credentials (401 otherwise); with
``ssl_context`` it speaks HTTPS. The rules it keeps (ids, versions,
deletions, compatibility) are described in
:mod:`kafka.testing._registry_store` and :mod:`kafka.testing._schema_checks`.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Set, Tuple
from urllib.parse import parse_qs, unquote, urlsplit

from kafka.testing._registry_store import RegistryError, RegistryStore

log = logging.getLogger(__name__)

MEDIA_TYPE = "application/vnd.schemaregistry.v1+json"

Query = Dict[str, List[str]]
#: A route's handler: (path parameters, query, parsed body) -> (status, answer).
Handler = Callable[[List[str], Query, Any], Tuple[int, Any]]


def _one(query: Query, name: str) -> Optional[str]:
    values = query.get(name)
    return values[-1] if values else None


def _flag(query: Query, name: str) -> bool:
    value = _one(query, name)
    return value is not None and value.strip().lower() == "true"


def _page(items: List[Any], query: Query) -> List[Any]:
    """``offset`` and ``limit`` (negative: no limit) applied to a list answer."""
    try:
        offset = max(int(_one(query, "offset") or 0), 0)
        limit = int(_one(query, "limit") or -1)
    except ValueError:
        return items
    items = items[offset:]
    return items if limit < 0 else items[:limit]


class _Routes:
    """The REST endpoints: (method, path pattern) -> handler; ``*`` in a pattern is a parameter."""

    def __init__(self, store: RegistryStore) -> None:
        s = store
        ok = 200
        self.table: List[Tuple[str, Tuple[str, ...], Handler]] = [
            ("GET", (), lambda p, q, b: (ok, {})),
            ("GET", ("subjects",), lambda p, q, b: (ok, _page(s.subjects(
                _one(q, "subjectPrefix"), _flag(q, "deleted"), _flag(q, "deleted_only")), q))),
            ("POST", ("subjects", "*", "versions"), lambda p, q, b: (ok, s.register(p[0], b))),
            ("POST", ("subjects", "*"), lambda p, q, b: (ok, s.lookup(p[0], b, _flag(q, "deleted")))),
            ("DELETE", ("subjects", "*"), lambda p, q, b: (ok, s.delete_subject(p[0], _flag(q, "permanent")))),
            ("GET", ("subjects", "*", "versions"), lambda p, q, b: (ok, _page(s.versions(
                p[0], _flag(q, "deleted"), _flag(q, "deleted_only")), q))),
            ("GET", ("subjects", "*", "versions", "*"),
             lambda p, q, b: (ok, s.version(p[0], p[1], _flag(q, "deleted")))),
            ("GET", ("subjects", "*", "versions", "*", "schema"),
             lambda p, q, b: (ok, _Raw(s.version(p[0], p[1], _flag(q, "deleted"))["schema"]))),
            ("GET", ("subjects", "*", "versions", "*", "referencedby"),
             lambda p, q, b: (ok, _page(s.referenced_by(p[0], p[1]), q))),
            ("DELETE", ("subjects", "*", "versions", "*"),
             lambda p, q, b: (ok, s.delete_version(p[0], p[1], _flag(q, "permanent")))),
            ("GET", ("schemas", "types"), lambda p, q, b: (ok, ["JSON", "PROTOBUF", "AVRO"])),
            ("GET", ("schemas", "ids", "*"), lambda p, q, b: (ok, s.schema(p[0]))),
            ("GET", ("schemas", "ids", "*", "schema"), lambda p, q, b: (ok, _Raw(s.schema(p[0])["schema"]))),
            ("GET", ("schemas", "ids", "*", "versions"), lambda p, q, b: (ok, _page(s.schema_versions(
                p[0], _one(q, "subject"), _flag(q, "deleted")), q))),
            ("GET", ("schemas", "ids", "*", "subjects"), lambda p, q, b: (ok, _page(s.schema_subjects(
                p[0], _one(q, "subject"), _flag(q, "deleted")), q))),
            ("GET", ("schemas", "guids", "*"), lambda p, q, b: (ok, s.schema_by_guid(p[0]))),
            ("GET", ("config",), lambda p, q, b: (ok, s.get_config(None, True))),
            ("PUT", ("config",), lambda p, q, b: (ok, s.set_config(None, b))),
            ("DELETE", ("config",), lambda p, q, b: (ok, s.delete_config(None))),
            ("GET", ("config", "*"), lambda p, q, b: (ok, s.get_config(p[0], _flag(q, "defaultToGlobal")))),
            ("PUT", ("config", "*"), lambda p, q, b: (ok, s.set_config(p[0], b))),
            ("DELETE", ("config", "*"), lambda p, q, b: (ok, s.delete_config(p[0]))),
            ("POST", ("compatibility", "subjects", "*", "versions"),
             lambda p, q, b: (ok, s.test_compatibility(p[0], None, b, _flag(q, "verbose")))),
            ("POST", ("compatibility", "subjects", "*", "versions", "*"),
             lambda p, q, b: (ok, s.test_compatibility(p[0], p[1], b, _flag(q, "verbose")))),
            ("GET", ("mode",), lambda p, q, b: (ok, s.get_mode(None, True))),
            ("PUT", ("mode",), lambda p, q, b: (ok, s.set_mode(None, b))),
            ("GET", ("mode", "*"), lambda p, q, b: (ok, s.get_mode(p[0], _flag(q, "defaultToGlobal")))),
            ("PUT", ("mode", "*"), lambda p, q, b: (ok, s.set_mode(p[0], b))),
            ("DELETE", ("mode", "*"), lambda p, q, b: (ok, s.delete_mode(p[0]))),
            ("GET", ("contexts",), lambda p, q, b: (ok, ["."])),
        ]

    def find(self, method: str, segments: List[str]) -> Tuple[Optional[Handler], List[str], bool]:
        """(handler, parameters, whether the path exists for another method)."""
        path_known = False
        for route_method, pattern, handler in self.table:
            if len(pattern) != len(segments):
                continue
            if all(want in ("*", got) for want, got in zip(pattern, segments)):
                params = [got for want, got in zip(pattern, segments) if want == "*"]
                if route_method == method:
                    return handler, params, True
                path_known = True
        return None, [], path_known


class _Raw(str):
    """An answer sent as it is rather than as JSON (the ``/schema`` endpoints)."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 60  # an idle kept-alive connection is dropped after this many seconds
    server: "_HttpServer"

    def setup(self) -> None:
        super().setup()
        # Small answers go out at once rather than waiting on the client's delayed ACK.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.track(self.connection, True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, False)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("schema registry %s: " + format, self.address_string(), *args)

    def _send(self, status: int, answer: Any) -> None:
        if isinstance(answer, _Raw):
            data = str(answer).encode("utf-8")
        else:
            data = json.dumps(answer).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", MEDIA_TYPE)
        self.send_header("Content-Length", str(len(data)))
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="SchemaRegistry"')
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _authorized(self) -> bool:
        expected = self.server.owner.credentials
        if expected is None:
            return True
        header = self.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "basic":
            return False
        try:
            user, _, password = base64.b64decode(token.strip(), validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return (user, password) == expected

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        owner = self.server.owner
        owner.requests.append((self.command, self.path))
        owner.headers.append(dict(self.headers.items()))
        failure = owner.take_failure()
        if failure is not None:
            self._send(failure, {"error_code": failure, "message": "injected failure"})
            return
        if not self._authorized():
            self._send(401, {"error_code": 401, "message": "Unauthorized"})
            return
        parts = urlsplit(self.path)
        segments = [unquote(s) for s in parts.path.split("/") if s]
        handler, params, path_known = self.server.routes.find(self.command, segments)
        if handler is None:
            if path_known:
                self._send(405, {"error_code": 405, "message": "HTTP 405 Method Not Allowed"})
            else:
                self._send(404, {"error_code": 404, "message": "HTTP 404 Not Found"})
            return
        try:
            body = json.loads(raw) if raw else None
        except ValueError as exc:
            self._send(400, {"error_code": 400, "message": "Unrecognized request body: %s" % exc})
            return
        try:
            status, answer = handler(params, parse_qs(parts.query, keep_blank_values=True), body)
        except RegistryError as exc:
            self._send(exc.status, exc.document())
            return
        except Exception as exc:  # a bug here should reach the client as an error, not a hang
            log.exception("schema registry: %s %s failed", self.command, self.path)
            self._send(500, {"error_code": 50001, "message": "Error in the backend data store: %s" % exc})
            return
        self._send(status, answer)

    do_GET = do_POST = do_PUT = do_DELETE = _handle


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, owner: "SchemaRegistryServer", address: Tuple[str, int]) -> None:
        super().__init__(address, _Handler)
        self.owner = owner
        self.routes = _Routes(owner.store)
        self._connections: Set[socket.socket] = set()
        self._connections_lock = threading.Lock()

    def track(self, connection: socket.socket, open_: bool) -> None:
        """Note a connection opened (or closed), so that :meth:`drop_connections` can end it."""
        with self._connections_lock:
            if open_:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def drop_connections(self) -> None:
        """End the kept-alive connections, so that a stopped server answers nothing more."""
        with self._connections_lock:
            connections, self._connections = self._connections, set()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away or failed the TLS handshake is not the test's business.
        log.debug("schema registry: connection from %s failed", client_address, exc_info=True)


class SchemaRegistryServer:
    """A Confluent-compatible Schema Registry in memory, on ``host`` (a free port unless ``port``).

    Use it as a context manager, or call :meth:`start` and :meth:`stop`.
    :attr:`url` is its base URL; :attr:`requests` lists every request
    received as ``(method, path with query)``, to check what a client sent
    (or that its cache sent nothing) and :attr:`headers` their headers;
    :meth:`fail_next` makes the next
    requests fail; :attr:`store` holds the registry's state.
    """

    def __init__(self, user: Optional[str] = None, password: Optional[str] = None, host: str = "127.0.0.1",
                 port: int = 0, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        if (user is None) != (password is None):
            raise ValueError("give both user and password, or neither")
        self.credentials: Optional[Tuple[str, str]] = (user, password) if user is not None and password is not None \
            else None
        self.store = RegistryStore()
        self.requests: List[Tuple[str, str]] = []
        self.headers: List[Dict[str, str]] = []
        self._host = host
        self._port = port
        self._ssl_context = ssl_context
        self._server: Optional[_HttpServer] = None
        self._thread: Optional[threading.Thread] = None
        self._failures: List[int] = []
        self._failures_lock = threading.Lock()

    def fail_next(self, *statuses: int) -> None:
        """Answer the next requests with these HTTP statuses (one each, in order), to test retries."""
        with self._failures_lock:
            self._failures.extend(statuses)

    def take_failure(self) -> Optional[int]:
        """The status the next request must fail with, if :meth:`fail_next` left one."""
        with self._failures_lock:
            return self._failures.pop(0) if self._failures else None

    @property
    def url(self) -> str:
        """The base URL, such as ``http://127.0.0.1:39251`` (once started)."""
        if self._server is None:
            raise RuntimeError("the schema registry is not started")
        scheme = "https" if self._ssl_context is not None else "http"
        return "%s://%s:%d" % (scheme, self._host, self._server.server_address[1])

    def start(self) -> "SchemaRegistryServer":
        """Listen and serve in a daemon thread."""
        if self._server is not None:
            return self
        server = _HttpServer(self, (self._host, self._port))
        if self._ssl_context is not None:
            # The handshake happens in the connection's handler thread, not in accept().
            server.socket = self._ssl_context.wrap_socket(server.socket, server_side=True,
                                                          do_handshake_on_connect=False)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="kafkawire-schema-registry", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the listening socket."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        server.drop_connections()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> "SchemaRegistryServer":
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()


__all__ = ["SchemaRegistryServer", "MEDIA_TYPE"]
