"""kafka-python 3's topic methods: its argument forms and its result dicts."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Mapping, Optional, Sequence

from kafka import errors
from kafka.admin.kafka_python.forms import kafkawire_form
from kafka.admin.kafka_python.shapes import config_dict, plain, topic_dict
from kafka.admin.resources import NewPartitions, NewTopic
from kafka.admin.results import finish
from kafka.admin.topics import TopicsMixin, _topic_names


def as_new_topics(specs: Any) -> List[NewTopic]:
    """NewTopic objects for kafka-python 3's inputs: names, ``{name: options}`` or NewTopic objects."""
    if isinstance(specs, (str, NewTopic)):
        specs = [specs]
    if isinstance(specs, Mapping):
        out = []
        for name, options in specs.items():
            options = dict(options or {})
            out.append(NewTopic(name, options.pop("num_partitions", -1), options.pop("replication_factor", -1),
                                replica_assignments=options.pop("assignments", None),
                                topic_configs=options.pop("configs", None)))
            if options:
                raise errors.IllegalArgumentError("create_topics: unknown options for %s: %s"
                                                  % (name, ", ".join(sorted(options))))
        return out
    return [NewTopic(t) if isinstance(t, str) else t for t in specs]


def as_new_partitions(specs: Mapping[str, Any]) -> Dict[str, NewPartitions]:
    """kafka-python 3's ``{topic: count}`` or ``{topic: {count, assignments}}`` as NewPartitions."""
    if not isinstance(specs, Mapping):
        return specs
    out = {}
    for name, spec in specs.items():
        if isinstance(spec, Mapping):
            spec = NewPartitions(spec["count"], spec.get("assignments"))
        elif isinstance(spec, int) and not isinstance(spec, bool):
            spec = NewPartitions(spec)
        out[name] = spec
    return out


def _topic_results(answers: Dict[str, Any], results: Dict[str, Any], shape: Any) -> Dict[str, List[Any]]:
    """``{'topics': [...]}``: each broker answer as a dict; a topic never answered gets its error."""
    topics = []
    for name, outcome in results.items():
        if name in answers:
            topics.append(shape(answers[name]))
        else:
            topics.append({"name": name, "topic_id": None, "error_code": getattr(outcome, "errno", -1),
                           "error_message": str(outcome)})
    return {"topics": topics}


def _created(answer: Any) -> Dict[str, Any]:
    out = plain(answer)
    configs = out.pop("configs", None)
    if configs:
        out["configs"] = {c.name: config_dict(c) for c in answer.configs}
    return out


