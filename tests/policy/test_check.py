"""The malformed-file zoo: every bad file gets a named problem, no traceback, no file modified."""

from __future__ import annotations

import hashlib
import json
import os
import shutil

import pytest

from adr_memory.policy import check
from adr_memory.records import catalog
from tests.helpers import CORPORA, commit, git, run, write

GOOD = "---\nstatus: accepted\n---\n# Good\n\n## Decision\n\nYes.\n"

ZOO: dict[str, tuple[bytes | str, str]] = {
    "0001-broken-yaml.md": ("---\nstatus: [accepted\n---\n# T\n", "yaml"),
    "0002-yaml-tabs.md": ("---\nstatus:\taccepted\n\tx: 1\n---\n# T\n", "yaml"),
    "0003-yaml-list.md": ("---\n- a\n- b\n---\n# T\n", "yaml"),
    "0004-binary.md": (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    "0005-huge.md": (b"# Huge\n" + b"x" * 10_000_000, "too-large"),
    "0006-latin1.md": ("---\nstatus: accepted\n---\n# Caf\xe9\n".encode("latin-1"), "encoding"),
    "0007-no-status.md": ("# Nothing said\n\nbody\n", None),  # in force: MADR status is optional
    "0008-odd-status.md": ("---\nstatus: banana\n---\n# T\n", "status"),
    "0009-dup.md": ("---\nstatus: accepted\n---\n# A\n", "duplicate-id"),
    "0009-dup-again.md": ("---\nstatus: accepted\n---\n# B\n", "duplicate-id"),
    "0010-id-mismatch.md": ("---\nid: ADR-0099\nstatus: accepted\n---\n# T\n", "id-mismatch"),
    "0011-abs-glob.md": ('---\nstatus: accepted\ngoverns: ["/etc/passwd"]\n---\n# T\n', "governs"),
    "0012-dotdot-glob.md": ('---\nstatus: accepted\ngoverns: ["../x/**"]\n---\n# T\n', "governs"),
    "0013-bad-class.md": ('---\nstatus: accepted\ngoverns: ["src/[a.py"]\n---\n# T\n', "governs"),
    "0014-governs-map.md": ("---\nstatus: accepted\ngoverns: {a: 1}\n---\n# T\n", "schema"),
    # The finding lands on the file that must change (0016), so 0015 itself is clean.
    "0015-one-sided.md": ("---\nstatus: accepted\nsupersedes: [ADR-0016]\n---\n# T\n", ""),
    "0016-old.md": ("---\nstatus: accepted\n---\n# Old\n", "supersession"),
    "0017-unknown-link.md": ("---\nstatus: accepted\nrelates-to: [ADR-0999]\n---\n# T\n", "unknown-link"),
    "0018-cycle-a.md": ("---\nstatus: superseded\nsupersedes: [19]\nsuperseded-by: [19]\n---\n# A\n", "cycle"),
    "0019-cycle-b.md": ("---\nstatus: superseded\nsupersedes: [18]\nsuperseded-by: [18]\n---\n# B\n", "cycle"),
    "0020-no-title.md": ("---\nstatus: accepted\n---\nJust text.\n", "title"),
    "0021-crlf-bad.md": ("---\r\nstatus: [x\r\n---\r\n# T\r\n", "yaml"),
    "0022-bom-bad.md": ("\ufeff---\nstatus: nope\n---\n# T\n", "status"),
    "0023-cr-only.md": ("---\rstatus: wat\r---\r# T\r", "status"),
    "0024-superseded-alone.md": ("---\nstatus: superseded\n---\n# T\n", "supersession"),
    "0025-title-list.md": ("---\ntitle: [a, b]\nstatus: accepted\n---\n# T\n", "schema"),
    "0026-tags-map.md": ("---\ntags: {a: 1}\nstatus: accepted\n---\n# T\n", "schema"),
    "0027-reviewed-text.md": ("---\nreviewed: yesterday\nstatus: accepted\n---\n# T\n", "schema"),
    "0028-empty.md": ("", "title"),
    "0029-rules-map.md": ("---\nrules: {forbid: x}\nstatus: accepted\n---\n# T\n", "schema"),
    "0030-unclosed-frontmatter.md": ("---\nstatus: accepted\n# T\n", "yaml"),
    "0031-backslash-glob.md": ('---\nstatus: accepted\ngoverns: ["src\\\\db"]\n---\n# T\n', "governs"),
    "0032-nygard-unknown-link.md": ("# 32. T\n\n## Status\n\nAccepted\n\nAmends [999. X](0999-x.md)\n", "unknown-link"),
    "0033-merge-markers.md": (
        "---\nstatus: accepted\n---\n# T\n\n<<<<<<< HEAD\nUse A.\n=======\nUse B.\n>>>>>>> topic\n",
        "merge-conflict",
    ),
    # A heading underlined with `=======`, and markers shown inside fenced code, are no conflict.
    "0035-title-run-into-the-body.md": (
        "---\nstatus: accepted\n---\n# Use X " + "because of this " * 20 + "\n",
        "title",
    ),
    "0034-setext-and-fenced-markers.md": (
        "---\nstatus: accepted\n---\nT\n=======\n\n```\n<<<<<<< HEAD\n=======\n>>>>>>> x\n```\n",
        "",
    ),
    # Hugo's TOML frontmatter: read, and when it cannot be, said so (it is no YAML).
    "0036-hugo-toml.md": ('+++\ntitle = "T"\nstatus = "accepted"\n\n[params]\nx = 1\n+++\n\n## Context\n\nc\n', ""),
    "0037-bad-toml.md": ('+++\ntitle = "T\nstatus = "accepted"\n+++\n# T\n', "toml"),
    "0038-unclosed-toml.md": ('+++\nstatus = "accepted"\n# T\n', "toml"),
    "0039-toml-status-typo.md": ('+++\nstatus = "acepted"\n+++\n# T\n', "status"),
    # Frontmatter and body disagreeing on the status: the page says one thing, the tool reads another.
    "0040-status-told-twice.md": ("---\nstatus: accepted\n---\n# T\n\n## Status\n\nProposed\n", "status"),
    "0041-status-told-twice-alike.md": ("---\nstatus: accepted\n---\n# T\n\n## Status\n\nAccepted\n", ""),
    # Windows PowerShell 5's `>` and `Out-File` write UTF-16 with a BOM: read, never edited.
    "0042-utf16.md": ("# 42. Use X\n\n## Status\n\nProposed\n".encode("utf-16"), "encoding"),
}


def _digests(root):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def zoo(repo):
    files = {f"docs/adr/{name}": content for name, (content, _) in ZOO.items()}
    files["docs/adr/0100-good.md"] = GOOD
    write(repo, files)
    os.symlink("/etc/hostname", repo / "docs/adr/0101-symlink-out.md")
    return repo


def test_every_malformed_file_gets_its_named_problem(zoo):
    findings = check.lint(catalog.read_worktree(zoo, "docs/adr"))
    kinds: dict[str, set[str]] = {}
    for f in findings:
        kinds.setdefault(f.path.rsplit("/", 1)[-1], set()).add(f.kind)
    for name, (_, expected) in ZOO.items():
        if expected:
            assert expected in kinds.get(name, set()), (name, kinds.get(name))
    assert "symlink" in kinds["0101-symlink-out.md"]
    assert "0100-good.md" not in kinds


def test_check_cli_reports_every_problem_modifies_nothing_and_never_tracebacks(zoo, capsys):
    before = _digests(zoo)
    result = run(capsys, "check", code=1)
    assert "Traceback" not in result.out + result.err
    assert _digests(zoo) == before
    for name, (_, expected) in ZOO.items():
        assert not expected or f"docs/adr/{name}:" in result.out, name
    as_json = run(capsys, "check", "--format", "json", code=1)
    import json

    data = json.loads(as_json.out)
    assert data["ok"] is False
    assert {"kind", "severity", "id", "path", "line", "message", "hint"} <= set(data["findings"][0])


def test_check_with_paths_reports_only_those_files(zoo, capsys):
    result = run(capsys, "check", "docs/adr/0100-good.md", code=0)
    assert result.out == ""
    result = run(capsys, "check", "docs/adr/0001-broken-yaml.md", code=1)
    assert "docs/adr/0001-broken-yaml.md:3: error: yaml: frontmatter is not valid YAML" in result.out
    assert "0002" not in result.out


def test_list_and_show_survive_the_zoo(zoo, capsys):
    run(capsys, "list", "--json")
    run(capsys, "list")
    run(capsys, "show", "4")


def test_editing_a_record_with_broken_yaml_is_refused_and_the_file_kept(zoo, capsys):
    before = (zoo / "docs/adr/0001-broken-yaml.md").read_bytes()
    result = run(capsys, "accept", "1", code=2)
    assert result.err.startswith("error: docs/adr/0001-broken-yaml.md cannot be edited safely")
    assert "\nhint: " in result.err
    assert (zoo / "docs/adr/0001-broken-yaml.md").read_bytes() == before


@pytest.mark.parametrize("name", ["cloud-platform", "cometbft"])
def test_check_runs_on_the_shared_corpora_without_a_traceback(tmp_path, monkeypatch, capsys, name):
    from tests.helpers import git

    git(tmp_path, "init", "-q")
    shutil.copytree(CORPORA / name, tmp_path / "docs/adr")
    (tmp_path / "docs/adr/SOURCE.md").unlink()
    monkeypatch.chdir(tmp_path)
    result = run(capsys, "check", "--format", "json", code=None)
    assert result.code in (0, 1) and "Traceback" not in result.err


def test_a_record_without_status_is_in_force_and_warned_about_only_when_required(repo, capsys):
    write(repo, {"docs/adr/0001-a.md": "# Nothing said\n\nbody\n"})
    assert run(capsys, "check").out == ""
    row = json.loads(run(capsys, "list", "--json").out)[0]
    assert (row["status"], row["status_text"], row["status_stated"]) == ("accepted", "", False)
    listed = run(capsys, "list").out  # the status cell wraps in its column: "accepted", "(unstated)"
    assert "accepted" in listed and "(unstated)" in listed
    write(repo, {".adr-memory.toml": "require-status = true\n"})
    out = run(capsys, "check").out
    assert "docs/adr/0001-a.md:1: warning: status: no status (read as accepted)" in out


def test_supersession_loops_are_found_on_the_records_every_search_found(tmp_path):
    """Loops were looked for from every record, edges gathered record against record: 6,000
    records took 30 s of `adr check`. Now only records on a loop (strongly connected) and not yet
    in a reported loop start a search. On random graphs the records reported are those every
    search from every record reported; a ring of 3,000 is one loop, each member named once."""
    import random

    def every_search(edges):
        flagged = set()
        for start in edges:
            flagged.update(check._cycle_from(start, edges) or [])
        return flagged

    rng = random.Random(3)
    looped = 0
    for _ in range(300):
        ids = [f"ADR-{n:04d}" for n in range(1, rng.randint(2, 25))]
        edges = {i: {rng.choice(ids) for _ in range(rng.randint(0, 2))} for i in ids}
        assert check._on_loops(edges) == every_search(edges)
        looped += bool(every_search(edges))
    assert 50 < looped < 300  # graphs with loops and without

    write(
        tmp_path,
        {
            f"docs/adr/{n:04d}-r.md": f"---\nstatus: superseded\nsuperseded-by: [{n % 3000 + 1}]\n---\n# R{n}\n"
            for n in range(1, 3001)
        },
    )
    found = [f for f in check.lint(catalog.read_worktree(tmp_path, "docs/adr")) if f.kind == "cycle"]
    assert len(found) == 3000 and {f.message for f in found} == {
        "supersession cycle: ADR-0001 -> ADR-3000 -> ADR-2999 -> ADR-2998 -> ADR-2997 -> ADR-2996 -> "
        "... (3,000 decisions)"
    }  # each is superseded by the next: ADR-0001 supersedes ADR-3000


def test_a_real_merge_conflict_is_named_and_the_record_is_not_edited(repo, capsys):
    """git writes its markers into the frontmatter too, where they were a `yaml` error before
    (and in the body, where `adr check` saw no problem at all)."""
    import subprocess

    from tests.helpers import adr_text, commit, git

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed", body="Use A.")}, "base")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="rejected", body="Use B.")}, "side")
    git(repo, "checkout", "-q", "-")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="accepted", body="Use C.")}, "main")
    assert subprocess.run(["git", "merge", "-q", "side"], cwd=repo, capture_output=True).returncode == 1
    before = (repo / "docs/adr/0001-a.md").read_bytes()
    out = run(capsys, "check", "--format", "json", code=1).out
    kinds = {f["kind"]: f["line"] for f in json.loads(out)["findings"]}
    assert kinds["merge-conflict"] == before.decode().splitlines().index("<<<<<<< HEAD") + 1
    err = run(capsys, "accept", "1", code=2).err
    assert "unresolved merge conflict" in err and "hint:" in err
    assert (repo / "docs/adr/0001-a.md").read_bytes() == before


