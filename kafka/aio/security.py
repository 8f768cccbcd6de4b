"""TLS and SASL settings of the asyncio clients, from aiokafka's keywords.

:func:`security_settings` turns ``security_protocol``, ``ssl_context`` and
the ``sasl_*`` keywords into what :class:`~kafka.aio.client.AsyncClient`
takes: an :class:`ssl.SSLContext` (or None) and a factory of fresh SASL
mechanisms (or None). A bad combination fails here, in the constructor.
"""

from __future__ import annotations

import ssl
from typing import Any, Callable, Dict, Optional, Tuple

from kafka.conn.sasl import create_mechanism
from kafka.conn.tls import check_security_protocol, uses_sasl, uses_tls

__all__ = ["security_settings"]


def security_settings(security_protocol: str, ssl_context: Optional[ssl.SSLContext], sasl_mechanism: str,
                      username: Optional[str], password: Optional[str], token_provider: Any
                      ) -> Tuple[Optional[ssl.SSLContext], Optional[Callable[[], Any]]]:
    """``(ssl_context or None, SASL factory or None)`` for ``security_protocol``.

    TLS without an ``ssl_context`` uses :func:`ssl.create_default_context`;
    the SASL mechanism is made once now, so its settings are checked early.
    """
    check_security_protocol(security_protocol)
    context = None
    if uses_tls(security_protocol):
        context = ssl_context if ssl_context is not None else ssl.create_default_context()
    factory = None
    if uses_sasl(security_protocol):
        options: Dict[str, Any] = {}
        if sasl_mechanism.upper() == "OAUTHBEARER":
            options["oauth_token_provider"] = token_provider
        else:
            options.update(username=username, password=password)
        create_mechanism(sasl_mechanism, **options)
        factory = lambda: create_mechanism(sasl_mechanism, **options)  # noqa: E731
    return context, factory
