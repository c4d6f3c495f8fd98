"""The record commands as a user meets them, one folder from `init` on: `new`, `list` and its
filters, `show` (an earlier version too), `log --since`, `diff` between versions, the status
verbs, `supersede`, `link`, `generate toc` and `export`."""

from __future__ import annotations

import json
import os
import re

import pytest

from adr_memory.surfaces.cli import main
from tests.helpers import adr_text, commit, git, run, sealed_env


@pytest.fixture
def folder(repo, capsys):
    run(capsys, "init")
    run(capsys, "new", "Use Postgres", "--tag", "db", "--governs", "src/db/**")
    run(capsys, "new", "Queue jobs in Redis")
    commit(repo, {}, "two decisions")
    return repo


def test_new_and_list_show_each_record_with_the_filters_a_user_types(folder, capsys):
    listed = json.loads(run(capsys, "list", "--json").out)
    assert [(r["id"], r["title"], r["status"]) for r in listed] == [
        ("ADR-0001", "Record architecture decisions", "accepted"),
        ("ADR-0002", "Use Postgres", "proposed"),
        ("ADR-0003", "Queue jobs in Redis", "proposed"),
    ]
    assert [r["id"] for r in json.loads(run(capsys, "list", "--tag", "db", "--json").out)] == ["ADR-0002"]
    assert [r["id"] for r in json.loads(run(capsys, "list", "--status", "accepted", "--json").out)] == ["ADR-0001"]
    assert run(capsys, "list", "--paths").out.splitlines()[1] == "docs/adr/0002-use-postgres.md"


def test_new_takes_rules_written_as_the_frontmatter_writes_them(folder, capsys):
    run(capsys, "new", "Use httpx", "--rule", "forbid: import requests", "--rule", "{require-path: pyproject.toml}")
    shown = json.loads(run(capsys, "show", "4", "--json").out)
    assert [(r["type"], r["value"]) for r in shown["rules"]] == [
        ("forbid", "import requests"),
        ("require-path", "pyproject.toml"),
    ]
    told = run(capsys, "new", "Use httpx", "--rule", "forbid: [a", code=2)
    assert told.err.startswith("error: --rule 'forbid: [a' is not a rule\nhint: write it as YAML")
    assert run(capsys, "new", "X", "--rule", "ban: x", code=2).err.startswith("error: rule 1 has unknown key 'ban'")
    # Read as a record's frontmatter is, with its caps: an alias bomb is refused, never expanded.
    bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdef", "bcdefg", strict=True)
    )
    told = run(capsys, "new", "X", "--rule", bomb, code=2)
    assert told.err.startswith("error: --rule 'a: &a [x,x,x,x,x,x,x,x,x] b: &b") and "is not a rule" in told.err


def test_status_verbs_and_show_of_an_earlier_version(folder, capsys):
    first = json.loads(run(capsys, "show", "2", "--json").out)
    run(capsys, "accept", "2", "--reason", "benchmarks")
    commit(folder, {}, "accept")
    now = json.loads(run(capsys, "show", "ADR-0002", "--json").out)
    assert (first["status"], now["status"]) == ("proposed", "accepted")
    earlier = json.loads(run(capsys, "show", "2", "--version", "v1", "--json").out)
    assert earlier["status"] == "proposed"
    run(capsys, "reject", "3")
    commit(folder, {}, "reject")
    assert json.loads(run(capsys, "show", "3", "--json").out)["status"] == "rejected"
    assert run(capsys, "show", "99", code=2).err.startswith("error: ")


def test_show_reads_a_status_line_s_link_as_its_text(repo, capsys, monkeypatch):
    """MADR 2 and log4brains write `- Status: superseded by [0002-b](0002-b.md)`: the terminal
    shows the link's text, and `--json` keeps the line as written."""
    monkeypatch.setenv("COLUMNS", "200")
    line = "superseded by [0002-use-the-slug](0002-use-the-slug.md)"
    commit(
        repo,
        {
            "docs/adr/0001-use-the-number.md": f"# Use the number\n\n- Status: {line}\n\n## Decision\n\nNumbers.\n",
            "docs/adr/0002-use-the-slug.md": "# Use the slug\n\n- Status: accepted\n\n## Decision\n\nSlugs.\n",
        },
    )
    shown = run(capsys, "show", "1").out
    assert "(superseded by 0002-use-the-slug)" in shown and "](" not in shown.split("status", 1)[1].split("\n")[0]
    assert json.loads(run(capsys, "show", "1", "--json").out)["status_text"] == line


