"""Command-line options shared by the client commands (topics, groups, produce...).

Every command that talks to a cluster declares its connection options through
these helpers so the spelling, defaults and help text stay identical across
commands, following Kafka's console tools (``--bootstrap-server``).
"""

from __future__ import annotations

import argparse
import os
from typing import Any, List

#: Environment variable that supplies the default bootstrap servers.
BOOTSTRAP_ENV = "KAFKAWIRE_BOOTSTRAP_SERVERS"
#: Bootstrap servers used when neither the option nor the environment gives any.
DEFAULT_BOOTSTRAP = "localhost:9092"
#: Default for ``--timeout``, in seconds.
DEFAULT_TIMEOUT = 10.0


def default_bootstrap_servers() -> str:
    """Return ``$KAFKAWIRE_BOOTSTRAP_SERVERS`` or ``localhost:9092``."""
    return os.environ.get(BOOTSTRAP_ENV) or DEFAULT_BOOTSTRAP


def split_servers(text: str) -> List[str]:
    """Split a comma-separated ``host:port`` list, dropping blanks."""
    return [part.strip() for part in text.split(",") if part.strip()]


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number of seconds: {0!r}".format(text)) from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be greater than 0, got {0}".format(text))
    return value


def add_bootstrap_option(parser: Any) -> None:
    """Add ``--bootstrap-server`` (alias ``--bootstrap-servers``) to ``parser``.

    The value lands in ``args.bootstrap_servers`` as the raw comma-separated
    string; pass it through :func:`split_servers` to get a list.
    """
    parser.add_argument(
        "--bootstrap-server", "--bootstrap-servers", dest="bootstrap_servers",
        metavar="HOST:PORT[,HOST:PORT...]", default=default_bootstrap_servers(),
        help="broker(s) to connect to first (default: ${0} or {1})".format(
            BOOTSTRAP_ENV, DEFAULT_BOOTSTRAP))


def add_timeout_option(parser: Any, default: float = DEFAULT_TIMEOUT) -> None:
    """Add ``--timeout SECONDS`` (dest ``timeout``, a float > 0) to ``parser``."""
    parser.add_argument(
        "--timeout", dest="timeout", type=_positive_seconds, default=default,
        metavar="SECONDS",
        help="give up on the cluster after this many seconds (default: {0:g})".format(default))


def add_connection_options(parser: Any) -> None:
    """Add ``--bootstrap-server`` and ``--timeout`` to ``parser`` (what every cluster command takes)."""
    add_bootstrap_option(parser)
    add_timeout_option(parser)


def command_description(doc: str) -> str:
    """The second paragraph of a command module's docstring, as plain text for ``--help``."""
    paragraphs = doc.split("\n\n")
    return paragraphs[1].replace("``", "") if len(paragraphs) > 1 else paragraphs[0]
