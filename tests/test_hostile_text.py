"""Record text is anyone's input (ADR-0009): no record may make a command take more than about
linear time. Each case below once did: a pattern that can match the same character two ways
backtracks over a long run of it (20,000 blank lines in a section took `adr search` hours)."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import pkgutil
import re
import subprocess
import sys
import time

import pytest

import adr_memory
from adr_memory.records.catalog import parse_bytes
from tests.helpers import commit, run

# Five times the run that once took hours (20,000 blank lines): over a run this long anything
# worse than linear passes the 60-second timeout by orders of magnitude, and the suite stays short.
N = 100_000
LONG_PATH = "a/" * 60 + "a" * 200
PLAIN = "# 1. Plain\n\n## Status\n\nAccepted\n\n## Context\n\nWe needed a queue.\n\n## Decision\n\nUse a queue.\n"
HOSTILE = {
    "decisions/0001-plain.md": PLAIN,
    "decisions/0002-plain.md": PLAIN.replace("# 1.", "# 2."),
    # A `governs` glob is matched against every path a history touches.
    "decisions/0009-globs.md": '---\nstatus: accepted\ngoverns: ["'
    + "*a" * 40
    + 'z", "'
    + "**/" * 40
    + 'z"]\n---\n# 9. Globs\n\n## Decision\n\nGlobs.\n',
    LONG_PATH: "x\n",
    # Read while the folder is discovered (its first 20,000 characters), parsed and indexed.
    "decisions/0003-blank-lines.md": "\n" * N
    + "# 3. Blank lines\n\n## Status\n\nAccepted\n\n## Context\n\n"
    + " \n" * N
    + "queue\n\n## Decision\n\n"
    + "\t" * N
    + "x\n",
    "decisions/0004-list.md": "# 4. List\n\n- a" + " " * N + "x\n\n## Status\n\nAccepted\n",
    "decisions/0005-links.md": "# 5. Links\n\n## Status\n\n" + "[" * N + "\n\nSuperseded by [a](b" + " " * N + "\n",
    "decisions/0006-comments.md": "# 6. Comments\n\n## Context\n\n" + "<!--" * (N // 2) + "\n",
    "decisions/0007-table.md": "# 7. Table\n\n## Decision\n\n| " + " " * N + "x\n" + "-" * N + "x\n",
    "decisions/0008-numbers.md": "# 8. Numbers\n\n* Supersedes: " + "0" * N + "x\n\n## Status\n\nAccepted\n\n"
    "## Context\n\nSee ADR-" + "0" * N + "x.\n",
    # YAML nested past what libyaml's recursion survives (a segfault, not an exception).
    "decisions/0010-deep-flow.md": "---\nstatus: accepted\nx: " + "[" * N + "]" * N + "\n---\n# 10. Deep\n",
    "decisions/0011-deep-map.md": "---\nx: " + "{a: " * (N // 4) + "b" + "}" * (N // 4) + "\n---\n# 11. Deep\n",
    "decisions/0012-deep-block.md": "---\nx:\n  " + "- " * N + "y\n---\n# 12. Deep\n",
    # Numbers past the 4,300 digits Python's int() takes from a string.
    # A checklist item's words end at their last non-space, found in one pass.
    "decisions/0014-checklist.md": "# 14. Checklist\n\n## Status\n\n- [x] Accepted"
    + " " * N
    + "x\n\n"
    + "- [ ] ~~"
    + "~" * N
    + "\n",
    # Header values read back from their end (`<br>`), split at pipes, and a Metadata section.
    "decisions/0015-breaks.md": "# 15. Breaks\n\n**Status:** Accepted"
    + "<br> " * (N // 4)
    + "\n**Date:** "
    + "a | " * (N // 4)
    + "\n\n## Metadata\n\n- **Status**: "
    + "x: " * (N // 4)
    + "\n",
    # Labels alone on their lines, each looking below for its value; a history table of many rows.
    "decisions/0016-labels.md": "# 16. Labels\n\n" + "**Status**\n\n" * (N // 3) + "## Context\n\nc\n",
    "decisions/0017-history.md": "# 17. History\n\n| Date | Status |\n|---|---|\n"
    + "| 2020-01-01 | Proposed ->  |\n" * (N // 20)
    + "\n## Status\n\n"
    + "> x\n" * (N // 4),
    "decisions/0013-digits.md": '---\nsupersedes: ["'
    + "9" * 5000
    + '"]\n---\n# '
    + "9" * 5000
    + " Digits\n\n* Supersedes: "
    + "9" * 5000
    + "\n\n## Status\n\nSuperseded by ADR-"
    + "9" * 5000
    + "\n\nSuperseded by [x]("
    + "9" * 5000
    + "-x.md)\n",
}


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["list"],
        ["stale"],
        ["why", LONG_PATH],
        ["search", "--mode", "keyword", "queue"],
        ["search", "why a queue"],
    ],
)
def test_records_made_of_long_runs_neither_hang_nor_break_a_command(repo, args):
    commit(repo, HOSTILE)
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for info in pkgutil.walk_packages(adr_memory.__path__, "adr_memory."):
        if info.name.endswith(("__main__", ".hook")) and not info.ispkg and info.name.count(".") == 1:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value if isinstance(value, tuple) else (value,)
            for item in values:
                for pattern in item if isinstance(item, tuple) else (item,):
                    if isinstance(pattern, re.Pattern):
                        found.append((f"{info.name}.{name}", pattern))
    return found


RUNS = [
    "\n",
    " \n",
    " ",
    "\t",
    "-",
    "|",
    "`",
    "```\n",
    "a-",
    "#",
    "*",
    "<!--",
    "x",
    ":",
    "[",
    "(",
    "_",
    "0",
    "a ",
    "a|",
    " | a",
    "|-",
    "\n-",
    " - ",
    "[a](",
    "[a](b ",
    "password: ",
    "ADR-",
    "\x1b]",
    "a: ",
    "~",
    "~~a",
]


# What a line starts with before the run: a pattern anchored at a line's start meets the run
# only after its prefix (`## a` and 2,000 spaces took a heading pattern 8 seconds).
PREFIXES = ["", "## a", "- [x] a", "a", "Status: a", "| a", ".. adr-memory: a", "Title\n"]


def test_every_hostile_record_is_read_in_time_linear_in_its_size():
    """Parsing and digesting each record above, alone: linear work takes about a second for
    the largest; work that goes over the record once per line (a copy of the rest of it per
    label took 30 seconds) takes far longer."""
    from adr_memory.history import versions

    slow = []
    for path, text in HOSTILE.items():
        if not path.startswith("decisions/"):
            continue
        start = time.perf_counter()
        versions.digest(parse_bytes(path, text.encode()))
        if time.perf_counter() - start > 8.0:
            slow.append(path)
    assert slow == []


def _growth(pattern: re.Pattern, prefix: str, run: str, n: int, tries: int = 1) -> float:
    """Time on `n * 10` repeats over ten times the time on `n` repeats (the same characters in
    all): about 1 for linear work, about 10 for quadratic, whatever else the machine is doing.
    The time is this thread's CPU time: a process preempted by another job's is not charged for
    the wait, which wall-clock time would add to one measure and not the other."""

    def best(text: str, times: int) -> float:
        data = text.encode() if isinstance(pattern.pattern, bytes) else text
        fastest = float("inf")
        for _ in range(tries):
            start = time.thread_time()
            for _ in range(times):
                pattern.sub(data[:0], data)
            fastest = min(fastest, time.thread_time() - start)
        return fastest

    short = best(prefix + run * n + "!", 10)
    return best(prefix + run * (n * 10) + "!", 1) / max(short, 1e-9)


# Ten times the text costs ~9.5 times the ten pieces for a quadratic pattern (the site's title
# pattern, once) and at most ~4 for a linear one whose single long match grows its stack.
QUADRATIC = 6.0


def test_no_pattern_of_ours_backtracks_over_a_long_run():
    """Every compiled pattern at module level, on long runs of each character after each
    prefix (and followed by a character that ends no match), judged by growth, never by
    seconds: ten times the text in one piece must cost about what ten pieces cost. A cheap
    first look (3,000 repeats against 300) picks the suspects; each is then timed again, best of
    five, on 30,000 against 3,000, where a quadratic pattern grows about tenfold."""
    suspects = [
        (name, pattern, prefix, run)
        for name, pattern in _patterns()
        for prefix, run in itertools.product(PREFIXES, RUNS)
        if _growth(pattern, prefix, run, 300) > 2.5
    ]
    slow = [
        f"{name} on {prefix!r} + {run!r}"
        for name, pattern, prefix, run in suspects
        if _growth(pattern, prefix, run, 3_000, tries=7) > QUADRATIC
    ]
    assert slow == []


def test_the_growth_measure_tells_a_quadratic_pattern_from_a_linear_one():
    quadratic = re.compile(r"\A\s*(?:#[ \t]+[^\n]*|[^\n]+\n=+[ \t]*)(?:\n|\Z)")  # site's title, once
    linear = re.compile(r"\A\s*(?:#[ \t]+[^\n]*|\S[^\n]*\n=+[ \t]*)(?:\n|\Z)")
    # Best of seven: on a busy machine one try in a few is preempted, which shrinks the ratio.
    assert _growth(quadratic, "", " ", 3_000, tries=7) > QUADRATIC
    assert _growth(linear, "", " ", 3_000, tries=7) < QUADRATIC


@pytest.mark.parametrize(
    "yaml_text", ["x: " + "[" * N + "]" * N, "x:\n  " + "- " * N + "y", "x: " + "[" * 40 + "]" * 40]
)
def test_frontmatter_nested_deeper_than_any_metadata_is_a_problem_not_a_crash(yaml_text):
    rec = parse_bytes("docs/adr/0001-deep.md", f"---\n{yaml_text}\n---\n# 1. Deep\n\nText.\n".encode())
    assert rec.title == "Deep" and rec.meta == {}
    # What we promise is a named problem at the frontmatter's line, with a hint: which check
    # speaks first (ours at 32 levels, or PyYAML's own limit since 6.0.4) is not the promise.
    problems = [p for p in rec.problems if p.kind == "yaml"]
    assert len(problems) == 1 and problems[0].line == 2 and problems[0].hint
    assert problems[0].message.startswith("frontmatter ")


DEEP_JSON = "[" * 200_000 + "]" * 200_000


def test_a_config_nested_too_deep_to_read_is_a_clear_error(repo):
    commit(
        repo,
        {"docs/adr/0001-plain.md": PLAIN, "pyproject.toml": "[tool.x]\na = " + "[" * 100_000 + "]" * 100_000 + "\n"},
    )
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "list"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: cannot read pyproject.toml: it nests too deep to read",
        "hint: fix or delete pyproject.toml",
    ]


def test_cache_files_nested_too_deep_to_read_are_rebuilt(repo):
    """The cache is anyone's too (a repository may commit one): JSON nested past Python's
    recursion limit is a cache to rebuild, like any other damage."""
    commit(repo, {"docs/adr/0001-plain.md": PLAIN, "docs/adr/0002-plain.md": PLAIN.replace("# 1.", "# 2.")})
    for name in ("history.json", "model-verified.json", "feedback.jsonl", "index/current/meta.json"):
        (repo / ".adr-cache" / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / ".adr-cache" / name).write_text(DEEP_JSON)
    for args in (["log", "1"], ["stale"], ["search", "why a queue", "--json"]):
        done = subprocess.run(
            [sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, (args, done.stderr)
        assert "error" not in done.stderr, (args, done.stderr)


def test_folders_nested_deeper_than_python_recursion_are_walked_without_it(repo):
    """A path may hold ~2,000 folders; os.walk on Python 3.11 and any recursive tree walk
    raise RecursionError near 1,000. Git trees are walked on a stack of their own; records are
    read at most 32 folders below the ADR folder (deeper ones are not records)."""
    deep = "/".join(["a"] * 1500)
    subprocess.run(
        ["mkdir", "-p", f"src/{deep}", f"docs/adr/{deep}", f".adr-cache/index/old-1/{deep}"], cwd=repo, check=True
    )
    try:
        _deep_folders(repo, deep)
    finally:  # pytest's own clean-up of old temporary folders recurses too
        subprocess.run(["rm", "-rf", "src", "docs", ".adr-cache"], cwd=repo, check=True)


def _deep_folders(repo, deep):
    commit(
        repo,
        {
            "docs/adr/0001-plain.md": "---\nstatus: accepted\ngoverns: [src/]\n---\n" + PLAIN,
            f"docs/adr/{deep}/0002-deep.md": PLAIN.replace("# 1.", "# 2."),
            f"src/{deep}/code.py": "one = 1\n",
        },
    )
    commit(repo, {f"src/{deep}/code.py": "two = 2\n"})
    for args in (
        ["list"],
        ["check", "--base", "HEAD~1"],
        ["log", "1"],
        ["list", "--at", "HEAD~1"],
        ["why", f"src/{deep}/code.py"],
        ["index"],
        ["search", "--mode", "keyword", "queue"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, (args, done.stderr)
        assert "ADR-0002" not in done.stdout
    stale = subprocess.run(
        [sys.executable, "-m", "adr_memory", "stale", "--json"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert stale.returncode in (0, 1), stale.stderr
    assert f"src/{deep}/code.py" in stale.stdout  # the change was found through 1,500 folders


def test_file_names_that_are_not_utf8_are_read_and_shown(repo):
    """Git stores a name as any bytes. Paths from git keep such bytes as surrogates, as the
    file system gives them for the same file; globs match them; output shows `?` for them."""
    commit(
        repo,
        {
            "docs/adr/0001-plain.md": "---\nstatus: accepted\ngoverns: [src/]\n---\n" + PLAIN,
            "docs/adr/0002-plain.md": PLAIN.replace("# 1.", "# 2."),
        },
    )
    (repo / "src").mkdir()
    for content in (b"one = 1\n", b"two = 2\n"):
        (repo / os.fsdecode(b"src/\xff\xfe.py")).write_bytes(content)
        (repo / os.fsdecode(b"docs/adr/0003-\xff.md")).write_bytes(b"# 3. Odd name\n\n## Status\n\nAccepted\n")
        for step in (["add", "-A"], ["commit", "-q", "-m", "odd names"]):  # git's output holds the bytes
            subprocess.run(["git", *step], cwd=repo, check=True, capture_output=True)
    for args in (
        ["list"],
        ["check", "--base", "HEAD~1"],
        ["log", "3"],
        ["list", "--at", "HEAD~1"],
        ["why", "src"],
        ["search", "--mode", "keyword", "odd"],
        ["review", "--base", "HEAD~1"],
        ["export"],
        ["stale"],
    ):
        done = subprocess.run([sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, timeout=60)
        assert done.returncode in (0, 1), (args, done.stderr)
        assert b"internal error" not in done.stderr, args
    stale = subprocess.run(
        [sys.executable, "-m", "adr_memory", "stale", "--json"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    changed = json.loads(stale.stdout)["decisions"][0]["changed"]
    assert changed == ["src/??.py"]  # never the raw bytes: not UTF-8, and a C1 byte is a control


@pytest.mark.parametrize(
    "adr_dir",
    ["docs/adr\0x", "docs/adr\n\nelsewhere", "a/" * 3000, "b" * 300],
    ids=["nul", "lines", "too-long", "name-too-long"],
)
def test_an_adr_dir_that_is_no_path_is_a_config_error(repo, adr_dir):
    commit(repo, {"docs/adr/0001-plain.md": PLAIN, ".adr-dir": adr_dir})
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "list"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    first, hint = done.stderr.splitlines()
    assert first.startswith("error: the ADR folder in .adr-dir ") and first.endswith("is not a folder's path")
    assert len(first) < 200 and hint == "hint: write one relative path on one line, e.g. docs/adr"


def test_a_glob_that_is_no_pattern_governs_nothing_and_is_reported(repo):
    """`src/[z-a].py` cannot compile: `adr check` says so, and every other command goes on
    with the record's other globs instead of stopping at it."""
    record = '---\nstatus: accepted\ngoverns: ["src/[z-a].py", src/]\n---\n' + PLAIN
    commit(
        repo,
        {
            "docs/adr/0001-plain.md": record,
            "docs/adr/0002-plain.md": PLAIN.replace("# 1.", "# 2."),
            "src/a.py": "one = 1\n",
        },
    )
    commit(repo, {"src/a.py": "two = 2\n"})
    for args in (
        ["stale"],
        ["why", "src/a.py"],
        ["list"],
        ["check", "--base", "HEAD~1"],
        ["review", "--base", "HEAD~1"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, text=True, timeout=60
        )
        assert done.returncode in (0, 1) and "internal error" not in done.stderr, (args, done.stderr)
    why = subprocess.run(
        [sys.executable, "-m", "adr_memory", "why", "src/a.py"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert "ADR-0001" in why.stdout  # governed through src/
    check = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert check.returncode == 1 and "src/[z-a].py" in check.stdout + check.stderr


ODD_FIELDS = [
    "governs: {a: b}",
    "governs: 5",
    "governs: [[a, b], {c: d}, 3, null]",
    "rules: x",
    "rules: [{forbid: 123}]",
    "rules: [{forbid: x, in: 5}]",
    "rules: [{require-path: [1]}]",
    "rules: [5, null, [1]]",
    "links: [{rel: 1, id: [1, 2]}]",
    "links: 7",
    "links: [{id: null}]",
    "reviewed: 5",
    "reviewed: {commit: [1], date: {}, note: 3}",
    "supersedes: [{a: 1}]",
    "supersedes: 99999999999999999999",
    "status: [accepted]",
    "status: {a: 1}",
    "status: 5",
    "date: 2024-02-30",
    "date: [1]",
    "tags: {a: 1}",
    "tags: [[1]]",
    "decision-makers: {x: 1}",
    "key: [1]",
    "value: {a: 1}",
    "title: [1]",
    "depends-on: [{}]",
]


def test_frontmatter_values_of_any_type_are_problems_not_crashes(repo):
    records = {
        f"docs/adr/{i:04d}-odd.md": f"---\n{field}\n---\n# {i}. Odd {i}\n\n## Decision\n\nSrc.\n"
        for i, field in enumerate(ODD_FIELDS, start=1)
    }
    commit(repo, {**records, "src/a.py": "one = 1\n"})
    commit(repo, {"src/a.py": "two = 2\n"})
    for args in (
        ["list", "--json"],
        ["check"],
        ["stale"],
        ["why", "src/a.py"],
        ["check", "--base", "HEAD~1"],
        ["review", "--base", "HEAD~1"],
        ["export"],
        ["generate", "graph"],
        ["log", "19"],
        ["search", "--mode", "keyword", "odd"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "adr_memory", *args], cwd=repo, capture_output=True, text=True, timeout=60
        )
        assert done.returncode in (0, 1) and "internal error" not in done.stderr, (args, done.stderr)
    check = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check"], cwd=repo, capture_output=True, text=True, timeout=60
    ).stdout
    assert "`links` must be a list" in check and "not a date any calendar has: day is out of range for month" in check


def test_editing_a_record_of_any_shape_is_done_or_refused_never_a_crash(repo, capsys):
    records = {
        f"docs/adr/{i:04d}-odd.md": f"---\n{field}\n---\n# {i}. Odd {i}\n\n## Decision\n\nSrc.\n"
        for i, field in enumerate(ODD_FIELDS, start=1)
    }
    commit(repo, records)
    for number in range(1, len(ODD_FIELDS) + 1):
        path = repo / f"docs/adr/{number:04d}-odd.md"
        for verb in (["accept"], ["link", "-", "Amends", "1"], ["supersede", "-", "2"]):
            before = path.read_bytes()
            args = [a if a != "-" else str(number) for a in verb] if "-" in verb else [*verb, str(number)]
            done = run(capsys, *args, code=None)  # the real entry point, in process
            assert "internal error" not in done.err, (args, done.err)
            if done.code != 0:
                assert path.read_bytes() == before, args  # refused: not a byte changed
            subprocess.run(["git", "checkout", "-q", "--", "docs"], cwd=repo, check=True)


def test_agent_settings_nested_too_deep_to_read_are_a_clear_error(repo):
    commit(repo, {"docs/adr/0001-plain.md": PLAIN, ".claude/settings.json": DEEP_JSON})
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "hooks", "install", "claude-code"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "internal error" not in done.stderr
    assert done.stderr.startswith("error: cannot read .claude/settings.json: it nests too deep to read")
    assert (repo / ".claude/settings.json").read_text() == DEEP_JSON


# ---------------------------------------------------------------------------- volume


def test_many_globs_are_matched_as_one_glob_at_a_time_would(repo):
    """A record may list thousands of `governs` globs (its text allows 1 MB). They are matched
    in RE2 sets, a few hundred per pass: the answers must be exactly those of one glob at a
    time, invalid globs included (they match nothing)."""
    from adr_memory.base import globs

    shapes = ["src/m{i}/**/*.py", "**/*a{i}*b*.py", "src/[a-c]{i}?/", "lib/{i}", "src/[z-a]{i}.py", "**/x{i}"]
    many = tuple(shape.format(i=i) for i in range(500) for shape in shapes)  # 3,000: 12 sets
    paths = (
        [f"src/m{i}/deep/er/f{i}a{i}qb.py" for i in range(0, 500, 7)]
        + [f"src/b{i}x/y.md" for i in range(0, 500, 9)]
        + [f"lib/{i}" for i in range(0, 500, 11)]
        + ["src/\udcff\udcfe.py", "nothing/here.txt", "q/x5"]
    )
    matcher = globs.GlobSet(many)
    for path in paths:
        one_by_one = [n for n, g in enumerate(many) if globs.matches(g, path)]
        assert matcher.matching(path) == one_by_one, path
        assert matcher.any(path) == bool(one_by_one)


def test_a_record_listing_thousands_of_globs_is_assessed_in_one_pass_per_path(repo):
    """20,000 globs and a commit changing 2,000 files: glob by glob, `adr stale` took minutes
    (and printed every glob in its reason). Now the answer is the same and short."""
    many = [f"src/m{i}/**/*.py" for i in range(20_000)] + ["src/f1*.py"]
    files = {f"src/f{i}.py": "one = 1\n" for i in range(2000)}
    commit(
        repo,
        {
            "docs/adr/0001-many.md": "---\nstatus: accepted\ngoverns: "
            + json.dumps(many)
            + "\n---\n# 1. Many\n\nText.\n",
            **files,
        },
    )
    commit(repo, dict.fromkeys(files, "two = 2\n"))
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "stale", "--json"], cwd=repo, capture_output=True, text=True, timeout=120
    )
    verdict = json.loads(done.stdout)["decisions"][0]
    assert verdict["state"] == "stale"
    assert sorted(verdict["changed"]) == sorted(p for p in files if p.startswith("src/f1"))
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--base", "HEAD~1", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    stale = [f["message"] for f in json.loads(done.stdout)["findings"] if f["kind"] == "stale"]
    assert stale and stale[0].endswith("src/f1001.py and 1,106 more"), stale[:1]  # CI says how many it omits
    commit(
        repo,
        {
            "docs/adr/0001-many.md": "---\nstatus: accepted\ngoverns: "
            + json.dumps(many[:-1])
            + "\n---\n# 1. Many\n\nText.\n"
        },
    )
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "stale", "--json"], cwd=repo, capture_output=True, text=True, timeout=120
    )
    verdict = json.loads(done.stdout)["decisions"][0]
    assert verdict["state"] == "scope-missing"
    assert verdict["reason"].endswith("src/m4/**/*.py and 19,995 more")


