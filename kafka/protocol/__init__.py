"""The Kafka wire protocol, sans-IO: declarations, encoders, decoders, framing.

Nothing in this package opens a socket, starts a thread or reads a clock.

The simple layer's (kafka-python 0.9.x) names -- ``KafkaProtocol``, ``create_message``,
``create_gzip_message``, ``create_snappy_message``, ``create_message_set``,
the ``CODEC_*`` constants and ``ALL_CODECS`` -- are importable from here; they
live in :mod:`kafka.simple.protocol`, which is only loaded when one of them is
first used, so importing this package stays cheap.
"""

from typing import Any, List

# Names served lazily from kafka.simple.protocol (PEP 562).
_SIMPLE_LAYER_EXPORTS = (
    "KafkaProtocol",
    "create_message",
    "create_gzip_message",
    "create_snappy_message",
    "create_lz4_message",
    "create_zstd_message",
    "create_message_set",
    "ATTRIBUTE_CODEC_MASK",
    "CODEC_NONE",
    "CODEC_GZIP",
    "CODEC_SNAPPY",
    "CODEC_LZ4",
    "CODEC_ZSTD",
    "ALL_CODECS",
)

__all__ = list(_SIMPLE_LAYER_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _SIMPLE_LAYER_EXPORTS:
        from kafka.simple import protocol as simple_layer  # compatibility facade

        value = getattr(simple_layer, name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_SIMPLE_LAYER_EXPORTS))
