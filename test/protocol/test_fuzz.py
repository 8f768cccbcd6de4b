"""Random, truncated and bit-flipped input to every decoder raises only our errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka.errors import KafkaError
from kafka.protocol.apis import ALL_APIS
from kafka.protocol.framing import ClientFramer

from .strategies import struct_values

CASES = [(api, v) for api in ALL_APIS for v in range(api.min_version, api.max_version + 1)]
IDS = ["%s-v%d" % (a.name, v) for a, v in CASES]


def _decode_or_our_error(api, version, data):
    # How long an input takes is measured by benchmarks/decoders.py, not here:
    # a wall-clock limit would fail on a loaded machine. A hang still fails
    # through pytest's timeout.
    try:
        api.decode_response(data, version)
    except KafkaError:
        pass


@pytest.mark.parametrize("api,version", CASES, ids=IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=200))
def test_random_bytes(api, version, data):
    _decode_or_our_error(api, version, data)


@pytest.mark.parametrize("api,version", CASES, ids=IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_truncations_and_bit_flips(api, version, data):
    value = data.draw(struct_values(api.response, version, api.is_flexible(version)))
    encoded = api.encode_response(value, version)
    for cut in range(len(encoded)):
        _decode_or_our_error(api, version, encoded[:cut])
    rnd = random.Random(data.draw(st.integers(0, 2 ** 32)))
    for _ in range(50):
        flipped = bytearray(encoded)
        if not flipped:
            break
        i = rnd.randrange(len(flipped))
        flipped[i] ^= 1 << rnd.randrange(8)
        _decode_or_our_error(api, version, bytes(flipped))


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(st.binary(max_size=64), max_size=20))
def test_framer_never_raises_foreign_errors(chunks):
    framer = ClientFramer()
    for api in ALL_APIS[:5]:
        framer.send_request(api, api.max_version, api.Request())
    try:
        for chunk in chunks:
            framer.receive_data(chunk)
    except KafkaError:
        pass
