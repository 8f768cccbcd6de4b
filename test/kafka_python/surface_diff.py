"""Compare two public surfaces printed by ``_surface.py``: kafka-python's and ours."""

from __future__ import annotations

from typing import Any, Dict, List


def differences(theirs: Dict[str, Any], ours: Dict[str, Any]) -> List[str]:
    """Every way ``ours`` fails to offer what ``theirs`` offers, one line each.

    Lines look like ``"name X"``, ``"config KafkaProducer.X"``,
    ``"method KafkaConsumer.X"``, ``"param KafkaConsumer.X(Y)"``,
    ``"extra-param KafkaConsumer.X(Y)"`` (ours has a parameter without a
    default that theirs lacks), ``"error X"``, ``"errno X"``,
    ``"retriable X"``, ``"invalid_metadata X"``, ``"base X(Y)"`` (Y a public
    error class or builtin base of theirs that X does not derive from here),
    ``"order C.m"`` (their positional parameters are not the first of ours,
    in their order).
    """
    out: List[str] = []
    out += ["name %s" % n for n in theirs["names"] if n not in ours["names"]]
    for client, spec in theirs["clients"].items():
        mine = ours["clients"][client]
        out += ["config %s.%s" % (client, key) for key in spec["config"] if key not in mine["config"]]
        for method, params in spec["methods"].items():
            if method not in mine["methods"]:
                out.append("method %s.%s" % (client, method))
                continue
            positional = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
            their_order = [name for name, kind, _ in params if kind in positional]
            my_order = [name for name, kind, _ in mine["methods"][method] if kind in positional]
            if my_order[:len(their_order)] != their_order:
                # A positional argument of theirs would land in another parameter of ours.
                out.append("order %s.%s" % (client, method))
            my_params = {name: (kind, has_default) for name, kind, has_default in mine["methods"][method]}
            their_names = {name for name, _, _ in params}
            for name, kind, has_default in params:
                mine_p = my_params.get(name)
                if mine_p is None or mine_p[0] != kind or (has_default and not mine_p[1]):
                    out.append("param %s.%s(%s)" % (client, method, name))
            for name, (kind, has_default) in my_params.items():
                if name not in their_names and not has_default and kind not in ("VAR_POSITIONAL", "VAR_KEYWORD"):
                    out.append("extra-param %s.%s(%s)" % (client, method, name))
    for name, spec in theirs["errors"].items():
        mine = ours["errors"].get(name)
        if mine is None:
            out.append("error %s" % name)
            continue
        if spec["errno"] != mine["errno"]:
            out.append("errno %s" % name)
        if spec["retriable"] != mine["retriable"]:
            out.append("retriable %s" % name)
        if spec.get("invalid_metadata") != mine.get("invalid_metadata"):
            out.append("invalid_metadata %s" % name)
        # Every class theirs derives from (by public name, builtins too): ours derives from it as well.
        for base in spec["bases"]:
            if base not in mine["bases"]:
                out.append("base %s(%s)" % (name, base))
        for base in spec.get("builtin_bases", ()):
            if base not in mine.get("builtin_bases", ()):
                out.append("base %s(%s)" % (name, base))
    return out
