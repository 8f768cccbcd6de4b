"""SimpleProducer: the simple producer that takes a topic's partitions in turn."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

from kafka.simple.producer import Producer, _check_messages
from kafka.simple.protocol import _text


class SimpleProducer(Producer):
    """A producer that sends each call's messages to the next partition of the topic.

    Takes the arguments of :class:`~kafka.simple.producer.Producer`, plus:

    :param random_start: start each topic's cycle at a random partition (the
        default), so that several producers spread their first messages;
        when false the first call for a topic goes to its first partition.

    All the messages of one :meth:`send_messages` call go to the same
    partition; the next call for that topic goes to the next partition. The
    messages have no key.
    """

    def __init__(self, *args: Any, random_start: bool = True, **kwargs: Any) -> None:
        self.random_start = random_start
        self._cycles: Dict[str, Tuple[List[int], int]] = {}
        super().__init__(*args, **kwargs)

    def _next_partition(self, topic: Any) -> int:
        with self._lock:
            partitions = self._partition_ids(topic)
            name = _text(topic)
            state = self._cycles.get(name)
            if state is None:
                position = random.randrange(len(partitions)) if self.random_start else 0
            else:
                position = state[1]
            self._cycles[name] = (partitions, position + 1)
            return partitions[position % len(partitions)]

    def send_messages(self, topic: Any, *msg: Optional[bytes]) -> List[Any]:  # type: ignore[override]
        """Send the payloads ``msg`` (``bytes``) to the topic's next partition.

        ``topic`` is ``str`` or ``bytes``. Returns the list of
        :class:`~kafka.simple.common.ProduceResponse` in synchronous mode (with the
        offset of the first message), ``[]`` in asynchronous mode; see
        :meth:`Producer.send_messages <kafka.simple.producer.Producer.send_messages>`.
        A call without messages sends nothing.
        """
        _check_messages(topic, msg, None)
        if not msg:
            return []
        return super().send_messages(topic, self._next_partition(topic), *msg)

    def __repr__(self) -> str:
        return "<SimpleProducer batch=%s>" % (self.async_send,)


__all__ = ["SimpleProducer"]
