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
import math
import os
import re
import threading
import time
import uuid
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from kafka import errors as engine_errors
from kafka.admin import acl_resource as engine_acl
from kafka.admin import resources as engine_res
from kafka.admin.kafka_python import users as engine_users
from kafka.confluent import config as confmod
from kafka.confluent.admin._types import (
    AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AlterConfigOpType, ConfigEntry, ConfigResource,
    ConfigSource, ConsumerGroupDescription, ConsumerGroupListing, ConsumerGroupState, ConsumerGroupTopicPartitions,
    ConsumerGroupType, DeletedRecords, DescribeClusterResult, ElectionType, GroupMetadata, IsolationLevel,
    ListConsumerGroupsResult, MemberAssignment, MemberDescription, NewPartitions, NewTopic, Node, OffsetSpec,
    ResourcePatternType, ResourceType, TopicCollection, TopicDescription, TopicPartitionInfo, acl_problem,
    group_state)
from kafka.confluent._client_events import EventRelay
from kafka.confluent._closing import Closable
from kafka.confluent._uuid import Uuid
from kafka.confluent.admin._scram import (DEFAULT_SALT_BYTES, ScramCredentialInfo, ScramMechanism,
                                          UserScramCredentialAlteration, UserScramCredentialDeletion,
                                          UserScramCredentialsDescription,
                                          UserScramCredentialUpsertion, check_alterations, check_users,
                                          duplicate_users_error, unknown_mechanism_error)
from kafka.confluent.admin._list_groups import list_groups
from kafka.confluent._log_forward import client_name, forwarder_for
from kafka.confluent._metadata import ClusterMetadata, MetadataSource, check_credentials
from kafka.confluent.kafka_error import KafkaError, KafkaException, call_error, from_engine
from kafka.confluent.message import OFFSET_INVALID, TopicPartition
from kafka.structs import OffsetAndMetadata
from kafka.structs import TopicPartition as EngineTP

if TYPE_CHECKING:
    from kafka.admin import KafkaAdminClient

log = logging.getLogger(__name__)

Future = concurrent.futures.Future


def _seconds_to_ms(value: Any, default_ms: float, what: str) -> float:
    """The legacy calls' ``timeout`` (s) in ms; None or negative: ``default_ms``."""
    if value is None:
        return default_ms
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number" % what)
    return default_ms if value < 0 else float(value) * 1000.0


# -- argument checks ---------------------------------------------------------------------------------------------
#
# confluent-kafka refuses a bad call before anything is sent, partly in its
# Python layer and partly in its C layer, in this order: the keys of the
# futures are made (so a non-iterable argument, or an item that cannot be a
# key, fails first); the keyword options' names and types (TypeError); the
# shape of the main argument; the closed client (RuntimeError); the timeouts'
# ranges (ValueError); then each item. The helpers below hold those rules;
# what librdkafka itself refuses without a broker (duplicates, say) fails the
# call's futures instead (see AdminClient._run's ``refused``).

#: librdkafka's largest admin timeout (both kinds), in ms.
_MAX_TIMEOUT_MS = 3600 * 1000
#: The smallest value of each timeout option, in ms (operation_timeout -1: do not wait).
_TIMEOUT_OPTIONS = {"request_timeout": 0, "operation_timeout": -1}
_BOOL_OPTIONS = ("validate_only", "include_authorized_operations", "require_stable")
#: librdkafka's bounds of a partition count and of a replica list.
_MAX_PARTITIONS = 100000
_MAX_BROKERS = 10000


