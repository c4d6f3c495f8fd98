from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adr_memory import records
from adr_memory.base import globs
from adr_memory.policy import rules
from tests.helpers import adr_text, commit, git, run

ROOT = Path(__file__).parents[2]


def _adr(rules_yaml: str, status: str = "accepted", title: str = "Use Postgres") -> str:
    return adr_text(title, status=status, extra="rules:\n" + rules_yaml)


def _rule_findings(capsys, *args, code=None):
    data = json.loads(run(capsys, "check", "--rules-only", "--format", "json", *args, code=code).out)
    return [(f["path"], f["line"], f["col"]) for f in data["findings"] if f["kind"] == "rule"]


@pytest.mark.parametrize(
    "rule,files,expected",
    [
        ('  - {forbid: "import pymongo"}', {"src/a.py": "import pymongo\n"}, [("src/a.py", 1, 1)]),
        ('  - {forbid: "import pymongo"}', {"src/a.py": "import psycopg\n"}, []),
        (
            '  - {forbid: "^\\\\s*import\\\\s+mongo", regex: true}',
            {"src/a.py": "x\n  import   mongo\n"},
            [("src/a.py", 2, 1)],
        ),
        (
            '  - {forbid: "mongo", in: ["src/**"], except: ["src/legacy/**"]}',
            {"src/a.py": "mongo\n", "src/legacy/b.py": "mongo\n", "tools/c.py": "mongo\n"},
            [("src/a.py", 1, 1)],
        ),
        (
            '  - {require: "SPDX-License", in: ["src/*.py"]}',
            {"src/a.py": "# SPDX-License: MIT\n", "src/b.py": "x\n"},
            [("src/b.py", 1, 1)],
        ),
        ('  - {forbid-path: "src/legacy/**"}', {"src/legacy/x.py": "x", "src/ok.py": "x"}, [("src/legacy/x.py", 1, 1)]),
        ('  - {require-path: "migrations/*.sql"}', {"src/a.py": "x"}, [("migrations/*.sql", 0, 0)]),
        ('  - {require-path: "migrations/*.sql"}', {"migrations/001.sql": "x"}, []),
    ],
)
def test_each_rule_type_passes_and_fails(repo, capsys, rule, files, expected):
    commit(repo, {"docs/adr/0001-pg.md": _adr(rule), **files})
    assert _rule_findings(capsys) == expected


def test_text_format_is_compiler_style(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0007-pg.md": _adr('  - {forbid: "pymongo", message: "we use PostgreSQL"}'),
            "src/a.py": "x = 1\nimport pymongo\n",
        },
    )
    out = run(capsys, "check", code=1).out
    rid = rules.rule_id("ADR-0007", "forbid", "pymongo", False, (), ())
    assert f"src/a.py:2:8: ADR-0007 {rid} we use PostgreSQL" in out
    assert rid.startswith("ADR-0007:FORBID:") and len(rid.split(":")[-1]) == 32


def test_invalid_rules_are_findings_on_the_adr_not_crashes(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": _adr(
                '  - {frobnicate: "x"}\n  - {forbid: "(unclosed", regex: true}\n'
                '  - {forbid: "(?=a)b", regex: true}\n  - {forbid-path: "/etc/**"}\n'
                '  - "just text"\n  - {forbid: "ok", require: "both"}'
            )
        },
    )
    data = json.loads(run(capsys, "check", "--format", "json", code=1).out)
    invalid = [f["message"] for f in data["findings"] if f["kind"] == "rule-invalid"]
    assert len(invalid) == 6 and any("missing )" in m for m in invalid)
    assert any("(?=a)b" in m and "RE2" in m for m in invalid)


@pytest.mark.parametrize("pattern", ["(a|a)+$", "((a+))+$", "(?:a|a)*$", "(a+)+$", "(\\\\w*)*$"])
def test_backtracking_rules_run_in_linear_time(repo, pattern):
    """Patterns that take minutes under a backtracking engine finish on a megabyte of bait in a
    real `adr check` process; the bound is generous so a slow CI box cannot flake it."""
    bait = ("a" * 35 + "!\n") * 28_000  # ~1 MB of the lines that trigger backtracking
    commit(repo, {"docs/adr/0001-pg.md": _adr(f'  - {{forbid: "{pattern}", regex: true}}'), "src/bait.txt": bait})
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--rules-only"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr  # found or not, it finished


