"""The ``kafkawire`` / ``python -m kafka`` command line.

Each subcommand lives in its own module of this package, listed in
:data:`COMMANDS`. A command module provides two functions:

``add_parser(subparsers) -> argparse.ArgumentParser``
    add the subcommand with ``subparsers.add_parser(...)``, declare its
    arguments and return the new parser;
``run(args) -> int``
    do the work and return the process exit code.

Modules are imported only when the command line is built, so adding a command
is one line in :data:`COMMANDS`. Errors derived from
:class:`kafka.errors.KafkaError` that escape ``run`` are reported as one line
on stderr with exit code 1, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, NoReturn, Optional, Sequence

from kafka.errors import KafkaError

#: Names of the command modules in this package, in the order ``--help`` lists them.
COMMANDS: List[str] = [
    "broker",
    "demo",
    "topics",
    "groups",
    "produce",
    "consume",
    "perf",
]

PROG = "kafkawire"


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are a single line on stderr."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, "{0}: error: {1} (see --help)\n".format(self.prog, message))


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every command of :data:`COMMANDS` added."""
    from kafka import __version__

    parser = ArgumentParser(prog=PROG, description="kafkawire: a pure-Python Kafka client.")
    parser.add_argument("--version", action="version",
                        version="{0} {1}".format(PROG, __version__))
    subparsers = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND",
                                       parser_class=ArgumentParser)
    for name in COMMANDS:
        module = importlib.import_module("{0}.{1}".format(__name__, name))
        command_parser = module.add_parser(subparsers)
        command_parser.set_defaults(_run=module.run)
    return parser


def report_error(prog: str, message: str) -> None:
    """Print ``message`` as a single ``prog: error: ...`` line on stderr."""
    first_line = str(message).strip().splitlines()[0] if str(message).strip() else "failed"
    sys.stderr.write("{0}: error: {1}\n".format(prog, first_line))
    sys.stderr.flush()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    prog = "{0} {1}".format(PROG, args.command)
    try:
        return int(run(args) or 0)
    except KafkaError as exc:
        report_error(prog, exc.args[0] if exc.args else str(exc))
        return 1
    except KeyboardInterrupt:
        return 130
