"""The kafka-python 0.9.x ``KafkaProtocol`` encoders and decoders.

This module keeps the 0.9.x call signatures and the :mod:`kafka.simple.common` named
tuples, but speaks protocol versions that today's brokers accept. Kafka 4.0
removed the versions kafka-python 0.9 sent (Produce below v3, Fetch below v4,
ListOffsets v0, OffsetCommit below v2, OffsetFetch v0, and message formats v0
and v1 on the produce path). So every ``encode_*``/``decode_*`` method takes a
keyword-only ``version``; when it is ``None`` the method uses the lowest
version the client sends to any broker, the API's ``min_send`` floor
(:data:`DEFAULT_VERSIONS`):

====================  ===============  =======
0.9 call              API              default
====================  ===============  =======
produce               Produce          v3
fetch                 Fetch            v4
offset                ListOffsets      v1
metadata              Metadata         v0
offset commit         OffsetCommit     v2
offset fetch          OffsetFetch      v1
consumer metadata     FindCoordinator  v0
====================  ===============  =======

Lowest versions keep the request closest to what 0.9.x sent (Metadata v0
still reads an empty topic list as "every topic"), and every broker since
Kafka 0.11 accepts them. Any other version the declarations know can be
asked for explicitly, up to the last version that still names topics by
name (Produce, Fetch v12; OffsetCommit, OffsetFetch v9); ``version=0``
reproduces the 0.9.x bytes for old brokers.

Framing:

* ``encode_*`` return a whole request frame: the 4-byte big-endian size, the
  request header (v1, or v2 for flexible versions) with the given client id
  and correlation id, then the body.
* ``decode_*`` take the response frame **without** its 4-byte size prefix,
  exactly what the 0.9 ``KafkaConnection.recv`` returned: the 4-byte
  correlation id (not checked), the header's tagged fields when the version
  is flexible, then the body. They must be told the ``version`` the request
  was sent with (the default matches the encoder's default). Fewer than four
  bytes raise :class:`~kafka.errors.BufferUnderflowError`; a body cut short or
  otherwise malformed raises :class:`~kafka.errors.ProtocolError`. Bytes after
  the last field are ignored, as Kafka's own clients do.

Messages: the produce path turns the 0.9 :class:`~kafka.simple.common.Message`
objects into one record batch of format v2 per partition (Produce v3 and
later carry exactly one batch per partition). Keys and values are kept;
messages built by :func:`create_gzip_message`, :func:`create_snappy_message`
and :func:`create_message_set` are unpacked and their inner messages become
the batch's records, compressed with the wrapper's codec. Fetch responses are
read in whatever format the broker returns (v0/v1 message sets or v2 batches),
and compressed wrappers are expanded, so ``FetchResponse.messages`` yields
one :class:`~kafka.simple.common.OffsetAndMessage` per record.

Text fields in decoded tuples (topic names, hosts, offset metadata) are
``str``; the encoders accept ``str`` or UTF-8 ``bytes``.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from kafka import codec as _codec_fns
from kafka import errors
from kafka.simple.common import (
    BrokerMetadata,
    ConsumerMetadataRequest,
    ConsumerMetadataResponse,
    FetchResponse,
    Message,
    MetadataRequest,
    MetadataResponse,
    OffsetAndMessage,
    OffsetCommitResponse,
    OffsetFetchResponse,
    OffsetResponse,
    PartitionMetadata,
    ProduceResponse,
    TopicMetadata,
)
from kafka.errors import (
    BufferUnderflowError,
    ConsumerFetchSizeTooSmall,
    IllegalArgumentError,
    ProtocolError,
    UnsupportedCodecError,
    UnsupportedVersionError,
)
from kafka.client.fetch_request import PartitionFetch, build_fetch_request
from kafka.protocol import types as _types
from kafka.protocol.apis.fetch import FETCH
from kafka.protocol.apis.groups import FIND_COORDINATOR
from kafka.protocol.apis.metadata import METADATA
from kafka.protocol.apis.offsets import LIST_OFFSETS, OFFSET_COMMIT, OFFSET_FETCH
from kafka.protocol.list_offsets import ListedOffset, OffsetQuery, list_offsets_request, listed_offsets
from kafka.protocol.apis.produce import PRODUCE
from kafka.protocol.framing import encode_request, response_header_version, skip_tagged_fields
from kafka.protocol.schema import Api
from kafka.record import codecs as _codecs
from kafka.record.batch import RecordBatchBuilder
from kafka.record.legacy import LegacyRecordBatch, encode_message
from kafka.record.memory_records import MemoryRecords

__all__ = [
    "KafkaProtocol",
    "create_message",
    "create_gzip_message",
    "create_snappy_message",
    "create_lz4_message",
    "create_zstd_message",
    "create_message_set",
    "FetchedMessages",
    "ATTRIBUTE_CODEC_MASK",
    "CODEC_NONE",
    "CODEC_GZIP",
    "CODEC_SNAPPY",
    "CODEC_LZ4",
    "CODEC_ZSTD",
    "ALL_CODECS",
    "DEFAULT_VERSIONS",
]

#: Bits of a message's attributes that name its compression codec. (0.9.x
#: used ``0x03`` when only codecs 0-2 existed; zstd, codec 4, needs three bits.)
ATTRIBUTE_CODEC_MASK = 0x07
CODEC_NONE = _codecs.NONE
CODEC_GZIP = _codecs.GZIP
CODEC_SNAPPY = _codecs.SNAPPY
CODEC_LZ4 = _codecs.LZ4
CODEC_ZSTD = _codecs.ZSTD
#: Every codec a producer may ask for.
ALL_CODECS = (CODEC_NONE, CODEC_GZIP, CODEC_SNAPPY, CODEC_LZ4, CODEC_ZSTD)

#: The version each 0.9 call uses when none is given (see the module docs).
DEFAULT_VERSIONS: Dict[str, int] = {
    api.name: api.min_send
    for api in (PRODUCE, FETCH, LIST_OFFSETS, METADATA, OFFSET_COMMIT, OFFSET_FETCH, FIND_COORDINATOR)
}

# The last version of each API whose messages still name topics by name (the
# 0.9 tuples have no topic ids).
_HIGHEST: Dict[int, int] = {
    PRODUCE.key: 12,
    FETCH.key: 12,
    LIST_OFFSETS.key: LIST_OFFSETS.max_version,
    METADATA.key: METADATA.max_version,
    OFFSET_COMMIT.key: 9,
    OFFSET_FETCH.key: 9,
    FIND_COORDINATOR.key: FIND_COORDINATOR.max_version,
}

_HEADER_V1 = struct.Struct(">hhi")
_INT16 = struct.Struct(">h")
_LIST_OFFSETS_TIMEOUT_MS = 30000

Payloads = Optional[Iterable[Any]]
Text = Union[str, bytes]


def offsets_of(found: ListedOffset, old_style: bool) -> Tuple[int, ...]:
    """The 0.9 ``OffsetResponse.offsets`` of one answer: v0's list, or the one offset found (none on an error)."""
    if old_style or found.old_style_offsets:
        return found.old_style_offsets
    return (found.offset,) if found.error_code == 0 and found.offset >= 0 else ()


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def _text(value: Any, what: str = "topic") -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise IllegalArgumentError("%s %r is not valid UTF-8" % (what, value)) from None
    raise TypeError("%s must be str or bytes, not %s" % (what, type(value).__name__))


