"""A pytest plugin: Kafka fixtures for projects that use kafkawire.

Installing kafkawire registers this module with pytest (the ``kafkawire``
entry point of the ``pytest11`` group), so its fixtures are there in every
test session without a ``conftest.py``:

``kafka_broker``
    one embedded broker (Tansu, from the ``broker`` extra) for the session,
    or the external cluster named by ``--kafka-bootstrap`` /
    ``KAFKA_BOOTSTRAP_SERVERS``; it has ``bootstrap_servers``.
``kafka_bootstrap``
    its ``"host:port"`` string.
``kafka_admin``
    a :class:`~kafka.admin.KafkaAdminClient` on it, shared by the session.
``kafka_topic`` / ``kafka_topic_factory``
    a topic of the test's own / a function creating more of them.
``kafka_producer_factory`` / ``kafka_consumer_factory``
    functions making a producer / consumer bound to the broker, closed when
    the test ends.
``kafka_mock_cluster`` / ``kafka_mock_cluster_factory``
    librdkafka's multi-broker mock cluster with fault injection
    (:class:`kafka.testing.mock_cluster.MockCluster`).

pytest imports this module in every session of every project that has
kafkawire installed, used or not: it imports nothing but pytest and the
standard library at module level, and starts nothing until a fixture asks.
A missing broker or librdkafka is reported by the fixture that needs it.
``-p no:kafkawire`` turns the plugin off.
"""

from __future__ import annotations

import os
import re
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Union

import pytest

if TYPE_CHECKING:
    from kafka.admin import KafkaAdminClient
    from kafka.consumer.modern import ModernKafkaConsumer
    from kafka.producer import KafkaProducer
    from kafka.testing import EmbeddedBroker
    from kafka.testing.mock_cluster import MockCluster

#: Environment variable naming an external cluster (when ``--kafka-bootstrap`` is not given).
BOOTSTRAP_ENV_VAR = "KAFKA_BOOTSTRAP_SERVERS"

#: How long a consumer from ``kafka_consumer_factory`` iterates without a
#: record before it stops, unless the test sets ``consumer_timeout_ms``.
DEFAULT_CONSUMER_TIMEOUT_MS = 10000

_UNSAFE_TOPIC_CHARACTERS = re.compile(r"[^a-zA-Z0-9._-]+")
_TOPIC_PREFIX_LENGTH = 80


class ExternalCluster:
    """A Kafka cluster the plugin did not start: it only knows its address.

    ``kafka_broker`` gives one when ``--kafka-bootstrap`` or
    ``KAFKA_BOOTSTRAP_SERVERS`` names a cluster.
    """

    def __init__(self, bootstrap_servers: str) -> None:
        self.bootstrap_servers = bootstrap_servers

    def __repr__(self) -> str:
        return "<ExternalCluster {0}>".format(self.bootstrap_servers)


#: What ``kafka_broker`` gives: an embedded broker or an external cluster.
KafkaBroker = Union["EmbeddedBroker", ExternalCluster]


# -------------------------------------------------------------- options


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--kafka-bootstrap``."""
    group = parser.getgroup("kafkawire", "Kafka fixtures (kafkawire)")
    group.addoption(
        "--kafka-bootstrap", dest="kafka_bootstrap", default=None, metavar="HOST:PORT[,...]",
        help="run the kafka_* fixtures against this cluster instead of an embedded broker "
             "(default: ${0})".format(BOOTSTRAP_ENV_VAR))


def external_bootstrap(config: pytest.Config) -> Optional[str]:
    """The external cluster's address from ``--kafka-bootstrap`` or the environment, if any."""
    value = config.getoption("kafka_bootstrap", None) or os.environ.get(BOOTSTRAP_ENV_VAR, "")
    return value.strip() or None


def pytest_report_header(config: pytest.Config) -> Optional[str]:
    """Say when the fixtures use an external cluster rather than the embedded broker."""
    address = external_bootstrap(config)
    return None if address is None else "kafkawire: kafka_* fixtures use the cluster at {0}".format(address)


