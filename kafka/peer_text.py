"""Text a peer sent, shortened before it goes into an exception or a log line.

Brokers choose the length of their error messages and host names. Put into
every exception and every reconnect log line as they are, a megabyte-long
host name becomes megabytes of log per second. :func:`shorten` keeps the
start of such text, enough to recognise it, and says how long it was.
"""

from __future__ import annotations

from typing import Any

#: How many characters of a peer's text are kept.
LIMIT = 200
#: Characters over the limit that are still kept (room for the "... (N characters)" note).
SLACK = 32


def shorten(text: Any, limit: int = LIMIT) -> str:
    """``text`` as a string of at most about ``limit`` characters.

    Longer text keeps its first ``limit`` characters followed by an
    ellipsis and the original length; ``None`` becomes ``""``; bytes are
    shown with their ``repr``; other values with ``str``. Text that is at
    most :data:`SLACK` characters over the limit is kept whole, so shortened
    text passes through again unchanged.
    """
    if text is None:
        return ""
    if not isinstance(text, str):
        text = repr(text) if isinstance(text, (bytes, bytearray)) else str(text)
    if len(text) <= limit + SLACK:
        return text
    return "%s... (%d characters)" % (text[:limit], len(text))
