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


def test_a_long_id_gets_a_page_name_a_file_system_takes_and_two_long_ids_stay_apart():
    long_a, long_b = "ADR-" + "9" * 200, "ADR-" + "9" * 199 + "8"
    records = [
        parse(f"---\nid: {long_a}\n---\n# A\n", "docs/adr/a.md"),
        parse(f"---\nid: {long_b}\n---\n# B\n", "docs/adr/b.md"),
        parse("---\nid: platform/ADR-0001\n---\n# C\n", "docs/adr/c.md"),
        parse("---\nid: '***'\n---\n# D\n", "docs/adr/d.md"),
    ]
    a, b, c, d = (page_names(records)[r.path] for r in records)
    assert a != b and all(len(p.removeprefix("decisions/")) <= 80 + len(".html") for p in (a, b))
    assert c == "decisions/platform--ADR-0001.html"  # a source's id keeps its name, made safe
    assert d == "decisions/decision.html"  # nothing left of the id: still a page


def test_versions_and_the_timeline_are_scrubbed_and_authors_shown_by_name(repo):
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    commit(repo, {"docs/adr/0001-a.md": adr_text("Keys", body=f"Use {key} for now.")}, f"add the key {key}\n\nbody")
    commit(repo, {"docs/adr/0001-a.md": adr_text("Keys", body="Keys live in the vault.")}, "vault")
    site = gather(Workspace.discover(repo), "Decisions")
    (only,) = site.decisions
    assert [s.subject for s in only.shown] == ["vault", "add the key [REDACTED]"]
    assert key not in repr(only.shown) and key not in repr(only.texts) and key not in repr(site.timeline)
    assert {s.author for s in only.shown} == {"Ada Author"}  # the name, without the mail address
    assert all(len(s.commit) == 10 for s in only.shown)
    assert [t["id"] for t in only.texts] == [s.version_id for s in only.shown]
    assert all(t["label"].startswith(t["id"] + " · ") for t in only.texts)
    assert {h.author for h in site.timeline} == {"Ada Author"}
    assert all(len(h.date) == len("2026-12-07 10:00") for h in site.timeline)  # events carry the time of day


def test_a_decision_s_state_is_said_only_for_code_it_governs(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use PostgreSQL", governs=["src/**"]),
            "docs/adr/0002-b.md": adr_text("Run on Kubernetes"),
            "docs/adr/0003-c.md": adr_text("Maybe GraphQL", status="proposed", governs=["api/**"]),
            "src/a.py": "1",
            "api/b.py": "1",
        },
    )
    commit(repo, {"src/a.py": "2", "api/b.py": "2"})
    states = {d.record.id: d.state for d in gather(Workspace.discover(repo), "Decisions").decisions}
    assert states == {"ADR-0001": "stale", "ADR-0002": "", "ADR-0003": ""}


def test_successors_are_named_once_and_only_when_they_retired_it(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB"),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
        },
    )
    pending = {d.record.id: d for d in gather(Workspace.discover(repo), "Decisions").decisions}
    assert pending["ADR-0001"].successors == []  # still in force
    assert [r.id for r in pending["ADR-0001"].proposed] == ["ADR-0002"]
    run(capsys, "accept", "2")
    commit(repo, {}, "accept")
    done = {d.record.id: d for d in gather(Workspace.discover(repo), "Decisions").decisions}
    assert [(r.id, r.title) for r in done["ADR-0001"].successors] == [("ADR-0002", "Use PostgreSQL")]
    assert done["ADR-0001"].proposed == []
    assert [(r.rel, r.id) for r in done["ADR-0002"].related] == [("supersedes", "ADR-0001")]


def test_a_link_to_a_decision_the_folder_lacks_has_no_page(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("Pool", extra="depends-on: [ADR-0042]")})
    (only,) = gather(Workspace.discover(repo), "Decisions").decisions
    assert [(r.rel, r.id, r.title, r.page) for r in only.related] == [("depends on", "ADR-0042", "", None)]