def test_diff_shows_what_changed_between_versions(folder, capsys):
    path = folder / "docs/adr/0002-use-postgres.md"
    path.write_text(path.read_text().replace("## Context", "## Context\n\nWe need transactions.", 1))
    commit(folder, {}, "reword")
    out = run(capsys, "diff", "2").out
    assert "+We need transactions." in out
    assert run(capsys, "diff", "2", "v1", "v2").out == out


def test_supersede_and_link_write_both_records_and_log_since_keeps_to_the_day(folder, capsys):
    run(capsys, "accept", "3")
    run(capsys, "supersede", "2", "--by", "3")
    run(capsys, "link", "3", "Amends", "1", "Amended by")
    commit(folder, {}, "relations")
    two, three = (json.loads(run(capsys, "show", n, "--json").out) for n in ("2", "3"))
    assert two["status"] == "superseded" and "ADR-0003" in json.dumps(two["links"])
    assert "ADR-0001" in json.dumps(three["links"])
    assert json.loads(run(capsys, "log", "--since", "2999-01-01", "--json").out)["events"] == []
    assert run(capsys, "log", "--since", "yesterday-ish", code=2).err.startswith("error: ")


def test_generate_toc_and_export_cover_every_record(folder, capsys):
    toc = run(capsys, "generate", "toc").out
    assert all(f"({name})" in toc for name in ("0001-record-architecture-decisions.md", "0003-queue-jobs-in-redis.md"))
    exported = [json.loads(line) for line in run(capsys, "export", "--format", "jsonl").out.splitlines()]
    assert sorted(e["id"] for e in exported) == ["ADR-0001", "ADR-0002", "ADR-0003"]

    def unstamped(docs):  # each run stamps its own second
        return [{k: v for k, v in d.items() if k != "exported_at"} for d in docs]

    assert unstamped(json.loads(run(capsys, "export").out)) == unstamped(exported)


def test_every_command_that_prints_data_takes_json(repo, capsys, monkeypatch):
    """`check`, `review`, `export`, `why`, `diff` and `generate` refused --json."""
    import json

    from tests.helpers import adr_text, commit, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("Use Kafka", governs=["src/**"])})
    commit(repo, {"docs/adr/0002-b.md": adr_text("Use Redis", extra="supersedes: [ADR-0001]"), "src/x.py": "x\n"})
    monkeypatch.chdir(repo)
    shapes = {
        ("check",): lambda d: "findings" in d,
        ("review", "--base", "HEAD~1"): lambda d: d["base"] == "HEAD~1",
        ("export",): lambda d: [r["id"] for r in d] == ["ADR-0001", "ADR-0002"],
        ("why", "src/x.py"): lambda d: d["paths"][0]["path"] == "src/x.py",
        ("diff", "1"): lambda d: d["id"] == "1" and isinstance(d["diff"], str),
        ("generate", "toc"): lambda d: [r["title"] for r in d] == ["Use Kafka", "Use Redis"],
        ("generate", "graph"): lambda d: (
            d["edges"] == [{"from": "ADR-0002", "to": "ADR-0001", "relation": "supersedes"}]
        ),
    }
    for args, holds in shapes.items():
        told = run(capsys, *args, "--json", code=None)
        assert told.code in (0, 1), (args, told.err)
        assert holds(json.loads(told.out)), (args, told.out)