class _Options:
    """A call's keyword options, checked as confluent-kafka parses them.

    An unknown name, a timeout that is not a number, a flag that is not a
    bool or a ``broker`` that is not an int raises TypeError when this is
    built; the timeouts' ranges are checked by :meth:`timeout_ms`. Options a
    method checks itself (``states``, ``isolation_level``, ...) are only
    passed through.
    """

    def __init__(self, kwargs: Dict[str, Any], allowed: Iterable[str]) -> None:
        allowed = tuple(allowed)
        for name, value in kwargs.items():
            if name not in allowed:
                raise TypeError("'%s' is an invalid keyword argument for this call" % name)
            if name in _TIMEOUT_OPTIONS:
                kind = type(value)
                if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
                    raise TypeError("%s must be a number of seconds, not %s" % (name, kind.__name__))
            elif name in _BOOL_OPTIONS:
                if not isinstance(value, bool):
                    raise TypeError("%s must be a bool, not %s" % (name, type(value).__name__))
            elif name == "broker":
                if not hasattr(type(value), "__index__"):
                    raise TypeError("broker must be an int (a broker id), not %s" % type(value).__name__)
        self._values = dict(kwargs)

    def flag(self, name: str) -> bool:
        return bool(self._values.get(name, False))

    def timeout_ms(self, name: str, default_ms: float) -> float:
        """Timeout ``name`` in whole ms (truncated, as librdkafka takes it), or ``default_ms`` when not given.

        Outside librdkafka's range (0 or -1 .. one hour) it raises ValueError.
        """
        if name not in self._values:
            return default_ms
        ms = float(self._values[name]) * 1000.0
        if not math.isfinite(ms) or not _TIMEOUT_OPTIONS[name] <= int(ms) <= _MAX_TIMEOUT_MS:
            raise ValueError("%s must be between %g and %d s, got %r"
                             % (name, _TIMEOUT_OPTIONS[name] / 1000.0, _MAX_TIMEOUT_MS // 1000, self._values[name]))
        return float(int(ms))


def _future_keys(items: Any, cls: Optional[type] = None, error: type = ValueError) -> List[Any]:
    """``items`` as the keys of a call's futures: not iterable or unhashable raises TypeError, an item
    that is not a ``cls`` raises ``error`` (confluent-kafka raises ValueError or TypeError by call)."""
    keys = []
    for item in items:
        if cls is not None and not isinstance(item, cls):
            raise error("Expected list of %s, got %s" % (cls.__name__, type(item).__name__))
        hash(item)
        keys.append(item)
    return keys


def _non_empty_list(value: Any, what: str) -> list:
    """``value``, if it is a list with an item (else ValueError)."""
    if not isinstance(value, list) or not value:
        raise ValueError("Expected non-empty list of %s" % what)
    return value


def _no_duplicates(items: Any, what: str) -> None:
    """ValueError when ``items`` holds one value twice (TypeError when it is not a collection)."""
    if len(set(items)) != len(items):
        raise ValueError("duplicate %s not allowed" % what)


def _duplicates_error(keys: Iterable[Any], text: str) -> Optional[KafkaException]:
    """The _INVALID_ARG librdkafka fails a call with, before sending it, when ``keys`` repeat one."""
    keys = list(keys)
    if len(set(keys)) == len(keys):
        return None
    return KafkaException(KafkaError(KafkaError._INVALID_ARG, text))  # type: ignore[attr-defined]


def _engine_value(build: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``build(*args, **kwargs)``, an engine value; or, when the engine refuses what librdkafka would
    send to the broker as it is, the KafkaException (INVALID_REQUEST) that fails that item's future alone."""
    try:
        return build(*args, **kwargs)
    except engine_errors.IllegalArgumentError as exc:
        return KafkaException(KafkaError(KafkaError.INVALID_REQUEST, str(exc)))  # type: ignore[attr-defined]


def _split(prepared: Dict[Any, Any]) -> Tuple[Dict[Any, Any], Dict[Any, Any]]:
    """``prepared`` ({key: engine value or refusal}) as (engine values, refusals)."""
    refused = {k: v for k, v in prepared.items() if isinstance(v, BaseException)}
    return {k: v for k, v in prepared.items() if k not in refused}, refused


def _replica_lists(value: Any, lowest: int, highest: int, bound: str) -> List[List[int]]:
    """A replica_assignment: ``lowest``..``highest`` non-empty lists of ints (ValueError otherwise)."""
    ok = isinstance(value, list) and lowest <= len(value) <= highest and all(
        isinstance(ids, list) and ids and all(isinstance(i, int) for i in ids) for ids in value)
    if not ok:
        raise ValueError("replica_assignment must be a list of %d..%d non-empty lists of broker ids (%s)"
                         % (lowest, highest, bound))
    if any(len(ids) > _MAX_BROKERS for ids in value):
        raise ValueError("replica_assignment lists at most %d brokers per partition" % _MAX_BROKERS)
    return value


def _new_topic_spec(t: NewTopic) -> Any:
    """The engine's NewTopic for ``t`` after librdkafka's checks (ValueError); values librdkafka sends
    on as they are (no partitions, a config value that is not a string) are sent the same way."""
    if not -1 <= t.num_partitions <= _MAX_PARTITIONS:
        raise ValueError("Invalid NewTopic(%s): num_partitions must be -1..%d" % (t.topic, _MAX_PARTITIONS))
    if not -1 <= t.replication_factor <= _MAX_BROKERS:
        raise ValueError("Invalid NewTopic(%s): replication_factor must be -1..%d" % (t.topic, _MAX_BROKERS))
    assignments = None
    if t.replica_assignment is not None:
        if t.replication_factor != -1:
            raise ValueError("replication_factor and replica_assignment are mutually exclusive")
        if t.num_partitions == -1 and t.replica_assignment:
            raise ValueError("a replica_assignment needs num_partitions, not the broker's default")
        count = max(t.num_partitions, 0)
        assignments = dict(enumerate(_replica_lists(t.replica_assignment, count, count, "num_partitions")))
    configs = _config_strings(t.config or {}, "NewTopic(%s) config" % t.topic)
    return _engine_value(engine_res.NewTopic, t.topic, t.num_partitions, t.replication_factor,
                         replica_assignments=assignments, topic_configs=configs)


def _config_strings(configs: Dict[Any, Any], what: str) -> Dict[str, str]:
    """``configs`` with names and values as strings (``str()`` of each, as confluent-kafka sends them)."""
    out = {str(name): str(value) for name, value in configs.items()}
    if "" in out:
        raise ValueError("%s: a config name cannot be empty" % what)
    return out


def _checked_resource(r: ConfigResource) -> None:
    """librdkafka's checks of a ConfigResource's type and name (TypeError, then ValueError)."""
    if type(r.restype_int) is not int:
        raise TypeError("Expected .restype_int to be int, not %s" % type(r.restype_int).__name__)
    if type(r.name) is not str:
        raise TypeError("Expected .name to be str, not %s" % type(r.name).__name__)
    if not r.name:
        raise ValueError("Invalid ConfigResource(%d,): the name cannot be empty" % r.restype_int)


def _resources_error(resources: List[ConfigResource]) -> Optional[KafkaException]:
    """What librdkafka fails a config call with before sending it: a BROKER resource not named by a
    broker id (_INVALID_ARG), or more than one BROKER resource (_CONFLICT)."""
    brokers = [r for r in resources if r.restype is ResourceType.BROKER]
    for r in brokers:
        digits = re.match(r"\s*([-+]?\d+)", r.name)
        if digits is None or int(digits.group(1)) < 0:
            return KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                             "Expected an int32 broker_id for %r" % (r,)))
    if len(brokers) > 1:
        return KafkaException(KafkaError(KafkaError._CONFLICT,  # type: ignore[attr-defined]
                                         "Only one ConfigResource of type BROKER is allowed per call"))
    return None


def _incremental_plan(r: ConfigResource) -> Dict[str, Any]:
    """The engine's plan of ``r.incremental_configs`` after librdkafka's checks (TypeError, ValueError)."""
    entries = r.incremental_configs
    if type(entries) is not list:
        raise TypeError("Expected .incremental_configs to be a list, not %s" % type(entries).__name__)
    if not entries:
        raise ValueError("expected a non-empty list of ConfigEntry in incremental_configs")
    plan: Dict[str, Any] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, ConfigEntry):
            raise TypeError("expected a ConfigEntry in incremental_configs, index %d" % index)
        op = getattr(entry.incremental_operation, "value", None)
        if type(op) is not int:
            raise TypeError("incremental_operation of index %d must be an AlterConfigOpType" % index)
        if type(entry.name) is not str:
            raise TypeError("Expected .name of index %d to be str, not %s" % (index, type(entry.name).__name__))
        if op != AlterConfigOpType.DELETE.value and type(entry.value) is not str:
            raise TypeError("Expected .value of index %d to be str, not %s" % (index, type(entry.value).__name__))
        if not entry.name or op not in {t.value for t in AlterConfigOpType}:
            raise ValueError("config entry %r, index %d: empty name or unknown operation" % (entry.name, index))
        if op == AlterConfigOpType.SET.value:
            plan[entry.name] = entry.value
        elif op == AlterConfigOpType.DELETE.value:
            plan[entry.name] = None
        else:
            plan[entry.name] = (engine_res.AlterConfigOp(op), entry.value)
    return plan