def test_only_accepted_decisions_rules_apply_and_superseded_ones_stop(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-old.md": _adr('  - {forbid: "mongo"}', title="Old"),
            "docs/adr/0002-idea.md": _adr('  - {forbid: "redis"}', status="proposed", title="Idea"),
            "src/a.py": "mongo redis\n",
        },
    )
    assert len(_rule_findings(capsys)) == 1
    commit(repo, {"docs/adr/0003-new.md": adr_text("New", status="proposed")})
    run(capsys, "supersede", "1", "--by", "3")
    assert records.parse((repo / "docs/adr/0001-old.md").read_text(), "0001-old.md").status == "accepted"
    assert len(_rule_findings(capsys)) == 1  # the successor is only proposed: the old rule holds
    run(capsys, "accept", "3")
    assert records.parse((repo / "docs/adr/0001-old.md").read_text(), "0001-old.md").status == "superseded"
    assert _rule_findings(capsys) == []  # accepted successor: the old rule stops


def test_base_reports_only_new_violations_even_when_lines_move(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": _adr('  - {forbid: "pymongo"}'),
            "src/old.py": "import pymongo  # legacy\n",
            "src/keep.py": "a\nb\n",
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        {
            "src/old.py": "# new header\n# more\nimport pymongo  # legacy\n",
            "src/keep.py": "a\nimport pymongo\nb\n",
            "src/new.py": "pymongo\n",
        },
        "feature",
    )
    found = _rule_findings(capsys, "--base", "main")
    assert sorted(found) == [("src/keep.py", 2, 8), ("src/new.py", 1, 1)]


def test_rule_id_survives_a_new_version(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "mongo", in: ["src/**"]}')}, "v1")
    first = json.loads(run(capsys, "show", "1", "--json").out)["rules"][0]["rule_id"]
    text = (repo / "docs/adr/0001-pg.md").read_text().replace("We decided.", "We decided, again.")
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": text.replace(
                '{forbid: "mongo", in: ["src/**"]}', '{in: ["src/**"], forbid: "mongo", message: "m"}'
            )
        },
        "v2",
    )
    assert len(json.loads(run(capsys, "log", "1", "--json").out)["versions"]) == 2
    assert json.loads(run(capsys, "show", "1", "--json").out)["rules"][0]["rule_id"] == first