def test_a_decision_written_without_a_number_beside_numbered_ones_is_named(repo, capsys):
    from adr_memory.surfaces.hook import main as hook

    commit(
        repo,
        {
            "docs/adr/0001-use-x.md": "# 1. Use X\n\n## Status\n\nAccepted\n",
            "docs/adr/use-kafka.md": "# Use Kafka\n\n## Context\n\nc\n\n## Decision\n\nd\n",
            "docs/adr/guidelines.md": "# How we write ADRs\n\nGuidance.\n\n## Naming\n\nx\n",
        },
    )
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    assert [(f["kind"], f["path"], f["severity"], f["hint"]) for f in found] == [
        ("unnamed", "docs/adr/use-kafka.md", "warning", "git mv docs/adr/use-kafka.md docs/adr/0002-use-kafka.md")
    ]
    assert [r["id"] for r in json.loads(run(capsys, "list", "--json").out)] == ["ADR-0001"]
    run(capsys, "check", "--fail-on", "unnamed", code=1)
    assert hook(["lint", "docs/adr/use-kafka.md", "docs/adr/guidelines.md"]) == 0
    assert "use-kafka.md:1: warning: unnamed" in capsys.readouterr().out
    git(repo, "mv", "docs/adr/0001-use-x.md", "docs/adr/adr001-use-x.md")
    found = json.loads(run(capsys, "check", "--format", "json").out)["findings"]
    assert [f["hint"] for f in found] == ["git mv docs/adr/use-kafka.md docs/adr/adr002-use-kafka.md"]