def _text_or_none(value: Any, what: str) -> Optional[str]:
    return None if value is None else _text(value, what)


def _client_id(client_id: Optional[Text]) -> Optional[str]:
    return None if client_id is None else _text(client_id, "client id")


def _version(api: Api, version: Optional[int]) -> int:
    if version is None:
        return api.min_send
    if isinstance(version, bool) or not isinstance(version, int):
        raise TypeError("version must be an int, not %r" % (version,))
    highest = _HIGHEST[api.key]
    if not api.min_version <= version <= highest:
        raise UnsupportedVersionError(
            "%s v%d cannot be expressed with the 0.9 API (it supports v%d-%d)"
            % (api.name, version, api.min_version, highest))
    return version


def _group(payloads: Payloads) -> List[Tuple[str, List[Any]]]:
    """Payloads grouped by topic name, in first-seen order; one per partition."""
    grouped: Dict[str, List[Any]] = {}
    seen = set()
    for payload in payloads or ():
        topic = _text(payload.topic)
        key = (topic, payload.partition)
        if key in seen:
            raise IllegalArgumentError(
                "%s names topic %r partition %r twice" % (type(payload).__name__, topic, payload.partition))
        seen.add(key)
        grouped.setdefault(topic, []).append(payload)
    return list(grouped.items())


