"""The 0.9 low-level KafkaClient API, on the modern engine.

Against the embedded broker (Tansu, see test/conftest.py): the low-level
example of the 0.9 usage guide as written, and produce / fetch / offsets
/ metadata / offset commit round trips. Tansu's known quirks stay out of the
assertions: its "latest offset" is only right when every batch holds one
record, it drops offset-commit metadata, and it answers a fetch past the end
of the log with no error and no data.

Against librdkafka's 3-broker mock cluster: routing to each partition's
leader, recovery from injected leader errors and leader moves, failed
payloads when a leader's broker stays down, and exact offsets.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from kafka import errors
from kafka.client import KafkaClient
from kafka.simple.common import (
    ConsumerMetadataResponse,
    FailedPayloadsError,
    FetchRequest,
    KafkaUnavailableError,
    LeaderNotAvailableError,
    MetadataResponse,
    NotLeaderForPartitionError,
    OffsetCommitRequest,
    OffsetFetchRequest,
    OffsetOutOfRangeError,
    OffsetRequest,
    PartitionMetadata,
    ProduceRequest,
    ProduceResponse,
    TopicAndPartition,
    UnknownTopicOrPartitionError,
)
from kafka.conn.blocking import BlockingConnection
from kafka.direct import create_topic
from kafka.protocol import CODEC_GZIP, create_message, create_message_set
from kafka.testing import free_port

NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE = 6, 5


def _new_topic(broker, partitions=3, name=None):
    name = name or "simple-" + uuid.uuid4().hex[:10]
    with BlockingConnection(broker.host, broker.port) as conn:
        create_topic(conn, name, partitions=partitions)
    return name


def _values(fetch_response, from_offset=0):
    return [m.message.value for m in fetch_response.messages if m.offset >= from_offset]


@pytest.fixture
def client(broker):
    c = KafkaClient(broker.bootstrap_servers, timeout=10)
    yield c
    c.close()


# -- the usage guide's example ------------------------------------------------------------


def test_low_level_example_runs_as_written(fresh_broker):
    _new_topic(fresh_broker, partitions=2, name="my-topic")
    address = fresh_broker.bootstrap_servers

    # The "Low level" section of the 0.9 usage guide, with the broker's address.
    from kafka import KafkaClient, create_message
    from kafka.protocol import KafkaProtocol  # noqa: F401  (imported by the example)
    from kafka.simple.common import ProduceRequest

    kafka = KafkaClient(address)

    req = ProduceRequest(topic=b'my-topic', partition=1,
        messages=[create_message(b'some message')])
    resps = kafka.send_produce_request(payloads=[req], fail_on_error=True)
    kafka.close()

    assert resps[0].topic == b'my-topic'
    assert resps[0].partition == 1
    assert resps[0].error == 0
    assert resps[0].offset == 0  # the first message of an empty partition

    # And the message is there.
    kafka = KafkaClient(address)
    try:
        # Tansu now and then answers a fetch that waited for min_bytes with no
        # records although the high watermark is past them; a consumer just
        # fetches again, and so does this check.
        for _ in range(10):
            [fetched] = kafka.send_fetch_request([FetchRequest(b'my-topic', 1, 0, 65536)], min_bytes=1)
            assert fetched.topic == b'my-topic' and fetched.error == 0 and fetched.highwaterMark == 1
            values = _values(fetched)
            if values:
                break
        assert values == [b'some message']
    finally:
        kafka.close()


# -- construction ---------------------------------------------------------------------------


def test_simple_constructor_form():
    c = KafkaClient("127.0.0.1:19092, localhost:19093,[::1]:19094")
    try:
        assert sorted(c.hosts) == [("127.0.0.1", 19092), ("::1", 19094), ("localhost", 19093)]
        assert c.client_id == "kafka-python" == KafkaClient.CLIENT_ID
        assert c.timeout == 120 and c.config["request_timeout_ms"] == 120000
        assert c.correlation_id == 0
    finally:
        c.close()
    c = KafkaClient(["127.0.0.1:19092"], b"my-app", 2.5, 7)
    try:
        assert c.hosts == [("127.0.0.1", 19092)]
        assert c.client_id == "my-app"
        assert c.timeout == 2.5 and c.config["request_timeout_ms"] == 2500
        assert c.config["socket_connection_setup_timeout_ms"] == 2500
        assert c.correlation_id == 7
    finally:
        c.close()
    c = KafkaClient("127.0.0.1:19092", timeout=None)
    try:
        assert c.timeout is None
    finally:
        c.close()


def test_modern_constructor_form_and_mixing():
    c = KafkaClient(bootstrap_servers="127.0.0.1:19092", request_timeout_ms=7000, client_id="modern")
    try:
        assert c.timeout == 7.0 and c.client_id == "modern" and c.hosts == [("127.0.0.1", 19092)]
    finally:
        c.close()
    # Simple hosts plus modern settings.
    c = KafkaClient("127.0.0.1:19092", retry_backoff_ms=5)
    try:
        assert c.config["retry_backoff_ms"] == 5 and c.timeout == 120
    finally:
        c.close()
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient("127.0.0.1:19092", bootstrap_servers="127.0.0.1:19093")
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient("127.0.0.1:19092", timeout=5, request_timeout_ms=5000)
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient("127.0.0.1:19092", no_such_option=1)
    with pytest.raises(errors.KafkaConfigurationError):
        KafkaClient(" , ")


def test_hosts_are_shuffled_like_collect_hosts():
    hosts = ["127.0.0.1:%d" % port for port in range(20000, 20008)]
    orders = set()
    for _ in range(20):
        c = KafkaClient(hosts)
        orders.add(tuple(c.hosts))
        assert sorted(c.config["bootstrap_servers"]) == sorted(hosts)
        c.close()
    assert len(orders) > 1


# -- round trips on the embedded broker --------------------------------------------------


def test_produce_fetch_offsets_and_metadata_round_trip(broker, client):
    topic = _new_topic(broker, partitions=3)
    btopic = topic.encode()
    # One message per request (Tansu's latest offset is right for single-record batches).
    for round_ in range(3):
        payloads = [ProduceRequest(btopic if p % 2 else topic, p, [create_message(b"r%d-p%d" % (round_, p))])
                    for p in (2, 0, 1)]
        resps = client.send_produce_request(payloads)
        assert [(r.topic, r.partition, r.error, r.offset) for r in resps] == [
            (topic, 2, 0, round_), (topic, 0, 0, round_), (btopic, 1, 0, round_)]
        assert all(isinstance(r, ProduceResponse) for r in resps)

    fetched = client.send_fetch_request([FetchRequest(btopic, 1, 0, 1 << 20), FetchRequest(topic, 0, 1, 1 << 20)],
                                        max_wait_time=500, min_bytes=1)
    assert [(f.topic, f.partition, f.error, f.highwaterMark) for f in fetched] == [(btopic, 1, 0, 3), (topic, 0, 0, 3)]
    assert _values(fetched[0]) == [b"r0-p1", b"r1-p1", b"r2-p1"]
    assert _values(fetched[1], from_offset=1) == [b"r1-p0", b"r2-p0"]
    assert [m.offset for m in fetched[0].messages] == [0, 1, 2]

    offsets = client.send_offset_request([OffsetRequest(btopic, 2, -1, 1), OffsetRequest(topic, 2, -2, 1)])
    assert [(o.topic, o.partition, o.error, o.offsets) for o in offsets] == [(btopic, 2, 0, (3,)), (topic, 2, 0, (0,))]

    metadata = client.send_metadata_request([btopic])
    assert isinstance(metadata, MetadataResponse)
    assert [(b.host, b.port) for b in metadata.brokers] == [(broker.host, broker.port)]
    [topic_metadata] = metadata.topics
    assert topic_metadata.topic == btopic and topic_metadata.error == 0
    assert sorted(p.partition for p in topic_metadata.partitions) == [0, 1, 2]
    assert all(isinstance(p, PartitionMetadata) and p.leader == metadata.brokers[0].nodeId and p.error == 0
               for p in topic_metadata.partitions)
    everything = client.send_metadata_request()
    assert topic in [t.topic for t in everything.topics]


def test_compressed_and_keyed_messages(broker, client):
    topic = _new_topic(broker, partitions=1)
    gzipped = create_message_set([(b"v1", b"k1"), (b"v2", b"k2")], codec=CODEC_GZIP)
    [resp] = client.send_produce_request([ProduceRequest(topic, 0, gzipped)])
    assert resp.error == 0 and resp.offset == 0
    [resp] = client.send_produce_request([ProduceRequest(topic, 0, [create_message(b"v3", b"k3")])])
    assert resp.offset == 2
    [fetched] = client.send_fetch_request([FetchRequest(topic, 0, 0, 1 << 20)], max_wait_time=500, min_bytes=1)
    assert [(m.offset, m.message.key, m.message.value) for m in fetched.messages] == [
        (0, b"k1", b"v1"), (1, b"k2", b"v2"), (2, b"k3", b"v3")]


def test_callback_maps_each_response(broker, client):
    topic = _new_topic(broker, partitions=2)
    seen = []

    def callback(resp):
        seen.append(resp)
        return (resp.partition, resp.offset)

    out = client.send_produce_request([ProduceRequest(topic, 1, [create_message(b"a")]),
                                       ProduceRequest(topic, 0, [create_message(b"b")])], callback=callback)
    assert out == [(1, 0), (0, 0)]
    assert [r.partition for r in seen] == [1, 0]
    values = client.send_fetch_request([FetchRequest(topic, 0, 0, 65536)], callback=_values,
                                       max_wait_time=500, min_bytes=1)
    assert values == [[b"b"]]
    assert client.send_offset_request([OffsetRequest(topic, 1, -1, 1)], callback=lambda r: r.offsets[0]) == [1]
    assert client.send_metadata_request([topic], callback=lambda m: len(m.topics)) == 1


def test_fail_on_error_raises_or_returns_errors_in_place(broker, client):
    topic = _new_topic(broker, partitions=1)
    good = ProduceRequest(topic.encode(), 0, [create_message(b"ok")])
    bad = ProduceRequest(topic.encode(), 5, [create_message(b"no such partition")])
    started = time.monotonic()
    with pytest.raises(UnknownTopicOrPartitionError) as info:
        client.send_produce_request([good, bad])
    assert time.monotonic() - started < 5  # a missing partition is not waited for
    error = info.value
    assert error.errno == 3 and error.message == "UNKNOWN_TOPIC_OR_PARTITION"
    assert error.args[0] == ProduceResponse(topic.encode(), 5, 3, -1)

    resps = client.send_produce_request([good, bad], fail_on_error=False)
    assert resps[0].error == 0 and resps[0].offset == 1  # the first call wrote the good one too
    assert resps[1] == ProduceResponse(topic.encode(), 5, 3, -1)
    # The callback sees error responses as well.
    assert client.send_fetch_request([FetchRequest(topic, 5, 0, 1024)], fail_on_error=False,
                                     callback=lambda r: r.error) == [3]
    offsets = client.send_offset_request([OffsetRequest(topic, 9, -1, 1)], fail_on_error=False)
    assert [(o.partition, o.error, o.offsets) for o in offsets] == [(9, 3, ())]


def test_acks_zero_returns_nothing_and_delivers(broker, client):
    topic = _new_topic(broker, partitions=1)
    assert client.send_produce_request([ProduceRequest(topic, 0, [create_message(b"fire")])], acks=0) == []
    assert client.send_produce_request([ProduceRequest(topic, 0, [create_message(b"and forget")])], acks=0,
                                       callback=lambda r: 1 / 0) == []
    deadline = time.monotonic() + 10
    values = []
    while time.monotonic() < deadline and len(values) < 2:
        [fetched] = client.send_fetch_request([FetchRequest(topic, 0, 0, 65536)], max_wait_time=200, min_bytes=1)
        values = _values(fetched)
    assert values == [b"fire", b"and forget"]


def test_offset_commit_and_fetch(broker, client):
    topic = _new_topic(broker, partitions=2)
    group = "simple-group-" + uuid.uuid4().hex[:8]
    coordinator = client.send_consumer_metadata_request(group.encode())
    assert isinstance(coordinator, ConsumerMetadataResponse)
    assert coordinator.error == 0 and (coordinator.host, coordinator.port) == (broker.host, broker.port)

    committed = client.send_offset_commit_request(group.encode(), [
        OffsetCommitRequest(topic.encode(), 1, 42, b"meta"), OffsetCommitRequest(topic, 0, 7, None)])
    assert [(c.topic, c.partition, c.error) for c in committed] == [(topic.encode(), 1, 0), (topic, 0, 0)]

    for method in (client.send_offset_fetch_request, client.send_offset_fetch_request_kafka):
        fetched = method(group, [OffsetFetchRequest(topic, 0), OffsetFetchRequest(topic.encode(), 1)])
        # (Tansu drops the metadata string, so it is not checked here.)
        assert [(f.topic, f.partition, f.offset, f.error) for f in fetched] == [
            (topic, 0, 7, 0), (topic.encode(), 1, 42, 0)]
    other_group = client.send_offset_fetch_request("never-committed-" + uuid.uuid4().hex[:8],
                                                   [OffsetFetchRequest(topic, 0)])
    assert [(f.offset, f.error) for f in other_group] == [(-1, 0)]
    assert client.send_offset_commit_request(group, [OffsetCommitRequest(topic, 0, 8, None)],
                                             callback=lambda r: r.error) == [0]


def test_metadata_views(broker, client):
    topic = _new_topic(broker, partitions=3)
    assert not client.has_metadata_for_topic(topic)
    assert client.get_partition_ids_for_topic(topic) == []
    client.load_metadata_for_topics(topic.encode())
    assert client.has_metadata_for_topic(topic) and client.has_metadata_for_topic(topic.encode())
    assert client.get_partition_ids_for_topic(topic.encode()) == [0, 1, 2]
    assert topic in client.topics
    assert sorted(client.topic_partitions[topic.encode()]) == [0, 1, 2]
    leader = client.topics_to_brokers[TopicAndPartition(topic.encode(), 2)]
    assert (leader.host, leader.port) == (broker.host, broker.port)
    assert leader.nodeId in client.brokers

    client.reset_topic_metadata(topic)
    assert not client.has_metadata_for_topic(topic) and topic not in client.topics
    client.load_metadata_for_topics(topic)
    assert client.get_partition_ids_for_topic(topic) == [0, 1, 2]

    client.reset_all_metadata()
    assert client.topics == [] and client.topics_to_brokers == {}
    client.load_metadata_for_topics()  # every topic
    assert topic in client.topics and client.has_metadata_for_topic(topic)


def test_ensure_topic_exists_and_sending_to_a_new_topic(broker, client):
    # Tansu creates topics a Metadata request names (as auto.create.topics.enable does).
    topic = "simple-auto-" + uuid.uuid4().hex[:10]
    client.ensure_topic_exists(topic.encode(), timeout=10)
    assert client.has_metadata_for_topic(topic)
    assert client.get_partition_ids_for_topic(topic)
    other = "simple-auto-" + uuid.uuid4().hex[:10]
    [resp] = client.send_produce_request([ProduceRequest(other, 0, [create_message(b"first")])])
    assert resp.error == 0 and resp.offset == 0


def test_copy_reinit_and_close(broker, client):
    topic = _new_topic(broker, partitions=1)
    assert client.send_produce_request([ProduceRequest(topic, 0, [create_message(b"one")])])[0].offset == 0
    twin = client.copy()
    try:
        assert twin is not client and twin.client_id == client.client_id and twin.timeout == client.timeout
        assert twin.in_flight_request_count() == 0 and not twin._conns or all(
            not twin.connected(n) for n in twin._conns)
        twin.reinit()
        results = []
        thread = threading.Thread(target=lambda: results.append(
            twin.send_produce_request([ProduceRequest(topic, 0, [create_message(b"two")])])[0].offset))
        thread.start()
        thread.join(30)
        assert results == [1]
    finally:
        twin.close()

    client.reinit()
    assert client.send_produce_request([ProduceRequest(topic, 0, [create_message(b"three")])])[0].offset == 2
    client.close()
    client.close()  # twice is fine
    # As in 0.9.x, a closed client reconnects when used again.
    [fetched] = client.send_fetch_request([FetchRequest(topic, 0, 0, 65536)], max_wait_time=500, min_bytes=1)
    assert _values(fetched) == [b"one", b"two", b"three"]


def test_no_broker_at_all():
    c = KafkaClient("127.0.0.1:%d" % free_port(), timeout=1)
    try:
        started = time.monotonic()
        with pytest.raises(KafkaUnavailableError):
            c.send_metadata_request([])
        with pytest.raises(KafkaUnavailableError):
            c.send_consumer_metadata_request("group")
        request = ProduceRequest("t", 0, [create_message(b"x")])
        with pytest.raises(FailedPayloadsError) as info:
            c.send_produce_request([request])
        assert info.value.payload is request
        [failure] = c.send_fetch_request([FetchRequest(b"t", 0, 0, 1024)], fail_on_error=False)
        assert isinstance(failure, FailedPayloadsError) and failure.payload == FetchRequest(b"t", 0, 0, 1024)
        assert time.monotonic() - started < 20
    finally:
        c.close()


# -- the 3-broker mock cluster ------------------------------------------------------------------


@pytest.fixture
def mock_client(mock_cluster):
    c = KafkaClient(mock_cluster.bootstrap_servers, timeout=3, reconnect_backoff_ms=20,
                    reconnect_backoff_max_ms=200, retry_backoff_ms=20)
    yield c
    c.close()


def test_payloads_go_to_their_leaders_in_one_request_each(mock_cluster, mock_client):
    mock_cluster.create_topic("spread", 6, 3)
    for p in range(6):
        mock_cluster.set_partition_leader("spread", p, 1 + p % 3)
    mock_client.load_metadata_for_topics("spread")
    mock_cluster.start_request_tracking()
    order = [5, 0, 3, 1, 4, 2]
    payloads = [ProduceRequest(b"spread" if p % 2 else "spread", p, [create_message(b"v%d" % p)]) for p in order]
    resps = mock_client.send_produce_request(payloads)
    assert [(r.topic, r.partition, r.error, r.offset) for r in resps] == [
        (payload.topic, payload.partition, 0, 0) for payload in payloads]
    # One Produce per leader: broker b leads partitions b-1 and b+2.
    assert sorted(broker for broker, _version in mock_cluster.requests("Produce")) == [1, 2, 3]
    leaders = mock_client.topics_to_brokers
    assert {p: leaders[TopicAndPartition("spread", p)].nodeId for p in range(6)} == {p: 1 + p % 3 for p in range(6)}

    mock_cluster.clear_requests()
    fetched = mock_client.send_fetch_request([FetchRequest("spread", p, 0, 65536) for p in order],
                                             max_wait_time=100, min_bytes=1)
    assert [(f.partition, _values(f)) for f in fetched] == [(p, [b"v%d" % p]) for p in order]
    assert sorted(broker for broker, _version in mock_cluster.requests("Fetch")) == [1, 2, 3]


@pytest.mark.parametrize("codes", [[NOT_LEADER_OR_FOLLOWER], [LEADER_NOT_AVAILABLE],
                                   [NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE]])
def test_injected_leader_errors_are_recovered(mock_cluster, mock_client, codes):
    mock_cluster.create_topic("flaky", 2, 3)
    mock_client.load_metadata_for_topics("flaky")
    mock_cluster.push_request_errors("Produce", *codes)
    mock_cluster.start_request_tracking()
    resps = mock_client.send_produce_request([ProduceRequest("flaky", 0, [create_message(b"x")])])
    assert [(r.error, r.offset) for r in resps] == [(0, 0)]
    assert len(mock_cluster.requests("Produce")) == len(codes) + 1
    # Without retries left, the error comes back as the 0.9 exception.
    mock_client.simple_retries = 0
    mock_cluster.push_request_errors("Produce", NOT_LEADER_OR_FOLLOWER)
    with pytest.raises(NotLeaderForPartitionError) as info:
        mock_client.send_produce_request([ProduceRequest(b"flaky", 1, [create_message(b"y")])])
    assert info.value.errno == NOT_LEADER_OR_FOLLOWER and info.value.args[0].topic == b"flaky"
    mock_cluster.push_request_errors("Produce", LEADER_NOT_AVAILABLE)
    [resp] = mock_client.send_produce_request([ProduceRequest("flaky", 1, [create_message(b"y")])],
                                              fail_on_error=False)
    assert resp.error == LEADER_NOT_AVAILABLE
    with pytest.raises(LeaderNotAvailableError):
        from kafka.simple.common import check_error
        check_error(resp)


def test_leader_move_is_followed(mock_cluster, mock_client):
    mock_cluster.create_topic("moving", 1, 3)
    mock_cluster.set_partition_leader("moving", 0, 1)
    assert mock_client.send_produce_request([ProduceRequest("moving", 0, [create_message(b"a")])])[0].offset == 0
    mock_cluster.set_partition_leader("moving", 0, 3)
    mock_cluster.start_request_tracking()
    [resp] = mock_client.send_produce_request([ProduceRequest("moving", 0, [create_message(b"b")])])
    assert (resp.error, resp.offset) == (0, 1)
    assert mock_cluster.requests("Produce")[-1][0] == 3
    assert mock_client.topics_to_brokers[TopicAndPartition("moving", 0)].nodeId == 3


def test_a_leader_that_stays_down_fails_its_payloads(mock_cluster, mock_client):
    mock_cluster.create_topic("down", 3, 3)
    for p in range(3):
        mock_cluster.set_partition_leader("down", p, 1 + p)
    payloads = [ProduceRequest("down", p, [create_message(b"p%d" % p)]) for p in range(3)]
    assert [r.error for r in mock_client.send_produce_request(payloads)] == [0, 0, 0]
    mock_cluster.broker_down(2)  # leads partition 1
    started = time.monotonic()
    resps = mock_client.send_produce_request(payloads, fail_on_error=False)
    assert time.monotonic() - started < 15
    assert [(r.partition, r.error, r.offset) for r in (resps[0], resps[2])] == [(0, 0, 1), (2, 0, 1)]
    failure = resps[1]
    assert isinstance(failure, FailedPayloadsError) and failure.payload is payloads[1]
    assert isinstance(failure.__cause__, (errors.KafkaConnectionError, errors.NodeNotReadyError,
                                          errors.KafkaTimeoutError))
    with pytest.raises(FailedPayloadsError) as info:
        mock_client.send_produce_request([payloads[2], payloads[1]])
    assert info.value.payload is payloads[1]
    assert "127.0.0.1" in str(info.value) or "node" in str(info.value)


def test_a_leader_that_comes_back_is_used_again(mock_cluster, mock_client):
    mock_cluster.create_topic("restart", 1, 3)
    mock_cluster.set_partition_leader("restart", 0, 1)
    assert mock_client.send_produce_request([ProduceRequest("restart", 0, [create_message(b"a")])])[0].offset == 0
    mock_client.simple_retries = 50  # enough retries (20 ms apart) to outlast the outage
    mock_cluster.broker_down(1)
    timer = threading.Timer(0.5, mock_cluster.broker_up, args=(1,))
    timer.start()
    try:
        [resp] = mock_client.send_produce_request([ProduceRequest("restart", 0, [create_message(b"b")])])
    finally:
        timer.join()
    assert (resp.error, resp.offset) == (0, 1)


def test_exact_offsets_commits_and_out_of_range_on_the_mock(mock_cluster, mock_client):
    mock_cluster.create_topic("exact", 2, 3)
    messages = [create_message(b"m%d" % i) for i in range(10)]
    resps = mock_client.send_produce_request([ProduceRequest("exact", 0, messages),
                                              ProduceRequest("exact", 1, messages[:4])])
    assert [r.offset for r in resps] == [0, 0]
    offsets = mock_client.send_offset_request([OffsetRequest("exact", 0, -1, 1), OffsetRequest("exact", 1, -1, 1),
                                               OffsetRequest("exact", 0, -2, 1)])
    assert [o.offsets for o in offsets] == [(10,), (4,), (0,)]

    with pytest.raises(OffsetOutOfRangeError):
        mock_client.send_fetch_request([FetchRequest("exact", 0, 1000, 65536)])
    [resp] = mock_client.send_fetch_request([FetchRequest("exact", 0, 1000, 65536)], fail_on_error=False)
    assert resp.error == OffsetOutOfRangeError.errno

    group = b"mock-group"
    assert mock_client.send_consumer_metadata_request([group]).error == 0
    committed = mock_client.send_offset_commit_request(group, [OffsetCommitRequest("exact", 0, 10, "done"),
                                                               OffsetCommitRequest(b"exact", 1, 3, None)])
    assert [c.error for c in committed] == [0, 0]
    fetched = mock_client.send_offset_fetch_request_kafka(group, [OffsetFetchRequest("exact", 1),
                                                                  OffsetFetchRequest("exact", 0)])
    assert [(f.partition, f.offset, f.metadata, f.error) for f in fetched] == [(1, 3, "", 0), (0, 10, "done", 0)] \
        or [(f.partition, f.offset, f.metadata, f.error) for f in fetched] == [(1, 3, None, 0), (0, 10, "done", 0)]
