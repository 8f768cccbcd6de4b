"""kafka.aio.connection: the handshake, pipelined requests, cancellation, timeouts and failures."""

from __future__ import annotations

import asyncio

import pytest

from kafka.aio.connection import AsyncConnection
from kafka.errors import KafkaConnectionError, KafkaTimeoutError, RequestTimedOutError
from kafka.protocol.apis import API_VERSIONS, METADATA, PRODUCE
from test.aio.helpers import run


def _metadata_request() -> object:
    return METADATA.Request(topics=[], allow_auto_topic_creation=False)


def test_handshake_negotiates_versions_and_requests_are_answered(broker) -> None:
    async def main() -> None:
        conn = AsyncConnection(broker.host, broker.port)
        await conn.connect(10)
        try:
            assert conn.connected
            assert conn.versions is not None and conn.versions.supports(PRODUCE)
            response = await conn.request(METADATA, _metadata_request())
            assert [b.port for b in response.brokers] == [broker.port]
        finally:
            conn.close()
            await conn.wait_closed()
        assert conn.closed and not conn.connected

    run(main())


def test_pipelined_requests_each_get_their_own_answer(broker) -> None:
    async def main() -> None:
        conn = AsyncConnection(broker.host, broker.port)
        await conn.connect(10)
        try:
            versions = [0, 1, 2] * 10
            answers = await asyncio.gather(*(conn.request(API_VERSIONS, API_VERSIONS.Request(), version=v)
                                             for v in versions))
            assert all(a.error_code == 0 for a in answers)
            assert conn.in_flight == 0
        finally:
            conn.close()

    run(main())


def test_a_cancelled_request_leaves_the_connection_usable(broker) -> None:
    async def main() -> None:
        conn = AsyncConnection(broker.host, broker.port)
        await conn.connect(10)
        try:
            task = asyncio.ensure_future(conn.request(METADATA, _metadata_request()))
            await asyncio.sleep(0)  # written, not answered yet
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            response = await conn.request(METADATA, _metadata_request())
            assert response.brokers
            assert conn.connected
        finally:
            conn.close()

    run(main())


def test_unreachable_broker_raises_a_connection_error(broker_binary) -> None:
    from kafka.testing.broker import free_port

    async def main() -> None:
        conn = AsyncConnection("127.0.0.1", free_port())
        with pytest.raises(KafkaConnectionError):
            await conn.connect(5)
        assert conn.closed
        with pytest.raises(KafkaConnectionError):
            await conn.request(METADATA, _metadata_request())

    run(main())


async def _silent_peer() -> "asyncio.AbstractServer":
    """A TCP server that reads everything and never answers."""

    async def swallow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(65536):
            pass
        writer.close()

    return await asyncio.start_server(swallow, "127.0.0.1", 0)


def test_a_peer_that_never_answers_times_the_set_up_out() -> None:
    async def main() -> None:
        server = await _silent_peer()
        port = server.sockets[0].getsockname()[1]
        try:
            conn = AsyncConnection("127.0.0.1", port)
            with pytest.raises(KafkaTimeoutError):
                await conn.connect(0.3)
            assert conn.closed
        finally:
            server.close()
            await server.wait_closed()

    run(main())


async def _versions_only_peer() -> "asyncio.AbstractServer":
    """A peer that answers ApiVersions (offering Metadata v0-12) and then nothing else."""
    import struct

    from kafka.protocol.framing import decode_request_header, encode_response

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                size = struct.unpack(">i", await reader.readexactly(4))[0]
                frame = await reader.readexactly(size)
                header, _pos = decode_request_header(frame, lambda key, version: False)
                if header.api_key != API_VERSIONS.key:
                    continue  # never answered
                keys = [API_VERSIONS.Response.ApiVersion(api_key=API_VERSIONS.key, min_version=0, max_version=3),
                        API_VERSIONS.Response.ApiVersion(api_key=METADATA.key, min_version=0, max_version=12)]
                answer = API_VERSIONS.Response(error_code=0, api_keys=keys, throttle_time_ms=0)
                writer.write(encode_response(API_VERSIONS, header.api_version, header.correlation_id, answer))
        except asyncio.IncompleteReadError:
            writer.close()

    return await asyncio.start_server(serve, "127.0.0.1", 0)


def test_a_request_left_unanswered_times_out_and_closes_the_connection() -> None:
    async def main() -> None:
        server = await _versions_only_peer()
        port = server.sockets[0].getsockname()[1]
        try:
            conn = AsyncConnection("127.0.0.1", port, request_timeout_ms=300)
            await conn.connect(5)
            first = asyncio.ensure_future(conn.request(METADATA, _metadata_request()))
            with pytest.raises(RequestTimedOutError):
                await conn.request(METADATA, _metadata_request())
            assert conn.closed
            with pytest.raises((RequestTimedOutError, KafkaConnectionError)):
                await first
        finally:
            server.close()
            await server.wait_closed()

    run(main())
