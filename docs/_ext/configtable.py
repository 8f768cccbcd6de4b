"""Sphinx directive ``.. kafka-config-table::``: a configuration reference from the code.

Usage::

    .. kafka-config-table:: kafka.producer.kafka.DEFAULT_CONFIG
       :docs: kafka.producer.config_docs.CONFIG_DOCS kafka.client.config_docs.CONFIG_DOCS
       :omit-shared-with: kafka.client.network.DEFAULT_CONFIG

The argument names a config dict (setting name -> default). ``:docs:`` names
one or more ``Dict[str, str]`` mappings of one-line descriptions; the first
mapping that describes a key wins. ``:omit-shared-with:`` leaves out the keys
that another table has with the same default (they are documented there),
unless the first ``:docs:`` mapping describes them again.
``:optional:`` renders a short note instead of failing when the table's
module cannot be imported (for a client that is not part of every build).

The build warns - and so fails under ``-W`` - when a key has no description,
or when the first ``:docs:`` mapping describes a key the table no longer has,
so the reference can neither miss nor invent a setting.
"""

import importlib
from typing import Any, Dict, List, Mapping, Optional, Tuple

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

log = logging.getLogger(__name__)


def load_object(dotted: str) -> Any:
    """Import ``package.module.NAME`` and return ``NAME``."""
    module_name, _, attr = dotted.rpartition(".")
    if not module_name:
        raise ImportError("%r is not a dotted module.attribute name" % dotted)
    return getattr(importlib.import_module(module_name), attr)


def format_default(value: Any) -> str:
    """The default of a setting as it is shown in the table (reST inline literal)."""
    if isinstance(value, float) and value == float("inf"):
        return "``float('inf')``"
    if callable(value) and hasattr(value, "__name__"):
        return "``{0}``".format(value.__name__)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1024 * 1024 and value % 1024 == 0:
        # Byte sizes read better with their unit next to the exact number.
        unit, size = ("MiB", value // (1024 * 1024)) if value % (1024 * 1024) == 0 else ("KiB", value // 1024)
        return "``{0}`` ({1} {2})".format(value, size, unit)
    return "``{0!r}``".format(value)


def table_rows(config: Mapping[str, Any], docs: List[Mapping[str, str]],
               shared: Optional[Mapping[str, Any]]) -> Tuple[List[Tuple[str, str, str]], List[str]]:
    """(rows, keys without a description) for ``config``, in the table's own order."""
    rows: List[Tuple[str, str, str]] = []
    missing: List[str] = []
    for key, default in config.items():
        own_text = bool(docs) and key in docs[0]
        if shared is not None and key in shared and shared[key] == default and not own_text:
            continue
        text = next((mapping[key] for mapping in docs if key in mapping), None)
        if text is None:
            missing.append(key)
            text = ""
        rows.append((key, format_default(default), text))
    return rows, missing


class KafkaConfigTable(SphinxDirective):  # type: ignore[misc]
    required_arguments = 1
    has_content = False
    option_spec = {
        "docs": directives.unchanged_required,
        "omit-shared-with": directives.unchanged_required,
        "optional": directives.flag,
    }

    def run(self) -> List[nodes.Node]:
        location = self.get_location()
        try:
            config: Dict[str, Any] = load_object(self.arguments[0])
        except (ImportError, AttributeError) as exc:
            if "optional" in self.options:
                para = nodes.paragraph(text="(This table appears when {0} is available.)".format(self.arguments[0]))
                return [para]
            log.warning("kafka-config-table: cannot load %s: %s", self.arguments[0], exc, location=location)
            return []
        docs: List[Mapping[str, str]] = []
        for name in self.options.get("docs", "").split():
            try:
                docs.append(load_object(name))
            except (ImportError, AttributeError) as exc:
                log.warning("kafka-config-table: cannot load %s: %s", name, exc, location=location)
        shared = None
        if "omit-shared-with" in self.options:
            shared = load_object(self.options["omit-shared-with"])
        rows, missing = table_rows(config, docs, shared)
        for key in missing:
            log.warning("kafka-config-table: %s has no description of %r (add it to %s)",
                        self.arguments[0], key, self.options.get("docs", "a :docs: mapping").split()[0],
                        location=location)
        if docs:
            for key in sorted(set(docs[0]) - set(config)):
                log.warning("kafka-config-table: %s describes %r, which %s does not have",
                            self.options["docs"].split()[0], key, self.arguments[0], location=location)
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 28 22 50",
            "",
            "   * - Setting",
            "     - Default",
            "     - Meaning",
        ]
        for key, default, text in rows:
            lines += ["   * - ``{0}``".format(key), "     - {0}".format(default), "     - {0}".format(text)]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="kafka-config-table"), self.content_offset, container)
        return list(container.children)


def setup(app):  # type: ignore[no-untyped-def]
    app.add_directive("kafka-config-table", KafkaConfigTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