def _group_request(requests: Any, altering: bool) -> ConsumerGroupTopicPartitions:
    """The one ConsumerGroupTopicPartitions of a list/alter group offsets call, checked as confluent-kafka
    checks it: its partitions are optional (and take no offset) when listing, required (with one) when
    altering."""
    if not isinstance(requests, list):
        raise TypeError("request must be a list of ConsumerGroupTopicPartitions, not %s" % type(requests).__name__)
    if len(requests) != 1:
        raise ValueError("Currently we support %s offsets for a single consumer group only"
                         % ("altering" if altering else "listing"))
    request = requests[0]
    if not isinstance(request, ConsumerGroupTopicPartitions):
        raise TypeError("Expected list of 'ConsumerGroupTopicPartitions'")
    if not isinstance(request.group_id, str):
        raise TypeError("'group_id' must be a string, not %s" % type(request.group_id).__name__)
    if not request.group_id:
        raise ValueError("'group_id' cannot be empty")
    parts = request.topic_partitions
    if parts is None:
        if altering:
            raise ValueError("'topic_partitions' cannot be None")
        return request
    if not isinstance(parts, list):
        raise TypeError("'topic_partitions' must be a list")
    if not parts:
        raise ValueError("'topic_partitions' cannot be empty")
    for tp in parts:
        if tp is None:
            raise ValueError("Element of 'topic_partitions' cannot be None")
        if not isinstance(tp, TopicPartition):
            raise TypeError("Element of 'topic_partitions' must be of type TopicPartition")
        if tp.topic is None:
            raise TypeError("Element of 'topic_partitions' must have a topic")
        if not tp.topic:
            raise ValueError("Element of 'topic_partitions' must not have an empty topic")
        if tp.partition < 0:
            raise ValueError("Element of 'topic_partitions' must not have a negative partition")
        if altering and tp.offset < 0:
            raise ValueError("Element of 'topic_partitions' must not have a negative offset")
        if not altering and tp.offset != OFFSET_INVALID:
            raise ValueError("Element of 'topic_partitions' must not have an offset when listing")
    return request


def _offset_specs_error(values: List[int]) -> Optional[KafkaException]:
    """The _INVALID_ARG librdkafka fails list_offsets with, before sending it, for a timestamp spec
    below -3 (-1, -2 and -3 stand for latest, earliest and max_timestamp)."""
    for index, value in enumerate(values):
        if value < -3:
            return KafkaException(KafkaError(KafkaError._INVALID_ARG,  # type: ignore[attr-defined]
                                             "Partition %d has an invalid offset %d" % (index, value)))
    return None


def _partition_keys(parts: Iterable[TopicPartition]) -> List[Tuple[str, int]]:
    return [(tp.topic, tp.partition) for tp in parts]


def _authorized_operations(options: _Options) -> Optional[List[Any]]:
    """What a described resource's ``authorized_operations`` are: None, what confluent-kafka gives when
    the broker leaves them out, since the engine does not ask for them (the option is still checked)."""
    options.flag("include_authorized_operations")
    return None


def _topic_uuid(topic_id: Optional[uuid.UUID]) -> Uuid:
    """The engine's topic id as confluent-kafka's :class:`Uuid` (all zero bits when the broker gave none)."""
    return Uuid.from_uuid(topic_id if topic_id is not None else uuid.UUID(int=0))


def _kafka_error(error: BaseException) -> KafkaError:
    if isinstance(error, engine_errors.UnsupportedVersionError):
        # librdkafka's answer when the broker does not offer the API at all.
        return KafkaError(KafkaError._UNSUPPORTED_FEATURE, str(error) or None)  # type: ignore[attr-defined]
    return call_error(error, "", KafkaError._TIMED_OUT)  # type: ignore[attr-defined]


def _fail(error: BaseException) -> KafkaException:
    if isinstance(error, KafkaException):
        return error
    return KafkaException(_kafka_error(error))


def _engine_acl(binding: AclBinding, as_filter: Optional[bool] = None) -> Any:
    """The engine's ACL, or ACL filter (by default: when ``binding`` is an AclBindingFilter), for
    ``binding``'s ``*_int`` values, which are what confluent-kafka sends."""
    if as_filter is None:
        as_filter = isinstance(binding, AclBindingFilter)
    pattern_cls: Any = engine_acl.ResourcePatternFilter if as_filter else engine_acl.ResourcePattern
    pattern = pattern_cls(engine_acl.ResourceType(binding.restype_int), binding.name,
                          engine_acl.ACLResourcePatternType(binding.resource_pattern_type_int))
    cls: Any = engine_acl.ACLFilter if as_filter else engine_acl.ACL
    return cls(binding.principal, binding.host, engine_acl.ACLOperation(binding.operation_int),
               engine_acl.ACLPermissionType(binding.permission_type_int), pattern)


def _acl_specs(bindings: Sequence[AclBinding], as_filter: bool) -> Dict[AclBinding, Any]:
    """``{binding: engine value or refusal}``, after librdkafka's checks of each binding (ValueError)."""
    specs: Dict[AclBinding, Any] = {}
    for binding in bindings:
        problem = acl_problem(binding, as_filter)
        if problem is not None:
            raise ValueError(problem)
        specs[binding] = _engine_value(_engine_acl, binding, as_filter)
    return specs


