"""Acknowledgement bookkeeping of the share consumer, and the batches it sends (KIP-932)."""

from __future__ import annotations

import pytest

from kafka import errors
from kafka.consumer.share.acknowledgements import ACCEPT, GAP, REJECT, RELEASE, InFlightRecords, to_batches
from kafka.structs import TopicPartition

TP = TopicPartition("t", 0)


def test_a_run_of_one_type_is_one_batch_with_one_type():
    assert to_batches({5: ACCEPT, 6: ACCEPT, 7: ACCEPT}) == [(5, 7, [ACCEPT])]


def test_a_run_of_mixed_types_lists_one_type_per_offset():
    assert to_batches({5: ACCEPT, 6: GAP, 7: RELEASE}) == [(5, 7, [ACCEPT, GAP, RELEASE])]


def test_a_hole_in_the_offsets_starts_a_new_batch():
    assert to_batches({9: REJECT, 2: ACCEPT, 3: ACCEPT}) == [(2, 3, [ACCEPT]), (9, 9, [REJECT])]


def test_nothing_marked_gives_no_batch():
    assert to_batches({}) == []


def test_only_marked_records_are_taken_and_then_no_longer_in_flight():
    records = InFlightRecords()
    records.delivered(TP, [1, 2, 3])
    records.mark(TP, 2, RELEASE)
    assert records.unmarked() == 2
    assert records.take_marked() == {TP: {2: RELEASE}}
    with pytest.raises(errors.IllegalStateError):
        records.mark(TP, 2, ACCEPT)
    records.accept_unmarked()
    assert records.take_marked([TP]) == {TP: {1: ACCEPT, 3: ACCEPT}}
    assert records.take_marked() == {}


def test_a_record_never_delivered_cannot_be_marked():
    with pytest.raises(errors.IllegalStateError):
        InFlightRecords().mark(TP, 0, ACCEPT)


def test_acquired_offsets_without_records_are_gaps():
    records = InFlightRecords()
    records.mark_gaps(TP, [4, 5])
    assert records.unmarked() == 0
    assert records.take_marked() == {TP: {4: GAP, 5: GAP}}
