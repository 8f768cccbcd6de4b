"""kafka.fast_paths: one switch per fast path, all off with KAFKAWIRE_NO_FAST_PATHS=1, each documented and tested.

The comparisons of each fast path with its reference live in the test file
:data:`kafka.fast_paths.FAST_PATHS` names for it; here: that those files
exist and switch their path, that the documentation lists every path, that
no module decides the interpreter on its own, and that the environment
variable turns everything off in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import subprocess
import sys

import pytest

from kafka import fast_paths

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_switch_is_a_boolean_attribute_and_enabled_lists_them():
    assert set(fast_paths.enabled()) == set(fast_paths.FAST_PATHS)
    assert all(isinstance(value, bool) for value in fast_paths.enabled().values())


def test_the_switches_follow_the_interpreter_unless_turned_off():
    for name, path in fast_paths.FAST_PATHS.items():
        assert path.interpreter in ("cpython", "pypy", "any"), name
        expected = not fast_paths.DISABLED and path.interpreter in ("any", fast_paths.INTERPRETER)
        assert getattr(fast_paths, name) is expected, name


def test_override_sets_and_restores_and_tells_followers():
    seen = []
    before = fast_paths.enabled()
    fast_paths.on_switch(lambda: seen.append(fast_paths.COMPACT_FUTURES))
    try:
        with fast_paths.override(COMPACT_FUTURES=True):
            assert fast_paths.COMPACT_FUTURES is True
            with fast_paths.override(COMPACT_FUTURES=False):
                assert fast_paths.COMPACT_FUTURES is False
            assert fast_paths.COMPACT_FUTURES is True
        assert fast_paths.enabled() == before
        assert seen == [before["COMPACT_FUTURES"], True, False, True, before["COMPACT_FUTURES"]]
    finally:
        fast_paths._followers.pop()
    with pytest.raises(ValueError, match="NO_SUCH_PATH"):
        with fast_paths.override(NO_SUCH_PATH=True):
            pass


@pytest.mark.parametrize("name", sorted(fast_paths.FAST_PATHS))
def test_each_fast_path_has_a_test_file_that_switches_it(name):
    path = fast_paths.FAST_PATHS[name]
    text = (ROOT / path.test).read_text(encoding="utf-8")
    assert name in text, "%s does not switch %s with fast_paths.override" % (path.test, name)
    for module in path.module.split(", "):
        source = ROOT / (module.replace(".", "/") + ".py")
        assert name in source.read_text(encoding="utf-8"), "%s does not read %s" % (module, name)


def test_the_documentation_lists_every_fast_path_and_its_test():
    text = (ROOT / "docs" / "fast_paths.rst").read_text(encoding="utf-8")
    for name, path in fast_paths.FAST_PATHS.items():
        assert "``%s``" % name in text, name
        assert path.test in text, path.test


def test_no_module_but_fast_paths_asks_which_interpreter_runs():
    """``sys.implementation`` and ``platform.python_implementation`` are read in kafka/fast_paths.py only."""
    offenders = []
    for source in sorted((ROOT / "kafka").rglob("*.py")):
        if source.name == "fast_paths.py" and source.parent.name == "kafka":
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("implementation", "python_implementation"):
                offenders.append("%s:%d" % (source.relative_to(ROOT), node.lineno))
    assert offenders == []


@pytest.mark.parametrize("value,off", [("1", True), ("0", False), ("", False)])
def test_the_environment_variable_turns_every_fast_path_off(value, off):
    env = dict(os.environ, **{fast_paths.NO_FAST_PATHS_ENV: value})
    code = ("import json; from kafka import fast_paths, murmur2; "
            "print(json.dumps([fast_paths.enabled(), murmur2.murmur2_unsigned.__name__]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(ROOT), check=True,
                         capture_output=True, text=True).stdout
    switches, chosen = json.loads(out)
    if off:
        assert not any(switches.values())
        assert chosen == "murmur2_plain"
    else:
        assert switches == {name: path.interpreter in ("any", fast_paths.INTERPRETER)
                            for name, path in fast_paths.FAST_PATHS.items()}
