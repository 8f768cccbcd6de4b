"""The one ListOffsets builder and reader (kafka.protocol.list_offsets) at the versions that differ."""

from kafka.protocol.apis import LIST_OFFSETS
from kafka.protocol.list_offsets import ListedOffset, OffsetQuery, list_offsets_request, listed_offsets

R = LIST_OFFSETS.Response
T = R.ListOffsetsTopicResponse
P = T.ListOffsetsPartitionResponse


def test_request_groups_queries_by_topic_in_first_seen_order() -> None:
    request = list_offsets_request([OffsetQuery("b", 1, -1, 7), OffsetQuery("a", 0, -2), OffsetQuery("b", 0, 5)],
                                   isolation_level=1, timeout_ms=900)
    assert [t.name for t in request.topics] == ["b", "a"]
    assert [(p.partition_index, p.timestamp, p.current_leader_epoch) for p in request.topics[0].partitions] == \
        [(1, -1, 7), (0, 5, -1)]
    assert (request.isolation_level, request.timeout_ms, request.replica_id) == (1, 900, -1)
    for version in (2, 4, 10, 11):  # isolation_level exists from v2
        assert LIST_OFFSETS.decode_request(LIST_OFFSETS.encode_request(request, version), version).topics


def test_reader_takes_v0_lists_and_later_single_offsets() -> None:
    v0 = R(topics=[T(name="t", partitions=[P(partition_index=0, error_code=0, old_style_offsets=[5, 3])])])
    assert listed_offsets(LIST_OFFSETS.decode_response(LIST_OFFSETS.encode_response(v0, 0), 0)) == {
        ("t", 0): ListedOffset(0, 5, -1, -1, (5, 3))}
    v4 = R(topics=[T(name="t", partitions=[P(partition_index=2, error_code=0, timestamp=7, offset=9,
                                             leader_epoch=3)])])
    assert listed_offsets(LIST_OFFSETS.decode_response(LIST_OFFSETS.encode_response(v4, 4), 4)) == {
        ("t", 2): ListedOffset(0, 9, 7, 3, ())}
