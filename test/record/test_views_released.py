"""Memoryviews handed to C extensions (CRC-32C, codecs) are released as soon as the call returns.

PyPy 7.3 keeps a memoryview passed to a C extension (through cpyext), and
the whole buffer under it, alive until the view is released: every record
batch the producer checksummed and every fetch response the consumer
checked stayed in memory for good (35 MB after producing 300,000 records of
100 bytes, growing with every batch). These tests stand a recorder in for
the C function and check that each view it was given is released once the
caller returns, on any interpreter.
"""

from __future__ import annotations

from typing import Any, List

import pytest

from kafka.record import _lz4frame, _snappy, batch as batch_module, codecs, crc, prebuilt
from kafka.record.batch import RecordBatch, RecordBatchBuilder


class Recorder:
    """Calls ``function``, keeping every memoryview it is given."""

    def __init__(self, function: Any) -> None:
        self.function = function
        self.views: List[memoryview] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.views.extend(arg for arg in args if isinstance(arg, memoryview))
        return self.function(*args, **kwargs)

    def all_released(self) -> bool:
        assert self.views, "no memoryview was handed over"
        for view in self.views:
            try:
                len(view)
            except ValueError:  # "operation forbidden on released memoryview object"
                continue
            return False
        return True


def _batch(compression_type: int = codecs.NONE) -> bytes:
    builder = RecordBatchBuilder(compression_type=compression_type)
    builder.extend([(1000 + i, None, b"value %d" % i, None) for i in range(50)])
    return builder.build()


def test_builder_releases_the_view_it_checksums(monkeypatch):
    recorder = Recorder(crc.crc32c)
    monkeypatch.setattr(batch_module, "crc32c", recorder)
    data = _batch()
    assert recorder.all_released()
    monkeypatch.undo()
    assert RecordBatch(data).validate_crc()


def test_reader_releases_the_view_it_checksums(monkeypatch):
    data = _batch()
    recorder = Recorder(crc.crc32c)
    monkeypatch.setattr(batch_module, "crc32c", recorder)
    assert RecordBatch(data).validate_crc()
    assert recorder.all_released()


def test_reader_releases_the_view_it_decompresses(monkeypatch):
    data = _batch(codecs.GZIP)
    recorder = Recorder(codecs.decompress)
    monkeypatch.setattr(codecs, "decompress", recorder)
    buf, start, stop = RecordBatch(data).body()
    assert recorder.all_released()
    monkeypatch.undo()
    assert bytes(buf[start:stop]) == RecordBatch(_batch()).body()[0][batch_module.HEADER_SIZE:]


def test_prebuilt_batch_releases_the_view_it_compresses(monkeypatch):
    records_builder = RecordBatchBuilder()
    records_builder.extend([(1000, None, b"v", None)])
    plain = records_builder.build()
    body = plain[batch_module.HEADER_SIZE:]
    recorder = Recorder(codecs.compress)
    monkeypatch.setattr(codecs, "compress", recorder)
    built = prebuilt.build_batch(body, 1, 1000, 1000, compression_type=codecs.GZIP)
    assert recorder.all_released()
    monkeypatch.undo()
    assert [r.value for r in RecordBatch(built)] == [b"v"]


@pytest.mark.parametrize("size", [10, 64 * 1024 + 10, 200 * 1024])
def test_lz4_frame_writer_releases_its_block_views(size):
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    recorder = Recorder(lambda chunk: bytes(chunk)[: len(chunk) // 2])  # "compresses" every block
    framed = _lz4frame.write_frame(data, recorder, magic=2)
    assert recorder.all_released()
    assert framed.startswith(_lz4frame.write_frame(b"", bytes, magic=2)[:7])


@pytest.mark.parametrize("size", [10, 32 * 1024 + 10])
def test_xerial_writer_releases_its_block_views(size):
    data = b"y" * size
    recorder = Recorder(lambda chunk: bytes(chunk))
    _snappy.xerial_encode(data, recorder)
    assert recorder.all_released()
