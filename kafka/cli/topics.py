"""``kafkawire topics``: list, create, delete and describe topics.

Follows ``kafka-topics.sh``: ``--bootstrap-server`` names the cluster,
``--partitions``, ``--replication-factor`` and ``--config KEY=VALUE`` shape a
new topic. Output goes to stdout; each failure is one line on stderr and
the exit code is 1 (2 for a usage error).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Tuple

from kafka import errors
from kafka.cli import ArgumentParser, report_error
from kafka.cli.options import add_connection_options, split_servers

PROG = "kafkawire topics"
#: Longest wait for the first answer of the cluster.
BOOTSTRAP_TIMEOUT_MS = 5000


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not an integer: {0!r}".format(text)) from None
    if value < 1 and value != -1:
        raise argparse.ArgumentTypeError("must be at least 1 (or -1 for the broker default), got {0}".format(value))
    return value


def _config(text: str) -> Tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("expected KEY=VALUE, got {0!r}".format(text))
    return name, value


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``topics`` command and its actions."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "topics", help="list, create, delete and describe topics",
        description="Manage topics, like kafka-topics.sh.")
    actions = parser.add_subparsers(title="actions", dest="action", metavar="ACTION", parser_class=ArgumentParser)
    actions.required = True

    listing = actions.add_parser("list", help="print the topic names, one per line")
    listing.add_argument("--include-internal", action="store_true", help="also list internal topics")
    add_connection_options(listing)

    create = actions.add_parser("create", help="create a topic")
    create.add_argument("name", metavar="NAME", help="topic name")
    create.add_argument("--partitions", type=_count, default=-1, metavar="N",
                        help="number of partitions (default: the broker's num.partitions)")
    create.add_argument("--replication-factor", type=_count, default=-1, metavar="R",
                        help="replicas per partition (default: the broker's default.replication.factor)")
    create.add_argument("--config", type=_config, action="append", default=[], metavar="KEY=VALUE",
                        help="a topic config, e.g. retention.ms=86400000 (repeatable)")
    create.add_argument("--if-not-exists", action="store_true", help="succeed when the topic already exists")
    create.set_defaults(_parser=create)
    add_connection_options(create)

    delete = actions.add_parser("delete", help="delete topics")
    delete.add_argument("names", metavar="NAME", nargs="+", help="topic name(s)")
    add_connection_options(delete)

    describe = actions.add_parser("describe", help="show partitions, leaders and replicas (all topics by default)")
    describe.add_argument("names", metavar="NAME", nargs="*", help="topic name(s)")
    add_connection_options(describe)
    return parser


def connect(args: argparse.Namespace) -> Any:
    """A KafkaAdminClient for ``--bootstrap-server``, giving up after ``--timeout``."""
    from kafka.admin import KafkaAdminClient

    servers = split_servers(args.bootstrap_servers)
    if not servers:
        raise errors.KafkaConfigurationError("--bootstrap-server is empty")
    timeout_ms = int(args.timeout * 1000)
    # A broker that is up answers its first metadata request in milliseconds:
    # report an unreachable one after a few seconds whatever --timeout says.
    return KafkaAdminClient(bootstrap_servers=servers, request_timeout_ms=timeout_ms,
                            bootstrap_timeout_ms=min(timeout_ms, BOOTSTRAP_TIMEOUT_MS),
                            socket_connection_setup_timeout_ms=min(timeout_ms, 10000))


def report_failures(results: Dict[Any, Any]) -> int:
    """Print one stderr line per failed resource; return the exit code."""
    failed = 0
    for value in results.values():
        if isinstance(value, BaseException):
            report_error(PROG, str(value))
            failed += 1
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    from kafka.admin import NewTopic

    if args.action == "create":
        # Checked before connecting, so a bad name is a usage error.
        try:
            topic = NewTopic(args.name, args.partitions, args.replication_factor, topic_configs=dict(args.config))
        except errors.IllegalArgumentError as exc:
            args._parser.error(str(exc.args[0]))
    with connect(args) as admin:
        if args.action == "list":
            for name in admin.list_topics(include_internal=args.include_internal):
                sys.stdout.write(name + "\n")
            return 0
        if args.action == "create":
            results = admin.create_topics([topic], raise_error=False)
            error = results[args.name]
            if isinstance(error, errors.TopicAlreadyExistsError) and args.if_not_exists:
                results[args.name] = None
            if results[args.name] is None:
                sys.stdout.write("Created topic {0}.\n".format(args.name) if error is None
                                 else "Topic {0} already exists.\n".format(args.name))
            return report_failures(results)
        if args.action == "delete":
            results = admin.delete_topics(args.names, raise_error=False)
            for name, value in results.items():
                if value is None:
                    sys.stdout.write("Deleted topic {0}.\n".format(name))
            return report_failures(results)
        return _describe(admin, args.names or None)


def _describe(admin: Any, names: Any) -> int:
    described = admin.describe_topics(names, raise_error=False)
    configs = _topic_configs(admin, [n for n, d in described.items() if not isinstance(d, BaseException)])
    for name, topic in described.items():
        if isinstance(topic, BaseException):
            continue
        rf = max((len(p.replicas) for p in topic.partitions), default=0)
        sys.stdout.write("Topic: {0}\tTopicId: {1}\tPartitionCount: {2}\tReplicationFactor: {3}\tConfigs: {4}\n"
                         .format(name, topic.topic_id or "-", len(topic.partitions), rf,
                                 ",".join("{0}={1}".format(k, v) for k, v in configs.get(name, []))))
        for p in topic.partitions:
            sys.stdout.write("\tTopic: {0}\tPartition: {1}\tLeader: {2}\tReplicas: {3}\tIsr: {4}\n".format(
                name, p.partition, p.leader if p.leader >= 0 else "none",
                ",".join(map(str, p.replicas)), ",".join(map(str, p.isr))))
    return report_failures(described)


def _topic_configs(admin: Any, names: List[str]) -> Dict[str, List[Tuple[str, str]]]:
    """Configs set on each topic itself (not defaults); empty where the broker cannot tell."""
    from kafka.admin import ConfigResource, ConfigResourceType, ConfigSource

    if not names:
        return {}
    try:
        found = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, n) for n in names],
                                       raise_error=False)
    except errors.KafkaError:
        return {}
    out: Dict[str, List[Tuple[str, str]]] = {}
    for (_, name), entries in found.items():
        if isinstance(entries, BaseException):
            continue
        out[name] = [(e.name, e.value or "") for e in entries.values()
                     if e.source == ConfigSource.DYNAMIC_TOPIC_CONFIG and not e.is_sensitive]
    return out
