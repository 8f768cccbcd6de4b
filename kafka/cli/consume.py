"""``kafkawire consume TOPIC``: print a topic's records on stdout.

Without ``--group`` every partition of the topic is read (or only
``--partition P``), from the end unless ``--from-beginning``, ``--offset``
or ``--from-timestamp`` says otherwise. With ``--group G`` the group
assigns the partitions, reading starts at the group's committed offsets
(or the beginning/end for partitions it has none for), and the offsets of
the printed records are committed. Runs until ``--max-messages`` records
were printed, ``--timeout-ms`` passed without a record, or Ctrl-C.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from typing import Any, Callable, Dict, List, Optional

from kafka import errors
from kafka.cli import _common
from kafka.cli.options import add_bootstrap_option, add_timeout_option, command_description, split_servers
from kafka.structs import TopicPartition

PROG = "kafkawire consume"
#: Names of the record timestamp types, by the number the protocol uses.
TIMESTAMP_TYPES = {0: "CreateTime", 1: "LogAppendTime"}
_POLL_MS = 200
_COMMIT_INTERVAL = 5.0


def _offset(text: str) -> Any:
    if text in ("earliest", "latest"):
        return text
    try:
        return _common.non_negative_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            "expected an offset (0 or more), 'earliest' or 'latest', got {0!r}".format(text)) from None


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``consume`` command."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "consume", help="print records of a topic on stdout",
        description=command_description(__doc__) if __doc__ else None)
    parser.add_argument("topic", metavar="TOPIC", help="topic to read")
    add_bootstrap_option(parser)
    where = parser.add_argument_group("where to start")
    where.add_argument("--group", metavar="GROUP", help="consume as a member of this consumer group")
    where.add_argument("--from-beginning", action="store_true",
                       help="start at the earliest offset (with --group: where the group has no offset)")
    where.add_argument("--partition", type=_common.non_negative_int, metavar="P",
                       help="read only partition P")
    where.add_argument("--offset", type=_offset, metavar="O",
                       help="with --partition: start at offset O, 'earliest' or 'latest' (default: latest)")
    where.add_argument("--from-timestamp", type=_common.non_negative_int, metavar="MS",
                       help="start at the first record whose timestamp is at least MS (milliseconds "
                            "since the epoch); partitions with no such record start at their end")
    until = parser.add_argument_group("when to stop")
    until.add_argument("--max-messages", type=_common.positive_int, metavar="N",
                       help="exit after N records")
    until.add_argument("--timeout-ms", type=_common.positive_int, metavar="MS",
                       help="exit when no record came for MS milliseconds (default: wait for ever)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("raw", "json"), default="raw",
                     help="raw: the value (and key) of each record per line; json: one JSON object per "
                          "record with all its fields (default: raw)")
    out.add_argument("--print-key", action="store_true", help="raw format: print the key before the value")
    out.add_argument("--key-separator", type=_common.separator, default=b"\t", metavar="SEP",
                     help="raw format: what separates key and value (default: a tab)")
    parser.add_argument("--isolation-level", choices=("read_uncommitted", "read_committed"),
                        default="read_uncommitted",
                        help="read_committed hides records of open and aborted transactions")
    parser.add_argument("--session-timeout-ms", type=_common.positive_int, default=10000, metavar="MS",
                        help="group session timeout (default: %(default)s)")
    add_timeout_option(parser)
    parser.set_defaults(_parser=parser)
    return parser


def _check(args: argparse.Namespace) -> None:
    """Refuse combinations of options that contradict each other."""
    if args.offset is not None and args.partition is None:
        _common.usage_error(args, "--offset needs --partition")
    starts = [name for name, given in (("--from-beginning", args.from_beginning),
                                       ("--offset", args.offset is not None),
                                       ("--from-timestamp", args.from_timestamp is not None)) if given]
    if len(starts) > 1:
        _common.usage_error(args, "{0} cannot be used together".format(" and ".join(starts)))
    if args.group is not None and args.partition is not None:
        _common.usage_error(args, "--group and --partition cannot be used together")
    if args.group is not None and args.from_timestamp is not None:
        _common.usage_error(args, "--from-timestamp cannot be used with --group")


# -- formatting --------------------------------------------------------------------------------

def _text_or_base64(data: Optional[bytes], name: str, into: Dict[str, Any]) -> None:
    """Put ``data`` in ``into[name]`` as text, or base64 with ``into[name + '_encoding']``."""
    if data is None:
        into[name] = None
        return
    try:
        into[name] = data.decode("utf-8")
    except UnicodeDecodeError:
        into[name] = base64.b64encode(data).decode("ascii")
        into[name + "_encoding"] = "base64"


def json_record(record: Any) -> Dict[str, Any]:
    """The JSON object printed for ``record`` by ``--format json``."""
    out: Dict[str, Any] = {
        "topic": record.topic,
        "partition": record.partition,
        "offset": record.offset,
        "timestamp": record.timestamp,
        "timestamp_type": TIMESTAMP_TYPES.get(record.timestamp_type, "NoTimestampType"),
    }
    _text_or_base64(record.key, "key", out)
    _text_or_base64(record.value, "value", out)
    headers: List[Dict[str, Any]] = []
    for name, value in record.headers or ():
        entry: Dict[str, Any] = {"key": name}
        _text_or_base64(value, "value", entry)
        headers.append(entry)
    out["headers"] = headers
    return out


def formatter(args: argparse.Namespace) -> Callable[[Any], bytes]:
    """A function turning a record into its output line (with the line ending)."""
    if args.format == "json":
        return lambda r: json.dumps(json_record(r), ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8") + b"\n"
    sep = args.key_separator

    def raw(record: Any) -> bytes:
        value = b"null" if record.value is None else record.value
        if args.print_key:
            return (b"null" if record.key is None else record.key) + sep + value + b"\n"
        return value + b"\n"
    return raw


# -- positioning -------------------------------------------------------------------------------

def _position(consumer: Any, args: argparse.Namespace, partitions: List[TopicPartition]) -> None:
    """Seek the manually assigned ``partitions`` to where the options say."""
    if args.from_timestamp is not None:
        found = consumer.offsets_for_times({tp: args.from_timestamp for tp in partitions},
                                           timeout_ms=args.timeout * 1000)
        missing = [tp for tp in partitions if found.get(tp) is None]
        for tp in partitions:
            if found.get(tp) is not None:
                consumer.seek(tp, found[tp].offset)
        if missing:
            consumer.seek_to_end(*missing)
    elif args.offset == "earliest" or args.from_beginning:
        consumer.seek_to_beginning(*partitions)
    elif args.offset is None or args.offset == "latest":
        consumer.seek_to_end(*partitions)
    else:
        for tp in partitions:
            consumer.seek(tp, args.offset)


def run(args: argparse.Namespace) -> int:
    """Print records until a stop condition; return 0 on a normal or Ctrl-C stop."""
    from kafka.consumer.modern import ModernKafkaConsumer

    _check(args)
    numbers = _common.topic_partitions(args.bootstrap_servers, args.topic, args.timeout)
    if args.partition is not None and args.partition not in numbers:
        raise errors.UnknownTopicOrPartitionError("topic {0!r} has no partition {1} (it has {2})".format(
            args.topic, args.partition, len(numbers)))
    settings: Dict[str, Any] = {
        "bootstrap_servers": split_servers(args.bootstrap_servers),
        "group_id": args.group,
        "auto_offset_reset": "earliest" if args.from_beginning else "latest",
        "enable_auto_commit": False,  # the command commits what it printed, no more
        "isolation_level": args.isolation_level,
        "request_timeout_ms": max(int(args.timeout * 1000), 1000),
    }
    if args.group is not None:
        settings["session_timeout_ms"] = args.session_timeout_ms
        settings["heartbeat_interval_ms"] = max(args.session_timeout_ms // 6, 100)
    printer = _Printer(ModernKafkaConsumer(**settings), args)
    with _common.StopFlag() as stop:
        try:
            if args.group is not None:
                printer.consumer.subscribe([args.topic])
            else:
                chosen = numbers if args.partition is None else [args.partition]
                partitions = [TopicPartition(args.topic, p) for p in chosen]
                printer.consumer.assign(partitions)
                _position(printer.consumer, args, partitions)
            printer.loop(stop)
        except BrokenPipeError:
            printer.gone = True  # the reader left (| head): a normal end
        finally:
            if printer.gone:
                _common.silence_stdout()
            printer.close()
    sys.stderr.write("{0}: {1}\n".format(PROG, _common.records(printer.count)))
    sys.stderr.flush()
    return 0


class _Printer:
    """Polls, prints, and commits (with a group) the offsets of what was printed."""

    def __init__(self, consumer: Any, args: argparse.Namespace) -> None:
        self.consumer = consumer
        self.args = args
        self.count = 0
        self.gone = False  # whether stdout's reader went away
        self.assigned = False  # whether partitions were ever assigned
        self.pending: Dict[TopicPartition, int] = {}
        self.timeout_ms = args.timeout * 1000

    def loop(self, stop: _common.StopFlag) -> None:
        """Print records until ``stop`` is set or a stop condition of the options is met."""
        out = sys.stdout.buffer
        line = formatter(self.args)
        limit = self.args.max_messages
        idle = self.args.timeout_ms / 1000.0 if self.args.timeout_ms is not None else None
        started = last_record = last_commit = time.monotonic()
        reader_gone = _common.ReaderGone(sys.stdout)
        while not stop:
            if reader_gone():
                self.gone = True
                return
            wanted = None if limit is None else limit - self.count
            batches = self.consumer.poll(timeout_ms=_POLL_MS, max_records=wanted)
            now = time.monotonic()
            if batches:
                last_record = now
                for tp, records in batches.items():
                    for record in records[:wanted]:
                        out.write(line(record))
                        self.pending[tp] = record.offset + 1
                        self.count += 1
                    if wanted is not None:
                        wanted = limit - self.count
                out.flush()
            if limit is not None and self.count >= limit:
                return
            if not self.assigned and self.consumer.assignment():
                # Joining a group can take seconds: idle time counts from the assignment.
                self.assigned = True
                last_record = max(last_record, now)
            if idle is not None and now - last_record >= idle and (
                    self.assigned or now - started >= idle + self.args.timeout):
                return
            if now - last_commit >= _COMMIT_INTERVAL:
                self.commit()
                last_commit = now

    def commit(self) -> None:
        """Commit the offsets after the printed records (with a group)."""
        if self.args.group is None or not self.pending:
            return
        self.consumer.commit(dict(self.pending), timeout_ms=self.timeout_ms)
        self.pending.clear()

    def close(self) -> None:
        """Commit what was printed, leave the group and disconnect."""
        try:
            self.commit()
        except errors.KafkaError as exc:
            sys.stderr.write("{0}: warning: could not commit offsets: {1}\n".format(
                PROG, exc.args[0] if exc.args else exc))
        finally:
            # Stopped while still joining: the pending join would hold close() until the
            # coordinator answers (seconds with some brokers), and there is nothing to leave yet.
            limit = self.timeout_ms if self.assigned or self.args.group is None else min(self.timeout_ms, 2000)
            self.consumer.close(autocommit=False, timeout_ms=limit)