def test_why_lists_the_rules_for_a_path_and_binary_and_ignored_files_are_skipped(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": _adr('  - {forbid: "mongo", in: ["src/**"]}'),
            ".gitignore": "build/\n",
            "src/blob.bin": b"\x00mongo\x00",
            "src/a.py": "ok\n",
        },
    )
    (repo / "build").mkdir()
    (repo / "build/out.py").write_text("mongo\n")
    assert _rule_findings(capsys) == []
    assert "forbid 'mongo' in src/**" in run(capsys, "why", "src/a.py").out


def test_this_projects_own_rules_hold():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--rules-only"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    data = subprocess.run(
        [sys.executable, "-m", "adr_memory", "show", "4", "--json"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert len(json.loads(data)["rules"]) >= 3


def test_a_tracked_symlink_is_not_followed_out_of_the_repository(repo, tmp_path, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_text("import pymongo\n")
    (repo / "src").mkdir()
    (repo / "src/link.py").symlink_to(outside)
    commit(repo, {"docs/adr/0001-pg.md": _adr('  - {forbid: "pymongo"}')})
    assert _rule_findings(capsys, code=0) == []


def _one_rule_at_a_time(files, said, read):
    """The scan as it was: every rule against every line of every file it applies to."""
    out = []
    for path in files:
        for rule in (r for r in said if r.type in ("forbid", "require") and r.applies_to(path)):
            text = read(path)
            lines = [line[: rules.MAX_LINE] for line in text.split("\n")]
            search = rules._matcher(rule)
            found = [(n, m.start() + 1) for n, line in enumerate(lines, start=1) if (m := search(line))]
            if rule.type == "require":
                out += [] if found else [(rule.rule_id, path, 1, 1)]
            else:
                out += [(rule.rule_id, path, n, col) for n, col in found]
    for rule in said:
        if rule.type == "forbid-path":
            out += [(rule.rule_id, p, 1, 1) for p in files if globs.matches(rule.value, p) and rule.applies_to(p)]
        elif rule.type == "require-path" and not any(
            globs.matches(rule.value, p) and rule.applies_to(p) for p in files
        ):
            out.append((rule.rule_id, rule.value, 0, 0))
    return out


def test_lines_matched_once_against_all_rules_find_what_each_rule_alone_finds():
    """Content rules share RE2 sets (one pass over a line per set) and path rules one glob
    set: on random rules, scopes and files the violations, their order and columns are those
    of matching one rule at a time."""
    import random

    from adr_memory.records.catalog import parse_bytes

    rng = random.Random(5)
    words = ["import mongo", "import pg", "TODO", "print(", "secret", "é", "x = 1", ""]
    regexes = [r"^\s*import\s+\w+", r"TODO\(\w+\)", r"\d{3,}", r"(a|b)*c", r"print\("]
    paths = ["src/a.py", "src/b/c.py", "lib/d.py", "docs/e.md", "src/legacy/f.py", "migrations/001.sql", "g.txt"]
    scopes = [[], ["src/**"], ["src/*.py"], ["lib/**", "docs/**"], ["**/*.py"]]
    kinds = ["forbid", "forbid", "require", "forbid-path", "require-path"]
    found = 0
    for _ in range(60):
        said = []
        for _ in range(rng.randint(1, 40)):
            kind = rng.choice(kinds)
            regex = kind in ("forbid", "require") and rng.random() < 0.3
            value = (
                rng.choice(regexes)
                if regex
                else rng.choice(paths + ["src/**", "**/*.sql", "**/*.md"])
                if kind.endswith("-path")
                else rng.choice(words[:-1])
            )
            rule = {kind: value, "regex": regex, "in": rng.choice(scopes)}
            if rng.random() < 0.2:
                rule["except"] = ["src/legacy/**"]
            said.append(rule)
        rec = parse_bytes("0001-r.md", f"---\nstatus: accepted\nrules: {json.dumps(said)}\n---\n# R\n".encode())
        parsed = rules.parse_rules(rec)[0]
        files = dict.fromkeys(rng.sample(paths, rng.randint(1, len(paths))))
        texts = {
            p: "\n".join(
                rng.choice(words + ["import  mongo", "TODO(me)", "12345", "abac", "print(x)"])
                for _ in range(rng.randint(0, 30))
            )
            for p in files
        }
        expected = _one_rule_at_a_time(files, parsed, texts.get)
        found += len(expected)
        assert [(v.rule.rule_id, v.path, v.line, v.col) for v in rules.scan(files, parsed, texts.get)] == expected
    assert found > 1000


def test_thousands_of_rules_read_each_line_once(repo):
    """1,000 forbid rules over 1,000 files of 50 lines were a million rule x file passes:
    `adr check` took 95 s. The one rule that a line breaks is still found."""
    said = [{"forbid": f"import mod{i}_", "in": ["src/**"]} for i in range(1000)]
    files = {f"src/f{n}.py": "\n".join(f"import lib{n}_{k}" for k in range(50)) + "\n" for n in range(1000)}
    files["src/f7.py"] += "x = 1\nimport mod999_ as m\n"
    commit(
        repo,
        {"docs/adr/0001-r.md": "---\nstatus: accepted\nrules: " + json.dumps(said) + "\n---\n# R\n\nText.\n", **files},
    )
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--rules-only", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = [(f["path"], f["line"], f["col"]) for f in json.loads(done.stdout)["findings"] if f["kind"] == "rule"]
    assert found == [("src/f7.py", 52, 1)]


TYPES = "forbid, require, forbid-path, require-path"


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (None, 'is not a mapping like {forbid: "text"}'),
        ("forbid: x", 'is not a mapping like {forbid: "text"}'),  # a string, not YAML read as a mapping
        ([], 'is not a mapping like {forbid: "text"}'),
        ({"Forbid": "x"}, f"has unknown key 'Forbid' (types: {TYPES})"),  # keys are lower case
        ({"forbid": "x", "mesage": "m"}, f"has unknown key 'mesage' (types: {TYPES})"),
        ({"forbid": "x", "require": "y"}, f"must have exactly one of: {TYPES}"),
        ({"message": "m"}, f"must have exactly one of: {TYPES}"),
        ({"forbid": ""}, "forbid must be non-empty text"),
        ({"require-path": 3}, "require-path must be non-empty text"),
        ({"forbid": "x", "in": 3}, "`in` and `except` must be lists of globs"),
        ({"forbid": "x", "except": ["ok/**", 1]}, "`in` and `except` must be lists of globs"),
        ({"forbid": "x", "in": "/abs"}, "glob '/abs' is absolute; globs are relative to the repository root"),
        ({"forbid-path": "../up"}, "glob '../up' climbs out with '..'"),  # a path rule's value is a glob too
        (
            {"forbid": "(", "regex": True},
            "regex '(' cannot be used: missing ): ( (rules use RE2 syntax: no backreferences or lookaround)",
        ),
        (
            {"forbid": "(?<=a)b", "regex": True},
            "regex '(?<=a)b' cannot be used: invalid perl operator: (?<= "
            "(rules use RE2 syntax: no backreferences or lookaround)",
        ),
    ],
)
def test_a_rule_that_cannot_be_used_says_why_in_words_a_finding_can_carry(raw, why):
    assert rules.parse_one("ADR-0001", raw) == (None, why)


