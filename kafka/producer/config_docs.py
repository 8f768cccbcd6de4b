"""One-line descriptions of the settings in :data:`kafka.producer.kafka.DEFAULT_CONFIG`.

The configuration reference of the documentation is generated from the
config table and this mapping (``docs/_ext/configtable.py``). Settings shared
with every client are described in :mod:`kafka.client.config_docs`; keys
listed here win, so a shared setting whose meaning or default changes for the
producer can be described again. The documentation build fails when a key of
the table has no description, so add one whenever a setting is added.
"""

from typing import Dict

CONFIG_DOCS: Dict[str, str] = {
    "key_serializer": "Callable turning a key into ``bytes``; without one, keys must already be "
                      "``bytes`` (or ``None``).",
    "value_serializer": "Callable turning a value into ``bytes``; without one, values must already be "
                        "``bytes`` (or ``None``).",
    "serialize_none": "``False``: a ``None`` key or value is sent as null (a tombstone) without calling "
                      "the serializer. ``True``: serializers are called with ``None`` too, as kafka-python "
                      "does (``json.dumps(None)`` then sends ``null``).",
    "acks": "Acknowledgement asked of the leader: ``0`` (none, fire and forget), ``1`` (the leader "
            "wrote it) or ``'all'`` (every in-sync replica has it).",
    "compression_type": "``None``, ``'gzip'``, ``'snappy'``, ``'lz4'`` or ``'zstd'``; whole batches "
                        "are compressed. Codecs other than gzip need their extra.",
    "retries": "How often a batch that failed with a retriable error is sent again (bounded in time "
               "by ``delivery_timeout_ms`` as well).",
    "batch_size": "Bytes of records collected per partition before a batch is sent without waiting "
                  "for ``linger_ms``. A batch the broker refuses as above the topic's ``max.message.bytes`` "
                  "is sent again as halves.",
    "linger_ms": "How long a batch that is not full waits for more records before it is sent.",
    "partitioner": "Callable ``(key_bytes, all_partitions, available_partitions) -> partition``; "
                   "``None``: murmur2 of the key like the Java client, sticky partitions for records "
                   "without a key.",
    "buffer_memory": "Bytes of records the producer may hold while they wait to be sent; "
                     ":meth:`~kafka.producer.kafka.KafkaProducer.send` blocks when it is full.",
    "max_block_ms": "Longest time ``send()`` and ``partitions_for()`` block waiting for metadata or "
                    "buffer space before raising :class:`~kafka.errors.KafkaTimeoutError`.",
    "max_request_size": "Largest produce request (and so largest record) the producer sends.",
    "delivery_timeout_ms": "Time from ``send()`` to the final outcome: a record not acknowledged "
                           "within it fails, retries or not.",
    "enable_idempotence": "Exactly-once writes per partition (producer id and sequence numbers). "
                          "``None``: on when ``acks='all'`` and the broker supports it.",
    "transactional_id": "Stable id that turns on transactions (and idempotence); see "
                        ":meth:`~kafka.producer.kafka.KafkaProducer.init_transactions`.",
    "transaction_timeout_ms": "How long the transaction coordinator lets a transaction stay open "
                              "before aborting it.",
    "retry_backoff_ms": "Wait before sending a failed batch again or retrying a metadata refresh.",
    "max_in_flight_requests_per_connection": "Produce requests to one broker awaiting a response; at "
                                             "most 5 with idempotence, which keeps order across "
                                             "retries.",
}
