"""Partial ISO dates as intervals, so facts recorded at different precisions compare honestly.

A fact table records ``1950`` for one death and ``1986-06-29`` for an event; "died before the
event" is certain only when the whole death interval ends before the whole event interval starts.
:func:`interval` turns ``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD`` (optionally prefixed ``c.`` /
``circa``, which widens the year by two on each side, our choice) into ``(first day, last day)``.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from forgebench.errors import UserError

_DATE = re.compile(
    r"^(?P<c>c\.?\s*|circa\s+|ca\.?\s*)?(?P<y>-?\d{1,4})(?:-(?P<m>\d{2})(?:-(?P<d>\d{2}))?)?$"
)

CIRCA_YEARS = 2
"""How many years either side a ``c. YYYY`` date spans (the seeds do not say; ours)."""


class DateError(UserError, ValueError):
    """A date string that is not ``[c. ]YYYY[-MM[-DD]]``."""


def interval(text: str) -> tuple[date, date]:
    """The first and last day a partial date can denote; :class:`DateError` when unparseable."""
    m = _DATE.match(text.strip().lower())
    if not m:
        raise DateError(f"not a date (YYYY, YYYY-MM or YYYY-MM-DD): {text!r}")
    y = int(m["y"])
    if not 1 <= y <= 9999:
        raise DateError(f"year out of range: {text!r}")
    try:
        if m["d"]:
            d = date(y, int(m["m"]), int(m["d"]))
            lo, hi = d, d
        elif m["m"]:
            mo = int(m["m"])
            lo, hi = date(y, mo, 1), date(y, mo, calendar.monthrange(y, mo)[1])
        else:
            lo, hi = date(y, 1, 1), date(y, 12, 31)
    except ValueError as exc:
        raise DateError(f"not a calendar date: {text!r} ({exc})") from None
    if m["c"]:
        lo = date(max(1, lo.year - CIRCA_YEARS), 1, 1)
        hi = date(min(9999, hi.year + CIRCA_YEARS), 12, 31)
    return lo, hi


def surely_before(a: str, b: str) -> bool:
    """True when every day ``a`` can denote lies before every day ``b`` can denote."""
    return interval(a)[1] < interval(b)[0]


def year_of(text: str) -> str:
    """The year as written (``1950`` from ``1950-01-21``), for contradiction sentences."""
    m = _DATE.match(text.strip().lower())
    if not m:
        raise DateError(f"not a date (YYYY, YYYY-MM or YYYY-MM-DD): {text!r}")
    return ("c. " if m["c"] else "") + m["y"]
