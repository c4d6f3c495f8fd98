"""What the site is made of, gathered from git before any page is written: a page name per
decision (unique, safe as a file name), relations both ways said once, versions with who and
when, status changes with their reasons, and the records still shown when git cannot answer."""

from __future__ import annotations

from adr_memory.commands.site import gather, page_names
from adr_memory.history import Workspace
from adr_memory.records import parse
from tests.helpers import adr_text, commit, run


def test_each_decision_gets_a_page_name_of_its_own_safe_as_a_file_name():
    records = [
        parse("---\nid: ADR-0007\n---\n# A\n", "docs/adr/0007-a.md"),
        parse("---\nid: adr-0007\n---\n# B\n", "docs/adr/b/0007-b.md"),
        parse("---\nid: ../../etc/passwd\n---\n# C\n", "docs/adr/c.md"),
        parse("---\nid: '..'\n---\n# D\n", "docs/adr/d.md"),
    ]
    pages = list(page_names(records).values())
    assert pages[:2] == ["decisions/ADR-0007.html", "decisions/ADR-0007-2.html"]
    assert all(p.startswith("decisions/") and "/" not in p.removeprefix("decisions/") for p in pages)
    assert len({p.lower() for p in pages}) == len(pages)


def test_relations_versions_and_status_changes_are_gathered_with_who_and_why(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": adr_text("Use Postgres"),
            "docs/adr/0002-redis.md": adr_text("Redis", status="proposed"),
        },
        "two",
    )
    run(capsys, "accept", "2", "--reason", "load tests passed")
    commit(repo, {}, "accept")
    run(capsys, "supersede", "1", "--by", "2")
    commit(repo, {}, "supersede")
    site = gather(Workspace.discover(repo), "Decisions")
    old, new = site.decisions
    assert [(r.rel, r.id, r.title, r.page) for r in new.related] == [
        ("supersedes", "ADR-0001", "Use Postgres", "decisions/ADR-0001.html")
    ]
    assert old.backlinks == []  # its own text already says it is superseded by ADR-0002
    assert [r.id for r in old.related] == ["ADR-0002"]
    assert [(s.subject, s.author, s.status) for s in new.shown] == [("two", "Ada Author", "proposed")]
    change = next(c for c in new.changes if c.after == "accepted")
    assert (change.before, change.reason, change.author) == ("proposed", "load tests passed", "Ada Author")
    assert {h.kind for h in site.timeline} >= {"new", "status"} and site.note is None


def test_records_are_still_gathered_when_git_has_no_commit_yet(repo):
    (repo / "docs/adr").mkdir(parents=True)
    (repo / "docs/adr/0001-pg.md").write_text(adr_text("Use Postgres", extra="date: 2024-02-03"))
    site = gather(Workspace.discover(repo), "Decisions")
    (only,) = site.decisions
    assert (only.record.title, only.date, site.timeline) == ("Use Postgres", "2024-02-03", [])
    assert [(s.date, s.commit, s.status) for s in only.shown] == [("uncommitted", "", "accepted")]
