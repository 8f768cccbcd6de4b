"""kafka-python 3's config methods: ``describe_configs``, ``alter_configs`` and ``reset_configs`` results."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from kafka import errors
from kafka.admin.configs import ConfigsMixin
from kafka.admin.kafka_python.forms import kafkawire_form
from kafka.admin.kafka_python.shapes import config_dict
from kafka.admin.resources import ConfigResource

#: Config sources kafka-python counts as "modified" (not a default, not static).
_UNMODIFIED = ("DYNAMIC_DEFAULT_BROKER_CONFIG", "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG")


_FILTERS = ("all", "modified", "default", "dynamic", "static")


def _keep(config: Mapping[str, Any], config_filter: str) -> bool:
    source = config["config_source"]
    if config_filter == "all":
        return True
    if config_filter == "modified":
        return source not in _UNMODIFIED
    if config_filter == "default":
        return source in _UNMODIFIED
    if config_filter == "dynamic":
        return not config["read_only"] and source not in _UNMODIFIED
    return source == "STATIC_BROKER_CONFIG"


def _filter_name(config_filter: Any) -> str:
    name = str(getattr(config_filter, "name", config_filter)).lower()
    if name not in _FILTERS:
        raise errors.IllegalArgumentError("config_filter must be one of %s; got %r"
                                          % (", ".join(_FILTERS), config_filter))
    return name


def _outcome_text(outcome: Optional[BaseException]) -> str:
    return "OK" if outcome is None else str(outcome)


class KafkaPythonConfigs(ConfigsMixin):
    """Config results in kafka-python's ``{resource type: {name: ...}}`` shape."""

    def describe_configs(self, config_resources: Sequence[ConfigResource],  # type: ignore[override]
                         include_synonyms: bool = False, config_filter: Any = "modified",
                         raise_error: Optional[bool] = None) -> Dict[Any, Any]:
        """Describe configs as kafka-python: ``{'topic': {name: {config name: {...}}}}``.

        Each config is a dict with ``value``, ``read_only``,
        ``config_source`` and ``config_type`` (names), ``is_sensitive``,
        ``synonyms`` and ``documentation``. ``config_filter`` keeps
        ``'modified'`` configs by default (not defaults, not static), or
        ``'all'``, ``'default'``, ``'dynamic'``, ``'static'``. A resource the
        broker could not describe raises. Passing kafkawire's
        ``raise_error`` instead returns ``{(type, name): {name: ConfigEntry}}``
        with every entry.
        """
        if kafkawire_form(raise_error):
            return super().describe_configs(config_resources, include_synonyms, raise_error=bool(raise_error))
        wanted = _filter_name(config_filter)
        found = self._describe_configs(config_resources, include_synonyms)
        out: Dict[str, Dict[str, Any]] = {}
        for (kind, name), configs in found.items():
            if isinstance(configs, BaseException):
                raise configs
            entries = {c.name: config_dict(c) for c in configs}
            out.setdefault(kind.name.lower(), {})[name] = {
                key: entry for key, entry in entries.items() if _keep(entry, wanted)}
        return out

    def alter_configs(self, config_resources: Sequence[ConfigResource],  # type: ignore[override]
                      validate_only: bool = False, raise_on_unknown: bool = True, incremental: Optional[bool] = None,
                      *, raise_error: Optional[bool] = None) -> Dict[Any, Any]:
        """Change each resource's configs, as kafka-python 3 does (see the kafkawire form below).

        Each resource's ``configs`` maps a key to a value (SET) or to
        ``(AlterConfigOp or its name, value)``. ``raise_on_unknown`` first
        checks every key against the resource's writable configs and raises
        ``ValueError`` naming those it does not have. ``incremental``: True
        sends IncrementalAlterConfigs (only the keys given change); False the
        full AlterConfigs, with the resource's other modified configs added so
        that they keep their values (values only, SET); None (default) the
        incremental form, or the full one from a broker without it.
        Returns kafka-python's ``{'topic': {name: 'OK' or the error's text}}``.

        Passing kafkawire's ``raise_error`` instead sends the full
        AlterConfigs as given (configs not named revert to their defaults)
        and returns ``{(type, name): None or error}``; use
        :meth:`incremental_alter_configs` for kafkawire's incremental form.
        """
        if kafkawire_form(raise_error):
            return super().alter_configs(config_resources, validate_only, raise_error=bool(raise_error))
        resources = list(config_resources)
        if raise_on_unknown:
            self._check_writable(resources)
        if incremental is None or incremental:
            result = self.incremental_alter_configs(resources, validate_only, raise_error=False)
            unsupported = [v for v in result.values() if isinstance(v, errors.UnsupportedVersionError)]
            if incremental or not result or len(unsupported) < len(result):
                return _by_type(result)
        return _by_type(super().alter_configs(self._with_modified(resources), validate_only, raise_error=False))

    def _check_writable(self, resources: Sequence[ConfigResource]) -> None:
        """Raise ValueError for keys a resource has no writable (not read-only) config of (kafka-python's check)."""
        found = self._describe_configs([ConfigResource(r.resource_type, r.name) for r in resources], False)
        for r in resources:
            configs = found.get(r.key)
            if isinstance(configs, BaseException):
                raise configs
            writable = {c.name for c in configs or () if not config_dict(c)["read_only"]}
            unknown = set(r.configs or ()) - writable
            if unknown:
                raise ValueError("Unrecognized configs: %s" % (unknown,))

    def _with_modified(self, resources: Sequence[ConfigResource]) -> List[ConfigResource]:
        """``resources`` for the full AlterConfigs: SET values, plus each resource's other modified configs."""
        found = self._describe_configs([ConfigResource(r.resource_type, r.name) for r in resources], False)
        out = []
        for r in resources:
            configs: Dict[str, Any] = {}
            for c in found.get(r.key) or ():
                entry = config_dict(c)
                if _keep(entry, "modified") and entry["value"] is not None:
                    configs[c.name] = entry["value"]
            for key, spec in (r.configs or {}).items():
                if isinstance(spec, tuple):
                    op, spec = spec
                    if str(getattr(op, "name", op)).upper() not in ("SET", "0"):
                        raise ValueError("config %r: only SET is possible without IncrementalAlterConfigs" % key)
                configs[key] = spec
            out.append(ConfigResource(r.resource_type, r.name, configs))
        return out

    def reset_configs(self, config_resources: Sequence[ConfigResource], validate_only: bool = False,
                      raise_on_unknown: bool = True, incremental: Optional[bool] = None) -> Dict[str, Dict[str, str]]:
        """Set configs back to their defaults (IncrementalAlterConfigs DELETE).

        Each resource's ``configs`` names the keys (a list, or a dict whose
        values are ignored); a resource without keys resets every modified
        config. Returns ``{'topic': {name: 'OK' or the error's text}}``.
        ``raise_on_unknown`` and ``incremental`` are accepted for
        kafka-python's sake: the broker checks the keys, and the reset is
        always incremental.
        """
        resources = list(config_resources)
        everything = [r for r in resources if not r.configs]
        modified = self.describe_configs(everything) if everything else {}
        plans = []
        for r in resources:
            keys = list(r.configs) if r.configs else list(
                modified.get(r.resource_type.name.lower(), {}).get(r.name, {}))
            plans.append(ConfigResource(r.resource_type, r.name, {key: None for key in keys}))
        todo = [p for p in plans if p.configs]
        result = {} if not todo else self.incremental_alter_configs(todo, validate_only, raise_error=False)
        out = _by_type(result)
        for p in plans:
            if not p.configs:
                out.setdefault(p.resource_type.name.lower(), {})[p.name] = "OK"
        return out


def _by_type(results: Mapping[Any, Optional[BaseException]]) -> Dict[str, Dict[str, str]]:
    out: Dict[str, Dict[str, str]] = {}
    for (kind, name), outcome in results.items():
        out.setdefault(kind.name.lower(), {})[name] = _outcome_text(outcome)
    return out


__all__ = ["KafkaPythonConfigs"]
