"""KafkaError, KafkaException, TopicPartition, Message and the constants, compared with confluent_kafka."""

from __future__ import annotations

import pytest

CONSTANTS = ["OFFSET_BEGINNING", "OFFSET_END", "OFFSET_STORED", "OFFSET_INVALID", "TIMESTAMP_NOT_AVAILABLE",
             "TIMESTAMP_CREATE_TIME", "TIMESTAMP_LOG_APPEND_TIME"]


def test_module_constants(ck, kc):
    assert [getattr(kc, n) for n in CONSTANTS] == [getattr(ck, n) for n in CONSTANTS]


def test_every_error_code_constant_has_confluent_kafka_name_and_value(ck, kc):
    theirs = {n: getattr(ck.KafkaError, n) for n in dir(ck.KafkaError)
              if n.isupper() or (n.startswith("_") and not n.startswith("__") and n[1:2].isupper())}
    ours = {n: getattr(kc.KafkaError, n) for n in theirs if hasattr(kc.KafkaError, n)}
    assert ours == theirs
    for name in ("_PARTITION_EOF", "_MSG_TIMED_OUT", "_TIMED_OUT", "_TRANSPORT", "_ALL_BROKERS_DOWN",
                 "_UNKNOWN_TOPIC", "_UNKNOWN_PARTITION", "_AUTHENTICATION", "_INVALID_ARG", "_STATE", "_FATAL",
                 "_PURGE_QUEUE", "_PURGE_INFLIGHT", "_NO_OFFSET", "_ASSIGN_PARTITIONS", "_REVOKE_PARTITIONS",
                 "UNKNOWN_TOPIC_OR_PART"):
        assert name in ours


@pytest.mark.parametrize("code", [-191, -192, -186, -185, 3, 6, 15, 87, 99999])
def test_kafka_error_accessors(ck, kc, code):
    for kwargs in ({}, {"reason": "why"}, {"reason": "x", "fatal": True, "retriable": True,
                                           "txn_requires_abort": True}):
        ours, theirs = kc.KafkaError(code, **kwargs), ck.KafkaError(code, **kwargs)
        assert (ours.code(), ours.name(), ours.str(), ours.fatal(), ours.retriable(), ours.txn_requires_abort(),
                repr(ours), str(ours)) == \
            (theirs.code(), theirs.name(), theirs.str(), theirs.fatal(), theirs.retriable(),
             theirs.txn_requires_abort(), repr(theirs), str(theirs))
        assert ours == code and ours == kc.KafkaError(code) and hash(ours) == hash(theirs)


def test_kafka_exception(ck, kc):
    for lib in (ck, kc):
        exc = lib.KafkaException(lib.KafkaError(lib.KafkaError._STATE))
        assert exc.args[0].code() == -172
        assert isinstance(exc, Exception)
    assert str(kc.KafkaException(kc.KafkaError(3))) == str(ck.KafkaException(ck.KafkaError(3)))


def test_topic_partition(ck, kc):
    for args in (("t",), ("t", 1), ("t", 1, 5), ("t", 0, -2, "md", 3), ("t", 2, -1001, "", 0)):
        ours, theirs = kc.TopicPartition(*args), ck.TopicPartition(*args)
        assert (ours.topic, ours.partition, ours.offset, ours.metadata, ours.leader_epoch, ours.error, repr(ours),
                str(ours)) == (theirs.topic, theirs.partition, theirs.offset, theirs.metadata, theirs.leader_epoch,
                               theirs.error, repr(theirs), str(theirs))
    for lib in (ck, kc):
        tp = lib.TopicPartition
        assert tp("t", 1, 5) == tp("t", 1, 7) and hash(tp("t", 1, 5)) == hash(tp("t", 1, 9))
        assert tp("t", 1) != tp("t", 2)
        assert sorted([tp("b", 0), tp("a", 2), tp("a", 1)]) == [tp("a", 1), tp("a", 2), tp("b", 0)]
        assert len({tp("t", 1, 1), tp("t", 1, 2)}) == 1
        with pytest.raises(TypeError):
            tp(5)
        mutable = tp("t", 0)
        mutable.offset = 9
        assert mutable.offset == 9


def test_message(ck, kc):
    kwargs = dict(topic="t", partition=1, offset=5, key=b"k", value=b"value", headers=[("a", b"1")],
                  timestamp=(1, 123), latency=0.5, leader_epoch=3)
    ours, theirs = kc.Message(**kwargs), ck.Message(**kwargs)

    def fields(m):
        return (m.topic(), m.partition(), m.offset(), m.key(), m.value(), m.headers(), m.error(), m.timestamp(),
                m.latency(), m.leader_epoch(), len(m))

    assert fields(ours) == fields(theirs)
    for m in (ours, theirs):
        m.set_value(b"xyz")
        m.set_key("s")
        m.set_headers({"a": "b"})
        m.set_topic("u")
    assert fields(ours) == fields(theirs)
    empty_ours, empty_theirs = kc.Message(), ck.Message()
    assert fields(empty_ours) == fields(empty_theirs)
    with pytest.raises(TypeError):
        hash(ours)


def test_message_comparisons_and_protocols(ck, kc):
    def behaviour(lib):
        a, same, other = lib.Message(value=b"v"), lib.Message(value=b"v"), lib.Message(value=b"w")
        observed = [a == same, a != same, a == other, a == b"v", bool(a), bool(lib.Message()), len(a)]
        for attempt in (lambda: a < same, lambda: list(a), lambda: hash(a)):
            try:
                attempt()
                observed.append("ok")
            except TypeError:
                observed.append("TypeError")
        return observed

    assert behaviour(kc) == behaviour(ck)


def test_versions(ck, kc):
    assert kc.version() == ck.version()
    assert kc.libversion() == ck.libversion()
