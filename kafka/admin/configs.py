"""Config operations: describe, alter (replace) and incrementally alter resource configs.

Configs of a BROKER (or BROKER_LOGGER) resource are sent to that broker;
the others to any broker.
"""

from __future__ import annotations

from typing import Any, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple, cast

from kafka import errors
from kafka.admin.base import AdminBase
from kafka.admin.resources import (AlterConfigOp, ConfigEntry, ConfigResource, ConfigResourceType, check_configs)
from kafka.admin.results import finish
from kafka.protocol.apis import ALTER_CONFIGS, DESCRIBE_CONFIGS, INCREMENTAL_ALTER_CONFIGS
from kafka.protocol.schema import Api

ResourceKey = Tuple[ConfigResourceType, str]
_PER_BROKER = (ConfigResourceType.BROKER, ConfigResourceType.BROKER_LOGGER)


def _resources(config_resources: Any, what: str) -> List[ConfigResource]:
    if isinstance(config_resources, ConfigResource):
        config_resources = [config_resources]
    try:
        resources = list(config_resources)
    except TypeError:
        raise errors.IllegalArgumentError("%s takes a list of ConfigResource, got %r"
                                          % (what, config_resources)) from None
    if not resources:
        raise errors.IllegalArgumentError("%s needs at least one ConfigResource" % what)
    seen = set()
    for resource in resources:
        if not isinstance(resource, ConfigResource):
            raise errors.IllegalArgumentError("%s takes ConfigResource objects, got %r" % (what, resource))
        if resource.key in seen:
            raise errors.IllegalArgumentError("%s names %s %r twice" % (what, resource.resource_type.name,
                                                                        resource.name))
        seen.add(resource.key)
    return resources


def resource_type(value: int) -> ConfigResourceType:
    """The resource type a broker names (UNKNOWN for a value this library does not know)."""
    try:
        return ConfigResourceType(value)
    except ValueError:
        return ConfigResourceType.UNKNOWN


def _describe(key: Hashable) -> str:
    kind, name = cast(Tuple[ConfigResourceType, str], key)
    return "%s %r" % (kind.name.lower(), name)


def _incremental_ops(resource: ConfigResource) -> List[Tuple[str, int, Optional[str]]]:
    configs = resource.configs
    if not isinstance(configs, Mapping) or not configs:
        raise errors.IllegalArgumentError("incremental_alter_configs: %r needs a non-empty configs mapping"
                                          % (resource,))
    ops = []
    for name, spec in configs.items():
        if isinstance(spec, tuple):
            if len(spec) != 2:
                raise errors.IllegalArgumentError("config %r: expected (AlterConfigOp, value), got %r" % (name, spec))
            try:
                op = AlterConfigOp(spec[0]) if not isinstance(spec[0], str) else AlterConfigOp[spec[0].upper()]
            except (KeyError, ValueError):
                raise errors.IllegalArgumentError("config %r: unknown operation %r" % (name, spec[0])) from None
            value = spec[1]
        else:
            op, value = (AlterConfigOp.DELETE, None) if spec is None else (AlterConfigOp.SET, spec)
        checked = check_configs({name: value}, "incremental_alter_configs")
        if op is not AlterConfigOp.DELETE and checked[name] is None:
            raise errors.IllegalArgumentError("config %r: %s needs a value" % (name, op.name))
        ops.append((name, int(op), checked[name]))
    return ops


def _config_entries(configs: Sequence[Any]) -> Dict[str, ConfigEntry]:
    """``{name: ConfigEntry}``, sorted by name, from a DescribeConfigs result's configs."""
    entries = {}
    for c in configs:
        synonyms = tuple((s.name, s.value, s.source) for s in (c.synonyms or ()))
        source = c.config_source if c.config_source is not None else -1
        is_default = bool(c.is_default) if source == -1 else source == 5
        entries[c.name] = ConfigEntry(c.name, c.value, source, bool(c.read_only), is_default,
                                      bool(c.is_sensitive), synonyms)
    return dict(sorted(entries.items()))


