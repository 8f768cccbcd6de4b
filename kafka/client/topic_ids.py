"""Topic ids (KIP-516) in requests whose newest versions name topics by id only.

Produce v13+, Fetch v13+, OffsetCommit v10+ and OffsetFetch v10+ carry a
topic id where older versions carry the name, in the request and in the
response. A caller building one of these requests:

* picks its version with :func:`choose_version`, which stays below the
  id-only versions when cluster metadata has no id for one of the topics
  (a request naming a topic by the null id could only fail);
* remembers the ids it sent (:func:`ids_by_name`) and maps each topic entry
  of the response back to a name with :func:`response_topic`.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict, Iterable, Mapping, Optional

from kafka import errors
from kafka.protocol.apis import FETCH, OFFSET_COMMIT, OFFSET_FETCH, PRODUCE
from kafka.protocol.schema import Api

#: First version of each API whose topic entries have an id and no name.
ID_ONLY_SINCE: Dict[int, int] = {
    PRODUCE.key: 13,
    FETCH.key: 13,
    OFFSET_COMMIT.key: 10,
    OFFSET_FETCH.key: 10,
}


def ids_by_name(cluster: Any, topics: Iterable[str]) -> Dict[str, Optional[uuid.UUID]]:
    """The id cluster metadata knows for each of ``topics`` (None where it knows none)."""
    return {topic: cluster.topic_id(topic) for topic in topics}


def names_by_id(ids: Mapping[str, Optional[uuid.UUID]]) -> Dict[uuid.UUID, str]:
    """The reverse of :func:`ids_by_name`, leaving out topics without an id."""
    return {tid: topic for topic, tid in ids.items() if tid is not None}


def known_topic_names(cluster: Any) -> Dict[uuid.UUID, str]:
    """``{topic id: name}`` for every topic of ``cluster``'s metadata that has an id."""
    return names_by_id(ids_by_name(cluster, cluster.topics(exclude_internal_topics=False)))


def name_only_cap(api: Api, ids: Mapping[str, Optional[uuid.UUID]]) -> Optional[int]:
    """The highest version of ``api`` usable for topics with ``ids``.

    None when there is no limit: ``api`` never names topics by id only, or
    every topic has an id.
    """
    since = ID_ONLY_SINCE.get(api.key)
    if since is None or all(tid is not None for tid in ids.values()):
        return None
    return since - 1


def choose_version(client: Any, api: Api, node_id: int, ids: Mapping[str, Optional[uuid.UUID]],
                   highest: Optional[int] = None) -> int:
    """The version of ``api`` to send to ``node_id`` for a request about topics with ``ids``.

    Raises :class:`~kafka.errors.UnknownTopicIdError` (retriable, asking for
    fresh metadata) when some topic has no id and the broker only accepts
    versions that name topics by id.
    """
    cap = name_only_cap(api, ids)
    if cap is not None and (highest is None or cap < highest):
        try:
            capped: int = client.api_version(api, node_id, highest=cap)
            return capped
        except errors.UnsupportedVersionError as exc:
            missing = sorted(topic for topic, tid in ids.items() if tid is None)
            raise errors.UnknownTopicIdError(
                "cluster metadata has no topic id for %s, and broker %s only accepts %s versions "
                "that name topics by id (%s)" % (", ".join(map(repr, missing)), node_id, api.name, exc)) from None
    version: int = client.api_version(api, node_id, highest=highest)
    return version


def response_topic(entry: Any, field: str, by_id: Mapping[uuid.UUID, str]) -> Optional[str]:
    """The topic name of a response's topic ``entry``: its ``field`` or, when blank, its id's name."""
    name: Optional[str] = getattr(entry, field, None)
    if name:
        return name
    return by_id.get(getattr(entry, "topic_id", None))  # type: ignore[arg-type]
