"""The one Fetch request builder (kafka.client.fetch_request)."""

import uuid

from kafka.client.fetch_request import MAX_INT32, PartitionFetch, build_fetch_request
from kafka.enums import IsolationLevel
from kafka.protocol.apis import FETCH
from kafka.protocol.framing import encode_request


def test_groups_partitions_by_topic_in_first_seen_order():
    request = build_fetch_request(
        [PartitionFetch("b", 1, 10, 100), PartitionFetch("a", 0, 5, 50, leader_epoch=7),
         PartitionFetch("b", 0, 20, 200)],
        max_wait_ms=500, min_bytes=1)
    assert [t.topic for t in request.topics] == ["b", "a"]
    assert [(p.partition, p.fetch_offset, p.partition_max_bytes, p.current_leader_epoch)
            for p in request.topics[0].partitions] == [(1, 10, 100, -1), (0, 20, 200, -1)]
    assert request.topics[1].partitions[0].current_leader_epoch == 7


def test_defaults_ask_for_no_session_and_no_response_limit():
    request = build_fetch_request([PartitionFetch("t", 0, 0, 1)], max_wait_ms=100, min_bytes=4096)
    assert (request.replica_id, request.max_wait_ms, request.min_bytes, request.max_bytes) == (-1, 100, 4096, MAX_INT32)
    assert (request.session_id, request.session_epoch, request.forgotten_topics_data) == (0, -1, [])
    assert (request.isolation_level, request.rack_id) == (int(IsolationLevel.READ_UNCOMMITTED), "")


def test_request_wide_fields_and_topic_ids():
    tid = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")
    request = build_fetch_request(
        [PartitionFetch("known", 0, 0, 1), PartitionFetch("unknown", 0, 0, 1)], {"known": tid},
        max_wait_ms=10, min_bytes=1, max_bytes=1, isolation_level=int(IsolationLevel.READ_COMMITTED),
        rack_id="r1", session_id=3, session_epoch=4)
    assert [t.topic_id for t in request.topics] == [tid, None]
    assert (request.max_bytes, request.isolation_level, request.rack_id) == (1, 1, "r1")
    assert (request.session_id, request.session_epoch) == (3, 4)


def test_encodes_at_every_version():
    request = build_fetch_request([PartitionFetch("t", 0, 0, 1)], {"t": uuid.uuid4()}, max_wait_ms=1, min_bytes=1)
    for version in range(FETCH.min_version, FETCH.max_version + 1):
        assert encode_request(FETCH, version, 1, "c", request)
