"""history.sources: an organisation's decisions pinned in git. A central repository and three
service repositories, each with a history of its own, fetched through file:// URLs and local
paths (issue 59)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from adr_memory.history import Workspace, sources
from adr_memory.records import redact_url
from tests.helpers import adr_text, commit, git, run

ORG_DB = adr_text(
    "Use PostgreSQL for every service's primary store",
    governs=["src/db/**"],
    extra='conflict-key: project.primary_database\nvalue: PostgreSQL\nrules:\n  - {forbid: "import pymongo", in: ["src/**"], message: "the organisation uses PostgreSQL"}',
    body="Every service keeps its primary data in PostgreSQL 16, run by the platform team.",
)
ORG_EVENTS = adr_text(
    "Publish domain events on the shared Kafka cluster",
    body="Services publish domain events on the shared Kafka cluster; no service runs a broker of its own.",
)
ORG_PAYMENTS_ONLY = adr_text(
    "Card data stays in the vault", extra="applies-to: [payments]", governs=["src/**"], body="Only payments."
)


@pytest.fixture
def org(tmp_path):
    """central (the architecture repository), and services payments, search and shipping."""
    central = tmp_path / "central"
    central.mkdir()
    git(central, "init", "-q", "-b", "main")
    commit(central, {"docs/adr/0001-postgres.md": ORG_DB}, "the database decision")
    commit(central, {"docs/adr/0002-events.md": ORG_EVENTS, "docs/adr/0003-vault.md": ORG_PAYMENTS_ONLY}, "more")
    services = {}
    for name in ("payments", "search", "shipping"):
        root = tmp_path / name
        root.mkdir()
        git(root, "init", "-q", "-b", "main")
        git(root, "remote", "add", "origin", f"git@github.com:acme/{name}.git")
        commit(
            root, {"docs/adr/0001-fastapi.md": adr_text("Use FastAPI"), "src/db/store.py": "import psycopg\n"}, "start"
        )
        services[name] = root
    return central, services


def _pin(capsys, service, url, monkeypatch):
    monkeypatch.chdir(service)
    run(capsys, "sources", "add", "platform", url)
    run(capsys, "sources", "update")
    commit(service, {}, "pin the organisation's decisions")


def test_an_organisation_rule_and_key_bind_a_service_unless_it_records_an_exception(org, capsys, monkeypatch):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, central.as_uri(), monkeypatch)  # a file:// URL
    commit(payments, {"src/db/store.py": "import pymongo\n"}, "try mongo")
    failed = json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]
    (rule,) = [f for f in failed if f["kind"] == "rule"]
    assert rule["path"] == "src/db/store.py" and rule["id"].startswith("platform:ADR-0001")
    mongo = adr_text("Use MongoDB", extra="conflict-key: project.primary_database\nvalue: MongoDB")
    commit(payments, {"docs/adr/0002-mongo.md": mongo}, "a local choice")
    found = json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]
    assert any(f["kind"] == "conflict" and "platform:ADR-0001" in f["message"] for f in found)
    exception = mongo.replace("value: MongoDB", 'value: MongoDB\nsupersedes: ["platform:ADR-0001"]')
    commit(payments, {"docs/adr/0002-mongo.md": exception}, "our recorded exception")
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]


def test_why_guard_and_search_name_the_organisation_s_decision(org, capsys, monkeypatch, model_cache):
    central, services = org
    shipping = services["shipping"]
    _pin(capsys, shipping, str(central), monkeypatch)  # a local path
    (path,) = json.loads(run(capsys, "guard", "src/db/store.py", "--json").out)["paths"]
    named = {d["id"]: d for d in path["decisions"]}
    assert "platform:ADR-0001" in named and named["platform:ADR-0001"]["source"] == "platform"
    assert "platform:ADR-0003" not in named  # applies to payments alone
    assert "platform:ADR-0001" in run(capsys, "why", "src/db/store.py").out
    answer = json.loads(run(capsys, "search", "do services run their own message broker", "--json").out)
    assert answer["results"][0]["id"] == "platform:ADR-0002" and answer["results"][0]["source"] == "platform"
    hook = subprocess.run(
        [sys.executable, "-m", "adr_memory.hook", "agent-guard"],
        cwd=shipping,
        input=json.dumps({"tool_name": "Edit", "tool_input": {"file_path": str(shipping / "src/db/store.py")}}),
        capture_output=True,
        text=True,
    )
    assert "platform:ADR-0001" in json.loads(hook.stdout)["hookSpecificOutput"]["additionalContext"]


def test_the_central_repository_moving_changes_nothing_until_the_new_pin_is_committed(org, capsys, monkeypatch):
    central, services = org
    search = services["search"]
    _pin(capsys, search, central.as_uri(), monkeypatch)
    commit(
        central,
        {"docs/adr/0004-no-print.md": adr_text("No print", extra='rules:\n  - {forbid: "print(", in: ["src/**"]}')},
        "new org rule",
    )
    commit(search, {"src/log.py": "print('x')\n"}, "a print")
    assert json.loads(run(capsys, "check", "--format", "json").out)["ok"]  # still at the old pin
    assert [r["id"] for r in json.loads(run(capsys, "list", "--source", "platform", "--json").out)] == [
        "platform:ADR-0001",
        "platform:ADR-0002",
        "platform:ADR-0003",
    ]
    updated = json.loads(run(capsys, "sources", "update", "--json").out)["sources"][0]
    assert updated["moved"] and updated["before"] != updated["commit"]
    assert not json.loads(run(capsys, "check", "--format", "json", code=1).out)["ok"]


def test_a_fresh_clone_fetches_its_pin_once_and_a_lost_source_is_said_never_judged(org, capsys, monkeypatch, tmp_path):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(payments), str(clone))
    monkeypatch.chdir(clone)
    assert len(json.loads(run(capsys, "list", "--sources", "--json").out)) == 4  # fetched on first use
    gone = tmp_path / "clone2"
    git(tmp_path, "clone", "-q", str(payments), str(gone))
    central.rename(tmp_path / "moved-away")  # no network, as it were
    monkeypatch.chdir(gone)
    told = run(capsys, "check", code=1)
    assert "source platform cannot be read" in told.out and "adr sources update platform" in told.out
    listed = json.loads(run(capsys, "sources", "list", "--json").out)["sources"][0]
    assert listed["fetched"] is False and listed["problem"]


def test_a_force_pushed_ref_is_said_and_an_unreachable_url_is_one_error(org, capsys, monkeypatch):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)
    git(central, "reset", "-q", "--hard", "HEAD~1")
    commit(central, {"docs/adr/0005-other.md": adr_text("Other")}, "history rewritten")
    moved = run(capsys, "sources", "update")
    assert "was rewritten (force-pushed)" in moved.err
    config = (
        (payments / ".adr-memory.toml")
        .read_text()
        .replace(str(central), "https://user:s3cretTok3n@nowhere.invalid/x.git")
    )
    (payments / ".adr-memory.toml").write_text(config)
    failed = run(capsys, "sources", "update", code=2)
    assert failed.err.startswith("error: source platform (https://nowhere.invalid/x.git): cannot fetch")
    assert "s3cretTok3n" not in failed.err + run(capsys, "sources", "list").out
    assert "s3cretTok3n" not in (payments / "adr-sources.lock").read_text()


def test_two_updates_at_once_leave_one_valid_lock(org, capsys, monkeypatch):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)
    done = []

    def update():
        done.append(sources.update(Workspace.discover(payments)))

    threads = [threading.Thread(target=update) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(done) == 2
    pins = sources.read_lock(payments)
    assert list(pins) == ["platform"] and pins["platform"].commit == git(central, "rev-parse", "HEAD")


def test_a_source_decision_is_read_only_and_a_local_one_may_supersede_it(org, capsys, monkeypatch):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)
    refused = run(capsys, "accept", "platform:2", code=2)
    assert refused.err.startswith("error: platform:2 is source platform's decision: read-only here")
    path = run(capsys, "new", "Run our own broker", "-s", "platform:2").out.strip()
    assert "platform:ADR-0002" in (payments / path).read_text()
    assert redact_url("https://tok:pw@host/x") == "https://host/x"


def test_a_source_decision_s_log_is_its_own_repository_s(org, capsys, monkeypatch):
    central, services = org
    payments = services["payments"]
    commit(central, {"docs/adr/0001-postgres.md": ORG_DB.replace("PostgreSQL 16", "PostgreSQL 17")}, "move to 17")
    _pin(capsys, payments, str(central), monkeypatch)
    logged = json.loads(run(capsys, "log", "platform:1", "--json").out)
    assert logged["id"] == "platform:ADR-0001"
    assert [v["message"] for v in logged["versions"]] == ["move to 17", "the database decision"]


def test_a_branch_that_moves_a_pin_says_what_it_brings(org, capsys, monkeypatch):
    central, services = org
    search = services["search"]
    _pin(capsys, search, str(central), monkeypatch)
    commit(central, {"docs/adr/0001-postgres.md": ORG_DB.replace("PostgreSQL 16", "PostgreSQL 17")}, "move to 17")
    commit(central, {"docs/adr/0004-new.md": adr_text("Trace every request"), "docs/adr/0003-vault.md": None}, "more")
    git(search, "checkout", "-q", "-b", "bump")
    run(capsys, "sources", "update")
    commit(search, {}, "bump the platform pin")
    found = json.loads(run(capsys, "check", "--base", "main", "--format", "json").out)["findings"]
    (said,) = [f for f in found if f["kind"] == "source"]
    assert "1 added, 1 changed, 1 retired" in said["message"] and said["severity"] == "warning"
    report = run(capsys, "review", "--base", "main").out
    assert "### Source platform moves to" in report and "added: **platform:ADR-0004**" in report
    assert "+Every service keeps its primary data in PostgreSQL 17" in report


def test_a_source_decision_goes_stale_here_when_this_repository_s_code_moves_on(org, capsys, monkeypatch):
    """Anchored in this repository: at the commit that adopted the source, then at the one that
    committed this repository's review (`adr affirm platform:1`, kept in the lock)."""
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)

    def state():
        rows = json.loads(run(capsys, "stale", "--json").out)["decisions"]
        return next(d["state"] for d in rows if d["id"] == "platform:ADR-0001")

    assert state() == "fresh"
    commit(payments, {"src/db/store.py": "import psycopg\nPOOL = 4\n"}, "the code moves on")
    assert state() == "stale"
    assert run(capsys, "stale", "--fail", code=1)
    run(capsys, "affirm", "platform:1", "--note", "still PostgreSQL")
    assert (
        json.loads((payments / "adr-sources.lock").read_text())["reviews"]["platform:ADR-0001"]["note"]
        == "still PostgreSQL"
    )
    assert state() == "stale"  # a review counts once it is committed
    commit(payments, {}, "review the platform's database decision")
    assert state() == "fresh"
    (path,) = json.loads(run(capsys, "guard", "src/db/store.py", "--json").out)["paths"]
    assert next(d for d in path["decisions"] if d["id"] == "platform:ADR-0001")["state"] == "fresh"


