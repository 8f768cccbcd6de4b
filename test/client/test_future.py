"""The thread-safe Future."""

from __future__ import annotations

import threading

import pytest

from kafka.errors import IllegalStateError, KafkaTimeoutError, RequestTimedOutError
from kafka.future import Future


def test_callbacks_before_and_after_resolution():
    seen = []
    future = Future()
    future.add_callback(seen.append)
    future.add_errback(lambda e: seen.append("never"))
    assert not future.is_done
    future.success(7)
    future.add_callback(lambda v: seen.append(v * 2))
    assert seen == [7, 14]
    assert future.is_done and future.succeeded() and not future.failed()
    with pytest.raises(IllegalStateError):
        future.success(8)


def test_failure_and_retriable():
    future = Future().failure(RequestTimedOutError)
    assert future.failed() and future.retriable()
    errs = []
    future.add_errback(errs.append)
    assert isinstance(errs[0], RequestTimedOutError)
    with pytest.raises(RequestTimedOutError):
        future.get(0)


def test_get_waits_for_another_thread_and_times_out():
    future = Future()
    threading.Timer(0.05, future.success, args=("done",)).start()
    assert future.get(5) == "done"
    with pytest.raises(KafkaTimeoutError):
        Future().get(0.01)


def test_a_failing_callback_does_not_break_resolution():
    future = Future()
    future.add_callback(lambda v: 1 / 0)
    later = []
    future.add_callback(later.append)
    future.success(1)
    assert later == [1]


def test_chain():
    a, b = Future(), Future()
    a.chain(b)
    a.failure(ValueError("x"))
    assert isinstance(b.exception, ValueError)
