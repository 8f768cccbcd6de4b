"""``KafkaNetClient``: kafka-python 3's network client name, on kafkawire's :class:`~kafka.client.RoutingClient`.

It takes kafka-python's configuration keywords (those kafkawire has no use
for are accepted and kept in ``config``, as the producer and consumer do)
and adds the kafka-python 3 methods the routing client lacks:
:meth:`~KafkaNetClient.send_and_receive`, :meth:`~KafkaNetClient.check_version`,
:meth:`~KafkaNetClient.get_broker_version`, :meth:`~KafkaNetClient.throttle_delay`
and :meth:`~KafkaNetClient.least_loaded_node_refresh_ms`. Requests are
kafkawire's request values (``api.request.build(...)``), not kafka-python's
request classes.
"""

from __future__ import annotations

import time
from typing import Any, Optional, Tuple

from kafka import compat_config, errors
from kafka.client.network import DEFAULT_CONFIG as _NETWORK_CONFIG
from kafka.client.routing import RoutingClient
from kafka.protocol.broker_version_data import BrokerVersionData


class KafkaNetClient(RoutingClient):
    """kafkawire's routing client under kafka-python 3's name and keywords."""

    def __init__(self, **configs: Any) -> None:
        used, ignored = compat_config.split("admin", configs)
        ours = {k: v for k, v in used.items() if k in _NETWORK_CONFIG}
        super().__init__(**ours)
        # kafka-python keys this client has no use for stay visible, as kafka-python shows them.
        for key, value in list(used.items()) + list(ignored.items()):
            self.config.setdefault(key, value)

    def send_and_receive(self, node_id: int, request: Any, timeout_ms: float = 30000) -> Any:
        """Send ``request`` to ``node_id`` (connecting first) and return the response, within ``timeout_ms``."""
        return self.send_and_wait(node_id, request, timeout_ms=timeout_ms)

    def check_version(self, node_id: Optional[int] = None, timeout_ms: float = 10000) -> Tuple[int, ...]:
        """Connect to ``node_id`` (the least loaded broker when None) and name its release, as kafka-python does.

        Raises :class:`~kafka.errors.NoBrokersAvailable` if no broker answers within ``timeout_ms``.
        """
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            target = self.least_loaded_node() if node_id is None else node_id
            left = max(0.0, (deadline - time.monotonic()) * 1000.0)
            if target is not None and self.await_ready(target, min(left, 1000.0)):
                ranges = self.api_ranges(target)
                if ranges is not None:
                    return BrokerVersionData(api_versions=ranges).broker_version
            if time.monotonic() >= deadline:
                raise errors.NoBrokersAvailable("no broker answered within %s ms" % (timeout_ms,))
            self.poll(timeout_ms=min(left, 100.0))

    def get_broker_version(self, timeout_ms: Optional[float] = None) -> Tuple[int, ...]:
        """The release of any connected broker (connecting to one first if needed)."""
        return self.check_version(timeout_ms=10000 if timeout_ms is None else timeout_ms)

    def throttle_delay(self, node_id: int) -> float:
        """Milliseconds the broker asked this client to wait before its next request (0: kafkawire waits inside)."""
        return 0.0

    def least_loaded_node_refresh_ms(self, bootstrap_fallback: bool = False) -> float:
        """Milliseconds until some broker can be tried again (0 if one can be now)."""
        if self.least_loaded_node() is not None:
            return 0.0
        return float(self.config.get("reconnect_backoff_ms", 50))


__all__ = ["KafkaNetClient"]