def test_a_utf16_record_is_read_and_no_command_edits_it(repo, capsys):
    """A record saved as UTF-16 (with its byte-order mark) was "binary": listed as an unstated,
    accepted decision titled by its file name, and `adr check` said to move it out."""
    data = "# 2. Use Kafka\r\n\r\n## Status\r\n\r\nProposed\r\n\r\n## Context\r\n\r\nQueues.\r\n".encode("utf-16")
    commit(repo, {"docs/adr/0002-use-kafka.md": data})
    row = json.loads(run(capsys, "list", "--json").out)[0]
    assert (row["title"], row["status"], row["status_stated"]) == ("Use Kafka", "proposed", True)
    err = run(capsys, "accept", "2", code=2).err
    assert (
        err.startswith("error: docs/adr/0002-use-kafka.md cannot be edited safely: file is UTF-16") and "hint:" in err
    )
    assert (repo / "docs/adr/0002-use-kafka.md").read_bytes() == data
    found = json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]
    assert [(f["kind"], f["severity"]) for f in found] == [("encoding", "error")]


def test_a_glob_that_matches_nothing_warns_and_a_branch_that_writes_one_fails(repo, capsys):
    """A typo'd `governs` glob governs nothing and never goes stale: `check` says so."""
    import json

    from tests.helpers import adr_text, commit, git, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"}, "base")
    assert run(capsys, "check", "--format", "json").out.count("scope-missing") == 0
    git(repo, "checkout", "-q", "-b", "typo")
    commit(repo, {"docs/adr/0002-b.md": adr_text("B", governs=["scr/**"])}, "a typo")
    found = json.loads(run(capsys, "check", "--format", "json", code=0).out)["findings"]
    (warned,) = [f for f in found if f["kind"] == "scope-missing"]
    assert (warned["severity"], warned["id"], warned["line"]) == ("warning", "ADR-0002", 4)
    failed = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)["findings"]
    (error,) = [f for f in failed if f["kind"] == "scope-missing"]
    assert error["severity"] == "error" and "this branch wrote it" in error["message"]


