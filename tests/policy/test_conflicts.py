"""Decisions in force that contradict each other are named, in check, in CI and to agents."""

from __future__ import annotations

import json

import pytest

from adr_memory import records
from adr_memory.policy import conflicts
from tests.helpers import adr_text, commit, git, run

FORBID = 'rules:\n  - {forbid: "import pymongo", message: "we use PostgreSQL"}'
REQUIRE = 'rules:\n  - {require: "import pymongo", in: ["src/db/**"]}'


def _keyed(title: str, value: str, extra: str = "") -> str:
    return adr_text(
        title, governs=["src/db/**"], extra=f"conflict-key: project.primary_database\nvalue: {value}\n{extra}"
    )


def test_contradicting_rules_are_an_error_naming_both_and_fail_the_pr_that_adds_one(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": adr_text("Use PostgreSQL", governs=["src/db/**"], extra=FORBID),
            "src/db/a.py": "x = 1\n",
        },
        "base",
    )
    git(repo, "checkout", "-q", "-b", "pr")
    commit(
        repo,
        {"docs/adr/0002-mongo.md": adr_text("Use MongoDB", governs=["src/db/**"], extra=REQUIRE)},
        "add a contradiction",
    )
    data = json.loads(run(capsys, "check", "--base", "main", "--format", "json", code=1).out)
    conflict = [f for f in data["findings"] if f["kind"] == "conflict"]
    assert len(conflict) == 1 and conflict[0]["id"] == "ADR-0002" and conflict[0]["severity"] == "error"
    assert "ADR-0001" in conflict[0]["message"] and "ADR-0002" in conflict[0]["message"]
    assert "conflict" in run(capsys, "review", "--base", "main").out
    guard = json.loads(run(capsys, "guard", "src/db/a.py", "--json").out)["paths"][0]
    assert [c["ids"] for c in guard["conflicts"]] == [["ADR-0001", "ADR-0002"]]
    assert "conflict: ADR-0001 says forbid" in run(capsys, "why", "src/db/a.py").out


def test_rules_on_disjoint_scopes_do_not_conflict(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", extra='rules:\n  - {forbid: "x", in: ["src/a/**"]}'),
            "docs/adr/0002-b.md": adr_text("B", extra='rules:\n  - {require: "x", in: ["src/b/**"]}'),
        },
    )
    assert "conflict" not in run(capsys, "check", "--format", "json", code=0).out


def test_one_key_held_twice_is_a_conflict_until_superseded(repo, capsys):
    commit(
        repo,
        {
            "docs/adr/0001-pg.md": _keyed("Use PostgreSQL", "PostgreSQL 15"),
            "docs/adr/0002-mongo.md": _keyed("Use MongoDB", "MongoDB 7"),
        },
    )
    out = run(capsys, "check", code=1).out
    assert "conflict: ADR-0001 and ADR-0002 both decide project.primary_database (PostgreSQL 15 / MongoDB 7)" in out
    run(capsys, "supersede", "1", "--by", "2")
    assert "conflict" not in run(capsys, "check", code=0).out


def test_new_with_a_held_key_writes_nothing_and_names_the_way_out(repo, capsys):
    commit(repo, {"docs/adr/0001-pg.md": _keyed("Use PostgreSQL", "PostgreSQL 15")})
    refused = run(capsys, "new", "Use MongoDB", "--key", "project.primary_database", code=2)
    assert refused.err.startswith("error: project.primary_database is already decided by ADR-0001")
    assert "-s ADR-0001" in refused.err and "--cardinality multi" in refused.err
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-pg.md"]
    path = run(
        capsys, "new", "Use MongoDB", "--key", "project.primary_database", "--value", "MongoDB 7", "-s", "1"
    ).out.strip()
    new = records.parse((repo / path).read_text(), path)
    assert (new.meta["conflict-key"], new.meta["value"], new.supersedes) == (
        "project.primary_database",
        "MongoDB 7",
        ("ADR-0001",),
    )
    run(capsys, "accept", "2")
    assert "conflict" not in run(capsys, "check", code=0).out
    multi = run(capsys, "new", "Also SQLite", "--key", "project.primary_database", "--cardinality", "multi")
    assert multi.out.strip().endswith(".md")
    assert run(capsys, "new", "X", "--key", "Not A Key", code=2).err.startswith("error: conflict key")


def test_rules_grouped_by_text_find_exactly_what_every_pair_of_rules_finds():
    """Conflicts are looked for among rules that say the same text, and among path rules whose
    folders nest, instead of every rule of one record against every rule of the other: on random folders
    the conflicts and their order are those of the pairwise comparison."""
    import random

    from adr_memory.policy import conflicts, rules
    from adr_memory.records.catalog import parse_bytes

    every = []

    def pairwise(live):
        parsed = [(rec, rules.parse_rules(rec)[0]) for rec in live if rec.rules]
        out = []
        for i, (a, a_rules) in enumerate(parsed):
            for b, b_rules in parsed[i + 1 :]:
                said = [
                    (a.id, b.id, f"{a.id} says {ra.describe()} and {b.id} says {rb.describe()}")
                    for ra in a_rules
                    for rb in b_rules
                    if conflicts._contradict(ra, rb)
                ]
                out += said[:5]
                every.extend(said)
                if len(said) > 5:  # the rest are counted
                    n = len(said) - 5
                    out.append((a.id, b.id, f"{a.id} and {b.id} contradict in {n} more pair{'s' * (n > 1)} of rules"))
        return out

    rng = random.Random(7)
    texts = [
        "import a",
        "import b",
        "src/x/*.py",
        "src/**",
        "**/*.sql",
        "src/x/a.py",
        "docs/",
        "src/x/",
        "src/xy/*.py",
        "src/x-y/z.py",
        "lib/a/b/*.py",
        "*.md",
        "**/a.py",
        "src/**/a.py",
        "**/x/*.py",
    ]
    scopes = [[], ["src/**"], ["docs/**"], ["src/x/**"], ["lib/**"], ["src/x/**", "lib/**"]]
    kinds = ["forbid", "require", "forbid-path", "require-path", "forbid", "require"]
    summed = 0
    for _ in range(400):
        live = []
        for n in range(1, rng.randint(2, 7)):
            said = [
                {rng.choice(kinds): rng.choice(texts), "in": rng.choice(scopes), "regex": rng.random() < 0.2}
                for _ in range(rng.randint(0, 9))
            ]
            live.append(parse_bytes(f"{n:04d}-r.md", f"---\nrules: {json.dumps(said)}\n---\n# R{n}\n".encode()))
        expected = pairwise(live)
        summed += sum("more pair" in c[2] for c in expected)
        assert [(*c.ids, c.message) for c in conflicts._rule_conflicts(live)] == expected
    assert len(every) > 500  # the folders held many conflicts to agree on
    assert summed > 5  # and pairs of records with more than five, whose rest are counted


