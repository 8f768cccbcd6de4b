"""The topic-id version rule: a request names topics by id only if every one of its topics has an id.

Produce/Fetch v13+ and OffsetCommit/OffsetFetch v10+ carry topic ids and no
names. When cluster metadata has an id for some of a request's topics but
not for all, the request must stay at a version that names topics: one
topic without an id would otherwise go out as the null id.
"""

from __future__ import annotations

import uuid

import pytest

from kafka import errors
from kafka.client.topic_ids import choose_version, name_only_cap
from kafka.protocol.apis import FETCH, METADATA, OFFSET_COMMIT, OFFSET_FETCH, PRODUCE

ID = uuid.UUID(int=7)


class _Broker:
    """Answers ``api_version`` as a client connected to a broker offering ``low``..``high`` does."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    def api_version(self, api, node_id, highest=None, unsupported_ok=False):
        top = self.high if highest is None else min(self.high, highest)
        if top < self.low:
            raise errors.UnsupportedVersionError("no version in common")
        return top


@pytest.mark.parametrize("api, since", [(PRODUCE, 13), (FETCH, 13), (OFFSET_COMMIT, 10), (OFFSET_FETCH, 10)])
def test_one_topic_without_an_id_keeps_the_request_below_the_id_only_versions(api, since):
    assert name_only_cap(api, {"a": ID, "b": ID}) is None
    assert name_only_cap(api, {"a": ID, "b": None}) == since - 1
    assert name_only_cap(api, {"a": None}) == since - 1
    assert choose_version(_Broker(0, since + 2), api, 1, {"a": ID, "b": ID}) == since + 2
    assert choose_version(_Broker(0, since + 2), api, 1, {"a": ID, "b": None}) == since - 1
    assert choose_version(_Broker(0, since + 2), api, 1, {"a": ID, "b": None}, highest=since - 3) == since - 3


def test_a_broker_that_only_takes_ids_makes_a_topic_without_one_a_retriable_error():
    with pytest.raises(errors.UnknownTopicIdError) as raised:
        choose_version(_Broker(13, 15), FETCH, 1, {"a": ID, "b": None})
    assert "'b'" in str(raised.value) and raised.value.retriable


def test_apis_that_never_name_topics_by_id_are_not_capped():
    assert name_only_cap(METADATA, {"a": None}) is None
