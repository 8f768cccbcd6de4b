"""Transactional producing against a scripted peer: answers no test broker gives.

The peer plays transaction and group coordinator. Every request the producer
sends is recorded, so these tests check what went on the wire, and a handler
can refuse the consumer offsets as a broker does when the group rebalanced.
"""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

from kafka import errors
from kafka.consumer.group.common import GroupMetadata
from kafka.producer import KafkaProducer
from kafka.structs import OffsetAndMetadata, TopicPartition
from kafka.testing import ScriptedPeer

PRODUCER_ID = 4711


def _offset_commit_answer(error_code: int):
    def answer(request: Any) -> Dict[str, Any]:
        return {"topics": [{"name": t.name, "partitions": [{"partition_index": p.partition_index,
                                                              "error_code": error_code} for p in t.partitions]}
                           for t in request.body.topics]}
    return answer


@pytest.fixture
def peer():
    peer = ScriptedPeer(topics={"out": 1})
    peer.on("InitProducerId", lambda r: {"error_code": 0, "producer_id": PRODUCER_ID, "producer_epoch": 3})
    peer.on("AddOffsetsToTxn", lambda r: {"error_code": 0})
    peer.on("EndTxn", lambda r: {"error_code": 0})
    peer.on("TxnOffsetCommit", _offset_commit_answer(0))
    yield peer
    peer.close()
    assert peer.errors == []


@pytest.fixture
def producer(peer):
    producer = KafkaProducer(bootstrap_servers=peer.bootstrap, transactional_id="txn-scripted",
                             request_timeout_ms=3000, max_block_ms=5000)
    yield producer
    producer.close(timeout=5)


def _committed(request: Any) -> List[Any]:
    return sorted((t.name, p.partition_index, p.committed_offset, p.committed_leader_epoch, p.committed_metadata)
                  for t in request.body.topics for p in t.partitions)


def test_send_offsets_commits_the_given_offsets_for_the_group(peer, producer):
    producer.init_transactions()
    producer.begin_transaction()
    group = GroupMetadata("the-group", generation_id=12, member_id="member-a", group_instance_id="static-1")
    offsets = {TopicPartition("in", 0): 42, TopicPartition("in", 3): OffsetAndMetadata(7, "meta", 5),
               TopicPartition("other", 1): 100}
    producer.send_offsets_to_transaction(offsets, group)
    producer.commit_transaction()

    add, = peer.received("AddOffsetsToTxn")
    assert (add.body.transactional_id, add.body.group_id) == ("txn-scripted", "the-group")
    assert (add.body.producer_id, add.body.producer_epoch) == (PRODUCER_ID, 3)
    commit, = peer.received("TxnOffsetCommit")
    body = commit.body
    assert (body.transactional_id, body.group_id, body.producer_id, body.producer_epoch) == \
        ("txn-scripted", "the-group", PRODUCER_ID, 3)
    if commit.version >= 3:
        assert (body.generation_id, body.member_id, body.group_instance_id) == (12, "member-a", "static-1")
    leader_epoch = 5 if commit.version >= 2 else -1
    assert _committed(commit) == [("in", 0, 42, -1, ""), ("in", 3, 7, leader_epoch, "meta"),
                                  ("other", 1, 100, -1, "")]
    end, = peer.received("EndTxn")
    assert end.body.committed is True


def test_a_rebalance_refusing_the_offsets_aborts_the_transaction_without_fencing(peer, producer):
    producer.init_transactions()
    producer.begin_transaction()
    peer.on("TxnOffsetCommit", _offset_commit_answer(errors.IllegalGenerationError.errno))
    with pytest.raises(errors.IllegalGenerationError):
        producer.send_offsets_to_transaction({TopicPartition("in", 0): 1}, GroupMetadata("g", 4, "m"))
    # The transaction is doomed, not the producer: abort, then carry on.
    with pytest.raises(errors.KafkaError) as failed:
        producer.commit_transaction()
    assert not isinstance(failed.value, errors.ProducerFencedError)
    producer.abort_transaction()
    assert peer.received("EndTxn")[-1].body.committed is False
    peer.on("TxnOffsetCommit", _offset_commit_answer(0))
    producer.begin_transaction()
    producer.send_offsets_to_transaction({TopicPartition("in", 0): 2}, GroupMetadata("g", 5, "m"))
    producer.commit_transaction()
    assert peer.received("EndTxn")[-1].body.committed is True


@pytest.mark.parametrize("error", [errors.InvalidTxnStateError, errors.IllegalGenerationError])
def test_codes_next_to_the_fencing_ones_are_abortable(peer, producer, error):
    """48 and 22 sit next to 47/49 and 90: they must not read as fenced."""
    peer.on("AddOffsetsToTxn", lambda r: {"error_code": error.errno})
    producer.init_transactions()
    producer.begin_transaction()
    with pytest.raises(error):
        producer.send_offsets_to_transaction({TopicPartition("in", 0): 1}, "g")
    producer.abort_transaction()
    producer.begin_transaction()


@pytest.mark.parametrize("error", [errors.InvalidProducerEpochError, errors.ProducerFencedError])
def test_fencing_codes_make_the_producer_fatal(peer, producer, error):
    peer.on("AddOffsetsToTxn", lambda r: {"error_code": error.errno})
    producer.init_transactions()
    producer.begin_transaction()
    with pytest.raises(errors.ProducerFencedError):
        producer.send_offsets_to_transaction({TopicPartition("in", 0): 1}, "g")
    with pytest.raises(errors.IllegalStateError):
        producer.abort_transaction()


@pytest.mark.parametrize("api", ["InitProducerId", "AddOffsetsToTxn"])
def test_an_unauthorized_transactional_id_makes_the_producer_fatal(peer, producer, api):
    peer.on(api, lambda r: {"error_code": errors.TransactionalIdAuthorizationFailedError.errno})
    if api == "InitProducerId":
        with pytest.raises(errors.TransactionalIdAuthorizationFailedError):
            producer.init_transactions()
    else:
        producer.init_transactions()
        producer.begin_transaction()
        with pytest.raises(errors.TransactionalIdAuthorizationFailedError):
            producer.send_offsets_to_transaction({TopicPartition("in", 0): 1}, "g")
    assert isinstance(producer.fatal_error(), errors.TransactionalIdAuthorizationFailedError)
    for call in (producer.abort_transaction, producer.begin_transaction, producer.init_transactions):
        with pytest.raises(errors.IllegalStateError, match="fatal"):
            call()