def _decode(api: Api, data: Any, version: int) -> Any:
    """Decode a response frame body (correlation id, header tags, body)."""
    buf = data if type(data) is bytes else bytes(data)
    if len(buf) < 4:
        raise BufferUnderflowError(
            "a %s response needs at least 4 bytes (the correlation id), got %d" % (api.name, len(buf)))
    pos = 4
    if response_header_version(api, version) >= 1:
        try:
            pos = skip_tagged_fields(buf, pos)
        except _types.DecodeError as exc:
            raise ProtocolError("bad %s response header: %s" % (api.name, exc)) from None
    return api.decode_response(buf[pos:], version)


def _raise_code(code: int, context: str) -> None:
    cls = errors.for_code(code)
    if cls is not None:
        raise cls(context)


# ---------------------------------------------------------------------------
# Messages: creation
# ---------------------------------------------------------------------------


def create_message(payload: Optional[bytes], key: Optional[bytes] = None) -> Message:
    """An uncompressed message (format v0) holding ``payload`` and ``key``."""
    return Message(0, 0, key, payload)


def _items(payloads: Iterable[Any], key: Optional[bytes]) -> List[Tuple[Optional[bytes], Optional[bytes]]]:
    # Each entry is a payload or a (payload, key) pair; a bare payload takes
    # the key given for the whole set.
    items = []
    for entry in payloads:
        if isinstance(entry, tuple) and len(entry) == 2:
            items.append((entry[0], entry[1]))
        else:
            items.append((entry, key))
    return items


def _inner_message_set(payloads: Iterable[Any], key: Optional[bytes]) -> bytes:
    return b"".join(encode_message(0, i, None, k, v) for i, (v, k) in enumerate(_items(payloads, key)))


def _compressed_message(codec: int, payloads: Iterable[Any], key: Optional[bytes],
                        compresslevel: Optional[int] = None, xerial_compatible: bool = True) -> Message:
    inner = _inner_message_set(payloads, key)
    if codec == CODEC_GZIP:
        value = _codec_fns.gzip_encode(inner, compresslevel=compresslevel)
    elif codec == CODEC_SNAPPY:
        value = _codec_fns.snappy_encode(inner, xerial_compatible=xerial_compatible)
    elif codec == CODEC_LZ4:
        # A format v0 wrapper carries the LZ4 header checksum Kafka 0.8-0.9 expected.
        value = _codecs.compress(CODEC_LZ4, inner, magic=0, level=compresslevel)
    elif codec == CODEC_ZSTD:
        value = _codecs.compress(CODEC_ZSTD, inner, level=compresslevel)
    else:
        raise UnsupportedCodecError("Codec 0x%02x unsupported" % (codec,))
    return Message(0, codec & ATTRIBUTE_CODEC_MASK, key, value)


def create_gzip_message(payloads: Iterable[Any], key: Optional[bytes] = None,
                        compresslevel: Optional[int] = None) -> Message:
    """One gzip-compressed message wrapping a message for each entry of ``payloads``.

    Each entry is a payload (``bytes``), which gets ``key``, or a
    ``(payload, key)`` pair. ``key`` is also the wrapper's own key.
    ``compresslevel`` is the gzip level (9 when ``None``, as in 0.9.x).
    """
    return _compressed_message(CODEC_GZIP, payloads, key, compresslevel)


def create_snappy_message(payloads: Iterable[Any], key: Optional[bytes] = None,
                          xerial_compatible: bool = True) -> Message:
    """One snappy-compressed message wrapping a message for each entry of ``payloads``.

    Entries as in :func:`create_gzip_message`. The value is written in
    snappy-java's stream format (what the Java client writes) unless
    ``xerial_compatible`` is false, which writes one raw snappy block.
    """
    return _compressed_message(CODEC_SNAPPY, payloads, key, xerial_compatible=xerial_compatible)


def create_lz4_message(payloads: Iterable[Any], key: Optional[bytes] = None,
                       compresslevel: Optional[int] = None) -> Message:
    """One LZ4-compressed message wrapping a message for each entry of ``payloads``."""
    return _compressed_message(CODEC_LZ4, payloads, key, compresslevel)


def create_zstd_message(payloads: Iterable[Any], key: Optional[bytes] = None,
                        compresslevel: Optional[int] = None) -> Message:
    """One zstd-compressed message wrapping a message for each entry of ``payloads``.

    zstd exists only in record batches (format v2): such a message can be
    sent with the default Produce version, which converts it, but not with
    ``version`` 2 or lower.
    """
    return _compressed_message(CODEC_ZSTD, payloads, key, compresslevel)


