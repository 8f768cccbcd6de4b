"""kafka.confluent over a batch the broker refuses as too large: the engine splits it; reports carry each offset.

Here kafkawire differs from librdkafka on purpose: librdkafka fails every
record of such a batch with MSG_SIZE_TOO_LARGE, the engine sends it again
as halves (as the Java client does; see test/producer/test_batch_split.py),
so the records are delivered and each report carries the offset its half
got. The refusal is injected into the librdkafka mock cluster, which does
not enforce ``max.message.bytes`` itself.
"""

from __future__ import annotations

MESSAGE_TOO_LARGE = 10


def test_reports_of_a_split_batch_carry_each_record_s_offset(mock_cluster, kc):
    mock_cluster.create_topic("split-reports", 1, 1)
    producer = kc.Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 60_000,
                            "enable.idempotence": False, "acks": 1, "max.in.flight": 1})
    producer.produce("split-reports", b"warm-up", partition=0)
    assert producer.flush(30) == 0
    mock_cluster.push_request_errors("Produce", MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE)
    reports = []
    for i in range(12):
        producer.produce("split-reports", b"r%d" % i, partition=0,
                         on_delivery=lambda err, msg: reports.append((err, msg.offset(), msg.value())))
    assert producer.flush(30) == 0
    assert sorted(reports, key=lambda r: r[1]) == [(None, 1 + i, b"r%d" % i) for i in range(12)]