# ---------------------------------------------------------------------------- one history, read many ways


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """Read only: ADR-0001 written, then accepted with a reason (two versions); ADR-0002 links
    to it; the second commit is tagged `before`."""
    root = tmp_path_factory.mktemp("history")
    with sealed_env(root / "home"):
        git(root, "init", "-q", "-b", "main")
        commit(
            root,
            {"docs/adr/0001-db.md": adr_text("Use PostgreSQL", status="proposed", body="Orders in PostgreSQL.")},
            "propose the database",
        )
        commit(
            root,
            {
                "docs/adr/0001-db.md": adr_text("Use PostgreSQL", status="proposed", body="Orders in PostgreSQL 16."),
                "docs/adr/0002-pool.md": adr_text("Pool connections", extra="depends-on: [ADR-0001]"),
            },
            "name the version",
        )
        git(root, "tag", "before")
        cwd = os.getcwd()
        os.chdir(root)
        try:
            assert main(["accept", "1", "--reason", "the load test held"]) == 0
        finally:
            os.chdir(cwd)
        git(root, "commit", "-qam", "accept the database")
    return root


@pytest.fixture
def past(history, monkeypatch):
    monkeypatch.chdir(history)
    return history


def test_log_json_has_the_documented_shape_newest_first_with_who_and_why(past, capsys):
    """A status change is no new version: it is a transition of the version it changed."""
    logged = run(capsys, "log", "1", "--json").json
    assert set(logged) == {"id", "versions"} and logged["id"] == "ADR-0001"
    versions = logged["versions"]
    assert [v["message"] for v in versions] == ["name the version", "propose the database"]
    keys = {"version_id", "digest", "commit", "author", "date", "message", "status", "draft", "path", "written_in"}
    assert all(keys | {"reviews", "transitions"} <= set(v) for v in versions)
    assert versions[0]["commit"] == git(past, "rev-parse", "HEAD~1") and versions[0]["draft"] is False
    assert versions[0]["date"].endswith("Z") and len(versions[0]["date"]) == 20
    (change,) = versions[0]["transitions"]
    assert (change["from"], change["to"], change["reason"]) == ("proposed", "accepted", "the load test held")
    assert change["commit"] == git(past, "rev-parse", "HEAD") and change["author"].startswith("Ada Author")
    assert versions[1]["transitions"] == [] and versions[1]["reviews"] == []


def test_log_prints_a_row_per_version_and_one_per_status_change(past, capsys):
    out = run(capsys, "log", "ADR-0001").out
    assert out.startswith("ADR-0001: Use PostgreSQL\n")
    versions = run(capsys, "log", "1", "--json").json["versions"]
    for v in versions:
        (row,) = [line for line in out.splitlines() if line.strip().startswith(v["version_id"])]
        assert v["commit"][:7] in row.split() and v["status"] in row.split() and v["message"] in row
    (change,) = [line for line in out.splitlines() if line.strip().startswith("↳")]
    head = git(past, "rev-parse", "HEAD")[:7]
    assert change.split()[1] == head and "proposed →" in change and change.rstrip().endswith("the load test held")


def test_the_timeline_json_has_the_documented_shape_and_kinds(past, capsys):
    events = run(capsys, "log", "--json").json["events"]
    assert all(set(e) == {"commit", "date", "author", "written_in", "id", "title", "kind", "detail"} for e in events)
    kinds = {(e["id"], e["kind"]) for e in events}
    assert {("ADR-0001", "new"), ("ADR-0001", "status"), ("ADR-0002", "new")} <= kinds
    assert {e["kind"] for e in events} <= {"new", "version", "status", "affirm", "unaffirm", "link", "edit"}
    assert [e["date"] for e in events] == sorted((e["date"] for e in events), reverse=True)
    today = events[0]["date"][:10]
    assert run(capsys, "log", "--since", today, "--json").json["events"] == events  # on or after the day


def test_a_date_log_cannot_read_is_refused_before_any_work(past, capsys):
    for bad in ("2020-13-01", "12/07/2026", "today"):
        told = run(capsys, "log", "--since", bad, code=2)
        assert told.out == ""
        assert told.err == f"error: cannot read the date {bad!r}\nhint: write it as YYYY-MM-DD\n"


