"""``kafkawire produce TOPIC``: send lines (or whole files) as records.

Reads standard input, or the ``--file`` arguments in order (``-`` is
standard input), one record per line with the line ending removed; with
``--value-per-file`` each file's whole content is one record. With
``--key-separator SEP`` every line is ``KEY<SEP>VALUE`` (split at the first
separator); a line without it stops the command with an error, as Kafka's
console producer does. Prints a one-line summary on stderr and exits 1 if
any record could not be delivered.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, BinaryIO, Iterator, List, Optional, Tuple

from kafka import errors
from kafka.cli import _common
from kafka.cli.options import add_bootstrap_option, add_timeout_option, command_description

PROG = "kafkawire produce"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``produce`` command."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "produce", help="send lines from stdin or files to a topic",
        description=command_description(__doc__) if __doc__ else None)
    parser.add_argument("topic", metavar="TOPIC", help="topic to write to (must exist)")
    add_bootstrap_option(parser)
    parser.add_argument("--file", "-f", dest="files", action="append", metavar="PATH",
                        help="read records from PATH instead of stdin ('-' is stdin); repeatable")
    parser.add_argument("--value-per-file", action="store_true",
                        help="send each file's whole content as one record instead of one record per line")
    parser.add_argument("--key-separator", type=_common.separator, metavar="SEP",
                        help="lines are KEY<SEP>VALUE ('\\t' means a tab); a line without SEP is an error")
    parser.add_argument("--header", dest="headers", type=_common.header, action="append", default=[],
                        metavar="KEY=VALUE", help="add this header to every record; repeatable")
    parser.add_argument("--partition", type=_common.non_negative_int, metavar="P",
                        help="write every record to partition P (default: by key, or sticky when keyless)")
    _common.add_producer_options(parser)
    add_timeout_option(parser)
    parser.set_defaults(_parser=parser)
    return parser


class LineFormatError(errors.KafkaError):
    """A line of the input has no key separator."""


def _strip_eol(line: bytes) -> bytes:
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


def _open_sources(paths: Optional[List[str]]) -> Iterator[Tuple[str, BinaryIO]]:
    """(name, binary stream) for each input, opened one at a time."""
    for path in paths or ["-"]:
        if path == "-":
            yield "<stdin>", sys.stdin.buffer
            continue
        try:
            stream = open(path, "rb")
        except OSError as exc:
            raise errors.KafkaError("cannot read {0}: {1}".format(path, exc.strerror or exc)) from None
        with stream:
            yield path, stream


def _records(args: argparse.Namespace) -> Iterator[Tuple[Optional[bytes], bytes]]:
    """(key, value) pairs from the inputs, in order."""
    sep = args.key_separator
    for name, stream in _open_sources(args.files):
        if args.value_per_file:
            yield None, stream.read()
            continue
        for number, raw in enumerate(stream, 1):
            line = _strip_eol(raw)
            if sep is None:
                yield None, line
                continue
            key, found, value = line.partition(sep)
            if not found:
                raise LineFormatError("line {0} of {1} has no key separator {2!r}".format(
                    number, name, sep.decode("utf-8", "replace")))
            yield key, value


class _Tally:
    """Counts deliveries and failures (callbacks run on the producer's thread)."""

    def __init__(self) -> None:
        self.delivered = 0
        self.failed = 0
        self.first_error: Optional[BaseException] = None

    def ok(self, metadata: Any) -> None:
        self.delivered += 1

    def error(self, exc: BaseException) -> None:
        self.failed += 1
        if self.first_error is None:
            self.first_error = exc


def run(args: argparse.Namespace) -> int:
    """Send the records; return 0 when every one was delivered."""
    from kafka.producer import KafkaProducer

    if args.value_per_file and args.key_separator is not None:
        _common.usage_error(args, "--key-separator does not apply to --value-per-file")
    partitions = _common.topic_partitions(args.bootstrap_servers, args.topic, args.timeout)
    if args.partition is not None and args.partition not in partitions:
        raise errors.UnknownTopicOrPartitionError("topic {0!r} has no partition {1} (it has {2})".format(
            args.topic, args.partition, len(partitions)))
    producer = KafkaProducer(**_common.producer_settings(args))
    tally = _Tally()
    sent = 0
    size = 0
    started = time.monotonic()
    problem: Optional[errors.KafkaError] = None
    headers = args.headers or None
    try:
        for key, value in _records(args):
            future = producer.send(args.topic, value=value, key=key, headers=headers, partition=args.partition)
            future.add_callback(tally.ok)
            future.add_errback(tally.error)
            sent += 1
            size += len(value) + (len(key) if key is not None else 0)
    except errors.KafkaError as exc:
        problem = exc  # reported once what was already sent is delivered
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the input like Ctrl-D: deliver what was sent
    finally:
        close_timeout: Optional[float] = None
        try:
            producer.flush()
        except KeyboardInterrupt:
            close_timeout = 0  # a second Ctrl-C: stop waiting; what is left fails
        finally:
            producer.close(timeout=close_timeout)
    elapsed = time.monotonic() - started
    if problem is not None:
        raise type(problem)("{0} ({1} sent before it)".format(
            problem.args[0] if problem.args else problem, _common.records(sent)))
    if tally.failed:
        first = tally.first_error
        raise errors.KafkaError("{0} of {1} failed: {2}".format(
            tally.failed, _common.records(sent), first.args[0] if first is not None and first.args else first))
    sys.stderr.write("{0}: {1} ({2} bytes) delivered in {3:.2f} s\n".format(
        PROG, _common.records(tally.delivered), size, elapsed))
    sys.stderr.flush()
    return 0
