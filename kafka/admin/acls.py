"""ACL operations: describe, create and delete ACL bindings (sent to any broker)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from kafka import errors
from kafka.admin.acl_resource import (ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType,
                             ResourcePattern, ResourceType)
from kafka.admin.base import AdminBase, broker_error
from kafka.admin.results import finish
from kafka.protocol.apis import CREATE_ACLS, DELETE_ACLS, DESCRIBE_ACLS


def _enum(cls: Any, value: int) -> Any:
    try:
        return cls(value)
    except ValueError:
        return cls.UNKNOWN


def _acl(resource_type: int, name: str, pattern_type: int, principal: str, host: str, operation: int,
         permission: int) -> ACL:
    # Built without validation: the broker's answer is what it is.
    pattern = ResourcePattern.__new__(ResourcePattern)
    for field, value in (("resource_type", _enum(ResourceType, resource_type)), ("resource_name", name),
                         ("pattern_type", _enum(ACLResourcePatternType, pattern_type))):
        object.__setattr__(pattern, field, value)
    acl = ACL.__new__(ACL)
    for field, value in (("principal", principal), ("host", host), ("operation", _enum(ACLOperation, operation)),
                         ("permission_type", _enum(ACLPermissionType, permission)), ("resource_pattern", pattern)):
        object.__setattr__(acl, field, value)
    return acl


def _filter_fields(f: ACLFilter) -> Dict[str, Any]:
    p = f.resource_pattern
    return dict(resource_type_filter=int(p.resource_type), resource_name_filter=p.resource_name,
                pattern_type_filter=int(p.pattern_type), principal_filter=f.principal, host_filter=f.host,
                operation=int(f.operation), permission_type=int(f.permission_type))


def _check_filter(f: Any, what: str) -> ACLFilter:
    if not isinstance(f, ACLFilter):
        raise errors.IllegalArgumentError("%s takes ACLFilter objects, got %r" % (what, f))
    return f


class AclsMixin(AdminBase):
    """ACL administration (needs a broker with an authorizer configured)."""

    def describe_acls(self, acl_filter: ACLFilter) -> List[ACL]:
        """The ACL bindings matching ``acl_filter``."""
        _check_filter(acl_filter, "describe_acls")
        response = self._send_any(DESCRIBE_ACLS, lambda v: DESCRIBE_ACLS.Request(**_filter_fields(acl_filter)))
        if response.error_code:
            raise broker_error(response.error_code, response.error_message, "describe_acls")
        return [_acl(r.resource_type, r.resource_name, r.pattern_type, a.principal, a.host, a.operation,
                     a.permission_type) for r in response.resources for a in r.acls]

    def create_acls(self, acls: Sequence[ACL], raise_error: bool = True) -> Dict[ACL, Optional[BaseException]]:
        """Create ACL bindings: ``{ACL: None}``; failures are reported per ACL."""
        items = [acls] if isinstance(acls, ACL) else list(acls)
        if not items:
            raise errors.IllegalArgumentError("create_acls needs at least one ACL")
        for acl in items:
            if not isinstance(acl, ACL):
                raise errors.IllegalArgumentError("create_acls takes ACL objects, got %r" % (acl,))
        R = CREATE_ACLS.Request
        response = self._send_any(CREATE_ACLS, lambda v: R(creations=[R.AclCreation(
            resource_type=int(a.resource_pattern.resource_type), resource_name=a.resource_pattern.resource_name,
            resource_pattern_type=int(a.resource_pattern.pattern_type), principal=a.principal, host=a.host,
            operation=int(a.operation), permission_type=int(a.permission_type)) for a in items]))
        if len(response.results) != len(items):
            raise errors.ProtocolError("CreateAcls answered %d results for %d ACLs"
                                       % (len(response.results), len(items)))
        results: Dict[ACL, Any] = {}
        for acl, result in zip(items, response.results):
            results[acl] = broker_error(result.error_code, result.error_message, "ACL %s" % (acl,)) \
                if result.error_code else None
        return finish("create_acls", results, raise_error)

    def delete_acls(self, acl_filters: Sequence[ACLFilter], raise_error: bool = True) -> Dict[ACLFilter, Any]:
        """Delete the bindings matching each filter: ``{ACLFilter: [deleted ACL, ...]}``."""
        items = [acl_filters] if isinstance(acl_filters, ACLFilter) else list(acl_filters)
        if not items:
            raise errors.IllegalArgumentError("delete_acls needs at least one ACLFilter")
        for f in items:
            _check_filter(f, "delete_acls")
        R = DELETE_ACLS.Request
        response = self._send_any(DELETE_ACLS, lambda v: R(filters=[R.DeleteAclsFilter(**_filter_fields(f))
                                                                     for f in items]))
        if len(response.filter_results) != len(items):
            raise errors.ProtocolError("DeleteAcls answered %d results for %d filters"
                                       % (len(response.filter_results), len(items)))
        results: Dict[ACLFilter, Any] = {}
        for f, result in zip(items, response.filter_results):
            if result.error_code:
                results[f] = broker_error(result.error_code, result.error_message, "ACL filter %s" % (f,))
                continue
            results[f] = [_acl(m.resource_type, m.resource_name, m.pattern_type, m.principal, m.host, m.operation,
                               m.permission_type) for m in result.matching_acls]
        return finish("delete_acls", results, raise_error)
