"""Sphinx directive ``.. kafka-error-table::``: a table of all broker error codes.

The table is built from :mod:`kafka.errors` at documentation build time, so
it cannot drift from the code.
"""

from typing import List

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


class KafkaErrorTable(SphinxDirective):  # type: ignore[misc]
    has_content = False

    def run(self) -> List[nodes.Node]:
        from kafka.errors import _BY_CODE

        rows = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 8 40 34 9 9",
            "",
            "   * - Code",
            "     - Protocol name",
            "     - Exception",
            "     - Retriable",
            "     - Refresh metadata",
        ]
        for code in sorted(c for c in _BY_CODE if not _BY_CODE[c].__name__.startswith("UnknownBrokerError")):
            cls = _BY_CODE[code]
            rows += [
                "   * - {0}".format(code),
                "     - ``{0}``".format(cls.message),
                "     - :class:`~kafka.errors.{0}`".format(cls.__name__),
                "     - {0}".format("yes" if cls.retriable else ""),
                "     - {0}".format("yes" if cls.invalid_metadata else ""),
            ]
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="kafka-error-table"),
                                self.content_offset, container)
        return list(container.children)


def setup(app):  # type: ignore[no-untyped-def]
    app.add_directive("kafka-error-table", KafkaErrorTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
