"""TLS test support: a throw-away PKI and a TLS-terminating proxy.

Tansu 0.6 cannot serve TLS itself, so the TLS tests put :class:`TlsProxy` in
front of it: the proxy is a real TLS server (Python's ``ssl`` module, that is
OpenSSL) on a loopback port, and forwards the decrypted bytes to the broker's
plaintext port and the broker's answers back, encrypted. The broker is
started with ``advertised_port`` set to the proxy's port so that metadata
sends clients back through the proxy.

:func:`make_pki` writes every certificate, key and CRL the tests need into a
directory, generated on the spot with the ``cryptography`` package; nothing
secret is checked in and nothing expires between runs.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import selectors
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

log = logging.getLogger(__name__)

#: Password of the encrypted client key written by :func:`make_pki`.
KEY_PASSWORD = "kw-tls-Pa55phrase!"


# ---------------------------------------------------------------------------
# Certificates
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Pki:
    """Paths of everything :func:`make_pki` wrote (PEM files)."""

    directory: str
    ca: str                      # the CA the clients trust
    other_ca: str                # a second CA nobody is told to trust
    server_cert: str             # CA-signed, for localhost and 127.0.0.1
    server_key: str
    wrong_name_cert: str         # CA-signed, for not-this-host.example only
    wrong_name_key: str
    untrusted_cert: str          # signed by other_ca, for localhost and 127.0.0.1
    untrusted_key: str
    revoked_server_cert: str     # CA-signed, for localhost and 127.0.0.1, listed in the CRL
    revoked_server_key: str
    client_cert: str             # CA-signed client certificate
    client_key: str              # its key, unencrypted
    client_key_encrypted: str    # the same key, encrypted with KEY_PASSWORD
    revoked_client_cert: str     # a second CA-signed client certificate, listed in the CRL
    revoked_client_key: str
    crl: str                     # the CA's CRL
    revoked_serials: Tuple[int, ...]


_ONE_DAY = datetime.timedelta(days=1)


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _new_key() -> ec.EllipticCurvePrivateKey:
    # P-256 keys are generated in microseconds, unlike RSA ones.
    return ec.generate_private_key(ec.SECP256R1())


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "kafkawire tests"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _make_ca(common_name: str) -> Tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = _new_key()
    subject = _name(common_name)
    now = _now()
    cert = (x509.CertificateBuilder()
            .subject_name(subject).issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - _ONE_DAY).not_valid_after(now + 30 * _ONE_DAY)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


def _issue(ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate, common_name: str,
           dns_names: Tuple[str, ...] = (), ip_addresses: Tuple[str, ...] = (),
           client: bool = False) -> Tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = _new_key()
    now = _now()
    usage = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
    builder = (x509.CertificateBuilder()
               .subject_name(_name(common_name)).issuer_name(ca_cert.subject)
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - _ONE_DAY).not_valid_after(now + 30 * _ONE_DAY)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=True, key_cert_sign=False,
                                            crl_sign=False, encipher_only=False, decipher_only=False),
                              critical=True)
               .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                              critical=False))
    alt_names: List[x509.GeneralName] = [x509.DNSName(n) for n in dns_names]
    alt_names += [x509.IPAddress(ipaddress.ip_address(a)) for a in ip_addresses]
    if alt_names:
        builder = builder.add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
    return key, builder.sign(ca_key, hashes.SHA256())


def _make_crl(ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate,
              serials: Tuple[int, ...]) -> x509.CertificateRevocationList:
    now = _now()
    builder = (x509.CertificateRevocationListBuilder()
               .issuer_name(ca_cert.subject)
               .last_update(now - _ONE_DAY).next_update(now + 30 * _ONE_DAY)
               .add_extension(x509.CRLNumber(1), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                              critical=False))
    for serial in serials:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(now - _ONE_DAY).build())
    return builder.sign(ca_key, hashes.SHA256())


def _write(path: str, data: bytes) -> str:
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def _write_cert(directory: str, stem: str, cert: x509.Certificate) -> str:
    return _write(os.path.join(directory, stem + ".pem"), cert.public_bytes(serialization.Encoding.PEM))


def _write_key(directory: str, stem: str, key: ec.EllipticCurvePrivateKey, password: Optional[str] = None) -> str:
    encryption: serialization.KeySerializationEncryption = serialization.NoEncryption()
    if password is not None:
        encryption = serialization.BestAvailableEncryption(password.encode("utf-8"))
    data = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    path = _write(os.path.join(directory, stem + ".key"), data)
    os.chmod(path, 0o600)
    return path


def make_pki(directory: str) -> Pki:
    """Generate a CA, server and client certificates, keys and a CRL in ``directory``."""
    directory = str(directory)
    os.makedirs(directory, exist_ok=True)
    ca_key, ca_cert = _make_ca("kafkawire test CA")
    _other_key, other_cert = _make_ca("kafkawire untrusted CA")
    loopback = dict(dns_names=("localhost",), ip_addresses=("127.0.0.1",))
    server_key, server_cert = _issue(ca_key, ca_cert, "localhost", **loopback)
    wrong_key, wrong_cert = _issue(ca_key, ca_cert, "not-this-host.example", dns_names=("not-this-host.example",))
    untrusted_key, untrusted_cert = _issue(_other_key, other_cert, "localhost", **loopback)
    revoked_key, revoked_cert = _issue(ca_key, ca_cert, "localhost", **loopback)
    client_key, client_cert = _issue(ca_key, ca_cert, "kafkawire-client", client=True)
    revoked_client_key, revoked_client_cert = _issue(ca_key, ca_cert, "kafkawire-revoked-client", client=True)
    revoked = (revoked_cert.serial_number, revoked_client_cert.serial_number)
    crl = _make_crl(ca_key, ca_cert, revoked)
    return Pki(
        directory=directory,
        ca=_write_cert(directory, "ca", ca_cert),
        other_ca=_write_cert(directory, "other-ca", other_cert),
        server_cert=_write_cert(directory, "server", server_cert),
        server_key=_write_key(directory, "server", server_key),
        wrong_name_cert=_write_cert(directory, "wrong-name", wrong_cert),
        wrong_name_key=_write_key(directory, "wrong-name", wrong_key),
        untrusted_cert=_write_cert(directory, "untrusted", untrusted_cert),
        untrusted_key=_write_key(directory, "untrusted", untrusted_key),
        revoked_server_cert=_write_cert(directory, "revoked-server", revoked_cert),
        revoked_server_key=_write_key(directory, "revoked-server", revoked_key),
        client_cert=_write_cert(directory, "client", client_cert),
        client_key=_write_key(directory, "client", client_key),
        client_key_encrypted=_write_key(directory, "client-encrypted", client_key, password=KEY_PASSWORD),
        revoked_client_cert=_write_cert(directory, "revoked-client", revoked_client_cert),
        revoked_client_key=_write_key(directory, "revoked-client", revoked_client_key),
        crl=_write(os.path.join(directory, "ca-crl.pem"), crl.public_bytes(serialization.Encoding.PEM)),
        revoked_serials=revoked,
    )


def server_context(certfile: str, keyfile: str, client_cafile: Optional[str] = None,
                   client_crlfile: Optional[str] = None) -> ssl.SSLContext:
    """A server-side context; with ``client_cafile`` clients must present a certificate it signed."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certfile, keyfile)
    if client_cafile is not None:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(client_cafile)
        if client_crlfile is not None:
            context.load_verify_locations(client_crlfile)
            context.verify_flags |= ssl.VERIFY_CRL_CHECK_LEAF
    return context