def test_a_long_flow_list_in_frontmatter_is_read_not_taken_for_deep_nesting(repo):
    """3,000 rules written as one flow list hold 6,000 brackets but nest three deep: they were
    refused as "nests deeper than 32 levels". Text that could nest deep is read as events first,
    to see how deep it nests: 32 levels are read, 33 refused, the same as with few brackets."""
    rules = [{"forbid": f"import mod{i}", "in": ["src/**"]} for i in range(3000)]
    rec = parse_bytes("0001-r.md", ("---\nstatus: accepted\nrules: " + json.dumps(rules) + "\n---\n# Rules\n").encode())
    assert not rec.problems and len(rec.rules) == 3000 and rec.status == "accepted"
    for brackets in ("", "\ny: [" + "[], " * 2500 + "]"):  # under and over the count that reads events
        for levels, refused in ((32, False), (33, True)):
            text = "---\nx: " + "[" * levels + "]" * levels + brackets + "\n---\n# Deep\n"
            rec = parse_bytes("0002-d.md", text.encode())
            assert bool(rec.problems) == refused and (rec.meta.get("x") is None) == refused, (levels, brackets)


def test_two_records_of_thousands_of_rules_are_compared_by_what_they_say(repo):
    """Conflicts were every rule of one record against every rule of the other: two records of
    3,000 rules made `adr check` (the pre-commit hook, CI) compare nine million pairs. Rules
    are grouped by their text now; the one pair that contradicts is still found."""

    def record(n, kind, last):
        rules = [{kind: f"import mod{n}_{i}", "in": ["src/**"]} for i in range(3000)] + [{kind: last}]
        return "---\nstatus: accepted\nrules: " + json.dumps(rules) + f"\n---\n# {n}. Rules\n\nText.\n"

    commit(
        repo,
        {
            "docs/adr/0001-a.md": record(1, "forbid", "import shared"),
            "docs/adr/0002-b.md": record(2, "require", "import shared"),
            "src/a.py": "import shared\n",
        },
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "conflict"]
    assert [f["message"] for f in found] == [
        "ADR-0001 says forbid 'import shared' and ADR-0002 says require 'import shared'"
    ], time.perf_counter() - start