def test_frontmatter_findings_point_at_their_key_s_line(repo, capsys):
    """The status and secret checks reported frontmatter findings at line 1."""
    import json

    from tests.helpers import commit, run

    text = (
        "---\ntitle: Use X\ndate: 2024-01-02\nstatus: acceptd-ish\nowner: team\n"
        "notes: DB_PASSWORD=Hunter2Secret99\n---\n# Use X\n\n## Decision\n\nX.\n"
    )
    commit(repo, {"docs/adr/0001-x.md": text})
    found = {f["kind"]: f["line"] for f in json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]}
    assert found["status"] == 4 and found["secret"] == 6


def test_a_status_a_letter_or_two_from_a_known_one_is_an_error_that_says_which(repo, capsys):
    """`status: acceptd` passed the pre-commit hook as a warning: the record read as not in force."""
    import json

    from adr_memory.surfaces.hook import main
    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0001-x.md": adr_text("Use X", status="acceptd"),
            "docs/adr/0002-y.md": adr_text("Y", status="Ongoing"),
        },
    )
    found = json.loads(run(capsys, "check", "--format", "json", code=1).out)["findings"]
    (typo,) = [f for f in found if f["path"].endswith("0001-x.md")]
    assert typo["severity"] == "error" and typo["message"].endswith("did you mean accepted?")
    assert typo["hint"] == "write status: accepted"
    (draft,) = [f for f in found if f["path"].endswith("0002-y.md")]
    assert draft["severity"] == "warning"  # a word of the folder's own, not a typo
    assert main(["lint", "docs/adr/0001-x.md"]) == 1


