"""History for people and machines, through the commands that show it: the timeline, a
record's log with its status changes, the staleness table and what it says when nothing is
stale, and `why` for a path."""

from __future__ import annotations

import json
import re

from tests.helpers import adr_text, commit, run

A = "docs/adr/0001-use-postgres.md"


def _decide(repo, capsys, governs=("src/db/**",)):
    commit(repo, {A: adr_text("Use Postgres", status="proposed", governs=list(governs)), "src/db/a.py": "1"}, "p")
    run(capsys, "accept", "1", "--reason", "load tests passed")
    commit(repo, {}, "accept")


def test_an_empty_history_has_no_events_and_the_timeline_lists_them_newest_first(repo, capsys):
    commit(repo, {"README": "x"}, "nothing yet")
    (repo / "docs/adr").mkdir(parents=True)
    assert "No decision events in this history." in run(capsys, "log").out
    _decide(repo, capsys)
    rows = [line for line in run(capsys, "log").out.splitlines() if "ADR-0001" in line]
    assert "status" in rows[0] and "proposed → accepted: load tests passed" in rows[0]
    assert "new" in rows[1]
    (event, *_rest) = json.loads(run(capsys, "log", "--json").out)["events"]
    assert set(event) == {"commit", "date", "author", "written_in", "id", "title", "kind", "detail"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", event["date"])  # a commit's time, in UTC


def test_a_record_s_log_shows_each_version_and_the_status_change_under_it(repo, capsys):
    _decide(repo, capsys)
    (version,) = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    (change,) = version["transitions"]
    assert (change["from"], change["to"], change["reason"]) == ("proposed", "accepted", "load tests passed")
    lines = run(capsys, "log", "1").out.splitlines()
    assert lines[0] == "ADR-0001: Use Postgres"
    # the change's row, its status wrapping in its column ("proposed →", then "accepted")
    at = next(i for i, line in enumerate(lines) if "↳" in line)
    row = " ".join(" ".join(lines[at : at + 3]).split())
    assert "proposed →" in row and "accepted" in row and "load tests" in row


def test_the_staleness_table_says_what_changed_and_what_nothing_stale_means(repo, capsys):
    _decide(repo, capsys, governs=())
    assert "Nothing to check: none of the 1 accepted decision(s) governs code" in run(capsys, "stale").out
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"])}, "govern")
    assert "Nothing stale: 1 accepted decision(s) still match their code." in run(capsys, "stale").out
    commit(repo, {"src/db/a.py": "2"}, "code")
    (row,) = [line for line in run(capsys, "stale", code=None).out.splitlines() if "ADR-0001" in line]
    assert "stale" in row and "src/db/a.py" in row


def test_why_names_the_decisions_that_govern_a_path_and_says_when_none_does(repo, capsys, tmp_path):
    _decide(repo, capsys)
    out = run(capsys, "why", "src/db/a.py", "README", str(tmp_path)).out
    assert "src/db/a.py\n  ADR-0001 Use Postgres  [accepted, fresh]" in out
    assert "README\n  no decision governs this path" in out
    assert "outside the repository: no decision governs it" in out
