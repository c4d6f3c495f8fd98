"""`adr site` on real repositories: every local link resolves, no page is heavy, record text
runs nothing and no flagged secret is written, the folder is replaced whole and only when it
is a site the command wrote."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers import adr_text, commit, run
from tests.surfaces.site.conftest import HOMES, SECRET
from tests.surfaces.site.pages import broken_links, tags

pytestmark = pytest.mark.usefixtures("sealed")


@pytest.mark.parametrize("name", [*HOMES, "own", "hostile"])
def test_every_local_link_resolves(sites, name):
    assert broken_links(sites[name]) == []


@pytest.mark.parametrize("name", [*HOMES, "own"])
def test_a_page_per_decision_and_none_over_150_kb_before_the_search_data(sites, name):
    site = sites[name]
    pages = list((site / "decisions").glob("*.html"))
    rows = re.findall(r"<tr data-status=", (site / "index.html").read_text())
    assert len(pages) == len(rows) > 0
    heavy = {p.name: p.stat().st_size for p in site.rglob("*.html") if p.stat().st_size > 150_000}
    assert heavy == {}


def test_the_home_page_counts_every_status_of_a_real_folder(sites):
    home = (sites["tdr"] / "index.html").read_text()
    assert 'data-status="superseded"' in home and "superseded " in home


def test_record_text_runs_nothing_in_any_page(sites):
    """Only the site's own scripts, no event handler attribute, no script or frame from a record."""
    site = sites["hostile"]
    for page in site.rglob("*.html"):
        for tag in tags(page):
            assert tag.name not in ("iframe", "object", "embed", "b", "base"), f"{page.name}: <{tag.name}>"
            if tag.name == "svg":  # the graph, which the build draws
                assert page.name == "graph.html" and tag.attrs["class"] == "graph"
            assert not [a for a in tag.attrs if a.startswith("on")], f"{page.name}: {tag}"
            if tag.name == "script":
                assert re.fullmatch(
                    r"(\.\./)?(assets/site(-search)?\.js|assets/search-data\.js|[\w.-]+\.versions\.js)",
                    tag.attrs["src"],
                )
            for key in ("href", "src"):
                assert not tag.attrs.get(key, "").lower().strip().startswith(("javascript:", "data:", "vbscript:"))
            if tag.name == "img":
                assert not tag.attrs["src"].startswith("http")  # nothing is fetched from the network


def test_the_hostile_title_and_tags_are_shown_as_text(sites):
    page = (sites["hostile"] / "decisions" / "ADR-0002.html").read_text()
    assert "&lt;img src=x onerror=" in page and "Use &lt;b&gt;bold&lt;/b&gt; ideas" in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page


def test_a_secret_in_a_record_its_history_or_a_commit_message_is_never_written(sites):
    site = sites["hostile"]
    leaked = [p.relative_to(site) for p in site.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []
    versions = (site / "decisions" / "ADR-0001.versions.js").read_text()
    assert "REDACTED" in versions  # the old version is offered, its secret section is not


def test_relations_are_links_both_ways(sites):
    old = (sites["hostile"] / "decisions" / "ADR-0001.html").read_text()
    assert re.search(
        r'<a href="\.\./decisions/ADR-0002\.html">ADR-0002: &lt;img[^<]*</a> supersedes this decision', old
    )
    new = (sites["hostile"] / "decisions" / "ADR-0002.html").read_text()
    assert 'This decision supersedes <a href="../decisions/ADR-0001.html">ADR-0001: Keep tokens safe</a>' in new


def test_versions_and_status_history_come_from_git(repo, capsys, tmp_path):
    path = "docs/adr/0001-use-postgres.md"
    commit(repo, {path: adr_text("Use Postgres", status="proposed")}, "propose")
    commit(repo, {path: adr_text("Use Postgres", status="accepted", extra="status-reason: the team agreed")}, "accept")
    commit(repo, {path: adr_text("Use Postgres", body="We use Postgres 16.")}, "say which")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    page = (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert page.count("<code>v") >= 2  # the versions table (and the current one on top)
    assert 'proposed → <span class="badge s-accepted">accepted</span>' in page
    assert "Ada Author" in page and "ada@example.com" not in page
    texts = (tmp_path / "s" / "decisions" / "ADR-0001.versions.js").read_text()
    assert texts.startswith("window.ADR_VERSIONS=") and "We use Postgres 16." in texts
    timeline = (tmp_path / "s" / "timeline.html").read_text()
    events = re.findall(r'<span class="what">(\w+)', timeline)
    assert events[0] == "version" and events[-1] == "new" and "status" in events  # newest first


def test_governed_code_shows_its_staleness_and_what_changed(repo, capsys, tmp_path):
    commit(repo, {"src/db.py": "x = 1\n", "docs/adr/0001-db.md": adr_text("Use a db", governs=["src/**"])}, "db")
    commit(repo, {"src/db.py": "x = 2\n"}, "change the db code")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    page = (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert '<span class="state st-stale">stale</span>' in page and "<code>src/db.py</code>" in page
    assert "1 commit since" in page
    assert '<span class="state st-stale">stale</span>' in (tmp_path / "s" / "index.html").read_text()


def test_json_says_what_was_written_and_the_default_is_inside_the_cache(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "a")
    data = json.loads(run(capsys, "site", "--json").out)
    assert data["out"] == str(repo / ".adr-cache" / "site") and data["decisions"] == 1
    assert {"index.html", "search.html", "graph.html", "timeline.html", "decisions/ADR-0001.html"} <= set(data["files"])
    assert data["bytes"] == sum((repo / ".adr-cache/site" / f).stat().st_size for f in data["files"])
    assert run(capsys, "check").code == 0  # the site in the cache is nothing `check` reads


def test_a_rebuild_replaces_the_site_whole(repo, capsys, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")}, "two")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    commit(repo, {"docs/adr/0002-b.md": None}, "one")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    assert sorted(p.name for p in (tmp_path / "s" / "decisions").iterdir()) == ["ADR-0001.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo", "s"]  # no staging folder left behind


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("docs/adr/site", "is inside the ADR folder"),
        ("docs/adr", "is inside the ADR folder"),
        (".", "holds the repository"),
        ("..", "holds the repository"),
        ("notes", "holds files adr did not write"),
        ("notes/todo.txt", "is a file"),
    ],
)
def test_it_never_writes_where_it_would_mix_with_or_replace_what_it_did_not_make(repo, capsys, where, said):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "notes/todo.txt": "mine\n"}, "a")
    result = run(capsys, "site", "--out", where, code=2)
    assert said in result.err and "hint:" in result.err and "Traceback" not in result.err
    assert (repo / "notes/todo.txt").read_text() == "mine\n"
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-a.md"]


