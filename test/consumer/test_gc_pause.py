"""gc_paused: the cyclic collector is off while a poll builds records, and on again afterwards."""

from __future__ import annotations

import gc
import sys

import pytest

from kafka.consumer.gc_pause import gc_paused

cpython_only = pytest.mark.skipif(sys.implementation.name != "cpython", reason="pauses CPython's collector only")


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
