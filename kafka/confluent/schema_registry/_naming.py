"""Subject name strategies: under which subject a serializer registers or finds its schema.

Each is called as ``strategy(ctx, record_name)`` with the serialization
context and the schema's name (an Avro record's full name, a JSON Schema's
``title``; None when it has none) and answers the subject, or None.
"""

from __future__ import annotations

from typing import Optional

from kafka.confluent.schema_registry._model import SchemaReference
from kafka.confluent.serialization import SerializationContext


def topic_subject_name_strategy(ctx: Optional[SerializationContext], record_name: Optional[str]) -> Optional[str]:
    """``{topic}-key`` or ``{topic}-value`` (the default)."""
    if ctx is None:
        raise ValueError("SerializationContext is required for topic_subject_name_strategy. Either provide a "
                         "SerializationContext or use record_subject_name_strategy.")
    return ctx.topic + "-" + str(ctx.field)


def topic_record_subject_name_strategy(ctx: Optional[SerializationContext],
                                       record_name: Optional[str]) -> Optional[str]:
    """``{topic}-{record name}``."""
    if ctx is None:
        raise ValueError("SerializationContext is required for topic_record_subject_name_strategy. Either provide "
                         "a SerializationContext or use record_subject_name_strategy.")
    return ctx.topic + "-" + record_name if record_name is not None else None


def record_subject_name_strategy(ctx: Optional[SerializationContext], record_name: Optional[str]) -> Optional[str]:
    """The record name itself."""
    return record_name


def reference_subject_name_strategy(ctx: Optional[SerializationContext],
                                    schema_ref: Optional[SchemaReference]) -> Optional[str]:
    """The subject of a schema another one references: the reference's own name.

    Unlike the strategies above it takes the :class:`SchemaReference` rather
    than a record name (quixstreams imports it, as confluent-kafka has it).
    """
    return schema_ref.name if schema_ref is not None else None


def default_subject_name_strategy(ctx: Optional[SerializationContext], record_name: Optional[str]) -> Optional[str]:
    """The strategy of a serializer given none: ``{topic}-key`` or ``{topic}-value``.

    confluent-kafka 2.16 first asks the registry for a subject associated
    with the topic (its ``AssociatedNameStrategy``) and falls back to this
    when there is none; kafkawire does not look associations up.
    """
    if ctx is None:
        raise ValueError("SerializationContext is required by the default subject name strategy. Either provide a "
                         "SerializationContext or use record_subject_name_strategy.")
    return ctx.topic + "-" + str(ctx.field)


#: ``subject.name.strategy.type`` values and their strategies.
STRATEGY_TYPES = {"TOPIC": topic_subject_name_strategy, "RECORD": record_subject_name_strategy,
                  "TOPIC_RECORD": topic_record_subject_name_strategy}

__all__ = ["topic_subject_name_strategy", "topic_record_subject_name_strategy", "record_subject_name_strategy",
           "reference_subject_name_strategy"]
