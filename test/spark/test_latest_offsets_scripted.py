"""End offsets of a batch read on a broker whose ListOffsets answers short (a scripted peer).

Tansu, the embedded broker, answers ListOffsets ``LATEST`` with the first
offset of the partition's last batch rather than the log end; the driver
then asks Fetch for the high watermark. These tests play such a broker and
make that Fetch fail: the end offsets must come from the watermark once a
retry gets it, and the lookup must fail loudly when none comes, never end a
range at ListOffsets' offset (which drops the last batch without a word).
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from kafka import errors
from kafka.spark.offsets import OffsetReader
from kafka.spark.options import parse_source_options
from kafka.testing import ScriptedPeer
from test.support.topic_id_peer import resolve

LAST_BATCH_START = 67  # what the short ListOffsets answer says
LOG_END = 100  # the high watermark
NOT_LEADER = errors.NotLeaderForPartitionError.errno
NOT_AUTHORIZED = errors.TopicAuthorizationFailedError.errno


def _list_offsets_short(request: Any) -> Dict[str, Any]:
    return {"topics": [{"name": t.name, "partitions": [
        {"partition_index": p.partition_index, "error_code": 0, "timestamp": -1,
         "offset": LAST_BATCH_START, "leader_epoch": 0} for p in t.partitions]} for t in request.body.topics]}


def _watermark_fetch(peer: ScriptedPeer, failures: List[int], omit: bool = False, code: int = NOT_LEADER):
    """Fetch answers giving the high watermark; partition 1 fails (error ``code``, or left out of the
    answer with ``omit``) while ``failures[0]`` > 0, or always if it is < 0."""
    def answer(request: Any) -> Dict[str, Any]:
        responses = []
        for topic in request.body.topics:
            name, _ = resolve(peer, topic, "topic")
            parts = []
            for p in topic.partitions:
                failing = p.partition == 1 and failures[0] != 0
                if failing and failures[0] > 0:
                    failures[0] -= 1
                if failing and omit:
                    continue
                parts.append({"partition_index": p.partition, "error_code": code if failing else 0,
                              "high_watermark": -1 if failing else LOG_END, "last_stable_offset": -1,
                              "records": b""})
            responses.append({"topic": topic.topic, "topic_id": topic.topic_id, "partitions": parts})
        return {"error_code": 0, "session_id": 0, "responses": responses}
    return answer


def _latest(peer: ScriptedPeer) -> Dict[Any, int]:
    options = parse_source_options({"kafka.bootstrap.servers": peer.bootstrap, "subscribe": "t",
                                    "kafka.request.timeout.ms": "3000", "kafka.retry.backoff.ms": "10",
                                    "fetchOffset.retryIntervalMs": "1"}, streaming=False)
    with OffsetReader(options) as reader:
        return reader.latest(reader.partitions())


def test_a_watermark_fetch_that_fails_for_a_while_is_asked_again():
    # Four failures outlast the client's own retries of one lookup (three), so
    # the offset lookup's retries (fetchOffset.numRetries) are needed too.
    failures = [4]
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ListOffsets", _list_offsets_short)
        peer.on("Fetch", _watermark_fetch(peer, failures))
        assert _latest(peer) == {("t", 0): LOG_END, ("t", 1): LOG_END}
    assert failures == [0]


@pytest.mark.parametrize("omit", [False, True], ids=["error code", "partition left out"])
def test_no_watermark_at_all_fails_the_lookup_instead_of_ending_at_list_offsets_answer(omit):
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ListOffsets", _list_offsets_short)
        peer.on("Fetch", _watermark_fetch(peer, [-1], omit=omit))
        with pytest.raises(errors.KafkaError, match="t-1"):
            _latest(peer)
        # Asked again before giving up: at least once per lookup (the first and
        # fetchOffset.numRetries' three more).
        assert len(peer.received("Fetch")) >= 4


def test_an_error_that_asking_again_cannot_mend_fails_at_once():
    with ScriptedPeer(topics={"t": 2}) as peer:
        peer.on("ListOffsets", _list_offsets_short)
        peer.on("Fetch", _watermark_fetch(peer, [-1], code=NOT_AUTHORIZED))
        with pytest.raises(errors.KafkaError, match="t-1.*TopicAuthorizationFailed") as raised:
            _latest(peer)
        assert not raised.value.retriable
        assert len(peer.received("Fetch")) == 1