def test_the_site_shows_the_sources_decisions_in_a_section_of_their_own(org, capsys, monkeypatch, tmp_path):
    central, services = org
    payments = services["payments"]
    _pin(capsys, payments, str(central), monkeypatch)
    run(capsys, "site", "--out", str(tmp_path / "site"))
    index = (tmp_path / "site/index.html").read_text()
    assert "From other repositories" in index and "platform:ADR-0001" in index
    page = next((tmp_path / "site/decisions").glob("platform-ADR-0001*.html")).read_text()
    assert "Use PostgreSQL for every service" in page and "PostgreSQL 16" in page


def test_a_source_s_records_are_parsed_once_and_kept_apart_from_this_repository_s(org, capsys, monkeypatch):
    """Every command that reads the sources parsed all their records again (1,000 of them: a
    third of `adr why` in benchmarks/bench_sources.py). They are kept by their bytes, in a file of
    their own: a command that reads only this repository's records leaves them kept."""
    from adr_memory.history import parsed
    from adr_memory.records import catalog

    central, services = org
    search = services["search"]
    _pin(capsys, search, central.as_uri(), monkeypatch)
    seen: list[str] = []
    real = catalog.parse_bytes
    monkeypatch.setattr(catalog, "parse_bytes", lambda path, data: seen.append(path) or real(path, data))
    run(capsys, "why", "src/db/store.py")  # makes the cache folder, and reads the sources
    run(capsys, "why", "src/db/store.py")
    seen.clear()
    run(capsys, "list")  # this repository's records alone
    run(capsys, "why", "src/db/store.py")
    assert seen == []  # neither ours nor the organisation's parsed again
    assert (search / ".git" / "adr-memory-cache" / parsed.SOURCES).is_file()


