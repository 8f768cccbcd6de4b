"""librdkafka properties to the keywords of kafkawire's asyncio clients.

The checking and the first translation are :mod:`kafka.confluent.config`'s,
shared with the synchronous clients: :func:`~kafka.confluent.config.parse`
refuses what confluent-kafka refuses, and
:func:`~kafka.confluent.config.producer_settings` /
:func:`~kafka.confluent.config.consumer_settings` give kafka-python style
keywords. This module keeps the ones :class:`kafka.aio.AIOKafkaProducer` and
:class:`kafka.aio.AIOKafkaConsumer` take and turns the TLS file settings into
an :class:`ssl.SSLContext`. What the asyncio engine cannot do yet
(idempotence, transactions) is refused with ``_NOT_IMPLEMENTED``.
"""

from __future__ import annotations

import random
import ssl
from typing import Any, Callable, Dict, List, Optional

from kafka.confluent import config as conf_mod
from kafka.confluent.kafka_error import KafkaError, KafkaException
from kafka.confluent.partitioners import PARTITIONERS, RANDOM

__all__ = ["producer_keywords", "consumer_keywords", "not_implemented"]


def not_implemented(what: str) -> KafkaException:
    """A KafkaException with code ``_NOT_IMPLEMENTED`` naming what the asyncio engine lacks."""
    return KafkaException(KafkaError(KafkaError._NOT_IMPLEMENTED,  # type: ignore[attr-defined]
                                     "%s is not implemented by kafka.confluent.aio yet" % what))


def _ssl_context(settings: Dict[str, Any]) -> Optional[ssl.SSLContext]:
    """The TLS context the ``ssl_*`` settings describe (None without TLS)."""
    if settings["security_protocol"] not in ("SSL", "SASL_SSL"):
        return None
    context = ssl.create_default_context(cafile=settings.get("ssl_cafile"))
    context.check_hostname = bool(settings.get("ssl_check_hostname"))
    if settings.get("ssl_certfile"):
        context.load_cert_chain(settings["ssl_certfile"], settings.get("ssl_keyfile"), settings.get("ssl_password"))
    if settings.get("ssl_ciphers"):
        context.set_ciphers(settings["ssl_ciphers"])
    return context


def _common(settings: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {
        "bootstrap_servers": settings["bootstrap_servers"],
        "client_id": settings["client_id"] or "rdkafka",
        "retry_backoff_ms": settings["retry_backoff_ms"],
        "security_protocol": settings["security_protocol"],
        "ssl_context": _ssl_context(settings),
        "connections_max_idle_ms": settings["connections_max_idle_ms"],
    }
    if "metadata_max_age_ms" in settings:
        out["metadata_max_age_ms"] = settings["metadata_max_age_ms"]
    if settings["security_protocol"].startswith("SASL"):
        out["sasl_mechanism"] = settings["sasl_mechanism"]
        out["sasl_plain_username"] = settings["sasl_plain_username"]
        out["sasl_plain_password"] = settings["sasl_plain_password"]
        out["sasl_oauth_token_provider"] = settings.get("sasl_oauth_token_provider")
    return out


def producer_keywords(config: conf_mod.Config) -> Dict[str, Any]:
    """:class:`kafka.aio.AIOKafkaProducer` keywords for a checked producer configuration."""
    settings = conf_mod.producer_settings(config)
    if settings["enable_idempotence"]:
        raise not_implemented("enable.idempotence / transactional.id (the asyncio producer)")
    out = _common(settings)
    out.update(acks=settings["acks"], linger_ms=settings["linger_ms"], max_batch_size=settings["batch_size"],
               compression_type=settings["compression_type"], max_request_size=settings["max_request_size"],
               request_timeout_ms=settings["request_timeout_ms"],
               partitioner=EnginePartitioner(config.get("partitioner") or "consistent_random"))
    return out


class EnginePartitioner:
    """librdkafka's ``partitioner`` property as the asyncio engine's partitioner callable.

    Keys land where confluent-kafka puts them (:mod:`kafka.confluent.partitioners`);
    records the partitioner does not hash go to a random available partition
    (librdkafka sticks to one for ``sticky.partitioning.linger.ms``; not yet here).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._choose: Callable[[Optional[bytes], int], int] = PARTITIONERS[name]

    def __call__(self, key: Optional[bytes], all_partitions: List[int], available: List[int]) -> int:
        index = self._choose(key, len(all_partitions))
        if index != RANDOM:
            return all_partitions[index]
        return random.choice(available or all_partitions)


def consumer_keywords(config: conf_mod.Config) -> Dict[str, Any]:
    """:class:`kafka.aio.AIOKafkaConsumer` keywords for a checked consumer configuration."""
    settings = conf_mod.consumer_settings(config)
    out = _common(settings)
    out.update(group_id=settings["group_id"], auto_offset_reset=settings["auto_offset_reset"],
               enable_auto_commit=settings["enable_auto_commit"],
               auto_commit_interval_ms=settings["auto_commit_interval_ms"],
               fetch_min_bytes=settings["fetch_min_bytes"], fetch_max_wait_ms=settings["fetch_max_wait_ms"],
               fetch_max_bytes=settings["fetch_max_bytes"],
               max_partition_fetch_bytes=settings["max_partition_fetch_bytes"],
               isolation_level=settings["isolation_level"], check_crcs=settings["check_crcs"])
    return out


def message_timeout(config: conf_mod.Config) -> float:
    """``message.timeout.ms`` in seconds (0, librdkafka's "forever", as a very long time)."""
    ms = config.get_int("message.timeout.ms")
    return ms / 1000.0 if ms > 0 else float(2 ** 31)
