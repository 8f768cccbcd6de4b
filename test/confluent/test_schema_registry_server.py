"""The test Schema Registry itself, and both clients' credentials, TLS, fail-over and retries against it.

Where both clients can be pointed at the server, both are (confluent-kafka's
checks that the server speaks the real API, kafkawire's that it behaves the
same); the rest checks the server's own rules over plain HTTP.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any, Dict, Optional, Tuple

import pytest

from kafka.testing import _schema_checks as checks
from kafka.testing import free_port
from kafka.testing.schema_registry import MEDIA_TYPE, SchemaRegistryServer
from test.confluent.schema_registry_support import libs, outcome, registry  # noqa: F401 - fixtures

USER = json.dumps({"type": "record", "name": "User", "fields": [{"name": "id", "type": "long"}]})


def _http(server: SchemaRegistryServer, method: str, path: str, body: Any = None,
          headers: Optional[Dict[str, str]] = None) -> Tuple[int, Dict[str, str], bytes]:
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(server.url + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, dict(exc.headers), exc.read()


def test_answers_are_in_the_registry_media_type(registry: SchemaRegistryServer) -> None:
    status, headers, body = _http(registry, "POST", "/subjects/s/versions", {"schema": USER})
    assert status == 200 and headers["Content-Type"] == MEDIA_TYPE
    assert json.loads(body)["id"] == 1
    status, headers, body = _http(registry, "GET", "/subjects/s/versions/1/schema")
    assert (status, json.loads(body)) == (200, json.loads(USER))
    assert _http(registry, "GET", "/schemas/ids/1/schema")[2] == body
    assert _http(registry, "GET", "/")[:1] == (200,)


@pytest.mark.parametrize("method,path,body,status,code", [
    ("GET", "/no/such/path", None, 404, 404),
    ("PATCH", "/subjects", None, 404, 404),
    ("PUT", "/subjects", None, 405, 405),
    ("POST", "/subjects/s/versions", b"{not json", 400, 400),
    ("POST", "/subjects/s/versions", {"no": "schema"}, 422, 42201),
    ("POST", "/subjects/s/versions", {"schema": USER, "schemaType": "XML"}, 422, 42201),
    ("POST", "/subjects/s/versions", {"schema": "", "schemaType": "PROTOBUF"}, 422, 42201),
    ("POST", "/subjects/s/versions", {"schema": USER, "references": [{"name": "x", "subject": "none",
                                                                      "version": 1}]}, 422, 42201),
    ("GET", "/subjects/s/versions/latest", None, 404, 40401),
    ("GET", "/schemas/guids/0000", None, 404, 40403),
    ("PUT", "/mode", {"mode": "SIDEWAYS"}, 422, 42204),
    ("DELETE", "/mode/s", None, 404, 40409),
])
def test_refusals_carry_confluents_codes(registry: SchemaRegistryServer, method: str, path: str, body: Any,
                                         status: int, code: int) -> None:
    got_status, _, got_body = _http(registry, method, path, body)
    if method == "PATCH":  # http.server has no handler for it at all
        assert got_status == 501
        return
    assert (got_status, json.loads(got_body)["error_code"]) == (status, code)


def test_protobuf_schemas_are_kept_as_text(registry: SchemaRegistryServer) -> None:
    proto = 'syntax = "proto3";\nmessage M { string a = 1; }\n'
    body = {"schema": proto, "schemaType": "PROTOBUF"}
    assert json.loads(_http(registry, "POST", "/subjects/p/versions", body)[2])["id"] == 1
    answer = json.loads(_http(registry, "GET", "/schemas/ids/1")[2])
    assert (answer["schema"], answer["schemaType"]) == (proto.strip(), "PROTOBUF")


def test_guids_find_the_schema(registry: SchemaRegistryServer) -> None:
    guid = json.loads(_http(registry, "POST", "/subjects/s/versions", {"schema": USER})[2])["guid"]
    answer = json.loads(_http(registry, "GET", "/schemas/guids/" + guid)[2])
    assert (answer["id"], answer["guid"]) == (1, guid)


def test_parallel_registrations_get_one_id(registry: SchemaRegistryServer) -> None:
    answers = []

    def register(n: int) -> None:
        answers.append(json.loads(_http(registry, "POST", "/subjects/s%d/versions" % n, {"schema": USER})[2]))

    threads = [threading.Thread(target=register, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [a["id"] for a in answers] == [1] * 8
    assert json.loads(_http(registry, "GET", "/subjects")[2]) == ["s%d" % n for n in range(8)]


# ---------------------------------------------------------------------------
# Avro compatibility rules
# ---------------------------------------------------------------------------

def _parsed(schema: Any) -> Any:
    return checks.parse_avro(json.dumps(schema))


def _record(*fields: Any, name: str = "R", **extra: Any) -> Dict[str, Any]:
    return dict({"type": "record", "name": name, "fields": list(fields)}, **extra)


@pytest.mark.parametrize("reader,writer,readable", [
    ("long", "int", True),
    ("int", "long", False),
    ("double", "float", True),
    ("bytes", "string", True),
    ("string", "bytes", True),
    ("string", "int", False),
    (["null", "string"], "string", True),
    ("string", ["null", "string"], False),
    (["null", "long"], ["null", "int"], True),
    ({"type": "array", "items": "long"}, {"type": "array", "items": "int"}, True),
    ({"type": "map", "values": "int"}, {"type": "map", "values": "string"}, False),
    ({"type": "enum", "name": "E", "symbols": ["A", "B"]}, {"type": "enum", "name": "E", "symbols": ["A"]}, True),
    ({"type": "enum", "name": "E", "symbols": ["A"]}, {"type": "enum", "name": "E", "symbols": ["A", "B"]}, False),
    ({"type": "enum", "name": "E", "symbols": ["A"], "default": "A"},
     {"type": "enum", "name": "E", "symbols": ["A", "B"]}, True),
    ({"type": "fixed", "name": "F", "size": 4}, {"type": "fixed", "name": "F", "size": 8}, False),
    (_record({"name": "a", "type": "int"}), _record({"name": "a", "type": "int"}, {"name": "b", "type": "int"}), True),
    (_record({"name": "a", "type": "int"}, {"name": "c", "type": "int"}), _record({"name": "a", "type": "int"}),
     False),
    (_record({"name": "a", "type": "int"}, {"name": "c", "type": "int", "default": 0}),
     _record({"name": "a", "type": "int"}), True),
    (_record({"name": "renamed", "type": "int", "aliases": ["a"]}), _record({"name": "a", "type": "int"}), True),
    (_record({"name": "a", "type": "int"}, name="Other"), _record({"name": "a", "type": "int"}), False),
    (_record({"name": "a", "type": "int"}, name="Other", aliases=["R"]), _record({"name": "a", "type": "int"}), True),
    (_record({"name": "next", "type": ["null", "R"]}), _record({"name": "next", "type": ["null", "R"]}), True),
    ({"type": "int", "logicalType": "date"}, "int", True),
])
def test_avro_resolution_rules(reader: Any, writer: Any, readable: bool) -> None:
    pytest.importorskip("fastavro")
    problems = checks.avro_can_read(_parsed(reader), _parsed(writer))
    assert (not problems) == readable, problems


@pytest.mark.parametrize("level,new_fields,compatible", [
    ("BACKWARD", [{"name": "a", "type": "int"}, {"name": "b", "type": "int", "default": 1}], True),
    ("BACKWARD", [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}], False),
    ("FORWARD", [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}], True),
    ("FORWARD", [], False),
    ("FULL", [{"name": "a", "type": "int"}, {"name": "b", "type": "int", "default": 1}], True),
    ("FULL", [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}], False),
    ("NONE", [{"name": "z", "type": "string"}], True),
])
def test_compatibility_levels(libs: Any, registry: SchemaRegistryServer, level: str, new_fields: Any,
                              compatible: bool) -> None:
    theirs, ours = libs
    their_client = theirs["sr"].SchemaRegistryClient({"url": registry.url})
    our_client = ours["sr"].SchemaRegistryClient({"url": registry.url})
    old = json.dumps(_record({"name": "a", "type": "int"}))
    new = json.dumps(_record(*new_fields))
    our_client.register_schema("s", ours["sr"].Schema(old))
    our_client.set_compatibility("s", level)
    assert their_client.test_compatibility("s", theirs["sr"].Schema(new)) is compatible
    assert our_client.test_compatibility("s", ours["sr"].Schema(new)) is compatible
    registered = outcome(lambda: our_client.register_schema("s", ours["sr"].Schema(new)))
    assert registered[0] == ("ok" if compatible else "raised")


def test_transitive_levels_compare_with_every_version(registry: SchemaRegistryServer, libs: Any) -> None:
    _, ours = libs
    sr = ours["sr"]
    client = sr.SchemaRegistryClient({"url": registry.url})
    client.set_compatibility(level="NONE")
    client.register_schema("s", sr.Schema(json.dumps(_record({"name": "a", "type": "int"}))))
    client.register_schema("s", sr.Schema(json.dumps(_record({"name": "b", "type": "int"}))))
    third = sr.Schema(json.dumps(_record({"name": "b", "type": "int"}, {"name": "c", "type": "int",
                                                                         "default": 0})))
    client.set_compatibility("s", "BACKWARD")
    assert client.test_compatibility_all_versions("s", third) is True
    client.set_compatibility("s", "BACKWARD_TRANSITIVE")
    assert client.test_compatibility_all_versions("s", third) is False
    assert client.test_compatibility("s", third) is True  # one version at a time


# ---------------------------------------------------------------------------
# Credentials
# ---------------------------------------------------------------------------

@pytest.fixture
def guarded() -> Any:
    with SchemaRegistryServer(user="alice", password="s3cr:et") as server:
        yield server


def _try(lib: Dict[str, Any], conf: Dict[str, Any]) -> Any:
    def run() -> Any:
        client = lib["sr"].SchemaRegistryClient(conf)
        try:
            return client.register_schema("s", lib["sr"].Schema(USER))
        finally:
            client.close()

    return outcome(run)


def test_basic_auth_alike(libs: Any, guarded: SchemaRegistryServer) -> None:
    theirs, ours = libs
    host = guarded.url.split("//", 1)[1]
    cases = [
        ({"url": guarded.url, "basic.auth.user.info": "alice:s3cr:et"}, ("ok", 1)),
        ({"url": "http://alice:s3cr%3Aet@" + host}, ("ok", 1)),
        ({"url": guarded.url, "basic.auth.user.info": "alice:wrong"}, None),
        ({"url": guarded.url}, None),
        ({"url": guarded.url, "basic.auth.user.info": ":"}, None),
    ]
    for conf, expected in cases:
        want, got = _try(theirs, dict(conf)), _try(ours, dict(conf))
        assert got == want, conf
        if expected is not None:
            assert want == expected
        else:
            assert want[1][:3] == ("SchemaRegistryError", 401, 401)


def test_the_legacy_credentials_source_setting(libs: Any, guarded: SchemaRegistryServer) -> None:
    # confluent-kafka 2.16 refuses basic.auth.credentials.source; its older client read it, and so does kafkawire.
    _, ours = libs
    host = guarded.url.split("//", 1)[1]
    assert _try(ours, {"url": guarded.url, "basic.auth.credentials.source": "USER_INFO",
                       "basic.auth.user.info": "alice:s3cr:et"}) == ("ok", 1)
    assert _try(ours, {"url": "http://alice:s3cr%3Aet@" + host, "basic.auth.credentials.source": "URL"}) == ("ok", 1)
    assert _try(ours, {"url": guarded.url, "basic.auth.credentials.source": "SASL_INHERIT",
                       "sasl.mechanism": "PLAIN", "sasl.username": "alice", "sasl.password": "s3cr:et"}) == ("ok", 1)
    refused = [
        {"basic.auth.credentials.source": "KERBEROS"},
        {"basic.auth.credentials.source": "USER_INFO"},
        {"basic.auth.credentials.source": "SASL_INHERIT", "sasl.mechanism": "GSSAPI"},
        {"sasl.username": "alice"},
    ]
    for extra in refused:
        assert _try(ours, dict(extra, url=guarded.url))[1][0] == "ValueError", extra


def test_bearer_tokens_are_sent_alike(libs: Any, registry: SchemaRegistryServer) -> None:
    theirs, ours = libs
    conf = {"url": registry.url, "bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.token": "tok",
            "bearer.auth.logical.cluster": "lsrc-1", "bearer.auth.identity.pool.id": ["pool-1", "pool-2"]}
    names = ("authorization", "target-sr-cluster", "confluent-identity-pool-id")
    seen = []
    for lib in (theirs, ours):
        assert _try(lib, dict(conf)) == ("ok", 1)
        headers = {k.lower(): v for k, v in registry.headers[-1].items()}
        seen.append([headers.get(name) for name in names])
    assert seen[0] == seen[1] == ["Bearer tok", "lsrc-1", "pool-1,pool-2"]


# ---------------------------------------------------------------------------
# TLS
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pki(tmp_path_factory: Any) -> Any:
    pytest.importorskip("cryptography")
    from test.conn.tls_support import make_pki

    return make_pki(str(tmp_path_factory.mktemp("sr-pki")))


def _tls_server(pki: Any, client_ca: bool = False) -> SchemaRegistryServer:
    from test.conn.tls_support import server_context

    context = server_context(pki.server_cert, pki.server_key, client_cafile=pki.ca if client_ca else None)
    return SchemaRegistryServer(ssl_context=context, host="localhost")


def test_tls_alike(libs: Any, pki: Any) -> None:
    from test.conn.tls_support import KEY_PASSWORD

    theirs, ours = libs
    with _tls_server(pki) as server:
        assert server.url.startswith("https://localhost:")
        for lib in (theirs, ours):
            assert _try(lib, {"url": server.url, "ssl.ca.location": pki.ca}) == ("ok", 1)
            assert _try(lib, {"url": server.url, "ssl.ca.location": pki.other_ca, "max.retries": 0})[0] == "raised"
            assert _try(lib, {"url": server.url, "ssl.ca.location": False}) == ("ok", 1)
    with _tls_server(pki, client_ca=True) as server:
        for lib in (theirs, ours):
            assert _try(lib, {"url": server.url, "ssl.ca.location": pki.ca, "max.retries": 0})[0] == "raised"
            assert _try(lib, {"url": server.url, "ssl.ca.location": pki.ca,
                              "ssl.certificate.location": pki.client_cert,
                              "ssl.key.location": pki.client_key}) == ("ok", 1)
            assert _try(lib, {"url": server.url, "ssl.ca.location": pki.ca,
                              "ssl.certificate.location": pki.client_cert,
                              "ssl.key.location": pki.client_key_encrypted,
                              "ssl.key.password": KEY_PASSWORD}) == ("ok", 1)


# ---------------------------------------------------------------------------
# Fail-over and retries
# ---------------------------------------------------------------------------

def test_the_next_url_is_tried_when_one_is_down(libs: Any, registry: SchemaRegistryServer) -> None:
    theirs, ours = libs
    dead = "http://127.0.0.1:%d" % free_port()
    for lib in (theirs, ours):
        conf = {"url": dead + "," + registry.url, "max.retries": 0}
        assert _try(lib, conf) == ("ok", 1)
        assert _try(lib, {"url": dead, "max.retries": 0})[0] == "raised"


@pytest.mark.parametrize("statuses,retries,expected", [
    ((503, 503), 2, ("ok", 1)),
    ((503, 503, 503), 2, ("raised", ("SchemaRegistryError", 503, 503, "injected failure"))),
    ((429,), 0, ("raised", ("SchemaRegistryError", 429, 429, "injected failure"))),
    ((400,), 3, ("raised", ("SchemaRegistryError", 400, 400, "injected failure"))),
])
def test_retriable_answers_are_retried_alike(libs: Any, registry: SchemaRegistryServer, statuses: Tuple[int, ...],
                                             retries: int, expected: Any) -> None:
    theirs, ours = libs
    counts = []
    for lib in (theirs, ours):
        registry.fail_next(*statuses)
        before = len(registry.requests)
        conf = {"url": registry.url, "max.retries": retries, "retries.wait.ms": 1, "retries.max.wait.ms": 5}
        assert _try(lib, conf) == expected
        counts.append(len(registry.requests) - before)
        registry.take_failure()  # what an exhausted client left unused
    assert counts[0] == counts[1]


def test_an_unknown_path_is_refused_alike(libs: Any, registry: SchemaRegistryServer) -> None:
    theirs, ours = libs
    results = []
    for lib in (theirs, ours):
        client = lib["sr"].SchemaRegistryClient({"url": registry.url + "/no-json-here"})
        results.append(outcome(lambda: client.get_subjects()))
    assert results[0] == results[1]
    assert results[0][1][:3] == ("SchemaRegistryError", 404, 404)


# ---------------------------------------------------------------------------
# kafkawire's client cache
# ---------------------------------------------------------------------------

def test_the_cache_spares_requests(libs: Any, registry: SchemaRegistryServer,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from kafka.confluent.schema_registry import _cache

    _, ours = libs
    sr = ours["sr"]
    client = sr.SchemaRegistryClient({"url": registry.url, "cache.latest.ttl.sec": 0.3})
    schema = sr.Schema(USER)
    schema_id = client.register_schema("s", schema)
    sent = len(registry.requests)
    assert client.register_schema("s", schema) == schema_id
    assert client.get_schema(schema_id, "s") == schema
    assert len(registry.requests) == sent
    client.get_schema(schema_id)
    client.get_schema(schema_id)
    client.get_version("s", 1)
    client.get_version("s", 1)
    client.get_latest_version("s")
    client.get_latest_version("s")
    assert len(registry.requests) == sent + 3
    later = _cache.clock() + 0.4  # past the latest version's time to live
    monkeypatch.setattr(_cache, "clock", lambda: later)
    client.get_latest_version("s")
    assert len(registry.requests) == sent + 4
    client.clear_caches()
    client.get_schema(schema_id)
    assert len(registry.requests) == sent + 5


def test_a_stopped_server_answers_no_kept_alive_connection(libs: Any) -> None:
    theirs, _ = libs
    server = SchemaRegistryServer().start()
    client = theirs["sr"].SchemaRegistryClient({"url": server.url, "max.retries": 0})
    assert client.get_subjects() == []
    server.stop()
    assert outcome(lambda: client.get_subjects())[0] == "raised"
    client.close()