def _rules_record(n: int, rules: list[dict]) -> str:
    return "---\nstatus: accepted\nrules: " + json.dumps(rules) + f"\n---\n# {n}. Rules\n\nText.\n"


def _conflicts_found(repo) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [f["message"] for f in json.loads(done.stdout)["findings"] if f["kind"] == "conflict"]


def test_two_records_of_thousands_of_path_rules_spanning_folders_are_bounded(repo):
    """`forbid-path: '**/x1.py'` and `require-path: '**/y1.py'` were taken to meet (any `**`
    did), so two records of 3,000 such rules were nine million conflicts: nine minutes and
    5.8 GB of `adr check`. Names that cannot be one no longer meet, and plain names are looked
    up; rules whose paths do all meet are compared up to a bound per pair of records, five named
    and the rest said in one more finding."""

    def record(n, kind, glob):
        return _rules_record(n, [{kind: glob.format(i=i)} for i in range(3000)])

    def conflicts():
        return _conflicts_found(repo)

    commit(
        repo,
        {
            "docs/adr/0001-a.md": record(1, "forbid-path", "**/x{i}.py"),
            "docs/adr/0002-b.md": record(2, "require-path", "**/y{i}.py"),
        },
    )
    assert conflicts() == []
    commit(repo, {"docs/adr/0002-b.md": record(2, "require-path", "**/x{i}.py")})  # each meets its own
    found = conflicts()
    assert len(found) == 6 and "ADR-0001 and ADR-0002 contradict in 2,995 more pairs of rules" in found
    assert "ADR-0001 says forbid-path '**/x0.py' and ADR-0002 says require-path '**/x0.py'" in found
    commit(repo, {"docs/adr/0002-b.md": record(2, "require-path", "src/**/*{i}.py")})  # every pair may meet
    found = conflicts()
    assert len(found) == 6 and any(
        f.startswith("ADR-0001 and ADR-0002 are not compared in full: their rules take over 100,000 comparisons")
        for f in found
    )