def _binding(acl: Any) -> AclBinding:
    pattern = acl.resource_pattern
    return AclBinding(ResourceType(int(pattern.resource_type)), pattern.resource_name,
                      ResourcePatternType(int(pattern.pattern_type)), acl.principal, acl.host,
                      AclOperation(int(acl.operation)), AclPermissionType(int(acl.permission_type)))


def _engine_config_type(restype: ResourceType) -> Any:
    try:
        return engine_res.ConfigResourceType[restype.name]
    except KeyError:
        raise engine_errors.IllegalArgumentError("resource type %s has no configs" % restype.name) from None


def _engine_resource(r: ConfigResource, configs: Any = None) -> Any:
    """The engine's ConfigResource for ``r`` (with ``configs`` to set, for the alter calls)."""
    return engine_res.ConfigResource(_engine_config_type(r.restype), r.name, configs)


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


class AdminClient(Closable):
    """Administer topics, configs, groups, offsets, records and ACLs of a cluster.

    ``AdminClient(conf)`` takes librdkafka properties (at least
    ``bootstrap.servers``), checked as the other clients check theirs. No
    connection is made until the first operation, unless ``error_cb`` or
    ``throttle_cb`` is set: then the client connects at once, as librdkafka
    does, and :meth:`poll` serves the connection errors to ``error_cb``.
    Operations keyed by a resource return ``{resource: Future}``; the others
    return one Future.
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
        self._relay = EventRelay(self._error_cb, self._config.callbacks.get("throttle_cb"))
        listener = self._relay.listener()
        if listener is not None:
            self._settings["client_events"] = listener
        self._engine: Any = None
        self._lock = threading.Lock()
        # The engine's log records of the calls, made in the pool's threads, go to ``logger`` from poll().
        self._log_forward = forwarder_for(self._config.callbacks.get("logger"),
                                          client_name(self._config.get("client.id") or "rdkafka", "producer"))
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=4, thread_name_prefix="kafkawire-admin",
            initializer=None if self._log_forward is None else self._log_forward.watch_current_thread)
        self._closed = False
        if listener is not None:
            self._pool.submit(self._connect_quietly)

    # -- plumbing ----------------------------------------------------------------------------------------------

    def _client(self) -> Any:
        """The engine's admin client, made on first use.

        It is made outside the lock, so that ``close()`` never waits for a
        bootstrap to an unreachable cluster; a client made by a second thread
        meanwhile, or after ``close()``, is closed again.
        """
        from kafka.admin import KafkaAdminClient

        with self._lock:
            if self._engine is not None:
                return self._engine
            settings = dict(self._settings, request_timeout_ms=self._request_timeout_ms,
                            bootstrap_timeout_ms=self._request_timeout_ms)
        made = KafkaAdminClient(**settings)
        with self._lock:
            if self._engine is None and not self._closed:
                self._engine = made
                return made
            kept = self._engine
        made.close()
        if kept is None:
            raise RuntimeError(self._closed_text)
        return kept

    def _connect_quietly(self) -> None:
        """Connect now (its failures reach ``error_cb`` through the relay, not here)."""
        try:
            self._client()
        except Exception as exc:  # noqa: BLE001 - the next operation tries again and reports
            log.debug("admin client could not connect at start: %s", exc)

    def _run(self, keys: Sequence[Any], work: Callable[[Any], Dict[Any, Any]],
             timeout_ms: Optional[float] = None, timed_out: Optional[Callable[[], Any]] = None,
             refused: Optional[KafkaException] = None) -> Dict[Any, Future]:
        """Futures for ``keys``, completed with ``work(engine)``'s ``{key: value or exception}``.

        A future not completed within ``timeout_ms`` (the call's request
        timeout) fails with ``_TIMED_OUT``, as librdkafka's do, or gets
        ``timed_out()`` as its result when given; the work goes on in the
        background and its late result is dropped. With ``refused`` (what
        librdkafka fails such a call with before sending it) every future
        fails with it at once and nothing is sent.
        """
        self._check_open()
        futures: Dict[Any, Future] = {k: Future() for k in keys}
        for f in futures.values():
            f.set_running_or_notify_cancel()
        if refused is not None:
            for f in futures.values():
                f.set_exception(refused)
            return futures
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
                 timed_out: Optional[Callable[[], Any]] = None, refused: Optional[KafkaException] = None) -> Future:
        marker = object()
        return self._run([marker], lambda engine: {marker: work(engine)}, timeout_ms, timed_out, refused)[marker]

    def _timeouts(self, options: _Options) -> Tuple[float, float]:
        """The call's request and operation timeouts in ms (ValueError out of range).

        The client must be open (RuntimeError): confluent-kafka looks at that
        before the timeouts' values, and before the items of the call.
        """
        self._check_open()
        request = options.timeout_ms("request_timeout", self._request_timeout_ms)
        return request, options.timeout_ms("operation_timeout", request)

    # -- topics ------------------------------------------------------------------------------------------------

    def create_topics(self, new_topics: List[NewTopic], **kwargs: Any) -> Dict[str, Future]:
        """Create topics; ``{topic: Future}`` whose result is None.

        Keyword arguments: ``operation_timeout`` (s, how long the controller
        waits for the creation), ``request_timeout`` (s), ``validate_only``.
        """
        topics = _future_keys([t.topic for t in new_topics])
        options = _Options(kwargs, ("validate_only", "request_timeout", "operation_timeout"))
        _non_empty_list(new_topics, "NewTopic objects")
        request_ms, operation_ms = self._timeouts(options)
        _future_keys(new_topics, NewTopic)
        specs, refused = _split({t.topic: _new_topic_spec(t) for t in new_topics})
        validate_only = options.flag("validate_only")

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.create_topics(list(specs.values()), timeout_ms=max(operation_ms, 0),
                                         validate_only=validate_only, raise_error=False) if specs else {}
            return {**found, **refused}

        return self._run(topics, work, timeout_ms=request_ms)

    def delete_topics(self, topics: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Delete topics; ``{topic: Future}`` whose result is None."""
        _future_keys(topics)
        options = _Options(kwargs, ("request_timeout", "operation_timeout"))
        if not isinstance(topics, list):
            raise TypeError("delete_topics() takes a list of topic names, not %s" % type(topics).__name__)
        _non_empty_list(topics, "topic strings")
        request_ms, operation_ms = self._timeouts(options)
        if None in topics:
            raise ValueError("Expected list of topic strings, not None")
        names = {topic: str(topic) for topic in topics}  # confluent-kafka sends str() of each

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = engine.delete_topics(list(dict.fromkeys(names.values())), timeout_ms=max(operation_ms, 0),
                                         raise_error=False)
            return {topic: found.get(name) for topic, name in names.items()}

        return self._run(topics, work, timeout_ms=request_ms)

    def create_partitions(self, new_partitions: List[NewPartitions], **kwargs: Any) -> Dict[str, Future]:
        """Raise partition counts; ``{topic: Future}`` whose result is None."""
        topics = _future_keys([p.topic for p in new_partitions])
        options = _Options(kwargs, ("validate_only", "request_timeout", "operation_timeout"))
        _non_empty_list(new_partitions, "NewPartitions objects")
        request_ms, operation_ms = self._timeouts(options)
        _future_keys(new_partitions, NewPartitions)
        prepared = {}
        for p in new_partitions:
            if not 1 <= p.new_total_count <= _MAX_PARTITIONS:
                raise ValueError("Invalid NewPartitions(%s): new_total_count must be 1..%d"
                                 % (p.topic, _MAX_PARTITIONS))
            if p.replica_assignment is not None:
                _replica_lists(p.replica_assignment, 1, p.new_total_count, "new_total_count")
            prepared[p.topic] = _engine_value(engine_res.NewPartitions, p.new_total_count, p.replica_assignment)
        plan, refused = _split(prepared)
        validate_only = options.flag("validate_only")

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.create_partitions(plan, timeout_ms=max(operation_ms, 0), validate_only=validate_only,
                                             raise_error=False) if plan else {}
            return {**found, **refused}

        return self._run(topics, work, timeout_ms=request_ms)

    def list_topics(self, topic: Optional[str] = None, timeout: float = -1) -> ClusterMetadata:
        """Cluster metadata (of one topic, or of all), synchronously, as the other clients give it."""
        self._check_handle()
        return self._metadata.cluster_metadata(topic, timeout)

    def describe_topics(self, topics: TopicCollection, **kwargs: Any) -> Dict[str, Future]:
        """Describe topics; ``{topic: Future}`` whose result is a :class:`TopicDescription`."""
        if not isinstance(topics, TopicCollection):
            raise TypeError("Expected input to be instance of TopicCollection")
        names = topics.topic_names
        if not isinstance(names, list):
            raise TypeError("Expected list of topic names to be described")
        _future_keys(names)
        options = _Options(kwargs, ("request_timeout", "include_authorized_operations"))
        for index, name in enumerate(names):
            if not isinstance(name, str):
                raise TypeError("Expected list of topic strings, not %s" % type(name).__name__)
            if not name:
                raise ValueError("Empty topic name at index %d isn't allowed" % index)
        request_ms, _ = self._timeouts(options)
        operations = _authorized_operations(options)

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
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
                out[name] = TopicDescription(d.name, _topic_uuid(d.topic_id), d.is_internal, parts, operations)
            return out

        return self._run(list(names), work, timeout_ms=request_ms,
                         refused=_duplicates_error(names, "Duplicate topics not allowed"))

    def describe_cluster(self, **kwargs: Any) -> Future:
        """Describe the cluster; a Future whose result is a :class:`DescribeClusterResult`."""
        options = _Options(kwargs, ("request_timeout", "include_authorized_operations"))
        request_ms, _ = self._timeouts(options)
        operations = _authorized_operations(options)

        def work(engine: KafkaAdminClient) -> DescribeClusterResult:
            d = engine.describe_cluster(raise_error=True)
            nodes = [Node(b.nodeId, b.host, b.port, b.rack) for b in d.brokers]
            controller = next((n for n in nodes if n.id == d.controller_id), None)
            return DescribeClusterResult(controller, nodes, d.cluster_id, operations)

        return self._run_one(work, timeout_ms=request_ms)

    # -- configs -----------------------------------------------------------------------------------------------
    #
    # ``broker`` (an int) is accepted and checked as confluent-kafka does; it is not used: the engine sends a
    # BROKER resource's request to that broker, and the others to any broker.

    def _config_call(self, resources: List[ConfigResource], kwargs: Dict[str, Any], allowed: Tuple[str, ...],
                     key_error: type) -> Tuple[_Options, float]:
        """The checks the three config calls share, up to the items' own; (options, request timeout)."""
        _future_keys(resources, ConfigResource, key_error)
        options = _Options(kwargs, allowed)
        _non_empty_list(resources, "ConfigResource objects")
        request_ms, _ = self._timeouts(options)
        for r in resources:
            _checked_resource(r)
        return options, request_ms

    def describe_configs(self, resources: List[ConfigResource], **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Describe configs; ``{ConfigResource: Future}`` whose result is ``{name: ConfigEntry}``."""
        _, request_ms = self._config_call(resources, kwargs, ("request_timeout", "broker"), ValueError)
        prepared = {r: _engine_value(_engine_resource, r) for r in resources}
        specs, refused = _split(prepared)

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = engine.describe_configs(list(specs.values()), include_synonyms=True,
                                            raise_error=False) if specs else {}
            out: Dict[Any, Any] = dict(refused)
            for r, spec in specs.items():
                value = found.get(spec.key)
                if value is None or isinstance(value, BaseException):
                    out[r] = value
                else:
                    out[r] = {name: _config_entry(e) for name, e in value.items()}
            return out

        return self._run(resources, work, timeout_ms=request_ms, refused=_resources_error(resources))

    def alter_configs(self, resources: List[ConfigResource], **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Replace each resource's dynamic configs with its ``set_config`` entries (others revert to defaults).

        Deprecated in confluent-kafka in favour of :meth:`incremental_alter_configs`: each call warns with a
        :class:`DeprecationWarning`, as confluent-kafka's does.
        """
        warnings.warn("alter_configs has been deprecated. Use incremental_alter_configs instead.",
                      category=DeprecationWarning, stacklevel=2)
        options, request_ms = self._config_call(resources, kwargs, ("validate_only", "request_timeout", "broker"),
                                                ValueError)
        prepared = {}
        for r in resources:
            if type(r.set_config_dict) is not dict:
                raise TypeError("Expected .set_config_dict to be dict, not %s" % type(r.set_config_dict).__name__)
            configs = _config_strings(r.set_config_dict, "set_config")
            prepared[r] = _engine_value(_engine_resource, r, configs)
        return self._change_configs("alter_configs", resources, prepared, options, request_ms,
                                    _resources_error(resources))

    def incremental_alter_configs(self, resources: List[ConfigResource],
                                  **kwargs: Any) -> Dict[ConfigResource, Future]:
        """Apply each resource's ``incremental_configs`` (SET, DELETE, APPEND, SUBTRACT) one by one."""
        options, request_ms = self._config_call(resources, kwargs, ("validate_only", "request_timeout", "broker"),
                                                TypeError)
        prepared = {}
        refusal = None
        for r in resources:
            plan = _incremental_plan(r)
            refusal = refusal or _duplicates_error([e.name for e in r.incremental_configs],
                                                   "Duplicate ConfigEntry found")
            prepared[r] = _engine_value(_engine_resource, r, plan)
        refusal = refusal or _duplicates_error(resources, "Duplicate ConfigResource found") or \
            _resources_error(resources)
        return self._change_configs("incremental_alter_configs", resources, prepared, options, request_ms, refusal)

    def _change_configs(self, call: str, resources: List[ConfigResource], prepared: Dict[ConfigResource, Any],
                        options: _Options, request_ms: float,
                        refusal: Optional[KafkaException]) -> Dict[ConfigResource, Future]:
        """Send the engine's ``call`` (``alter_configs`` or ``incremental_alter_configs``) for the resources
        ``prepared`` holds an engine value for; those it holds a refusal for fail alone."""
        specs, refused = _split(prepared)
        validate_only = options.flag("validate_only")

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = getattr(engine, call)(list(specs.values()), validate_only=validate_only,
                                          raise_error=False) if specs else {}
            return {**{r: found.get(spec.key) for r, spec in specs.items()}, **refused}

        return self._run(resources, work, timeout_ms=request_ms, refused=refusal)

    # -- ACLs --------------------------------------------------------------------------------------------------

    def create_acls(self, acls: List[AclBinding], **kwargs: Any) -> Dict[AclBinding, Future]:
        """Create ACLs; ``{AclBinding: Future}`` whose result is None."""
        _no_duplicates(acls, "ACL bindings")
        _future_keys(acls, AclBinding)
        options = _Options(kwargs, ("request_timeout",))
        _non_empty_list(acls, "AclBinding objects")
        request_ms, _ = self._timeouts(options)
        specs, refused = _split(_acl_specs(acls, as_filter=False))

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = engine.create_acls(list(specs.values()), raise_error=False) if specs else {}
            return {**{a: found.get(s) for a, s in specs.items()}, **refused}

        return self._run(acls, work, timeout_ms=request_ms)

    def describe_acls(self, acl_binding_filter: AclBindingFilter, **kwargs: Any) -> Future:
        """ACLs matching a filter; a Future whose result is a list of :class:`AclBinding`."""
        options = _Options(kwargs, ("request_timeout",))
        request_ms, _ = self._timeouts(options)
        if not isinstance(acl_binding_filter, AclBindingFilter):
            raise TypeError("Expected an AclBindingFilter object")
        spec = _acl_specs([acl_binding_filter], as_filter=True)[acl_binding_filter]

        def work(engine: KafkaAdminClient) -> List[AclBinding]:
            if isinstance(spec, BaseException):
                raise spec
            return [_binding(a) for a in engine.describe_acls(spec)]

        return self._run_one(work, timeout_ms=request_ms)

    def delete_acls(self, acl_binding_filters: List[AclBindingFilter],
                    **kwargs: Any) -> Dict[AclBindingFilter, Future]:
        """Delete ACLs matching filters; ``{AclBindingFilter: Future}`` whose result lists the deleted ACLs."""
        _no_duplicates(acl_binding_filters, "ACL binding filters")
        _future_keys(acl_binding_filters, AclBindingFilter)
        options = _Options(kwargs, ("request_timeout",))
        _non_empty_list(acl_binding_filters, "AclBindingFilter objects")
        request_ms, _ = self._timeouts(options)
        specs, refused = _split(_acl_specs(acl_binding_filters, as_filter=True))

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = engine.delete_acls(list(specs.values()), raise_error=False) if specs else {}
            out: Dict[Any, Any] = dict(refused)
            for f, s in specs.items():
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
        states = kwargs.get("states")
        types = kwargs.get("types")
        for value, cls, what in ((states, ConsumerGroupState, "states"), (types, ConsumerGroupType, "types")):
            if value is None:
                continue
            if not isinstance(value, set):
                raise TypeError("'%s' must be a set" % what)
            if any(not isinstance(v, cls) for v in value):
                raise TypeError("All elements of %s must be of type %s" % (what, cls.__name__))
        options = _Options(kwargs, ("request_timeout", "states", "types"))
        request_ms, _ = self._timeouts(options)
        if types and ConsumerGroupType.UNKNOWN in types:
            raise ValueError("UNKNOWN consumer group type is not allowed")

        def work(engine: KafkaAdminClient) -> ListConsumerGroupsResult:
            valid: Dict[str, ConsumerGroupListing] = {}
            problems: List[KafkaError] = []
            for node in [b.nodeId for b in engine.known_brokers(refresh=True)]:
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

    def _group_ids(self, group_ids: Any, what: str, kwargs: Dict[str, Any],
                   allowed: Tuple[str, ...]) -> Tuple[_Options, Dict[Any, str], Optional[KafkaException]]:
        """The checks describe and delete_consumer_groups share; (options, {key: group id sent}, and what
        librdkafka fails the call with when a group is named twice)."""
        if not isinstance(group_ids, list):
            raise TypeError("Expected input to be list of group ids to be %s" % what)
        if not group_ids:
            raise ValueError("Expected at least one group to be %s" % what)
        _future_keys(group_ids, str if what == "deleted" else None)
        options = _Options(kwargs, allowed)
        if None in group_ids:
            raise ValueError("Expected list of group strings, not None")
        names = [str(g) for g in group_ids]  # confluent-kafka sends str() of each
        return options, dict(zip(group_ids, names)), _duplicates_error(names, "Duplicate groups not allowed")

    def describe_consumer_groups(self, group_ids: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Describe groups; ``{group_id: Future}`` whose result is a :class:`ConsumerGroupDescription`."""
        options, names, refusal = self._group_ids(group_ids, "described", kwargs,
                                                  ("request_timeout", "include_authorized_operations"))
        request_ms, _ = self._timeouts(options)
        operations = _authorized_operations(options)

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.describe_consumer_groups(list(names.values()), raise_error=False)
            brokers = {b.nodeId: b for b in engine.known_brokers()}
            out: Dict[str, Any] = {}
            for key, gid in names.items():
                d = found.get(gid)
                if d is None or isinstance(d, BaseException):
                    out[key] = d
                    continue
                b = brokers.get(d.coordinator)
                coordinator = Node(b.nodeId, b.host, b.port, b.rack) if b is not None else None
                members = [MemberDescription(m.member_id, m.client_id, m.client_host,
                                             MemberAssignment([TopicPartition(tp.topic, tp.partition)
                                                               for tp in m.assignment]),
                                             m.group_instance_id)
                           for m in d.members]
                out[key] = ConsumerGroupDescription(
                    gid, d.protocol_type == "", members, d.protocol, group_state(d.state), coordinator,
                    operations, ConsumerGroupType.CLASSIC)
            return out

        return self._run(group_ids, work, timeout_ms=request_ms, refused=refusal)

    def delete_consumer_groups(self, group_ids: List[str], **kwargs: Any) -> Dict[str, Future]:
        """Delete groups; ``{group_id: Future}`` whose result is None."""
        options, names, refusal = self._group_ids(group_ids, "deleted", kwargs, ("request_timeout",))
        request_ms, _ = self._timeouts(options)
        return self._run(group_ids, lambda engine: engine.delete_consumer_groups(list(names.values()),
                                                                                 raise_error=False),
                         timeout_ms=request_ms, refused=refusal)

    def list_consumer_group_offsets(self, list_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                    **kwargs: Any) -> Dict[str, Future]:
        """A group's committed offsets; ``{group_id: Future}`` whose result is a
        :class:`ConsumerGroupTopicPartitions` (all committed partitions when none are named)."""
        request = _group_request(list_consumer_group_offsets_request, altering=False)
        options = _Options(kwargs, ("request_timeout", "require_stable"))
        request_ms, _ = self._timeouts(options)
        wanted = request.topic_partitions
        partitions = None if not wanted else [EngineTP(tp.topic, tp.partition) for tp in wanted]

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
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

        return self._run([request.group_id], work, timeout_ms=request_ms,
                         refused=_duplicates_error(_partition_keys(wanted or ()), "Duplicate partitions not allowed"))

    def alter_consumer_group_offsets(self, alter_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                     **kwargs: Any) -> Dict[str, Future]:
        """Set a group's committed offsets; ``{group_id: Future}`` whose result is a
        :class:`ConsumerGroupTopicPartitions` (a partition that failed has its ``error`` set)."""
        request = _group_request(alter_consumer_group_offsets_request, altering=True)
        options = _Options(kwargs, ("request_timeout",))
        request_ms, _ = self._timeouts(options)
        parts = request.topic_partitions or []
        plan: Dict[EngineTP, OffsetAndMetadata] = {
            EngineTP(tp.topic, tp.partition): OffsetAndMetadata(
                tp.offset, tp.metadata or "", -1 if tp.leader_epoch is None else tp.leader_epoch)
            for tp in parts}

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.alter_consumer_group_offsets(request.group_id, plan, raise_error=False)
            out = []
            for tp, om in plan.items():
                item = TopicPartition(tp.topic, tp.partition, om.offset)
                value = found.get(tp)
                if isinstance(value, BaseException):
                    item.error = from_engine(value)
                out.append(item)
            return {request.group_id: ConsumerGroupTopicPartitions(request.group_id, out)}

        return self._run([request.group_id], work, timeout_ms=request_ms,
                         refused=_duplicates_error(_partition_keys(parts), "Duplicate partitions not allowed"))

    # -- offsets and records -----------------------------------------------------------------------------------

    def list_offsets(self, topic_partition_offsets: Dict[TopicPartition, OffsetSpec],
                     **kwargs: Any) -> Dict[TopicPartition, Future]:
        """Offsets by :class:`OffsetSpec`; ``{TopicPartition: Future}`` whose result is a
        :class:`ListOffsetsResultInfo`. ``isolation_level`` is an :class:`IsolationLevel`."""
        if not isinstance(topic_partition_offsets, dict):
            raise TypeError("Expected topic_partition_offsets to be a dict of {TopicPartition: OffsetSpec}")
        for tp, spec in topic_partition_offsets.items():
            if not isinstance(tp, TopicPartition):
                raise TypeError("partition must be a TopicPartition, not %s" % type(tp).__name__)
            if not isinstance(tp.topic, str):
                raise TypeError("partition topic name must be a string")
            if not tp.topic:
                raise ValueError("partition topic name cannot be empty")
            if tp.partition < 0:
                raise ValueError("partition index must be non-negative")
            if not isinstance(spec, OffsetSpec):
                raise TypeError("Value must be a OffsetSpec, not %s" % type(spec).__name__)
        isolation = kwargs.get("isolation_level", IsolationLevel.READ_UNCOMMITTED)
        if not isinstance(isolation, IsolationLevel):
            raise TypeError("isolation_level argument should be an IsolationLevel")
        options = _Options(kwargs, ("request_timeout", "isolation_level"))
        request_ms, _ = self._timeouts(options)
        items = [(TopicPartition(tp.topic, tp.partition, spec._value), spec._value)
                 for tp, spec in topic_partition_offsets.items()]
        refusal = _offset_specs_error([value for _, value in items])
        from kafka.confluent.admin._list_offsets import list_offsets

        return self._run([tp for tp, _ in items], lambda engine: list_offsets(engine, items, isolation.value,
                                                                                     request_ms),
                         timeout_ms=request_ms, refused=refusal)

    def delete_records(self, topic_partition_offsets: List[TopicPartition],
                       **kwargs: Any) -> Dict[TopicPartition, Future]:
        """Delete records before each partition's ``offset`` (``OFFSET_END``: all);
        ``{TopicPartition: Future}`` whose result is a :class:`DeletedRecords`."""
        if not isinstance(topic_partition_offsets, list):
            raise TypeError("Expected Request to be a list, got '%s'" % type(topic_partition_offsets).__name__)
        for tp in topic_partition_offsets:
            if not isinstance(tp, TopicPartition):
                raise TypeError("Element of the request list must be of type 'TopicPartition' got '%s'"
                                % type(tp).__name__)
            if tp.partition < 0:
                raise ValueError("'partition' cannot be negative")
        options = _Options(kwargs, ("request_timeout", "operation_timeout"))
        request_ms, operation_ms = self._timeouts(options)
        plan = {EngineTP(tp.topic, tp.partition): tp.offset for tp in topic_partition_offsets}

        def work(engine: KafkaAdminClient) -> Dict[Any, Any]:
            found = engine.delete_records(plan, timeout_ms=max(operation_ms, 0), raise_error=False)
            out: Dict[Any, Any] = {}
            for tp in topic_partition_offsets:
                value = found[EngineTP(tp.topic, tp.partition)]
                out[tp] = value if isinstance(value, BaseException) else DeletedRecords(value.low_watermark)
            return out

        return self._run(topic_partition_offsets, work, timeout_ms=request_ms,
                         refused=_duplicates_error(_partition_keys(topic_partition_offsets),
                                                   "Duplicate partitions not allowed"))

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
        options = _Options(kwargs, ("request_timeout", "operation_timeout"))
        request_ms, operation_ms = self._timeouts(options)
        wanted: Optional[Dict[str, List[int]]] = None
        if partitions is not None:
            wanted = {}
            for tp in partitions:
                wanted.setdefault(tp.topic, []).append(tp.partition)

        def work(engine: KafkaAdminClient) -> Dict[TopicPartition, Any]:
            response = engine.elect_leaders(election_type.value, wanted, timeout_ms=max(operation_ms, 0),
                                            raise_errors=False)
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

        return self._run_one(work, timeout_ms=request_ms,
                             refused=_duplicates_error(_partition_keys(partitions or ()),
                                                       "Duplicate partitions specified"))

    def describe_user_scram_credentials(self, users: Optional[List[str]] = None, **kwargs: Any) -> Any:
        """Users' SCRAM credentials as :class:`UserScramCredentialsDescription`.

        With ``users`` None (every user): one Future whose result is
        ``{user: description}`` (it fails when any user does); with a list:
        ``{user: Future}``.
        """
        check_users(users)
        options = _Options(kwargs, ("request_timeout",))
        request_ms, _ = self._timeouts(options)
        refusal = duplicate_users_error(list(users or ()))

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.describe_user_scram_credentials(list(users or ()), raise_error=False)
            return {user: value if isinstance(value, BaseException) else UserScramCredentialsDescription(
                user, [ScramCredentialInfo(ScramMechanism(int(m)), n) for m, n in value])
                for user, value in found.items()}

        if users is not None:
            return self._run(users, work, timeout_ms=request_ms, refused=refusal)

        def every_user(engine: KafkaAdminClient) -> Dict[str, Any]:
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
        options = _Options(kwargs, ("request_timeout",))
        request_ms, _ = self._timeouts(options)
        users = list(dict.fromkeys(alt.user for alt in alterations))
        changes: List[Any] = []
        refused: Dict[str, Any] = {}
        for alt in alterations:
            if isinstance(alt, UserScramCredentialUpsertion):
                info = alt.scram_credential_info
                iterations = int(info.iterations) if isinstance(info.iterations, float) else info.iterations
                change = _engine_value(engine_users.UserScramCredentialUpsertion, alt.user, info.mechanism.value,
                                       alt.password, iterations,
                                       os.urandom(DEFAULT_SALT_BYTES) if alt.salt is None else alt.salt)
            elif isinstance(alt, UserScramCredentialDeletion):
                change = _engine_value(engine_users.UserScramCredentialDeletion, alt.user, alt.mechanism.value)
            else:  # check_alterations lets no other kind through
                continue
            if isinstance(change, BaseException):
                refused[alt.user] = change
            else:
                changes.append(change)

        def work(engine: KafkaAdminClient) -> Dict[str, Any]:
            found = engine.alter_user_scram_credentials(changes, raise_error=False) if changes else {}
            return {**found, **refused}

        return self._run(users, work, timeout_ms=request_ms, refused=unknown_mechanism_error(alterations))

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

    def poll(self, timeout: float) -> int:
        """Serve ``error_cb`` and ``throttle_cb`` (results arrive through the futures), waiting up to ``timeout``
        seconds for an event, and hand the engine's log records to ``logger``; return how many were served.
        A callback's exception is raised here.

        ``timeout`` (s) is required and must be a number, as in confluent-kafka.
        """
        kind = type(timeout)
        if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
            raise TypeError("poll() timeout must be a number of seconds, not %s" % kind.__name__)
        self._check_open()
        logged = self._log_forward.serve() if self._log_forward is not None else 0
        if self._relay.listener() is None:
            return logged
        # Wait up to timeout (a negative one: until an event comes) for connection events to serve.
        deadline = None if float(timeout) < 0 else time.monotonic() + float(timeout)
        while not self._relay and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.01)
        return logged + self._relay.serve()

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
        if self._log_forward is not None:
            self._log_forward.serve()
            self._log_forward.close()
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