# ---------------------------------------------------------------------------- lint, record by record
# The findings of `lint` on records read from text: each one's line, kind, severity, message and
# hint, as `adr check` prints them.


def _catalog(files, unnamed=None):
    from adr_memory.records import Catalog, parse

    def read(named):
        return tuple(parse(text, f"docs/adr/{name}") for name, text in (named or {}).items())

    return Catalog("docs/adr", read(files), read(unnamed))


def _said(findings):
    return [(f.path.rsplit("/", 1)[-1], f.line, f.kind, f.severity, f.message, f.hint) for f in findings]


STATUSES = "proposed, accepted, rejected, deprecated, superseded"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "---\nstatus: acceptd\n---\n# A\n",
            [
                (
                    2,
                    "status",
                    "error",
                    f"status 'acceptd' is not one of {STATUSES}: did you mean accepted?",
                    "write status: accepted",
                )
            ],
        ),
        (
            "---\ntitle: B\ndate: 2024-01-01\nstatus: Ongoing\n---\n# B\n",
            [
                (
                    4,
                    "status",
                    "warning",
                    f"status 'Ongoing' is not one of {STATUSES}",
                    "start the status with one of those words; the rest of the text is kept",
                )
            ],
        ),
        (
            "# 1. A\n\n## Status\n\nDeprectaed\n",  # a body's status line: the finding points at it
            [
                (
                    5,
                    "status",
                    "error",
                    f"status 'Deprectaed' is not one of {STATUSES}: did you mean deprecated?",
                    "write status: deprecated",
                )
            ],
        ),
        (
            "---\nstatus: superseded\n---\n# C\n",
            [
                (
                    2,
                    "supersession",
                    "warning",
                    "superseded, but by which decision is not said",
                    "adr supersede OLD --by NEW",
                )
            ],
        ),
        (
            "---\nstatus: accepted\n---\nno title\n",
            [
                (
                    4,
                    "title",
                    "warning",
                    "no title (no `# ` heading, no `title:`)",
                    "start the body with `# Title of the decision`",
                )
            ],
        ),
        (
            "---\nstatus: accepted\n---\n# " + "x" * 300 + "\n",
            [
                (
                    4,
                    "title",
                    "warning",
                    "the title is 300 characters: lists and agents show its first 200",
                    "name the decision in a few words; the rest belongs in the body (a blank line after the heading?)",
                )
            ],
        ),
        (
            "---\nid: ADR-0099\nstatus: accepted\n---\n# F\n",
            [
                (
                    2,  # the line that writes `id:`
                    "id-mismatch",
                    "error",
                    "id ADR-0099 does not match the file number 1",
                    "rename the file or fix `id:`; ids must not change",
                )
            ],
        ),
        ("---\nid: SEC-12\nstatus: accepted\n---\n# F\n", []),  # a custom id is no ADR number to match
        (
            '---\nstatus: accepted\ngoverns: ["**/x.py", "/abs", "src/**"]\n---\n# G\n',
            [
                (
                    3,  # the line that writes `governs:`
                    "glob-prefix",
                    "warning",
                    "governs glob '**/x.py' has no folder prefix; staleness must diff the whole tree for it",
                    'anchor it, e.g. "src/**/x.py" rather than "**/x.py"',
                ),
                (
                    3,
                    "governs",
                    "error",
                    "governs glob '/abs' is absolute; globs are relative to the repository root",
                    'globs are repo-relative, e.g. "src/db/**"',
                ),
            ],
        ),
        (
            "---\nstatus: accepted\n---\n# H\n\n## Context\n\nc\n\n## Decision\n\n## Consequences\n\n"
            "<!-- What becomes easier -->\n",
            [
                (
                    10,
                    "placeholder",
                    "warning",
                    "section 'Decision' is empty",
                    "write what was decided and what follows from it, or delete the heading",
                ),
                (
                    12,
                    "placeholder",
                    "warning",
                    "section 'Consequences' still holds the template's placeholders",
                    "write the section, or delete it if it does not apply",
                ),
            ],
        ),
        # A proposal may still be a template: only an accepted decision must say what it decided.
        ("---\nstatus: proposed\n---\n# H\n\n## Decision\n\n## Consequences\n\n<!-- later -->\n", []),
        # An empty section with subsections has its text below them; an empty "More Information" may be meant.
        ("---\nstatus: accepted\n---\n# H\n\n## Decision\n\n### Details\n\nd\n\n## More Information\n", []),
        (
            "---\nstatus: accepted\nrelates-to: [ADR-0999, platform:3]\n---\n# I\n",  # a source's id is checked elsewhere
            [(3, "unknown-link", "warning", "relates-to ADR-0999: no such decision", "`adr list` shows the ids")],
        ),
        ("# J\n\nbody\n", []),  # no status: in force, said nothing of unless required
    ],
)
def test_each_finding_of_a_record_names_its_line_kind_severity_and_fix(text, said):
    assert [s[1:] for s in _said(check.lint(_catalog({"0001-a.md": text})))] == said