def test_two_rules_scoped_to_thousands_of_globs_are_bounded(repo):
    """A rule's `in` may list thousands of globs; two such scopes were compared glob by glob
    (3,000 x 3,000 folderless globs: 54 s for one pair of rules). They are looked up now; scopes
    whose globs could all meet are compared up to the bound of the pair of records, and say so."""

    def record(n, kind, glob, rules=1):
        return _rules_record(
            n, [{kind: f"import x{k}", "in": [glob.format(j=j) for j in range(3000)]} for k in range(rules)]
        )

    def conflicts():
        return _conflicts_found(repo)

    commit(
        repo,
        {
            "docs/adr/0001-a.md": record(1, "forbid", "**/a{j}.py"),
            "docs/adr/0002-b.md": record(2, "require", "**/b{j}.py"),
        },
    )
    assert conflicts() == []
    commit(repo, {"docs/adr/0002-b.md": record(2, "require", "**/a2999.py")})
    assert conflicts() == [
        "ADR-0001 says forbid 'import x0' in "
        + ", ".join(f"**/a{j}.py" for j in range(3000))
        + " and ADR-0002 says require 'import x0' in "
        + ", ".join(["**/a2999.py"] * 3000)
    ]
    commit(
        repo,
        {
            "docs/adr/0001-a.md": record(1, "forbid", "**/a{j}*", rules=5),
            "docs/adr/0002-b.md": record(2, "require", "**/b{j}*", rules=5),
        },
    )
    assert conflicts() == ["ADR-0001 and ADR-0002 are not compared in full: their rules take over 100,000 comparisons"]


