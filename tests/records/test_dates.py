"""Dates as records write them, read as ISO 8601; commit times as ISO 8601 in UTC."""

from __future__ import annotations

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
