"""Avro and JSON Schema serializers and deserializers against confluent-kafka's.

Both sides talk to one :class:`~kafka.testing.schema_registry.SchemaRegistryServer`,
each through its own client. For every schema and record the framed bytes
must be identical, each deserializer must read what the other side wrote,
and a refusal (an invalid record, bad framing, an unregistered schema, a bad
setting) must be the same refusal.
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from types import ModuleType
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from kafka.testing.schema_registry import SchemaRegistryServer
from test.confluent.schema_registry_support import libs, outcome, plain  # noqa: F401 - libs is a fixture

pytest.importorskip("fastavro")
pytest.importorskip("jsonschema")


class Side:
    """One library's modules and client, and the serialization context it is called with."""

    def __init__(self, modules: Dict[str, ModuleType], url: str) -> None:
        self.m = modules
        self.sr = modules["sr"]
        self.client = modules["sr"].SchemaRegistryClient({"url": url})

    def ctx(self, topic: str, field: str = "VALUE", headers: Any = None) -> Any:
        ser = self.m["serialization"]
        return ser.SerializationContext(topic, getattr(ser.MessageField, field), headers)

    def avro_ser(self, *args: Any, **kwargs: Any) -> Any:
        return self.m["avro"].AvroSerializer(self.client, *args, **kwargs)

    def avro_de(self, *args: Any, **kwargs: Any) -> Any:
        return self.m["avro"].AvroDeserializer(self.client, *args, **kwargs)

    def json_ser(self, schema: Any, **kwargs: Any) -> Any:
        return self.m["json_schema"].JSONSerializer(schema, self.client, **kwargs)

    def json_de(self, schema: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("schema_registry_client", self.client)
        return self.m["json_schema"].JSONDeserializer(schema, **kwargs)


@pytest.fixture
def sides(libs: Any) -> Iterator[Tuple[Side, Side, SchemaRegistryServer]]:
    theirs, ours = libs
    with SchemaRegistryServer() as server:
        yield Side(theirs, server.url), Side(ours, server.url), server


def _record(*fields: Dict[str, Any], name: str = "Event", **extra: Any) -> str:
    return json.dumps(dict({"type": "record", "name": name, "namespace": "kw.test", "fields": list(fields)}, **extra))


EVERYTHING = _record(
    {"name": "id", "type": "long"},
    {"name": "ok", "type": "boolean"},
    {"name": "ratio", "type": "float"},
    {"name": "score", "type": "double"},
    {"name": "label", "type": "string"},
    {"name": "blob", "type": "bytes"},
    {"name": "tags", "type": {"type": "array", "items": "string"}},
    {"name": "counts", "type": {"type": "map", "values": "int"}},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
    {"name": "hash", "type": {"type": "fixed", "name": "Hash", "size": 4}},
    {"name": "maybe", "type": ["null", "string", "long"], "default": None},
    {"name": "inner", "type": json.loads(_record({"name": "x", "type": "int"}, name="Inner"))},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
    {"name": "ref", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "with_default", "type": "string", "default": "d"},
)
EVERYTHING_RECORD = {
    "id": 2 ** 40, "ok": True, "ratio": 0.5, "score": -1.25e-3, "label": "h\u00e9llo \U0001F600", "blob": b"\x00\xff",
    "tags": ["a", "", "c"], "counts": {"x": 1, "y": -2}, "kind": "B", "hash": b"abcd", "maybe": 7,
    "inner": {"x": -5}, "day": datetime.date(2024, 2, 29),
    "at": datetime.datetime(2024, 1, 2, 3, 4, 5, 6000, tzinfo=datetime.timezone.utc),
    "price": decimal.Decimal("12.34"), "ref": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "with_default": "set",
}
LINKED = json.dumps({"type": "record", "name": "Node", "fields": [
    {"name": "value", "type": "int"}, {"name": "next", "type": ["null", "Node"], "default": None}]})

AVRO_CASES: List[Tuple[str, str, List[Any]]] = [
    ("string", '"string"', ["", "abc", "\u65e5\u672c" * 50]),
    ("int", '{"type": "int"}', [0, -1, 2 ** 31 - 1, -(2 ** 31)]),
    ("long", '"long"', [2 ** 62, -7]),
    ("double", '"double"', [0.0, -2.5, 1e300]),
    ("boolean", '"boolean"', [True, False]),
    ("bytes", '"bytes"', [b"\x00\x01\xfe\xff", b"x"]),
    ("union", '["null", "string", "int"]', ["x", 3]),
    ("array", '{"type": "array", "items": "long"}', [[], [1, 2, 3]]),
    ("everything", EVERYTHING, [EVERYTHING_RECORD]),
    ("recursive", LINKED, [{"value": 1, "next": {"value": 2, "next": None}}]),
    ("spaced", "\n  " + json.dumps(json.loads(LINKED), indent=4) + "\n", [{"value": 9, "next": None}]),
]


@pytest.mark.parametrize("name,schema,records", AVRO_CASES, ids=[c[0] for c in AVRO_CASES])
def test_avro_bytes_match_and_each_reads_the_other(sides: Any, name: str, schema: str, records: List[Any]) -> None:
    theirs, ours, _ = sides
    topic = "avro-" + name
    their_ser, our_ser = theirs.avro_ser(schema), ours.avro_ser(schema)
    their_de, our_de = theirs.avro_de(), ours.avro_de()
    for record in records:
        want = their_ser(record, theirs.ctx(topic))
        got = our_ser(record, ours.ctx(topic))
        assert got == want, record
        assert got[0] == 0 and len(got) > 5
        assert our_de(want, ours.ctx(topic)) == their_de(got, theirs.ctx(topic))
        assert our_de(want, ours.ctx(topic)) == record
        assert our_de(got, None) == record
    assert our_ser(None, ours.ctx(topic)) is None and our_de(None, ours.ctx(topic)) is None


USER_V1 = _record({"name": "id", "type": "long"}, {"name": "name", "type": "string"}, name="User")
USER_V2 = _record({"name": "id", "type": "long"}, {"name": "name", "type": "string"},
                  {"name": "email", "type": ["null", "string"], "default": None},
                  {"name": "level", "type": "int", "default": 1}, name="User")


def test_avro_reader_schema_resolution(sides: Any) -> None:
    theirs, ours, _ = sides
    written = theirs.avro_ser(USER_V1)({"id": 1, "name": "n"}, theirs.ctx("users"))
    old_from_new = ours.avro_ser(USER_V1)({"id": 2, "name": "m"}, ours.ctx("users"))
    for data in (written, old_from_new):
        want = theirs.avro_de(USER_V2)(data, theirs.ctx("users"))
        assert ours.avro_de(USER_V2)(data, ours.ctx("users")) == want
        assert set(want) == {"id", "name", "email", "level"} and want["level"] == 1


def test_avro_use_latest_version(sides: Any) -> None:
    theirs, ours, _ = sides
    ours.client.register_schema("latest-value", ours.sr.Schema(USER_V1))
    ours.client.register_schema("latest-value", ours.sr.Schema(USER_V2))
    conf = {"auto.register.schemas": False, "use.latest.version": True}
    record = {"id": 5, "name": "x", "email": None, "level": 3}
    want = theirs.avro_ser(USER_V1, conf=conf)(record, theirs.ctx("latest"))
    assert ours.avro_ser(USER_V1, conf=conf)(record, ours.ctx("latest")) == want
    assert want[1:5] == (2).to_bytes(4, "big")  # written with the latest version's id
    read = {"use.latest.version": True}
    assert ours.avro_de(conf=read)(want, ours.ctx("latest")) == theirs.avro_de(conf=read)(want, theirs.ctx("latest"))


def test_avro_use_schema_id(sides: Any) -> None:
    theirs, ours, _ = sides
    first = ours.client.register_schema("pinned-value", ours.sr.Schema(USER_V1))
    ours.client.register_schema("pinned-value", ours.sr.Schema(USER_V2))
    conf = {"auto.register.schemas": False, "use.schema.id": first}
    record = {"id": 5, "name": "x"}
    want = theirs.avro_ser(USER_V2, conf=conf)(record, theirs.ctx("pinned"))
    assert ours.avro_ser(USER_V2, conf=conf)(record, ours.ctx("pinned")) == want
    assert want[1:5] == first.to_bytes(4, "big")


@pytest.mark.parametrize("strategy", ["record_subject_name_strategy", "topic_record_subject_name_strategy",
                                      "topic_subject_name_strategy"])
def test_avro_subject_name_strategies(libs: Any, strategy: str) -> None:
    subjects = []
    for modules in libs:
        with SchemaRegistryServer() as server:
            side = Side(modules, server.url)
            serializer = side.avro_ser(USER_V1, conf={"subject.name.strategy": getattr(side.sr, strategy)})
            data = serializer({"id": 1, "name": "a"}, side.ctx("topic"))
            subjects.append((side.client.get_subjects(), data))
            assert side.avro_de(conf={"subject.name.strategy": getattr(side.sr, strategy)})(
                data, side.ctx("topic")) == {"id": 1, "name": "a"}
    assert subjects[0] == subjects[1]


@pytest.mark.parametrize("kind", ["TOPIC", "RECORD", "TOPIC_RECORD", "record", "NOPE"])
def test_subject_name_strategy_types(libs: Any, kind: str) -> None:
    results = []
    for modules in libs:
        with SchemaRegistryServer() as server:
            side = Side(modules, server.url)

            def run() -> Any:
                serializer = side.avro_ser(USER_V1, conf={"subject.name.strategy.type": kind})
                serializer({"id": 1, "name": "a"}, side.ctx("topic"))
                return side.client.get_subjects()

            results.append(outcome(run))
    assert results[0][0] == results[1][0]
    if results[0][0] == "ok":
        assert results[0] == results[1]


class User:
    def __init__(self, id: int, name: str) -> None:
        self.id, self.name = id, name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, User) and (self.id, self.name) == (other.id, other.name)


