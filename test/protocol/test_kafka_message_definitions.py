"""Every declaration checked against Apache Kafka's own message definitions.

Kafka describes each message once, in JSON (``clients/src/main/resources/
common/message/*.json``). Rather than copy those files here, the test reads
them out of kafka-python 3.x's wheel, which ships them under
``kafka/protocol/schemas/resources/``; ``./build_integration.sh`` downloads
that wheel into ``.cache/kafka-python-wheel/`` (never installs it: it is
imported as ``kafka`` too).

For each API the test compares the version range and the first flexible
version, and then, field by field and recursively through nested structs,
within the versions both sides declare: presence per version, type, nullable
versions, tagged versions and tags, field order, ``ignorable`` (where a field
is missing from some versions, the only place it has an effect) and defaults.
Every difference must be fixed in the declaration or listed in ``ALLOWED``
with its reason; an entry that no longer matches a difference fails too, so
the list cannot go stale.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Set, Tuple

import pytest

from kafka.protocol import types as T
from kafka.protocol.apis import ALL_APIS
from kafka.protocol.apis.groups import (
    CONSUMER_PROTOCOL_ASSIGNMENT, CONSUMER_PROTOCOL_MAX_VERSION, CONSUMER_PROTOCOL_SUBSCRIPTION)
from kafka.protocol.apis.metadata import METADATA
from kafka.protocol.framing import encode_request_header, encode_response
from kafka.protocol.schema import MISSING, Api, Field, Struct, parse_versions

ROOT = Path(__file__).resolve().parents[2]
WHEEL_DIR = ROOT / ".cache" / "kafka-python-wheel"
RESOURCES = "kafka/protocol/schemas/resources/"
REQUIRE_ENV = "KAFKAWIRE_REQUIRE_BROKER"  # the same switch test/conftest.py uses

#: APIs we declare that kafka-python's copy of the definitions lacks.
NOT_IN_WHEEL = {
    "ConsumerGroupHeartbeat": "KIP-848 consumer protocol; kafka-python 3.0 does not ship it",
    "ConsumerGroupDescribe": "KIP-848 consumer protocol; kafka-python 3.0 does not ship it",
    "ShareGroupHeartbeat": "KIP-932 share groups; kafka-python 3.0 does not ship them",
    "ShareGroupDescribe": "KIP-932 share groups; kafka-python 3.0 does not ship them",
    "ShareFetch": "KIP-932 share groups; kafka-python 3.0 does not ship them",
    "ShareAcknowledge": "KIP-932 share groups; kafka-python 3.0 does not ship them",
}

#: Known differences, keyed by (path, aspect), each with the reason it is kept.
_MOCK_NULL = "librdkafka's mock cluster (used by the group and admin tests) sends null here"
ALLOWED: Dict[Tuple[str, str], str] = {
    ("JoinGroupResponse.protocol_name", "nullable"): _MOCK_NULL + " when a join fails, in every version",
    ("JoinGroupResponse.leader", "nullable"): _MOCK_NULL + " when a join fails",
    ("JoinGroupResponse.member_id", "nullable"): _MOCK_NULL + " when a join fails",
    ("SyncGroupResponse.assignment", "nullable"): _MOCK_NULL + " for a member given nothing, and on errors",
    ("FindCoordinatorResponse.host", "nullable"): _MOCK_NULL + " with an error code",
    ("OffsetFetchResponse.topics", "nullable"): _MOCK_NULL + " when asked for every partition",
}


# --------------------------------------------------------------------------
# Reading Kafka's definitions out of the wheel
# --------------------------------------------------------------------------

def _wheel() -> Optional[Path]:
    """The newest kafka-python 3.x wheel in the cache, if any."""
    def version(path: Path) -> List[int]:
        return [int(part) for part in re.findall(r"\d+", path.name.split("-")[1])]
    wheels = sorted(WHEEL_DIR.glob("kafka_python-3*.whl"), key=version)
    return wheels[-1] if wheels else None


def _strip_comments(text: str) -> str:
    # The files are JSON with whole-line // comments.
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


@lru_cache(maxsize=None)
def _load(wheel: Path) -> Dict[str, Dict[str, Any]]:
    docs = {}
    with zipfile.ZipFile(str(wheel)) as zf:
        for name in zf.namelist():
            if name.startswith(RESOURCES) and name.endswith(".json"):
                doc = json.loads(_strip_comments(zf.read(name).decode("utf-8")))
                docs[doc["name"]] = doc
    return docs


@pytest.fixture(scope="module")
def kafka_defs() -> Dict[str, Dict[str, Any]]:
    """Kafka's message definitions by message name, e.g. ``"ProduceRequest"``."""
    wheel = _wheel()
    if wheel is None:
        msg = ("kafka-python 3.x wheel not found in %s; run ./build_integration.sh to download it"
               % WHEEL_DIR)
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)
    return _load(wheel)


