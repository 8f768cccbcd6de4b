"""CRC-32 / CRC-32C: known vectors, and the pure fallback against the C one."""

from __future__ import annotations

import os
import random
import zlib

import pytest

from kafka import fast_paths
from kafka.record import crc

VECTORS_CRC32C = [
    (b"", 0x00000000),
    (b"a", 0xC1D04330),
    (b"123456789", 0xE3069283),
    (b"\x00" * 32, 0x8A9136AA),  # RFC 3720 B.4
    (b"\xff" * 32, 0x62A8AB43),  # RFC 3720 B.4
    (bytes(range(32)), 0x46DD794E),  # RFC 3720 B.4
    (bytes(range(31, -1, -1)), 0x113FDB5C),  # RFC 3720 B.4
]


@pytest.mark.parametrize("data,expected", VECTORS_CRC32C)
def test_crc32c_known_vectors(data, expected):
    assert crc.crc32c(data) == expected
    assert crc.crc32c_pure(data) == expected
    assert crc._crc32c_loop(data) == expected
    assert crc._crc32c_sliced(data) == expected


def test_crc32_is_ieee():
    assert crc.crc32(b"123456789") == 0xCBF43926
    assert crc.crc32(b"abc") == zlib.crc32(b"abc")


@pytest.mark.parametrize(
    "size", [0, 1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 4096, 100003]
)
def test_all_pure_variants_agree(size):
    data = os.urandom(size)
    expected = crc._crc32c_loop(data)
    assert crc._crc32c_sliced(data) == expected
    for tables in (False, True):  # the byte loop, or slicing-by-8 and the lanes
        with fast_paths.override(CRC32C_TABLES=tables):
            assert crc.crc32c_pure(data) == expected
    if size >= 4:
        assert crc._crc32c_lanes(data) == expected
        assert crc._crc32c_lanes(data, 0xDEADBEEF) == crc._crc32c_loop(data, 0xDEADBEEF)


def test_pure_matches_accelerated_library():
    lib = pytest.importorskip("crc32c")
    rng = random.Random(1234)
    for size in [rng.randrange(0, 300_000) for _ in range(30)] + [1 << 20]:
        data = rng.randbytes(size) if hasattr(rng, "randbytes") else os.urandom(size)
        assert crc.crc32c_pure(data) == lib.crc32c(data), size


def test_running_value_chains():
    data = os.urandom(5000)
    for cut in (0, 1, 3, 4, 100, 2047, 4999, 5000):
        assert crc.crc32c_pure(data[cut:], crc.crc32c_pure(data[:cut])) == crc.crc32c(data)
        assert crc.crc32(data[cut:], crc.crc32(data[:cut])) == zlib.crc32(data)


def test_accepts_bytes_like():
    data = os.urandom(3000)
    expected = crc.crc32c(data)
    assert crc.crc32c_pure(bytearray(data)) == expected
    assert crc.crc32c_pure(memoryview(data)) == expected
    assert crc.crc32c(memoryview(data)[10:]) == crc.crc32c(data[10:])


@pytest.mark.parametrize("name, load", [("crc32c", crc._crc32c_from_crc32c_package),
                                        ("crcmod", crc._crc32c_from_crcmod)])
def test_each_c_backend_gives_the_specified_check_value_and_chains(name, load):
    function = load()
    if function is None:
        pytest.skip("%s is not installed" % name)
    # RFC 3720 B.4 / the CRC catalogue's check value for CRC-32C
    assert function(b"123456789", 0) == 0xE3069283
    data = random.Random(7).randbytes(70_000) if hasattr(random.Random, "randbytes") else os.urandom(70_000)
    assert function(data, 0) == crc.crc32c_pure(data)
    assert function(data[1234:], function(data[:1234], 0)) == crc.crc32c_pure(data)
    assert function(memoryview(data)[5:], 0) == crc.crc32c_pure(data[5:])


def test_the_fastest_installed_backend_is_chosen():
    if crc._crc32c_from_crc32c_package() is not None:
        assert crc.CRC32C_BACKEND == "crc32c"
    elif crc._crc32c_from_crcmod() is not None:
        assert crc.CRC32C_BACKEND == "crcmod"
    else:
        assert crc.CRC32C_BACKEND == "pure-python"
    assert crc.CRC32C_ACCELERATED == (crc.CRC32C_BACKEND != "pure-python")
