"""KafkaClient against librdkafka's 3-broker mock cluster with fault injection."""

from __future__ import annotations

import threading
import time

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.protocol.apis import FETCH, OFFSET_COMMIT, PRODUCE
from kafka.record import MemoryRecordsBuilder
from kafka.structs import TopicPartition

from .test_client_broker import _build_produce, _parse_produce

NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT = 6, 5, 7
COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR = 15, 16


def _blob(value=b"v"):
    builder = MemoryRecordsBuilder()
    builder.append(0, None, None, value)
    return builder.build()


@pytest.fixture
def client(mock_cluster):
    c = KafkaClient(bootstrap_servers=mock_cluster.bootstrap_servers, reconnect_backoff_ms=20,
                    reconnect_backoff_max_ms=200, retry_backoff_ms=20, request_timeout_ms=5000)
    yield c
    c.close()


def _produce(client, tps, **kwargs):
    items = [(tp, _blob(b"%s-%d" % (tp.topic.encode(), tp.partition))) for tp in tps]
    return client.dispatch_by_leader(PRODUCE, items, _build_produce, _parse_produce, **kwargs)


def test_connects_despite_the_mock_refusing_api_versions_v3(mock_cluster, client):
    mock_cluster.create_topic("t", 1, 1)
    client.refresh_metadata(5000)
    node = client.least_loaded_node()
    assert client.await_ready(node, 5000)
    assert client._conns[node]._api_versions_version <= 2


def test_each_request_reaches_its_partitions_leader(mock_cluster, client):
    mock_cluster.create_topic("spread", 6, 3)
    for p in range(6):
        mock_cluster.set_partition_leader("spread", p, 1 + p % 3)
    mock_cluster.start_request_tracking()
    outcomes = _produce(client, [TopicPartition("spread", p) for p in range(6)], timeout_ms=10000)
    assert [o.error for o in outcomes] == [None] * 6
    produce_requests = mock_cluster.requests("Produce")
    # One request per leader, each carrying that leader's two partitions.
    assert sorted(broker for broker, _ in produce_requests) == [1, 2, 3]
    for p in range(6):
        assert client.cluster.leader_for_partition(TopicPartition("spread", p)) == 1 + p % 3


def test_results_come_back_in_the_callers_order(mock_cluster, client):
    mock_cluster.create_topic("order", 3, 3)
    for p in range(3):
        mock_cluster.set_partition_leader("order", p, 3 - p)
    tps = [TopicPartition("order", p) for p in (2, 0, 1, 0, 2)]
    outcomes = _produce(client, tps, timeout_ms=10000)
    assert [o.error for o in outcomes] == [None] * 5
    # Offsets per partition grow in caller order; the two writes to p0 and p2
    # went out in one request each, in that order.
    assert outcomes[1].value < outcomes[3].value and outcomes[0].value < outcomes[4].value


def test_leader_moved_mid_run(mock_cluster, client):
    mock_cluster.create_topic("moving", 1, 3)
    mock_cluster.set_partition_leader("moving", 0, 1)
    tp = TopicPartition("moving", 0)
    assert _produce(client, [tp], timeout_ms=10000)[0].error is None
    mock_cluster.start_request_tracking()
    mock_cluster.set_partition_leader("moving", 0, 2)
    outcome = _produce(client, [tp], timeout_ms=10000)[0]
    assert outcome.error is None and outcome.value == 1
    assert mock_cluster.requests("Produce")[-1][0] == 2
    assert client.cluster.leader_for_partition(tp) == 2


def test_broker_down_and_back_up(mock_cluster, client):
    mock_cluster.create_topic("restart", 1, 3)
    mock_cluster.set_partition_leader("restart", 0, 1)
    tp = TopicPartition("restart", 0)
    assert _produce(client, [tp], timeout_ms=10000)[0].error is None
    mock_cluster.broker_down(1)
    threading.Timer(1.0, mock_cluster.broker_up, args=(1,)).start()
    started = time.monotonic()
    outcome = _produce(client, [tp], timeout_ms=15000, retries=100)[0]
    assert outcome.error is None, outcome
    assert outcome.value == 1
    assert time.monotonic() - started < 10


def test_broker_down_for_longer_than_retries_allow_surfaces_a_connection_error(mock_cluster, client):
    mock_cluster.create_topic("down", 1, 3)
    mock_cluster.set_partition_leader("down", 0, 2)
    tp = TopicPartition("down", 0)
    assert _produce(client, [tp], timeout_ms=10000)[0].error is None
    mock_cluster.broker_down(2)
    started = time.monotonic()
    outcome = _produce(client, [tp], timeout_ms=3000, retries=2)[0]
    assert isinstance(outcome.error, (errors.KafkaConnectionError, errors.NodeNotReadyError))
    assert time.monotonic() - started < 8


@pytest.mark.parametrize("codes", [[NOT_LEADER_OR_FOLLOWER], [LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT],
                                   [NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT]])
def test_injected_retriable_produce_errors_are_recovered(mock_cluster, client, codes):
    mock_cluster.create_topic("flaky", 1, 3)
    tp = TopicPartition("flaky", 0)
    client.ensure_topics(["flaky"], 5000)
    mock_cluster.push_request_errors("Produce", *codes)
    outcome = _produce(client, [tp], timeout_ms=10000, retries=5)[0]
    assert outcome.error is None and outcome.value == 0