def test_large_scopes_are_looked_up_with_the_answer_of_every_pair_of_globs():
    """Two `in` scopes of thousands of globs each were compared glob by glob (3,000 x 3,000:
    54 s for one pair of rules). Past a few pairs they are looked up by folder and plain file
    name; on random scopes the answer is that of comparing every pair."""
    import random

    from adr_memory.policy import conflicts

    rng = random.Random(11)
    shapes = [
        "src/{a}/*.py",
        "**/{a}.py",
        "{a}/",
        "src/**/{a}.md",
        "lib/{a}/b/*.py",
        "{a}/*.md",
        "src/{a}",
        "docs/{a}/**",
        "{a}/x/**/y.py",
        "src/{a}/**/{a}.py",
        "{a}/**/{a}*.md",
    ]

    def scope(n):
        return [rng.choice(shapes).format(a="".join(rng.choices("abcdefghij", k=2))) for _ in range(n)]

    agreed = {True: 0, False: 0}
    for _ in range(600):
        a, b = scope(rng.randint(2, 4)), scope(rng.randint(33, 50))  # over 64 pairs: looked up
        expected = any(conflicts._paths_meet(x, y) for x in a for y in b)
        assert conflicts._scopes_meet(a, b, conflicts._Room(10**9)) == expected, (a, b)
        agreed[expected] += 1
    assert min(agreed.values()) > 20  # both answers were tested


def test_a_record_in_many_conflicts_lists_twenty_and_counts_the_rest(repo, capsys):
    """A thousand records forbidding what a thousand others require are a million conflicts:
    `adr check` printed every one (56 s). Each record lists twenty and counts the rest."""
    forbid = 'rules:\n  - {forbid: "import x"}'
    records = {f"docs/adr/{n:04d}-f.md": adr_text(f"F{n}", extra=forbid) for n in range(1, 31)}
    records["docs/adr/0031-r.md"] = adr_text("R", extra='rules:\n  - {require: "import x"}')
    commit(repo, {**records, "src/a.py": "import x\n"})
    data = json.loads(run(capsys, "check", "--format", "json", code=1).out)
    on_newest = [f["message"] for f in data["findings"] if f["kind"] == "conflict" and f["id"] == "ADR-0031"]
    assert len(on_newest) == 21 and "ADR-0031 is in 10 more conflicts (not listed)" in on_newest
    assert "ADR-0001 says forbid 'import x' and ADR-0031 says require 'import x'" in on_newest


