"""Which result form a kafka-python-named admin method returns.

The methods that share a name with kafka-python 3 return kafka-python's
shapes (plain dicts and lists). kafkawire's own form (``{resource: result}``
with typed values, failures raised together in an
:class:`~kafka.admin.AdminResultError`) is chosen by passing kafkawire's
``raise_error`` keyword, which kafka-python does not have.
"""

from __future__ import annotations

from typing import Optional

from kafka import errors


def kafkawire_form(raise_error: Optional[bool], raise_errors: Optional[bool] = None) -> bool:
    """True when the caller asked for kafkawire's form (it passed ``raise_error``)."""
    if raise_error is not None and raise_errors is not None:
        raise errors.IllegalArgumentError("pass raise_errors (kafka-python's result form) or raise_error "
                                          "(kafkawire's form), not both")
    return raise_error is not None


__all__ = ["kafkawire_form"]