def test_diff_between_named_versions_and_its_json(past, capsys):
    newest, oldest = (v["version_id"] for v in run(capsys, "log", "1", "--json").json["versions"])
    text = run(capsys, "diff", "1", oldest, newest).out
    assert f"--- {oldest}" in text and f"+++ {newest}" in text
    assert "-Orders in PostgreSQL." in text and "+Orders in PostgreSQL 16." in text
    assert run(capsys, "diff", "1").out == text  # default: the previous version to the current one
    assert run(capsys, "diff", "ADR-0001", "v1", "v2").out == text  # vN counts from the first
    said = run(capsys, "diff", "1", oldest, newest, "--json").json
    assert said == {"id": "1", "from": oldest, "to": newest, "diff": text.rstrip("\n")}
    assert run(capsys, "diff", "2").out == "no differences\n"  # one version: nothing to compare
    told = run(capsys, "diff", "1", "v9", code=2)
    assert told.err.startswith("error: ") and told.err.count("\n") == 2 and told.out == ""


def test_list_at_a_ref_shows_the_catalog_then_and_says_what_it_leaves_out(past, capsys):
    then = run(capsys, "list", "--at", "before")
    assert then.err == (
        "note: with --at, the records are shown as they were, without versions or staleness (those describe HEAD)\n"
    )
    assert [r["status"] for r in run(capsys, "list", "--at", "before", "--json").json] == ["proposed", "accepted"]
    first = run(capsys, "list", "--at", "HEAD~2", "--json")
    assert first.err == "" and [r["id"] for r in first.json] == ["ADR-0001"]
    assert first.json[0]["version_id"] is None and first.json[0]["stale"] is None
    told = run(capsys, "list", "--at", "no-such-ref", code=2)
    assert told.err.startswith("error: ") and told.err.count("\n") == 2


def test_show_at_a_ref_and_generate_toc_at_a_ref(past, capsys):
    assert run(capsys, "show", "1", "--at", "HEAD~2", "--json").json["status"] == "proposed"
    toc = run(capsys, "generate", "toc", "--at", "HEAD~2", "--json").json
    assert [{k: v for k, v in row.items() if k != "standing"} for row in toc] == [
        {"id": "ADR-0001", "title": "Use PostgreSQL", "status": "proposed", "path": "docs/adr/0001-db.md"}
    ]
    assert toc[0]["standing"]["state"] == "proposed"  # as it stood then


def test_generate_graph_as_dot_and_an_unknown_format_is_refused(past, capsys):
    dot = run(capsys, "generate", "graph", "--format", "dot").out
    assert dot.startswith("digraph adr {") and dot.rstrip().endswith("}")
    assert '"ADR-0002" -> "ADR-0001" [label="depends on"];' in dot
    mermaid = run(capsys, "generate", "graph").out
    assert "ADR-0002" in mermaid and "ADR-0001" in mermaid and "digraph" not in mermaid
    told = run(capsys, "generate", "graph", "--format", "svg", code=2)
    assert told.err == "error: unknown format 'svg'\nhint: use --format mermaid or dot\n" and told.out == ""


def test_export_to_a_file_says_where_and_an_unknown_format_is_refused(past, capsys, tmp_path):
    target = tmp_path / "decisions.jsonl"
    assert run(capsys, "export", "--format", "jsonl", "--output", str(target)).out == f"wrote {target}\n"
    assert [json.loads(line)["id"] for line in target.read_text().splitlines()] == ["ADR-0001", "ADR-0002"]
    told = run(capsys, "export", "--format", "bogus", code=2)
    assert told.err == "error: unknown format 'bogus'\nhint: use --format json, jsonl or markdown\n"
    markdown = run(capsys, "export", "--format", "md").out
    assert "Use PostgreSQL" in markdown and "Pool connections" in markdown


def test_site_json_has_the_documented_shape_and_text_says_where(past, capsys, tmp_path):
    out = tmp_path / "site"
    built = run(capsys, "site", "--out", str(out), "--json").json
    assert set(built) == {"out", "index", "decisions", "files", "bytes", "note"}
    assert (built["out"], built["index"], built["decisions"], built["note"]) == (
        str(out),
        str(out / "index.html"),
        2,
        None,
    )
    assert {"index.html", "decisions/ADR-0001.html", "decisions/ADR-0002.html"} <= set(built["files"])
    assert all((out / f).is_file() for f in built["files"])
    assert built["bytes"] == sum((out / f).stat().st_size for f in built["files"])
    again = run(capsys, "site", "--out", str(out)).out.splitlines()
    assert again[0] == f"wrote 2 decisions, {len(built['files'])} files to {os.path.relpath(out)}"
    assert again[1] == f"open {os.path.relpath(out / 'index.html')}"


