"""Checks for topic names and topic partitions given by the caller.

Every public call that takes a topic (producer, consumer, admin, simple
clients) checks it here, before the name can reach a request or a set of
tracked topics, where a value of the wrong type would fail much later and
far from the mistake (sorting a set of names, encoding a request).
"""

from __future__ import annotations

import operator
import re
from typing import Any

from kafka.errors import IllegalArgumentError, IllegalArgumentTypeError
from kafka.structs import TopicPartition

#: The longest topic name Kafka accepts.
MAX_TOPIC_NAME_LENGTH = 249

_LEGAL = re.compile(r"[a-zA-Z0-9._-]+\Z")


def check_topic_name(name: Any) -> str:
    """Return ``name`` if Kafka accepts it as a topic name, else raise.

    A legal name is a ``str`` of 1 to 249 characters from ``[a-zA-Z0-9._-]``,
    other than ``.`` and ``..``. A value that is not a ``str`` raises
    :class:`~kafka.errors.IllegalArgumentTypeError` (a ``TypeError``), a
    string Kafka refuses :class:`~kafka.errors.IllegalArgumentError`.
    """
    if not isinstance(name, str):
        raise IllegalArgumentTypeError("a topic name must be a str, got %s %r" % (type(name).__name__, name))
    if _LEGAL.match(name) is None:
        if not name:
            raise IllegalArgumentError("a topic name must be a non-empty string")
        bad = "".join(sorted(set(re.sub(r"[a-zA-Z0-9._-]", "", name))))
        raise IllegalArgumentError("topic name %r contains characters Kafka does not allow: %r"
                                   % (name[:60], bad))
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise IllegalArgumentError("topic name %r... is longer than %d characters"
                                   % (name[:20], MAX_TOPIC_NAME_LENGTH))
    if name == "." or name == "..":
        raise IllegalArgumentError("%r is not a legal topic name" % name)
    return name


def check_partition_number(partition: Any) -> int:
    """Return ``partition`` as an ``int`` if it is an integer >= 0, else raise.

    Integers of other types (numpy's) are taken; a bool or a float is not.
    """
    if type(partition) is not int:
        if isinstance(partition, bool):
            raise IllegalArgumentTypeError("a partition number must be an int, got bool %r" % partition)
        try:
            partition = operator.index(partition)
        except TypeError:
            raise IllegalArgumentTypeError("a partition number must be an int, got %s %r"
                                           % (type(partition).__name__, partition)) from None
    if partition < 0:
        raise IllegalArgumentError("a partition number cannot be negative, got %d" % partition)
    return partition


def check_topic_partition(tp: Any) -> TopicPartition:
    """Return ``tp`` (a :class:`TopicPartition` or a ``(topic, partition)`` pair) checked.

    Raises like :func:`check_topic_name` and :func:`check_partition_number`.
    """
    if type(tp) is not TopicPartition:
        try:
            topic, partition = tp
        except (TypeError, ValueError):
            raise IllegalArgumentTypeError("expected a TopicPartition, got %s %r"
                                           % (type(tp).__name__, tp)) from None
        return TopicPartition(check_topic_name(topic), check_partition_number(partition))
    check_topic_name(tp.topic)
    if type(tp.partition) is not int:
        return TopicPartition(tp.topic, check_partition_number(tp.partition))
    check_partition_number(tp.partition)
    return tp
