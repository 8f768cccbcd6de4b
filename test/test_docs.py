"""The Sphinx documentation builds without a single warning."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
def test_docs_build_warning_free(tmp_path: object) -> None:
    pytest.importorskip("sphinx")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
         os.path.join(ROOT, "docs"), str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240, cwd=ROOT)
    assert result.returncode == 0, result.stdout
