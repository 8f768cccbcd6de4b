"""The text of a broker's refusal, as confluent-kafka shows it: the broker's message, else librdkafka's words.

Programs (confluent-kafka's admin example among them) print ``str(error)``
of a failed future; the code alone is compared elsewhere.
"""

from __future__ import annotations

import importlib
import uuid

from kafka import errors as engine_errors
from kafka.admin.base import broker_error
from kafka.confluent.kafka_error import from_engine


def _refusal(lib, broker, topic):
    admin_module = importlib.import_module(lib.__name__ + ".admin")
    admin = admin_module.AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    admin.create_topics([admin_module.NewTopic(topic, 1, 1)])[topic].result(30)
    try:
        admin.create_topics([admin_module.NewTopic(topic, 1, 1)])[topic].result(30)
    except lib.KafkaException as exc:
        return exc.args[0].name(), exc.args[0].str()
    raise AssertionError("the second create_topics was not refused")


def test_a_refused_create_topics_reads_as_confluent_kafka_s(broker, ck, kc):
    results = {lib.__name__: _refusal(lib, broker, "errtext-%s-%s" % (lib.__name__, uuid.uuid4().hex[:6]))
               for lib in (ck, kc)}
    # Tansu sends a message with its TOPIC_ALREADY_EXISTS; librdkafka shows that message alone.
    assert results["kafka.confluent"] == results["confluent_kafka"]
    assert "Error 36" not in results["kafka.confluent"][1]


def test_without_a_broker_message_the_code_s_own_text_is_shown():
    silent = from_engine(broker_error(36, None, "topic 't'"))
    assert (silent.name(), silent.str()) == ("TOPIC_ALREADY_EXISTS", "Broker: Topic already exists")
    said = from_engine(broker_error(36, "Topic 't' already exists.", "topic 't'"))
    assert said.str() == "Topic 't' already exists."


def test_errors_this_client_raises_keep_their_explanation():
    ours = engine_errors.UnsupportedVersionError("the broker does not support share groups (KIP-932)")
    assert "KIP-932" in from_engine(ours).str()
