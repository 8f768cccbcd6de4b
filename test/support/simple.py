"""What the tests of the 0.9 API share: topics, writes, commits read back, reads.

The writes and reads go through the simple ``KafkaClient`` calls
(``send_produce_request``, ``send_offset_fetch_request``), as the simple
API's own users would make them.
"""

from __future__ import annotations

import time
from typing import Any, Dict, Iterable, List, Optional

from kafka.simple.common import OffsetFetchRequest, ProduceRequest
from kafka.simple.protocol import create_message
from test.support import topics


def new_topic(broker: Any, partitions: int = 1, name: Optional[str] = None) -> str:
    """Create a topic (a fresh unique name unless ``name`` is given) on the embedded broker."""
    return topics.new_topic(broker, partitions, prefix="simple", name=name)


def produce(client: Any, topic: str, partition: int, values: Iterable[bytes], key: Optional[bytes] = None,
            one_per_batch: bool = True) -> None:
    """Write ``values`` to a partition, one record batch per value unless ``one_per_batch`` is false.

    One record per batch is the default because Tansu's ListOffsets "latest"
    is exact only then (see DESIGN.md).
    """
    if one_per_batch:
        for value in values:
            client.send_produce_request([ProduceRequest(topic, partition, [create_message(value, key)])])
    else:
        client.send_produce_request([ProduceRequest(topic, partition, [create_message(v, key) for v in values])])


def committed(client: Any, group: str, topic: str, partitions: Iterable[int]) -> Dict[int, int]:
    """The group's committed offset of each partition, read back by ``client``."""
    responses = client.send_offset_fetch_request(group, [OffsetFetchRequest(topic, p) for p in partitions])
    return {r.partition: r.offset for r in responses}


def get_messages_until(consumer: Any, expected: int, timeout: float = 15.0, wait: float = 1.0) -> List[Any]:
    """``consumer.get_messages`` until ``expected`` messages arrived or ``timeout`` passed.

    Asks again after an empty answer: Tansu may answer a waiting fetch with
    no records.
    """
    out: List[Any] = []
    deadline = time.monotonic() + timeout
    while len(out) < expected and time.monotonic() < deadline:
        out.extend(consumer.get_messages(count=expected - len(out), block=True, timeout=wait))
    return out