def create_message_set(messages: Iterable[Any], codec: int = CODEC_NONE, key: Optional[bytes] = None,
                       compresslevel: Optional[int] = None) -> List[Message]:
    """The list of messages to put in a :class:`~kafka.simple.common.ProduceRequest`.

    ``messages`` holds payloads, or ``(payload, key)`` pairs; a bare payload
    gets ``key``. With ``CODEC_NONE`` the result is one message per entry;
    with another codec it is a single compressed message wrapping them all.
    An unknown codec raises :class:`~kafka.errors.UnsupportedCodecError`.
    """
    if codec == CODEC_NONE:
        return [create_message(value, k) for value, k in _items(messages, key)]
    if codec not in ALL_CODECS:
        raise UnsupportedCodecError("Codec 0x%02x unsupported" % (codec,))
    return [_compressed_message(codec, messages, key, compresslevel)]


# ---------------------------------------------------------------------------
# Messages: encoding for Produce
# ---------------------------------------------------------------------------


def _legacy_magic(message: Message) -> int:
    if message.magic not in (0, 1):
        raise IllegalArgumentError(
            "a message of format v%r cannot be sent with Produce v0-2 (formats 0 and 1 only)" % (message.magic,))
    return int(message.magic)


def _encode_legacy_message(message: Message, offset: int = 0) -> bytes:
    magic = _legacy_magic(message)
    return encode_message(magic, offset, None, message.key, message.value, int(message.attributes))


def _unpack_wrapper(message: Message) -> List[Tuple[Optional[int], Optional[bytes], Optional[bytes]]]:
    """The (timestamp, key, value) of each message inside a compressed message."""
    magic = message.magic if message.magic in (0, 1) else 0
    codec = message.attributes & ATTRIBUTE_CODEC_MASK
    wrapper = encode_message(magic, 0, 0, message.key, message.value, codec)
    out = []
    for record in LegacyRecordBatch(wrapper).records():
        timestamp = record.timestamp if magic == 1 and record.timestamp >= 0 else None
        out.append((timestamp, record.key, record.value))
    return out


def _encode_record_batch(messages: Sequence[Message]) -> bytes:
    """One v2 record batch holding the records of ``messages`` (see the module docs)."""
    if not messages:
        return b""
    codec = CODEC_NONE
    entries: List[Tuple[Optional[int], Optional[bytes], Optional[bytes]]] = []
    for message in messages:
        message_codec = message.attributes & ATTRIBUTE_CODEC_MASK
        if message_codec == CODEC_NONE:
            entries.append((None, message.key, message.value))
            continue
        if codec == CODEC_NONE:
            codec = message_codec
        entries.extend(_unpack_wrapper(message))
    builder = RecordBatchBuilder(compression_type=codec)
    for offset, (timestamp, key, value) in enumerate(entries):
        builder.append(offset, timestamp, key, value)
    return builder.build()


def _produce_records(messages: Sequence[Message], version: int) -> bytes:
    if version >= 3:
        return _encode_record_batch(messages)
    return b"".join(_encode_legacy_message(m) for m in messages)


# ---------------------------------------------------------------------------
# Messages: decoding from Fetch
# ---------------------------------------------------------------------------


def _iter_messages(data: bytes) -> Iterator[OffsetAndMessage]:
    records = MemoryRecords(data, check_crcs=True)
    if records.batch_count == 0 and records.has_partial:
        raise ConsumerFetchSizeTooSmall(
            "the first batch (%d bytes received) is larger than the fetch size" % records.partial_bytes)
    for batch in records:
        if not isinstance(batch, LegacyRecordBatch):  # format v2
            if batch.is_control_batch:
                continue  # transaction markers are not messages
            for record in batch:
                yield OffsetAndMessage(record.offset, Message(2, 0, record.key, record.value))
        elif not batch.compression_type:
            yield OffsetAndMessage(batch.offset, Message(batch.magic, batch.attributes, batch.key, batch.value))
        else:
            inner_attributes = batch.attributes & ~ATTRIBUTE_CODEC_MASK
            for record in batch:
                yield OffsetAndMessage(record.offset, Message(batch.magic, inner_attributes, record.key, record.value))