def test_avro_to_dict_from_dict_and_record_names(sides: Any) -> None:
    theirs, ours, _ = sides
    to_dict = lambda user, ctx: {"id": user.id, "name": user.name}  # noqa: E731
    from_dict = lambda d, ctx: User(d["id"], d["name"])  # noqa: E731
    want = theirs.avro_ser(USER_V1, to_dict=to_dict)(User(3, "c"), theirs.ctx("objects"))
    got = ours.avro_ser(USER_V1, to_dict=to_dict)(User(3, "c"), ours.ctx("objects"))
    assert got == want
    assert ours.avro_de(from_dict=from_dict)(want, ours.ctx("objects")) == User(3, "c")
    assert theirs.avro_de(from_dict=from_dict)(got, theirs.ctx("objects")) == User(3, "c")
    union = json.dumps([json.loads(USER_V1), json.loads(_record({"name": "n", "type": "int"}, name="Other"))])
    data = ours.avro_ser(union)({"n": 4}, ours.ctx("unions"))
    assert data == theirs.avro_ser(union)({"n": 4}, theirs.ctx("unions"))
    named = ours.avro_de(return_record_name=True)(data, ours.ctx("unions"))
    assert named == theirs.avro_de(return_record_name=True)(data, theirs.ctx("unions")) == ("kw.test.Other", {"n": 4})


