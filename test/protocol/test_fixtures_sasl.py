"""Byte-exact fixtures, written by hand from the protocol spec, for SaslHandshake and SaslAuthenticate.

Each fixture is (api, version, "request" | "response", value, hex). The hex is
annotated field by field; both directions are checked: encoding the value gives
exactly these bytes and decoding these bytes gives back the value.
"""

from __future__ import annotations

import pytest

from kafka.protocol.apis.sasl import SASL_AUTHENTICATE, SASL_HANDSHAKE
from kafka.protocol.schema import Route

SH = SASL_HANDSHAKE
SA = SASL_AUTHENTICATE
PLAIN_TOKEN = b"\x00user\x00pw"

FIXTURES = [
    # -- SaslHandshake (never flexible) ---------------------------------------
    pytest.param(
        SH, 0, "request",
        SH.Request(mechanism="PLAIN"),
        "0005" "504c41494e",    # mechanism: int16 length 5, "PLAIN"
        id="SaslHandshake-v0-request",
    ),
    pytest.param(
        SH, 1, "request",
        SH.Request(mechanism="PLAIN"),
        "0005" "504c41494e",    # mechanism: "PLAIN" (v1 is laid out as v0)
        id="SaslHandshake-v1-request",
    ),
    pytest.param(
        SH, 1, "response",
        SH.Response(error_code=33, mechanisms=["PLAIN", "SCRAM-SHA-256"]),
        "0021"                  # error_code: 33 (unsupported mechanism)
        "00000002"              # mechanisms: 2 entries
        "0005" "504c41494e"     #   "PLAIN"
        "000d" "534352414d2d5348412d323536",  # "SCRAM-SHA-256" (13 bytes)
        id="SaslHandshake-v1-response",
    ),
    # -- SaslAuthenticate -----------------------------------------------------
    pytest.param(
        SA, 1, "request",
        SA.Request(auth_bytes=PLAIN_TOKEN),
        "00000008"              # auth_bytes: int32 length 8
        "00" "75736572" "00" "7077",  # NUL "user" NUL "pw"
        id="SaslAuthenticate-v1-request",
    ),
    pytest.param(
        SA, 0, "response",
        SA.Response(error_code=0, error_message=None, auth_bytes=b"\xab\xcd"),
        "0000"                  # error_code
        "ffff"                  # error_message: null
        "00000002" "abcd",      # auth_bytes: 2 bytes (no session lifetime in v0)
        id="SaslAuthenticate-v0-response",
    ),
    pytest.param(
        SA, 1, "response",
        SA.Response(error_code=58, error_message="no", auth_bytes=b"", session_lifetime_ms=3600000),
        "003a"                  # error_code: 58 (authentication failed)
        "0002" "6e6f"           # error_message: "no"
        "00000000"              # auth_bytes: empty
        "000000000036ee80",     # session_lifetime_ms: 3600000 (v1+)
        id="SaslAuthenticate-v1-response",
    ),
    pytest.param(
        SA, 2, "request",
        SA.Request(auth_bytes=PLAIN_TOKEN),
        "09"                    # auth_bytes: compact length (8+1)
        "00" "75736572" "00" "7077"  # NUL "user" NUL "pw"
        "00",                   # no tagged fields
        id="SaslAuthenticate-v2-request",
    ),
    pytest.param(
        SA, 2, "response",
        SA.Response(error_code=0, error_message=None, auth_bytes=b"\xab\xcd", session_lifetime_ms=3600000),
        "0000"                  # error_code
        "00"                    # error_message: null
        "03" "abcd"             # auth_bytes: compact length (2+1)
        "000000000036ee80"      # session_lifetime_ms: 3600000
        "00",                   # no tagged fields
        id="SaslAuthenticate-v2-response",
    ),
]


@pytest.mark.parametrize("api, version, kind, value, hexdata", FIXTURES)
def test_encode_matches_fixture(api, version, kind, value, hexdata):
    encode = api.encode_request if kind == "request" else api.encode_response
    assert encode(value, version) == bytes.fromhex(hexdata)


@pytest.mark.parametrize("api, version, kind, value, hexdata", FIXTURES)
def test_decode_matches_fixture(api, version, kind, value, hexdata):
    decode = api.decode_request if kind == "request" else api.decode_response
    assert decode(bytes.fromhex(hexdata), version) == value


def test_sasl_routes_and_header_versions():
    assert SH.route == SA.route == Route.CONNECTION
    assert SH.flexible_from is None
    assert SH.request_header_version(1) == 1 and SH.response_header_version(1) == 0
    assert SA.request_header_version(2) == 2 and SA.response_header_version(2) == 1


def test_session_lifetime_is_dropped_by_v0():
    value = SA.Response(error_code=0, error_message=None, auth_bytes=b"", session_lifetime_ms=1)
    assert SA.encode_response(value, 0) == bytes.fromhex("0000" "ffff" "00000000")
