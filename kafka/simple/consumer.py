"""The public ``KafkaConsumer``: the engine's consumer with kafka-python 0.9's API.

``kafka.KafkaConsumer``, ``kafka.consumer.KafkaConsumer`` and
``kafka.consumer.kafka.KafkaConsumer`` are this class. It is
:class:`~kafka.consumer.modern.ModernKafkaConsumer` (everything of the modern
consumer) plus :class:`~kafka.simple.consumer_methods.FirstApiMixin` (the 0.9
option names and methods: ``set_topic_partitions``, ``fetch_messages``,
``task_done``, ``offsets``, ...).
"""

from kafka.consumer.modern import DEFAULT_CONFIG, ModernKafkaConsumer
from kafka.simple.consumer_methods import OLD_ONLY_OPTIONS, OLD_OPTION_NAMES, FirstApiMixin


class KafkaConsumer(FirstApiMixin, ModernKafkaConsumer):
    """Consumes records from Kafka topics.

    ``KafkaConsumer(*topics, **configs)``: topics given here are subscribed
    (a ``group_id`` makes the group assign partitions; without one every
    partition of the topics is read). Configuration names follow
    kafka-python (see :data:`~kafka.consumer.modern.DEFAULT_CONFIG`); the
    option names of kafka-python 0.9's consumer are accepted too.
    """


__all__ = ["KafkaConsumer", "DEFAULT_CONFIG", "OLD_OPTION_NAMES", "OLD_ONLY_OPTIONS"]
