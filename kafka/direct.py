"""Protocol operations against one broker over a :class:`BlockingConnection`.

These functions do one request each and turn error codes into exceptions.
They are what the demo, tools and interoperability tests use to create
topics, produce record batches and fetch them back without the producer and
consumer machinery. They do no routing: the connection must lead to the
partition's leader (on a single-broker cluster it always does).
"""

from __future__ import annotations

import uuid
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from kafka import errors
from kafka.client import topic_ids
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.conn.blocking import BlockingConnection
from kafka.enums import IsolationLevel
from kafka.protocol.apis import CREATE_TOPICS, FETCH, METADATA, PRODUCE
from kafka.protocol.schema import Api
from kafka.record import MemoryRecords

ACKS_NONE, ACKS_LEADER, ACKS_ALL = 0, 1, -1
# Fetch requests carry the plain ints of kafka.enums.IsolationLevel.
READ_UNCOMMITTED, READ_COMMITTED = int(IsolationLevel.READ_UNCOMMITTED), int(IsolationLevel.READ_COMMITTED)


class TopicInfo(NamedTuple):
    """What Metadata says about one topic."""

    name: str
    topic_id: uuid.UUID
    leaders: Dict[int, int]  # partition -> leader node id
    brokers: Dict[int, Tuple[str, int]]  # node id -> (host, port)


class FetchedPartition(NamedTuple):
    """One partition's part of a Fetch response."""

    records: bytes
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    aborted_transactions: List[Tuple[int, int]]  # (producer id, first offset)


def _raise_for(code: int, context: str) -> None:
    cls = errors.for_code(code)
    if cls is not None:
        raise cls(context)


def create_topic(conn: BlockingConnection, name: str, partitions: int = 1, replication_factor: int = 1,
                 configs: Optional[Dict[str, str]] = None, timeout_ms: int = 30000,
                 exist_ok: bool = False) -> None:
    """Create ``name``; with ``exist_ok`` an existing topic is not an error."""
    request = CREATE_TOPICS.Request(
        topics=[CREATE_TOPICS.Request.CreatableTopic(
            name=name, num_partitions=partitions, replication_factor=replication_factor,
            configs=[CREATE_TOPICS.Request.CreatableTopic.CreatableTopicConfig(name=k, value=v)
                     for k, v in (configs or {}).items()])],
        timeout_ms=timeout_ms)
    response = conn.request(CREATE_TOPICS, request, timeout=timeout_ms / 1000.0 + conn.timeout)
    for result in response.topics:
        if exist_ok and result.error_code == errors.TopicAlreadyExistsError.errno:
            continue
        _raise_for(result.error_code, "creating topic %r: %s" % (result.name, result.error_message or ""))


def describe_topic(conn: BlockingConnection, name: str) -> TopicInfo:
    """Metadata of one topic: its id and each partition's leader."""
    request = METADATA.Request(topics=[METADATA.Request.MetadataRequestTopic(name=name)],
                               allow_auto_topic_creation=False)
    response = conn.request(METADATA, request)
    for topic in response.topics:
        if topic.name == name:
            _raise_for(topic.error_code, "metadata of topic %r" % name)
            return TopicInfo(name, topic.topic_id, {p.partition_index: p.leader_id for p in topic.partitions},
                             {b.node_id: (b.host, b.port) for b in response.brokers})
    raise errors.UnknownTopicOrPartitionError("no metadata for topic %r" % name)


def _version(conn: BlockingConnection, api: Api, topic: TopicInfo) -> int:
    """The version of ``api`` for ``topic``: below the id-only versions when metadata gave no id."""
    tid = topic.topic_id if topic.topic_id is not None and topic.topic_id.int else None
    return conn.version_for(api, highest=topic_ids.name_only_cap(api, {topic.name: tid}))