def test_avro_references(sides: Any) -> None:
    theirs, ours, _ = sides
    address = _record({"name": "street", "type": "string"}, name="Address")
    ours.client.register_schema("address-value", ours.sr.Schema(address))
    order = _record({"name": "to", "type": "kw.test.Address"}, {"name": "n", "type": "int"}, name="Order")
    record = {"to": {"street": "Main"}, "n": 1}
    results = []
    for side in (theirs, ours):
        schema = side.sr.Schema(order, "AVRO", [side.sr.SchemaReference("kw.test.Address", "address-value", 1)])
        results.append(side.avro_ser(schema)(record, side.ctx("orders")))
    assert results[0] == results[1]
    assert ours.avro_de()(results[0], ours.ctx("orders")) == theirs.avro_de()(results[1], theirs.ctx("orders")) \
        == record


def test_avro_schema_id_in_a_header(sides: Any) -> None:
    theirs, ours, _ = sides
    # Both deserializers insist on more than 5 bytes even when the id is in a header.
    record = {"id": 1, "name": "in a header"}
    outputs = []
    for side in (theirs, ours):
        headers: List[Any] = []
        serializer = side.avro_ser(USER_V1, conf={"schema.id.serializer": side.sr.header_schema_id_serializer})
        outputs.append((serializer(record, side.ctx("headed", headers=headers)), headers))
    assert outputs[0] == outputs[1]
    (data, headers), _ = outputs
    assert headers[0][0] == "__value_schema_id" and headers[0][1][0] == 1 and len(headers[0][1]) == 17
    assert ours.avro_de()(data, ours.ctx("headed", headers=headers)) == record
    assert ours.avro_de()(data, ours.ctx("headed", headers=dict(headers))) == record
    assert theirs.avro_de()(data, theirs.ctx("headed", headers=dict(headers))) == record


def _same_outcome(theirs: Any, ours: Any) -> Any:
    want, got = outcome(theirs), outcome(ours)
    assert got == want
    return want


@pytest.mark.parametrize("data", [b"", b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x01", b"\x07\x00\x00\x00\x01\x02",
                                  b"\x00\x00\x00\x03\xe7\x02", b"\x00\x00\x00\x00\x01"])
