"""gc_paused: the collector is off while a poll builds records, and does not walk them after it returns."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

from kafka import fast_paths
from kafka.gc_pause import gc_paused, restore_threshold

cpython_only = pytest.mark.skipif(sys.implementation.name != "cpython", reason="pauses CPython's collector only")


@pytest.fixture(autouse=True)
def pausing():
    """The pause is CPython's ``GC_PAUSE`` fast path: on for these tests even under KAFKAWIRE_NO_FAST_PATHS=1."""
    with fast_paths.override(GC_PAUSE=fast_paths.CPYTHON):
        yield


def test_with_the_fast_path_off_a_poll_leaves_the_collector_alone():
    saved = gc.get_threshold()
    with fast_paths.override(GC_PAUSE=False):
        with gc_paused():
            assert gc.isenabled()
        restore_threshold()
        assert gc.get_threshold() == saved


@cpython_only
def test_the_collector_is_off_inside_and_on_after():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


@cpython_only
def test_an_error_inside_still_turns_it_back_on():
    with pytest.raises(ZeroDivisionError):
        with gc_paused():
            1 / 0
    assert gc.isenabled()


def test_a_collector_turned_off_by_the_application_stays_off():
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- the young generation's threshold around a poll ------------------------------------------

@pytest.fixture
def threshold():
    """The young generation's threshold before the test; put back (and any lift ended) after it."""
    saved = gc.get_threshold()
    restore_threshold()
    yield gc.get_threshold()[0]
    restore_threshold()
    gc.set_threshold(*saved)


class _Passes:
    """Young-generation passes of the collector that this thread runs while the block runs.

    A pass runs in the thread whose allocation set it off: passes of other
    threads of the test process (clients of earlier tests) are not counted.
    """

    def __enter__(self):
        self.young = 0
        self._thread = threading.get_ident()
        gc.callbacks.append(self._seen)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self._seen)

    def _seen(self, phase, info):
        if phase == "start" and info["generation"] == 0 and threading.get_ident() == self._thread:
            self.young += 1


def _poll(records):
    """What a poll does to the collector: ``records`` tuples made with it paused, returned alive."""
    with gc_paused():
        return [(i, str(i)) for i in range(records)]


@cpython_only
def test_the_records_of_a_poll_are_not_walked_by_the_pass_after_it(threshold):
    with _Passes() as passes:
        records = _poll(5 * threshold)
        allocated = [[] for _ in range(10)]  # the application's next allocations
    assert passes.young == 0  # a plain gc.enable() would start one at the first allocation
    assert gc.get_threshold()[0] > gc.get_count()[0]
    del records, allocated


@cpython_only
def test_the_next_poll_puts_the_threshold_back(threshold):
    records = _poll(5 * threshold)
    assert gc.get_threshold()[0] > threshold
    with gc_paused():
        assert gc.get_threshold()[0] == threshold
    del records
    _poll(5 * threshold)
    restore_threshold()  # as closing a consumer does
    assert gc.get_threshold()[0] == threshold


@cpython_only
@pytest.mark.parametrize("made, passes_expected", [
    ((5, 0), 0),  # a poll that made nothing (none had arrived yet) still spares the records of the one before
    ((5, 5), 1),  # records kept past the next poll are walked as usual
], ids=["after an empty poll", "records kept"])
def test_the_next_poll_walks_only_records_kept_past_the_last_poll(threshold, made, passes_expected):
    kept = [_poll(n * threshold) for n in made]
    with _Passes() as passes:
        with gc_paused():
            pass
    assert passes.young == passes_expected
    del kept


@cpython_only
def test_a_threshold_the_application_sets_in_between_is_kept(threshold):
    records = _poll(5 * threshold)
    gc.set_threshold(threshold + 1234)
    with gc_paused():
        assert gc.get_threshold()[0] == threshold + 1234
    assert gc.get_threshold()[0] == threshold + 1234
    del records


@cpython_only
def test_two_polls_overlapping_lift_from_the_applications_threshold(threshold):
    # Two threads may both find the collector on and both pause it; the later
    # exit must not take the earlier one's lift for the application's threshold.
    first, second = gc_paused(), gc_paused()
    first.__enter__()
    gc.enable()
    second.__enter__()
    made = [(i, str(i)) for i in range(5 * threshold)]
    first.__exit__(None, None, None)
    gc.disable()  # the second poll goes on without a pass, as if still paused
    made += [(i, str(i)) for i in range(5 * threshold)]
    second.__exit__(None, None, None)
    restore_threshold()
    assert gc.get_threshold()[0] == threshold
    del made


@cpython_only
def test_large_polls_leave_no_young_pass_to_an_application_loop(broker, threshold):
    # A consumer loop rebinds its variable only when the next poll returns, so
    # the last poll's records are still alive when the next one starts.
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    from test.support.topics import new_topic

    topic = new_topic(broker)
    with KafkaProducer(bootstrap_servers=broker.bootstrap_servers, linger_ms=20) as producer:
        for i in range(40000):
            producer.send(topic, b"value-%d" % i, key=b"key-%d" % (i % 97), headers=[("h", b"x")], partition=0)
    tp = TopicPartition(topic, 0)
    consumer = KafkaConsumer(bootstrap_servers=broker.bootstrap_servers, max_poll_records=10000,
                             enable_auto_commit=False)
    try:
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        got = 0
        batch = consumer.poll(timeout_ms=10000)  # connects, looks up the position, fetches
        got += sum(len(records) for records in batch.values())
        with _Passes() as passes:
            polls = 0
            while got < 40000 and polls < 50:
                batch = consumer.poll(timeout_ms=10000)
                got += sum(len(records) for records in batch.values())
                polls += 1
    finally:
        consumer.close()
    assert got == 40000
    # The code before this change made one pass after every poll (a poll of up
    # to 10,000 records is far past the threshold). A poll may still walk the
    # part of a chunk that the poll before it decoded.
    assert passes.young < polls
    assert gc.get_threshold()[0] == threshold  # close() put it back
