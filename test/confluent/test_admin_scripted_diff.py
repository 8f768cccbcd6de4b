"""Leader elections, SCRAM credentials, list_groups and cluster_id: kafka.confluent against confluent_kafka.

No embedded broker answers ElectLeaders or the SCRAM credential APIs well,
so both clients talk to the same :class:`~kafka.testing.ScriptedPeer`, whose
handlers check each request as Kafka's message definitions lay it out; the
two clients must send the same thing and give the same results.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import warnings
from typing import Any, Dict, List

import pytest

from kafka.testing import ScriptedPeer

WAIT = 30


def outcome(future: concurrent.futures.Future) -> Any:
    try:
        return ("ok", future.result(WAIT))
    except Exception as exc:  # noqa: BLE001
        assert type(exc).__name__ == "KafkaException"
        return ("err", exc.args[0].name())


def each_client(ck, kc, peer: ScriptedPeer, scenario) -> List[Any]:
    """``scenario(admin module, package, client)`` run through confluent_kafka, then kafka.confluent."""
    answers = []
    for package in (ck, kc):
        admin_module = __import__(package.__name__ + ".admin", fromlist=["AdminClient"])
        client = admin_module.AdminClient({"bootstrap.servers": peer.bootstrap})
        try:
            answers.append(scenario(admin_module, package, client))
        finally:
            if hasattr(client, "close"):
                client.close()
    return answers


def _elections(request: Any) -> Dict[str, Any]:
    assert request.body.election_type == 1
    [topic] = request.body.topic_partitions
    assert (topic.topic, sorted(topic.partitions)) == ("t", [0, 1])
    return {"throttle_time_ms": 0, "error_code": 0, "replica_election_results": [{"topic": "t", "partition_result": [
        {"partition_id": 0, "error_code": 0, "error_message": None},
        {"partition_id": 1, "error_code": 84, "error_message": "not needed"}]}]}


def test_elect_leaders_gives_each_partitions_error(ck, kc):
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ElectLeaders", _elections)

        def scenario(A, pkg, admin):
            result = admin.elect_leaders(pkg.ElectionType.UNCLEAN, [pkg.TopicPartition("t", 0),
                                                                     pkg.TopicPartition("t", 1)]).result(WAIT)
            return sorted((tp.topic, tp.partition, tp.offset, tp.error and tp.error.name(),
                           None if e is None else (type(e).__name__, e.name(), e.str())) for tp, e in result.items())

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs == [
            ("t", 0, 0, None, None),
            ("t", 1, 0, "ELECTION_NOT_NEEDED", ("KafkaError", "ELECTION_NOT_NEEDED", "not needed"))]


def test_elect_leaders_of_no_partition_or_a_partition_twice(ck, kc):
    with ScriptedPeer(topics={"t": 2}) as peer:
        def nothing_asked(request: Any) -> Dict[str, Any]:
            assert request.body.topic_partitions == []
            return {"throttle_time_ms": 0, "error_code": 0, "replica_election_results": []}
        peer.on("ElectLeaders", nothing_asked)

        def scenario(A, pkg, admin):
            twice = [pkg.TopicPartition("t", 0), pkg.TopicPartition("t", 0)]
            return (outcome(admin.elect_leaders(pkg.ElectionType.PREFERRED, [])),
                    outcome(admin.elect_leaders(pkg.ElectionType.PREFERRED, twice)))

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs == (("ok", {}), ("err", "_INVALID_ARG"))
        assert len(peer.received("ElectLeaders")) == 2  # the duplicate call sends nothing


def test_elect_leaders_of_every_partition_and_a_top_level_error(ck, kc):
    with ScriptedPeer(topics={"t": 2}) as peer:
        def refuse(request: Any) -> Dict[str, Any]:
            assert request.body.topic_partitions is None and request.body.election_type == 0
            return {"throttle_time_ms": 0, "error_code": 31, "replica_election_results": []}
        peer.on("ElectLeaders", refuse)

        theirs, ours = each_client(ck, kc, peer, lambda A, pkg, admin: outcome(
            admin.elect_leaders(pkg.ElectionType.PREFERRED)))
        assert ours == theirs == ("err", "CLUSTER_AUTHORIZATION_FAILED")


def _described(request: Any) -> Dict[str, Any]:
    asked = [u.name for u in request.body.users or ()]
    known = {"alice": [{"mechanism": 1, "iterations": 4096}, {"mechanism": 2, "iterations": 8192}]}
    results = []
    for user in asked or ["alice"]:
        if user in known:
            results.append({"user": user, "error_code": 0, "error_message": None, "credential_infos": known[user]})
        else:
            results.append({"user": user, "error_code": 91, "error_message": "no credentials",
                            "credential_infos": []})
    return {"throttle_time_ms": 0, "error_code": 0, "error_message": None, "results": results}


def _description(value: Any) -> Any:
    return (value.user, [(i.mechanism.name, i.iterations) for i in value.scram_credential_infos])


def test_describe_user_scram_credentials_per_user_and_for_everyone(ck, kc):
    with ScriptedPeer() as peer:
        peer.on("DescribeUserScramCredentials", _described)

        def scenario(A, pkg, admin):
            futures = admin.describe_user_scram_credentials(["alice", "nobody"])
            per_user = {user: outcome(f) for user, f in futures.items()}
            per_user["alice"] = ("ok", _description(per_user["alice"][1]))
            everyone = admin.describe_user_scram_credentials().result(WAIT)
            return per_user, {user: _description(d) for user, d in everyone.items()}

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs
        assert ours[0] == {"alice": ("ok", ("alice", [("SCRAM_SHA_256", 4096), ("SCRAM_SHA_512", 8192)])),
                           "nobody": ("err", "RESOURCE_NOT_FOUND")}
        sent = [[u.name for u in r.body.users or ()] for r in peer.received("DescribeUserScramCredentials")]
        assert sent == [["alice", "nobody"], [], ["alice", "nobody"], []]


def test_describe_user_scram_credentials_argument_checks(ck, kc):
    with ScriptedPeer() as peer:
        def scenario(A, pkg, admin):
            found = []
            for users in ("alice", [None], [""], ["a", "a"]):
                try:
                    futures = admin.describe_user_scram_credentials(users)
                except Exception as exc:  # noqa: BLE001
                    found.append(type(exc).__name__)
                    continue
                found.append({user: outcome(f) for user, f in futures.items()})
            return found

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs == ["TypeError", "TypeError", "ValueError", {"a": ("err", "_INVALID_ARG")}]
        assert not peer.received("DescribeUserScramCredentials")


def test_alter_user_scram_credentials_sends_the_same_salted_passwords(ck, kc):
    with ScriptedPeer() as peer:
        def answer(request: Any) -> Dict[str, Any]:
            users = [u.name for u in request.body.upsertions] + [d.name for d in request.body.deletions]
            return {"throttle_time_ms": 0, "results": [
                {"user": u, "error_code": 91 if u == "bob" else 0, "error_message": "nope" if u == "bob" else None}
                for u in users]}
        peer.on("AlterUserScramCredentials", answer)

        def scenario(A, pkg, admin):
            info = A.ScramCredentialInfo(A.ScramMechanism.SCRAM_SHA_256, 4096)
            futures = admin.alter_user_scram_credentials([
                A.UserScramCredentialUpsertion("alice", info, b"pencil", b"salt-of-alice"),
                A.UserScramCredentialDeletion("bob", A.ScramMechanism.SCRAM_SHA_512)])
            out = {user: outcome(f) for user, f in futures.items()}
            # Alone: confluent-kafka 2.16 gives an upsertion without a salt the
            # salt of the upsertion before it in the same call (kafkawire does not).
            futures = admin.alter_user_scram_credentials([A.UserScramCredentialUpsertion(
                "carol", A.ScramCredentialInfo(A.ScramMechanism.SCRAM_SHA_512, 5000), b"secret")])
            out.update({user: outcome(f) for user, f in futures.items()})
            return out

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs == {"alice": ("ok", None), "carol": ("ok", None), "bob": ("err", "RESOURCE_NOT_FOUND")}
        requests = [r.body for r in peer.received("AlterUserScramCredentials")]
        alices = [[(u.mechanism, u.iterations, u.salt, u.salted_password) for u in r.upsertions if u.name == "alice"]
                  for r in requests[::2]]
        assert alices[0] == alices[1] == [(1, 4096, b"salt-of-alice",
                                           hashlib.pbkdf2_hmac("sha256", b"pencil", b"salt-of-alice", 4096))]
        assert [[(d.name, d.mechanism) for d in r.deletions] for r in requests] == [[("bob", 2)], [], [("bob", 2)], []]
        # A random salt of the same length as librdkafka's, and the salted password derived from it.
        carols = [u for r in requests for u in r.upsertions if u.name == "carol"]
        assert len({c.salt for c in carols}) == 2 and [len(c.salt) for c in carols] == [64, 64]
        for carol in carols:
            assert carol.salted_password == hashlib.pbkdf2_hmac("sha512", b"secret", carol.salt, 5000)


def test_alter_user_scram_credentials_argument_checks(ck, kc):
    with ScriptedPeer() as peer:
        def scenario(A, pkg, admin):
            info = A.ScramCredentialInfo(A.ScramMechanism.SCRAM_SHA_256, 4096)
            found = []
            for alterations in ([], "x", [A.UserScramCredentialUpsertion("a", info, "text")],
                                [A.UserScramCredentialUpsertion("a", info, b"p", b"")],
                                [A.UserScramCredentialUpsertion("a", A.ScramCredentialInfo(
                                    A.ScramMechanism.SCRAM_SHA_256, 0), b"p")],
                                [A.UserScramCredentialDeletion("", A.ScramMechanism.SCRAM_SHA_256)],
                                [A.UserScramCredentialDeletion("a", 1)]):
                try:
                    admin.alter_user_scram_credentials(alterations)
                    found.append("accepted")
                except Exception as exc:  # noqa: BLE001
                    found.append(type(exc).__name__)
            return found

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs


def _list_groups(request: Any) -> Dict[str, Any]:
    return {"throttle_time_ms": 0, "error_code": 0, "groups": [
        {"group_id": "g1", "protocol_type": "consumer", "group_state": "Stable", "group_type": "classic"},
        {"group_id": "g2", "protocol_type": "", "group_state": "Empty", "group_type": "classic"}]}


def _describe_groups(request: Any) -> Dict[str, Any]:
    assert request.body.include_authorized_operations is False
    out = []
    for group in request.body.groups:
        if group == "g1":
            out.append({"error_code": 0, "group_id": group, "group_state": "Stable", "protocol_type": "consumer",
                        "protocol_data": "range", "members": [
                            {"member_id": "m1", "client_id": "c1", "client_host": "/10.0.0.1",
                             "member_metadata": b"\x00\x01meta", "member_assignment": b"\x00\x01assigned"}]})
        else:
            out.append({"error_code": 16, "group_id": group, "group_state": "Dead", "protocol_type": "",
                        "protocol_data": "", "members": []})
    return {"throttle_time_ms": 0, "groups": out}


def test_list_groups_describes_each_listed_group(ck, kc):
    with ScriptedPeer() as peer:
        peer.on("ListGroups", _list_groups)
        peer.on("DescribeGroups", _describe_groups)

        def scenario(A, pkg, admin):
            out = []
            for args in ((), ("g1",), ("missing",)):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    groups = admin.list_groups(*args, timeout=10)
                # A garbage collection that happens to run in this window can finalize
                # something an earlier test in the same worker left open, and the
                # ResourceWarning it raises lands here too: only list_groups' own
                # warnings count.
                assert [w.category for w in caught if w.category is not ResourceWarning] == [DeprecationWarning]
                out.append(sorted((g.id, str(g.broker), g.error and g.error.name(), g.error and g.error.str(),
                                   g.state, g.protocol_type, g.protocol,
                                   [(m.id, m.client_id, m.client_host, m.metadata, m.assignment) for m in g.members])
                                  for g in groups))
            return out

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs
        assert [g[0] for g in ours[0]] == ["g1", "g2"] and ours[2] == []


def test_cluster_id(ck, kc):
    # The peer answers Metadata only, so it does not announce DescribeCluster.
    with ScriptedPeer(api_versions={"DescribeCluster": None}) as peer:
        theirs, ours = each_client(ck, kc, peer, lambda A, pkg, admin: admin.cluster_id(10))
        assert ours == theirs == "scripted"


@pytest.mark.parametrize("call", ["type", "partitions", "element", "negative"])
def test_elect_leaders_argument_checks(ck, kc, call):
    with ScriptedPeer() as peer:
        def scenario(A, pkg, admin):
            args = {"type": (0,), "partitions": (pkg.ElectionType.PREFERRED, pkg.TopicPartition("t", 0)),
                    "element": (pkg.ElectionType.PREFERRED, [("t", 0)]),
                    "negative": (pkg.ElectionType.PREFERRED, [pkg.TopicPartition("t", -1)])}[call]
            with pytest.raises((TypeError, ValueError)) as raised:
                admin.elect_leaders(*args)
            return raised.type.__name__

        theirs, ours = each_client(ck, kc, peer, scenario)
        assert ours == theirs