# ---------------------------------------------------------------------------- commands that write


def test_a_status_verb_says_what_changed_and_json_has_the_documented_shape(folder, capsys):
    done = run(capsys, "accept", "2", "--json").json
    assert done == {
        "id": "ADR-0002",
        "path": "docs/adr/0002-use-postgres.md",
        "status": "accepted",
        "changed": True,
        "decision_makers": [],
        "superseded": [],
        "warnings": done["warnings"],
    }
    # the template's Decision still empty: said at once, as `adr check` says it, with its line
    assert done["warnings"] and all(re.search(r" \(line \d+\)$", w) for w in done["warnings"])
    assert run(capsys, "accept", "2").out == "ADR-0002 is already accepted: docs/adr/0002-use-postgres.md\n"
    assert run(capsys, "deprecate", "2").out == "ADR-0002 is now deprecated: docs/adr/0002-use-postgres.md\n"


def test_accepting_a_template_s_empty_decision_warns_that_it_says_nothing(folder, capsys):
    told = run(capsys, "accept", "3")
    assert told.out == "ADR-0003 is now accepted: docs/adr/0003-queue-jobs-in-redis.md\n"
    assert told.err.startswith("warning: ADR-0003: ")  # Decision still the template's: said now, as check says it


def test_accept_by_names_the_decision_makers(folder, capsys):
    told = run(capsys, "accept", "2", "--by", "Zoe", "--by", "Sam").out.splitlines()
    assert told[:2] == ["ADR-0002 is now accepted: docs/adr/0002-use-postgres.md", "decision-makers: Zoe, Sam"]
    assert run(capsys, "show", "2", "--json").json["status"] == "accepted"


def test_accept_by_on_a_record_without_frontmatter_is_refused_and_writes_nothing(repo, capsys):
    commit(repo, {"docs/adr/0001-a.md": "# 1. Use Redis\n\n## Status\n\nProposed\n\n## Decision\n\nRedis.\n"})
    before = (repo / "docs/adr/0001-a.md").read_bytes()
    told = run(capsys, "accept", "1", "--by", "Zoe", code=2)
    assert told.out == "" and told.err.startswith("error: ") and told.err.count("\n") == 2
    assert (repo / "docs/adr/0001-a.md").read_bytes() == before


def test_supersede_by_a_proposed_record_says_the_old_one_stays_in_force(folder, capsys):
    run(capsys, "accept", "2")
    said = run(capsys, "supersede", "2", "--by", "3").out
    assert said == (
        "ADR-0003 proposes to supersede ADR-0002: ADR-0002 stays in force until ADR-0003 is accepted (adr accept ADR-0003)\n"
    )
    assert run(capsys, "show", "2", "--json").json["standing"]["proposed_successors"] == ["ADR-0003"]
    done = run(capsys, "accept", "3").out
    assert done.splitlines()[-1] == "ADR-0002 superseded by ADR-0003"
    assert run(capsys, "show", "2", "--json").json["standing"]["retired_by"] == ["ADR-0003"]


def test_link_says_both_sides_it_wrote(folder, capsys):
    assert (
        run(capsys, "link", "3", "Amends", "2", "Amended by").out
        == "ADR-0003 amends ADR-0002 (ADR-0002 amended by ADR-0003)\n"
    )
    assert run(capsys, "link", "3", "Relates to", "1").out == "ADR-0003 relates to ADR-0001\n"
    told = run(capsys, "link", "3", "Amends", "9", code=2)
    assert told.err.startswith("error: no decision '9'")


