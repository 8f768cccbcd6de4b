"""seek() takes only offsets a Fetch request can carry."""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.consumer.subscription import SubscriptionState
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)


def _assigned():
    sub = SubscriptionState()
    sub.assign_from_user([TP])
    return sub


@pytest.mark.parametrize("offset", [-1, 2 ** 63, 2 ** 64, "5", 1.0, None])
def test_an_offset_outside_int64_or_not_an_int_is_refused(offset):
    sub = _assigned()
    with pytest.raises(errors.IllegalArgumentError):
        sub.seek(TP, offset)
    assert sub.position(TP) is None


@pytest.mark.parametrize("offset", [0, 2 ** 63 - 1])
def test_the_ends_of_the_range_are_taken(offset):
    sub = _assigned()
    sub.seek(TP, offset)
    assert sub.position(TP) == offset
