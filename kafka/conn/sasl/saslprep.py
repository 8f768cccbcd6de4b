"""SASLprep (RFC 4013): the stringprep profile for user names and passwords.

Built on the standard library's :mod:`stringprep` tables (RFC 3454, Unicode
3.2), so the mapping, normalization, prohibited characters and bidi rules are
those of the RFC, not an approximation.
"""

from __future__ import annotations

import stringprep
import unicodedata

# stringprep is defined over Unicode 3.2; normalizing with the current
# database could give different results for characters changed since.
_ucd_3_2 = unicodedata.ucd_3_2_0

_PROHIBITED = (
    (stringprep.in_table_c12, "non-ASCII space"),
    (stringprep.in_table_c21_c22, "control character"),
    (stringprep.in_table_c3, "private use character"),
    (stringprep.in_table_c4, "non-character code point"),
    (stringprep.in_table_c5, "surrogate code point"),
    (stringprep.in_table_c6, "character inappropriate for plain text"),
    (stringprep.in_table_c7, "character inappropriate for canonical representation"),
    (stringprep.in_table_c8, "character that changes display properties or is deprecated"),
    (stringprep.in_table_c9, "tagging character"),
)


class SaslPrepError(ValueError):
    """A string is not allowed by SASLprep.

    ``reason`` says why and ``position`` is the offending index in the
    prepared string (``-1`` for a whole-string rule). The message does not
    quote the string, so that it is safe for passwords.
    """

    def __init__(self, reason: str, position: int = -1) -> None:
        self.reason = reason
        self.position = position
        if position >= 0:
            super().__init__("{0} at position {1}".format(reason, position))
        else:
            super().__init__(reason)


def saslprep(text: str, *, allow_unassigned: bool = True) -> str:
    """Prepare ``text`` with the SASLprep profile of stringprep.

    Steps (RFC 4013 section 2, RFC 3454):

    1. map non-ASCII spaces (table C.1.2) to U+0020 and remove characters
       commonly mapped to nothing (table B.1, e.g. the soft hyphen);
    2. normalize with NFKC (Unicode 3.2);
    3. reject prohibited characters (tables C.1.2, C.2.1, C.2.2, C.3 to C.9);
    4. apply the bidirectional rules: a string with right-to-left characters
       (D.1) must not contain left-to-right ones (D.2) and must begin and end
       with a right-to-left character;
    5. unless ``allow_unassigned`` (a "query" string, the default, as SCRAM
       requires), reject code points unassigned in Unicode 3.2 (table A.1).

    :raises SaslPrepError: when a rule rejects the string.
    """
    mapped = "".join(" " if stringprep.in_table_c12(ch) else ch
                     for ch in text if not stringprep.in_table_b1(ch))
    prepared = _ucd_3_2.normalize("NFKC", mapped)
    if not prepared:
        return prepared
    for index, ch in enumerate(prepared):
        for in_table, reason in _PROHIBITED:
            if in_table(ch):
                raise SaslPrepError("prohibited " + reason, index)
        if not allow_unassigned and stringprep.in_table_a1(ch):
            raise SaslPrepError("unassigned code point", index)
    right_to_left = [stringprep.in_table_d1(ch) for ch in prepared]
    if any(right_to_left):
        if any(stringprep.in_table_d2(ch) for ch in prepared):
            raise SaslPrepError("mixes right-to-left and left-to-right characters")
        if not (right_to_left[0] and right_to_left[-1]):
            raise SaslPrepError("right-to-left text must begin and end with a right-to-left character")
    return prepared