@pytest.mark.parametrize("codes,expected", [
    ([NOT_LEADER_OR_FOLLOWER] * 3, errors.NotLeaderForPartitionError),
    ([REQUEST_TIMED_OUT] * 3, errors.RequestTimedOutError),
    ([LEADER_NOT_AVAILABLE] * 3, errors.LeaderNotAvailableError),
])
def test_retriable_errors_beyond_the_retry_budget_surface_as_themselves(mock_cluster, client, codes, expected):
    mock_cluster.create_topic("flaky", 1, 3)
    client.ensure_topics(["flaky"], 5000)
    mock_cluster.push_request_errors("Produce", *codes)
    outcome = _produce(client, [TopicPartition("flaky", 0)], timeout_ms=10000, retries=2)[0]
    assert isinstance(outcome.error, expected)


def test_non_retriable_error_is_not_retried(mock_cluster, client):
    mock_cluster.create_topic("bad", 1, 3)
    client.ensure_topics(["bad"], 5000)
    mock_cluster.start_request_tracking()
    mock_cluster.push_request_errors("Produce", 10)  # MESSAGE_TOO_LARGE
    outcome = _produce(client, [TopicPartition("bad", 0)], timeout_ms=10000, retries=5)[0]
    assert isinstance(outcome.error, errors.MessageSizeTooLargeError)
    assert len(mock_cluster.requests("Produce")) == 1


def _commit(client, group, codes_pushed=(), **kwargs):
    def build(version):
        return OFFSET_COMMIT.Request(group_id=group, topics=[OFFSET_COMMIT.Request.OffsetCommitRequestTopic(
            name="c", partitions=[OFFSET_COMMIT.Request.OffsetCommitRequestTopic.OffsetCommitRequestPartition(
                partition_index=0, committed_offset=5, committed_metadata="")])])

    def error_code(response):
        return next((p.error_code for t in response.topics for p in t.partitions if p.error_code), 0)

    return client.send_to_coordinator(group, OFFSET_COMMIT, build, error_code, **kwargs)


@pytest.mark.parametrize("api,codes", [("OffsetCommit", [NOT_COORDINATOR]),
                                       ("OffsetCommit", [COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR]),
                                       ("FindCoordinator", [COORDINATOR_NOT_AVAILABLE])])
def test_coordinator_errors_are_recovered(mock_cluster, client, api, codes):
    mock_cluster.create_topic("c", 1, 3)
    mock_cluster.set_coordinator("group", "g1", 3)
    mock_cluster.push_request_errors(api, *codes)
    response = _commit(client, "g1", timeout_ms=10000)
    assert response.topics[0].partitions[0].error_code == 0
    assert client.cluster.coordinator_for_group("g1") == 3


def test_coordinator_errors_beyond_retries_surface(mock_cluster, client):
    mock_cluster.create_topic("c", 1, 3)
    mock_cluster.push_request_errors("OffsetCommit", *[NOT_COORDINATOR] * 4)
    with pytest.raises(errors.NotCoordinatorError):
        _commit(client, "g2", timeout_ms=10000, retries=2)


def test_a_broker_limited_to_old_versions_gets_old_versions(mock_cluster, client):
    mock_cluster.create_topic("old", 1, 3)
    mock_cluster.set_apiversion("Produce", 0, 3)
    mock_cluster.set_apiversion("Fetch", 0, 4)
    client.refresh_metadata(5000)
    tp = TopicPartition("old", 0)
    outcome = _produce(client, [tp], timeout_ms=10000)[0]
    assert outcome.error is None
    leader = client.leader_for(tp)
    assert client.api_version(PRODUCE, leader) == 3
    assert client.api_version(FETCH, leader) == 4


def test_a_broker_offering_only_removed_versions_is_refused_clearly(mock_cluster, client):
    mock_cluster.create_topic("ancient", 1, 3)
    mock_cluster.set_apiversion("Produce", 0, 2)
    outcome = _produce(client, [TopicPartition("ancient", 0)], timeout_ms=5000)[0]
    assert isinstance(outcome.error, errors.UnsupportedVersionError)
    assert "v0-2" in str(outcome.error)


def test_controller_and_transaction_coordinator_routing(mock_cluster, client):
    from kafka.cluster import COORDINATOR_TRANSACTION
    from kafka.protocol.apis import INIT_PRODUCER_ID

    # The mock reports controller id 0 (not one of its brokers): what is
    # checked here is that the client takes it from Metadata.
    controller = client.controller(timeout_ms=5000)
    assert controller == client.cluster.controller and controller >= 0
    mock_cluster.set_coordinator("transaction", "txn-1", 2)
    assert client.find_coordinator("txn-1", COORDINATOR_TRANSACTION, timeout_ms=5000) == 2
    mock_cluster.start_request_tracking()
    response = client.send_to_coordinator(
        "txn-1", INIT_PRODUCER_ID,
        lambda version: INIT_PRODUCER_ID.Request(transactional_id="txn-1", transaction_timeout_ms=10000),
        lambda r: r.error_code, key_type=COORDINATOR_TRANSACTION, timeout_ms=5000)
    assert response.producer_id >= 0
    assert [b for b, _ in mock_cluster.requests("InitProducerId")] == [2]