def test_an_unreadable_source_is_said_by_every_verdict_never_nothing_governs(org, capsys, monkeypatch, tmp_path):
    """A fresh clone whose source is unreachable: `check --rules-only` passed, and guard, why, the
    agent hook and MCP said nothing governs the file; only a warning on stderr said otherwise."""
    import asyncio
    import io

    from adr_memory.surfaces import hook
    from tests.surfaces.test_mcp import _session_calls

    clone = _clone_without_its_source(org, capsys, monkeypatch, tmp_path)
    for mode in ((), ("--rules-only",), ("--base", "HEAD"), ("--fail-on", "stale"), ("src/db/store.py",)):
        told = run(capsys, "check", *mode, code=1)
        assert "source platform cannot be read" in told.out, mode
    stale = run(capsys, "stale", code=0).out
    assert "source platform cannot be read" in stale and "Nothing" not in stale, stale
    run(capsys, "stale", "--fail", code=1)  # not known is no pass
    unknown = [d for d in json.loads(run(capsys, "stale", "--json").out)["decisions"] if d["state"] == "unknown"]
    assert [d["id"] for d in unknown] == ["platform:*"] and "cannot be read" in unknown[0]["reason"]
    (path,) = json.loads(run(capsys, "guard", "src/db/store.py", "--json").out)["paths"]
    (unread,) = path["unreadable_sources"]
    assert unread["source"] == "platform" and unread["standing"]["state"] == "unknown"
    why = run(capsys, "why", "src/db/store.py").out
    assert "no decision governs" not in why and "unknown: source platform cannot be read" in why

    call = {"tool_name": "Edit", "tool_input": {"file_path": str(clone / "src/db/store.py")}}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(call)))
    capsys.readouterr()
    hook.main(["agent-guard"])
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    assert "from source platform could not be read" in context and "Do not assume nothing does" in context
    capsys.readouterr()
    hook.main(["session-start"])
    started = capsys.readouterr().out
    assert "The organisation's decisions could not be read (source platform" in started, started

    flags: list[bool] = []
    with capsys.disabled():
        _tools, (guarded, checked) = asyncio.run(
            _session_calls(clone, [("guard", {"paths": ["src/db/store.py"]}), ("check", {})], flags=flags)
        )
    assert json.loads(guarded)["paths"][0]["unreadable_sources"][0]["source"] == "platform"
    answer = json.loads(checked)
    assert answer["ok"] is False and [f["id"] for f in answer["findings"] if f["kind"] == "source"] == ["platform"]


