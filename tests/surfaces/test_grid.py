"""Tables at any terminal width: an id is never cut, no column is dropped (a narrow terminal
stacks each row, grid.py), and no line is wider than the terminal."""

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


def _words(lines):
    return {word for line in lines for word in line.split()}


@pytest.mark.parametrize("width", WIDTHS)
def test_list_keeps_ids_whole_and_drops_no_column(folder, capsys, width):
    """At 50 columns Version and Stale left without a sign; now a narrow list stacks each row."""
    lines = _lines(capsys, width, "list")
    assert all(len(line) <= width for line in lines)
    text = " ".join(lines)
    for n, title in enumerate(TITLES, 1):
        assert f"ADR-{n:04d}" in _words(lines)
        assert " ".join(title.split()) in " ".join(text.split()) or all(w in _words(lines) for w in title.split())
    listed = run(capsys, "list", "--json").json
    for record in listed:  # every column's value is shown, at every width
        assert record["version_id"] in _words(lines) and record["status"] in _words(lines)
    assert text.count("stale") >= 3 or "Stale" in _words(lines)
    if width >= 80:
        assert {"Status", "Version", "Stale"} <= set(lines[0].split())  # a table, as the README's tour shows


@pytest.mark.parametrize("width", WIDTHS)
def test_stale_keeps_ids_whole_and_every_reason(folder, capsys, width):
    lines = _lines(capsys, width, "stale")
    assert all(len(line) <= width for line in lines)
    ids = [word for line in lines for word in line.split() if word.startswith("ADR-")]
    assert ids == ["ADR-0001", "ADR-0002", "ADR-0003"]
    assert sum("governed file" in line for line in lines) == 3  # the reason, at every width


@pytest.mark.parametrize("width", WIDTHS)
def test_the_timeline_and_a_log_keep_ids_and_every_column(folder, capsys, width):
    lines = _lines(capsys, width, "log")
    assert all(len(line) <= width for line in lines)
    ids = {word for line in lines for word in line.split() if word.startswith("ADR-")}
    assert ids == {"ADR-0001", "ADR-0002", "ADR-0003"}
    if width >= 80:
        assert {"Date", "Commit", "Author"} <= set(lines[0].split())
    log = _lines(capsys, width, "log", "2")
    assert all(len(line) <= width for line in log)
    assert "accepted" in _words(log) and "three" in _words(log)  # Status and Message never leave


@pytest.mark.parametrize("width", (50, 80))
def test_a_long_id_is_never_cut(repo, capsys, width):
    """log4brains ids (`20210601-use-markdown-adrs`) were cut with an ellipsis even at 80 columns."""
    names = ("20210601-use-markdown-adrs", "20210715-adopt-kubernetes-for-every-service")
    commit(repo, {f"docs/adr/{n}.md": adr_text(n.split("-", 1)[1]) for n in names})
    lines = _lines(capsys, width, "list")
    assert set(names) <= _words(lines) and not any("…" in line for line in lines)


def test_rows_stack_where_the_columns_leave_the_folding_one_too_little(monkeypatch, capsys):
    from rich.text import Text

    from adr_memory.surfaces import grid

    rows = [{"ID": "20210715-adopt-kubernetes", "Status": Text("accepted"), "Title": "Adopt it", "Stale": "no"}]
    monkeypatch.setattr(render.out, "width", 120)
    grid.show(rows, fold="Title")
    table = capsys.readouterr().out.splitlines()
    assert table[1].split() == ["ID", "Status", "Title", "Stale"]
    monkeypatch.setattr(render.out, "width", 40)
    grid.show(rows, fold="Title")
    assert [line.rstrip() for line in capsys.readouterr().out.splitlines()] == [
        "20210715-adopt-kubernetes  accepted",
        "  Title  Adopt it",
        "  Stale  no",
    ]