def test_avro_bad_framing_is_refused_alike(sides: Any, data: bytes) -> None:
    theirs, ours, _ = sides
    theirs.avro_ser(USER_V1)({"id": 1, "name": "a"}, theirs.ctx("framing"))
    want = _same_outcome(lambda: theirs.avro_de()(data, theirs.ctx("framing")),
                         lambda: ours.avro_de()(data, ours.ctx("framing")))
    assert want[0] == "raised"


@pytest.mark.parametrize("record", [{"id": 1}, {"id": "one", "name": "a"}, {"id": 1, "name": None}, 5])
def test_an_invalid_avro_record_is_refused_alike(sides: Any, record: Any) -> None:
    theirs, ours, _ = sides
    want = _same_outcome(lambda: theirs.avro_ser(USER_V1)(record, theirs.ctx("invalid")),
                         lambda: ours.avro_ser(USER_V1)(record, ours.ctx("invalid")))
    assert want[0] == "raised"


def test_strict_validation(sides: Any) -> None:
    theirs, ours, _ = sides
    for conf in ({"validate.strict": True}, {"validate.strict": True, "validate.strict.allow.default": True}):
        for record in ({"id": 1, "name": "a", "extra": 1}, {"id": 1, "name": "a"}):
            _same_outcome(lambda: theirs.avro_ser(USER_V2, conf=conf)(record, theirs.ctx("strict")),
                          lambda: ours.avro_ser(USER_V2, conf=conf)(record, ours.ctx("strict")))


def test_an_unregistered_schema_without_auto_registration(sides: Any) -> None:
    theirs, ours, _ = sides
    conf = {"auto.register.schemas": False}
    want = _same_outcome(lambda: theirs.avro_ser(USER_V1, conf=conf)({"id": 1, "name": "a"}, theirs.ctx("none")),
                         lambda: ours.avro_ser(USER_V1, conf=conf)({"id": 1, "name": "a"}, ours.ctx("none")))
    assert want[1][:3] == ("SchemaRegistryError", 404, 40401)
    ours.client.register_schema("none-value", ours.sr.Schema(USER_V2))
    want = _same_outcome(lambda: theirs.avro_ser(USER_V1, conf=conf)({"id": 1, "name": "a"}, theirs.ctx("none")),
                         lambda: ours.avro_ser(USER_V1, conf=conf)({"id": 1, "name": "a"}, ours.ctx("none")))
    assert want[1][:3] == ("SchemaRegistryError", 404, 40403)


def test_an_incompatible_schema_is_refused_alike(sides: Any) -> None:
    theirs, ours, _ = sides
    theirs.avro_ser(USER_V1)({"id": 1, "name": "a"}, theirs.ctx("evolving"))
    breaking = _record({"name": "id", "type": "string"}, name="User")
    want = _same_outcome(lambda: theirs.avro_ser(breaking)({"id": "1"}, theirs.ctx("evolving")),
                         lambda: ours.avro_ser(breaking)({"id": "1"}, ours.ctx("evolving")))
    assert want[1][:3] == ("SchemaRegistryError", 409, 409)


BAD_SETTINGS = [
    {"no.such.setting": 1},
    {"auto.register.schemas": "yes"},
    {"normalize.schemas": 1},
    {"use.latest.version": True},
    {"use.schema.id": "1"},
    {"subject.name.strategy": "topic"},
    {"schema.id.serializer": 0},
    {"use.latest.with.metadata": "x"},
]


@pytest.mark.parametrize("conf", BAD_SETTINGS, ids=[str(i) for i in range(len(BAD_SETTINGS))])
def test_bad_serializer_settings_are_refused_alike(sides: Any, conf: Dict[str, Any]) -> None:
    theirs, ours, _ = sides
    for make in (lambda side: side.avro_ser(USER_V1, conf=conf), lambda side: side.json_ser(PERSON, conf=conf)):
        want = _same_outcome(lambda: make(theirs), lambda: make(ours))
        assert want[0] == "raised"
    made = [outcome(lambda: side.avro_de(conf=conf)) for side in (theirs, ours)]
    assert made[0][0] == made[1][0]
    if made[0][0] == "raised":
        assert made[0] == made[1]


PERSON = json.dumps({
    "$schema": "http://json-schema.org/draft-07/schema#", "title": "Person", "type": "object",
    "properties": {"name": {"type": "string", "minLength": 1}, "age": {"type": "integer", "minimum": 0},
                   "tags": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number"},
                   "nick": {"type": ["string", "null"]}},
    "required": ["name"]})
PERSON_RECORDS = [
    {"name": "Ann"},
    {"name": "B\u00f6b \U0001F600", "age": 42, "tags": ["x", "y"], "score": 1.5, "nick": None},
    {"name": "C", "score": 1e20, "extra": {"nested": [1, 2.25, True, None]}},
]


