"""The runnable examples of the user documentation run, against the embedded broker.

A Python code block in ``docs/quickstart.rst`` or ``docs/usage.rst`` is an
example to run when the line before its ``.. code-block:: python`` (blank
lines aside) is the reST comment::

    .. runnable-example [continues] [creates-topic] [requires NAME ...]

``continues``
    this block continues the previous runnable example of the page: both run
    as one script (later blocks see earlier blocks' variables).
``creates-topic``
    the example creates its topic itself; otherwise the test creates
    ``my-topic`` (3 partitions) before running it.
``requires NAME ...``
    dotted names (``kafka.admin.KafkaAdminClient``) the example needs; while
    one is missing (code still being written) the example is skipped, with
    the missing name as the reason. Checked at run time, never hard-coded.

A block may be followed by its expected output: a ``.. code-block:: text``
preceded by the comment ``.. example-output``. Every line of it must appear
in what the example prints (in any order: partitions interleave).

Before running, ``localhost:9092`` becomes the embedded broker's address and
``my-topic`` / ``my-group`` / ``my-transaction`` get a suffix of their own,
so examples never see each other's records. Each example runs as a separate
Python process, the way a user would run it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import uuid
from typing import Dict, List, NamedTuple, Optional, Tuple

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ("quickstart.rst", "usage.rst")
MARK = re.compile(r"^\.\. runnable-example\b(?P<flags>.*)$")
OUTPUT_MARK = re.compile(r"^\.\. example-output\s*$")
CODE = re.compile(r"^\.\. code-block::\s*(?P<lang>\S+)\s*$")
RENAMED = ("my-topic", "my-group", "my-transaction")
TIMEOUT = 150


class Example(NamedTuple):
    page: str
    line: int
    code: str
    output: List[str]
    requires: Tuple[str, ...]
    creates_topic: bool


def _block_at(lines: List[str], start: int) -> Tuple[Optional[str], str, int]:
    """(language, dedented body, index after the block) of the code-block at or after ``start``."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    match = CODE.match(lines[i]) if i < len(lines) else None
    if match is None:
        return None, "", start
    i += 1
    while i < len(lines) and lines[i].strip().startswith(":"):  # directive options
        i += 1
    body: List[str] = []
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
        body.append(lines[i])
        i += 1
    return match.group("lang"), textwrap.dedent("\n".join(body)).strip("\n") + "\n", i


def collect(page: str) -> List[Example]:
    """The runnable examples of ``docs/<page>``, in page order."""
    with open(os.path.join(ROOT, "docs", page), encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    examples: List[Example] = []
    for number, line in enumerate(lines):
        mark = MARK.match(line)
        if mark is None:
            continue
        flags = mark.group("flags").split()
        lang, code, after = _block_at(lines, number + 1)
        if lang != "python":
            raise AssertionError("%s:%d: runnable-example is not followed by a python code-block"
                                 % (page, number + 1))
        output: List[str] = []
        j = after
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and OUTPUT_MARK.match(lines[j]):
            _, text, _ = _block_at(lines, j + 1)
            output = [out for out in text.splitlines() if out.strip()]
        requires = tuple(flags[flags.index("requires") + 1:]) if "requires" in flags else ()
        if "continues" in flags:
            if not examples:
                raise AssertionError("%s:%d: 'continues' with no earlier example" % (page, number + 1))
            previous = examples.pop()
            examples.append(previous._replace(code=previous.code + "\n" + code,
                                              output=previous.output + output,
                                              requires=previous.requires + requires))
        else:
            examples.append(Example(page, number + 1, code, output, requires, "creates-topic" in flags))
    return examples


def missing_name(dotted: str) -> Optional[str]:
    """None when ``dotted`` (module, or module.attribute...) exists, else the part that is missing."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            continue
        value = importlib.import_module(module)
        for index, attr in enumerate(parts[cut:]):
            if not hasattr(value, attr):
                return ".".join(parts[:cut + index + 1])
            value = getattr(value, attr)
        return None
    return dotted


ALL = [example for page in PAGES for example in collect(page)]


def test_pages_have_runnable_examples() -> None:
    pages = {example.page for example in ALL}
    assert pages == set(PAGES), "every page's examples are marked runnable"


@pytest.mark.slow
@pytest.mark.parametrize("example", ALL, ids=["%s:%d" % (e.page, e.line) for e in ALL])
def test_example_runs(example: Example, broker: object) -> None:
    for name in example.requires:
        missing = missing_name(name)
        if missing is not None:
            pytest.skip("needs %s, which does not exist yet" % missing)
    suffix = uuid.uuid4().hex[:8]
    code = example.code.replace("localhost:9092", broker.bootstrap_servers)  # type: ignore[attr-defined]
    renames: Dict[str, str] = {name: "%s-%s" % (name, suffix) for name in RENAMED}
    for old, new in renames.items():
        code = code.replace(old, new)
    if not example.creates_topic:
        from test.support.topics import create_topic  # imports kafka, which this module otherwise does lazily

        create_topic(broker.bootstrap_servers, renames["my-topic"])  # type: ignore[attr-defined]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, "%s:%d failed:\n%s" % (example.page, example.line, result.stdout)
    printed = result.stdout
    for old, new in renames.items():
        printed = printed.replace(new, old)
    printed_lines = {line.rstrip() for line in printed.splitlines()}
    for expected in example.output:
        assert expected.rstrip() in printed_lines, "%s:%d did not print %r; it printed:\n%s" % (
            example.page, example.line, expected, printed)


def test_requirements_are_checked_at_run_time() -> None:
    assert missing_name("kafka.KafkaProducer") is None
    assert missing_name("kafka.producer.kafka.KafkaProducer.send") is None
    assert missing_name("kafka.KafkaProducer.no_such_method") == "kafka.KafkaProducer.no_such_method"
    assert missing_name("kafka.no_such_module.Thing") == "kafka.no_such_module"
    assert missing_name("no_such_package_at_all") == "no_such_package_at_all"
