"""kafkawire logs and never writes to stderr itself, whatever the application's logging setup.

Python shows WARNING and ERROR records on stderr when no handler takes them
(its "last resort" handler); a library adds a ``NullHandler`` to its
top-level logger so that only the application decides where records go.
"""

from __future__ import annotations

import subprocess
import sys


def test_a_warning_of_the_library_does_not_reach_stderr_without_logging_configured():
    program = ("import logging, kafka\n"
               "logging.getLogger('kafka.client.network').error('node 1 cannot serve this client')\n"
               "logging.getLogger('kafka.consumer.group').warning('no committed offset')\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_application_still_sees_the_records_once_it_configures_logging():
    program = ("import logging, kafka\n"
               "logging.basicConfig(level=logging.WARNING)\n"
               "logging.getLogger('kafka.client.network').error('node 1 cannot serve this client')\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert "node 1 cannot serve this client" in done.stderr