def test_a_record_without_status_is_warned_about_when_the_folder_requires_one():
    found = check.lint(_catalog({"0001-a.md": "# J\n\nbody\n"}), require_status=True)
    assert _said(found) == [
        (
            "0001-a.md",
            1,
            "status",
            "warning",
            "no status (read as accepted)",
            'add "status: accepted" to the frontmatter or a "## Status" section',
        )
    ]


def test_a_restructuredtext_record_without_a_title_is_told_how_rst_writes_one():
    found = check.lint(_catalog({"0001-a.rst": ".. comment\n\nJust text.\n"}))
    assert [(f.kind, f.message, f.hint) for f in found] == [
        (
            "title",
            "no title (no section title before the first section)",
            "start the file with the title over a line of `=` as long as it",
        )
    ]


def test_frontmatter_that_does_not_parse_is_not_also_said_to_lack_a_status_or_title():
    found = check.lint(_catalog({"0001-a.md": "---\nstatus: [accepted\n---\n# T\n"}), require_status=True)
    assert [f.kind for f in found] == ["yaml"]


def test_records_sharing_an_id_loops_of_supersession_and_unnumbered_decisions_are_named():
    superseded = "---\nstatus: superseded\nsupersedes: [ADR-{0}]\nsuperseded-by: [ADR-{0}]\n---\n# T\n"
    found = check.lint(
        _catalog(
            {
                "0001-a.md": "---\nstatus: accepted\n---\n# A\n",
                "0001-b.md": "---\nstatus: accepted\n---\n# B\n",
                "0002-c.md": superseded.format("0003"),
                "0003-d.md": superseded.format("0002"),
                "0004-e.md": superseded.format("0004"),  # a decision that replaced itself
            },
            unnamed={
                "use-kafka.md": "# Use Kafka\n\n## Context\n\nc\n\n## Decision\n\nd\n",
                "use-redis.md": "# Use Redis\n\n## Decision\n\nd\n",
            },
        )
    )
    duplicate = "ADR-0001 is used by 2 files: docs/adr/0001-a.md, docs/adr/0001-b.md"
    unnamed = (
        "reads like a decision, but its name has no number, so it is no record: list, search and stale do not see it"
    )
    assert [(f.path.rsplit("/", 1)[-1], f.kind, f.severity, f.message, f.hint) for f in found] == [
        ("0001-a.md", "duplicate-id", "error", duplicate, "renumber the newer one (`git mv`), then fix links to it"),
        ("0001-b.md", "duplicate-id", "error", duplicate, "renumber the newer one (`git mv`), then fix links to it"),
        (
            "0002-c.md",
            "cycle",
            "error",
            "supersession cycle: ADR-0002 -> ADR-0003 -> ADR-0002",
            "one of these decisions must be the current one",
        ),
        (
            "0003-d.md",
            "cycle",
            "error",
            "supersession cycle: ADR-0002 -> ADR-0003 -> ADR-0002",
            "one of these decisions must be the current one",
        ),
        (
            "0004-e.md",
            "cycle",
            "error",
            "supersession cycle: ADR-0004 -> ADR-0004",
            "one of these decisions must be the current one",
        ),
        # Each unnumbered decision is told the next free number, one after the other.
        ("use-kafka.md", "unnamed", "warning", unnamed, "git mv docs/adr/use-kafka.md docs/adr/0005-use-kafka.md"),
        ("use-redis.md", "unnamed", "warning", unnamed, "git mv docs/adr/use-redis.md docs/adr/0006-use-redis.md"),
    ]


