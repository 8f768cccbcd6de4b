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


CONFIG_TABLES = [
    ("kafka.client.network.DEFAULT_CONFIG", ["kafka.client.config_docs.CONFIG_DOCS"]),
    ("kafka.producer.kafka.DEFAULT_CONFIG",
     ["kafka.producer.config_docs.CONFIG_DOCS", "kafka.client.config_docs.CONFIG_DOCS"]),
    ("kafka.consumer.kafka.DEFAULT_CONFIG",
     ["kafka.consumer.config_docs.CONFIG_DOCS", "kafka.client.config_docs.CONFIG_DOCS"]),
    ("kafka.admin.base.ADMIN_CONFIG", ["kafka.admin.config_docs.CONFIG_DOCS"]),
]


def _configtable():  # type: ignore[no-untyped-def]
    """The ``docs/_ext/configtable.py`` extension module."""
    pytest.importorskip("sphinx")
    ext = os.path.join(ROOT, "docs", "_ext")
    sys.path.insert(0, ext)
    try:
        import configtable
    finally:
        sys.path.remove(ext)
    return configtable


@pytest.mark.parametrize("table,docs", CONFIG_TABLES)
def test_every_setting_has_a_description(table: str, docs: list) -> None:
    """The generated configuration reference has a line for every setting, and no stale ones."""
    configtable = _configtable()
    config = configtable.load_object(table)
    mappings = [configtable.load_object(name) for name in docs]
    rows, missing = configtable.table_rows(config, mappings, None)
    assert missing == []
    assert [row[0] for row in rows] == list(config)
    assert set(mappings[0]) <= set(config), "descriptions of settings that no longer exist"
    assert all(text.strip() for _, _, text in rows)


def test_config_table_rows() -> None:
    configtable = _configtable()
    rows, missing = configtable.table_rows({"a": 1, "b": 2, "c": 3}, [{"a": "first"}, {"a": "no", "b": "second"}],
                                           {"c": 3})
    assert missing == []  # c is shared with an equal default, so it is left out
    assert rows == [("a", "``1``", "first"), ("b", "``2``", "second")]
    _, missing = configtable.table_rows({"a": 1, "d": None}, [{"a": "first"}], None)
    assert missing == ["d"]
    assert configtable.format_default(float("inf")) == "``float('inf')``"
    assert configtable.format_default(32 * 1024 * 1024) == "``33554432`` (32 MiB)"


@pytest.mark.slow
def test_an_undescribed_setting_fails_the_build(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With -W, a config key without a description (here: every client key) stops the build."""
    pytest.importorskip("sphinx")
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        "import sys\nsys.path[:0] = [%r, %r]\nextensions = ['configtable']\n"
        % (ROOT, os.path.join(ROOT, "docs", "_ext")))
    (source / "index.rst").write_text(
        "Settings\n========\n\n.. kafka-config-table:: kafka.client.network.DEFAULT_CONFIG\n"
        "   :docs: kafka.producer.config_docs.CONFIG_DOCS\n")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(source), str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240, cwd=ROOT)
    assert result.returncode != 0
    assert "has no description of 'bootstrap_servers'" in result.stdout
