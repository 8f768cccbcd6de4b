"""``stats_cb``: a JSON document in librdkafka's statistics layout, for the fields kafkawire can fill.

librdkafka emits every ``statistics.interval.ms`` a document whose top level
describes the client (``name``, ``client_id``, ``type``, ``ts``, ``time``,
``age``, ``replyq``, ``msg_cnt``, ``msg_size``, ``msg_max``,
``msg_size_max``, ``tx``, ``tx_bytes``, ``rx``, ``rx_bytes``, ``txmsgs``,
``rxmsgs``), then ``brokers`` (one object per connection, keyed by its name)
and ``topics`` (each with its ``partitions``). :func:`statistics` builds that
document from what the engine's client counts and what the facade knows.
"""

from __future__ import annotations

import json
import time
from typing import Any, Dict, Iterable, List

#: The engine's connection states under librdkafka's names.
_STATES = {"disconnected": "DOWN", "connecting": "CONNECT", "tls_handshake": "SSL_HANDSHAKE",
           "api_versions": "APIVERSION_QUERY", "authenticating": "AUTH_REQ", "connected": "UP"}


def _brokers(connections: Iterable[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    out: Dict[str, Dict[str, Any]] = {}
    for conn in connections:
        node_id = conn["node_id"]
        nodename = "%s:%d" % (conn["host"], conn["port"])
        name = "%s/%s" % (nodename, "bootstrap" if node_id < 0 else node_id)
        out[name] = {"name": name, "nodeid": node_id if node_id >= 0 else -1, "nodename": nodename,
                     "source": "configured" if node_id < 0 else "learned",
                     "state": _STATES.get(conn["state"], "INIT"), "outbuf_cnt": conn["outbuf_cnt"],
                     "waitresp_cnt": conn["waitresp_cnt"], "tx": conn["tx"], "txbytes": conn["tx_bytes"],
                     "rx": conn["rx"], "rxbytes": conn["rx_bytes"], "connects": conn["connects"],
                     "disconnects": conn["disconnects"]}
    return out


def statistics(*, name: str, client_id: str, role: str, started: float, connections: List[Dict[str, Any]],
               topics: Dict[str, Dict[int, Dict[str, Any]]], **counters: int) -> str:
    """The statistics document as JSON text.

    ``started`` is the client's creation (``time.monotonic()``);
    ``connections`` what :meth:`~kafka.client.network.NetworkClient.broker_stats`
    returns; ``topics`` maps topic -> partition -> per-partition fields;
    ``counters`` are further top-level fields (``replyq``, ``msg_cnt``, ...).
    """
    now = time.monotonic()
    document: Dict[str, Any] = {
        "name": name, "client_id": client_id, "type": role,
        "ts": int(now * 1e6), "time": int(time.time()), "age": int((now - started) * 1e6),
        "tx": sum(c["tx"] for c in connections), "tx_bytes": sum(c["tx_bytes"] for c in connections),
        "rx": sum(c["rx"] for c in connections), "rx_bytes": sum(c["rx_bytes"] for c in connections),
    }
    document.update(counters)
    document["brokers"] = _brokers(connections)
    document["topics"] = {
        topic: {"topic": topic, "partitions": {str(p): dict(fields, partition=p) for p, fields in parts.items()}}
        for topic, parts in topics.items()}
    return json.dumps(document)
