"""Sphinx directive ``.. kafka-api-table::``: every Kafka API the client declares.

Built from :data:`kafka.protocol.apis.ALL_APIS` at documentation build time:
key, name, the versions declared, the lowest version ever sent (``min_send``,
the Kafka 4.x floor), the first flexible version and where requests are routed.
"""

from typing import List

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

ROUTES = {
    "any": "any broker",
    "leader": "partition leader",
    "group_coordinator": "group coordinator",
    "txn_coordinator": "transaction coordinator",
    "controller": "controller",
    "connection": "connection handshake",
}


class KafkaApiTable(SphinxDirective):  # type: ignore[misc]
    has_content = False

    def run(self) -> List[nodes.Node]:
        from kafka.protocol.apis import ALL_APIS

        rows = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 7 28 12 12 12 29",
            "",
            "   * - Key",
            "     - API",
            "     - Versions",
            "     - Lowest sent",
            "     - Flexible from",
            "     - Sent to",
        ]
        for api in ALL_APIS:
            rows += [
                "   * - {0}".format(api.key),
                "     - {0}".format(api.name),
                "     - {0}-{1}".format(api.min_version, api.max_version),
                "     - {0}".format(api.min_send),
                "     - {0}".format("" if api.flexible_from is None else api.flexible_from),
                "     - {0}".format(ROUTES.get(api.route, api.route)),
            ]
        container = nodes.container()
        self.state.nested_parse(StringList(rows, source="kafka-api-table"), self.content_offset, container)
        return list(container.children)


def setup(app):  # type: ignore[no-untyped-def]
    app.add_directive("kafka-api-table", KafkaApiTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
