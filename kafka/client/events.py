"""Connection events a client reports to an application-given listener.

A :class:`~kafka.client.network.NetworkClient` built with
``client_events=callable`` calls it with one of these values whenever such
an event happens. The call comes from the thread doing the client's network
I/O (the producer's sender thread, the consumer's polling thread), after the
client released its locks: a listener should only record the event (queue
it), never block or call back into the client.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Union


class ConnectionFailed(NamedTuple):
    """A connection to a broker failed or closed with an error.

    ``node_id`` is negative for a bootstrap address not yet known by id.
    """

    node_id: int
    host: str
    port: int
    error: BaseException


class AllBrokersDown(NamedTuple):
    """Every broker the client knows has a failed connection and none is up.

    Reported once each time the client enters that state.
    """

    down: int
    known: int


class Throttled(NamedTuple):
    """A broker's response asked the client to hold back (a quota was hit)."""

    node_id: int
    host: str
    port: int
    throttle_time_ms: int


ClientEvent = Union[ConnectionFailed, AllBrokersDown, Throttled]
#: ``client_events``: called with each :data:`ClientEvent`.
ClientEventListener = Callable[[ClientEvent], None]
