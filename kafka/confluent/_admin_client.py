"""confluent-kafka's ``AdminClient`` on kafkawire's :class:`~kafka.admin.KafkaAdminClient`.

Every operation returns at once: a ``concurrent.futures.Future`` (or a dict of
them, one per resource) completed by a worker thread that runs the engine
call. A resource that failed makes its future raise
``KafkaException(KafkaError(code))`` with the broker's (or librdkafka's local)
error code; a failure of the whole call fails every future of that call.
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import threading
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from kafka import errors as engine_errors
from kafka.admin import acl as engine_acl
from kafka.admin import resources as engine_res
from kafka.admin.kafka_python import users as engine_users
from kafka.confluent import config as confmod
from kafka.confluent._admin_types import (
    AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AlterConfigOpType, ConfigEntry, ConfigResource,
    ConfigSource, ConsumerGroupDescription, ConsumerGroupListing, ConsumerGroupState, ConsumerGroupTopicPartitions,
    ConsumerGroupType, DeletedRecords, DescribeClusterResult, ElectionType, GroupMetadata, IsolationLevel,
    ListConsumerGroupsResult, MemberAssignment, MemberDescription, NewPartitions, NewTopic, Node, OffsetSpec,
    ResourcePatternType, ResourceType, TopicCollection, TopicDescription, TopicPartitionInfo, group_state)
from kafka.confluent._closing import Closable
from kafka.confluent._admin_scram import (DEFAULT_SALT_BYTES, ScramCredentialInfo, ScramMechanism,
                                          UserScramCredentialAlteration, UserScramCredentialDeletion,
                                          UserScramCredentialsDescription,
                                          UserScramCredentialUpsertion, check_alterations, check_users,
                                          duplicate_users_error)
from kafka.confluent._list_groups import list_groups
from kafka.confluent.admin import ClusterMetadata, MetadataSource, check_credentials
from kafka.confluent.errors import KafkaError, KafkaException, call_error, from_engine
from kafka.confluent.message import OFFSET_INVALID, TopicPartition
from kafka.structs import OffsetAndMetadata
from kafka.structs import TopicPartition as EngineTP

log = logging.getLogger(__name__)

Future = concurrent.futures.Future


def _seconds_to_ms(value: Any, default_ms: float, what: str) -> float:
    if value is None:
        return default_ms
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number" % what)
    return default_ms if value < 0 else float(value) * 1000.0


def _kafka_error(error: BaseException) -> KafkaError:
    if isinstance(error, engine_errors.UnsupportedVersionError):
        # librdkafka's answer when the broker does not offer the API at all.
        return KafkaError(KafkaError._UNSUPPORTED_FEATURE, str(error) or None)  # type: ignore[attr-defined]
    return call_error(error, "", KafkaError._TIMED_OUT)  # type: ignore[attr-defined]


def _fail(error: BaseException) -> KafkaException:
    if isinstance(error, KafkaException):
        return error
    return KafkaException(_kafka_error(error))


def _engine_acl(binding: AclBinding) -> Any:
    pattern_cls: Any = engine_acl.ResourcePatternFilter if isinstance(binding, AclBindingFilter) \
        else engine_acl.ResourcePattern
    pattern = pattern_cls(engine_acl.ResourceType(binding.restype.value), binding.name,
                          engine_acl.ACLResourcePatternType(binding.resource_pattern_type.value))
    cls: Any = engine_acl.ACLFilter if isinstance(binding, AclBindingFilter) else engine_acl.ACL
    return cls(binding.principal, binding.host, engine_acl.ACLOperation(binding.operation.value),
               engine_acl.ACLPermissionType(binding.permission_type.value), pattern)


def _binding(acl: Any) -> AclBinding:
    pattern = acl.resource_pattern
    return AclBinding(ResourceType(int(pattern.resource_type)), pattern.resource_name,
                      ResourcePatternType(int(pattern.pattern_type)), acl.principal, acl.host,
                      AclOperation(int(acl.operation)), AclPermissionType(int(acl.permission_type)))


def _engine_config_type(restype: ResourceType) -> Any:
    try:
        return engine_res.ConfigResourceType[restype.name]
    except KeyError:
        raise ValueError("Cannot use resource type %s for configs" % restype.name) from None


def _config_entry(entry: Any) -> ConfigEntry:
    synonyms = {}
    for name, value, source in entry.synonyms or ():
        synonyms[name] = ConfigEntry(name, value, _config_source(source), is_synonym=True)
    return ConfigEntry(entry.name, entry.value, _config_source(entry.source), entry.read_only, entry.is_default,
                       entry.is_sensitive, False, synonyms)


def _config_source(value: Any) -> ConfigSource:
    try:
        return ConfigSource(int(value))
    except ValueError:
        return ConfigSource.UNKNOWN_CONFIG


def _admin_settings(config: Any) -> Dict[str, Any]:
    """:class:`~kafka.admin.KafkaAdminClient` keyword arguments for a checked configuration.

    The property mapping (servers, security, backoffs) is the one the other
    clients use; only the keys the admin client accepts are kept.
    """
    from kafka.admin.base import ADMIN_CONFIG, CLIENT_CONFIG

    settings = confmod._common_settings(config, "admin")
    accepted = set(CLIENT_CONFIG) | set(ADMIN_CONFIG)
    return {k: v for k, v in settings.items() if k in accepted and v is not None}


def _checked_list(value: Any, cls: type, what: str) -> list:
    if not isinstance(value, list):
        raise TypeError("Expected list of %s" % what)
    for item in value:
        if not isinstance(item, cls):
            raise TypeError("Expected list of %s" % what)
    return value


class AdminClient(Closable):
    """Administer topics, configs, groups, offsets, records and ACLs of a cluster.

    ``AdminClient(conf)`` takes librdkafka properties (at least
    ``bootstrap.servers``), checked as the other clients check theirs. No
    connection is made until the first operation. Operations keyed by a
    resource return ``{resource: Future}``; the others return one Future.
    """

    _closed_text = "AdminClient has been closed"
    #: socket.timeout.ms's default, which argument checks read before ``__init__`` has run (a
    #: subclass that skips it still gets its arguments checked before the closed client's error).
    _request_timeout_ms = 60000.0

    def __init__(self, conf: Dict[str, Any], **kwargs: Any) -> None:
        conf = confmod.from_arguments(conf, kwargs)
        self._config = confmod.parse(conf, "admin")
        self._error_cb = self._config.callbacks.get("error_cb")
        self._settings = _admin_settings(self._config)
        self._request_timeout_ms = float(self._config.get_int("socket.timeout.ms") or 60000)
        self._metadata = MetadataSource(self._settings)
        self._engine: Any = None
        self._lock = threading.Lock()
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="kafkawire-admin")
        self._closed = False

    # -- plumbing ----------------------------------------------------------------------------------------------

    def _client(self) -> Any:
        from kafka.admin import KafkaAdminClient

        with self._lock:
            if self._engine is None:
                settings = dict(self._settings, request_timeout_ms=self._request_timeout_ms,
                                bootstrap_timeout_ms=self._request_timeout_ms)
                self._engine = KafkaAdminClient(**settings)
            return self._engine

    def _run(self, keys: Sequence[Any], work: Callable[[Any], Dict[Any, Any]],
             timeout_ms: Optional[float] = None, timed_out: Optional[Callable[[], Any]] = None) -> Dict[Any, Future]:
        """Futures for ``keys``, completed with ``work(engine)``'s ``{key: value or exception}``.

        A future not completed within ``timeout_ms`` (the call's request
        timeout) fails with ``_TIMED_OUT``, as librdkafka's do, or gets
        ``timed_out()`` as its result when given; the work goes on in the
        background and its late result is dropped.
        """
        self._check_open()
        futures: Dict[Any, Future] = {k: Future() for k in keys}
        for f in futures.values():
            f.set_running_or_notify_cancel()
        lock = threading.Lock()  # a future is completed once, by the work or by the timer

        def complete(f: Future, value: Any) -> None:
            with lock:
                if f.done():
                    return
                if isinstance(value, BaseException):
                    f.set_exception(value)
                else:
                    f.set_result(value)

        def expire() -> None:
            for f in futures.values():
                complete(f, timed_out() if timed_out is not None else
                         KafkaException(KafkaError(KafkaError._TIMED_OUT)))  # type: ignore[attr-defined]

        timer = None if timeout_ms is None else threading.Timer(timeout_ms / 1000.0, expire)

        def job() -> None:
            try:
                results = work(self._client())
            except BaseException as exc:  # noqa: BLE001 - every future reports the failure
                error = _fail(exc)
                for f in futures.values():
                    complete(f, error)
                return
            finally:
                if timer is not None:
                    timer.cancel()
            for key, f in futures.items():
                value = results.get(key, KafkaException(KafkaError(KafkaError._FAIL,  # type: ignore[attr-defined]
                                                                   "no result for %s" % (key,))))
                complete(f, _fail(value) if isinstance(value, BaseException) else value)

        if timer is not None:
            timer.daemon = True
            timer.start()
        self._pool.submit(job)
        return futures

    def _run_one(self, work: Callable[[Any], Any], timeout_ms: Optional[float] = None,
                 timed_out: Optional[Callable[[], Any]] = None) -> Future:
        marker = object()
        return self._run([marker], lambda engine: {marker: work(engine)}, timeout_ms, timed_out)[marker]

    def _timeouts(self, kwargs: Dict[str, Any], allowed: Iterable[str]) -> Tuple[float, float]:
        unknown = set(kwargs) - set(allowed)
        if unknown:
            raise TypeError("unexpected keyword argument(s): %s" % ", ".join(sorted(unknown)))
        request = _seconds_to_ms(kwargs.get("request_timeout"), self._request_timeout_ms, "request_timeout")
        operation = _seconds_to_ms(kwargs.get("operation_timeout"), request, "operation_timeout")
        return request, operation

    # -- topics ------------------------------------------------------------------------------------------------

    def create_topics(self, new_topics: List[NewTopic], **kwargs: Any) -> Dict[str, Future]:
        """Create topics; ``{topic: Future}`` whose result is None.

        Keyword arguments: ``operation_timeout`` (s, how long the controller
        waits for the creation), ``request_timeout`` (s), ``validate_only``.
        """
        _checked_list(new_topics, NewTopic, "NewTopic objects")
        request_ms, operation_ms = self._timeouts(kwargs, ("operation_timeout", "request_timeout", "validate_only"))
        validate_only = bool(kwargs.get("validate_only", False))
        specs = []
        for t in new_topics:
            try:
                assignments = None
                if t.replica_assignment:
                    assignments = {i: list(ids) for i, ids in enumerate(t.replica_assignment)}
                specs.append(engine_res.NewTopic(t.topic, t.num_partitions, t.replication_factor,
                                                 replica_assignments=assignments, topic_configs=t.config))
            except engine_errors.IllegalArgumentError as exc:
                raise ValueError(str(exc)) from None
        return self._run([t.topic for t in new_topics], lambda engine: engine.create_topics(
            specs, timeout_ms=operation_ms, validate_only=validate_only, raise_error=False), timeout_ms=request_ms)

    def delete_topics(self, topics: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Delete topics; ``{topic: Future}`` whose result is None."""
        _checked_list(topics, str, "topic names")
        request_ms, operation_ms = self._timeouts(kwargs, ("operation_timeout", "request_timeout"))
        return self._run(topics, lambda engine: engine.delete_topics(list(topics), timeout_ms=operation_ms,
                                                                      raise_error=False), timeout_ms=request_ms)

    def create_partitions(self, new_partitions: List[NewPartitions], **kwargs: Any) -> Dict[str, Future]:
        """Raise partition counts; ``{topic: Future}`` whose result is None."""
        _checked_list(new_partitions, NewPartitions, "NewPartitions objects")
        request_ms, operation_ms = self._timeouts(kwargs, ("operation_timeout", "request_timeout", "validate_only"))
        validate_only = bool(kwargs.get("validate_only", False))
        try:
            plan = {p.topic: engine_res.NewPartitions(p.new_total_count, p.replica_assignment)
                    for p in new_partitions}
        except engine_errors.IllegalArgumentError as exc:
            raise ValueError(str(exc)) from None
        return self._run(list(plan), lambda engine: engine.create_partitions(
            plan, timeout_ms=operation_ms, validate_only=validate_only, raise_error=False), timeout_ms=request_ms)

    def list_topics(self, topic: Optional[str] = None, timeout: float = -1) -> ClusterMetadata:
        """Cluster metadata (of one topic, or of all), synchronously, as the other clients give it."""
        self._check_handle()
        return self._metadata.cluster_metadata(topic, timeout)

    def describe_topics(self, topics: TopicCollection, **kwargs: Any) -> Dict[str, Future]:
        """Describe topics; ``{topic: Future}`` whose result is a :class:`TopicDescription`."""
        if not isinstance(topics, TopicCollection):
            raise TypeError("Expected input to be instance of TopicCollection")
        names = topics.topic_names
        _checked_list(names, str, "topic names to be described")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "include_authorized_operations"))
        include_ops = bool(kwargs.get("include_authorized_operations", False))

        def work(engine: Any) -> Dict[str, Any]:
            cluster = engine.describe_cluster(raise_error=True)
            nodes = {b.nodeId: Node(b.nodeId, b.host, b.port, b.rack) for b in cluster.brokers}
            found = engine.describe_topics(list(names), raise_error=False)
            out: Dict[str, Any] = {}
            for name, d in found.items():
                if isinstance(d, BaseException):
                    out[name] = d
                    continue
                node = lambda i: nodes.get(i, Node(i, "", -1))  # noqa: E731
                parts = [TopicPartitionInfo(p.partition, node(p.leader) if p.leader >= 0 else None,
                                            [node(r) for r in p.replicas], [node(r) for r in p.isr])
                         for p in d.partitions]
                out[name] = TopicDescription(d.name, d.topic_id, d.is_internal, parts,
                                             [] if include_ops else None)
            return out

        return self._run(list(names), work, timeout_ms=request_ms)

    def describe_cluster(self, **kwargs: Any) -> Future:
        """Describe the cluster; a Future whose result is a :class:`DescribeClusterResult`."""
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "include_authorized_operations"))
        include_ops = bool(kwargs.get("include_authorized_operations", False))

        def work(engine: Any) -> DescribeClusterResult:
            d = engine.describe_cluster(raise_error=True)
            nodes = [Node(b.nodeId, b.host, b.port, b.rack) for b in d.brokers]
            controller = next((n for n in nodes if n.id == d.controller_id), None)
            return DescribeClusterResult(controller, nodes, d.cluster_id, [] if include_ops else None)

        return self._run_one(work, timeout_ms=request_ms)

    # -- configs -----------------------------------------------------------------------------------------------

    def describe_configs(self, resources: List[ConfigResource], **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Describe configs; ``{ConfigResource: Future}`` whose result is ``{name: ConfigEntry}``."""
        _checked_list(resources, ConfigResource, "ConfigResource objects")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        specs = [engine_res.ConfigResource(_engine_config_type(r.restype), r.name) for r in resources]

        def work(engine: Any) -> Dict[Any, Any]:
            found = engine.describe_configs(specs, include_synonyms=True, raise_error=False)
            out: Dict[Any, Any] = {}
            for r, spec in zip(resources, specs):
                value = found.get(spec.key)
                if value is None or isinstance(value, BaseException):
                    out[r] = value
                else:
                    out[r] = {name: _config_entry(e) for name, e in value.items()}
            return out

        return self._run(resources, work, timeout_ms=request_ms)

    def alter_configs(self, resources: List[ConfigResource], **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Replace each resource's dynamic configs with its ``set_config`` entries (others revert to defaults).

        Deprecated in confluent-kafka in favour of :meth:`incremental_alter_configs`.
        """
        _checked_list(resources, ConfigResource, "ConfigResource objects")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "validate_only"))
        validate_only = bool(kwargs.get("validate_only", False))
        specs = [engine_res.ConfigResource(_engine_config_type(r.restype), r.name, dict(r.set_config_dict))
                 for r in resources]
        return self._run(resources, lambda engine: self._by_resource(
            resources, specs, engine.alter_configs(specs, validate_only=validate_only, raise_error=False)), timeout_ms=request_ms)

    def incremental_alter_configs(self, resources: List[ConfigResource],
                                  **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Apply each resource's ``incremental_configs`` (SET, DELETE, APPEND, SUBTRACT) one by one."""
        _checked_list(resources, ConfigResource, "ConfigResource objects")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "validate_only"))
        validate_only = bool(kwargs.get("validate_only", False))
        specs = []
        for r in resources:
            plan: Dict[str, Any] = {}
            for entry in r.incremental_configs:
                op = entry.incremental_operation
                if not isinstance(op, AlterConfigOpType):
                    raise ValueError("incremental_operation must be an AlterConfigOpType")
                if op is AlterConfigOpType.SET:
                    plan[entry.name] = entry.value
                elif op is AlterConfigOpType.DELETE:
                    plan[entry.name] = None
                else:
                    plan[entry.name] = (engine_res.AlterConfigOp(op.value), entry.value)
            specs.append(engine_res.ConfigResource(_engine_config_type(r.restype), r.name, plan))
        return self._run(resources, lambda engine: self._by_resource(
            resources, specs, engine.incremental_alter_configs(specs, validate_only=validate_only,
                                                                raise_error=False)), timeout_ms=request_ms)

    @staticmethod
    def _by_resource(resources: List[ConfigResource], specs: List[Any], found: Dict[Any, Any]) -> Dict[Any, Any]:
        return {r: found.get(spec.key) for r, spec in zip(resources, specs)}

    # -- ACLs --------------------------------------------------------------------------------------------------

    def create_acls(self, acls: List[AclBinding], **kwargs: Any) -> Dict[AclBinding, Future]:
        """Create ACLs; ``{AclBinding: Future}`` whose result is None."""
        if not isinstance(acls, list) or any(type(a) is not AclBinding for a in acls):
            raise TypeError("Expected list of AclBinding")
        if len(set(acls)) != len(acls):
            raise ValueError("duplicate ACL bindings not allowed")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        specs = [_engine_acl(a) for a in acls]

        def work(engine: Any) -> Dict[Any, Any]:
            found = engine.create_acls(specs, raise_error=False)
            return {a: found.get(s) for a, s in zip(acls, specs)}

        return self._run(acls, work, timeout_ms=request_ms)

    def describe_acls(self, acl_binding_filter: AclBindingFilter, **kwargs: Any) -> Future:
        """ACLs matching a filter; a Future whose result is a list of :class:`AclBinding`."""
        if type(acl_binding_filter) is not AclBindingFilter:
            raise TypeError("Expected an AclBindingFilter")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        spec = _engine_acl(acl_binding_filter)
        return self._run_one(lambda engine: [_binding(a) for a in engine.describe_acls(spec)], timeout_ms=request_ms)

    def delete_acls(self, acl_binding_filters: List[AclBindingFilter],
                    **kwargs: Any) -> Dict[AclBindingFilter, Future]:
        """Delete ACLs matching filters; ``{AclBindingFilter: Future}`` whose result lists the deleted ACLs."""
        if not isinstance(acl_binding_filters, list) or \
                any(type(f) is not AclBindingFilter for f in acl_binding_filters):
            raise TypeError("Expected list of AclBindingFilter")
        if len(set(acl_binding_filters)) != len(acl_binding_filters):
            raise ValueError("duplicate ACL binding filters not allowed")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        specs = [_engine_acl(f) for f in acl_binding_filters]

        def work(engine: Any) -> Dict[Any, Any]:
            found = engine.delete_acls(specs, raise_error=False)
            out = {}
            for f, s in zip(acl_binding_filters, specs):
                value = found.get(s)
                out[f] = value if isinstance(value, BaseException) else [_binding(a) for a in value or ()]
            return out

        return self._run(acl_binding_filters, work, timeout_ms=request_ms)

    # -- consumer groups ---------------------------------------------------------------------------------------

    def list_consumer_groups(self, **kwargs: Any) -> Future:
        """Groups of every broker; a Future whose result is a :class:`ListConsumerGroupsResult`.

        ``states`` and ``types`` (sets of :class:`ConsumerGroupState` /
        :class:`ConsumerGroupType`) keep only matching groups.
        """
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "states", "types"))
        states = kwargs.get("states")
        types = kwargs.get("types")
        for value, cls, what in ((states, ConsumerGroupState, "states"), (types, ConsumerGroupType, "types")):
            if value is None:
                continue
            if not isinstance(value, set):
                raise TypeError("'%s' must be a set" % what)
            if any(not isinstance(v, cls) for v in value):
                raise TypeError("All elements of %s must be of type %s" % (what, cls.__name__))
        if types and ConsumerGroupType.UNKNOWN in types:
            raise ValueError("UNKNOWN consumer group type is not allowed")

        def work(engine: Any) -> ListConsumerGroupsResult:
            engine._refresh_quietly(engine._deadline())
            valid: Dict[str, ConsumerGroupListing] = {}
            problems: List[KafkaError] = []
            for node in sorted(b.nodeId for b in engine._client.cluster.brokers()):
                try:
                    listings = engine.list_consumer_groups(broker_ids=[node])
                except engine_errors.KafkaError as exc:
                    inner = getattr(exc, "errors", None)
                    problems.extend(_kafka_error(e) for e in (inner.values() if inner else [exc]))
                    continue
                for g in listings:
                    state = group_state(g.state)
                    kind = {"classic": ConsumerGroupType.CLASSIC, "consumer": ConsumerGroupType.CONSUMER}.get(
                        g.group_type.lower(), ConsumerGroupType.UNKNOWN)
                    if states and state not in states:
                        continue
                    if types and kind not in types:
                        continue
                    valid[g.group_id] = ConsumerGroupListing(g.group_id, g.protocol_type == "", state, kind)
            return ListConsumerGroupsResult(list(valid.values()), problems)

        # As librdkafka: a timeout is one of the result's errors, not the future's failure.
        return self._run_one(work, timeout_ms=request_ms, timed_out=lambda: ListConsumerGroupsResult(
            [], [KafkaError(KafkaError._TIMED_OUT)]))  # type: ignore[attr-defined]

    def describe_consumer_groups(self, group_ids: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Describe groups; ``{group_id: Future}`` whose result is a :class:`ConsumerGroupDescription`."""
        if not isinstance(group_ids, list):
            raise TypeError("Expected input to be list of group ids to be described")
        if not group_ids:
            raise ValueError("Expected at least one group to be described")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "include_authorized_operations"))
        include_ops = bool(kwargs.get("include_authorized_operations", False))

        def work(engine: Any) -> Dict[str, Any]:
            found = engine.describe_consumer_groups(list(group_ids), raise_error=False)
            brokers = {b.nodeId: b for b in engine._client.cluster.brokers()}
            out: Dict[str, Any] = {}
            for gid, d in found.items():
                if isinstance(d, BaseException):
                    out[gid] = d
                    continue
                b = brokers.get(d.coordinator)
                coordinator = Node(b.nodeId, b.host, b.port, b.rack) if b is not None else None
                members = [MemberDescription(m.member_id, m.client_id, m.client_host,
                                             MemberAssignment([TopicPartition(tp.topic, tp.partition)
                                                               for tp in m.assignment]),
                                             m.group_instance_id)
                           for m in d.members]
                out[gid] = ConsumerGroupDescription(
                    gid, d.protocol_type == "", members, d.protocol, group_state(d.state), coordinator,
                    [] if include_ops else None, ConsumerGroupType.CLASSIC)
            return out

        return self._run(group_ids, work, timeout_ms=request_ms)

    def delete_consumer_groups(self, group_ids: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Delete groups; ``{group_id: Future}`` whose result is None."""
        if not isinstance(group_ids, list):
            raise TypeError("Expected input to be list of group ids to be deleted")
        if not group_ids:
            raise ValueError("Expected at least one group to be deleted")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        return self._run(group_ids, lambda engine: engine.delete_consumer_groups(list(group_ids),
                                                                                 raise_error=False), timeout_ms=request_ms)

    @staticmethod
    def _one_request(requests: Any, what: str) -> ConsumerGroupTopicPartitions:
        if not isinstance(requests, list):
            raise TypeError("Expected input to be list of ConsumerGroupTopicPartitions")
        if len(requests) != 1:
            raise ValueError("Currently we support %s for a single consumer group only" % what)
        request = requests[0]
        if not isinstance(request, ConsumerGroupTopicPartitions):
            raise TypeError("Expected list of 'ConsumerGroupTopicPartitions'")
        if not isinstance(request.group_id, str) or not request.group_id:
            raise (TypeError if not isinstance(request.group_id, str) else ValueError)(
                "'group_id' must be a non-empty string")
        return request

    def list_consumer_group_offsets(self, list_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                    **kwargs: Any) -> Dict[str, Future]:
        """A group's committed offsets; ``{group_id: Future}`` whose result is a
        :class:`ConsumerGroupTopicPartitions` (all committed partitions when none are named)."""
        request = self._one_request(list_consumer_group_offsets_request, "listing offsets")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "require_stable"))
        wanted = request.topic_partitions
        if wanted is not None:
            for tp in wanted:
                if not isinstance(tp, TopicPartition):
                    raise TypeError("Expected topic partitions to be of type TopicPartition")
                if tp.partition < 0:
                    raise ValueError("Element of 'topic_partitions' must not have negative 'partition' value")
        partitions = None if not wanted else [EngineTP(tp.topic, tp.partition) for tp in wanted]

        def work(engine: Any) -> Dict[str, Any]:
            found = engine.list_consumer_group_offsets(request.group_id, partitions, raise_error=False)
            out = []
            for tp, value in found.items():
                item = TopicPartition(tp.topic, tp.partition, OFFSET_INVALID)
                if isinstance(value, BaseException):
                    item.error = from_engine(value)
                else:
                    item.offset = value.offset if value.offset >= 0 else OFFSET_INVALID
                    item.metadata = value.metadata or None
                    item.leader_epoch = value.leader_epoch if value.leader_epoch >= 0 else None
                out.append(item)
            return {request.group_id: ConsumerGroupTopicPartitions(request.group_id, out)}

        return self._run([request.group_id], work, timeout_ms=request_ms)

    def alter_consumer_group_offsets(self, alter_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                     **kwargs: Any) -> Dict[str, Future]:
        """Set a group's committed offsets; ``{group_id: Future}`` whose result is a
        :class:`ConsumerGroupTopicPartitions` (a partition that failed has its ``error`` set)."""
        request = self._one_request(alter_consumer_group_offsets_request, "altering offsets")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        if not request.topic_partitions:
            raise ValueError("'topic_partitions' cannot be empty")
        plan: Dict[EngineTP, OffsetAndMetadata] = {}
        for tp in request.topic_partitions:
            if not isinstance(tp, TopicPartition):
                raise TypeError("Expected topic partitions to be of type TopicPartition")
            if tp.partition < 0 or tp.offset < 0:
                raise ValueError("Element of 'topic_partitions' must not have negative 'partition' or "
                                 "'offset' value")
            plan[EngineTP(tp.topic, tp.partition)] = OffsetAndMetadata(
                tp.offset, tp.metadata or "", -1 if tp.leader_epoch is None else tp.leader_epoch)

        def work(engine: Any) -> Dict[str, Any]:
            found = engine.alter_consumer_group_offsets(request.group_id, plan, raise_error=False)
            out = []
            for tp, om in plan.items():
                item = TopicPartition(tp.topic, tp.partition, om.offset)
                value = found.get(tp)
                if isinstance(value, BaseException):
                    item.error = from_engine(value)
                out.append(item)
            return {request.group_id: ConsumerGroupTopicPartitions(request.group_id, out)}

        return self._run([request.group_id], work, timeout_ms=request_ms)

    # -- offsets and records -----------------------------------------------------------------------------------

    def list_offsets(self, topic_partition_offsets: Dict[TopicPartition, OffsetSpec],
                     **kwargs: Any) -> Dict[TopicPartition, Future]:
        """Offsets by :class:`OffsetSpec`; ``{TopicPartition: Future}`` whose result is a
        :class:`ListOffsetsResultInfo`. ``isolation_level`` is an :class:`IsolationLevel`."""
        if not isinstance(topic_partition_offsets, dict):
            raise TypeError("Expected topic_partition_offsets to be a dict")
        request_ms, _ = self._timeouts(kwargs, ("request_timeout", "isolation_level"))
        isolation = kwargs.get("isolation_level", IsolationLevel.READ_UNCOMMITTED)
        if not isinstance(isolation, IsolationLevel):
            raise TypeError("isolation_level argument should be an IsolationLevel")
        items = []
        for tp, spec in topic_partition_offsets.items():
            if not isinstance(tp, TopicPartition):
                raise TypeError("Expected TopicPartition keys")
            if not isinstance(spec, OffsetSpec):
                raise TypeError("Expected OffsetSpec values")
            if tp.partition < 0:
                raise ValueError("Partition must be >= 0")
            items.append((TopicPartition(tp.topic, tp.partition, spec._value), spec._value))
        from kafka.confluent._list_offsets import list_offsets

        return self._run([tp for tp, _ in items], lambda engine: list_offsets(engine, items, isolation.value,
                                                                                     request_ms), timeout_ms=request_ms)

    def delete_records(self, topic_partition_offsets: List[TopicPartition],
                       **kwargs: Any) -> Dict[TopicPartition, Future]:
        """Delete records before each partition's ``offset`` (``OFFSET_END``: all);
        ``{TopicPartition: Future}`` whose result is a :class:`DeletedRecords`."""
        _checked_list(topic_partition_offsets, TopicPartition, "TopicPartition objects")
        request_ms, operation_ms = self._timeouts(kwargs, ("request_timeout", "operation_timeout"))
        if len({(tp.topic, tp.partition) for tp in topic_partition_offsets}) != len(topic_partition_offsets):
            raise ValueError("Duplicate partitions specified")
        plan = {EngineTP(tp.topic, tp.partition): tp.offset for tp in topic_partition_offsets}

        def work(engine: Any) -> Dict[Any, Any]:
            found = engine.delete_records(plan, timeout_ms=operation_ms, raise_error=False)
            out: Dict[Any, Any] = {}
            for tp in topic_partition_offsets:
                value = found.get(EngineTP(tp.topic, tp.partition))
                out[tp] = value if isinstance(value, BaseException) else DeletedRecords(value.low_watermark)
            return out

        return self._run(topic_partition_offsets, work, timeout_ms=request_ms)

    # -- leaders and credentials -------------------------------------------------------------------------------

    def elect_leaders(self, election_type: ElectionType, partitions: Optional[List[TopicPartition]] = None,
                      **kwargs: Any) -> Future:
        """Elect partition leaders; a Future whose result is ``{TopicPartition: None or KafkaError}``.

        ``partitions`` None elects for every partition. ``operation_timeout``
        (s) bounds the controller's wait for the election.
        """
        if not isinstance(election_type, ElectionType):
            raise TypeError("Expected 'election_type' to be of type 'ElectionType'")
        if partitions is not None:
            if not isinstance(partitions, list):
                raise TypeError("Expected 'partitions' to be a list, got '%s'" % type(partitions).__name__)
            for tp in partitions:
                if not isinstance(tp, TopicPartition):
                    raise TypeError("Element of the 'partitions' list must be of type 'TopicPartition' got '%s' "
                                    % type(tp).__name__)
                if tp.partition < 0:
                    raise ValueError("Elements of the 'partitions' list must not have negative value for "
                                     "'partition' field")
        request_ms, operation_ms = self._timeouts(kwargs, ("request_timeout", "operation_timeout"))
        wanted: Optional[Dict[str, List[int]]] = None
        if partitions is not None:
            wanted = {}
            for tp in partitions:
                wanted.setdefault(tp.topic, []).append(tp.partition)

        def work(engine: Any) -> Dict[TopicPartition, Any]:
            if partitions is not None and len({(tp.topic, tp.partition) for tp in partitions}) != len(partitions):
                raise KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                                "Duplicate partitions specified"))
            response = engine.elect_leaders(election_type.value, wanted, timeout_ms=operation_ms, raise_errors=False)
            if response.error_code:
                raise KafkaException(KafkaError(response.error_code))
            out: Dict[TopicPartition, Any] = {}
            for topic in response.replica_election_results:
                for p in topic.partition_result:
                    error = KafkaError(p.error_code, p.error_message or None) if p.error_code else None
                    key = TopicPartition(topic.topic, p.partition_id, 0)  # librdkafka's keys carry offset 0
                    key.error = error
                    out[key] = error
            return out

        return self._run_one(work, timeout_ms=request_ms)

    def describe_user_scram_credentials(self, users: Optional[List[str]] = None, **kwargs: Any) -> Any:
        """Users' SCRAM credentials as :class:`UserScramCredentialsDescription`.

        With ``users`` None (every user): one Future whose result is
        ``{user: description}`` (it fails when any user does); with a list:
        ``{user: Future}``.
        """
        check_users(users)
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))

        def work(engine: Any) -> Dict[str, Any]:
            duplicated = duplicate_users_error(list(users or ()))
            if duplicated is not None:
                raise duplicated
            found = engine.describe_user_scram_credentials(list(users or ()), raise_error=False)
            return {user: value if isinstance(value, BaseException) else UserScramCredentialsDescription(
                user, [ScramCredentialInfo(ScramMechanism(int(m)), n) for m, n in value])
                for user, value in found.items()}

        if users is not None:
            return self._run(users, work, timeout_ms=request_ms)

        def every_user(engine: Any) -> Dict[str, Any]:
            described = work(engine)
            for value in described.values():
                if isinstance(value, BaseException):
                    raise value
            return described

        return self._run_one(every_user, timeout_ms=request_ms)

    def alter_user_scram_credentials(self, alterations: List[UserScramCredentialAlteration],
                                     **kwargs: Any) -> Dict[str, Future]:
        """Create, replace and delete SCRAM credentials; ``{user: Future}`` whose result is None.

        Passwords are salted here (random salt unless given); only the salted
        password is sent.
        """
        check_alterations(alterations)
        request_ms, _ = self._timeouts(kwargs, ("request_timeout",))
        changes: List[Any] = []
        for alt in alterations:
            if isinstance(alt, UserScramCredentialUpsertion):
                info = alt.scram_credential_info
                changes.append(engine_users.UserScramCredentialUpsertion(
                    alt.user, info.mechanism.value, alt.password, info.iterations,
                    os.urandom(DEFAULT_SALT_BYTES) if alt.salt is None else alt.salt))
            elif isinstance(alt, UserScramCredentialDeletion):
                changes.append(engine_users.UserScramCredentialDeletion(alt.user, alt.mechanism.value))
        users = list(dict.fromkeys(alt.user for alt in alterations))
        return self._run(users, lambda engine: engine.alter_user_scram_credentials(changes, raise_error=False), timeout_ms=request_ms)

    # -- legacy ------------------------------------------------------------------------------------------------

    def list_groups(self, group: Optional[str] = None, timeout: float = -1) -> List[GroupMetadata]:
        """Every group (or ``group`` alone) with its members, synchronously.

        Deprecated in confluent-kafka (and warned about here too) in favour
        of :meth:`list_consumer_groups` and :meth:`describe_consumer_groups`.
        """
        warnings.warn("list_groups() is deprecated, use list_consumer_groups() and describe_consumer_groups() "
                      "instead.", DeprecationWarning, stacklevel=2)
        self._check_handle()
        if group is not None and not isinstance(group, str):
            raise TypeError("group must be str")
        timeout_ms = _seconds_to_ms(None if timeout is None or timeout < 0 else timeout,
                                    self._request_timeout_ms, "timeout")
        try:
            return list_groups(self._client(), group, timeout_ms)
        except Exception as exc:  # noqa: BLE001
            raise _fail(exc) from exc

    def cluster_id(self, timeout: float = -1) -> Optional[str]:
        """The cluster id the brokers report, synchronously."""
        self._check_handle()
        return self._metadata.cluster_id(timeout)

    # -- client ------------------------------------------------------------------------------------------------

    def poll(self, timeout: float = -1) -> int:
        """Kept for confluent-kafka compatibility: results arrive through the futures, so there is nothing to serve."""
        self._check_open()
        return 0

    def __len__(self) -> int:
        return 0

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Use these SASL PLAIN/SCRAM credentials for the next logins (open connections stay)."""
        self._check_handle()
        check_credentials(username, password)
        with self._lock:
            self._settings["sasl_plain_username"] = username
            self._settings["sasl_plain_password"] = password
            engine = self._engine
        if engine is not None:
            engine.set_sasl_credentials(username, password)
        self._metadata.set_sasl_credentials(username, password)

    def close(self) -> None:
        """Release connections and the worker threads; what leaving a ``with`` block does.

        Afterwards the methods raise ``RuntimeError``, as confluent-kafka's do
        after its ``with`` block (confluent-kafka has no ``close()``).
        """
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=False)
        with self._lock:
            engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
        self._metadata.close()

    def __enter__(self) -> "AdminClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