class KafkaPythonTopics(TopicsMixin):
    """``create_topics``, ``delete_topics``, ``create_partitions``, ``describe_topics``, ``wait_for_topics``."""

    def create_topics(self, new_topics: Any, timeout_ms: Optional[float] = None,  # type: ignore[override]
                      validate_only: bool = False, raise_errors: Optional[bool] = None,
                      wait_for_metadata: bool = False, raise_error: Optional[bool] = None) -> Dict[str, Any]:
        """Create topics given as names, ``{name: options}`` or NewTopic objects.

        ``options`` keys are kafka-python 3's: ``num_partitions``,
        ``replication_factor``, ``assignments`` and ``configs`` (each
        optional; the broker's defaults apply). Returns kafka-python's
        ``{'topics': [{'name', 'topic_id', 'error_code', 'error_message',
        'num_partitions', 'replication_factor', ...}]}``; with
        ``raise_errors`` (default True) a failed topic raises an error that
        ``except TopicAlreadyExistsError`` (or the failure's own class)
        catches. ``wait_for_metadata`` waits (up to ``timeout_ms`` or 10 s)
        until the new topics have a leader for every partition. Passing
        kafkawire's ``raise_error`` instead returns ``{name: None or error}``.
        """
        kafkawire = kafkawire_form(raise_error, raise_errors)
        if validate_only and wait_for_metadata:
            raise errors.IllegalArgumentError("validate_only and wait_for_metadata exclude each other")
        results, answers = self._create_topics(as_new_topics(new_topics), timeout_ms, validate_only)
        finish("create_topics", results, bool(raise_error) if kafkawire else raise_errors is not False)
        if wait_for_metadata:
            created = [name for name, outcome in results.items() if outcome is None]
            self.wait_for_topics(created, timeout_ms if timeout_ms is not None else 10000)
        return results if kafkawire else _topic_results(answers, results, _created)

    def delete_topics(self, topics: Sequence[str], timeout_ms: Optional[float] = None,  # type: ignore[override]
                      raise_errors: Optional[bool] = None, raise_error: Optional[bool] = None) -> Dict[str, Any]:
        """Delete topics: kafka-python's ``{'topics': [{'name', 'topic_id', 'error_code', 'error_message'}]}``.

        ``raise_errors`` (default True) raises when a topic failed; passing
        kafkawire's ``raise_error`` instead returns ``{name: None or error}``.
        """
        kafkawire = kafkawire_form(raise_error, raise_errors)
        results, answers = self._delete_topics(topics, timeout_ms)
        finish("delete_topics", results, bool(raise_error) if kafkawire else raise_errors is not False)
        return results if kafkawire else _topic_results(answers, results, plain)

    def create_partitions(self, topic_partitions: Mapping[str, Any],  # type: ignore[override]
                          timeout_ms: Optional[float] = None, validate_only: bool = False,
                          raise_errors: Optional[bool] = None,
                          raise_error: bool = True) -> Dict[str, Optional[BaseException]]:
        """Add partitions: ``{topic: total count}``, ``{topic: {'count': n, 'assignments': [[ids]]}}``
        or ``{topic: NewPartitions}``; returns ``{topic: None or error}``."""
        return super().create_partitions(as_new_partitions(topic_partitions), timeout_ms, validate_only,
                                         raise_error=raise_error if raise_errors is None else bool(raise_errors))

    def describe_topics(self, topics: Optional[Sequence[str]] = None,
                        raise_error: Optional[bool] = None) -> Any:
        """Describe topics (all when None) as kafka-python does: a list of dicts.

        Each dict has ``name``, ``topic_id`` (a string or None),
        ``error_code``, ``is_internal``, ``authorized_operations`` (None) and
        ``partitions``: dicts with ``partition_index``, ``leader_id``,
        ``leader_epoch``, ``replica_nodes``, ``isr_nodes``,
        ``offline_replicas`` and ``error_code``. A missing topic is listed
        with its error code, not raised. Passing kafkawire's ``raise_error``
        instead returns ``{name: TopicDescription}``.
        """
        if kafkawire_form(raise_error):
            return super().describe_topics(topics, raise_error=bool(raise_error))
        names = None if topics is None else _topic_names(topics, "describe_topics")
        return [topic_dict(t) for t in self._metadata(names).topics if t.name]

    def describe_cluster(self, raise_error: Optional[bool] = None) -> Any:
        """The cluster id, controller and brokers as kafka-python returns them: a dict.

        Keys ``cluster_id``, ``controller_id`` (None when unknown),
        ``brokers`` (dicts with ``broker_id``, ``host``, ``port``, ``rack``,
        sorted by id) and ``authorized_operations`` (None: not asked for).
        Passing kafkawire's ``raise_error`` instead returns a
        :class:`~kafka.admin.results.ClusterDescription`.
        """
        description = super().describe_cluster()
        if kafkawire_form(raise_error):
            return description
        return {"cluster_id": description.cluster_id, "controller_id": description.controller_id,
                "brokers": [{"broker_id": b.nodeId, "host": b.host, "port": b.port, "rack": b.rack}
                            for b in description.brokers],
                "authorized_operations": None}

    def wait_for_topics(self, topic_names: Sequence[str], timeout_ms: float = 10000) -> None:
        """Block until every topic is described with a leader for each partition.

        Raises :class:`~kafka.errors.KafkaTimeoutError` when some topic is
        still not ready after ``timeout_ms``.
        """
        names = list(topic_names)
        if not names:
            return
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            found = super().describe_topics(names, raise_error=False)
            pending: Dict[str, str] = {}
            for name in names:
                description = found.get(name)
                if description is None or isinstance(description, BaseException):
                    pending[name] = repr(description)
                elif not description.partitions or any(p.leader < 0 or p.error for p in description.partitions):
                    pending[name] = "a partition has no leader yet"
            if not pending:
                return
            if time.monotonic() >= deadline:
                raise errors.KafkaTimeoutError("topics not ready after %s ms: %s" % (
                    timeout_ms, "; ".join("%s (%s)" % item for item in sorted(pending.items()))))
            time.sleep(0.1)


__all__ = ["KafkaPythonTopics", "as_new_topics", "as_new_partitions"]
