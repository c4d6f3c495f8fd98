"""The read-side views: a decision's excerpt, its backlinks, the diff between two versions,
and `guard`'s answer for paths in and out of the repository."""

from __future__ import annotations

from adr_memory.commands import views
from adr_memory.history.workspace import Workspace
from adr_memory.records import catalog
from tests.helpers import adr_text, commit, write


def test_an_excerpt_is_the_decision_not_the_context_and_never_placeholders(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": "# 1. A\n\n## Context\n\nWhy.\n\n## Decision\n\nWe use Redis for jobs.\n",
            "docs/adr/0002-b.md": '# 2. B\n\n## Decision Outcome\n\nChosen option: "", because .\n',
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert views.excerpt(cat.get("1")) == "We use Redis for jobs."
    assert views.excerpt(cat.get("2")) == ""
    long = catalog.read_worktree(tmp_path, "docs/adr").get("1")
    assert len(views.excerpt(long, limit=10)) <= 10


def test_backlinks_name_who_links_here_and_how(tmp_path):
    write(
        tmp_path,
        {
            "docs/adr/0001-a.md": adr_text("A"),
            "docs/adr/0002-b.md": adr_text("B", extra='supersedes: ["ADR-0001"]'),
            "docs/adr/0003-c.md": adr_text("C", extra='depends-on: ["ADR-0001"]'),
        },
    )
    cat = catalog.read_worktree(tmp_path, "docs/adr")
    assert views.backlinks(cat, "ADR-0001") == [
        {"rel": "supersedes", "id": "ADR-0002"},
        {"rel": "depends-on", "id": "ADR-0003"},
    ]


def test_the_diff_between_versions_names_field_changes_and_the_body(repo):
    path = "docs/adr/0001-db.md"
    commit(repo, {path: adr_text("Use a db", status="proposed", body="Postgres.")}, "one")
    commit(repo, {path: adr_text("Use a db", body="Postgres 16.")}, "two")
    text = views.diff_text(Workspace.discover(repo), "1", None, None)
    assert '~ status: "proposed" -> "accepted"' in text
    assert "-Postgres.\n+Postgres 16." in text


def test_guard_answers_for_paths_inside_and_never_claims_one_outside(repo):
    commit(repo, {"docs/adr/0001-db.md": adr_text("Use a db", governs=["**"]), "src/a.py": "1"})
    answer = views.guard(Workspace.discover(repo), ["src/a.py", "/etc/passwd"])
    inside, outside = answer["paths"]
    assert [d["id"] for d in inside["decisions"]] == ["ADR-0001"] and inside["decisions"][0]["state"] == "fresh"
    assert outside["outside"] and outside["decisions"] == []
