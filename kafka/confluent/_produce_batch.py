"""``Producer.produce_batch``: many records of one topic in one call, as confluent-kafka 2.x has it.

Every message is checked before any is queued (a bad one raises and none is
queued); then each is produced in turn. A message the local queue cannot
take gets an ``_error`` entry (a :class:`~kafka.confluent.kafka_error.KafkaError`)
in its dict and is not counted. A message's own ``partition`` is checked but,
as in confluent-kafka 2.16, not used: every message goes to the batch's
``partition`` (or is partitioned by its key when that is -1).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from kafka.confluent.kafka_error import KafkaError, KafkaException


def _check(messages: List[Any]) -> None:
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            raise TypeError("Message at index %d must be a dict" % index)
        for field in ("value", "key"):
            found = message.get(field)
            if found is not None and not isinstance(found, (bytes, str)):
                raise TypeError("Message %s at index %d must be bytes or str" % (field, index))
        part = message.get("partition")
        if part is not None and (isinstance(part, bool) or not isinstance(part, int)):
            raise TypeError("Message partition at index %d must be int" % index)
        if "timestamp" in message:
            raise NotImplementedError("Message timestamps are not currently supported in batch mode")


def produce_batch(produce: Callable[..., None], topic: Any, messages: Any, partition: Any = -1,
                  on_delivery: Optional[Callable[..., Any]] = None) -> int:
    """Produce ``messages`` (dicts with ``value``, ``key``, ``callback``) with ``produce``.

    Returns how many were queued. Headers are not taken, as in confluent-kafka.
    """
    if not isinstance(topic, str):
        raise TypeError("argument 1 must be str, not %s" % type(topic).__name__)
    if not isinstance(messages, list):
        raise TypeError("messages must be a list")
    if isinstance(partition, bool) or not isinstance(partition, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(partition).__name__)
    _check(messages)
    queued = 0
    for message in messages:
        try:
            produce(topic, message.get("value"), message.get("key"), partition,
                    on_delivery=message.get("callback") or on_delivery)
        except BufferError:
            message["_error"] = KafkaError(KafkaError._QUEUE_FULL,  # type: ignore[attr-defined]
                                           "Message failed: Local: Queue full")
            continue
        except KafkaException as exc:
            message["_error"] = exc.args[0] if exc.args and isinstance(exc.args[0], KafkaError) else \
                KafkaError(KafkaError._FAIL, str(exc))  # type: ignore[attr-defined]
            continue
        queued += 1
    return queued

