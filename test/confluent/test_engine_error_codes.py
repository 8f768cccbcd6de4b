"""Which librdkafka code an engine exception is reported as (kafka.confluent.kafka_error.from_engine)."""

from __future__ import annotations

from kafka import errors as engine_errors
from kafka.confluent import KafkaError
from kafka.confluent.kafka_error import from_engine


def test_records_the_client_cannot_decode_are_a_bad_message():
    # kafka-python gives CorruptRecordError errno 2, the broker's CORRUPT_MESSAGE; a batch that fails
    # its checksum in this client is librdkafka's local _BAD_MSG all the same.
    for exc in (engine_errors.ChecksumError("crc mismatch"), engine_errors.CorruptRecordError("truncated")):
        assert from_engine(exc).code() == KafkaError._BAD_MSG


def test_the_brokers_corrupt_message_keeps_its_code():
    assert from_engine(engine_errors.CorruptMessageError()).code() == KafkaError.INVALID_MSG  # librdkafka names code 2 INVALID_MSG