def test_new_reads_its_body_from_a_file_or_stdin_and_refuses_what_it_cannot_read(folder, capsys, tmp_path, monkeypatch):
    import io

    body = tmp_path / "body.md"
    body.write_text("## Context\n\nWe need a cache.\n\n## Decision\n\nUse Redis.\n")
    made = run(capsys, "new", "Cache with Redis", "--body-file", str(body)).out.strip()
    assert made == "docs/adr/0004-cache-with-redis.md" and "Use Redis." in (folder / made).read_text()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"## Decision\n\nFrom stdin.\n")))
    made = run(capsys, "new", "Read stdin", "--body-file", "-").out.strip()
    assert "From stdin." in (folder / made).read_text()
    listed = sorted((folder / "docs/adr").iterdir())
    told = run(capsys, "new", "X", "--body-file", str(tmp_path / "missing.md"), code=2)
    assert (
        told.err
        == f"error: cannot read {tmp_path / 'missing.md'}: No such file or directory\nhint: name a readable file, or - for stdin\n"
    )
    (tmp_path / "latin1.md").write_bytes("Entscheidung f\xfcr Redis\n".encode("latin-1"))
    told = run(capsys, "new", "X", "--body-file", str(tmp_path / "latin1.md"), code=2)
    assert told.err == f"error: {tmp_path / 'latin1.md'} is not UTF-8 text\nhint: re-save it as UTF-8\n"
    assert sorted((folder / "docs/adr").iterdir()) == listed  # nothing written


def test_new_with_a_key_a_decision_in_force_holds_is_refused_unless_it_supersedes(folder, capsys):
    run(
        capsys,
        "new",
        "Use Postgres too",
        "--key",
        "project.primary_database",
        "--value",
        "PostgreSQL",
        "--status",
        "accepted",
    )
    listed = sorted((folder / "docs/adr").iterdir())
    told = run(capsys, "new", "Use MySQL", "--key", "project.primary_database", "--value", "MySQL", code=2)
    assert told.out == "" and told.err.startswith("error: ") and "\nhint: " in told.err
    assert sorted((folder / "docs/adr").iterdir()) == listed
    run(capsys, "new", "Use MySQL", "--key", "project.primary_database", "--value", "MySQL", "-s", "4")
    assert len(list((folder / "docs/adr").iterdir())) == len(listed) + 1


def test_migrate_moves_body_status_into_frontmatter_and_exits_1_for_what_it_leaves(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": "# 1. Use Redis\n\nDate: 2024-02-03\n\n## Status\n\nAccepted\n\n## Decision\n\nRedis.\n",
            "docs/adr/0002-b.md": "# 2. Use Kafka\n\n**Status:** Accepted\n\n## Decision\n\nKafka.\n",
        },
    )
    dry = run(capsys, "migrate", "1", "--dry-run", "--json").json
    assert dry["dry_run"] is True and [m["id"] for m in dry["migrated"]] == ["ADR-0001"]
    assert set(dry["migrated"][0]) == {"id", "path", "moved"} and "status" in dry["migrated"][0]["moved"]
    assert (repo / "docs/adr/0001-a.md").read_text().startswith("# 1. Use Redis")  # a dry run writes nothing
    left = run(capsys, "migrate", "--all", "--json", code=1).json
    assert set(left) == {"dry_run", "migrated", "left", "nothing_to_move"}
    assert [(r["id"], r["path"]) for r in left["left"]] == [("ADR-0002", "docs/adr/0002-b.md")]
    assert left["left"][0]["reason"]
    assert (repo / "docs/adr/0001-a.md").read_text().startswith("---\n")
    assert run(capsys, "migrate", "1", code=0).out.endswith("had nothing to move\n")


def test_new_with_a_template_there_is_none_of_is_refused_as_init_refuses_it(folder, capsys):
    """It was an internal error (exit 3, FileNotFoundError) naming a path in the package."""
    listed = sorted((folder / "docs/adr").iterdir())
    for name in ("bogus", "first", "../madr"):
        told = run(capsys, "new", "Use Redis", "--template", name, code=2)
        assert told.out == ""
        assert told.err == f"error: unknown template {name!r}\nhint: use --template madr or nygard\n"
    assert sorted((folder / "docs/adr").iterdir()) == listed
    assert run(capsys, "new", "Use Redis", "--template", "nygard").out == "docs/adr/0004-use-redis.md\n"


def test_export_to_a_folder_that_is_not_there_is_one_error_and_a_hint(folder, capsys, tmp_path):
    target = tmp_path / "missing" / "decisions.json"
    told = run(capsys, "export", "--output", str(target), code=2)
    assert told.out == "" and not target.exists()
    error, hint = told.err.splitlines()
    assert error == f"error: cannot write {target}: No such file or directory"
    assert hint.startswith("hint: ")