def test_the_search_stops_at_its_bound_over_all_records_and_says_where_first(monkeypatch):
    """Ten thousand one-rule records are 25 million pairs: past COMPARED_IN_ALL comparisons the
    search stops, and the first conflict says where (so no per-record cut can hide it)."""
    from adr_memory.policy import conflicts
    from adr_memory.records.catalog import parse_bytes

    def record(n, kind):
        return parse_bytes(
            f"{n:04d}-r.md", f"---\nstatus: accepted\nrules: [{{{kind}: 'import x'}}]\n---\n# R{n}\n".encode()
        )

    live = [record(n, "forbid") for n in range(1, 21)] + [record(n, "require") for n in range(21, 41)]
    assert len(conflicts.find(live)) == 400  # every forbid against every require
    monkeypatch.setattr(conflicts, "COMPARED_IN_ALL", 50)
    found = conflicts.find(live)
    assert found[0].message.startswith(
        "conflicts were looked for up to 50 comparisons between the decisions in force, and stopped at ADR-"
    )
    assert len(found) == 1 + 50  # fifty compared, each a conflict; the fifty-first stopped it


# ---------------------------------------------------------------------------- as a unit of logic


def _adr(number, status, extra):
    return records.parse(adr_text(f"R{number}", status=status, extra=extra), f"docs/adr/{number:04d}-x.md")


def _found(*recs):
    return [(f.path, f.line, f.kind, f.severity, f.message, f.hint) for f in conflicts.findings(list(recs))]


def test_holders_of_one_single_valued_key_conflict_in_turn_and_the_newer_is_told_how_out():
    found = _found(
        _adr(1, "accepted", "conflict-key: db.primary\nvalue: postgres"),
        _adr(2, "accepted", "conflict-key: db.primary\nvalue: mysql"),
        _adr(3, "accepted", "conflict-key: db.primary"),  # no value: none is named
        _adr(4, "accepted", "conflict-key: db.primary\ncardinality: multi"),  # multi-valued: holds beside them
        _adr(5, "proposed", "conflict-key: db.primary"),  # not in force
    )
    way_out = "supersede one of them (adr supersede {} --by {}), or declare `cardinality: multi`"
    assert found == [
        (
            "docs/adr/0002-x.md",
            4,  # its `conflict-key:` line
            "conflict",
            "error",
            "ADR-0001 and ADR-0002 both decide db.primary (postgres / mysql)",
            way_out.format("ADR-0001", "ADR-0002"),
        ),
        (
            "docs/adr/0003-x.md",
            4,
            "conflict",
            "error",
            "ADR-0002 and ADR-0003 both decide db.primary (mysql)",
            way_out.format("ADR-0002", "ADR-0003"),
        ),
    ]


def test_a_key_or_cardinality_that_cannot_be_held_is_an_error_of_its_own():
    assert _found(
        _adr(6, "accepted", "conflict-key: Bad Key"), _adr(7, "accepted", "conflict-key: x.y\ncardinality: many")
    ) == [
        (
            "docs/adr/0006-x.md",
            4,  # the line that writes `conflict-key:`
            "conflict-key",
            "error",
            "conflict-key 'Bad Key' is not a dotted lowercase key",
            "e.g. conflict-key: project.primary_database",
        ),
        (
            "docs/adr/0007-x.md",
            5,  # the line that writes `cardinality:`
            "conflict-key",
            "error",
            "cardinality 'many' is not single or multi",
            "cardinality: single (the default) or multi",
        ),
    ]


def test_a_key_that_is_not_text_is_an_error_not_silence():
    assert _found(_adr(6, "accepted", "conflict-key: 7")) == [
        (
            "docs/adr/0006-x.md",
            4,
            "conflict-key",
            "error",
            "conflict-key 7 is not a dotted lowercase key",
            "e.g. conflict-key: project.primary_database",
        )
    ]


