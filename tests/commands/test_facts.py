"""What git says about each record, gathered once for every surface: versions, first date and
staleness from the history, left empty (with the reason kept) when git cannot answer, and the
record redacted before any surface sees it."""

from __future__ import annotations

from adr_memory.commands import facts
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit, git

A = "docs/adr/0001-use-postgres.md"
KEY = "AKIAZ7Q4XK2M9P3LR8TW"


def _gathered(repo, **kwargs):
    ws = Workspace.discover(repo)
    return ws, facts.gather(ws, list(ws.catalog), **kwargs)


def test_versions_first_date_and_staleness_come_from_the_history(repo, monkeypatch):
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2024-03-04T12:00:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2024-03-04T12:00:00Z")
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"], body="We chose 16.")}, "reword")
    (fresh,) = _gathered(repo)[1]
    assert (fresh.versions, fresh.first_recorded, fresh.stale) == (2, "2024-03-04", False)
    assert fresh.version_id and fresh.staleness_json() == {
        "state": "fresh",
        "reason": fresh.verdict.reason,
        "changed": [],
        "disputed": [],
    }
    commit(repo, {"src/db/a.py": "2"}, "code")
    (stale,) = _gathered(repo)[1]
    assert stale.stale is True and stale.staleness_json()["changed"] == ["src/db/a.py"]
    assert stale.version_id == fresh.version_id  # the code changed, not the decision


def test_a_record_not_committed_yet_is_shown_with_nothing_derived(repo):
    commit(repo, {"README": "x"}, "no records yet")
    (repo / "docs/adr").mkdir(parents=True)
    (repo / A).write_text(adr_text("Use Postgres", extra="date: 2023-01-02"))
    (draft,) = _gathered(repo)[1]
    assert (draft.versions, draft.first_recorded, draft.record.title) == (0, "2023-01-02", "Use Postgres")


def test_a_history_past_the_budget_leaves_the_facts_empty_and_says_why(repo):
    commit(repo, {A: adr_text("Use Postgres")}, "decide")
    for n in range(5):
        commit(repo, {"x.txt": str(n)}, f"code {n}")
    ws, (left,) = _gathered(repo, budget=3)
    assert (left.version_id, left.verdict, left.stale) == (None, None, None)
    assert "history is not read yet" in ws.unread.message
    assert "versions and staleness are not shown" in facts.incomplete(ws)
    _, (read,) = _gathered(repo)
    assert read.versions == 1


def test_a_shallow_clone_is_named_first_and_a_secret_never_leaves_gather(repo, tmp_path):
    commit(repo, {A: adr_text("Use Postgres", body=f"The key is {KEY}.")}, "decide")
    commit(repo, {"x.txt": "1"}, "more")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    ws, (shown,) = _gathered(clone)
    assert KEY not in shown.record.body and KEY not in repr(shown.record)
    assert facts.incomplete(ws).startswith("shallow clone:")
    assert facts.incomplete(Workspace.discover(repo)) is None


def test_commits_since_the_anchor_are_counted_only_when_asked(repo):
    commit(repo, {A: adr_text("Use Postgres", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "touch the code")
    commit(repo, {"src/db/a.py": "3"}, "touch it again")
    (listed,) = _gathered(repo)[1]  # a list, a terminal's record, an agent's answer
    assert listed.stale and listed.verdict.commits_since is None
    (paged,) = _gathered(repo, count_commits=True)[1]  # a site page says how many
    assert paged.verdict.commits_since == 2 and paged.verdict.newest_commit["subject"] == "touch it again"
