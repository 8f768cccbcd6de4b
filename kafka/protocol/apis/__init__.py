"""Every API the client speaks, one declaration each, grouped by family.

``ALL_APIS`` lists them; :func:`by_key` and :func:`by_name` look them up.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Dict, List

from kafka.protocol.schema import Api

if TYPE_CHECKING:
    # _collect() publishes the constants at import time; show them to mypy.
    from kafka.protocol.apis.acls import *  # noqa: F401,F403
    from kafka.protocol.apis.admin import *  # noqa: F401,F403
    from kafka.protocol.apis.api_versions import *  # noqa: F401,F403
    from kafka.protocol.apis.cluster import *  # noqa: F401,F403
    from kafka.protocol.apis.fetch import *  # noqa: F401,F403
    from kafka.protocol.apis.groups import *  # noqa: F401,F403
    from kafka.protocol.apis.metadata import *  # noqa: F401,F403
    from kafka.protocol.apis.offsets import *  # noqa: F401,F403
    from kafka.protocol.apis.produce import *  # noqa: F401,F403
    from kafka.protocol.apis.quorum import *  # noqa: F401,F403
    from kafka.protocol.apis.replicas import *  # noqa: F401,F403
    from kafka.protocol.apis.sasl import *  # noqa: F401,F403
    from kafka.protocol.apis.share import *  # noqa: F401,F403
    from kafka.protocol.apis.txn import *  # noqa: F401,F403
    from kafka.protocol.apis.txn_admin import *  # noqa: F401,F403

#: Family modules; each defines one or more module-level ``Api`` objects.
_FAMILIES = (
    "api_versions",
    "metadata",
    "produce",
    "fetch",
    "offsets",
    "groups",
    "txn",
    "txn_admin",
    "admin",
    "acls",
    "sasl",
    "share",
    "cluster",
    "replicas",
    "quorum",
)


def _collect() -> List[Api]:
    apis: List[Api] = []
    for family in _FAMILIES:
        module = import_module(__name__ + "." + family)
        for value in vars(module).values():
            if isinstance(value, Api):
                apis.append(value)
                globals()[_constant_name(value.name)] = value
    apis.sort(key=lambda a: a.key)
    return apis


def _constant_name(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.upper())
    return "".join(out)


ALL_APIS: List[Api] = _collect()
_BY_KEY: Dict[int, Api] = {a.key: a for a in ALL_APIS}
_BY_NAME: Dict[str, Api] = {a.name: a for a in ALL_APIS}
if len(_BY_KEY) != len(ALL_APIS):
    raise RuntimeError("two API declarations share a key")


def by_key(key: int) -> Api:
    """The API declared for ``key``; KeyError if none."""
    return _BY_KEY[key]


def by_name(name: str) -> Api:
    """The API declared under its protocol name, e.g. ``"Fetch"``."""
    return _BY_NAME[name]


_BY_REQUEST_CLASS: Dict[type, Api] = {a.Request: a for a in ALL_APIS}


def api_for(request: object) -> Api:
    """The API a request value belongs to (from its generated class)."""
    try:
        return _BY_REQUEST_CLASS[type(request)]
    except KeyError:
        raise TypeError("%r is not a request value of any declared API" % (type(request).__name__,)) from None