# --------------------------------------------------------------------------
# What is compared
# --------------------------------------------------------------------------

class Target(NamedTuple):
    """One declared message and the definition it is checked against."""

    kafka_name: str       # e.g. "ProduceRequest"
    struct: Struct
    versions: Tuple[int, int]
    flexible: Optional[int]


def _targets() -> List[Target]:
    targets = []
    for api in ALL_APIS:
        if api.name in NOT_IN_WHEEL:
            continue
        for side, schema in (("Request", api.request), ("Response", api.response)):
            targets.append(Target(api.name + side, schema, (api.min_version, api.max_version),
                                  api.flexible_from))
    # Payloads of the classic consumer protocol; never flexible.
    # The wheel's StickyAssignorUserData.json is kafka-python's own (Kafka
    # declares that layout in Java code), so it is no reference.
    for payload in (CONSUMER_PROTOCOL_SUBSCRIPTION, CONSUMER_PROTOCOL_ASSIGNMENT):
        targets.append(Target(payload.name, payload, (0, CONSUMER_PROTOCOL_MAX_VERSION), None))
    return targets


TARGETS = _targets()
DECLARED_APIS = [api for api in ALL_APIS if api.name not in NOT_IN_WHEEL]


class Diff(NamedTuple):
    """One difference: where (``"ProduceResponse.responses.name"``), in what, both sides."""

    path: str
    aspect: str
    ours: Any
    kafka: Any

    def __str__(self) -> str:
        return "%s [%s]: ours %s, Kafka's %s" % (self.path, self.aspect, self.ours, self.kafka)


#: Kafka field names whose mechanical snake_case form is not the name we use.
NAMES = {
    "Enable2Pc": "enable_2pc",  # mechanically "enable2_pc"
}


def snake(name: str) -> str:
    """Kafka's CamelCase field name as our snake_case one."""
    if name in NAMES:
        return NAMES[name]
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    name = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return name.lower()


def _versions(spec: Optional[str], window: Set[int]) -> Set[int]:
    lo, hi = parse_versions(spec)
    return {v for v in window if lo <= v <= hi}


def _fmt(versions: Set[int]) -> str:
    """A version set as compact ranges: ``"0-2,5"``, or ``"none"``."""
    if not versions:
        return "none"
    parts, run = [], []
    for v in sorted(versions):
        if run and v != run[-1] + 1:
            parts.append(run)
            run = []
        run.append(v)
    parts.append(run)
    return ",".join(str(r[0]) if len(r) == 1 else "%d-%d" % (r[0], r[-1]) for r in parts)


def _our_type(ftype: Any) -> str:
    if isinstance(ftype, T.Array):
        return "[]" + _our_type(ftype.item)
    if isinstance(ftype, Struct):
        return "struct"
    return ftype.name


def _kafka_type(jtype: str) -> str:
    if jtype.startswith("[]"):
        return "[]" + _kafka_type(jtype[2:])
    return jtype if jtype[:1].islower() else "struct"


