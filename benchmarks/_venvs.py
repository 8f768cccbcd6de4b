"""Virtual environments the benchmarks run their other sides in.

kafka-python imports as ``kafka``, like this repository, so it can only be
measured from an environment of its own; our side under another interpreter
(e.g. PyPy) needs one too, holding whichever optional libraries install
there.  Environments live in ``benchmarks/.venvs/<name>`` and are created on
first use; delete a directory to rebuild it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENVS = os.path.join(HERE, ".venvs")

# Optional libraries of our side: (module, [requirement, fallback ...]).
# zstandard >= 0.24 builds on PyPy without its cffi backend, so an older
# one is the fallback there.
OURS_OPTIONAL: List[Tuple[str, Sequence[str]]] = [
    ("lz4", ["lz4"]),
    ("zstandard", ["zstandard", "zstandard<0.24"]),
    ("crc32c", ["crc32c"]),
]


def venv_python(venv: str) -> str:
    for name in ("python", "python3", "pypy3"):
        path = os.path.join(venv, "bin", name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError("no interpreter in %s" % venv)


def ensure_venv(
    name: str,
    interpreter: str,
    required: List[str],
    optional: Sequence[Tuple[str, Sequence[str]]],
) -> str:
    """Create ``benchmarks/.venvs/<name>`` if missing; return its python.

    ``optional`` lists ``(module, [requirement, fallback requirement ...])``:
    each requirement is tried until the module imports.
    """
    venv = os.path.join(VENVS, name)
    marker = os.path.join(venv, ".installed")
    if not os.path.exists(marker):
        print("setting up %s (one time) ..." % venv, file=sys.stderr)
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([interpreter, "-m", "venv", venv], check=True)
        python = venv_python(venv)
        pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        if required:
            subprocess.run(pip + required, check=True)
        for module, requirements in optional:
            for requirement in requirements:
                installed = subprocess.run(pip + [requirement]).returncode == 0
                if installed and subprocess.run([python, "-c", "import " + module]).returncode == 0:
                    break
            else:
                print("note: %s does not install for %s" % (module, interpreter), file=sys.stderr)
        with open(marker, "w") as f:
            f.write("ok\n")
    return venv_python(venv)


def ours_python(interpreter: str) -> str:
    """Python of ``benchmarks/.venvs/ours-<interpreter>`` (our optional libraries)."""
    interpreter = shutil.which(interpreter) or interpreter
    return ensure_venv("ours-" + os.path.basename(interpreter), interpreter, [], OURS_OPTIONAL)


def cpython_host() -> str:
    """A CPython to build CPython-only environments with (this one, or python3 under PyPy)."""
    if sys.implementation.name != "cpython":
        return shutil.which("python3") or sys.executable
    return sys.executable


def kafka_python_python(extras: Sequence[str] = ()) -> str:
    """Python of kafka-python's environment, ``kafka-python[-<extra>...]``.

    It holds kafka-python, lz4 and zstandard on CPython, plus ``extras``
    (e.g. ``crc32c``, which kafka-python uses when it is installed).
    """
    extras = sorted(set(extras))
    return ensure_venv(
        "-".join(["kafka-python"] + extras),
        cpython_host(),
        ["kafka-python", "lz4", "zstandard"] + extras,
        [],
    )
