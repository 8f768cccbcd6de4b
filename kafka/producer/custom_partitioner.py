"""How the producer asks a partitioner given as ``partitioner=`` for a record's partition.

kafka-python has had three conventions, and programs written for each
exist; :func:`partition_chooser` recognises them once, when the producer is
made, and gives :class:`~kafka.KafkaProducer` one call for all:

* kafka-python 3's ``Partitioner`` objects: ``partition(topic, key,
  serialized_key, value, serialized_value, cluster)``, with the record's key
  and value before and after serialization and a cluster metadata view
  (``topics()``, ``partitions_for_topic(topic)``,
  ``available_partitions_for_topic(topic)``); an optional
  ``on_new_batch(topic, cluster, prev_partition)`` hears when the batch of a
  record without a key filled up, so that a sticky partitioner moves on;
* callables, kafka-python 1.x and 2.x: ``partitioner(serialized_key,
  all_partitions, available_partitions)``;
* other objects with a ``partition(topic, serialized_key, cluster)`` method,
  which kafka-python 3 still calls that way (with a DeprecationWarning).
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable, List, Optional

from kafka.errors import ConfigurationTypeError

#: (topic, key, serialized key, value, serialized value, all partitions, available partitions, cluster) -> partition
PartitionChooser = Callable[[str, Any, Optional[bytes], Any, Optional[bytes], List[int], List[int], Any], Any]


def _positional_parameters(method: Callable[..., Any]) -> Optional[int]:
    """How many positional arguments ``method`` takes (None: any number, or unknown)."""
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return None
    count = 0
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return None
        if parameter.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            count += 1
    return count


def partition_chooser(partitioner: Any) -> PartitionChooser:
    """The call that asks ``partitioner`` for a record's partition (see the module's description).

    The call's last argument, ``cluster``, is what a kafka-python 3
    partitioner is given as its cluster metadata. Raises :class:`~kafka.errors.ConfigurationTypeError`
    for an object that follows none of the conventions.
    """
    method = getattr(partitioner, "partition", None)
    arity = _positional_parameters(method) if callable(method) else None
    takes_record = arity is not None and arity >= 6
    if callable(method) and (takes_record or (arity is None and not callable(partitioner))):
        def kafka_python_3(topic: str, key: Any, key_bytes: Optional[bytes], value: Any,
                           value_bytes: Optional[bytes], all_partitions: List[int], available: List[int],
                           cluster: Any) -> Any:
            return method(topic, key, key_bytes, value, value_bytes, cluster)

        return kafka_python_3
    if callable(partitioner):
        def kafka_python_2(topic: str, key: Any, key_bytes: Optional[bytes], value: Any,
                           value_bytes: Optional[bytes], all_partitions: List[int], available: List[int],
                           cluster: Any) -> Any:
            return partitioner(key_bytes, all_partitions, available)

        return kafka_python_2
    if callable(method) and arity == 3:
        warnings.warn("the partitioner is not a kafka.partitioner.Partitioner: its partition() is called "
                      "with (topic, serialized_key, cluster)", DeprecationWarning, stacklevel=4)

        def partition_by_key(topic: str, key: Any, key_bytes: Optional[bytes], value: Any,
                             value_bytes: Optional[bytes], all_partitions: List[int], available: List[int],
                             cluster: Any) -> Any:
            return method(topic, key_bytes, cluster)

        return partition_by_key
    raise ConfigurationTypeError(
        "partitioner must be callable as partitioner(key_bytes, all_partitions, available_partitions) or have "
        "kafka-python 3's partition(topic, key, serialized_key, value, serialized_value, cluster), not %r"
        % (partitioner,))


def new_batch_hook(partitioner: Any, cluster: Any) -> Optional[Callable[[str, int], None]]:
    """``partitioner``'s ``on_new_batch``, as ``hook(topic, previous partition)``; None when it has none."""
    on_new_batch = getattr(partitioner, "on_new_batch", None)
    if not callable(on_new_batch):
        return None

    def hook(topic: str, previous: int) -> None:
        on_new_batch(topic, cluster, previous)

    return hook
