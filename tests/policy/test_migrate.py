"""`adr migrate`: a record's body statements move into frontmatter, only those lines change,
and nothing git derives (versions, anchors, staleness) moves with them."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import CORPORA, commit, read_only, run, run_mounted, unshare_works

OLD = (
    '---\ngoverns: ["src/**"]\n---\n# 2. Use Postgres\n\nDate: 2020-01-02\n\n## Status\n\n'
    "Superseded by [3. Use Cockroach](0003-use-cockroach.md)\n\nAmends [1. Record](0001-record.md)\n\n"
    "## Context\n\nWe need a database.\n"
)
NEW = (
    "# 3. Use Cockroach\n\nDate: 2020-02-01\n\n## Status\n\nAccepted\n\n"
    "Supersedes [2. Use Postgres](0002-use-postgres.md)\n\n## Decision\n\nCockroach.\n"
)
MADR = "# Record\n\n* Status: accepted\n* Deciders: Ada, Tom\n* Date: 2020-01-01\n\n## Context and Problem Statement\n\nx\n"


@pytest.fixture
def stale_folder(repo, capsys):
    """Three records in three styles; ADR-0003 governs src/ and is stale."""
    commit(
        repo,
        {
            "docs/adr/0001-record.md": MADR,
            "docs/adr/0002-use-postgres.md": OLD,
            "docs/adr/0003-use-cockroach.md": '---\ngoverns: ["src/**"]\n---\n' + NEW,
            "src/db.py": "1\n",
        },
        "records",
    )
    commit(repo, {"src/db.py": "2\n"}, "code")
    return repo


def _derived(capsys):
    listed = json.loads(run(capsys, "list", "--json").out)
    for row in listed:
        del row["status_text"]  # as written: what migrate rewrites
    stale = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    logs = [json.loads(run(capsys, "log", str(n), "--json").out) for n in (1, 2, 3)]
    return listed, stale, logs


def test_migrate_moves_body_statements_and_keeps_every_version_and_anchor(stale_folder, capsys):
    before = _derived(capsys)
    assert [d["state"] for d in before[1] if d["id"] == "ADR-0003"] == ["stale"]
    result = run(capsys, "migrate", "--all")
    assert "ADR-0002: moved status, date, superseded-by, links into frontmatter" in result.out
    assert (stale_folder / "docs/adr/0002-use-postgres.md").read_text() == (
        '---\ngoverns: ["src/**"]\nstatus: superseded\ndate: 2020-01-02\nsuperseded-by: [ADR-0003]\n'
        "links: [{rel: amends, id: ADR-0001}]\n---\n# 2. Use Postgres\n\n\n## Context\n\nWe need a database.\n"
    )
    assert (stale_folder / "docs/adr/0001-record.md").read_text() == (
        "---\nstatus: accepted\ndate: 2020-01-01\n---\n# Record\n\n* Deciders: Ada, Tom\n\n"
        "## Context and Problem Statement\n\nx\n"
    )
    assert _derived(capsys) == before  # uncommitted: no draft version either
    commit(stale_folder, {}, "migrate")
    after = _derived(capsys)
    assert after[0] == before[0] and after[2] == before[2]
    assert [(d["id"], d["state"]) for d in after[1]] == [(d["id"], d["state"]) for d in before[1]]
    governing = [[(d["anchor"], d["changed"]) for d in run_[1] if d["id"] == "ADR-0003"] for run_ in (before, after)]
    assert governing[0] == governing[1]  # still stale, anchored where it was
    run(capsys, "deprecate", "3")  # lifecycle edits now go to frontmatter
    assert "status: deprecated" in (stale_folder / "docs/adr/0003-use-cockroach.md").read_text()


def test_a_dry_run_shows_the_change_and_writes_nothing(stale_folder, capsys):
    texts = {p: p.read_bytes() for p in (stale_folder / "docs/adr").iterdir()}
    result = run(capsys, "migrate", "2", "--dry-run")
    assert "-## Status" in result.out and "+status: superseded" in result.out
    assert result.out.rstrip().endswith("would migrate 1 record(s); 0 left as they are; 0 had nothing to move")
    assert {p: p.read_bytes() for p in (stale_folder / "docs/adr").iterdir()} == texts
    shape = json.loads(run(capsys, "migrate", "--all", "--dry-run", "--json").out)
    assert shape == {
        "dry_run": True,
        "left": [],
        "nothing_to_move": [],
        "migrated": [
            {"id": "ADR-0001", "path": "docs/adr/0001-record.md", "moved": ["status", "date"]},
            {
                "id": "ADR-0002",
                "path": "docs/adr/0002-use-postgres.md",
                "moved": ["status", "date", "superseded-by", "links"],
            },
            {"id": "ADR-0003", "path": "docs/adr/0003-use-cockroach.md", "moved": ["status", "date", "supersedes"]},
        ],
    }


LEFT = {
    "docs/adr/0004-prose.md": "# 4. Prose\n\n## Status\n\nAccepted\n\nAgreed at the May meeting.\n\n## Context\n\nx\n",
    "docs/adr/0005-table.md": "# 5. Table\n\n| Status | Implemented |\n|---|---|\n\n## Context\n\nx\n",
    "docs/adr/0006-both.md": "---\nstatus: accepted\n---\n# 6. Both\n\n## Status\n\nProposed\n\n## Context\n\nx\n",
    "docs/adr/0007-twice.md": "# 7. Twice\n\nDate: 2020-01-01\nDate: 2021-01-01\n\n## Context\n\nx\n",
    "docs/adr/0010-bold.md": "# 10. Bold\n\n**Status:** Accepted\n\n## Context\n\nx\n",
    # phodal's dated log, one entry so far: its date is no reason, and the log is the record's
    "docs/adr/0011-log.md": "# 11. Log\n\nDate: 2018-10-16\n\n## Status\n\n2018-10-16 proposed\n\n## Context\n\nx\n",
}


def test_records_that_say_more_are_left_byte_for_byte(repo, capsys):
    crlf = "\ufeff# 8. Windows\r\n\r\nDate: 2021-03-04\r\n\r\n## Status\r\n\r\nAccepted\r\n\r\n## Context\r\n\r\nx\r\n"
    commit(
        repo,
        {
            **LEFT,
            "docs/adr/0008-windows.md": crlf.encode("utf-8"),
            "docs/adr/0009-plain.md": "# Plain\n\nNo status stated.\n",
        },
    )
    result = run(capsys, "migrate", "--all", code=1)  # something was left: not done
    for path, reason in (
        ("0004", "its Status section says more than a status and its links"),
        ("0005", "its status is in a metadata table, which migrate leaves as it is"),
        ("0006", "its frontmatter and its body both state a status or a date"),
        ("0007", "it has 2 Date: lines"),
        ("0010", "its status is in a line of its own style (`**Status:** Accepted`), which migrate leaves as it is"),
        ("0011", "its Status section logs each status with its date"),
    ):
        assert f"ADR-{path}: left as it is: {reason}" in result.out
        assert (repo / f"docs/adr/{path}-{LEFT_NAMES[path]}.md").read_text() == LEFT[
            f"docs/adr/{path}-{LEFT_NAMES[path]}.md"
        ]
    assert (repo / "docs/adr/0008-windows.md").read_bytes().decode("utf-8") == (
        "\ufeff---\r\nstatus: accepted\r\ndate: 2021-03-04\r\n---\r\n# 8. Windows\r\n\r\n\r\n## Context\r\n\r\nx\r\n"
    )
    assert result.out.rstrip().endswith("migrated 1 record(s); 6 left as they are; 1 had nothing to move")


LEFT_NAMES = {"0004": "prose", "0005": "table", "0006": "both", "0007": "twice", "0010": "bold", "0011": "log"}


def test_migrate_needs_ids_or_all(repo, capsys):
    commit(repo, {"docs/adr/0001-record.md": MADR})
    assert run(capsys, "migrate", code=2).err.startswith("error: name the records to migrate, or --all")


@pytest.mark.parametrize("corpus", ["cloud-platform", "cometbft", "tdr"])
def test_a_real_folder_migrates_with_nothing_git_derives_changed(repo, capsys, corpus):
    shutil.copytree(CORPORA / corpus, repo / "docs/adr")
    commit(repo, {}, "import")
    before = json.loads(run(capsys, "list", "--json").out)
    found = _findings(capsys)
    result = run(capsys, "migrate", "--all", code=None)
    assert result.code == (0 if "; 0 left as they are" in result.out else 1), result.err  # 1: some refused
    moved = sum(line.endswith("into frontmatter") for line in result.out.splitlines())
    assert moved == {"cloud-platform": 48, "cometbft": 76, "tdr": 1}[corpus]  # as docs/formats.md says
    commit(repo, {}, "migrate")
    after = json.loads(run(capsys, "list", "--json").out)
    strip = [{k: v for k, v in row.items() if k != "status_text"} for row in before]
    assert [{k: v for k, v in row.items() if k != "status_text"} for row in after] == strip
    assert _findings(capsys) == found


def _findings(capsys):
    """What `adr check` finds, by kind and record (lines move by the frontmatter's height)."""
    report = json.loads(run(capsys, "check", "--format", "json", code=0).out)
    return sorted((f["kind"], f["id"], f["severity"]) for f in report["findings"])


@pytest.mark.skipif(not unshare_works(), reason="needs unshare for a read-only bind mount")
def test_a_migration_whose_last_write_fails_writes_nothing(stale_folder):
    """The third record is mounted read-only: the first two, already written, are put back."""
    before = {p: p.read_bytes() for p in (stale_folder / "docs/adr").iterdir()}
    done = run_mounted(stale_folder, read_only(stale_folder / "docs/adr/0003-use-cockroach.md"), "migrate", "--all")
    assert done.returncode == 2 and done.stderr.startswith("error: cannot write"), done.stderr
    assert "Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in (stale_folder / "docs/adr").iterdir()} == before


@pytest.mark.parametrize(
    "status,reason",
    [
        ("Superseded by ADR-5: the ADR process changed", "the ADR process changed"),
        ("Deprecated: the service is gone", "the service is gone"),
        ("Superseded by ADR-5 and ADR-6", ""),
        ("Accepted; supersedes ADR-3", ""),
    ],
)
def test_the_reason_a_status_gives_moves_whole_and_its_links_do_not_repeat_in_it(status, reason):
    from adr_memory import records
    from adr_memory.policy import migrate

    rec = records.parse(f"# 1. X\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0001-x.md")
    assert migrate._reason(rec) == reason


@pytest.mark.parametrize(
    ("before", "after", "moved"),
    [
        # adr-tools: the date line and the Status section go, exactly those lines (the digest leaves
        # them out too: every version stays as it was).
        (
            "# 1. A\n\nDate: 2020-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
            "---\nstatus: accepted\ndate: 2020-01-02\n---\n# 1. A\n\n\n## Context\n\nc\n",
            ("status", "date"),
        ),
        (
            "# 1. A\n\nDate: 2020-01-02\n\n## Status\n\nSuperseded by [2. B](0002-b.md)\n\n## Context\n\nc\n",
            "---\nstatus: superseded\ndate: 2020-01-02\nsuperseded-by: [ADR-0002]\n---\n# 1. A\n\n\n## Context\n\nc\n",
            ("status", "date", "superseded-by"),
        ),
        # A relation of its own naming becomes a `links:` entry.
        (
            "# 1. A\n\n## Status\n\nAccepted\n\nAmends [2. B](0002-b.md)\n\n## Context\n\nc\n",
            "---\nstatus: accepted\nlinks: [{rel: amends, id: ADR-0002}]\n---\n# 1. A\n\n## Context\n\nc\n",
            ("status", "links"),
        ),
        (
            "# 1. A\n\nStatus: Proposed\nDate: 2021-03-04\n\n## Context\n\nc\n",
            "---\nstatus: proposed\ndate: 2021-03-04\n---\n# 1. A\n\n\n## Context\n\nc\n",
            ("status", "date"),
        ),
        # A status word of the folder's own is kept as written; a reason, as the reason.
        (
            "# 1. A\n\n## Status\n\nBanana\n\n## Context\n\nc\n",
            "---\nstatus: Banana\n---\n# 1. A\n\n## Context\n\nc\n",
            ("status",),
        ),
        (
            "# 1. A\n\n## Status\n\nDeprecated: the service is gone\n\n## Context\n\nc\n",
            "---\nstatus: deprecated\nstatus-reason: the service is gone\n---\n# 1. A\n\n## Context\n\nc\n",
            ("status", "status-reason"),
        ),
    ],
)
def test_what_the_body_states_of_its_lifecycle_moves_into_frontmatter(before, after, moved):
    from adr_memory.policy import migrate

    assert migrate.migrated(before, "docs/adr/0001-a.md") == (after, moved, None)


@pytest.mark.parametrize(
    ("text", "path", "why"),
    [
        ("# 1. A\n\n## Context\n\nc\n", "docs/adr/0001-a.md", None),  # nothing stated: nothing to move
        (
            "# 1. A\n\n| Status | Accepted |\n\n## Context\n\nc\n",
            "docs/adr/0001-a.md",
            "its status is in a metadata table, which migrate leaves as it is",
        ),
        (
            "# 1. A\n\n## Status: Accepted\n\n## Context\n\nc\n",
            "docs/adr/0001-a.md",
            "its status is in a heading, which migrate leaves as it is",
        ),
        (
            "# 1. A\n\n## Status\n\n- 2020-01-01: Proposed\n- 2020-02-01: Accepted\n\n## Context\n\nc\n",
            "docs/adr/0001-a.md",
            "its Status section logs each status with its date",
        ),
        (
            "# 1. A\n\nStatus: Proposed\nStatus: Accepted\n\n## Context\n\nc\n",
            "docs/adr/0001-a.md",
            "it has 2 Status: lines",
        ),
        (
            "# 1. A\n\n## Status\n\nAccepted\n\nWe also said more here.\n\n## Context\n\nc\n",
            "docs/adr/0001-a.md",
            "its Status section says more than a status and its links",
        ),
        (
            "Use X\n=====\n\nStatus\n------\n\nAccepted\n",
            "docs/adr/0001-a.rst",
            "a reStructuredText record has no frontmatter: its status stays where its readers see it",
        ),
        ("Use X\n=====\n\nText\n", "docs/adr/0001-a.rst", None),
    ],
)
def test_a_record_migrate_cannot_move_whole_is_left_as_written_and_says_why(text, path, why):
    from adr_memory.policy import migrate

    assert migrate.migrated(text, path) == (text, (), why)


def test_the_json_report_sorts_each_record_into_what_happened_to_it():
    from adr_memory.policy import migrate

    outcomes = [
        migrate.Outcome("ADR-0001", "docs/adr/0001-a.md", moved=("status", "date")),
        migrate.Outcome("ADR-0002", "docs/adr/0002-b.md", refused="its Status section logs each status"),
        migrate.Outcome("ADR-0003", "docs/adr/0003-c.md"),
    ]
    assert migrate.as_json(outcomes, dry_run=True) == {
        "dry_run": True,
        "migrated": [{"id": "ADR-0001", "path": "docs/adr/0001-a.md", "moved": ["status", "date"]}],
        "left": [{"id": "ADR-0002", "path": "docs/adr/0002-b.md", "reason": "its Status section logs each status"}],
        "nothing_to_move": ["ADR-0003"],
    }