# -------------------------------------------------------------- the broker


@pytest.fixture(scope="session")
def kafka_broker(pytestconfig: pytest.Config) -> Iterator[KafkaBroker]:
    """One broker for the session: an :class:`~kafka.testing.EmbeddedBroker`, started
    on first use and stopped at the end, or an :class:`ExternalCluster` when
    ``--kafka-bootstrap`` / ``KAFKA_BOOTSTRAP_SERVERS`` is set.

    Tests share it: use topics of your own (``kafka_topic``) and never stop it.
    Fails the tests that use it when no broker executable is installed.
    """
    address = external_bootstrap(pytestconfig)
    if address is not None:
        yield ExternalCluster(address)
        return
    from kafka.testing import EmbeddedBroker, EmbeddedBrokerError

    broker = EmbeddedBroker()
    problem: Optional[EmbeddedBrokerError] = None
    try:
        broker.start()
    except EmbeddedBrokerError as exc:
        problem = exc
    if problem is not None:  # failed outside the except block, so without the chained traceback
        pytest.fail("kafka_broker: {0}\n(or point the fixtures at a running cluster with "
                    "--kafka-bootstrap=HOST:PORT)".format(problem), pytrace=False)
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def kafka_bootstrap(kafka_broker: KafkaBroker) -> str:
    """The broker's ``"host:port"``, for a client's ``bootstrap_servers``."""
    return kafka_broker.bootstrap_servers


@pytest.fixture(scope="session")
def kafka_admin(kafka_bootstrap: str) -> Iterator["KafkaAdminClient"]:
    """A :class:`~kafka.admin.KafkaAdminClient` on the broker, shared by the session (do not close it)."""
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    try:
        yield admin
    finally:
        admin.close()


# -------------------------------------------------------------- topics


def topic_name_for(test_name: str) -> str:
    """A new, legal topic name that starts with (a cleaned-up) ``test_name``."""
    prefix = _UNSAFE_TOPIC_CHARACTERS.sub("-", test_name).strip("-.")[:_TOPIC_PREFIX_LENGTH]
    return "{0}-{1}".format(prefix or "topic", uuid.uuid4().hex[:12])


@pytest.fixture
def kafka_topic_factory(request: pytest.FixtureRequest,
                        kafka_admin: "KafkaAdminClient") -> Iterator[Callable[..., str]]:
    """A function creating topics for this test; they are deleted when it ends.

    ``kafka_topic_factory(partitions=1, name=None, config=None)`` creates the
    topic (replication factor 1; ``config`` is a ``{name: value}`` mapping of
    topic settings) and returns its name, by default the test's name plus a
    unique suffix.
    """
    from kafka.admin import NewTopic

    created: List[str] = []

    def create(partitions: int = 1, name: Optional[str] = None,
               config: Optional[Dict[str, str]] = None) -> str:
        topic = name if name is not None else topic_name_for(request.node.name)
        kafka_admin.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1,
                                            topic_configs=config)])
        created.append(topic)
        return topic

    yield create
    if created:
        _delete_topics(kafka_admin, created)


def _delete_topics(admin: "KafkaAdminClient", topics: List[str]) -> None:
    from kafka.errors import KafkaError

    try:
        admin.delete_topics(topics, raise_error=False)
    except KafkaError:
        # Only tidying up: the names are unique, so a topic left behind
        # cannot disturb another test.
        pass


@pytest.fixture
def kafka_topic(kafka_topic_factory: Callable[..., str]) -> str:
    """The name of a new one-partition topic for this test, deleted when it ends."""
    return kafka_topic_factory()


# -------------------------------------------------------------- clients


def _default_bootstrap(request: pytest.FixtureRequest, config: Dict[str, Any]) -> None:
    """Point ``config`` at ``kafka_bootstrap`` unless it names servers (the
    broker is started only then, so a mock cluster's clients start none)."""
    if "bootstrap_servers" not in config:
        config["bootstrap_servers"] = request.getfixturevalue("kafka_bootstrap")