class FetchedMessages:
    """The messages of one partition in a fetch response, decoded lazily.

    Iterating yields an :class:`~kafka.simple.common.OffsetAndMessage` per record,
    whatever the message format (compressed wrappers and v2 batches are
    expanded; transaction control records are skipped); it may be iterated
    more than once. Checksums are verified
    (:class:`~kafka.errors.ChecksumError` on a mismatch). A trailing batch cut
    short by the fetch size is left out; when even the first batch is
    incomplete, iteration raises :class:`~kafka.errors.ConsumerFetchSizeTooSmall`
    so the caller can fetch again with a larger size, as in 0.9.x.

    A batch may begin before the offset that was asked for: skipping the
    messages below it is up to the caller.
    """

    __slots__ = ("data",)

    def __init__(self, data: Optional[bytes]) -> None:
        #: The raw records blob of the partition.
        self.data = data or b""

    def __iter__(self) -> Iterator[OffsetAndMessage]:
        return _iter_messages(self.data)

    def __repr__(self) -> str:
        return "FetchedMessages(%d bytes)" % len(self.data)


# ---------------------------------------------------------------------------
# KafkaProtocol
# ---------------------------------------------------------------------------


class KafkaProtocol:
    """The 0.9 request encoders and response decoders (class methods only).

    See the module documentation for the versions used, the framing the
    methods produce and accept, and how messages are converted.
    """

    PRODUCE_KEY = PRODUCE.key
    FETCH_KEY = FETCH.key
    OFFSET_KEY = LIST_OFFSETS.key
    METADATA_KEY = METADATA.key
    OFFSET_COMMIT_KEY = OFFSET_COMMIT.key
    OFFSET_FETCH_KEY = OFFSET_FETCH.key
    CONSUMER_METADATA_KEY = FIND_COORDINATOR.key

    ATTRIBUTE_CODEC_MASK = ATTRIBUTE_CODEC_MASK
    CODEC_NONE = CODEC_NONE
    CODEC_GZIP = CODEC_GZIP
    CODEC_SNAPPY = CODEC_SNAPPY
    CODEC_LZ4 = CODEC_LZ4
    CODEC_ZSTD = CODEC_ZSTD
    ALL_CODECS = ALL_CODECS

    # -- low-level helpers kept from 0.9.x ---------------------------------

    @classmethod
    def _encode_message_header(cls, client_id: Optional[Text], correlation_id: int, request_key: int,
                               version: int = 0) -> bytes:
        """A request header v1: API key, version, correlation id, client id (no size prefix)."""
        name = _client_id(client_id)
        client = None if name is None else name.encode("utf-8")
        header = _HEADER_V1.pack(request_key, version, correlation_id)
        if client is None:
            return header + _INT16.pack(-1)
        return header + _INT16.pack(len(client)) + client

    @classmethod
    def _encode_message(cls, message: Message) -> bytes:
        """A message of format v0/v1 from its CRC on (no offset or size field), as 0.9.x wrote it."""
        return _encode_legacy_message(message)[12:]

    @classmethod
    def _encode_message_set(cls, messages: Iterable[Message]) -> bytes:
        """A v0/v1 message set as 0.9.x wrote it: each message after offset 0 and its size."""
        return b"".join(_encode_legacy_message(m) for m in messages)

    @classmethod
    def _decode_message_set_iter(cls, data: bytes) -> Iterator[OffsetAndMessage]:
        """Iterate the messages of a records blob in any format (see :class:`FetchedMessages`)."""
        return _iter_messages(bytes(data))

    # -- Produce ----------------------------------------------------------

    @classmethod
    def encode_produce_request(cls, client_id: Optional[Text], correlation_id: int, payloads: Payloads = None,
                               acks: int = 1, timeout: int = 1000, *, version: Optional[int] = None,
                               time_out: Optional[int] = None) -> bytes:
        """Encode a Produce request for some :class:`~kafka.simple.common.ProduceRequest` payloads.

        :param client_id: the client id for the request header.
        :param correlation_id: echoed back in the response.
        :param payloads: ``ProduceRequest`` tuples, one per partition.
        :param acks: 0 (no response), 1 (the leader wrote the data), -1 (every
            in-sync replica has it).
        :param timeout: how long (ms) the broker may wait for ``acks``; not a
            socket timeout. ``time_out`` is accepted as another name for it.
        :param version: Produce version, v3 when ``None``. From v3 each
            partition's messages are sent as one v2 record batch.
        :returns: the whole request frame.
        """
        if time_out is not None:
            timeout = time_out
        v = _version(PRODUCE, version)
        Topic = PRODUCE.Request.TopicProduceData
        Partition = Topic.PartitionProduceData
        topic_data = [
            Topic(name=topic, partition_data=[
                Partition(index=p.partition, records=_produce_records(list(p.messages), v)) for p in parts])
            for topic, parts in _group(payloads)
        ]
        request = PRODUCE.Request(transactional_id=None, acks=acks, timeout_ms=timeout, topic_data=topic_data)
        return encode_request(PRODUCE, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_produce_response(cls, data: bytes, *, version: Optional[int] = None) -> List[ProduceResponse]:
        """Decode a Produce response into a list of :class:`~kafka.simple.common.ProduceResponse`.

        ``offset`` is the offset given to the first message of the partition.
        """
        v = _version(PRODUCE, version)
        response = _decode(PRODUCE, data, v)
        return [
            ProduceResponse(topic.name, part.index, part.error_code, part.base_offset)
            for topic in response.responses
            for part in topic.partition_responses
        ]

    # -- Fetch --------------------------------------------------------------

    @classmethod
    def encode_fetch_request(cls, client_id: Optional[Text], correlation_id: int, payloads: Payloads = None,
                             max_wait_time: int = 100, min_bytes: int = 4096, *,
                             version: Optional[int] = None) -> bytes:
        """Encode a Fetch request for some :class:`~kafka.simple.common.FetchRequest` payloads.

        :param payloads: ``FetchRequest(topic, partition, offset, max_bytes)`` tuples.
        :param max_wait_time: how long (ms) the broker may wait for ``min_bytes``.
        :param min_bytes: how much data the broker should gather before answering.
        :param version: Fetch version, v4 when ``None`` (no fetch session, read
            uncommitted, no limit on the response's total size).
        :returns: the whole request frame.
        """
        v = _version(FETCH, version)
        wanted = [PartitionFetch(topic, p.partition, p.offset, p.max_bytes)
                  for topic, parts in _group(payloads) for p in parts]
        request = build_fetch_request(wanted, max_wait_ms=max_wait_time, min_bytes=min_bytes)
        return encode_request(FETCH, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_fetch_response(cls, data: bytes, *, version: Optional[int] = None) -> List[FetchResponse]:
        """Decode a Fetch response into a list of :class:`~kafka.simple.common.FetchResponse`.

        Each ``messages`` is a :class:`FetchedMessages`. An error for the whole
        request (Fetch v7 and later) is raised as its exception class.
        """
        v = _version(FETCH, version)
        response = _decode(FETCH, data, v)
        _raise_code(response.error_code or 0, "Fetch request failed")
        return [
            FetchResponse(topic.topic, part.partition_index, part.error_code, part.high_watermark,
                          FetchedMessages(part.records))
            for topic in response.responses
            for part in topic.partitions
        ]

    # -- ListOffsets ---------------------------------------------------------

    @classmethod
    def encode_offset_request(cls, client_id: Optional[Text], correlation_id: int, payloads: Payloads = None,
                              *, version: Optional[int] = None) -> bytes:
        """Encode a ListOffsets request for some :class:`~kafka.simple.common.OffsetRequest` payloads.

        ``time`` is ``-1`` for the latest offset, ``-2`` for the earliest, or a
        timestamp in ms. ``max_offsets`` is only sent with ``version=0``; from
        v1 on (the default) brokers return one offset per partition.
        """
        v = _version(LIST_OFFSETS, version)
        queries = [OffsetQuery(topic, p.partition, p.time, max_num_offsets=p.max_offsets if v == 0 else 1)
                   for topic, parts in _group(payloads) for p in parts]
        request = list_offsets_request(queries, timeout_ms=_LIST_OFFSETS_TIMEOUT_MS)
        return encode_request(LIST_OFFSETS, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_offset_response(cls, data: bytes, *, version: Optional[int] = None) -> List[OffsetResponse]:
        """Decode a ListOffsets response into a list of :class:`~kafka.simple.common.OffsetResponse`.

        ``offsets`` is a tuple: v0's list as sent, and from v1 on the one
        offset found (empty on an error or when no offset matched).
        """
        v = _version(LIST_OFFSETS, version)
        return [OffsetResponse(topic, partition, found.error_code, offsets_of(found, v == 0))
                for (topic, partition), found in listed_offsets(_decode(LIST_OFFSETS, data, v)).items()]

    # -- Metadata ---------------------------------------------------------------

    @classmethod
    def encode_metadata_request(cls, client_id: Optional[Text], correlation_id: int, topics: Any = None,
                                payloads: Any = None, *, version: Optional[int] = None) -> bytes:
        """Encode a Metadata request for some topics, or for every topic.

        :param topics: topic names; ``None`` or empty asks for every topic.
        :param payloads: another way to pass the names (0.9.x used both); a
            :class:`~kafka.simple.common.MetadataRequest` is accepted too.
        :param version: Metadata version, v0 when ``None``.
        """
        names = topics if payloads is None else payloads
        if isinstance(names, MetadataRequest):
            names = names.topics
        if names is None:
            names = []
        elif isinstance(names, (str, bytes)):
            names = [names]
        v = _version(METADATA, version)
        Topic = METADATA.Request.MetadataRequestTopic
        if names:
            request_topics: Optional[List[Any]] = [Topic(name=_text(n)) for n in names]
        else:
            # v0 reads an empty list as "every topic"; later versions need null.
            request_topics = [] if v == 0 else None
        request = METADATA.Request(topics=request_topics, allow_auto_topic_creation=True)
        return encode_request(METADATA, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_metadata_response(cls, data: bytes, *, version: Optional[int] = None) -> MetadataResponse:
        """Decode a Metadata response into a :class:`~kafka.simple.common.MetadataResponse`.

        Replicas and in-sync replicas are tuples of node ids. A request-level
        error (Metadata v13) is raised as its exception class.
        """
        v = _version(METADATA, version)
        response = _decode(METADATA, data, v)
        _raise_code(response.error_code or 0, "Metadata request failed")
        brokers = [BrokerMetadata(b.node_id, b.host, b.port) for b in response.brokers]
        topics = []
        for topic in response.topics:
            partitions = [
                PartitionMetadata(topic.name, p.partition_index, p.leader_id, tuple(p.replica_nodes),
                                  tuple(p.isr_nodes), p.error_code)
                for p in topic.partitions
            ]
            topics.append(TopicMetadata(topic.name, topic.error_code, partitions))
        return MetadataResponse(brokers, topics)

    # -- FindCoordinator ------------------------------------------------------

    @classmethod
    def encode_consumer_metadata_request(cls, client_id: Optional[Text], correlation_id: int, payloads: Any,
                                         *, version: Optional[int] = None) -> bytes:
        """Encode a request for the coordinator of one consumer group.

        :param payloads: the group name (``str`` or ``bytes``), a
            :class:`~kafka.simple.common.ConsumerMetadataRequest`, or a one-element list.
        :param version: FindCoordinator version, v0 when ``None``.
        """
        group = payloads
        if isinstance(group, ConsumerMetadataRequest):
            group = group.groups
        if isinstance(group, (list, tuple)):
            if len(group) != 1:
                raise IllegalArgumentError("one consumer group per request, got %d" % len(group))
            group = group[0]
        name = _text(group, "group")
        v = _version(FIND_COORDINATOR, version)
        if v >= 4:
            request = FIND_COORDINATOR.Request(key_type=0, coordinator_keys=[name])
        else:
            request = FIND_COORDINATOR.Request(key=name, key_type=0)
        return encode_request(FIND_COORDINATOR, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_consumer_metadata_response(cls, data: bytes, *,
                                          version: Optional[int] = None) -> ConsumerMetadataResponse:
        """Decode a FindCoordinator response into a :class:`~kafka.simple.common.ConsumerMetadataResponse`."""
        v = _version(FIND_COORDINATOR, version)
        response = _decode(FIND_COORDINATOR, data, v)
        if v >= 4:
            if not response.coordinators:
                raise ProtocolError("FindCoordinator response names no coordinator")
            c = response.coordinators[0]
            return ConsumerMetadataResponse(c.error_code, c.node_id, c.host, c.port)
        return ConsumerMetadataResponse(response.error_code, response.node_id, response.host, response.port)

    # -- OffsetCommit -----------------------------------------------------------

    @classmethod
    def encode_offset_commit_request(cls, client_id: Optional[Text], correlation_id: int, group: Text,
                                     payloads: Payloads, *, version: Optional[int] = None) -> bytes:
        """Encode an OffsetCommit request for some :class:`~kafka.simple.common.OffsetCommitRequest` payloads.

        :param group: the consumer group committing.
        :param payloads: ``OffsetCommitRequest(topic, partition, offset, metadata)`` tuples.
        :param version: OffsetCommit version, v2 when ``None``. The commit is
            made outside any group generation (generation -1, no member id),
            as 0.9.x consumers did; the broker keeps it for its default
            retention time.
        """
        v = _version(OFFSET_COMMIT, version)
        Topic = OFFSET_COMMIT.Request.OffsetCommitRequestTopic
        Partition = Topic.OffsetCommitRequestPartition
        topics = [
            Topic(name=topic, partitions=[
                Partition(partition_index=p.partition, committed_offset=p.offset,
                          committed_metadata=_text_or_none(p.metadata, "metadata"))
                for p in parts])
            for topic, parts in _group(payloads)
        ]
        request = OFFSET_COMMIT.Request(group_id=_text(group, "group"), generation_id_or_member_epoch=-1,
                                        member_id="", retention_time_ms=-1, topics=topics)
        return encode_request(OFFSET_COMMIT, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_offset_commit_response(cls, data: bytes, *,
                                      version: Optional[int] = None) -> List[OffsetCommitResponse]:
        """Decode an OffsetCommit response into a list of :class:`~kafka.simple.common.OffsetCommitResponse`."""
        v = _version(OFFSET_COMMIT, version)
        response = _decode(OFFSET_COMMIT, data, v)
        return [
            OffsetCommitResponse(topic.name, part.partition_index, part.error_code)
            for topic in response.topics
            for part in topic.partitions
        ]

    # -- OffsetFetch ----------------------------------------------------------

    @classmethod
    def encode_offset_fetch_request(cls, client_id: Optional[Text], correlation_id: int, group: Text,
                                    payloads: Payloads, from_kafka: bool = False, *,
                                    version: Optional[int] = None) -> bytes:
        """Encode an OffsetFetch request for some :class:`~kafka.simple.common.OffsetFetchRequest` payloads.

        :param group: the consumer group whose offsets to read.
        :param payloads: ``OffsetFetchRequest(topic, partition)`` tuples.
        :param from_kafka: in 0.9.x, false read offsets kept in ZooKeeper (v0)
            and true those kept by Kafka (v1). Brokers no longer keep offsets
            in ZooKeeper and Kafka 4.0 removed v0, so both now send v1, which
            reads the offsets Kafka keeps; pass ``version=0`` for the old call.
        :param version: OffsetFetch version, v1 when ``None``.
        """
        v = _version(OFFSET_FETCH, version)
        group_name = _text(group, "group")
        grouped = _group(payloads)
        if v >= 8:
            Group = OFFSET_FETCH.Request.OffsetFetchRequestGroup
            GroupTopic = Group.OffsetFetchRequestTopics
            request = OFFSET_FETCH.Request(groups=[Group(group_id=group_name, topics=[
                GroupTopic(name=topic, partition_indexes=[p.partition for p in parts])
                for topic, parts in grouped])])
        else:
            Topic = OFFSET_FETCH.Request.OffsetFetchRequestTopic
            request = OFFSET_FETCH.Request(group_id=group_name, topics=[
                Topic(name=topic, partition_indexes=[p.partition for p in parts])
                for topic, parts in grouped])
        return encode_request(OFFSET_FETCH, v, correlation_id, _client_id(client_id), request)

    @classmethod
    def decode_offset_fetch_response(cls, data: bytes, *,
                                     version: Optional[int] = None) -> List[OffsetFetchResponse]:
        """Decode an OffsetFetch response into a list of :class:`~kafka.simple.common.OffsetFetchResponse`.

        ``offset`` is -1 where the group has committed nothing. From v2 on a
        broker reports group-level errors once for the whole response: such an
        error is copied into every partition's ``error``, and raised as its
        exception class when the response lists no partition.
        """
        v = _version(OFFSET_FETCH, version)
        response = _decode(OFFSET_FETCH, data, v)
        out: List[OffsetFetchResponse] = []
        group_errors: List[int] = []
        if v >= 8:
            sections: List[Tuple[int, Any]] = [(g.error_code, g.topics) for g in response.groups]
        else:
            sections = [(response.error_code or 0, response.topics)]
        for group_error, topics in sections:
            group_errors.append(group_error)
            for topic in topics or ():
                for part in topic.partitions:
                    out.append(OffsetFetchResponse(topic.name, part.partition_index, part.committed_offset,
                                                   part.metadata, part.error_code or group_error))
        if not out:
            for code in group_errors:
                _raise_code(code, "OffsetFetch request failed")
        return out