def test_a_glob_longer_than_any_path_is_a_finding_not_a_slow_lookup(repo):
    """A rule's glob of 50,000 folders (100 KB) took 2.7 s for each lookup of the folders above
    it; no file system holds a path that long. It is an invalid rule, named, and costs nothing."""
    deep = "a/" * 50_000 + "*.py"
    commit(
        repo,
        {
            "docs/adr/0001-a.md": _rules_record(1, [{"forbid-path": deep}] * 5),
            "docs/adr/0002-b.md": _rules_record(2, [{"require-path": "a/*.py"}]),
        },
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "check", "--format", "json"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
    )
    invalid = [f["message"] for f in json.loads(done.stdout)["findings"] if f["kind"] == "rule-invalid"]
    assert len(invalid) == 5 and all(
        "is longer than any path (100,004 characters; at most 4,096)" in m for m in invalid
    ), time.perf_counter() - start


def test_generated_views_keep_record_text_inside_its_label(repo, capsys):
    """A title is anyone's text: a line break in it would end a graph node or a TOC entry and
    start a statement of the record's choosing (mermaid's `click ... href`), a backslash would
    escape the end of a DOT string."""
    from tests.helpers import adr_text

    evil = 'Evil\\"]\\nclick n_ADR_0001 href \\"javascript:alert(1)\\"\\n* [x](http://t.example) \\\\'
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("DB"),
            "docs/adr/0002-evil.md": f'---\nstatus: accepted\ntitle: "{evil}"\n'
            'links: [{rel: "x|> n_ADR_0001\\nclick", id: ADR-0001}]\n---\n# E\n',
        },
    )
    title = json.loads(run(capsys, "show", "2", "--json").out)["title"]
    assert "\n" not in title and title.startswith('Evil"] click n_ADR_0001')
    mermaid = run(capsys, "generate", "graph").out.splitlines()
    assert [line.split("[", 1)[0].split(" ", 3)[2] for line in mermaid[1:3]] == ["n_ADR_0001", "n_ADR_0002"]
    assert len(mermaid) == 4 and not any(line.lstrip().startswith("click") for line in mermaid)
    assert mermaid[3] == "  n_ADR_0002 -->|x n adr click| n_ADR_0001"  # a relation is read as words
    dot = run(capsys, "generate", "graph", "--format", "dot").out.splitlines()
    node = next(line for line in dot if line.startswith('  "ADR-0002" [label='))
    assert node.endswith('\\\\"];') and len(dot) == 7  # the title's backslash doubled
    toc = run(capsys, "generate", "toc").out.splitlines()
    assert len(toc) == 4 and toc[3].startswith('* [ADR-0002: Evil"\\] click')


