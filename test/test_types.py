"""mypy passes over ``kafka/`` (configured by ``mypy.ini``), and the public types say what they should.

Run alone with ``./run_tests.sh test/test_types.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "mypy.ini")


def _mypy(args: List[str], cache_dir: str) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", CONFIG, "--cache-dir", cache_dir] + args,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=280, cwd=ROOT)


@pytest.mark.slow
def test_mypy_passes() -> None:
    # The files come from mypy.ini; the cache is the one a plain `mypy` run uses.
    result = _mypy([], os.path.join(ROOT, ".mypy_cache"))
    assert result.returncode == 0, result.stdout


# Checked by mypy, never run: assert_type fails the check when a type differs.
USES = '''
from typing import Dict, Optional

from typing_extensions import assert_type

from kafka import KafkaProducer
from kafka.future import Future, FutureLike
from kafka.producer.future import FutureRecordMetadata, RecordMetadata

future: Future[int] = Future()
assert_type(future.get(), int)
assert_type(future.get(timeout=1.0), int)
assert_type(future.value, Optional[int])
assert_type(future.success(1), Future[int])
assert_type(future.add_callback(print).add_errback(print), Future[int])
assert_type(future.chain(Future[int]()), Future[int])

producer = KafkaProducer(bootstrap_servers="localhost:9092")
sent = producer.send("topic", value=b"v", headers=[("h", None)])
assert_type(sent, FutureRecordMetadata)
assert_type(sent.get(timeout=10), RecordMetadata)
assert_type(sent.get().offset, int)
assert_type(sent.add_callback(print), FutureRecordMetadata)

# Both kinds of future are FutureLike.
any_future: FutureLike[object] = future
any_future = sent
metadata: FutureLike[RecordMetadata] = sent
assert_type(metadata.get(), RecordMetadata)
'''


@pytest.mark.slow
def test_public_types(tmp_path: "os.PathLike[str]") -> None:
    uses = os.path.join(str(tmp_path), "uses.py")
    with open(uses, "w", encoding="utf-8") as handle:
        handle.write(USES)
    result = _mypy([uses], os.path.join(str(tmp_path), "cache"))
    assert result.returncode == 0, result.stdout
