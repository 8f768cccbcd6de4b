"""Hypothesis strategies that generate valid values for any declared struct."""

from __future__ import annotations

import uuid

from hypothesis import strategies as st

from kafka.protocol import types as T
from kafka.protocol.schema import Field, Struct, _in

_INTS = {
    "int8": (-2 ** 7, 2 ** 7 - 1),
    "int16": (-2 ** 15, 2 ** 15 - 1),
    "int32": (-2 ** 31, 2 ** 31 - 1),
    "int64": (-2 ** 63, 2 ** 63 - 1),
    "uint16": (0, 2 ** 16 - 1),
    "uint32": (0, 2 ** 32 - 1),
    "uvarint": (0, 2 ** 32),
    "varint": (-2 ** 31, 2 ** 31 - 1),
}


def _primitive(ftype: T.WireType) -> st.SearchStrategy:
    name = ftype.name
    if name in _INTS:
        lo, hi = _INTS[name]
        return st.integers(lo, hi)
    if name == "float64":
        return st.floats(allow_nan=False)
    if name == "bool":
        return st.booleans()
    if name == "uuid":
        return st.builds(uuid.UUID, int=st.integers(0, 2 ** 128 - 1))
    if name == "string":
        return st.text(max_size=20)
    if name in ("bytes", "records"):
        return st.binary(max_size=40)
    raise AssertionError("no strategy for %s" % name)


def field_values(field: Field, version: int, flexible: bool, depth: int = 0) -> st.SearchStrategy:
    ftype = field.type
    if isinstance(ftype, T.Array):
        item = ftype.item
        if isinstance(item, Struct):
            item_st = struct_values(item, version, flexible, depth + 1)
        else:
            item_st = _primitive(item)
        base = st.lists(item_st, max_size=3 if depth < 2 else 1)
    elif isinstance(ftype, Struct):
        base = struct_values(ftype, version, flexible, depth + 1)
    else:
        base = _primitive(ftype)
    if _in(field.nullable, version):
        return st.one_of(st.none(), base)
    return base


def struct_values(struct: Struct, version: int, flexible: bool, depth: int = 0) -> st.SearchStrategy:
    """Values of ``struct`` using only fields present at ``version``."""
    kwargs = {}
    for f in struct.fields:
        if not _in(f.versions, version):
            continue
        if f.tag is not None and not flexible:
            continue
        kwargs[f.name] = field_values(f, version, flexible, depth)
    unknown = st.none()
    if flexible:
        unknown = st.one_of(st.none(), st.dictionaries(st.integers(10000, 10010), st.binary(max_size=5),
                                                       min_size=1, max_size=2))
    return st.builds(lambda tags, **kw: struct.cls(unknown_tags=tags, **kw), unknown, **kwargs)
