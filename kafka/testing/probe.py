"""A self-contained ApiVersions v0 round trip over a plain socket.

Used to tell when a freshly started broker is ready. It deliberately does not
use :mod:`kafka.protocol`, so the test harness keeps working while the
protocol layer is being changed.
"""

from __future__ import annotations

import itertools
import socket
import struct
from typing import Dict, Tuple

from kafka.errors import ProtocolError

_API_VERSIONS_KEY = 18
_CLIENT_ID = b"kafkawire-probe"
_MAX_RESPONSE = 1 << 20

_correlation_ids = itertools.count(1)


def encode_api_versions_v0(correlation_id: int, client_id: bytes = _CLIENT_ID) -> bytes:
    """Return a complete ApiVersions v0 request frame, size prefix included.

    Layout: ``int32 size``, then the v1 request header (``int16 api_key``,
    ``int16 api_version``, ``int32 correlation_id``, ``string client_id``)
    and an empty v0 body.
    """
    body = struct.pack(">hhih", _API_VERSIONS_KEY, 0, correlation_id, len(client_id)) + client_id
    return struct.pack(">i", len(body)) + body


def decode_api_versions_v0(payload: bytes, correlation_id: int) -> Dict[int, Tuple[int, int]]:
    """Decode an ApiVersions v0 response (without its size prefix).

    Returns ``{api_key: (min_version, max_version)}``.

    :raises ProtocolError: if the correlation id differs, the bytes are short,
        or the broker answered with an error code.
    """
    try:
        got_id, error_code, count = struct.unpack_from(">ihi", payload, 0)
        if got_id != correlation_id:
            raise ProtocolError("ApiVersions response carries correlation id {0}, expected {1}"
                                .format(got_id, correlation_id))
        if error_code != 0:
            raise ProtocolError("ApiVersions answered with error code {0}".format(error_code))
        ranges = {}
        for i in range(max(count, 0)):
            key, low, high = struct.unpack_from(">hhh", payload, 10 + 6 * i)
            ranges[key] = (low, high)
    except struct.error as exc:
        raise ProtocolError("truncated ApiVersions response: {0}".format(exc)) from None
    return ranges


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = []
    remaining = size
    while remaining:
        chunk = sock.recv(min(remaining, 65536))
        if not chunk:
            raise ConnectionError("connection closed by the broker")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def probe_api_versions(host: str, port: int, timeout: float = 2.0) -> Dict[int, Tuple[int, int]]:
    """Send one ApiVersions v0 request to ``host:port`` and return the API ranges.

    :raises OSError: on connection failures or timeouts.
    :raises ProtocolError: if the answer is not a valid ApiVersions v0 response.
    """
    correlation_id = next(_correlation_ids) & 0x7FFFFFFF
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(encode_api_versions_v0(correlation_id))
        (size,) = struct.unpack(">i", _read_exactly(sock, 4))
        if not 0 < size <= _MAX_RESPONSE:
            raise ProtocolError("ApiVersions response frame size {0} is not plausible".format(size))
        return decode_api_versions_v0(_read_exactly(sock, size), correlation_id)
