"""Dates as records write them, read as ISO 8601; commit times as ISO 8601 in UTC."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.records import iso_date, iso_moment


def test_a_written_date_reads_as_iso_day_first_unless_it_cannot_be():
    written = [
        "05/02/2018",
        "10/04/18",
        "2020-03-03",
        "04/23/2019",
        "2nd March 2020",
        "March 2, 2020",
        "soon",
        "",
        "March 2021",
        "2021-03",
    ]
    assert [iso_date(t) for t in written] == [
        "2018-02-05",
        "2018-04-10",
        "2020-03-03",
        "2019-04-23",
        "2020-03-02",
        "2020-03-02",
        None,
        None,
        "2021-03",
        "2021-03",
    ]


def test_a_commit_time_is_iso_in_utc():
    assert iso_moment(1796352556) == "2026-12-04T02:49:16Z"
    assert iso_moment(0) is None and iso_moment(None) is None


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("2024/01/02", "2024-01-02"),
        ("02.03.2024", "2024-03-02"),  # dotted, day first
        ("3 Feb 2024", "2024-02-03"),
        ("3 February 2024", "2024-02-03"),
        ("February 3, 2024", "2024-02-03"),
        ("Feb 3, 2024", "2024-02-03"),
        ("February 3 2024", "2024-02-03"),
        ("1st January 2021", "2021-01-01"),
        ("22nd Feb 2021", "2021-02-22"),
        ("23rd March 2021", "2021-03-23"),
        ("Jan 2nd, 2020", "2020-01-02"),
        ("**2024-01-02**", "2024-01-02"),  # emphasis around it
        ("_2024-01-02_", "2024-01-02"),
        (" 2024-01-02 ", "2024-01-02"),
        ("2024-1-2", "2024-01-02"),
        ("1/2/2020", "2020-02-01"),  # day first
        ("31/12/99", "1999-12-31"),
        ("12/31/99", "1999-12-31"),  # the second number is no month: month first
        ("Feb 2021", "2021-02"),  # a month alone stays a month
        ("2021-3", "2021-03"),
        ("2024-02-30", None),  # no such day
        ("13/13/2020", None),
        ("2024-01-02T10:00", None),
        ("TBD", None),
        (None, None),
    ],
)
def test_more_written_dates(written, iso):
    assert iso_date(written) == iso


@given(st.dates(min_value=dt.date(1970, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_any_day_written_the_usual_ways_reads_as_itself(day):
    iso = day.isoformat()
    for written in (iso, day.strftime("%d/%m/%Y"), day.strftime("%d %B %Y"), day.strftime("%B %d, %Y")):
        assert iso_date(written) == iso, written


@pytest.mark.parametrize(
    ("seconds", "moment"),
    [(1, "1970-01-01T00:00:01Z"), (86400, "1970-01-02T00:00:00Z"), (-1, "1969-12-31T23:59:59Z")],
)
def test_more_commit_times(seconds, moment):
    assert iso_moment(seconds) == moment
