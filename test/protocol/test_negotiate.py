"""Choosing versions from a broker's ApiVersions ranges."""

from __future__ import annotations

import pytest

from kafka.errors import UnsupportedVersionError
from kafka.protocol.apis import API_VERSIONS
from kafka.protocol.negotiate import VersionTable, api_versions_retry_version
from kafka.protocol.schema import Api, Struct


def _api(key, lo, hi, min_send=None):
    return Api("Test%d" % key, key, (lo, hi), flexible=None, min_send=min_send,
               request=Struct("Req%d" % key), response=Struct("Resp%d" % key))


def test_highest_common_version():
    api = _api(500, 0, 12, min_send=3)
    assert VersionTable({500: (0, 9)}).choose(api) == 9
    assert VersionTable({500: (0, 20)}).choose(api) == 12


def test_floor_is_never_crossed_even_if_the_broker_advertises_older_versions():
    api = _api(500, 0, 12, min_send=3)
    with pytest.raises(UnsupportedVersionError, match="v0-2"):
        VersionTable({500: (0, 2)}).choose(api)


def test_missing_api_and_narrowing():
    api = _api(501, 0, 5)
    table = VersionTable({501: (1, 5)})
    assert table.choose(api, highest=3) == 3
    with pytest.raises(UnsupportedVersionError):
        table.choose(api, lowest=6)
    assert not VersionTable({}).supports(api)
    assert table.supports(api)


def test_api_versions_retry_version_uses_broker_range():
    resp = API_VERSIONS.Response(error_code=35, api_keys=[
        API_VERSIONS.Response.ApiVersion(api_key=18, min_version=0, max_version=2)])
    assert api_versions_retry_version(resp, 4) == 2
    assert api_versions_retry_version(API_VERSIONS.Response(error_code=35), 3) == 0
    assert api_versions_retry_version(API_VERSIONS.Response(error_code=0), 3) is None