def test_an_organisation_s_key_is_held_where_a_record_is_written(org, capsys, monkeypatch):
    """`adr new --key` in a service wrote a record though the organisation's decision in force
    held the key; `-s platform:1`, the documented way out, failed with "no decision"."""
    central, services = org
    _pin(capsys, services["payments"], str(central), monkeypatch)
    refused = run(capsys, "new", "Use MongoDB", "--key", "project.primary_database", code=2).err
    assert "project.primary_database is already decided by platform:ADR-0001" in refused
    assert "-s platform:ADR-0001" in refused
    assert sorted(p.name for p in (services["payments"] / "docs/adr").iterdir()) == ["0001-fastapi.md"]
    made = run(capsys, "new", "Use MongoDB", "--key", "project.primary_database", "-s", "platform:1").out.strip()
    assert "supersedes: ['platform:ADR-0001']" in (services["payments"] / made).read_text()
    run(capsys, "accept", "2")
    (theirs,) = [
        r for r in json.loads(run(capsys, "list", "--sources", "--json").out) if r["id"] == "platform:ADR-0001"
    ]
    assert theirs["standing"]["state"] == "exception" and theirs["standing"]["retired_by"] == ["ADR-0002"]
    assert (services["payments"] / "adr-sources.lock").read_text() == (  # the source is left as it is
        git(services["payments"], "show", "HEAD:adr-sources.lock") + "\n"
    )


