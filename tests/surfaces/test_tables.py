"""Tables at any terminal width: ids never wrap, every row stays one line in `adr list`, the
title takes the room left and is cut with an ellipsis, secondary columns leave first, and no
line is wider than the terminal."""

from __future__ import annotations

import pytest

from adr_memory.surfaces import render
from tests.helpers import adr_text, commit, run

WIDTHS = (50, 60, 70, 80, 120)
TITLES = [
    "Record architecture decisions",
    "Use PostgreSQL for the primary store of orders and their payments",
    "Queue background jobs with Redis streams",
]


@pytest.fixture
def folder(repo):
    files = {f"docs/adr/{n:04d}-x.md": adr_text(t, governs=["src/**"]) for n, t in enumerate(TITLES, 1)}
    commit(repo, {**files, "src/a.py": "1"}, "three")
    commit(repo, {"src/a.py": "2"}, "the code changes")
    return repo


def _lines(capsys, width, *args):
    render.out.width = width
    try:
        return [line for line in run(capsys, *args).out.splitlines() if line.strip()]
    finally:
        render.out.width = 200


@pytest.mark.parametrize("width", WIDTHS)
def test_list_keeps_ids_whole_and_each_record_on_one_line(folder, capsys, width):
    lines = _lines(capsys, width, "list")
    rows = [line for line in lines if "ADR-" in line]
    assert len(rows) == 3 and all(len(line) <= width for line in lines)
    for n, (row, title) in enumerate(zip(rows, TITLES), 1):
        assert f"ADR-{n:04d}" in row.split()
        shown = row.split(f"ADR-{n:04d}", 1)[1]
        assert title in shown or (title[:12] in shown and "…" in shown), row
    header = lines[0].split()
    assert "Status" in header  # never dropped: a superseded decision must not read as in force
    if width >= 80:
        assert {"Version", "Stale"} <= set(header)  # what the README's tour promises
    if width >= 120:
        assert "Date" in header
    if width <= 60:
        assert "Version" not in header  # a secondary column gave its room to the title


@pytest.mark.parametrize("width", WIDTHS)
def test_stale_keeps_ids_whole_and_gives_the_reason_room_from_80(folder, capsys, width):
    lines = _lines(capsys, width, "stale")
    assert all(len(line) <= width for line in lines)
    ids = [word for line in lines for word in line.split() if word.startswith("ADR-")]
    assert ids == ["ADR-0001", "ADR-0002", "ADR-0003"]
    if width >= 80:
        assert "Reason" in lines[0]
        assert any("governed file" in line for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_timeline_keeps_ids_whole(folder, capsys, width):
    lines = _lines(capsys, width, "log")
    assert all(len(line) <= width for line in lines)
    ids = {word for line in lines for word in line.split() if word.startswith("ADR-")}
    assert ids == {"ADR-0001", "ADR-0002", "ADR-0003"}
    if width >= 80:
        assert {"Date", "Commit", "Author"} <= set(lines[0].split())
