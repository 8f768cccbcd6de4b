"""kafka.aio.client: bootstrap, metadata, leaders, reconnecting."""

from __future__ import annotations

import pytest

from kafka.aio.client import AsyncClient
from kafka.errors import KafkaConnectionError, UnknownTopicOrPartitionError
from kafka.structs import TopicPartition
from test.aio.helpers import run
from test.support.topics import new_topic


def test_bootstrap_learns_the_brokers_and_a_topic_s_leaders(broker) -> None:
    topic = new_topic(broker, partitions=3, prefix="aio-client")

    async def main() -> None:
        client = AsyncClient(broker.bootstrap_servers)
        try:
            await client.bootstrap()
            assert [(b.host, b.port) for b in client.cluster.brokers()] == [(broker.host, broker.port)]
            assert await client.wait_for_topic(topic, 10) == {0, 1, 2}
            node = next(iter(client.cluster.brokers())).nodeId
            assert all(client.cluster.leader_for_partition(TopicPartition(topic, p)) == node for p in range(3))
        finally:
            await client.close()

    run(main())


def test_a_broken_connection_is_made_again(broker) -> None:
    async def main() -> None:
        client = AsyncClient(broker.bootstrap_servers)
        try:
            await client.bootstrap()
            node = next(iter(client.cluster.brokers())).nodeId
            first = await client.connection(node)
            assert await client.connection(node) is first
            first.close(KafkaConnectionError("cut by the test"))
            second = await client.connection(node)
            assert second is not first and second.connected
            await client.refresh_metadata()
        finally:
            await client.close()

    run(main())


def test_concurrent_callers_share_one_connection_attempt(broker) -> None:
    import asyncio

    async def main() -> None:
        client = AsyncClient(broker.bootstrap_servers)
        try:
            await client.bootstrap()
            node = next(iter(client.cluster.brokers())).nodeId
            conns = await asyncio.gather(*(client.connection(node) for _ in range(10)))
            assert len({id(c) for c in conns}) == 1
        finally:
            await client.close()

    run(main())


def test_bootstrap_names_every_address_that_failed(broker_binary) -> None:
    from kafka.testing.broker import free_port

    ports = [free_port(), free_port()]

    async def main() -> None:
        client = AsyncClient(["127.0.0.1:%d" % p for p in ports], request_timeout_ms=2000)
        with pytest.raises(KafkaConnectionError) as info:
            await client.bootstrap()
        assert all(str(p) in str(info.value) for p in ports)
        await client.close()

    run(main())


def test_a_topic_that_stays_unknown_raises_unknown_topic(broker) -> None:
    async def main() -> None:
        client = AsyncClient(broker.bootstrap_servers, allow_auto_create_topics=False, retry_backoff_ms=50)
        try:
            await client.bootstrap()
            with pytest.raises(UnknownTopicOrPartitionError):
                await client.wait_for_topic("an invalid name!", 0.5)
        finally:
            await client.close()

    run(main())