def produce(conn: BlockingConnection, topic: TopicInfo, partition: int, records: bytes,
            acks: int = ACKS_LEADER, timeout_ms: int = 30000,
            transactional_id: Optional[str] = None) -> int:
    """Append one record blob to a partition; return its base offset (-1 with acks=0)."""
    request = PRODUCE.Request(
        transactional_id=transactional_id, acks=acks, timeout_ms=timeout_ms,
        topic_data=[PRODUCE.Request.TopicProduceData(
            name=topic.name, topic_id=topic.topic_id,
            partition_data=[PRODUCE.Request.TopicProduceData.PartitionProduceData(
                index=partition, records=records)])])
    version = _version(conn, PRODUCE, topic)
    if acks == ACKS_NONE:
        conn.send_only(PRODUCE, request, version=version)
        return -1
    response = conn.request(PRODUCE, request, version=version, timeout=timeout_ms / 1000.0 + conn.timeout)
    for topic_response in response.responses:
        for part in topic_response.partition_responses:
            if part.index == partition:
                _raise_for(part.error_code, "producing to %s-%d: %s" % (topic.name, partition, part.error_message or ""))
                return part.base_offset
    raise errors.ProtocolError("Produce response did not mention %s-%d" % (topic.name, partition))


def fetch(conn: BlockingConnection, topic: TopicInfo, partition: int, offset: int,
          max_bytes: int = 8 * 1024 * 1024, max_wait_ms: int = 500, min_bytes: int = 1,
          isolation_level: int = READ_UNCOMMITTED) -> FetchedPartition:
    """Fetch from ``offset`` of one partition; return its records blob and offsets."""
    request = build_fetch_request([PartitionFetch(topic.name, partition, offset, max_bytes)],
                                  {topic.name: topic.topic_id}, max_wait_ms=max_wait_ms, min_bytes=min_bytes,
                                  max_bytes=max_bytes, isolation_level=isolation_level)
    response = conn.request(FETCH, request, version=_version(conn, FETCH, topic),
                            timeout=max_wait_ms / 1000.0 + conn.timeout)
    _raise_for(response.error_code, "fetch session")
    for topic_response in response.responses:
        for part in topic_response.partitions:
            if part.partition_index == partition:
                _raise_for(part.error_code, "fetching %s-%d at offset %d" % (topic.name, partition, offset))
                aborted = [(a.producer_id, a.first_offset) for a in part.aborted_transactions or ()]
                return FetchedPartition(part.records or b"", part.high_watermark, part.last_stable_offset,
                                        part.log_start_offset, aborted)
    raise errors.ProtocolError("Fetch response did not mention %s-%d" % (topic.name, partition))


def fetch_all(conn: BlockingConnection, topic: TopicInfo, partition: int, start: int, end: int,
              max_rounds: int = 10000, **fetch_args: int) -> List[bytes]:
    """Fetch record blobs from ``start`` until offset ``end`` is covered.

    Returns the blobs; the caller parses them (a blob may begin before
    ``start`` when a batch straddles it). Raises :class:`KafkaTimeoutError`
    if ``max_rounds`` fetches do not get there.
    """
    blobs: List[bytes] = []
    position = start
    for _ in range(max_rounds):
        if position >= end:
            return blobs
        fetched = fetch(conn, topic, partition, position, **fetch_args)
        if not fetched.records:
            continue
        blobs.append(fetched.records)
        last = None
        for batch in MemoryRecords(fetched.records):
            last = batch.next_offset
        if last is None:
            raise errors.ConsumerFetchSizeTooSmall(
                "a batch at offset %d is larger than max_bytes" % position)
        position = max(position, last)
    raise errors.KafkaTimeoutError("offset %d not reached after %d fetches" % (end, max_rounds))


def batches_to_records(blobs: Sequence[bytes], start: int = 0, end: Optional[int] = None) -> list:
    """Every record in ``blobs`` with ``start <= offset < end``, in order."""
    out = []
    for blob in blobs:
        for batch in MemoryRecords(blob):
            for record in batch:
                if record.offset >= start and (end is None or record.offset < end):
                    out.append(record)
    return out
