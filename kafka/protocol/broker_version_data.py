"""Which Kafka release a broker is, told from its ApiVersions answer (kafka-python 3's ``BrokerVersionData``).

kafkawire negotiates each API's version from the broker's ranges and never
needs a release number; programs written for kafka-python read one
(``consumer.config['api_version']`` after bootstrap, ``BrokerVersionData(v).broker_version``),
so this module names the release the way kafka-python does: the newest
release whose marker (an API version that release introduced) the broker
offers.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, Mapping, Optional, Tuple

from kafka.errors import IncompatibleBrokerVersion, KafkaConfigurationError, UnrecognizedBrokerVersion

Version = Tuple[int, ...]
Ranges = Mapping[int, Tuple[int, int]]

#: Kafka releases kafka-python 3 knows by number, oldest first.
KNOWN_RELEASES: Tuple[Version, ...] = (
    (0, 8, 0), (0, 8, 1), (0, 8, 2), (0, 9), (0, 10, 0), (0, 10, 1), (0, 10, 2), (0, 11),
    (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (2, 7), (2, 8),
    (3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (3, 8), (3, 9),
    (4, 0), (4, 1), (4, 2), (4, 3),
)

#: Release -> (API key, version) that release was the first to accept. Keys:
#: 0 Produce, 1 Fetch, 2 ListOffsets, 3 Metadata, 4 LeaderAndIsr, 9 OffsetFetch,
#: 11 JoinGroup, 24 AddPartitionsToTxn, 29 DescribeAcls, 35 DescribeLogDirs, 48 DescribeClientQuotas.
RELEASE_MARKERS: Dict[Version, Tuple[int, int]] = {
    (4, 3): (35, 5), (4, 2): (2, 11), (4, 1): (0, 13), (4, 0): (2, 10),
    (3, 9): (1, 17), (3, 8): (0, 11), (3, 7): (1, 16), (3, 6): (24, 4), (3, 5): (1, 15),
    (3, 4): (4, 7), (3, 3): (29, 3), (3, 2): (11, 9), (3, 1): (1, 13), (3, 0): (2, 7),
    (2, 8): (0, 9), (2, 7): (1, 12), (2, 6): (48, 0), (2, 5): (29, 2), (2, 4): (0, 8),
    (2, 3): (1, 11), (2, 2): (2, 5), (2, 1): (1, 10), (2, 0): (1, 8), (1, 1): (1, 7),
    (1, 0): (3, 5), (0, 11): (3, 4), (0, 10, 2): (9, 2), (0, 10, 1): (3, 2),
}

#: What a broker that answers ApiVersions but matches no marker is taken to be.
OLDEST_WITH_API_VERSIONS: Version = (0, 10, 0)


def infer_broker_version(ranges: Ranges) -> Version:
    """The newest release whose marker ``ranges`` (API key -> (min, max)) covers."""
    for release in sorted(RELEASE_MARKERS, reverse=True):
        key, version = RELEASE_MARKERS[release]
        span = ranges.get(key)
        if span is not None and span[0] <= version <= span[1]:
            return release
    return OLDEST_WITH_API_VERSIONS


def known_release(version: Any) -> Version:
    """``version`` (a tuple, or a string like ``"2.5.0"``) as the release kafka-python would name.

    An exact known release stays; ``(0, 10)`` becomes ``(0, 10, 0)``; any other
    version becomes the newest known release not after it. Raises
    :class:`~kafka.errors.UnrecognizedBrokerVersion` for one older than all.
    """
    if isinstance(version, str):
        version = tuple(int(part) for part in version.split("."))
    if not isinstance(version, tuple):
        raise KafkaConfigurationError("api_version must be tuple")
    if version in KNOWN_RELEASES:
        return version
    if version + (0,) in KNOWN_RELEASES:
        return version + (0,)
    earlier = [release for release in KNOWN_RELEASES if release <= version]
    if not earlier:
        raise UnrecognizedBrokerVersion(version)
    return max(earlier)


@functools.total_ordering
class BrokerVersionData:
    """A broker's release number and (when known) its ApiVersions ranges.

    ``BrokerVersionData(api_versions={key: (min, max), ...})`` infers the
    release from the ranges; ``BrokerVersionData((3, 9, 0))`` names the known
    release for a version number (``(3, 9)`` here), as kafka-python does.
    Built from a number alone it knows no ranges (``api_versions`` is None);
    kafka-python fills in the ranges of that release from a table instead.
    """

    __slots__ = ("broker_version", "api_versions")

    def __init__(self, broker_version: Any = None, api_versions: Optional[Ranges] = None) -> None:
        if broker_version == "auto":
            broker_version = None
        if broker_version is None and api_versions is None:
            raise ValueError("BrokerVersionData needs a broker_version or api_versions")
        self.api_versions: Optional[Dict[int, Tuple[int, int]]] = (
            None if api_versions is None else {int(k): (int(v[0]), int(v[1])) for k, v in api_versions.items()})
        self.broker_version: Version = (
            infer_broker_version(api_versions) if broker_version is None  # type: ignore[arg-type]
            else known_release(broker_version))

    def api_version(self, api: Any, min_version: int = 0, max_version: float = float("inf")) -> int:
        """The highest version of ``api`` both this library and the broker accept, within the bounds given.

        ``api`` is a :class:`~kafka.protocol.schema.Api` (for example
        ``kafka.protocol.apis.METADATA``) or an API key. Raises
        :class:`~kafka.errors.IncompatibleBrokerVersion` when there is none, ValueError
        when ``min_version > max_version``.
        """
        if min_version > max_version:
            raise ValueError("min_version must not be greater than max_version")
        key = api if isinstance(api, int) else api.key
        name = getattr(api, "name", "api key %s" % key)
        ours = (0, float("inf")) if isinstance(api, int) else (api.min_send, api.max_version)
        low = max(min_version, ours[0])
        high = min(max_version, ours[1])
        if self.api_versions is None:
            if low > high:
                raise IncompatibleBrokerVersion("no version of %s lies in [%s, %s]" % (name, min_version, max_version))
            return int(high)
        span = self.api_versions.get(key)
        if span is None:
            raise IncompatibleBrokerVersion("Kafka broker does not support the %r Kafka protocol." % (name,))
        if low > span[1] or high < span[0]:
            raise IncompatibleBrokerVersion(
                "No version of the %r Kafka protocol is supported by both the client [%s-%s] and broker [%s-%s]."
                % (name, low, high, span[0], span[1]))
        return int(min(high, span[1]))

    @property
    def broker_version_str(self) -> str:
        """The release as ``"3.9"``."""
        return ".".join(map(str, self.broker_version))

    def __str__(self) -> str:
        return "<BrokerVersionData %s>" % self.broker_version_str

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BrokerVersionData):
            return NotImplemented
        return self.broker_version == other.broker_version and self.api_versions == other.api_versions

    def __lt__(self, other: "BrokerVersionData") -> bool:
        return self.broker_version < other.broker_version

    def __hash__(self) -> int:
        return hash(self.broker_version)


__all__ = ["BrokerVersionData", "KNOWN_RELEASES", "RELEASE_MARKERS", "infer_broker_version", "known_release"]
