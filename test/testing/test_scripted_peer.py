"""The scripted peer answers with what a test scripts, over real sockets."""

from __future__ import annotations

import socket

import pytest

from kafka.protocol import apis
from kafka.protocol.framing import ClientFramer
from kafka.testing import CLOSE, ScriptedPeer


def _exchange(peer: ScriptedPeer, api_name: str, version: int, request, read_reply: bool = True):
    framer = ClientFramer(client_id="t")
    api = apis.by_name(api_name)
    with socket.create_connection(("127.0.0.1", peer.port), timeout=5) as sock:
        _cid, frame = framer.send_request(api, version, request)
        sock.sendall(frame)
        if not read_reply:
            return sock.recv(10)
        responses = []
        while not responses:
            data = sock.recv(65536)
            assert data, "peer closed the connection"
            responses = framer.receive_data(data)
        return responses[0].body


def test_default_metadata_names_the_peer_as_leader_of_every_partition():
    with ScriptedPeer(topics={"a": 2}) as peer:
        body = _exchange(peer, "Metadata", 12, {"topics": None})
        assert [(b.node_id, b.port) for b in body.brokers] == [(0, peer.port)]
        [topic] = body.topics
        assert topic.name == "a" and topic.topic_id == peer.topic_id("a")
        assert [(p.partition_index, p.leader_id) for p in topic.partitions] == [(0, 0), (1, 0)]
        assert [r.api.name for r in peer.requests] == ["Metadata"]


def test_api_versions_can_be_narrowed_or_removed():
    with ScriptedPeer(api_versions={"Produce": (3, 9), "Fetch": None}) as peer:
        body = _exchange(peer, "ApiVersions", 3, {"client_software_name": "t", "client_software_version": "1"})
        ranges = {k.api_key: (k.min_version, k.max_version) for k in body.api_keys}
        assert ranges[apis.by_name("Produce").key] == (3, 9)
        assert apis.by_name("Fetch").key not in ranges


def test_a_handler_sees_the_decoded_request_and_can_close_the_connection():
    with ScriptedPeer() as peer:
        peer.on("FindCoordinator", lambda req: CLOSE)
        assert _exchange(peer, "FindCoordinator", 1, {"key": "g", "key_type": 0}, read_reply=False) == b""
        [request] = peer.wait_for("FindCoordinator")
        assert request.body.key == "g" and request.client_id == "t"


def test_a_request_with_no_handler_is_reported():
    with ScriptedPeer() as peer:
        # the peer closes the connection once the handler is found missing, after recording why
        assert _exchange(peer, "ListGroups", 1, {}, read_reply=False) == b""
        assert "no handler for ListGroups" in str(peer.errors[0])
        peer.errors.clear()


def test_find_coordinator_names_the_peer_for_every_key():
    with ScriptedPeer(node_id=3) as peer:
        old = _exchange(peer, "FindCoordinator", 1, {"key": "g", "key_type": 0})
        assert (old.error_code, old.node_id, old.port) == (0, 3, peer.port)
        new = _exchange(peer, "FindCoordinator", 4, {"key_type": 1, "coordinator_keys": ["a", "b"]})
        assert [(c.key, c.node_id, c.port, c.error_code) for c in new.coordinators] == [
            ("a", 3, peer.port, 0), ("b", 3, peer.port, 0)]


def test_leaving_the_block_fails_when_a_handler_raised():
    def broken(request):
        raise ValueError("bug in the test's handler")

    with pytest.raises(AssertionError, match="bug in the test's handler"):
        with ScriptedPeer() as peer:
            peer.on("FindCoordinator", broken)
            _exchange(peer, "FindCoordinator", 1, {"key": "g", "key_type": 0}, read_reply=False)