@pytest.mark.parametrize("record", PERSON_RECORDS)
def test_json_bytes_match_and_each_reads_the_other(sides: Any, record: Dict[str, Any]) -> None:
    theirs, ours, _ = sides
    want = theirs.json_ser(PERSON)(record, theirs.ctx("people"))
    got = ours.json_ser(PERSON)(record, ours.ctx("people"))
    assert got == want
    assert json.loads(got[5:]) == record
    assert ours.json_de(None)(want, ours.ctx("people")) == theirs.json_de(None)(got, theirs.ctx("people")) == record
    assert ours.json_de(PERSON, schema_registry_client=None)(want, ours.ctx("people")) == record


@pytest.mark.parametrize("record", [{}, {"name": ""}, {"name": "a", "age": -1}, {"name": 5}, [], "x"])
def test_an_invalid_json_record_is_refused_alike(sides: Any, record: Any) -> None:
    theirs, ours, _ = sides
    want = _same_outcome(lambda: theirs.json_ser(PERSON)(record, theirs.ctx("people")),
                         lambda: ours.json_ser(PERSON)(record, ours.ctx("people")))
    assert want[1][0] == "SerializationError"
    framed = b"\x00\x00\x00\x00\x01" + json.dumps(record).encode()
    theirs.json_ser(PERSON)({"name": "a"}, theirs.ctx("people"))
    want = _same_outcome(lambda: theirs.json_de(PERSON)(framed, theirs.ctx("people")),
                         lambda: ours.json_de(PERSON)(framed, ours.ctx("people")))
    assert want[1][0] == "SerializationError"


def test_json_validation_can_be_turned_off(sides: Any) -> None:
    theirs, ours, _ = sides
    want = theirs.json_ser(PERSON, conf={"validate": False})({"age": -3}, theirs.ctx("loose"))
    assert ours.json_ser(PERSON, conf={"validate": False})({"age": -3}, ours.ctx("loose")) == want
    assert ours.json_de(PERSON, conf={"validate": False})(want, ours.ctx("loose")) == {"age": -3}


def test_json_references(sides: Any) -> None:
    theirs, ours, _ = sides
    address = json.dumps({"type": "object", "properties": {"street": {"type": "string"}}, "required": ["street"]})
    ours.client.register_schema("address-json", ours.sr.Schema(address, "JSON"))
    letter = json.dumps({"title": "Letter", "type": "object", "properties": {"to": {"$ref": "address.json"}},
                         "required": ["to"]})
    outputs = []
    for side in (theirs, ours):
        schema = side.sr.Schema(letter, "JSON", [side.sr.SchemaReference("address.json", "address-json", 1)])
        serializer = side.json_ser(schema)
        outputs.append(serializer({"to": {"street": "Main"}}, side.ctx("letters")))
        refused = outcome(lambda: serializer({"to": {}}, side.ctx("letters")))
        assert refused[1][0] == "SerializationError"
    assert outputs[0] == outputs[1]
    assert ours.json_de(None)(outputs[1], ours.ctx("letters")) == {"to": {"street": "Main"}}
    assert theirs.json_de(None)(outputs[1], theirs.ctx("letters")) == {"to": {"street": "Main"}}


def test_json_record_strategy_uses_the_title(sides: Any) -> None:
    theirs, ours, server = sides
    outputs = []
    for side in (theirs, ours):
        conf = {"subject.name.strategy": side.sr.topic_record_subject_name_strategy}
        outputs.append(side.json_ser(PERSON, conf=conf)({"name": "t"}, side.ctx("titled")))
    assert outputs[0] == outputs[1]
    assert ours.client.get_subjects() == ["titled-Person"]


def test_json_deserializer_arguments(libs: Any) -> None:
    for_each = []
    for modules in libs:
        de = modules["json_schema"].JSONDeserializer
        for_each.append([outcome(lambda: de(None)), outcome(lambda: de(5)),
                         outcome(lambda: de(PERSON, conf={"bogus": 1})),
                         outcome(lambda: de(PERSON, from_dict=3)),
                         outcome(lambda: de(PERSON)(b"\x00\x00\x00\x00\x01{\"name\": \"z\"}", None))[:2]])
        # Without a context the default subject name strategy refuses (the messages name different strategies).
        for_each[-1][-1] = (for_each[-1][-1][0], for_each[-1][-1][1][0])
    assert for_each[0] == for_each[1]
    assert for_each[0][-1] == ("raised", "ValueError")
