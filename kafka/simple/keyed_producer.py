"""KeyedProducer: the simple producer that places messages by key."""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional

from kafka.simple.producer import Producer, _check_messages
from kafka.simple.partitioner.base import Partitioner
from kafka.simple.partitioner.hashed import HashedPartitioner
from kafka.simple.protocol import _text

_NO_KEY: Any = object()


class KeyedProducer(Producer):
    """A producer that chooses each message's partition from its key.

    Takes the arguments of :class:`~kafka.simple.producer.Producer`, plus:

    :param partitioner: a :class:`~kafka.simple.partitioner.base.Partitioner`
        subclass; one instance is made per topic with the topic's partition
        list. Defaults to :data:`~kafka.simple.partitioner.HashedPartitioner`, which,
        as in 0.9.x, is :class:`~kafka.simple.partitioner.LegacyPartitioner`
        (Python's ``hash()``, stable only within one process). Pass
        :class:`~kafka.simple.partitioner.Murmur2Partitioner` to place keys as the
        Java client and librdkafka do. A partitioner *instance* is also
        accepted and then used for every topic.
    """

    def __init__(self, *args: Any, partitioner: Any = None, **kwargs: Any) -> None:
        self.partitioner_class = HashedPartitioner if partitioner is None else partitioner
        self.partitioners: Dict[str, Partitioner] = {}
        super().__init__(*args, **kwargs)

    def _next_partition(self, topic: Any, key: Optional[bytes]) -> int:
        with self._lock:
            partitions = self._partition_ids(topic)
            name = _text(topic)
            partitioner = self.partitioners.get(name)
            if partitioner is None:
                if isinstance(self.partitioner_class, type):
                    partitioner = self.partitioner_class(partitions)
                else:
                    partitioner = self.partitioner_class
                self.partitioners[name] = partitioner
            return partitioner.partition(key, partitions)

    def send_messages(self, topic: Any, *args: Any, key: Any = _NO_KEY) -> List[Any]:
        """Send messages that share one key to the partition the partitioner picks for it.

        Both 0.9 call forms work::

            producer.send_messages(b'my-topic', b'key1', b'msg 1', b'msg 2')  # (topic, key, *msg)
            producer.send_messages(b'my-topic', b'some message', key=b'key1')  # (topic, *msg, key=...)

        Keys and payloads are ``bytes`` (a payload may be ``None`` when the
        key is not). Returns the list of
        :class:`~kafka.simple.common.ProduceResponse` in synchronous mode, ``[]`` in
        asynchronous mode. A call without messages sends nothing.
        """
        if key is _NO_KEY:
            if not args:
                raise TypeError("send_messages() needs a key: send_messages(topic, key, *msg) "
                                "or send_messages(topic, *msg, key=key)")
            key, msgs = args[0], args[1:]
        else:
            msgs = args
        _check_messages(topic, msgs, key)
        if not msgs:
            return []
        return self._send_messages(topic, self._next_partition(topic, key), *msgs, key=key)

    def send(self, topic: Any, key: Optional[bytes], msg: Optional[bytes]) -> List[Any]:
        """Send one message; deprecated since 0.9 in favour of :meth:`send_messages`."""
        warnings.warn("KeyedProducer.send is deprecated; use send_messages", DeprecationWarning, stacklevel=2)
        return self.send_messages(topic, key, msg)

    def __repr__(self) -> str:
        return "<KeyedProducer batch=%s>" % (self.async_send,)


__all__ = ["KeyedProducer"]