def test_a_rule_reads_its_scope_message_and_kind_and_describes_itself():
    raw = {"forbid": "import x", "in": "src/**", "except": ["src/legacy/**", "src/vendor/**"], "message": "use y"}
    rule, why = rules.parse_one("ADR-0007", raw)
    assert why == "" and rule is not None
    assert (rule.decision, rule.type, rule.value, rule.regex, rule.message) == (
        "ADR-0007",
        "forbid",
        "import x",
        False,
        "use y",
    )
    assert (rule.within, rule.exclude) == (("src/**",), ("src/legacy/**", "src/vendor/**"))
    assert rule.describe() == "forbid 'import x' in src/** except src/legacy/**, src/vendor/**"
    plain, _ = rules.parse_one("ADR-0007", {"require-path": "migrations/*.sql"})
    assert (plain.describe(), plain.message) == ("require-path 'migrations/*.sql'", "require-path 'migrations/*.sql'")
    pattern, _ = rules.parse_one("ADR-0007", {"forbid": r"boto3?\b", "regex": True})
    assert pattern.describe() == r"forbid regex 'boto3?\\b'"


@pytest.mark.parametrize(
    ("path", "applies"),
    [
        ("src/a.py", True),
        ("src/db/b.py", True),
        ("src/legacy/c.py", False),  # excepted
        ("tests/a.py", False),  # out of scope
    ],
)
def test_a_rule_applies_inside_its_scope_and_outside_its_exceptions(path, applies):
    rule, _ = rules.parse_one("ADR-0001", {"forbid": "x", "in": ["src/**"], "except": "src/legacy/**"})
    assert rule.applies_to(path) is applies


def test_a_rule_without_a_scope_applies_everywhere_but_its_exceptions():
    rule, _ = rules.parse_one("ADR-0001", {"forbid": "x", "except": ["docs/**"]})
    assert rule.applies_to("anything/at/all.py") and not rule.applies_to("docs/adr/0001-a.md")


def test_a_rule_s_id_is_what_it_says_not_how_its_scope_is_ordered():
    one = rules.rule_id("ADR-0001", "forbid", "x", False, ["b/**", "a/**"], [])
    assert one == rules.rule_id("ADR-0001", "forbid", "x", False, ["a/**", "b/**"], [])
    assert one.startswith("ADR-0001:FORBID:") and len(one.rsplit(":", 1)[1]) == 32
    others = {
        rules.rule_id("ADR-0002", "forbid", "x", False, ["a/**", "b/**"], []),
        rules.rule_id("ADR-0001", "forbid", "x", True, ["a/**", "b/**"], []),
        rules.rule_id("ADR-0001", "forbid", "y", False, ["a/**", "b/**"], []),
        rules.rule_id("ADR-0001", "forbid", "x", False, ["a/**"], ["b/**"]),
        rules.rule_id("ADR-0001", "require", "x", False, ["a/**", "b/**"], []),
    }
    assert one not in others and len(others) == 5


def test_each_rule_a_record_cannot_use_is_a_finding_numbered_as_it_is_listed():
    rec = records.parse(_adr('  - {forbid: "ok"}\n  - {forbid: ""}\n  - {nope: 1}'), "docs/adr/0001-a.md")
    parsed, problems = rules.parse_rules(rec)
    assert [r.value for r in parsed] == ["ok"]
    assert [(p.kind, p.severity, p.line, p.message, p.hint) for p in problems] == [
        ("rule-invalid", "error", 4, "rule 2 forbid must be non-empty text", "see docs/checks.md, Rules"),  # `rules:`
        ("rule-invalid", "error", 4, f"rule 3 has unknown key 'nope' (types: {TYPES})", "see docs/checks.md, Rules"),
    ]


def test_only_decisions_in_force_carry_rules_but_every_bad_rule_is_said():
    """A rule that does not parse is said wherever it is written: it would apply once its
    decision is accepted."""
    carried = 'rules:\n  - {forbid: "%s"}\n  - {bad: 1}'

    def adr(number, status, extra):
        return records.parse(adr_text(f"R{number}", status=status, extra=extra), f"docs/adr/{number:04d}-r.md")

    found, problems = rules.active(
        [
            adr(1, "accepted", carried % "a"),
            adr(2, "proposed", carried % "b"),
            adr(3, "superseded", carried % "c" + "\nsuperseded-by: [ADR-0004]"),
            adr(4, "accepted", "supersedes: [ADR-0003]"),
            adr(5, "rejected", carried % "e"),
            adr(6, "accepted", ""),
        ]
    )
    assert [(r.decision, r.value) for r in found] == [("ADR-0001", "a")]
    assert [p.id for p in problems] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0005"]
