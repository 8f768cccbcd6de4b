"""Rules about the library's own source that a reviewer could easily miss.

Broker error codes are named by the classes of :mod:`kafka.errors`:
``errors.for_code(22)`` reads like the right error and silently is not (22
is ILLEGAL_GENERATION, not INVALID_PRODUCER_EPOCH), while
``errors.InvalidProducerEpochError`` cannot be wrong that way.
"""

from __future__ import annotations

import ast
import pathlib
from typing import List, Tuple

import kafka

PACKAGE = pathlib.Path(kafka.__file__).resolve().parent


def _is_number(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool)


def numeric_for_code_calls(source: str, filename: str = "<source>") -> List[Tuple[str, int]]:
    """``(filename, line)`` of every ``for_code(<integer literal>)`` call in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name == "for_code" and _is_number(node.args[0]):
            found.append((filename, node.lineno))
    return found


def test_the_scan_finds_numeric_codes() -> None:
    source = "from kafka import errors\nA = errors.for_code(22)\nB = for_code(-1)\nC = errors.for_code(code)\n"
    assert numeric_for_code_calls(source) == [("<source>", 2), ("<source>", 3)]


def test_no_error_class_is_looked_up_by_a_numeric_literal() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50, "the package was not found at %s" % PACKAGE
    found = []
    for path in files:
        found += numeric_for_code_calls(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    assert found == [], "use the named classes of kafka.errors instead of for_code(<number>): %s" % found
