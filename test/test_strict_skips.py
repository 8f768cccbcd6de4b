"""Under KAFKAWIRE_STRICT=1 a skip fails the run unless its reason is documented."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(tmp_path, strict: bool) -> str:
    (tmp_path / "conftest.py").write_text("from test.conftest import pytest_runtest_makereport  # noqa: F401\n")
    (tmp_path / "test_some.py").write_text(textwrap.dedent('''
        import pytest
        def test_missing_peer():
            pytest.importorskip("no_such_module_for_kafkawire")
        def test_documented():
            pytest.skip("aiokafka does not support LZ4 with message format v0")
        def test_passes():
            pass
    '''))
    env = dict(os.environ, PYTHONPATH=ROOT, KAFKAWIRE_STRICT="1" if strict else "0")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfs", str(tmp_path)],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=120)
    return done.stdout


def test_an_undocumented_skip_fails_when_strict(tmp_path):
    out = _run(tmp_path, strict=True)
    assert "1 failed, 1 passed, 1 skipped" in out, out
    assert "FAILED" in out and "test_missing_peer" in out


def test_skips_stay_skips_when_not_strict(tmp_path):
    out = _run(tmp_path, strict=False)
    assert "1 passed, 2 skipped" in out, out