def test_a_base_url_gives_canonical_links_and_a_bad_one_is_refused(repo, capsys, tmp_path):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "a")
    run(capsys, "site", "--out", str(tmp_path / "s"), "--base-url", "https://org.example/repo")
    page = (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert '<link rel="canonical" href="https://org.example/repo/decisions/ADR-0001.html">' in page
    assert 'href="../index.html"' in page  # links stay relative: the site works from any sub-path
    bad = run(capsys, "site", "--out", str(tmp_path / "t"), "--base-url", "javascript:alert(1)", code=2)
    assert "is not a web address" in bad.err


def test_a_folder_without_commits_still_builds_and_says_why_history_is_missing(repo, capsys, tmp_path):
    (repo / "docs/adr").mkdir(parents=True)
    (repo / "docs/adr/0001-a.md").write_text(adr_text("A"))
    result = run(capsys, "site", "--out", str(tmp_path / "s"))
    assert "wrote 1 decision," in result.out
    assert (tmp_path / "s" / "decisions" / "ADR-0001.html").is_file()
    assert broken_links(tmp_path / "s") == []


def test_a_restructured_text_folder_is_rendered_and_its_links_lead_to_pages(repo, capsys, tmp_path):
    first = (
        "1. Use queues\n=============\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\nWe need ``async`` work.\n"
    )
    second = (
        "2. Use Redis\n============\n\nStatus\n------\n\nAccepted\n\nDecision\n--------\n\n"
        "Queues as in `the first <0001-use-queues.rst>`_.\n\n.. raw:: html\n\n   <script>alert(1)</script>\n"
    )
    commit(repo, {"docs/decisions/0001-use-queues.rst": first, "docs/decisions/0002-use-redis.rst": second}, "rst")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    page = (tmp_path / "s" / "decisions" / "ADR-0002.html").read_text()
    assert "<h2>Decision</h2>" in page and '<pre class="source">' not in page
    assert '<a href="../decisions/ADR-0001.html" rel="nofollow noopener">the first</a>' in page
    assert "alert(1)" not in page
    assert "<code>async</code>" in (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert broken_links(tmp_path / "s") == []


def test_two_builds_at_once_both_finish_and_leave_one_whole_site(repo, capsys, tmp_path):
    import subprocess
    import sys

    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")}, "two")
    out = tmp_path / "s"
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "adr_memory", "site", "--out", str(out)], cwd=repo, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    assert [p.wait(timeout=120) for p in runs] == [0, 0, 0], [p.stderr.read() for p in runs]
    assert sorted(p.name for p in (out / "decisions").iterdir()) == ["ADR-0001.html", "ADR-0002.html"]
    assert broken_links(out) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo", "s"]  # nothing half-made or left beside it


def test_a_full_disk_under_the_site_is_a_clear_error_and_the_old_site_stays(repo, capsys, monkeypatch, tmp_path):
    from adr_memory.surfaces.site import build as site_build

    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "a")
    out = tmp_path / "site"
    run(capsys, "site", "--out", str(out))
    before = (out / "index.html").read_bytes()

    def full(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(site_build.Path, "write_bytes", full)
    failed = run(capsys, "site", "--out", str(out), code=2)
    assert failed.err.splitlines()[0].startswith(f"error: cannot write the site to {out}: No space left on device")
    assert failed.err.splitlines()[1].startswith("hint: ")
    assert (out / "index.html").read_bytes() == before


def test_a_proposed_successor_is_shown_as_proposed_and_the_decision_as_in_force(repo, capsys, tmp_path):
    """The page said "Superseded by ADR-0002" under the title of a decision in force whose
    successor was only proposed."""
    commit(
        repo,
        {
            "docs/adr/0001-mongo.md": adr_text("Use MongoDB"),
            "docs/adr/0002-pg.md": adr_text("Move to PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
        },
    )
    run(capsys, "site", "--out", str(tmp_path / "s"))
    page = (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert "Superseded by" not in page
    assert "In force until its proposed successor is accepted" in page and "ADR-0002" in page
    assert "ADR-0002 proposed" in (tmp_path / "s" / "index.html").read_text()
    run(capsys, "accept", "2")
    commit(repo, {}, "accept")
    run(capsys, "site", "--out", str(tmp_path / "s"))
    page = (tmp_path / "s" / "decisions" / "ADR-0001.html").read_text()
    assert "Superseded by" in page and "In force until" not in page


def test_the_templates_are_compiled_once_a_process():
    """A served hub renders a page per request: its templates are compiled once, not each time."""
    from adr_memory.surfaces.site.build import environment

    template = environment().get_template("served_list.html")
    assert environment() is environment() and environment().get_template("served_list.html") is template
