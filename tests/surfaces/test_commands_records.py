"""The record commands as a user meets them, one folder from `init` on: `new`, `list` and its
filters, `show` (an earlier version too), `log --since`, `diff` between versions, the status
verbs, `supersede`, `link`, `generate toc` and `export`."""

from __future__ import annotations

import json

import pytest

from tests.helpers import commit, run


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