def test_only_keeps_the_findings_about_the_paths_named():
    files = {"0001-a.md": "---\nstatus: acceptd\n---\n# A\n", "0002-b.md": "---\nstatus: superseded\n---\n# B\n"}
    assert [f.kind for f in check.lint(_catalog(files), only=["docs/adr/0002-b.md"])] == ["supersession"]
    assert check.lint(_catalog(files), only=[]) == []


@pytest.mark.parametrize(
    ("word", "meant"),
    [
        ("acceptd", "accepted"),
        ("Deprectaed", "deprecated"),
        ("supersede", "superseded"),
        ("Proposd.", "proposed"),  # the first word, whatever follows
        ("  accpted ", "accepted"),
        ("acept", None),  # too far from any
        ("rej", None),  # under five letters: a word of its own, not a typo
        ("Ongoing", None),
        ("123", None),
        ("", None),
    ],
)
def test_a_status_a_letter_or_two_from_a_known_one_is_read_as_its_typo(word, meant):
    assert check._misspelt(word) == meant


def _finding(kind, severity, path="docs/adr/0001-a.md"):
    from adr_memory.records import Finding

    return Finding(path, 1, kind, severity, "ADR-0001", "m", None)


@pytest.mark.parametrize(
    ("kinds", "fail_on", "fails"),
    [
        ([], None, False),
        ([("stale", "warning")], None, False),  # by default only an error fails
        ([("stale", "warning"), ("yaml", "error")], None, True),
        ([("stale", "warning")], {"any"}, True),
        ([("yaml", "error")], {"none"}, False),
        ([("yaml", "error")], {"none", "any"}, False),  # none wins
        ([("stale", "warning")], {"stale"}, True),  # a kind named fails, warning or not
        ([("yaml", "error")], {"stale"}, False),  # ... and only the kinds named
        ([("yaml", "error")], {"stale", "error"}, True),
        ([("stale", "warning")], {"error"}, False),
        ([("stale", "warning")], set(), False),  # an empty set is the default
    ],
)
def test_whether_a_run_fails_follows_fail_on(kinds, fail_on, fails):
    assert check.fails([_finding(k, s) for k, s in kinds], fail_on) is fails


