"""Dates as records write them (`2024-01-02`, `05/02/2018`, `2nd March 2020`), read as ISO
8601: what every machine-readable surface gives, the text as written beside it."""

from __future__ import annotations

import datetime as dt
import re

_DATE_FORMATS = (
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%d/%m/%Y",
    "%d/%m/%y",
    "%d.%m.%Y",
    "%d %B %Y",
    "%d %b %Y",
    "%B %d, %Y",
    "%b %d, %Y",
    "%B %d %Y",
)
# A month alone is a month: ISO 8601's reduced precision (`2021-03`), not its first day.
_MONTH_FORMATS = ("%Y-%m", "%B %Y", "%b %Y")


def iso_date(text: str | None) -> str | None:
    """A date as written in a record, as ISO 8601 (`YYYY-MM-DD`), or None when it cannot be
    read. Slashed dates are read day first (`05/02/2018` is 5 February), unless the second
    number cannot be a month (`04/23/2019`)."""
    if not text:
        return None
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.strip().strip("*_ "))
    for fmt in _DATE_FORMATS + ("%m/%d/%Y", "%m/%d/%y"):
        try:
            return dt.datetime.strptime(cleaned, fmt).date().isoformat()
        except ValueError:
            continue
    for fmt in _MONTH_FORMATS:
        try:
            return dt.datetime.strptime(cleaned, fmt).strftime("%Y-%m")
        except ValueError:
            continue
    return None


def iso_moment(timestamp: int | None) -> str | None:
    """A commit's time (Unix seconds) as ISO 8601 in UTC, `2026-12-03T18:32:00Z`; None for none."""
    if not timestamp:
        return None
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
