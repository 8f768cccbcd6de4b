"""A SASL login for a :class:`kafka.testing.ScriptedPeer`: PLAIN and SCRAM, checked for real.

Neither test broker completes a SASL login (Tansu keeps no users), so tests of
a working login put :class:`SaslLogin` on a scripted peer: it answers
SaslHandshake and SaslAuthenticate, checks PLAIN credentials or runs the RFC
5802 SCRAM server of :mod:`test.support.scram_server`, and remembers which
connections logged in, so a test can check that no other request came on a
connection that had not.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Iterable, List, Set, Tuple

from kafka.testing import ReceivedRequest, ScriptedPeer
from test.support.scram_server import ScramServer

_SASL_AUTHENTICATION_FAILED = 58
_UNSUPPORTED_SASL_MECHANISM = 33
_SCRAM_HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}
#: Requests that may come before the login is complete.
HANDSHAKE_APIS = frozenset(["ApiVersions", "SaslHandshake", "SaslAuthenticate"])


class SaslLogin:
    """Answers the SASL handshake on ``peer`` for one mechanism and a set of users.

    :param peer: the peer to install the handlers on.
    :param mechanism: ``"PLAIN"``, ``"SCRAM-SHA-256"``, ``"SCRAM-SHA-512"`` or ``"OAUTHBEARER"``.
    :param users: ``{username: password}`` accepted (for OAUTHBEARER, the bearer tokens accepted as keys;
        the extensions each login sent are kept in :attr:`oauth_extensions`).
    :param refuse: connection indexes whose login is refused whatever the
        credentials (a broker that lets the bootstrap connection in but not
        the next one).
    """

    def __init__(self, peer: ScriptedPeer, mechanism: str, users: Dict[str, str],
                 refuse: Iterable[int] = ()) -> None:
        self.mechanism = mechanism
        self.users = dict(users)
        self.refuse = set(refuse)
        #: indexes of the connections that logged in
        self.authenticated: Set[int] = set()
        #: OAUTHBEARER: (token, extensions) of each login attempt, in order
        self.oauth_logins: List[Tuple[str, Dict[str, str]]] = []
        self._scram: Dict[int, ScramServer] = {}
        self._lock = threading.Lock()
        peer.on("SaslHandshake", self._handshake)
        peer.on("SaslAuthenticate", self._authenticate)

    def unauthenticated_requests(self, peer: ScriptedPeer) -> list:
        """Requests other than the handshake's that came on a connection not logged in."""
        with self._lock:
            done = set(self.authenticated)
        return [r for r in peer.requests if r.api.name not in HANDSHAKE_APIS and r.connection not in done]

    def _handshake(self, request: ReceivedRequest) -> Dict[str, Any]:
        code = 0 if request.body.mechanism == self.mechanism else _UNSUPPORTED_SASL_MECHANISM
        return {"error_code": code, "mechanisms": [self.mechanism]}

    @staticmethod
    def _refused(message: str) -> Dict[str, Any]:
        return {"error_code": _SASL_AUTHENTICATION_FAILED, "error_message": message, "auth_bytes": b""}

    def _accepted(self, request: ReceivedRequest, auth_bytes: bytes) -> Dict[str, Any]:
        with self._lock:
            self.authenticated.add(request.connection)
        return {"error_code": 0, "error_message": None, "auth_bytes": auth_bytes, "session_lifetime_ms": 0}

    def _oauth(self, request: ReceivedRequest, message: bytes) -> Dict[str, Any]:
        """RFC 7628 client message: ``n,,\x01auth=Bearer <token>\x01key=value...\x01\x01``."""
        fields = dict(part.split("=", 1) for part in message.decode("ascii").split("\x01")[1:] if "=" in part)
        token = fields.pop("auth", "")[len("Bearer "):]
        with self._lock:
            self.oauth_logins.append((token, fields))
        if token not in self.users:
            return self._refused("Authentication failed: invalid token")
        return self._accepted(request, b"")

    def _authenticate(self, request: ReceivedRequest) -> Dict[str, Any]:
        token = bytes(request.body.auth_bytes or b"")
        if request.connection in self.refuse:
            return self._refused("Authentication failed: Invalid username or password")
        if self.mechanism == "OAUTHBEARER":
            return self._oauth(request, token)
        if self.mechanism == "PLAIN":
            _authzid, user, password = token.split(b"\0", 2)
            if self.users.get(user.decode("utf-8")) != password.decode("utf-8"):
                return self._refused("Authentication failed: Invalid username or password")
            return self._accepted(request, b"")
        server = self._scram.get(request.connection)
        if server is None:
            server = self._scram[request.connection] = ScramServer(_SCRAM_HASHES[self.mechanism], self.users)
            try:
                return {"error_code": 0, "error_message": None, "auth_bytes": server.server_first(token),
                        "session_lifetime_ms": 0}
            except KeyError:
                return self._refused("Authentication failed during authentication due to invalid credentials "
                                     "with SASL mechanism %s" % self.mechanism)
        final = server.server_final(token)
        if final.startswith(b"e="):
            return self._refused("Authentication failed during authentication due to invalid credentials "
                                 "with SASL mechanism %s" % self.mechanism)
        return self._accepted(request, final)
