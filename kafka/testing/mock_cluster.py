"""A multi-broker Kafka cluster for tests: librdkafka's built-in mock, driven via ctypes.

librdkafka ships a mock cluster that listens on loopback TCP ports and
answers real Kafka protocol requests (Produce, Fetch, Metadata, consumer
groups, transactions, ...). Its control API can move partition leaders, take
brokers down, add latency and inject error codes, which is what tests of
leader moves and broker restarts need. The shared library comes from the
``confluent-kafka`` wheel (``pip install confluent-kafka``); ``confluent_kafka``
itself is never imported.

Example::

    with MockCluster(3) as cluster:
        cluster.create_topic("events", partitions=6)
        cluster.set_partition_leader("events", 0, broker_id=2)
        cluster.start_request_tracking()
        ...  # run a client against cluster.bootstrap_servers
        assert (2, 0) in cluster.requests()   # broker 2 received a Produce

Broker ids are ``1 .. num_brokers``. Wherever a method takes an ``api_key``,
either the number or the protocol name (``"Produce"``) is accepted.

Behaviour worth knowing (librdkafka 2.16, pinned down in test_mock_cluster.py):

- ApiVersions v0-v2 are served. v3 and later are answered with
  UNSUPPORTED_VERSION (35) in a hand-made layout that matches no schema
  version: int16 error code, a one-byte entry count (the plain count, not
  count + 1), (api_key, min, max) for ApiVersions only, int32 throttle time,
  no tagged fields. A client should read only the error code, then retry at
  a version the broker supports.
- Injected errors (:meth:`MockCluster.push_request_errors`) are taken one per
  matching request from one cluster-wide stack per API key, whichever broker
  receives the request. A failed Produce writes nothing.
- A response delayed past the client's timeout
  (:meth:`MockCluster.push_broker_request_error_rtts` with error 0) is still
  written, so a retry stores the batch twice: the mock de-duplicates producer
  sequence numbers only for transactional producers. Its ordinary Fetch does
  not hide aborted records from a ``read_committed`` consumer either.
- After :meth:`MockCluster.set_partition_leader`, the old leader's
  NOT_LEADER_OR_FOLLOWER answer to Produce v10+ names the new leader
  (KIP-951), so librdkafka moves without a Metadata request.
- :meth:`MockCluster.broker_down` closes connections and refuses new ones but
  does not move partition leadership; call :meth:`set_partition_leader` too.
- Served APIs (ApiVersions v0): Produce 0-10, Fetch 0-16, ListOffsets 0-7,
  Metadata 0-13, OffsetCommit 0-9, OffsetFetch 0-6, FindCoordinator 0-3,
  JoinGroup 0-6, Heartbeat 0-5, LeaveGroup 0-4, SyncGroup 0-4, ApiVersions
  0-2, InitProducerId 0-4, OffsetForLeaderEpoch 2, AddPartitionsToTxn 0-1,
  AddOffsetsToTxn 0-1, EndTxn 0-1, TxnOffsetCommit 0-3, plus KIP-848/KIP-932
  group heartbeats, share fetches and telemetry. No SASL and no admin APIs
  (CreateTopics, DescribeGroups, ListGroups, DeleteRecords, DescribeConfigs,
  ...): create topics with :meth:`MockCluster.create_topic` or let Metadata
  auto-create them.
- With ``rebalance_delay_ms=0`` a confluent-kafka consumer gets its first
  record about 0.15 s after subscribing (one JoinGroup, one SyncGroup).
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import glob
import importlib.util
import os
import threading
import weakref
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

from kafka import fast_paths
from kafka.errors import KafkaError

#: Environment variable naming a librdkafka shared library to use instead of the bundled one.
LIBRARY_ENV_VAR = "KAFKAWIRE_LIBRDKAFKA"

ApiKeyLike = Union[int, str]

_c_void_p = ctypes.c_void_p
_c_char_p = ctypes.c_char_p
_c_int = ctypes.c_int
_c_int16 = ctypes.c_int16
_c_int32 = ctypes.c_int32
_c_int64 = ctypes.c_int64
_c_size_t = ctypes.c_size_t

# Signatures taken from librdkafka's rdkafka.h and rdkafka_mock.h.
# rd_kafka_resp_err_t is a C enum (int); pointers to opaque structs are void*.
# For the variadic rd_kafka_mock_broker_push_request_error_rtts() only the
# fixed arguments are listed; see MockCluster.push_broker_request_error_rtts.
_SIGNATURES: Dict[str, Tuple[List[Any], Any]] = {
    "rd_kafka_version_str": ([], _c_char_p),
    "rd_kafka_err2name": ([_c_int], _c_char_p),
    "rd_kafka_conf_new": ([], _c_void_p),
    "rd_kafka_conf_set": ([_c_void_p, _c_char_p, _c_char_p, _c_char_p, _c_size_t], _c_int),
    "rd_kafka_conf_destroy": ([_c_void_p], None),
    "rd_kafka_new": ([_c_int, _c_void_p, _c_char_p, _c_size_t], _c_void_p),
    "rd_kafka_destroy": ([_c_void_p], None),
    "rd_kafka_mock_cluster_new": ([_c_void_p, _c_int], _c_void_p),
    "rd_kafka_mock_cluster_destroy": ([_c_void_p], None),
    "rd_kafka_mock_cluster_bootstraps": ([_c_void_p], _c_char_p),
    "rd_kafka_mock_topic_create": ([_c_void_p, _c_char_p, _c_int, _c_int], _c_int),
    "rd_kafka_mock_topic_delete": ([_c_void_p, _c_char_p], _c_int),
    "rd_kafka_mock_topic_set_error": ([_c_void_p, _c_char_p, _c_int], None),
    "rd_kafka_mock_partition_set_leader": ([_c_void_p, _c_char_p, _c_int32, _c_int32], _c_int),
    "rd_kafka_mock_partition_set_follower": ([_c_void_p, _c_char_p, _c_int32, _c_int32], _c_int),
    "rd_kafka_mock_partition_set_follower_wmarks": (
        [_c_void_p, _c_char_p, _c_int32, _c_int64, _c_int64], _c_int),
    "rd_kafka_mock_partition_push_leader_response": (
        [_c_void_p, _c_char_p, _c_int, _c_int32, _c_int32], _c_int),
    "rd_kafka_mock_partition_delete_records": ([_c_void_p, _c_char_p, _c_int32, _c_int64], _c_int),
    "rd_kafka_mock_broker_set_down": ([_c_void_p, _c_int32], _c_int),
    "rd_kafka_mock_broker_set_up": ([_c_void_p, _c_int32], _c_int),
    "rd_kafka_mock_broker_set_rtt": ([_c_void_p, _c_int32, _c_int], _c_int),
    "rd_kafka_mock_broker_set_rack": ([_c_void_p, _c_int32, _c_char_p], _c_int),
    "rd_kafka_mock_broker_add": ([_c_void_p, _c_int32], _c_int),
    "rd_kafka_mock_broker_decommission": ([_c_void_p, _c_int32], _c_int),
    "rd_kafka_mock_broker_error_stack_cnt": (
        [_c_void_p, _c_int32, _c_int16, ctypes.POINTER(_c_size_t)], _c_int),
    "rd_kafka_mock_broker_push_request_error_rtts": ([_c_void_p, _c_int32, _c_int16, _c_size_t], _c_int),
    "rd_kafka_mock_push_request_errors_array": (
        [_c_void_p, _c_int16, _c_size_t, ctypes.POINTER(_c_int)], None),
    "rd_kafka_mock_clear_request_errors": ([_c_void_p, _c_int16], None),
    "rd_kafka_mock_coordinator_set": ([_c_void_p, _c_char_p, _c_char_p, _c_int32], _c_int),
    "rd_kafka_mock_set_apiversion": ([_c_void_p, _c_int16, _c_int16, _c_int16], _c_int),
    "rd_kafka_mock_group_initial_rebalance_delay_ms": ([_c_void_p, _c_int32], None),
    "rd_kafka_mock_start_request_tracking": ([_c_void_p], None),
    "rd_kafka_mock_stop_request_tracking": ([_c_void_p], None),
    "rd_kafka_mock_clear_requests": ([_c_void_p], None),
    "rd_kafka_mock_get_requests": ([_c_void_p, ctypes.POINTER(_c_size_t)], ctypes.POINTER(_c_void_p)),
    "rd_kafka_mock_request_destroy_array": ([ctypes.POINTER(_c_void_p), _c_size_t], None),
    "rd_kafka_mock_request_id": ([_c_void_p], _c_int32),
    "rd_kafka_mock_request_api_key": ([_c_void_p], _c_int16),
    "rd_kafka_mock_request_timestamp": ([_c_void_p], _c_int64),
}

_RD_KAFKA_PRODUCER = 0
_RD_KAFKA_CONF_OK = 0
_ALL_BROKERS = -1

#: librdkafka's ``RD_KAFKA_RESP_ERR__TRANSPORT``: as an injected error code the
#: mock broker closes the connection instead of answering.
DISCONNECT = -195


class MockClusterError(KafkaError):
    """A call into librdkafka's mock cluster failed.

    ``code`` is the librdkafka error code when there is one (Kafka protocol
    codes are positive, librdkafka's internal ones negative), else ``None``.
    """

    def __init__(self, message: str, code: Optional[int] = None) -> None:
        super().__init__(message)
        self.code = code


class LibrdkafkaNotFoundError(MockClusterError):
    """No librdkafka shared library with the mock cluster API could be loaded."""


class MockRequest(NamedTuple):
    """One request the mock cluster received while request tracking was on.

    ``timestamp_us`` is librdkafka's monotonic clock in microseconds: good for
    ordering and intervals, not a wall-clock time.
    """

    broker_id: int
    api_key: int
    timestamp_us: int


# ---------------------------------------------------------------- library


def _candidate_paths() -> List[str]:
    """Where to look for librdkafka, best first."""
    paths: List[str] = []
    override = os.environ.get(LIBRARY_ENV_VAR)
    if override:
        paths.append(override)
    try:
        spec = importlib.util.find_spec("confluent_kafka")
    except (ImportError, ValueError):
        spec = None
    for pkg_dir in (spec.submodule_search_locations or []) if spec else []:
        site_dir = os.path.dirname(os.path.abspath(pkg_dir))
        patterns = (
            os.path.join(site_dir, "confluent_kafka.libs", "librdkafka*.so*"),  # Linux wheels
            os.path.join(pkg_dir, ".dylibs", "librdkafka*.dylib"),  # macOS wheels
        )
        for pattern in patterns:
            paths.extend(sorted(glob.glob(pattern)))
    system = ctypes.util.find_library("rdkafka")
    if system:
        paths.append(system)
    return paths


_library: Optional[ctypes.CDLL] = None
_library_lock = threading.Lock()


def load_librdkafka() -> ctypes.CDLL:
    """Load (once) and return the librdkafka shared library with the mock API.

    Looks at ``$KAFKAWIRE_LIBRDKAFKA`` first, then at the copy bundled in the
    installed ``confluent-kafka`` wheel, then at a system librdkafka.

    :raises LibrdkafkaNotFoundError: when none of them can be loaded.
    """
    global _library
    with _library_lock:
        if _library is not None:
            return _library
        tried: List[str] = []
        for path in _candidate_paths():
            try:
                lib = ctypes.CDLL(path)
            except OSError as exc:
                tried.append("{0} ({1})".format(path, exc))
                continue
            if not hasattr(lib, "rd_kafka_mock_cluster_new"):
                tried.append("{0} (no mock cluster API)".format(path))
                continue
            _library = lib
            return lib
        raise LibrdkafkaNotFoundError(
            "librdkafka with the mock cluster API was not found; "
            "pip install confluent-kafka (its wheel bundles librdkafka) or set {0}{1}".format(
                LIBRARY_ENV_VAR, "; tried: " + ", ".join(tried) if tried else ""))


_functions: Dict[str, Any] = {}


def _function(name: str) -> Any:
    """The named librdkafka function with its C signature applied."""
    fn = _functions.get(name)
    if fn is not None:
        return fn
    lib = load_librdkafka()
    try:
        fn = getattr(lib, name)
    except AttributeError:
        raise MockClusterError("this librdkafka ({0}) has no {1}()".format(
            librdkafka_version(), name)) from None
    fn.argtypes, fn.restype = _SIGNATURES[name]
    _functions[name] = fn
    return fn


def librdkafka_version() -> str:
    """The version string of the loaded librdkafka, e.g. ``"2.16.0"``."""
    return _function("rd_kafka_version_str")().decode()


def has_function(name: str) -> bool:
    """Whether the loaded librdkafka exports the C function ``name``."""
    return hasattr(load_librdkafka(), name)


def error_name(code: int) -> str:
    """librdkafka's name for an error code, e.g. 6 -> ``"NOT_LEADER_FOR_PARTITION"``."""
    name = _function("rd_kafka_err2name")(code)
    return name.decode() if name else str(code)


def _check(code: int, what: str) -> None:
    if code:
        raise MockClusterError("{0} failed: {1} ({2})".format(what, error_name(code), code), code)


def _api_key(api_key: ApiKeyLike) -> int:
    if isinstance(api_key, str):
        from kafka.protocol.apis import by_name

        return by_name(api_key).key
    return int(api_key)


def _encode(text: str) -> bytes:
    return text.encode("utf-8")


# ---------------------------------------------------------------- cluster

_live_clusters: "weakref.WeakSet[MockCluster]" = weakref.WeakSet()


@atexit.register
def _close_live_clusters() -> None:
    for cluster in list(_live_clusters):
        cluster.close()


class MockCluster:
    """A librdkafka mock cluster of ``num_brokers`` brokers on loopback ports.

    The cluster lives inside this process on librdkafka's own threads; it is
    owned by a private, otherwise idle producer handle that never connects
    anywhere, so it adds no traffic of its own. Close it with :meth:`close`
    or use it as a context manager; clusters still open at interpreter exit
    are closed then. Closing occasionally takes about one second (the mock
    thread's poll interval). Do not call other methods concurrently with
    :meth:`close`.

    :param num_brokers: number of brokers, with ids ``1 .. num_brokers``.
    :param rebalance_delay_ms: the brokers' ``group.initial.rebalance.delay.ms``;
        0 (the default here) lets consumer groups form at once.
    :param track_requests: start request tracking immediately (see :meth:`requests`).
    :raises LibrdkafkaNotFoundError: when librdkafka is not installed.
    """

    def __init__(self, num_brokers: int = 3, *, rebalance_delay_ms: int = 0,
                 track_requests: bool = False) -> None:
        self._lock = threading.Lock()
        self._rk: Optional[int] = None
        self._cluster: Optional[int] = None
        if num_brokers < 1:
            raise ValueError("num_brokers must be at least 1, got {0}".format(num_brokers))
        self.num_brokers = num_brokers
        self._rk = self._new_owner_handle()
        cluster = _function("rd_kafka_mock_cluster_new")(self._rk, num_brokers)
        if not cluster:
            self.close()
            raise MockClusterError("rd_kafka_mock_cluster_new() failed")
        self._cluster = cluster
        _live_clusters.add(self)
        self.set_group_initial_rebalance_delay_ms(rebalance_delay_ms)
        if track_requests:
            self.start_request_tracking()

    @staticmethod
    def _new_owner_handle() -> int:
        conf = _function("rd_kafka_conf_new")()
        errstr = ctypes.create_string_buffer(512)
        # No bootstrap.servers: the handle stays idle. log_level 4 hides the
        # notice that says so, but keeps warnings and errors.
        settings = {"client.id": "kafkawire-mock-cluster", "log_level": "4"}
        for key, value in settings.items():
            res = _function("rd_kafka_conf_set")(conf, _encode(key), _encode(value), errstr, len(errstr))
            if res != _RD_KAFKA_CONF_OK:
                _function("rd_kafka_conf_destroy")(conf)
                raise MockClusterError("rd_kafka_conf_set({0}) failed: {1}".format(
                    key, errstr.value.decode(errors="replace")))
        rk = _function("rd_kafka_new")(_RD_KAFKA_PRODUCER, conf, errstr, len(errstr))
        if not rk:
            _function("rd_kafka_conf_destroy")(conf)  # rd_kafka_new() keeps conf only on success
            raise MockClusterError("rd_kafka_new() failed: {0}".format(
                errstr.value.decode(errors="replace")))
        return rk

    # -------------------------------------------------------- lifecycle

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._cluster is None and self._rk is None

    @property
    def bootstrap_servers(self) -> str:
        """``host:port,host:port,...`` of the brokers, for a client's bootstrap list."""
        return _function("rd_kafka_mock_cluster_bootstraps")(self._handle()).decode()

    @property
    def broker_ids(self) -> List[int]:
        """The ids of the brokers the cluster was created with."""
        return list(range(1, self.num_brokers + 1))

    def broker_addresses(self) -> Dict[int, Tuple[str, int]]:
        """``{broker_id: (host, port)}``, for talking to one broker directly.

        librdkafka lists the bootstrap servers in broker id order (1, 2, ...);
        ``test_mock_cluster.py`` checks that against Metadata. After
        :meth:`add_broker` or :meth:`decommission_broker` ask Metadata instead.
        """
        out: Dict[int, Tuple[str, int]] = {}
        for broker_id, entry in enumerate(self.bootstrap_servers.split(","), start=1):
            host, _, port = entry.rpartition(":")
            out[broker_id] = (host, int(port))
        return out

    def close(self) -> None:
        """Destroy the cluster, then its owner handle. Safe to call more than once."""
        with self._lock:
            cluster, self._cluster = self._cluster, None
            rk, self._rk = self._rk, None
        if cluster:
            _function("rd_kafka_mock_cluster_destroy")(cluster)
        if rk:
            _function("rd_kafka_destroy")(rk)
        _live_clusters.discard(self)

    def __enter__(self) -> "MockCluster":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown may have torn things down
            pass

    def __repr__(self) -> str:
        state = "closed" if self._cluster is None else self.bootstrap_servers
        return "MockCluster(num_brokers={0}, {1})".format(self.num_brokers, state)

    def _handle(self) -> int:
        cluster = self._cluster
        if cluster is None:
            raise MockClusterError("the mock cluster is closed")
        return cluster

    # -------------------------------------------------------- topics & partitions

    def create_topic(self, name: str, partitions: int = 1, replication_factor: int = 1) -> None:
        """Create a topic; leaders are spread over the brokers by the mock."""
        _check(_function("rd_kafka_mock_topic_create")(
            self._handle(), _encode(name), partitions, replication_factor), "create_topic")

    def delete_topic(self, name: str) -> None:
        """Delete a topic (UNKNOWN_TOPIC_OR_PART error if it does not exist)."""
        _check(_function("rd_kafka_mock_topic_delete")(self._handle(), _encode(name)), "delete_topic")

    def set_topic_error(self, name: str, error_code: int) -> None:
        """Make Metadata (and AddPartitionsToTxn) report ``error_code`` for the topic; 0 clears it."""
        _function("rd_kafka_mock_topic_set_error")(self._handle(), _encode(name), error_code)

    def set_partition_leader(self, topic: str, partition: int, broker_id: int) -> None:
        """Move a partition's leadership to ``broker_id`` (-1: no leader).

        Creates the topic if needed. The old leader answers the partition's
        requests with NOT_LEADER_OR_FOLLOWER; for Produce v10+ that answer
        names the new leader (KIP-951), otherwise clients learn it from
        their next Metadata request.
        """
        _check(_function("rd_kafka_mock_partition_set_leader")(
            self._handle(), _encode(topic), partition, broker_id), "set_partition_leader")

    def set_partition_follower(self, topic: str, partition: int, broker_id: int) -> None:
        """Set the partition's preferred read replica (KIP-392 fetch-from-follower)."""
        _check(_function("rd_kafka_mock_partition_set_follower")(
            self._handle(), _encode(topic), partition, broker_id), "set_partition_follower")

    def set_partition_follower_watermarks(self, topic: str, partition: int,
                                          low: int, high: int) -> None:
        """Set the follower's low/high watermarks; -1 reverts to the leader's."""
        _check(_function("rd_kafka_mock_partition_set_follower_wmarks")(
            self._handle(), _encode(topic), partition, low, high), "set_partition_follower_watermarks")

    def push_leader_response(self, topic: str, partition: int, leader_id: int,
                             leader_epoch: int) -> None:
        """Queue one Metadata answer claiming this leader and epoch (e.g. stale metadata)."""
        _check(_function("rd_kafka_mock_partition_push_leader_response")(
            self._handle(), _encode(topic), partition, leader_id, leader_epoch),
            "push_leader_response")

    def delete_records(self, topic: str, partition: int, before_offset: int) -> None:
        """Advance the partition's log start offset to ``before_offset`` (like DeleteRecords)."""
        _check(_function("rd_kafka_mock_partition_delete_records")(
            self._handle(), _encode(topic), partition, before_offset), "delete_records")

    # -------------------------------------------------------- brokers

    def broker_down(self, broker_id: int = _ALL_BROKERS) -> None:
        """Close the broker's connections and refuse new ones (-1: every broker).

        Partition leadership does not move.
        """
        _check(_function("rd_kafka_mock_broker_set_down")(self._handle(), broker_id), "broker_down")

    def broker_up(self, broker_id: int = _ALL_BROKERS) -> None:
        """Let the broker accept connections again (-1: every broker)."""
        _check(_function("rd_kafka_mock_broker_set_up")(self._handle(), broker_id), "broker_up")

    def set_rtt(self, broker_id: int, rtt_ms: int) -> None:
        """Delay every response of the broker by ``rtt_ms`` (-1 as id: every broker)."""
        _check(_function("rd_kafka_mock_broker_set_rtt")(self._handle(), broker_id, rtt_ms), "set_rtt")

    def set_rack(self, broker_id: int, rack: str) -> None:
        """Set the rack the broker reports in Metadata (-1 as id: every broker)."""
        _check(_function("rd_kafka_mock_broker_set_rack")(self._handle(), broker_id, _encode(rack)),
               "set_rack")

    def add_broker(self, broker_id: int) -> None:
        """Add a broker with this id; partitions get reassigned to include it."""
        _check(_function("rd_kafka_mock_broker_add")(self._handle(), broker_id), "add_broker")

    def decommission_broker(self, broker_id: int) -> None:
        """Remove a broker; its partitions are reassigned to the others."""
        _check(_function("rd_kafka_mock_broker_decommission")(self._handle(), broker_id),
               "decommission_broker")

    # -------------------------------------------------------- error injection

    def push_request_errors(self, api_key: ApiKeyLike, *error_codes: int) -> None:
        """Fail the next ``len(error_codes)`` requests of ``api_key``, in order.

        Each matching request, on whichever broker it arrives, takes the next
        code off the stack and is answered with it instead of being served
        (a failed Produce writes nothing). :data:`DISCONNECT` makes the broker
        close the connection instead of answering.
        """
        if not error_codes:
            return
        array = (_c_int * len(error_codes))(*error_codes)
        _function("rd_kafka_mock_push_request_errors_array")(
            self._handle(), _api_key(api_key), len(error_codes), array)

    def clear_request_errors(self, api_key: ApiKeyLike) -> None:
        """Drop the cluster-wide errors still queued for ``api_key``."""
        _function("rd_kafka_mock_clear_request_errors")(self._handle(), _api_key(api_key))

    def push_broker_request_error_rtts(self, broker_id: int, api_key: ApiKeyLike,
                                       errors_and_rtts: Iterable[Tuple[int, int]]) -> None:
        """Queue ``(error_code, rtt_ms)`` answers for the next requests of ``api_key`` on one broker.

        Error 0 with a delay serves the request normally but answers late,
        e.g. past the client's request timeout (the write still happens).
        These take precedence over :meth:`push_request_errors`.
        """
        pairs = list(errors_and_rtts)
        if not pairs:
            return
        name = "rd_kafka_mock_broker_push_request_error_rtts"
        fixed = [self._handle(), broker_id, _api_key(api_key), len(pairs)]
        extra: List[Any] = []
        for code, rtt_ms in pairs:
            extra.extend((_c_int(code), _c_int(rtt_ms)))  # the C function reads two ints per pair
        if fast_paths.PYPY:
            # PyPy's ctypes cannot make variadic calls; a prototype with the
            # same argument list is equivalent on the x86-64 and Linux arm64 ABIs.
            proto = ctypes.CFUNCTYPE(_c_int, *(_SIGNATURES[name][0] + [_c_int] * len(extra)))
            fn = proto((name, load_librdkafka()))
        else:
            fn = _function(name)  # extra arguments beyond argtypes are passed as C varargs
        _check(fn(*fixed, *extra), "push_broker_request_error_rtts")

    def broker_error_stack_count(self, broker_id: int, api_key: ApiKeyLike) -> int:
        """How many per-broker injected answers for ``api_key`` are still queued."""
        count = _c_size_t(0)
        _check(_function("rd_kafka_mock_broker_error_stack_cnt")(
            self._handle(), broker_id, _api_key(api_key), ctypes.byref(count)),
            "broker_error_stack_count")
        return count.value

    # -------------------------------------------------------- protocol behaviour

    def set_apiversion(self, api_key: ApiKeyLike, min_version: int, max_version: int) -> None:
        """Advertise only ``min_version..max_version`` for ``api_key`` (-1, -1: drop the API).

        Requests outside the range are then refused as a broker of that age
        would. ``max_version`` must not exceed what the mock implements; that
        is not checked.
        """
        _check(_function("rd_kafka_mock_set_apiversion")(
            self._handle(), _api_key(api_key), min_version, max_version), "set_apiversion")

    def set_coordinator(self, key_type: str, key: str, broker_id: int) -> None:
        """Pin the coordinator of a group or transactional id to ``broker_id``.

        :param key_type: ``"group"`` or ``"transaction"``.
        """
        if key_type not in ("group", "transaction"):
            raise ValueError("key_type must be 'group' or 'transaction', got {0!r}".format(key_type))
        _check(_function("rd_kafka_mock_coordinator_set")(
            self._handle(), _encode(key_type), _encode(key), broker_id), "set_coordinator")

    def set_group_initial_rebalance_delay_ms(self, delay_ms: int) -> None:
        """Set the brokers' ``group.initial.rebalance.delay.ms``."""
        _function("rd_kafka_mock_group_initial_rebalance_delay_ms")(self._handle(), delay_ms)

    # -------------------------------------------------------- request tracking

    def start_request_tracking(self) -> None:
        """Start recording every request received (broker, api key, time)."""
        _function("rd_kafka_mock_start_request_tracking")(self._handle())

    def stop_request_tracking(self) -> None:
        """Stop recording requests; what was recorded is kept."""
        _function("rd_kafka_mock_stop_request_tracking")(self._handle())

    def clear_requests(self) -> None:
        """Forget the requests recorded so far."""
        _function("rd_kafka_mock_clear_requests")(self._handle())

    def request_log(self) -> List[MockRequest]:
        """The requests recorded since tracking started (or was cleared), oldest first."""
        count = _c_size_t(0)
        array = _function("rd_kafka_mock_get_requests")(self._handle(), ctypes.byref(count))
        if not array:
            return []
        try:
            get_id = _function("rd_kafka_mock_request_id")
            get_key = _function("rd_kafka_mock_request_api_key")
            get_ts = _function("rd_kafka_mock_request_timestamp")
            return [MockRequest(get_id(array[i]), get_key(array[i]), get_ts(array[i]))
                    for i in range(count.value)]
        finally:
            _function("rd_kafka_mock_request_destroy_array")(array, count.value)

    def requests(self, api_key: Optional[ApiKeyLike] = None) -> List[Tuple[int, int]]:
        """Recorded requests as ``(broker_id, api_key)`` pairs, optionally of one API only."""
        wanted = None if api_key is None else _api_key(api_key)
        return [(r.broker_id, r.api_key) for r in self.request_log()
                if wanted is None or r.api_key == wanted]

    def request_counts(self, api_key: ApiKeyLike) -> Dict[int, int]:
        """``{broker_id: number of recorded requests of api_key}`` (brokers with none left out)."""
        counts: Dict[int, int] = {}
        for broker_id, _ in self.requests(api_key):
            counts[broker_id] = counts.get(broker_id, 0) + 1
        return counts


__all__: Sequence[str] = (
    "DISCONNECT",
    "LIBRARY_ENV_VAR",
    "LibrdkafkaNotFoundError",
    "MockCluster",
    "MockClusterError",
    "MockRequest",
    "error_name",
    "has_function",
    "librdkafka_version",
    "load_librdkafka",
)
