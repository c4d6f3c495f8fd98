"""Anchors and events: the commit that last affirmed a decision is the newest that changed its
content, its status or its review (not a link, not a revert of a review), and the timeline says
what each commit did to each record."""

from __future__ import annotations

from adr_memory.history import walk
from adr_memory.history.anchors import Anchors, events, first_recorded
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git, run

A = "docs/adr/0001-use-postgres.md"
B = "docs/adr/0002-use-redis.md"


def _anchor(repo, path=A) -> str:
    ws = Workspace.discover(repo)
    history = walk.walk(ws)
    touch = Anchors(ws.repo).of(ws.catalog.get(path), history)
    assert touch is not None
    return touch.commit.sha


def _text(repo, path=A) -> str:
    return (repo / path).read_text()


def test_content_and_status_move_the_anchor_and_a_link_or_other_metadata_does_not(repo, capsys):
    created = commit(repo, {A: adr_text("Use Postgres", status="proposed"), B: adr_text("Use Redis")}, "two")
    assert _anchor(repo) == created
    accepted = commit(repo, {A: _text(repo).replace("status: proposed", "status: accepted")}, "accept")
    assert _anchor(repo) == accepted
    run(capsys, "link", "1", "relates-to", "2")
    commit(repo, {}, "link")
    commit(repo, {A: _text(repo).replace("title: Use Postgres", "title: Use Postgres\ntags: [db]")}, "tag")
    assert _anchor(repo) == accepted
    edited = commit(repo, {A: _text(repo).replace("We decided.", "We decided on Postgres 16.")}, "reword")
    assert _anchor(repo) == edited


def test_an_affirmation_moves_the_anchor_and_its_revert_puts_the_older_one_back(repo, capsys):
    created = commit(repo, {A: adr_text("Use Postgres")}, "one")
    commit(repo, {"src/db.py": "x"}, "code")
    run(capsys, "affirm", "1", "--note", "still holds")
    first = commit(repo, {}, "affirm")
    assert _anchor(repo) == first
    commit(repo, {"src/db.py": "y"}, "more code")
    run(capsys, "affirm", "1", "--note", "holds again")
    assert commit(repo, {}, "affirm again") == _anchor(repo)
    git(repo, "revert", "--no-edit", "HEAD")
    assert _anchor(repo) == first  # the review back in force anchors where it was first committed
    git(repo, "revert", "--no-edit", first)
    assert _anchor(repo) == created  # no review left: the decision as written anchors


def test_events_say_what_each_commit_did_newest_first(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres", status="proposed")}, "propose")
    commit(repo, {A: _text(repo).replace("status: proposed", "status: accepted")}, "accept")
    run(capsys, "affirm", "1", "--note", "checked")
    commit(repo, {}, "affirm")
    commit(repo, {A: _text(repo) + "\nMore words.\n"}, "reword")
    ws = Workspace.discover(repo)
    said = [(e.kind, e.detail) for e in events(ws, walk.walk(ws))]
    assert said == [("version", ""), ("affirm", "checked"), ("status", "proposed → accepted"), ("new", "proposed")]


def test_a_decision_is_first_recorded_on_its_date_else_its_first_commit_s(repo, monkeypatch):
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2024-05-06T10:00:00Z")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2024-05-06T10:00:00Z")
    commit(repo, {A: adr_text("Use Postgres"), B: adr_text("Use Redis", extra="date: 2020-01-02")}, "both")
    ws = Workspace.discover(repo)
    history = walk.walk(ws)
    assert first_recorded(ws.catalog.get(A), history) == "2024-05-06"
    assert first_recorded(ws.catalog.get(B), history) == "2020-01-02"


def test_a_review_removed_or_put_back_is_said_so_and_moves_no_anchor(repo, capsys):
    created = commit(repo, {A: adr_text("Use Postgres")}, "one")
    run(capsys, "affirm", "1", "--note", "still holds")
    first = commit(repo, {}, "affirm")
    run(capsys, "affirm", "1", "--note", "holds again")
    commit(repo, {}, "affirm again")
    git(repo, "revert", "--no-edit", "HEAD")
    put_back = git(repo, "rev-parse", "HEAD")
    commit(repo, {A: adr_text("Use Postgres")}, "drop the review")
    ws = Workspace.discover(repo)
    said = [(e.commit, e.kind, e.detail) for e in events(ws, walk.walk(ws))]
    assert said[:2] == [
        (git(repo, "rev-parse", "HEAD"), "unaffirm", "review removed"),
        (put_back, "unaffirm", "back to an earlier review: still holds"),
    ]
    assert [kind for _c, kind, _d in said[2:]] == ["affirm", "affirm", "new"]
    assert said[-2][0] == first and said[-1][0] == created
    assert _anchor(repo) == created  # nothing in force was reviewed since the record was written


def test_events_on_a_merged_branch_credit_whoever_made_each_change(repo, capsys, monkeypatch):
    commit(repo, {A: adr_text("Use Postgres", status="proposed")}, "propose")
    git(repo, "checkout", "-q", "-b", "review")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob Builder")
    accepted = commit(repo, {A: _text(repo).replace("status: proposed", "status: accepted")}, "accept on a branch")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Dan Reviewer")
    reworded = commit(repo, {A: _text(repo).replace("We decided.", "We decided on 16.")}, "reword on a branch")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Carol Merger")
    commit(repo, {"src/a.py": "a"}, "main moves on")
    git(repo, "merge", "-q", "--no-ff", "review", "-m", "Merge the review")
    merge = git(repo, "rev-parse", "HEAD")
    ws = Workspace.discover(repo)
    said = [(e.commit, e.kind, e.author.split(" <")[0], e.written_in) for e in events(ws, walk.walk(ws))]
    assert said[:2] == [
        (merge, "version", "Dan Reviewer", reworded),  # one merge, two makers: each credited
        (merge, "status", "Bob Builder", accepted),
    ]
    assert said[2][1:3] == ("new", "Ada Author") and said[2][3] is None


def test_where_a_review_landed_on_the_line_is_the_oldest_commit_holding_it(repo, capsys):
    commit(repo, {A: adr_text("Use Postgres")}, "one")
    made_at = git(repo, "rev-parse", "HEAD")
    run(capsys, "affirm", "1", "--note", "fine")
    landed = commit(repo, {}, "affirm")
    commit(repo, {"src/a.py": "1"}, "code")
    tip = commit(repo, {"src/a.py": "2"}, "more code")
    ws = Workspace.discover(repo)
    finder = Anchors(ws.repo)
    assert finder.landing(A, tip, made_at) == landed
    assert finder.landing(A, tip, made_at, limit=1) == git(repo, "rev-parse", "HEAD~1")  # searched no further
    assert finder.review_at(tip, A) == finder.review_at(landed, A) != finder.review_at(made_at, A)
    assert finder.review_at(tip, "docs/adr/0404-none.md") is None