# ---------------------------------------------------------------------------
# The proxy
# ---------------------------------------------------------------------------

_CHUNK = 64 * 1024
_HIGH_WATER = 1024 * 1024  # stop reading a side while this much waits for the other one


class _Link:
    """One client connection: its TLS state (memory BIOs) and the upstream socket."""

    def __init__(self, number: int, client: socket.socket, context: ssl.SSLContext, now: float,
                 handshake_timeout: float) -> None:
        self.number = number
        self.client = client
        self.upstream: Optional[socket.socket] = None
        self.incoming = ssl.MemoryBIO()
        self.outgoing = ssl.MemoryBIO()
        self.tls = context.wrap_bio(self.incoming, self.outgoing, server_side=True)
        self.handshaken = False
        self.to_client = bytearray()    # ciphertext waiting for the client
        self.to_upstream = bytearray()  # plaintext waiting for the broker
        self.client_eof = False
        self.upstream_eof = False
        self.failed_at: Optional[float] = None  # handshake failed: flush the alert, then drain and close
        self.write_shut = False
        self.deadline = now + handshake_timeout
        self.registered: Dict[socket.socket, int] = {}

    def sockets(self) -> List[socket.socket]:
        return [s for s in (self.client, self.upstream) if s is not None]


class TlsProxy:
    """A TLS server on a loopback port that relays to a plaintext upstream (the broker).

    ::

        with TlsProxy(pki.server_cert, pki.server_key) as proxy:
            broker = EmbeddedBroker(advertised_port=proxy.port).start()
            proxy.upstream = (broker.host, broker.port)

    One thread serves every connection with a selector; TLS runs over memory
    BIOs, so the socket I/O stays plain and non-blocking. A connection whose
    handshake fails gets OpenSSL's alert, then is closed; the failure is
    recorded in :attr:`handshake_failures`. The upstream connection is only
    opened once the handshake succeeded.

    :param certfile: the server certificate (PEM).
    :param keyfile: its private key.
    :param client_cafile: when given, clients must present a certificate
        signed by this CA (``require_client_cert``).
    :param upstream: ``(host, port)`` to relay to; may be set later through
        the :attr:`upstream` attribute (it is read for each new connection).
    :param host: address to listen on.
    :param port: port to listen on (0 picks a free one).
    :param handshake_timeout: seconds a client has to finish the handshake.
    """

    def __init__(self, certfile: str, keyfile: str, client_cafile: Optional[str] = None,
                 upstream: Optional[Tuple[str, int]] = None, host: str = "127.0.0.1", port: int = 0,
                 handshake_timeout: float = 5.0, linger: float = 1.0) -> None:
        self.upstream = upstream
        self.handshake_timeout = handshake_timeout
        self.linger = linger
        self._context = server_context(certfile, keyfile, client_cafile)
        self._listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((host, port))
        self._listener.listen(128)
        self._listener.setblocking(False)
        self.host = host
        self.port = self._listener.getsockname()[1]
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._links: Dict[int, _Link] = {}
        self._numbers = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: Optional[threading.Thread] = None
        self._crashed: Optional[BaseException] = None
        # What happened, for the tests to look at.
        self.accepted = 0
        self.handshakes = 0
        self.handshake_failures: List[str] = []
        self._counted_after = 0  # link numbers up to this one predate reset_stats()
        self.client_subjects: List[Optional[str]] = []

    def __repr__(self) -> str:
        return "<TlsProxy %s:%d -> %s>" % (self.host, self.port, self.upstream)

    # -- configuration ---------------------------------------------------------

    def configure(self, certfile: str, keyfile: str, client_cafile: Optional[str] = None,
                  client_crlfile: Optional[str] = None) -> None:
        """Serve another certificate (and client-certificate policy) to new connections."""
        context = server_context(certfile, keyfile, client_cafile, client_crlfile)
        with self._lock:
            self._context = context

    @property
    def address(self) -> str:
        """``"host:port"`` of the TLS endpoint."""
        return "%s:%d" % (self.host, self.port)

    def open_connections(self) -> int:
        """Client connections currently open."""
        with self._lock:
            return len(self._links)

    def reset_stats(self) -> None:
        """Forget the counters and recorded failures."""
        with self._lock:
            self.accepted = 0
            self.handshakes = 0
            self.handshake_failures = []
            self.client_subjects = []
            self._counted_after = self._numbers

    # -- lifecycle ---------------------------------------------------------------

    def start(self) -> "TlsProxy":
        """Start serving (idempotent); returns ``self``."""
        if self._thread is None:
            self._selector.register(self._listener, selectors.EVENT_READ, "accept")
            self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
            self._thread = threading.Thread(target=self._run, name="tls-proxy-%d" % self.port, daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread and close every socket the proxy owns."""
        self._stop.set()
        if self._thread is not None:
            try:
                self._wake_w.send(b"x")
            except OSError:
                pass
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise RuntimeError("the TLS proxy thread did not stop within %.1f s" % timeout)
            self._thread = None
        else:
            self._shutdown()
        if self._crashed is not None:
            raise RuntimeError("the TLS proxy thread crashed: %r" % (self._crashed,)) from self._crashed

    def __enter__(self) -> "TlsProxy":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the loop -----------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                self._expire(now)
                for key, mask in self._selector.select(self._wait(now)):
                    if key.data == "accept":
                        self._accept()
                    elif key.data == "wake":
                        self._drain_wake()
                    else:
                        link, side = key.data
                        if link.number in self._links:
                            self._on_event(link, side, mask)
                for link in list(self._links.values()):
                    self._update_interest(link)
        except BaseException as exc:  # noqa: BLE001 - reported by close()
            log.exception("TLS proxy crashed")
            self._crashed = exc
        finally:
            self._shutdown()

    def _wait(self, now: float) -> float:
        wait = 0.5
        for link in self._links.values():
            if not link.handshaken or link.failed_at is not None:
                wait = min(wait, max(link.deadline - now, 0.0))
        return wait

    def _expire(self, now: float) -> None:
        for link in list(self._links.values()):
            if (not link.handshaken or link.failed_at is not None) and now >= link.deadline:
                if link.failed_at is None:
                    self._record_failure(link, "handshake not finished within %.1f s" % self.handshake_timeout)
                self._close_link(link)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(1024):
                pass
        except OSError:
            pass

    def _accept(self) -> None:
        while True:
            try:
                client, _addr = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                log.warning("TLS proxy accept failed: %s", exc)
                return
            client.setblocking(False)
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._numbers += 1
                self.accepted += 1
                link = _Link(self._numbers, client, self._context, time.monotonic(), self.handshake_timeout)
                self._links[link.number] = link
            self._update_interest(link)

    def _update_interest(self, link: _Link) -> None:
        if link.number not in self._links:
            return
        wanted: Dict[socket.socket, int] = {}
        client_events = 0
        if not link.client_eof and len(link.to_upstream) < _HIGH_WATER:
            client_events |= selectors.EVENT_READ
        if link.to_client:
            client_events |= selectors.EVENT_WRITE
        wanted[link.client] = client_events
        if link.upstream is not None:
            upstream_events = 0
            if not link.upstream_eof and len(link.to_client) < _HIGH_WATER:
                upstream_events |= selectors.EVENT_READ
            if link.to_upstream:
                upstream_events |= selectors.EVENT_WRITE
            wanted[link.upstream] = upstream_events
        for sock, events in wanted.items():
            current = link.registered.get(sock, 0)
            if events == current:
                continue
            side = "client" if sock is link.client else "upstream"
            if current and events:
                self._selector.modify(sock, events, (link, side))
            elif events:
                self._selector.register(sock, events, (link, side))
            else:
                self._selector.unregister(sock)
            link.registered[sock] = events

    def _on_event(self, link: _Link, side: str, mask: int) -> None:
        try:
            if side == "client":
                if mask & selectors.EVENT_WRITE:
                    self._flush(link.client, link.to_client)
                if mask & selectors.EVENT_READ:
                    self._read_client(link)
            else:
                if mask & selectors.EVENT_WRITE:
                    self._flush(link.upstream, link.to_upstream)
                if mask & selectors.EVENT_READ:
                    self._read_upstream(link)
            self._maybe_finish(link)
        except OSError as exc:  # includes ssl.SSLError
            log.debug("TLS proxy link %d: %s", link.number, exc)
            self._close_link(link)

    @staticmethod
    def _flush(sock: Optional[socket.socket], buffer: bytearray) -> None:
        assert sock is not None
        while buffer:
            try:
                sent = sock.send(buffer)
            except (BlockingIOError, InterruptedError):
                return
            del buffer[:sent]

    def _read_client(self, link: _Link) -> None:
        try:
            data = link.client.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        if not data:
            link.client_eof = True
            if link.handshaken and link.failed_at is None:
                link.incoming.write_eof()
                self._decrypt(link)
            return
        if link.failed_at is not None:
            return  # draining what a rejected client still sends
        link.incoming.write(data)
        if not link.handshaken:
            self._handshake(link)
        if link.handshaken:
            self._decrypt(link)
        self._collect_ciphertext(link)

    def _handshake(self, link: _Link) -> None:
        try:
            link.tls.do_handshake()
        except ssl.SSLWantReadError:
            return
        except ssl.SSLError as exc:
            # OpenSSL has written its alert to the outgoing BIO: send it, stop
            # writing, and drain the client for a while before closing, so the
            # alert is read rather than lost to a connection reset.
            self._record_failure(link, getattr(exc, "verify_message", None) or exc.reason or str(exc))
            self._collect_ciphertext(link)
            link.failed_at = time.monotonic()
            link.deadline = link.failed_at + self.linger
            return
        peer = link.tls.getpeercert()
        subject = None
        if peer:
            subject = ", ".join("%s=%s" % pair for rdn in peer.get("subject", ()) for pair in rdn)
        upstream = self.upstream
        if upstream is None:
            raise OSError("the TLS proxy has no upstream")
        sock = socket.create_connection(upstream, timeout=5.0)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        link.upstream = sock
        link.handshaken = True
        with self._lock:
            self.handshakes += 1
            self.client_subjects.append(subject)

    def _decrypt(self, link: _Link) -> None:
        while True:
            try:
                data = link.tls.read(_CHUNK)
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
                link.client_eof = True
                return
            if not data:
                link.client_eof = True
                return
            link.to_upstream += data

    def _read_upstream(self, link: _Link) -> None:
        assert link.upstream is not None
        try:
            data = link.upstream.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        if not data:
            link.upstream_eof = True
            return
        view = memoryview(data)
        while view:
            written = link.tls.write(view)
            view = view[written:]
        self._collect_ciphertext(link)

    @staticmethod
    def _collect_ciphertext(link: _Link) -> None:
        pending = link.outgoing.read()
        if pending:
            link.to_client += pending

    def _maybe_finish(self, link: _Link) -> None:
        if link.number not in self._links:
            return
        if link.failed_at is not None:
            if not link.to_client and not link.write_shut:
                link.write_shut = True
                try:
                    link.client.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
            if link.client_eof:
                self._close_link(link)
            return
        if link.to_client:
            self._flush(link.client, link.to_client)
        if link.upstream is not None and link.to_upstream:
            self._flush(link.upstream, link.to_upstream)
        if link.client_eof and not link.to_upstream:
            self._close_link(link)  # the client left: nobody wants the broker's answers
        elif link.upstream_eof and not link.to_client:
            self._close_link(link)  # the broker hung up: pass that on

    def _record_failure(self, link: _Link, reason: str) -> None:
        with self._lock:
            # A connection accepted before the last reset_stats() belongs to an
            # earlier test: its late failure must not count against this one.
            if link.number > self._counted_after:
                self.handshake_failures.append(reason)

    def _close_link(self, link: _Link) -> None:
        with self._lock:
            if self._links.pop(link.number, None) is None:
                return
        for sock in link.sockets():
            if link.registered.get(sock):
                try:
                    self._selector.unregister(sock)
                except (KeyError, ValueError):
                    pass
            try:
                sock.close()
            except OSError:
                pass
        link.registered.clear()

    def _shutdown(self) -> None:
        for link in list(self._links.values()):
            self._close_link(link)
        for sock in (self._listener, self._wake_r, self._wake_w):
            try:
                sock.close()
            except OSError:
                pass
        try:
            self._selector.close()
        except (OSError, ValueError):
            pass
