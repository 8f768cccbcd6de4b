"""kafkawire's SchemaRegistryClient against confluent-kafka's, on the test Schema Registry.

Each client plays the same script of calls against a fresh
:class:`~kafka.testing.schema_registry.SchemaRegistryServer`; the answers
(ids, versions, subjects, schemas, configs and the errors with their HTTP
status and registry codes) must be equal, and so must the HTTP requests the
two clients sent (what their caches spared included). confluent-kafka's
client doubles as the check that the server speaks the real REST API.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any, Callable, Dict, List, Tuple

import pytest

from kafka.testing.schema_registry import SchemaRegistryServer
from test.confluent.schema_registry_support import libs, outcome, plain  # noqa: F401 - libs is a fixture

Step = Tuple[str, Callable[[Any, ModuleType], Any]]


def _avro(*fields: Dict[str, Any], name: str = "User") -> str:
    return json.dumps({"type": "record", "name": name, "namespace": "kw.test", "fields": list(fields)})


USER_V1 = _avro({"name": "id", "type": "long"}, {"name": "name", "type": "string"})
# v2 adds a field with a default: backward compatible.
USER_V2 = _avro({"name": "id", "type": "long"}, {"name": "name", "type": "string"},
                {"name": "email", "type": ["null", "string"], "default": None})
# v3 adds a field without one: not backward compatible.
USER_V3 = _avro({"name": "id", "type": "long"}, {"name": "name", "type": "string"},
                {"name": "age", "type": "int"})
# v1 in another layout: the same schema to the registry.
USER_V1_SPACED = json.dumps(json.loads(USER_V1), indent=2)
NOT_AVRO = json.dumps({"type": "record", "name": "Broken", "fields": [{"name": "x", "type": "no-such-type"}]})
PERSON_JSON = json.dumps({"title": "Person", "type": "object", "properties": {"name": {"type": "string"}},
                          "required": ["name"]})
NOT_JSON_SCHEMA = json.dumps({"type": 12})


def _script() -> List[Step]:
    def schema(text: str, kind: str = "AVRO") -> Callable[[ModuleType], Any]:
        return lambda sr: sr.Schema(text, kind)

    v1, v2, v3 = schema(USER_V1), schema(USER_V2), schema(USER_V3)
    return [
        ("no subjects yet", lambda c, sr: c.get_subjects()),
        ("register v1", lambda c, sr: c.register_schema("users-value", v1(sr))),
        ("the same schema under another subject keeps its id", lambda c, sr: c.register_schema("copy-value", v1(sr))),
        ("again, from the cache", lambda c, sr: c.register_schema_full_response("users-value", v1(sr))),
        ("another layout of v1", lambda c, sr: c.register_schema("users-value", schema(USER_V1_SPACED)(sr))),
        ("schema by id", lambda c, sr: c.get_schema(1)),
        ("schema by id and subject", lambda c, sr: c.get_schema(1, "users-value")),
        ("unknown id", lambda c, sr: c.get_schema(99)),
        ("lookup", lambda c, sr: c.lookup_schema("users-value", v1(sr))),
        ("lookup of a schema the subject lacks", lambda c, sr: c.lookup_schema("users-value", v2(sr))),
        ("lookup in an unknown subject", lambda c, sr: c.lookup_schema("nobody-value", v1(sr))),
        ("latest", lambda c, sr: c.get_latest_version("users-value")),
        ("version 1", lambda c, sr: c.get_version("users-value", 1)),
        ("missing version", lambda c, sr: c.get_version("users-value", 7)),
        ("invalid version", lambda c, sr: c.get_version("users-value", 0)),
        ("unknown subject's version", lambda c, sr: c.get_version("nobody-value", 1)),
        ("versions", lambda c, sr: c.get_versions("users-value")),
        ("unknown subject's versions", lambda c, sr: c.get_versions("nobody-value")),
        ("compatible v2", lambda c, sr: c.test_compatibility("users-value", v2(sr))),
        ("incompatible v3", lambda c, sr: c.test_compatibility("users-value", v3(sr))),
        ("v3 against version 1", lambda c, sr: c.test_compatibility("users-value", v3(sr), version=1)),
        ("v3 against all versions", lambda c, sr: c.test_compatibility_all_versions("users-value", v3(sr))),
        ("compatibility in an unknown subject", lambda c, sr: c.test_compatibility("nobody-value", v1(sr))),
        ("register v2", lambda c, sr: c.register_schema_full_response("users-value", v2(sr))),
        ("register incompatible v3", lambda c, sr: c.register_schema("users-value", v3(sr))),
        ("register an invalid Avro schema", lambda c, sr: c.register_schema("users-value", schema(NOT_AVRO)(sr))),
        ("register a JSON schema", lambda c, sr: c.register_schema("people-value", schema(PERSON_JSON, "JSON")(sr))),
        ("its schema by id", lambda c, sr: c.get_schema(3)),
        ("an invalid JSON schema", lambda c, sr: c.register_schema("people-value",
                                                                   schema(NOT_JSON_SCHEMA, "JSON")(sr))),
        ("another type than the subject's", lambda c, sr: c.register_schema("people-value", v1(sr))),
        ("global compatibility", lambda c, sr: c.get_compatibility()),
        ("a subject without its own", lambda c, sr: c.get_compatibility("users-value")),
        ("set a subject's", lambda c, sr: c.set_compatibility("users-value", "full")),
        ("read it back", lambda c, sr: c.get_compatibility("users-value")),
        ("an invalid level", lambda c, sr: c.set_compatibility(level="sideways")),
        ("no level", lambda c, sr: c.set_compatibility("users-value")),
        ("global config", lambda c, sr: c.get_config()),
        ("subject config", lambda c, sr: c.get_config("users-value")),
        ("set a config", lambda c, sr: c.set_config("copy-value", sr.ServerConfig(
            compatibility=sr.ConfigCompatibilityLevel.NONE, compatibility_group="app"))),
        ("read it back", lambda c, sr: c.get_config("copy-value")),
        ("delete it", lambda c, sr: c.delete_config("copy-value")),
        ("delete it again", lambda c, sr: c.delete_config("copy-value")),
        ("set the global level", lambda c, sr: c.set_compatibility(level="FORWARD_TRANSITIVE")),
        ("reset the global config", lambda c, sr: c.delete_config()),
        ("subjects", lambda c, sr: c.get_subjects()),
        ("subjects by prefix", lambda c, sr: c.get_subjects(subject_prefix="u")),
        ("a page of subjects", lambda c, sr: c.get_subjects(offset=1, limit=1)),
        ("uses of id 1", lambda c, sr: c.get_schema_versions(1)),
        ("subjects of id 1", lambda c, sr: c.get_subjects_by_schema_id(1)),
        ("uses of an unknown id", lambda c, sr: c.get_schema_versions(99)),
        ("soft-delete version 2", lambda c, sr: c.delete_version("users-value", 2)),
        ("versions left", lambda c, sr: c.get_versions("users-value")),
        ("versions with the deleted", lambda c, sr: c.get_versions("users-value", deleted=True)),
        ("a deleted version", lambda c, sr: c.get_version("users-value", 2)),
        ("a deleted version, asked for", lambda c, sr: c.get_version("users-value", 2, deleted=True)),
        ("soft-delete it again", lambda c, sr: c.delete_version("users-value", 2)),
        ("hard-delete a live version", lambda c, sr: c.delete_version("users-value", 1, permanent=True)),
        ("hard-delete the deleted one", lambda c, sr: c.delete_version("users-value", 2, permanent=True)),
        ("delete a subject", lambda c, sr: c.delete_subject("copy-value")),
        ("again", lambda c, sr: c.delete_subject("copy-value")),
        ("subjects after it", lambda c, sr: c.get_subjects()),
        ("with the deleted ones", lambda c, sr: c.get_subjects(deleted=True)),
        ("only the deleted ones", lambda c, sr: c.get_subjects(deleted_only=True)),
        ("hard-delete it", lambda c, sr: c.delete_subject("copy-value", permanent=True)),
        ("hard-delete a live subject", lambda c, sr: c.delete_subject("people-value", permanent=True)),
        ("delete an unknown subject", lambda c, sr: c.delete_subject("nobody-value")),
        ("register under it anew", lambda c, sr: c.register_schema_full_response("copy-value", v2(sr))),
        ("its versions start again", lambda c, sr: c.get_versions("copy-value")),
        ("a subject name with a slash", lambda c, sr: c.register_schema("team/users value", v1(sr))),
        ("its versions", lambda c, sr: c.get_versions("team/users value")),
        ("schema types", lambda c, sr: c.get_schema_types()),
        ("global mode", lambda c, sr: c.get_global_mode()),
        ("a subject without a mode", lambda c, sr: c.get_mode("users-value")),
        ("make it read-only", lambda c, sr: c.update_mode("users-value", "READONLY")),
        ("register while read-only", lambda c, sr: c.register_schema("users-value", v3(sr))),
        ("its mode", lambda c, sr: c.get_mode("users-value")),
        ("drop the mode", lambda c, sr: c.delete_mode("users-value")),
        ("an invalid mode", lambda c, sr: c.update_global_mode("SIDEWAYS")),
        ("contexts", lambda c, sr: c.get_contexts()),
        ("referenced by", lambda c, sr: c.get_referenced_by("users-value", 1)),
    ]


def _play(client_class: Any, sr: ModuleType, server: SchemaRegistryServer) -> List[Tuple[str, Any]]:
    client = client_class({"url": server.url})
    try:
        return [(title, outcome(lambda: step(client, sr))) for title, step in _script()]
    finally:
        client.close()


def _requests(server: SchemaRegistryServer) -> List[Tuple[str, str]]:
    # confluent-kafka writes some flags in query strings as Python's False/True, kafkawire as false/true.
    return [(method, path.replace("=False", "=false").replace("=True", "=true")) for method, path in server.requests]


def test_the_same_calls_give_the_same_answers(libs: Any) -> None:
    theirs, ours = libs
    with SchemaRegistryServer() as their_server, SchemaRegistryServer() as our_server:
        expected = _play(theirs["sr"].SchemaRegistryClient, theirs["sr"], their_server)
        got = _play(ours["sr"].SchemaRegistryClient, ours["sr"], our_server)
        for (title, want), (_, have) in zip(expected, got):
            assert have == want, title
        assert _requests(our_server) == _requests(their_server)


def test_the_script_meets_the_documented_answers(libs: Any) -> None:
    # A few answers spelled out, so that a server both clients misread the same way is caught too.
    theirs, _ = libs
    with SchemaRegistryServer() as server:
        answers = dict(_play(theirs["sr"].SchemaRegistryClient, theirs["sr"], server))
    assert answers["register v1"] == ("ok", 1)
    assert answers["the same schema under another subject keeps its id"] == ("ok", 1)
    assert answers["another layout of v1"] == ("ok", 1)
    assert answers["unknown id"][1][:3] == ("SchemaRegistryError", 404, 40403)
    assert answers["lookup of a schema the subject lacks"][1][:3] == ("SchemaRegistryError", 404, 40403)
    assert answers["lookup in an unknown subject"][1][:3] == ("SchemaRegistryError", 404, 40401)
    assert answers["missing version"][1][:3] == ("SchemaRegistryError", 404, 40402)
    assert answers["invalid version"][1][:3] == ("SchemaRegistryError", 422, 42202)
    assert answers["compatible v2"] == ("ok", True)
    assert answers["incompatible v3"] == ("ok", False)
    assert answers["register incompatible v3"][1][:3] == ("SchemaRegistryError", 409, 409)
    assert answers["register an invalid Avro schema"][1][:3] == ("SchemaRegistryError", 422, 42201)
    assert answers["an invalid JSON schema"][1][:3] == ("SchemaRegistryError", 422, 42201)
    assert answers["another type than the subject's"][1][:3] == ("SchemaRegistryError", 409, 409)
    assert answers["a subject without its own"][1][:3] == ("SchemaRegistryError", 404, 40408)
    assert answers["set a subject's"] == ("ok", {"compatibility": "FULL"})
    assert answers["an invalid level"][1][:3] == ("SchemaRegistryError", 422, 42203)
    assert answers["versions with the deleted"] == ("ok", [1, 2])
    assert answers["soft-delete it again"][1][:3] == ("SchemaRegistryError", 404, 40406)
    assert answers["hard-delete a live version"][1][:3] == ("SchemaRegistryError", 404, 40407)
    assert answers["again"][1][:3] == ("SchemaRegistryError", 404, 40404)
    assert answers["hard-delete a live subject"][1][:3] == ("SchemaRegistryError", 404, 40405)
    assert answers["its versions start again"] == ("ok", [1])
    assert answers["register while read-only"][1][:3] == ("SchemaRegistryError", 422, 42205)
    assert answers["global compatibility"] == ("ok", "BACKWARD")


BAD_CONFIGS = [
    {},
    {"url": 5},
    {"url": "ftp://registry"},
    {"url": "http://registry", "no.such.key": 1},
    {"url": "http://registry", "cache.capacity": "many"},
    {"url": "http://registry", "max.retries": "3"},
    {"url": "http://registry", "cache.latest.ttl.sec": []},
    {"url": "http://registry", "basic.auth.user.info": "no-colon"},
    {"url": "http://u:p@registry", "basic.auth.user.info": "a:b"},
    {"url": "http://registry", "ssl.key.location": "/no/such/key.pem"},
    {"url": "http://registry", "bearer.auth.credentials.source": "STATIC_TOKEN"},
    {"url": "http://registry", "bearer.auth.credentials.source": "STATIC_TOKEN",
     "bearer.auth.logical.cluster": "lsrc-1"},
    {"url": "http://registry", "bearer.auth.credentials.source": "CUSTOM"},
    {"url": "http://registry", "bearer.auth.credentials.source": "NOPE"},
]


@pytest.mark.parametrize("conf", BAD_CONFIGS, ids=[str(i) for i in range(len(BAD_CONFIGS))])
def test_a_bad_configuration_is_refused_alike(libs: Any, conf: Dict[str, Any]) -> None:
    theirs, ours = libs
    want = outcome(lambda: theirs["sr"].SchemaRegistryClient(dict(conf)))
    have = outcome(lambda: ours["sr"].SchemaRegistryClient(dict(conf)))
    assert want[0] == "raised"
    assert have[1][0] == want[1][0]
    if "NOPE" not in str(conf):  # kafkawire's message names the sources it supports
        assert have == want


GOOD_CONFIGS = [
    {"timeout": 5, "cache.capacity": 10, "cache.latest.ttl.sec": 60, "max.retries": 1, "retries.wait.ms": 10,
     "retries.max.wait.ms": 100},
    {"basic.auth.user.info": "user:secret"},
    {"proxy": None},
    {"bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.token": "t",
     "bearer.auth.logical.cluster": "lsrc-1", "bearer.auth.identity.pool.id": ["pool-1", "pool-2"]},
    {"bearer.auth.credentials.source": "CUSTOM", "bearer.auth.custom.provider.function": lambda conf: conf,
     "bearer.auth.custom.provider.config": {}},
]


@pytest.mark.parametrize("conf", GOOD_CONFIGS, ids=[str(i) for i in range(len(GOOD_CONFIGS))])
def test_a_good_configuration_is_accepted_alike(libs: Any, conf: Dict[str, Any]) -> None:
    theirs, ours = libs
    for lib in (theirs, ours):
        client = lib["sr"].SchemaRegistryClient(dict(conf, url="http://127.0.0.1:1"))
        assert client.config()["url"] == "http://127.0.0.1:1"
        client.close()


def test_the_values_print_and_compare_alike(libs: Any) -> None:
    theirs, ours = libs
    for lib in (theirs, ours):
        sr = lib["sr"]
        ref = sr.SchemaReference("kw.test.Address", "address-value", 1)
        schema = sr.Schema(USER_V1, "AVRO", [ref])
        assert schema == sr.Schema(USER_V1, "AVRO", [ref])
        assert hash(schema) == hash(sr.Schema(USER_V1, "AVRO"))
        assert {schema: 1}[sr.Schema(USER_V1, "AVRO", [ref])] == 1
        assert schema.to_dict() == {"schema": USER_V1, "schemaType": "AVRO", "references": [
            {"name": "kw.test.Address", "subject": "address-value", "version": 1}]}
        registered = sr.RegisteredSchema.from_dict({"id": 4, "subject": "s", "version": 2, "schema": "\"int\""})
        assert (registered.schema_id, registered.subject, registered.version, registered.guid) == (4, "s", 2, None)
        assert registered.schema == sr.Schema('"int"', "AVRO")
        config = sr.ServerConfig.from_dict({"compatibilityLevel": "FULL"})
        assert config.compatibility_level == sr.ConfigCompatibilityLevel.FULL and config.compatibility is None
        error = sr.SchemaRegistryError(404, 40401, "Subject 'x' not found.")
        assert str(error) == "Subject 'x' not found. (HTTP status code 404, SR code 40401)"
        assert repr(error) == str(error)
    assert repr(theirs["sr"].Schema("\"int\"")) == repr(ours["sr"].Schema("\"int\""))
    assert plain(theirs["sr"].RegisteredSchema.from_dict({"id": 1, "schema": "\"int\""})) == \
        plain(ours["sr"].RegisteredSchema.from_dict({"id": 1, "schema": "\"int\""}))
