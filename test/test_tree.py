"""What the repository itself holds: no symbolic links, no caches or virtual environments.

A worktree's link to a shared cache, once committed, replaces the real
cache directory of every checkout that pulls it.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tracked() -> list:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("the tests run from a git checkout, with git installed")
    listing = subprocess.run(["git", "ls-files", "-s", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [entry.decode("utf-8", "replace") for entry in listing.split(b"\0") if entry]


def test_no_symbolic_links_are_tracked() -> None:
    links = [entry.split("\t", 1)[1] for entry in _tracked() if entry.startswith("120000 ")]
    assert not links, "symbolic links in git: %s" % links


def test_no_caches_or_environments_are_tracked() -> None:
    banned = (".cache", ".venv", ".venvs", "__pycache__", ".pytest_cache", ".mypy_cache", ".hypothesis")
    found = [entry.split("\t", 1)[1] for entry in _tracked()
             if any(part in banned for part in pathlib.PurePosixPath(entry.split("\t", 1)[1]).parts)]
    assert not found, "generated files in git: %s" % found[:10]
