"""The enumerations kafka-python 3's admin client exports (group states and types, config kinds).

kafkawire's admin operations take plain strings and ints; these classes give
programs written for kafka-python the names they import from
:mod:`kafka.admin`. The group enums are ``str`` enums whose ``str()`` is the
broker's spelling, so they can be passed wherever a state or type name is
taken (``list_groups(states_filter=[GroupState.STABLE])``); the config enums
are ``int`` enums with the DescribeConfigs wire values.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any, Type, TypeVar

_E = TypeVar("_E", bound=Enum)


def _lookup(cls: Type[_E], value: Any) -> _E:
    """``value`` as a member of ``cls``: a member, a wire value, or a name in any case with ``-`` for ``_``."""
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        pass
    try:
        return cls[str(value).strip().upper().replace("-", "_")]
    except KeyError:
        raise ValueError("Unrecognized %s: %r" % (cls.__name__, value)) from None


class _Lookup:
    """``build_from`` and ``value_for``, the two lookups kafka-python's enums offer."""

    @classmethod
    def build_from(cls, value: Any) -> Any:
        """The member for ``value`` (a member, a wire value or a name); ValueError if none."""
        return _lookup(cls, value)  # type: ignore[type-var]

    @classmethod
    def value_for(cls, value: Any) -> Any:
        """The wire value of the member :meth:`build_from` finds."""
        return _lookup(cls, value).value  # type: ignore[type-var,attr-defined]


class GroupState(_Lookup, str, Enum):
    """A consumer group's state as ListGroups/DescribeGroups report it (KIP-518, KIP-848)."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"

    def __str__(self) -> str:
        return str(self.value)


class GroupType(_Lookup, str, Enum):
    """A group's protocol type (KIP-848)."""

    UNKNOWN = "Unknown"
    CLASSIC = "classic"
    CONSUMER = "consumer"
    SHARE = "share"

    def __str__(self) -> str:
        return str(self.value)


class ConfigType(_Lookup, IntEnum):
    """The type of a config value (DescribeConfigs v3+)."""

    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class ConfigSourceType(_Lookup, IntEnum):
    """Where a config value comes from (kafka-python's names for :class:`~kafka.admin.ConfigSource`)."""

    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    DYNAMIC_CLIENT_METRICS_CONFIG = 7
    DYNAMIC_GROUP_CONFIG = 8

    def is_modified(self) -> bool:
        """True unless the value is a default or comes from the broker's static file."""
        return self not in (ConfigSourceType.DYNAMIC_DEFAULT_BROKER_CONFIG,
                            ConfigSourceType.STATIC_BROKER_CONFIG, ConfigSourceType.DEFAULT_CONFIG)


class ConfigFilterType(_Lookup, IntEnum):
    """Which configs ``describe_configs(config_filter=...)`` keeps."""

    ALL = 0
    DYNAMIC = 1
    MODIFIED = 2
    DEFAULT = 3
    STATIC = 4

    def should_skip(self, source: Any) -> bool:
        """Whether a config whose source is ``source`` (a :class:`ConfigSourceType` or its value) is left out.

        (``DYNAMIC`` also drops read-only configs, which the source alone cannot tell.)
        """
        src = ConfigSourceType.build_from(source)
        if self is ConfigFilterType.MODIFIED:
            return not src.is_modified()
        if self is ConfigFilterType.DEFAULT:
            return bool(src.is_modified())
        if self is ConfigFilterType.STATIC:
            return src is not ConfigSourceType.STATIC_BROKER_CONFIG
        return False


__all__ = ["GroupState", "GroupType", "ConfigType", "ConfigSourceType", "ConfigFilterType"]