def test_opposite_rules_conflict_where_their_scopes_or_paths_meet():
    found = _found(
        _adr(8, "accepted", 'rules:\n  - {forbid: "import x", in: ["src/**"]}'),
        _adr(9, "accepted", 'rules:\n  - {require: "import x", in: ["src/a/**"]}'),
        _adr(10, "accepted", 'rules:\n  - {require: "import x", in: ["lib/**"]}'),  # elsewhere: no conflict
        _adr(11, "accepted", 'rules:\n  - {forbid-path: "src/**/*.sql"}'),
        _adr(12, "accepted", 'rules:\n  - {require-path: "src/db/*.sql"}'),
    )
    assert [(path, message, hint) for path, _l, _k, _s, message, hint in found] == [
        (
            "docs/adr/0009-x.md",
            "ADR-0008 says forbid 'import x' in src/** and ADR-0009 says require 'import x' in src/a/**",
            "supersede one of them: adr supersede ADR-0008 --by ADR-0009",
        ),
        (
            "docs/adr/0012-x.md",
            "ADR-0011 says forbid-path 'src/**/*.sql' and ADR-0012 says require-path 'src/db/*.sql'",
            "supersede one of them: adr supersede ADR-0011 --by ADR-0012",
        ),
    ]


@pytest.mark.parametrize(
    ("a", "b", "meet"),
    [
        ("src/**", "src/a/**", True),
        ("src/**", "lib/**", False),
        ("src/a/**", "src/ab/**", False),  # a prefix of the name is no folder of it
        ("src/*.py", "src/a.py", True),
        ("src/a.py", "src/b.py", False),
        ("**/x.py", "**/y.py", False),  # one name cannot be both
        ("**/x.py", "src/**/x.py", True),
        ("**/*_test.go", "**/*.go", True),
        ("src/**/*.sql", "src/db/*.sql", True),
    ],
)
def test_two_globs_meet_when_one_path_could_match_both(a, b, meet):
    assert conflicts._paths_meet(a, b) is meet
    assert conflicts._paths_meet(b, a) is meet


def test_a_key_is_read_trimmed_with_single_as_its_default():
    assert conflicts.key_of(_adr(1, "accepted", "conflict-key: ' db.primary '\nvalue: ' pg '")) == (
        "db.primary",
        "single",
        "pg",
    )
    assert conflicts.key_of(_adr(2, "accepted", "conflict-key: db.primary\ncardinality: MULTI")) == (
        "db.primary",
        "multi",
        "",
    )
    assert conflicts.key_of(_adr(3, "accepted", "conflict-key: '  '")) is None
    assert conflicts.key_of(_adr(4, "accepted", "conflict-key: 3")) is None
    assert conflicts.key_of(_adr(5, "accepted", "")) is None


def test_a_conflict_with_a_source_s_decision_is_settled_here_by_an_exception_or_in_the_sources():
    theirs_and_ours = conflicts.Conflict("key", ("platform:ADR-0001", "ADR-0003"), "m")
    assert conflicts._way_out(theirs_and_ours) == (
        "add `supersedes: [platform:ADR-0001]` to ADR-0003 (this repository's recorded exception), "
        "or declare `cardinality: multi`"
    )
    both_theirs = conflicts.Conflict("rules", ("platform:ADR-0001", "other:ADR-0003"), "m")
    assert conflicts._way_out(both_theirs) == "settle it in the sources, or declare `cardinality: multi`"


def test_the_conflicts_involving_a_decision_are_those_naming_it_either_side():
    found = [
        conflicts.Conflict("key", ("ADR-0001", "ADR-0002"), "a"),
        conflicts.Conflict("rules", ("ADR-0002", "ADR-0003"), "b"),
        conflicts.Conflict("rules", ("ADR-0004", "ADR-0005"), "c"),
    ]
    assert [c.message for c in conflicts.involving(found, {"ADR-0002"})] == ["a", "b"]
    assert conflicts.involving(found, {"ADR-0009"}) == []
    assert found[0].to_json() == {"kind": "key", "ids": ["ADR-0001", "ADR-0002"], "message": "a"}


def test_a_conflict_with_a_source_s_decision_is_said_on_this_repository_s_record():
    """The source's record is not this repository's to mend: the finding stands on the local
    record, at its `conflict-key:` line."""
    import dataclasses

    local = _adr(1, "accepted", "conflict-key: org.event_bus\nvalue: SQS")
    theirs = dataclasses.replace(
        _adr(2, "accepted", "conflict-key: org.event_bus\nvalue: Kafka"),
        id="platform:ADR-0002",
        source="platform",
        path="platform:docs/adr/0002-x.md",
    )
    ((path, line, kind, severity, message, _hint),) = _found(local, theirs)
    assert (path, line, kind, severity) == ("docs/adr/0001-x.md", 4, "conflict", "error")
    assert "org.event_bus" in message
