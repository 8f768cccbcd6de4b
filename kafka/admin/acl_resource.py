"""Access control list values: resource patterns, ACL bindings and the filters that match them.

The names follow kafka-python: an :class:`ACL` binds a principal, host,
operation and permission to a :class:`ResourcePattern`; an :class:`ACLFilter`
(with a :class:`ResourcePatternFilter`) matches bindings for describe and
delete and may use the ``ANY`` values and ``None`` as wildcards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Dict, Optional, Set, Type, TypeVar

from kafka.errors import IllegalArgumentError


class ResourceType(IntEnum):
    """The kind of resource an ACL protects (protocol values)."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class ACLOperation(IntEnum):
    """An operation an ACL allows or denies."""

    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class ACLPermissionType(IntEnum):
    """Whether an ACL allows or denies its operation."""

    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


class ACLResourcePatternType(IntEnum):
    """How an ACL's resource name is matched: exactly (LITERAL) or as a prefix (PREFIXED)."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


_E = TypeVar("_E", bound=IntEnum)


def _enum(cls: Type[_E], value: Any, what: str) -> _E:
    if isinstance(value, cls):
        return value
    try:
        if isinstance(value, str):
            return cls[value.upper()]
        if isinstance(value, int) and not isinstance(value, bool):
            return cls(value)
    except (KeyError, ValueError):
        pass
    raise IllegalArgumentError("%s: %r is not one of %s" % (what, value, ", ".join(m.name for m in cls)))


#: The values only a filter may use, by field: an ACL needs a concrete resource type, pattern type,
#: operation and permission (and no UNKNOWN). kafka.confluent's AclBinding follows the same rule.
FILTER_ONLY: Dict[str, Set[IntEnum]]
FILTER_ONLY = {"resource_type": {ResourceType.ANY}, "pattern_type": {ACLResourcePatternType.ANY,
                                                                      ACLResourcePatternType.MATCH},
               "operation": {ACLOperation.ANY}, "permission_type": {ACLPermissionType.ANY}}


def _check_concrete(field: str, value: IntEnum) -> None:
    if value == 0 or value in FILTER_ONLY.get(field, ()):
        raise IllegalArgumentError("%s %s is only valid in a filter; an ACL needs a concrete value"
                                   % (field, value.name))


@dataclass(frozen=True)
class ResourcePatternFilter:
    """Matches resource patterns: ``None`` name and ``ANY`` types match everything."""

    resource_type: ResourceType
    resource_name: Optional[str]
    pattern_type: ACLResourcePatternType = ACLResourcePatternType.LITERAL

    def __post_init__(self) -> None:
        object.__setattr__(self, "resource_type", _enum(ResourceType, self.resource_type, "resource_type"))
        object.__setattr__(self, "pattern_type", _enum(ACLResourcePatternType, self.pattern_type, "pattern_type"))
        if self.resource_name is not None and not isinstance(self.resource_name, str):
            raise IllegalArgumentError("resource_name must be a string or None, got %r" % (self.resource_name,))
        self.validate()

    def validate(self) -> None:
        """Raise :class:`IllegalArgumentError` if the pattern is not usable."""
        if self.resource_type is ResourceType.UNKNOWN or self.pattern_type is ACLResourcePatternType.UNKNOWN:
            raise IllegalArgumentError("a resource pattern cannot use UNKNOWN values")


@dataclass(frozen=True)
class ResourcePattern(ResourcePatternFilter):
    """A concrete resource an ACL applies to: a type, a name and LITERAL or PREFIXED matching."""

    resource_name: str

    def validate(self) -> None:
        if not isinstance(self.resource_name, str) or not self.resource_name:
            raise IllegalArgumentError("a resource pattern needs a non-empty resource_name")
        _check_concrete("resource_type", self.resource_type)
        _check_concrete("pattern_type", self.pattern_type)


@dataclass(frozen=True)
class ACLFilter:
    """Matches ACL bindings: ``None`` principal/host and ``ANY`` values are wildcards."""

    principal: Optional[str]
    host: Optional[str]
    operation: ACLOperation
    permission_type: ACLPermissionType
    resource_pattern: ResourcePatternFilter

    def __post_init__(self) -> None:
        object.__setattr__(self, "operation", _enum(ACLOperation, self.operation, "operation"))
        object.__setattr__(self, "permission_type",
                           _enum(ACLPermissionType, self.permission_type, "permission_type"))
        for name in ("principal", "host"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise IllegalArgumentError("%s must be a string or None, got %r" % (name, value))
        if not isinstance(self.resource_pattern, ResourcePatternFilter):
            raise IllegalArgumentError("resource_pattern must be a ResourcePattern(Filter), got %r"
                                       % (self.resource_pattern,))
        self.validate()

    def validate(self) -> None:
        """Raise :class:`IllegalArgumentError` if the filter is not usable."""
        if self.operation is ACLOperation.UNKNOWN or self.permission_type is ACLPermissionType.UNKNOWN:
            raise IllegalArgumentError("an ACL filter cannot use UNKNOWN values")


@dataclass(frozen=True)
class ACL(ACLFilter):
    """An ACL binding: ``principal`` (e.g. ``"User:alice"``) may (not) do ``operation``
    from ``host`` (``"*"`` for any) on ``resource_pattern``."""

    principal: str
    host: str
    resource_pattern: ResourcePattern

    def validate(self) -> None:
        if not isinstance(self.principal, str) or ":" not in self.principal:
            raise IllegalArgumentError("an ACL principal looks like 'User:name', got %r" % (self.principal,))
        if not isinstance(self.host, str) or not self.host:
            raise IllegalArgumentError("an ACL needs a host ('*' for any host)")
        if not isinstance(self.resource_pattern, ResourcePattern):
            raise IllegalArgumentError("an ACL needs a concrete ResourcePattern, not a filter")
        _check_concrete("operation", self.operation)
        _check_concrete("permission_type", self.permission_type)


__all__ = ["ACL", "ACLFilter", "ResourcePattern", "ResourcePatternFilter", "ResourceType", "ACLOperation",
           "ACLPermissionType", "ACLResourcePatternType"]