def test_every_kind_a_finding_may_have_is_listed_once_for_fail_on():
    assert len(check.KINDS) == len(set(check.KINDS)) and list(check.KINDS) == sorted(check.KINDS)


@pytest.mark.parametrize(
    ("severities", "line"),
    [
        ([], None),
        (["error"], "1 error(s) in untouched records, already there before this change: `adr check` lists them"),
        (
            ["warning", "warning"],
            "2 warning(s) in untouched records, already there before this change: `adr check` lists them",
        ),
        (
            ["error", "warning", "error"],
            "2 error(s) and 1 warning(s) in untouched records, already there before this change: `adr check` lists them",
        ),
    ],
)
def test_what_a_branch_left_out_is_counted_in_one_line(severities, line):
    untouched = [_finding(f"k{n}", s) for n, s in enumerate(severities)]
    assert check.Outcome([], untouched).untouched_line() == line


def test_a_branch_answers_for_the_records_it_touched_and_for_what_it_broke_elsewhere():
    touched = _finding("yaml", "error", "docs/adr/0002-b.md")
    old = _finding("stale", "warning", "docs/adr/0001-a.md")
    broken = _finding("unknown-link", "warning", "docs/adr/0003-c.md")  # new on an untouched record
    mine, untouched = check._scope([touched, old, broken], {"docs/adr/0002-b.md"}, before=[old])
    assert (mine, untouched) == ([touched, broken], [old])


def test_a_loop_is_found_from_its_start_and_a_chain_is_none():
    edges = {"A": {"B"}, "B": {"C"}, "C": {"A"}, "D": {"A"}}
    assert check._cycle_from("A", edges) == ["A", "B", "C"]
    assert check._cycle_from("D", edges) is None  # D leads into a loop, but is on none
    assert check._on_loops(edges) == {"A", "B", "C"}
    assert check._on_loops({"A": {"A"}, "B": {"Z"}}) == {"A"}  # a self-loop; an edge out of the folder