@pytest.fixture
def kafka_producer_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., "KafkaProducer"]]:
    """A function making a :class:`~kafka.KafkaProducer` bound to the broker.

    ``kafka_producer_factory(**config)`` passes ``config`` to the producer;
    ``bootstrap_servers`` defaults to ``kafka_bootstrap`` (give the mock
    cluster's to use it instead). Every producer made is closed when the
    test ends.
    """
    from kafka.producer import KafkaProducer

    made: List["KafkaProducer"] = []

    def make(**config: Any) -> "KafkaProducer":
        _default_bootstrap(request, config)
        producer = KafkaProducer(**config)
        made.append(producer)
        return producer

    yield make
    for producer in made:
        producer.close(timeout=5)


@pytest.fixture
def kafka_consumer_factory(request: pytest.FixtureRequest) -> Iterator[Callable[..., "ModernKafkaConsumer"]]:
    """A function making a consumer bound to the broker: the engine's
    ``ModernKafkaConsumer``, which :class:`~kafka.KafkaConsumer` extends
    with the kafka-python 0.9 methods (the plugin sits on the engine).

    ``kafka_consumer_factory(*topics, **config)`` passes both to the consumer,
    with test-friendly defaults a test may override: ``bootstrap_servers``
    is ``kafka_bootstrap``, ``auto_offset_reset="earliest"`` (read what the test
    produced before subscribing) and ``consumer_timeout_ms=10000`` (iterating
    stops after ten seconds without a record instead of hanging). Without a
    ``group_id`` the consumer reads every partition without joining a group.
    Every consumer made is closed when the test ends.
    """
    from kafka.consumer.modern import ModernKafkaConsumer

    made: List["ModernKafkaConsumer"] = []

    def make(*topics: str, **config: Any) -> "ModernKafkaConsumer":
        _default_bootstrap(request, config)
        config.setdefault("auto_offset_reset", "earliest")
        config.setdefault("consumer_timeout_ms", DEFAULT_CONSUMER_TIMEOUT_MS)
        consumer = ModernKafkaConsumer(*topics, **config)
        made.append(consumer)
        return consumer

    yield make
    for consumer in made:
        consumer.close()


# -------------------------------------------------------------- mock cluster


@pytest.fixture
def kafka_mock_cluster_factory() -> Iterator[Callable[..., "MockCluster"]]:
    """A function making librdkafka mock clusters, closed when the test ends.

    ``kafka_mock_cluster_factory(num_brokers=3, **options)`` takes the
    arguments of :class:`~kafka.testing.mock_cluster.MockCluster`. Needs
    librdkafka, which the ``confluent-kafka`` wheel carries; fails the test
    when it is missing.
    """
    from kafka.testing.mock_cluster import LibrdkafkaNotFoundError, MockCluster

    made: List[MockCluster] = []

    def make(num_brokers: int = 3, **options: Any) -> MockCluster:
        problem: Optional[LibrdkafkaNotFoundError] = None
        try:
            cluster = MockCluster(num_brokers, **options)
        except LibrdkafkaNotFoundError as exc:
            problem = exc
        if problem is not None:
            pytest.fail("kafka_mock_cluster: {0} (pip install confluent-kafka: its wheel carries "
                        "librdkafka)".format(problem), pytrace=False)
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        cluster.close()


@pytest.fixture
def kafka_mock_cluster(kafka_mock_cluster_factory: Callable[..., "MockCluster"]) -> "MockCluster":
    """A three-broker librdkafka mock cluster for this test, with fault injection.

    Its ``bootstrap_servers`` goes to a client; ``create_topic``,
    ``set_partition_leader``, ``broker_down`` / ``broker_up``, ``set_rtt``
    and ``push_request_errors`` shape what the client meets. Consumer groups
    form at once (no initial rebalance delay).
    """
    return kafka_mock_cluster_factory(3)
