"""Choosing a protocol version per API from a broker's ApiVersions answer.

For each API the client uses the highest version both sides support, never
below the API's ``min_send`` floor: Kafka 4.x removed old versions of several
APIs (Produce below 3, Fetch below 4, ...), and a broker that still
advertises them gets the modern ones from us anyway.
"""

from __future__ import annotations

import struct
from typing import Dict, Mapping, Optional, Tuple

from kafka.errors import ProtocolError, UnsupportedVersionError
from kafka.protocol.apis.api_versions import API_VERSIONS
from kafka.protocol.schema import Api, StructValue

_INT16 = struct.Struct(">h")
_UNSUPPORTED_VERSION = 35


def api_versions_request(version: int) -> StructValue:
    """The ApiVersions request this client sends at ``version``.

    From v3 on it names the client software (KIP-511), so brokers can report
    which clients connect; older versions have an empty body.
    """
    from kafka import __version__

    if version >= 3:
        return API_VERSIONS.Request(client_software_name="kafkawire", client_software_version=__version__)
    return API_VERSIONS.Request()


def decode_api_versions_response(data: bytes, version: int) -> StructValue:
    """Decode an ApiVersions response sent in answer to ``version``.

    A broker that does not support the requested version answers
    UNSUPPORTED_VERSION in the v0 layout, listing the ApiVersions range it
    does support, so the client can retry with a version it knows.
    """
    if version > 0 and len(data) >= 2 and _INT16.unpack_from(data, 0)[0] == _UNSUPPORTED_VERSION:
        try:
            return API_VERSIONS.decode_response(data, 0)
        except ProtocolError:
            # Some brokers append fields after the v0 body; read what we can.
            reader = API_VERSIONS.response.reader(0, False)
            try:
                value, _pos = reader(data, 0)
                return value
            except (ValueError, IndexError, struct.error):
                # Others send a body that fits no version at all (librdkafka's
                # mock broker): the error code alone is enough to retry lower.
                return API_VERSIONS.Response(error_code=_UNSUPPORTED_VERSION, api_keys=[])
    return API_VERSIONS.decode_response(data, version)


def api_versions_retry_version(response: StructValue, tried: int) -> Optional[int]:
    """The ApiVersions version to retry with after UNSUPPORTED_VERSION, or None.

    Uses the broker's advertised range for ApiVersions when it sent one
    (KIP-511), otherwise falls back to version 0.
    """
    if response.error_code != _UNSUPPORTED_VERSION:
        return None
    for entry in response.api_keys or ():
        if entry.api_key == API_VERSIONS.key:
            retry = min(entry.max_version, API_VERSIONS.max_version)
            return retry if retry < tried and retry >= entry.min_version else None
    return 0 if tried > 0 else None


class VersionTable:
    """The broker's supported range per API key, and the choice of versions."""

    def __init__(self, ranges: Mapping[int, Tuple[int, int]]) -> None:
        self.ranges: Dict[int, Tuple[int, int]] = dict(ranges)

    @classmethod
    def from_response(cls, response: StructValue) -> "VersionTable":
        """Build from a successful ApiVersions response."""
        if response.error_code:
            raise ProtocolError("ApiVersions failed with error code %d" % response.error_code)
        return cls({e.api_key: (e.min_version, e.max_version) for e in response.api_keys or ()})

    def supports(self, api: Api) -> bool:
        """Whether a version exists that both sides accept."""
        try:
            self.choose(api)
        except UnsupportedVersionError:
            return False
        return True

    def choose(self, api: Api, highest: Optional[int] = None, lowest: Optional[int] = None) -> int:
        """The highest version of ``api`` both sides support.

        ``highest``/``lowest`` narrow the client's side further (e.g. a
        feature that needs a minimum version). Raises
        :class:`UnsupportedVersionError` naming both ranges when none fits.
        """
        ours_lo = max(api.min_send, lowest if lowest is not None else api.min_send)
        ours_hi = min(api.max_version, highest if highest is not None else api.max_version)
        theirs = self.ranges.get(api.key)
        if theirs is None:
            raise UnsupportedVersionError("the broker does not support %s at all; this client sends v%d-%d"
                                          % (api.name, ours_lo, ours_hi))
        lo, hi = max(ours_lo, theirs[0]), min(ours_hi, theirs[1])
        if lo > hi:
            raise UnsupportedVersionError(
                "no common version of %s: the broker supports v%d-%d, this client sends v%d-%d"
                % (api.name, theirs[0], theirs[1], ours_lo, ours_hi))
        return hi
