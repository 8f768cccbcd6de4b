"""Behaviour of the schema engine that the round-trip tests do not pin down."""

from __future__ import annotations

import uuid

import pytest

from kafka.errors import IllegalArgumentError, ProtocolError, UnsupportedVersionError
from kafka.protocol.schema import Api, Field, Struct, parse_versions
from kafka.protocol.types import Array, BYTES, INT16, INT32, STRING, UUID

THING = Api(
    "Thing", 1001, (0, 3), flexible=2,
    request=Struct(
        "ThingRequest",
        Field("name", STRING, nullable="1+"),
        Field("count", INT32, "1+"),
        Field("loose", INT16, "2+", ignorable=True),
        Field("note", STRING, "2+", tag=0, nullable="2+", default=None),
        Field("items", Array(Struct("Item", Field("id", UUID), Field("data", BYTES))), "0+"),
    ),
    response=Struct("ThingResponse", Field("error_code", INT16)),
)


def test_parse_versions():
    assert parse_versions("3+") == (3, 0x7FFF)
    assert parse_versions("2-7") == (2, 7)
    assert parse_versions("4") == (4, 4)
    assert parse_versions("none") == (1, 0)


def test_flexible_bytes_by_hand():
    item_id = uuid.UUID(int=1)
    value = THING.Request(name="ab", count=5, loose=9, note="n",
                          items=[THING.Request.Item(id=item_id, data=b"\x01")])
    expected = bytes.fromhex(
        "03" "6162"        # name: compact string "ab"
        "00000005"         # count
        "0009"             # loose
        "02"               # items: compact array of 1
        + "00" * 15 + "01"  # uuid 1
        + "02" "01"        # data: compact bytes b"\x01"
        "00"               # item tagged fields
        "01" "00" "02" "02" "6e"  # 1 tagged field: tag 0, 2 bytes: compact string "n"
    )
    assert THING.encode_request(value, 2) == expected
    assert THING.decode_request(expected, 2) == value


def test_unknown_tags_survive_a_round_trip():
    data = bytes.fromhex("03" "6162" "00000005" "0009" "01"  # name, count, loose, no items
                         "01" "07" "02" "abcd")  # one tagged field: unknown tag 7, 2 bytes
    value = THING.decode_request(data, 3)
    assert value.unknown_tags == {7: b"\xab\xcd"}
    assert THING.encode_request(value, 3) == data


def test_tags_must_ascend():
    data = bytes.fromhex("03" "6162" "00000005" "0009" "01" "02" "07" "00" "06" "00")  # tag 7 then tag 6
    with pytest.raises(ProtocolError):
        THING.decode_request(data, 3)


def test_non_ignorable_field_missing_from_the_version_is_an_error():
    with pytest.raises(UnsupportedVersionError, match="count"):
        THING.encode_request(THING.Request(name="a", count=3), 0)
    # An ignorable field is dropped silently.
    assert THING.encode_request(THING.Request(name="a", loose=3), 1) == bytes.fromhex("00016100000000" "00000000")


def test_null_only_where_nullable():
    with pytest.raises(IllegalArgumentError, match="name"):
        THING.encode_request(THING.Request(name=None), 0)
    assert THING.encode_request(THING.Request(name=None), 1).startswith(b"\xff\xff")


def test_wrong_type_is_an_illegal_argument():
    with pytest.raises(IllegalArgumentError):
        THING.encode_request(THING.Request(name="a", count="three"), 1)


def test_dicts_are_accepted_and_unknown_keywords_refused():
    assert THING.encode_request({"name": "a", "items": [{"id": uuid.UUID(int=0), "data": b""}]}, 0) == \
        bytes.fromhex("000161" "00000001" + "00" * 16 + "00000000")
    with pytest.raises(TypeError):
        THING.Request(nonsense=1)


def test_trailing_bytes_are_ignored_unless_strict():
    assert THING.decode_response(b"\x00\x07\x00", 0).error_code == 7
    with pytest.raises(ProtocolError, match="trailing"):
        THING.decode_response(b"\x00\x00\x00", 0, strict=True)


def test_unknown_version_is_refused():
    with pytest.raises(UnsupportedVersionError):
        THING.encode_request(THING.Request(), 4)


NULLS = Api(
    "Nulls", 1002, (0, 3), flexible=2,
    request=Struct("NullsRequest", Field("x", INT16)),
    response=Struct(
        "NullsResponse",
        Field("name", STRING, nullable="1"),
        Field("data", BYTES, nullable="1"),
        Field("names", Array(STRING), nullable="1"),
        Field("part", Struct("Part", Field("n", INT16)), nullable="1"),
    ),
)

# Each field null in turn, the others valid ("a", b"b", ["c"], n=1).
_CLASSIC_FIELDS = ["00016" "1", "0000000162", "00000001" "000163", "0001"]
_COMPACT_FIELDS = ["02" "61", "0262", "02" "0263", "0001" "00"]
_CLASSIC_NULLS = ["ffff", "ffffffff", "ffffffff", None]
_COMPACT_NULLS = ["00", "00", "00", None]


def _with_null(fields, nulls, index, tail=""):
    return bytes.fromhex("".join(nulls[index] if i == index else f for i, f in enumerate(fields)) + tail)


@pytest.mark.parametrize("index", range(3), ids=["string", "bytes", "array"])
@pytest.mark.parametrize("version", [0, 2])
def test_null_in_a_non_nullable_field_is_a_protocol_error(version, index):
    fields, nulls, tail = (_CLASSIC_FIELDS, _CLASSIC_NULLS, "") if version < 2 else \
        (_COMPACT_FIELDS, _COMPACT_NULLS, "00")
    assert NULLS.decode_response(bytes.fromhex("".join(fields) + tail), version).names == ["c"]
    with pytest.raises(ProtocolError, match="null"):
        NULLS.decode_response(_with_null(fields, nulls, index, tail), version)


def test_null_is_read_where_the_version_allows_it():
    data = bytes.fromhex("ffff" "ffffffff" "ffffffff" "ff")
    value = NULLS.decode_response(data, 1)
    assert (value.name, value.data, value.names, value.part) == (None, None, None, None)


@pytest.mark.parametrize("version", [1, 2])
def test_a_null_array_element_is_a_protocol_error(version):
    if version < 2:
        data = "00016" "1" "0000000162" "00000002" "000163" "ffff" "01" "0001"
    else:
        data = "02" "61" "0262" "03" "0263" "00" "01" "0001" "00" "00"
    with pytest.raises(ProtocolError, match="element of names"):
        NULLS.decode_response(bytes.fromhex(data), version)
