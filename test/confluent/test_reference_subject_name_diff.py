"""``confluent_kafka.schema_registry.reference_subject_name_strategy``, which quixstreams imports.

It names the subject of a referenced schema after the reference itself; the
real confluent_kafka is the oracle.
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("field", ["key", "value"])
def test_the_subject_is_the_reference_s_name(ck: Any, kc: Any, field: str) -> None:
    import confluent_kafka.schema_registry as theirs

    import kafka.confluent.schema_registry as ours

    for sr, lib in ((theirs, ck), (ours, kc)):
        ctx = lib.serialization.SerializationContext("orders", field)
        ref = sr.SchemaReference("com.example.Address", "addresses-value", 3)
        assert sr.reference_subject_name_strategy(ctx, ref) == "com.example.Address"
        assert sr.reference_subject_name_strategy(None, ref) == "com.example.Address"
        assert sr.reference_subject_name_strategy(ctx, None) is None
    assert ("reference_subject_name_strategy" in ours.__all__) == ("reference_subject_name_strategy" in theirs.__all__)