class ConfigsMixin(AdminBase):
    """Describe and alter configs of topics, brokers and other resources."""

    def _by_node(self, resources: Sequence[ConfigResource]) -> Dict[Optional[int], List[ConfigResource]]:
        groups: Dict[Optional[int], List[ConfigResource]] = {}
        for resource in resources:
            node = int(resource.name) if resource.resource_type in _PER_BROKER and resource.name else None
            groups.setdefault(node, []).append(resource)
        return groups

    def _config_call(self, api: Api, resources: Sequence[ConfigResource], build: Any, parse: Any) -> Dict[Any, Any]:
        results: Dict[Any, Any] = {}
        for node, group in self._by_node(resources).items():
            items = [(r.key, r) for r in group]
            target = node if node is not None else self._client.least_loaded_node()
            if target is None:
                raise errors.NoBrokersAvailable("no broker to send %s to" % api.name)
            results.update(self._send_items(api, items, build, parse, _describe, node=target, retry_codes=()))
        return {r.key: results[r.key] for r in resources}

    def describe_configs(self, config_resources: Sequence[ConfigResource], include_synonyms: bool = False,
                         raise_error: bool = True) -> Dict[ResourceKey, Any]:
        """Describe configs: ``{(resource_type, name): {config name: ConfigEntry}}``.

        A resource's ``configs`` (a list of names) narrows the answer to
        those names. A resource the broker cannot describe maps to its error
        (raised in an :class:`~kafka.admin.AdminResultError` unless
        ``raise_error=False``).
        """
        found = self._describe_configs(config_resources, include_synonyms)
        results = {key: value if isinstance(value, BaseException) else _config_entries(value)
                   for key, value in found.items()}
        return finish("describe_configs", results, raise_error)

    def _describe_configs(self, config_resources: Sequence[ConfigResource],
                          include_synonyms: bool) -> Dict[ResourceKey, Any]:
        """``{(resource_type, name): the broker's config list, or the exception}``."""
        resources = _resources(config_resources, "describe_configs")
        R = DESCRIBE_CONFIGS.Request

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            out = []
            for _, resource in items:
                keys = None if resource.configs is None else sorted(resource.configs)
                out.append(R.DescribeConfigsResource(resource_type=int(resource.resource_type),
                                                     resource_name=resource.name, configuration_keys=keys))
            return R(resources=out, include_synonyms=include_synonyms)

        def parse(response: Any) -> Dict[Hashable, Tuple[int, Optional[str], Any]]:
            out: Dict[Hashable, Tuple[int, Optional[str], Any]] = {}
            for result in response.results:
                key = (resource_type(result.resource_type), result.resource_name)
                out[key] = (result.error_code, result.error_message, list(result.configs or ()))
            return out

        return self._config_call(DESCRIBE_CONFIGS, resources, build, parse)

    def alter_configs(self, config_resources: Sequence[ConfigResource], validate_only: bool = False,
                      raise_error: bool = True) -> Dict[ResourceKey, Optional[BaseException]]:
        """Replace the whole dynamic config set of each resource with its ``configs``.

        Configs not named revert to their defaults: prefer
        :meth:`incremental_alter_configs` to change single entries. Returns
        ``{(resource_type, name): None}``; failures are reported per resource.
        """
        resources = _resources(config_resources, "alter_configs")
        for resource in resources:
            check_configs(resource.configs, "alter_configs %r" % (resource,))
        R = ALTER_CONFIGS.Request

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            return R(resources=[R.AlterConfigsResource(
                resource_type=int(r.resource_type), resource_name=r.name,
                configs=[R.AlterConfigsResource.AlterableConfig(name=k, value=v)
                         for k, v in check_configs(r.configs, "alter_configs").items()])
                for _, r in items], validate_only=validate_only)

        return finish("alter_configs", self._config_call(ALTER_CONFIGS, resources, build, _parse_alter), raise_error)

    def incremental_alter_configs(self, config_resources: Sequence[ConfigResource], validate_only: bool = False,
                                  raise_error: bool = True) -> Dict[ResourceKey, Optional[BaseException]]:
        """Change single config entries, leaving the others alone.

        Each resource's ``configs`` maps a name to a value (SET), to None
        (DELETE: back to the default) or to ``(AlterConfigOp, value)`` (APPEND
        and SUBTRACT work on list-valued configs). Returns
        ``{(resource_type, name): None}``; failures are reported per resource.
        """
        resources = _resources(config_resources, "incremental_alter_configs")
        plans = {r.key: _incremental_ops(r) for r in resources}
        R = INCREMENTAL_ALTER_CONFIGS.Request
        C = R.AlterConfigsResource.AlterableConfig

        def build(version: int, items: List[Tuple[Hashable, Any]]) -> Any:
            return R(resources=[R.AlterConfigsResource(
                resource_type=int(r.resource_type), resource_name=r.name,
                configs=[C(name=n, config_operation=op, value=v) for n, op, v in plans[r.key]])
                for _, r in items], validate_only=validate_only)

        return finish("incremental_alter_configs",
                      self._config_call(INCREMENTAL_ALTER_CONFIGS, resources, build, _parse_alter), raise_error)


def _parse_alter(response: Any) -> Dict[Hashable, Tuple[int, Optional[str], Any]]:
    return {(resource_type(r.resource_type), r.resource_name): (r.error_code, r.error_message, None)
            for r in response.responses}