def test_hooks_print_record_text_without_its_escape_sequences(repo, capsys):
    """A file name or title may carry terminal escapes (an OSC that retitles the window, a
    colour that hides a line): the hooks print them as `adr` does, without."""
    from adr_memory.surfaces.hook import main as hook
    from tests.helpers import adr_text

    name = "docs/adr/0002-\x1b]0;pwned\x07\x1b[8mhidden.md"
    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text('"DB \\e[2J"', governs=["src/**"]),
            "src/a.py": "1",
            name: adr_text("Two", status="bogus"),
        },
    )
    capsys.readouterr()
    assert hook(["lint", name]) == 0
    linted = capsys.readouterr().out
    assert hook(["guard", "src/a.py"]) == 0
    guarded = capsys.readouterr().out
    assert "\x1b" not in linted + guarded and "\x07" not in linted
    assert linted.startswith("docs/adr/0002-hidden.md:") and "ADR-0001 DB" in guarded
    assert linted == run(capsys, "check").out  # the same lines as `adr check`


def test_export_to_a_terminal_drops_escape_sequences_and_to_a_pipe_keeps_every_byte(repo):
    import pty

    commit(repo, {"docs/adr/0001-db.md": "# DB \x1b]0;pwned\x07\n\nUse \x1b[8mPostgres.\n"})
    piped = subprocess.run(
        [sys.executable, "-m", "adr_memory", "export", "--format", "md"], cwd=repo, capture_output=True, check=True
    ).stdout
    assert b"\x1b]0;pwned\x07" in piped  # data, byte for byte
    leader, follower = pty.openpty()
    subprocess.run(
        [sys.executable, "-m", "adr_memory", "export", "--format", "md"],
        cwd=repo,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: all of it was read
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert b"Use Postgres." in shown and b"\x1b" not in shown and b"\x07" not in shown
