from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adr_memory import record, rules
from tests.helpers import adr_text, commit, git, run

ROOT = Path(__file__).parent.parent


def _adr(rules_yaml: str, status: str = "accepted", title: str = "Use Postgres") -> str:
    return adr_text(title, status=status, extra="rules:\n" + rules_yaml)


def _rule_findings(capsys, *args, code=None):
    data = json.loads(run(capsys, "check", "--rules-only", "--format", "json", *args, code=code).out)
    return [(f["path"], f["line"], f["col"]) for f in data["findings"] if f["kind"] == "rule"]


@pytest.mark.parametrize("rule,files,expected", [
    ('  - {forbid: "import pymongo"}', {"src/a.py": "import pymongo\n"}, [("src/a.py", 1, 1)]),
    ('  - {forbid: "import pymongo"}', {"src/a.py": "import psycopg\n"}, []),
    ('  - {forbid: "^\\\\s*import\\\\s+mongo", regex: true}', {"src/a.py": "x\n  import   mongo\n"}, [("src/a.py", 2, 1)]),
    ('  - {forbid: "mongo", in: ["src/**"], except: ["src/legacy/**"]}',
     {"src/a.py": "mongo\n", "src/legacy/b.py": "mongo\n", "tools/c.py": "mongo\n"}, [("src/a.py", 1, 1)]),
    ('  - {require: "SPDX-License", in: ["src/*.py"]}',
     {"src/a.py": "# SPDX-License: MIT\n", "src/b.py": "x\n"}, [("src/b.py", 1, 1)]),
    ('  - {forbid-path: "src/legacy/**"}', {"src/legacy/x.py": "x", "src/ok.py": "x"}, [("src/legacy/x.py", 1, 1)]),
    ('  - {require-path: "migrations/*.sql"}', {"src/a.py": "x"}, [("migrations/*.sql", 0, 0)]),
    ('  - {require-path: "migrations/*.sql"}', {"migrations/001.sql": "x"}, []),
])
def test_each_rule_type_passes_and_fails(repo, capsys, rule, files, expected):
    commit(repo, {"docs/adr/0001-pg.md": _adr(rule), **files})
    assert _rule_findings(capsys) == expected


def test_text_format_is_compiler_style(repo, capsys):
    commit(repo, {"docs/adr/0007-pg.md": _adr('  - {forbid: "pymongo", message: "we use PostgreSQL"}'),
                  "src/a.py": "x = 1\nimport pymongo\n"})
    out = run(capsys, "check", code=1).out
    rid = rules.rule_id("ADR-0007", "forbid", "pymongo", False, (), ())
    assert f"src/a.py:2:8: ADR-0007 {rid} we use PostgreSQL" in out
    assert rid.startswith("ADR-0007:FORBID:") and len(rid.split(":")[-1]) == 32


def test_invalid_rules_are_findings_on_the_adr_not_crashes(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {frobnicate: "x"}\n  - {forbid: "(unclosed", regex: true}\n'
                                              '  - {forbid: "(?=a)b", regex: true}\n  - {forbid-path: "/etc/**"}\n'
                                              '  - "just text"\n  - {forbid: "ok", require: "both"}')})
    data = json.loads(run(capsys, "check", "--format", "json", code=1).out)
    invalid = [f["message"] for f in data["findings"] if f["kind"] == "rule-invalid"]
    assert len(invalid) == 6 and any("missing )" in m for m in invalid)
    assert any("(?=a)b" in m and "RE2" in m for m in invalid)


@pytest.mark.parametrize("pattern", ["(a|a)+$", "((a+))+$", "(?:a|a)*$", "(a+)+$", "(\\\\w*)*$"])
def test_backtracking_rules_run_in_linear_time(repo, pattern):
    """Patterns that take minutes under a backtracking engine finish on a megabyte of bait in a
    real `adr check` process; the bound is generous so a slow CI box cannot flake it."""
    bait = ("a" * 35 + "!\n") * 28_000  # ~1 MB of the lines that trigger backtracking
    commit(repo, {"docs/adr/0001-pg.md": _adr(f'  - {{forbid: "{pattern}", regex: true}}'),
                  "src/bait.txt": bait})
    done = subprocess.run([sys.executable, "-m", "adr_memory", "check", "--rules-only"], cwd=repo,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr  # found or not, it finished


def test_only_accepted_decisions_rules_apply_and_superseded_ones_stop(repo, capsys):
    commit(repo, {"docs/adr/0001-old.md": _adr('  - {forbid: "mongo"}', title="Old"),
                  "docs/adr/0002-idea.md": _adr('  - {forbid: "redis"}', status="proposed", title="Idea"),
                  "src/a.py": "mongo redis\n"})
    assert len(_rule_findings(capsys)) == 1
    commit(repo, {"docs/adr/0003-new.md": adr_text("New", status="proposed")})
    run(capsys, "supersede", "1", "--by", "3")
    assert record.parse((repo / "docs/adr/0001-old.md").read_text(), "0001-old.md").status == "superseded"
    assert len(_rule_findings(capsys)) == 1  # the successor is only proposed: the old rule holds
    run(capsys, "accept", "3")
    assert _rule_findings(capsys) == []  # accepted successor: the old rule stops


def test_base_reports_only_new_violations_even_when_lines_move(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "pymongo"}'),
                  "src/old.py": "import pymongo  # legacy\n", "src/keep.py": "a\nb\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"src/old.py": "# new header\n# more\nimport pymongo  # legacy\n",
                  "src/keep.py": "a\nimport pymongo\nb\n", "src/new.py": "pymongo\n"}, "feature")
    found = _rule_findings(capsys, "--base", "main")
    assert sorted(found) == [("src/keep.py", 2, 8), ("src/new.py", 1, 1)]


def test_rule_id_survives_a_new_version(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "mongo", in: ["src/**"]}')}, "v1")
    first = json.loads(run(capsys, "show", "1", "--json").out)["rules"][0]["rule_id"]
    text = (repo / "docs/adr/0001-pg.md").read_text().replace("We decided.", "We decided, again.")
    commit(repo, {"docs/adr/0001-pg.md": text.replace('{forbid: "mongo", in: ["src/**"]}',
                                                      '{in: ["src/**"], forbid: "mongo", message: "m"}')}, "v2")
    assert len(json.loads(run(capsys, "log", "1", "--json").out)["versions"]) == 2
    assert json.loads(run(capsys, "show", "1", "--json").out)["rules"][0]["rule_id"] == first


def test_why_lists_the_rules_for_a_path_and_binary_and_ignored_files_are_skipped(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "mongo", in: ["src/**"]}'),
                  ".gitignore": "build/\n", "src/blob.bin": b"\x00mongo\x00", "src/a.py": "ok\n"})
    (repo / "build").mkdir()
    (repo / "build/out.py").write_text("mongo\n")
    assert _rule_findings(capsys) == []
    assert "forbid 'mongo' in src/**" in run(capsys, "why", "src/a.py").out


def test_this_projects_own_rules_hold():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "adr_memory", "check", "--rules-only"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    data = subprocess.run([sys.executable, "-m", "adr_memory", "show", "4", "--json"], cwd=ROOT,
                          capture_output=True, text=True).stdout
    assert len(json.loads(data)["rules"]) >= 3


def test_a_tracked_symlink_is_not_followed_out_of_the_repository(repo, tmp_path, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_text("import pymongo\n")
    (repo / "src").mkdir()
    (repo / "src/link.py").symlink_to(outside)
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "pymongo"}')})
    assert _rule_findings(capsys, code=0) == []
