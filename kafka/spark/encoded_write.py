"""The Spark writer's fast path: Arrow rows to encoded record batches.

:func:`send_arrow` encodes the ``key`` and ``value`` columns of an Arrow
batch into Kafka records with :mod:`kafka.spark.columnar_encode` and
queues them with :func:`kafka.producer.encoded.send_encoded`, which
partitions them and cuts batches as ``send_batch`` would. It declines
(returns None) what it does not handle, which then goes through
``send_batch``: headers, serializers set on the producer, and null entries
that span bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Tuple

from kafka import errors
from kafka.spark.key_hashing import murmur2_partitions, partition_groups
from kafka.spark.columnar_encode import binary_column, encode_batches, estimate_sizes

if TYPE_CHECKING:
    from kafka.producer import KafkaProducer
    from kafka.producer.bulk import BatchSendFuture
    from kafka.producer.encoded import Rows

__all__ = ["send_arrow", "rows_of", "binary_list"]


def _check_binary(array: Any, name: str) -> None:
    import pyarrow as pa

    kind = array.type
    if not (pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_string(kind)
            or pa.types.is_large_string(kind)):
        raise errors.IllegalArgumentError("kafkawire: column %s must be binary or string, got %s" % (name, kind))


def binary_list(array: Any, name: str) -> List[Optional[bytes]]:
    """A binary or string Arrow column ``name`` as a list of bytes (None for nulls)."""
    import pyarrow as pa

    _check_binary(array, name)
    if not (pa.types.is_binary(array.type) or pa.types.is_large_binary(array.type)):
        array = array.cast(pa.binary())
    return array.to_pylist()


def rows_of(array: Any, rows: "Rows") -> Any:
    """The ``rows`` of ``array``, in that order (all of them for None)."""
    import numpy as np
    import pyarrow as pa

    if rows is None:
        return array
    indices = np.asarray(rows, np.int64)
    # From the buffer: pa.array() would import pandas in the Spark worker.
    return array.take(pa.Array.from_buffers(pa.int64(), len(indices), [None, pa.py_buffer(indices)]))


def send_arrow(producer: "KafkaProducer", topic: str, partition: Optional[int], values: Any,
               keys: Optional[Any]) -> Optional["BatchSendFuture"]:
    """Queue the records of Arrow arrays ``values`` and ``keys``; None when this path does not apply."""
    from kafka.producer.encoded import send_encoded

    if producer.config["value_serializer"] is not None or producer.config["key_serializer"] is not None:
        return None
    _check_binary(values, "value")
    if keys is not None:
        _check_binary(keys, "key")
        if keys.null_count == len(keys):
            keys = None  # null keys: sticky partitions, as for no key column
    value_column = binary_column(values)
    key_column = None if keys is None else binary_column(keys)
    if value_column is None or (keys is not None and key_column is None):
        return None
    if value_column.lengths.min(initial=0) < 0 and (key_column is None or (
            (value_column.lengths < 0) & (key_column.lengths < 0)).any()):
        raise errors.IllegalArgumentError("kafkawire: a row has neither a key nor a value")
    def key_groups(num_partitions: int) -> List[Tuple[int, List[int]]]:
        assert key_column is not None
        return partition_groups(murmur2_partitions(key_column, num_partitions), num_partitions)

    def encode(rows: "Rows", counts: List[int]) -> List[bytes]:
        if rows is None:
            return encode_batches(value_column, key_column, counts)
        some_values = binary_column(rows_of(values, rows))
        some_keys = None if keys is None else binary_column(rows_of(keys, rows))
        assert some_values is not None
        return encode_batches(some_values, some_keys, counts)

    sizes = estimate_sizes(value_column, key_column)
    return send_encoded(producer, topic, len(values), sizes.tolist(), encode, partition=partition,
                        keys=None if keys is None else lambda: binary_list(keys, "key"),
                        key_groups=key_groups if key_column is not None and key_column.lengths.min() >= 0 else None,
                        largest=int(sizes.max()) if len(sizes) else None)
