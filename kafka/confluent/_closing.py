"""The closed state the confluent-kafka clients share.

A client is closed from the start until its ``__init__`` has finished, and
again after ``close()`` (or leaving its ``with`` block): then each method
raises ``RuntimeError`` with the client's own text, and the methods that
work on the connection handle (``list_topics``, ``cluster_id``,
``set_sasl_credentials``, ...) say ``"Handle has been closed"``, as
confluent-kafka does. A subclass whose ``__init__`` never calls the base
class's gets that closed client, not an ``AttributeError``.
"""

from __future__ import annotations

#: What the methods on the connection handle raise once the client is closed.
HANDLE_CLOSED = "Handle has been closed"


class Closable:
    """The closed-state checks of a client (see the module documentation)."""

    #: True until ``__init__`` has finished and after ``close()``.
    _closed = True
    #: What the client's methods raise once it is closed.
    _closed_text = "Client has been closed"

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(self._closed_text)

    def _check_handle(self) -> None:
        if self._closed:
            raise RuntimeError(HANDLE_CLOSED)