def test_a_pin_bump_is_judged_on_the_whole_repository(org, capsys, monkeypatch):
    """A branch that moves a pin to bring a new organisation rule that existing service code
    breaks passed `check --base` (one warning); after the merge, plain `check` failed. `review`
    did not mention the violations, nor the source decisions the branch made stale."""
    central, services = org
    shipping = services["shipping"]
    commit(shipping, {"src/http/client.py": "import requests\n"}, "legacy code")
    _pin(capsys, shipping, str(central), monkeypatch)
    no_requests = adr_text(
        "Call other services through the shared HTTP client",
        governs=["src/http/**"],
        extra='rules:\n  - {forbid: "import requests", in: ["src/**"], message: "use the shared client"}',
    )
    commit(central, {"docs/adr/0004-http.md": no_requests}, "an organisation rule")
    git(shipping, "checkout", "-q", "-b", "bump")
    run(capsys, "sources", "update")
    commit(shipping, {}, "bump the platform pin")
    checked = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    (broken,) = [f for f in checked["findings"] if f["kind"] == "rule"]
    assert (broken["path"], broken["id"]) == ("src/http/client.py", "platform:ADR-0004")
    report = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)
    (moved,) = report["sources_moved"]
    assert [v["path"] for v in moved["violations"]] == ["src/http/client.py"]
    assert "breaks 1 rule(s) it brings" in run(capsys, "review", "--base", "main").out
    run(capsys, "check", code=1)  # the same verdict the merge would meet

    git(shipping, "checkout", "-q", "main")
    git(shipping, "checkout", "-q", "-b", "db-change")
    commit(shipping, {"src/db/store.py": "import psycopg  # pool it\n"}, "touch the governed code")
    made = json.loads(run(capsys, "review", "--base", "main", "--format", "json").out)["made_stale"]
    assert [v["id"] for v in made] == ["platform:ADR-0001"]
    stale = json.loads(run(capsys, "check", "--base", "main", "--format", "json").out)["findings"]
    assert any(f["kind"] == "stale" and f["id"] == "platform:ADR-0001" for f in stale)


def test_a_key_cannot_be_taken_while_the_organisation_s_decisions_cannot_be_read(org, capsys, monkeypatch, tmp_path):
    clone = _clone_without_its_source(org, capsys, monkeypatch, tmp_path)
    refused = run(capsys, "new", "Use MongoDB", "--key", "project.primary_database", code=2).err
    assert refused.startswith("error: cannot tell whether project.primary_database is already decided: source platform")
    assert sorted(p.name for p in (clone / "docs/adr").iterdir()) == ["0001-fastapi.md"]


def _clone_without_its_source(org, capsys, monkeypatch, tmp_path):
    """A fresh clone of payments, its source pinned, the source gone (no network, as it were)."""
    central, services = org
    _pin(capsys, services["payments"], str(central), monkeypatch)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(services["payments"]), str(clone))
    central.rename(tmp_path / "moved-away")
    monkeypatch.chdir(clone)
    return clone


def test_one_unreachable_source_leaves_the_others_pinned_and_a_symlink_or_huge_file_is_named(
    org, capsys, monkeypatch, tmp_path
):
    """`sources update` wrote no lock at all when one source could not be fetched; a source's
    symlink became a decision, and its 10 MB record was listed without a word."""
    import os

    central, services = org
    os.symlink("0001-postgres.md", central / "docs/adr/0004-linked.md")
    commit(central, {"docs/adr/0005-huge.md": "# 5. Huge\n\n" + "x" * 3_000_000 + "\n"}, "a link and a huge file")
    payments = services["payments"]
    monkeypatch.chdir(payments)
    run(capsys, "sources", "add", "platform", str(central))
    run(capsys, "sources", "add", "gone", str(tmp_path / "nowhere"))
    failed = run(capsys, "sources", "update", code=2)
    assert failed.err.startswith("error: source gone (") and "(the lock was written for platform)" in failed.err
    assert set(json.loads((payments / "adr-sources.lock").read_text())["sources"]) == {"platform"}
    listed = {r["id"]: r for r in run(capsys, "list", "--source", "platform", "--json").json}
    assert "platform:ADR-0004" not in [i for i, r in listed.items() if r["title"] == "Use PostgreSQL for every service"]
    found = run(capsys, "check", "--json", code=1).json["findings"]
    named = {(f["id"], f["kind"]) for f in found}
    assert {("platform:ADR-0004", "symlink"), ("platform:ADR-0005", "too-large")} <= named, found
    # Named, and never a decision: not listed, not in force, binding nothing here.
    assert not {"platform:ADR-0004", "platform:ADR-0005"} & set(listed)
    guarded = run(capsys, "guard", "--json", "README.md").json["paths"][0]["decisions"]
    assert not {"platform:ADR-0004", "platform:ADR-0005"} & {d["id"] for d in guarded}
    (platform,) = [s for s in run(capsys, "sources", "list", "--json").json["sources"] if s["name"] == "platform"]
    assert platform["records"] == len(listed)
