"""The server side of SCRAM, written from RFC 5802, for tests of the client.

:class:`ScramServer` runs one exchange at a time against stored credentials
only (salt, iteration count, StoredKey, ServerKey), as a real server does.
The SASL unit tests drive it directly; the SASL-over-socket tests put it
behind a :class:`kafka.testing.ScriptedPeer` (see ``sasl_peer``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Dict, List, Optional, Tuple


def _h(hash_name: str, data: bytes) -> bytes:
    return hashlib.new(hash_name, data).digest()


def _hmac(hash_name: str, key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hash_name).digest()


class ScramServer:
    """The server side of SCRAM (RFC 5802 section 3 and 5), enough to test a client.

    It stores only what a real server stores: salt, iteration count,
    StoredKey and ServerKey. It verifies the client proof by recovering
    ClientKey from it and comparing H(ClientKey) with StoredKey.
    """

    def __init__(self, hash_name: str, users: Dict[str, str], iterations: int = 4096) -> None:
        self.hash = hash_name
        self.credentials: Dict[str, Tuple[bytes, int, bytes, bytes]] = {}
        for user, password in users.items():
            salt = secrets.token_bytes(16)
            salted = hashlib.pbkdf2_hmac(hash_name, password.encode("utf-8"), salt, iterations)
            stored_key = _h(hash_name, _hmac(hash_name, salted, b"Client Key"))
            server_key = _hmac(hash_name, salted, b"Server Key")
            self.credentials[user] = (salt, iterations, stored_key, server_key)
        self.user: Optional[str] = None
        self.extensions: List[bytes] = []

    @staticmethod
    def unescape(saslname: str) -> str:
        if re.search(r"=(?!2C|3D)", saslname):
            raise ValueError("bad saslname escape")
        return re.sub(r"=2C|=3D", lambda m: "," if m.group() == "=2C" else "=", saslname)

    def server_first(self, client_first: bytes) -> bytes:
        cbind, authzid, bare = client_first.split(b",", 2)
        assert cbind == b"n" and authzid == b"", client_first
        attributes = bare.split(b",")
        assert attributes[0].startswith(b"n=") and attributes[1].startswith(b"r="), bare
        self.user = self.unescape(attributes[0][2:].decode("utf-8"))
        self.extensions = attributes[2:]
        self.client_first_bare = bare
        self.nonce = attributes[1][2:] + base64.b64encode(secrets.token_bytes(18))
        salt, iterations, _, _ = self.credentials[self.user]
        self.first = b"r=" + self.nonce + b",s=" + base64.b64encode(salt) + b",i=" + str(iterations).encode()
        return self.first

    def server_final(self, client_final: bytes) -> bytes:
        without_proof, _, proof_attr = client_final.rpartition(b",")
        assert proof_attr.startswith(b"p="), client_final
        channel_binding, nonce = without_proof.split(b",")
        if channel_binding != b"c=" + base64.b64encode(b"n,,") or nonce != b"r=" + self.nonce:
            return b"e=other-error"
        assert self.user is not None
        _, _, stored_key, server_key = self.credentials[self.user]
        auth_message = self.client_first_bare + b"," + self.first + b"," + without_proof
        client_signature = _hmac(self.hash, stored_key, auth_message)
        client_key = bytes(a ^ b for a, b in zip(base64.b64decode(proof_attr[2:]), client_signature))
        if not hmac.compare_digest(_h(self.hash, client_key), stored_key):
            return b"e=invalid-proof"
        return b"v=" + base64.b64encode(_hmac(self.hash, server_key, auth_message))
