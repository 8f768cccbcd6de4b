"""Shortening a peer's text before it reaches exceptions and logs."""

from __future__ import annotations

import pickle

from kafka import errors
from kafka.peer_text import LIMIT, shorten


def test_short_text_is_kept_whole():
    assert shorten("broker-1.example.com") == "broker-1.example.com"
    assert shorten(None) == ""
    assert shorten(42) == "42"


def test_long_text_keeps_its_start_and_says_how_long_it_was():
    text = shorten("x" * 1000000)
    assert text.startswith("x" * LIMIT) and text.endswith("... (1000000 characters)")
    assert len(text) < LIMIT + 40
    assert shorten(text) == text  # shortened text passes through unchanged


def test_long_bytes_are_shown_by_repr():
    assert shorten(b"\xff" * 1000, 10) == "b'\\xff\\xff... (4003 characters)"


def test_a_broker_error_bounds_its_text_and_survives_pickling():
    error = errors.InvalidRecordError("t-0: " + "m" * 1000000)
    text = str(error)
    assert len(text) < errors.BROKER_ERROR_TEXT_LIMIT + 100 and "(1000005 characters)" in text
    assert str(pickle.loads(pickle.dumps(error))) == text
    assert str(errors.UnknownTopicOrPartitionError("t", 3)) == "[Error 3] UnknownTopicOrPartitionError: t 3"
