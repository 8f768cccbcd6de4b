"""kafka.confluent's kept records as columns: what a run holds and how its report groups divide it."""

from __future__ import annotations

from kafka.confluent._kept_records import KeptRun, ReportGroup
from kafka.producer.batch import ValueColumns
from kafka.producer.future import ProduceResult
from kafka.structs import TopicPartition


def _report(error, message):  # a callback; never called here
    raise AssertionError("not called")


def _run(records):
    """A run of ``(key, value, headers, callback)`` records, stamped 1000, 1001, ..."""
    run = KeptRun(since=5.0)
    for index, (key, value, headers, callback) in enumerate(records):
        data = (len(key) if key else 0) + (len(value) if value else 0)
        run.add(1000 + index, key, value, headers, data, 70 + data, callback, 5.0 + index)
    return run


def test_records_without_key_or_headers_go_to_the_engine_as_columns():
    run = _run([(None, b"a", None, None), (None, None, None, None), (None, b"ccc", None, None)])
    columns = run.for_engine()
    assert isinstance(columns, ValueColumns)
    assert (columns.stamps, columns.values) == ([1000, 1001, 1002], [b"a", None, b"ccc"])
    assert run.keys is None and run.headers is None and run.callbacks is None and run.started is None
    assert run.sizes == [71, 70, 73] and run.data_bytes == 4 and run.since == 5.0


def test_a_key_or_headers_part_way_give_every_record_its_own_tuple():
    headers = (("h", b"1"),)
    run = _run([(None, b"a", None, None), (b"k", b"b", None, None), (None, b"c", headers, None)])
    assert run.for_engine() == [(1000, None, b"a", None), (1001, b"k", b"b", None), (1002, None, b"c", headers)]
    assert run.record(1) == (1001, b"k", b"b", None)
    assert run.record(2) == (1002, None, b"c", headers)


def test_callbacks_and_start_times_are_kept_from_the_first_record_with_a_callback():
    run = _run([(None, b"a", None, None), (None, b"b", None, _report), (None, b"c", None, None)])
    assert run.callbacks == [None, _report, None]
    assert run.started is not None and run.started[1:] == [6.0, 7.0]
    assert not run.has_callback_between(0, 1) and not run.has_callback_between(2, 3)
    assert run.has_callback_between(0, 3) and run.has_callback_between(1, 2)
    assert not _run([(None, b"a", None, None)]).has_callback_between(0, 1)


def test_the_bytes_of_part_of_a_run_count_keys_and_values():
    run = _run([(b"kk", b"aaa", None, None), (None, b"bbbb", None, None), (b"k", None, None, None)])
    assert run.bytes_between(0, 3) == run.data_bytes == 10
    assert [run.bytes_between(i, i + 1) for i in range(3)] == [5, 4, 1]
    assert run.bytes_between(1, 3) == 5 and run.bytes_between(2, 2) == 0


def test_a_group_of_a_split_batch_divides_by_the_half_that_wrote_each_record():
    run = _run([(None, b"%d" % i, None, None) for i in range(10)])
    batch = ProduceResult(TopicPartition("t", 0))
    first_half, second_half = ProduceResult(TopicPartition("t", 0)), ProduceResult(TopicPartition("t", 0))
    batch.parts = (6, first_half, second_half)  # the batch's records 0-5, then 6 on
    # Records 3..9 of the run are the batch's records 2..8, the first of them reported already.
    group = ReportGroup("t", 0, run, 3, 10, batch, 2, None, skip=1)
    parts = group.by_outcome()
    assert [(p.result, p.start, p.stop, p.first, p.skip) for p in parts] == [
        (first_half, 3, 7, 2, 1), (second_half, 7, 10, 0, 0)]
    assert sum(map(len, parts)) == len(group) == 7


def test_the_rest_of_a_group_after_a_raising_callback_keeps_each_record_s_offset():
    run = _run([(None, b"%d" % i, None, None) for i in range(8)])
    group = ReportGroup("t", 1, run, 2, 8, None, 10, None)
    rest = group.rest_from(5)
    # Run record 5 is the group's fourth: offset base + 10 + 3.
    assert (rest.start, rest.stop, rest.first, rest.skip, len(rest)) == (5, 8, 13, 1, 3)
    assert rest.data_bytes() == 3