def _inner_struct(ftype: Any) -> Optional[Struct]:
    inner = ftype.item if isinstance(ftype, T.Array) else ftype
    return inner if isinstance(inner, Struct) else None


def _kafka_fields(jfield: Dict[str, Any], doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The fields of a struct-typed field, declared inline or among the common structs."""
    if "fields" in jfield:
        return jfield["fields"]
    name = jfield["type"].lstrip("[]")
    for common in doc.get("commonStructs", ()):
        if common["name"] == name:
            return common["fields"]
    raise KeyError("struct %s not found in %s" % (name, doc["name"]))


def _kafka_default(jfield: Dict[str, Any]) -> Any:
    """Kafka's default of a primitive field, as our value; MISSING for structs and arrays."""
    jtype = jfield["type"]
    raw = jfield.get("default")
    if jtype.startswith("[]") or not jtype[:1].islower():
        return None if raw == "null" else MISSING
    if raw == "null":
        return None
    if jtype in ("int8", "int16", "uint16", "int32", "int64"):
        return 0 if raw is None else (raw if isinstance(raw, int) else int(str(raw), 0))
    if jtype == "float64":
        return 0.0 if raw is None else float(raw)
    if jtype == "bool":
        return False if raw is None else (raw if isinstance(raw, bool) else raw == "true")
    if jtype == "string":
        return "" if raw is None else raw
    if jtype == "bytes":
        return b""
    if jtype == "records":
        return None
    if jtype == "uuid":
        return T.ZERO_UUID
    raise AssertionError("unexpected type %s" % jtype)


def _our_default(field: Field) -> Any:
    if isinstance(field.type, T.Array) or isinstance(field.type, Struct):
        return None if field.default is None else MISSING
    return field.zero()


def compare_struct(ours: Struct, jfields: List[Dict[str, Any]], doc: Dict[str, Any], path: str,
                   window: Set[int], flexible: Set[int]) -> List[Diff]:
    """Differences between our struct and Kafka's field list, in the versions of ``window``.

    ``window`` holds the versions in which both sides have this struct;
    ``flexible`` the flexible versions (tagged fields exist only there).
    """
    diffs: List[Diff] = []
    our_fields = {f.name: f for f in ours.fields}
    kafka_fields = {snake(j["name"]): j for j in jfields}
    names = list(kafka_fields) + [n for n in our_fields if n not in kafka_fields]
    for name in names:
        fpath = "%s.%s" % (path, name)
        f, j = our_fields.get(name), kafka_fields.get(name)
        our_present = _versions_of(f, window, flexible) if f else set()
        their_present = _versions(j["versions"], window) if j else set()
        if f is None or j is None:
            if our_present or their_present:
                diffs.append(Diff(fpath, "field", "present in " + _fmt(our_present),
                                  "present in " + _fmt(their_present)))
            continue
        if not our_present and not their_present:
            continue
        if our_present != their_present:
            diffs.append(Diff(fpath, "versions", _fmt(our_present), _fmt(their_present)))
        both = our_present & their_present

        our_tagged = both & flexible if f.tag is not None else set()
        their_tagged = both & _versions(j.get("taggedVersions"), window)
        if our_tagged != their_tagged:
            diffs.append(Diff(fpath, "tagged", _fmt(our_tagged), _fmt(their_tagged)))
        elif our_tagged and f.tag != j.get("tag"):
            diffs.append(Diff(fpath, "tag", f.tag, j.get("tag")))

        our_nullable = {v for v in both if f.nullable[0] <= v <= f.nullable[1]}
        their_nullable = both & _versions(j.get("nullableVersions"), window)
        if our_nullable != their_nullable:
            diffs.append(Diff(fpath, "nullable", _fmt(our_nullable), _fmt(their_nullable)))

        our_type, their_type = _our_type(f.type), _kafka_type(j["type"])
        if our_type != their_type:
            diffs.append(Diff(fpath, "type", our_type, j["type"]))

        if (our_present != window or their_present != window) and \
                f.ignorable != bool(j.get("ignorable", False)):
            diffs.append(Diff(fpath, "ignorable", f.ignorable, bool(j.get("ignorable", False))))

        our_default, their_default = _our_default(f), _kafka_default(j)
        if our_default != their_default and not (our_default is MISSING and their_default is MISSING):
            diffs.append(Diff(fpath, "default", _show(our_default), _show(their_default)))

        inner = _inner_struct(f.type)
        if inner is not None and their_type.endswith("struct"):
            their_name = j["type"].lstrip("[]")
            if inner.name != their_name:
                diffs.append(Diff(fpath, "struct name", inner.name, their_name))
            diffs.extend(compare_struct(inner, _kafka_fields(j, doc), doc, fpath, both, flexible))

    diffs.extend(_compare_order(ours, kafka_fields, path, window, flexible))
    return diffs


def _show(value: Any) -> str:
    return "unset" if value is MISSING else repr(value)


def _versions_of(field: Field, window: Set[int], flexible: Set[int]) -> Set[int]:
    lo, hi = field.versions
    present = {v for v in window if lo <= v <= hi}
    return present & flexible if field.tag is not None else present


def _compare_order(ours: Struct, kafka_fields: Dict[str, Dict[str, Any]], path: str,
                   window: Set[int], flexible: Set[int]) -> List[Diff]:
    """Regular (untagged) fields common to both sides must come in the same order."""
    for v in sorted(window):
        ours_in_order = [f.name for f in ours.fields if f.name in kafka_fields
                         and v in _versions_of(f, window, flexible) and f.tag is None]
        theirs_in_order = [n for n, j in kafka_fields.items()
                           if v in _versions(j["versions"], window)
                           and v not in _versions(j.get("taggedVersions"), window)]
        common = set(ours_in_order) & set(theirs_in_order)
        ours_in_order = [n for n in ours_in_order if n in common]
        theirs_in_order = [n for n in theirs_in_order if n in common]
        if ours_in_order != theirs_in_order:
            return [Diff(path, "order", "v%d: %s" % (v, ", ".join(ours_in_order)), ", ".join(theirs_in_order))]
    return []


def _check(diffs: List[Diff], prefix: str) -> None:
    unexplained = [d for d in diffs if (d.path, d.aspect) not in ALLOWED]
    found = {(d.path, d.aspect) for d in diffs}
    stale = [key for key in ALLOWED if key[0].split(".")[0] == prefix and key not in found]
    problems = [str(d) for d in unexplained] + \
        ["ALLOWED entry %s [%s] no longer matches any difference" % key for key in stale]
    assert not problems, "\n" + "\n".join(problems)


# --------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------

@pytest.mark.parametrize("target", TARGETS, ids=[t.kafka_name for t in TARGETS])
def test_fields_match_kafka(target: Target, kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    """Each message's fields, recursively, as Kafka defines them."""
    doc = kafka_defs.get(target.kafka_name)
    assert doc is not None, "Kafka has no definition named %s" % target.kafka_name
    their_lo, their_hi = parse_versions(doc["validVersions"])
    window = set(range(max(target.versions[0], their_lo), min(target.versions[1], their_hi) + 1))
    assert window, "%s: no version in common (ours %d-%d, Kafka's %s)" % (
        target.kafka_name, target.versions[0], target.versions[1], doc["validVersions"])
    flex_lo, _ = parse_versions(doc["flexibleVersions"])
    flexible = set(v for v in window if v >= flex_lo) if doc["flexibleVersions"] != "none" else set()
    if target.flexible is None:
        ours_flexible: Set[int] = set()
    else:
        ours_flexible = {v for v in window if v >= target.flexible}
    diffs = []
    if target.struct.name != target.kafka_name:
        diffs.append(Diff(target.kafka_name, "struct name", target.struct.name, target.kafka_name))
    if ours_flexible != flexible:
        diffs.append(Diff(target.kafka_name, "flexible", _fmt(ours_flexible), _fmt(flexible)))
    diffs.extend(compare_struct(target.struct, doc["fields"], doc, target.kafka_name, window, flexible))
    _check(diffs, target.kafka_name)


@pytest.mark.parametrize("api", DECLARED_APIS, ids=[a.name for a in DECLARED_APIS])
def test_api_matches_kafka(api: Api, kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    """API key, the versions the client sends and the first flexible version."""
    diffs = []
    for side in ("Request", "Response"):
        doc = kafka_defs.get(api.name + side)
        assert doc is not None, "Kafka has no definition named %s%s" % (api.name, side)
        if doc["apiKey"] != api.key:
            diffs.append(Diff(api.name, "api key", api.key, doc["apiKey"]))
        lo, hi = parse_versions(doc["validVersions"])
        if (api.min_send, api.max_version) != (lo, hi):
            diffs.append(Diff(api.name, "versions", "%d-%d" % (api.min_send, api.max_version),
                              doc["validVersions"]))
        flex = None if doc["flexibleVersions"] == "none" else parse_versions(doc["flexibleVersions"])[0]
        if api.flexible_from != flex:
            diffs.append(Diff(api.name, "flexible", api.flexible_from, flex))
    _check(sorted(set(diffs)), api.name)


def test_api_keys_agree(kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    """Every Kafka API we declare is declared under Kafka's key and name."""
    ours = {api.key: api.name for api in ALL_APIS}
    mismatched = ["%s has key %d, which we declare as %s" % (name, doc["apiKey"], ours[doc["apiKey"]])
                  for name, doc in kafka_defs.items()
                  if doc.get("type") == "request" and doc.get("apiKey") in ours
                  and ours[doc["apiKey"]] + "Request" != name]
    assert not mismatched


def test_apis_missing_from_wheel_are_still_missing(kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    """APIs excused as absent from kafka-python's copy really are absent (else compare them)."""
    present = [name for name in NOT_IN_WHEEL if name + "Request" in kafka_defs]
    assert not present, "now in the wheel, remove from NOT_IN_WHEEL: %s" % present


def test_snake_case() -> None:
    assert snake("TransactionalId") == "transactional_id"
    assert snake("IsrNodes") == "isr_nodes"
    assert snake("ThrottleTimeMs") == "throttle_time_ms"


# --------------------------------------------------------------------------
# Headers: framing.py writes them by hand; read its bytes as Kafka lays them out
# --------------------------------------------------------------------------

def _read_by_definition(doc: Dict[str, Any], header_version: int, data: bytes) -> Tuple[Dict[str, Any], int]:
    """Read a header from ``data`` field by field as ``doc`` lays it out at ``header_version``."""
    flexible = doc["flexibleVersions"] != "none" and header_version >= parse_versions(doc["flexibleVersions"])[0]
    values, pos = {}, 0
    for jfield in doc["fields"]:
        lo, hi = parse_versions(jfield["versions"])
        if not lo <= header_version <= hi:
            continue
        wire = {"int16": T.INT16, "int32": T.INT32, "string": T.STRING}[jfield["type"]]
        # A field may opt out of the compact encodings ("flexibleVersions": "none").
        compact = flexible and jfield.get("flexibleVersions") != "none"
        values[snake(jfield["name"])], pos = wire.resolve(compact).read(data, pos)
    if flexible:
        count, pos = T.read_uvarint(data, pos)
        assert count == 0
    return values, pos


@pytest.mark.parametrize("version", [8, 9], ids=["header-v1", "header-v2"])
@pytest.mark.parametrize("client_id", ["kafkawire", None])
def test_request_header_matches_kafka(version: int, client_id: Optional[str],
                                      kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    out = bytearray()
    encode_request_header(out, METADATA, version, 1234, client_id)
    values, pos = _read_by_definition(kafka_defs["RequestHeader"], METADATA.request_header_version(version),
                                      bytes(out))
    assert pos == len(out)
    assert values == {"request_api_key": METADATA.key, "request_api_version": version,
                      "correlation_id": 1234, "client_id": client_id}


@pytest.mark.parametrize("version", [8, 9], ids=["header-v0", "header-v1"])
def test_response_header_matches_kafka(version: int, kafka_defs: Dict[str, Dict[str, Any]]) -> None:
    response = METADATA.Response()
    frame = encode_response(METADATA, version, 77, response)[4:]
    values, pos = _read_by_definition(kafka_defs["ResponseHeader"], METADATA.response_header_version(version),
                                      frame)
    assert values == {"correlation_id": 77}
    assert frame[pos:] == METADATA.encode_response(response, version)


# --------------------------------------------------------------------------
# The comparison itself finds what it should
# --------------------------------------------------------------------------

_DEFINITION = [
    {"name": "Count", "type": "int32", "versions": "0+"},
    {"name": "Label", "type": "string", "versions": "1+", "nullableVersions": "1+", "default": "null",
     "ignorable": True},
    {"name": "Items", "type": "[]Item", "versions": "0+", "fields": [
        {"name": "Offset", "type": "int64", "versions": "0+", "default": "-1"},
    ]},
    {"name": "Extra", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 0, "ignorable": True},
]


def _declared(**changes: Optional[Field]) -> Struct:
    """The struct ``_DEFINITION`` describes, with fields replaced (or removed, by None)."""
    fields = {
        "count": Field("count", T.INT32),
        "label": Field("label", T.STRING, "1+", nullable="1+", default=None, ignorable=True),
        "items": Field("items", T.Array(Struct("Item", Field("offset", T.INT64, default=-1)))),
        "extra": Field("extra", T.INT32, "2+", tag=0, ignorable=True),
    }
    fields.update(changes)
    return Struct("Message", *[f for f in fields.values() if f is not None])


def _diffs(struct: Struct) -> Set[Tuple[str, str]]:
    found = compare_struct(struct, _DEFINITION, {"name": "Message"}, "Message", {0, 1, 2, 3}, {2, 3})
    return {(d.path, d.aspect) for d in found}


def test_comparison_accepts_a_faithful_declaration() -> None:
    assert _diffs(_declared()) == set()


@pytest.mark.parametrize("change,expected", [
    ({"count": Field("count", T.INT64)}, ("Message.count", "type")),
    ({"count": Field("count", T.INT32, "1+")}, ("Message.count", "versions")),
    ({"label": Field("label", T.STRING, "1+", default=None, ignorable=True)}, ("Message.label", "nullable")),
    ({"label": Field("label", T.STRING, "1+", nullable="1+", default=None)}, ("Message.label", "ignorable")),
    ({"label": Field("label", T.STRING, "1+", nullable="1+", ignorable=True)}, ("Message.label", "default")),
    ({"label": None}, ("Message.label", "field")),
    ({"items": Field("items", T.Array(Struct("Item", Field("offset", T.INT64))))}, ("Message.items.offset", "default")),
    ({"items": Field("items", T.Array(Struct("Thing", Field("offset", T.INT64, default=-1))))},
     ("Message.items", "struct name")),
    ({"extra": Field("extra", T.INT32, "2+", tag=1, ignorable=True)}, ("Message.extra", "tag")),
    ({"extra": Field("extra", T.INT32, "2+", ignorable=True)}, ("Message.extra", "tagged")),
    # "count" moved to the end
    ({"count": None, "count_last": Field("count", T.INT32)}, ("Message", "order")),
], ids=["type", "versions", "nullable", "ignorable", "default", "missing", "nested", "struct-name", "tag",
        "tagged", "order"])
def test_comparison_finds_each_kind_of_difference(change: Dict[str, Optional[Field]],
                                                  expected: Tuple[str, str]) -> None:
    assert expected in _diffs(_declared(**change))
