"""Every API, every version, both directions: encode then decode is identity."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka.protocol.apis import ALL_APIS

from .strategies import struct_values

CASES = [(api, v, side) for api in ALL_APIS
         for v in range(api.min_version, api.max_version + 1)
         for side in ("request", "response")]


@pytest.mark.parametrize("api,version,side", CASES,
                         ids=["%s-v%d-%s" % (a.name, v, s) for a, v, s in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip(api, version, side, data):
    schema = getattr(api, side)
    value = data.draw(struct_values(schema, version, api.is_flexible(version)))
    if side == "request":
        encoded = api.encode_request(value, version)
        assert api.decode_request(encoded, version, strict=True) == value
    else:
        encoded = api.encode_response(value, version)
        assert api.decode_response(encoded, version, strict=True) == value
