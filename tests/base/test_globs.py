from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.base import globs


@pytest.mark.parametrize(
    "glob,path,expected",
    [
        ("src/db/**", "src/db/a/b.py", True),
        ("src/db/**", "src/dbx/a.py", False),
        ("src/db/", "src/db/x.py", True),
        ("src/db", "src/db/q/r", True),
        ("src/db", "src/dbx", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/a/b.py", False),
        ("**/x.py", "x.py", True),
        ("**/x.py", "a/b/x.py", True),
        ("src/?.py", "src/ab.py", False),
        ("src/[ab].py", "src/b.py", True),
        ("src/[!ab].py", "src/b.py", False),
        ("./src/*.py", "src/a.py", True),
        ("migrations/*.sql", "migrations/001.sql", True),
    ],
)
def test_matches(glob, path, expected):
    assert globs.matches(glob, path) is expected


@pytest.mark.parametrize(
    "glob,prefix",
    [
        ("src/db/**/*.py", "src/db"),
        ("src/db/", "src/db"),
        ("src/a.py", "src/a.py"),
        ("**/x.py", ""),
        ("*.md", ""),
        ("src/[ab]/x", "src"),
        ("./src/db/*.py", "src/db"),
        ("././src/a.py", "src/a.py"),
    ],
)
def test_literal_prefix(glob, prefix):
    assert globs.literal_prefix(glob) == prefix


@pytest.mark.parametrize("glob", ["", "/etc/**", "C:\\\\x", "../up/**", "src\\\\db", "src/[a.py"])
def test_problems(glob):
    assert globs.problem(glob)


def test_good_globs_have_no_problem():
    assert globs.problem("src/**/*.py") is None and globs.problem("src/[ab].py") is None


def test_the_prefixes_a_path_lies_under():
    assert globs.under("src/db/a.py") == {"", "src", "src/db", "src/db/a.py"}
    assert globs.under("README.md") == {"", "README.md"}


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("**", "any/depth/at/all.py", True),
        ("src/**/x", "src/x", True),  # `**/` may stand for no folder at all
        ("src/**/x", "src/a/b/x", True),
        ("src/**/x", "srcx", False),
        ("src/**x", "src/a/bx", True),  # `**` not followed by `/` crosses folders too
        ("src/?.py", "src/a.py", True),
        ("src/?.py", "src//.py", False),  # `?` is never a `/`
        ("src/*.py", "lib/src/a.py", False),  # anchored at the repository root
        ("a.b", "aXb", False),  # a dot is a dot, not a regex wildcard
        ("a+b", "a+b", True),
        ("a(b)", "a(b)", True),
        ("src/[]].py", "src/].py", True),  # a `]` first in a class is a member
        ("src/[!]].py", "src/a.py", False),
        ("src/[!]].py", "src/].py", False),
        ("src/[a.py", "src/[a.py", True),  # an unclosed `[` is a literal bracket
        ("src/[z-a].py", "src/a.py", False),  # no valid pattern: matches nothing
        ("  src/db/  ", "src/db/x.py", True),  # blanks around a glob are no part of it
        ("src/db/", "src/db", True),
        ("docs/ADR/**", "docs/adr/x.md", False),  # case matters, as in git
        ("ünïcode/*.md", "ünïcode/x.md", True),
    ],
)
def test_matches_more_shapes(glob, path, expected):
    assert globs.matches(glob, path) is expected


def test_a_path_that_is_not_utf8_is_matched_as_a_wildcard_would():
    # git names that are not UTF-8 arrive as surrogates; RE2 reads them as U+FFFD
    assert globs.matches("a/*", "a/\udcff.py")
    assert globs.matches("a/?.py", "a/\udcff.py")
    assert not globs.matches("a/x.py", "a/\udcff.py")
    assert globs.GlobSet(("a/*.py",)).any("a/\udcff.py")


@pytest.mark.parametrize(
    ("glob", "reason"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("/etc/**", "is absolute; globs are relative to the repository root"),
        ("C:/x", "is absolute; globs are relative to the repository root"),
        ("c:\\x", "is absolute; globs are relative to the repository root"),
        ("a/../b", "climbs out with '..'"),
        ("..", "climbs out with '..'"),
        ("a\\b", "uses a backslash; write paths with '/'"),
        ("src/[a.py", "has an unbalanced '['"),
        ("src/[z-a].py", "is not a valid pattern (invalid character class range: z-a)"),
        ("a" * 4097, "is longer than any path (4,097 characters; at most 4,096)"),
    ],
)
def test_each_problem_says_exactly_what_is_wrong(glob, reason):
    assert globs.problem(glob) == reason


@pytest.mark.parametrize("glob", ["a..b/c", ".../x", "a" * 4096, "src/**/[!._]*.py", ".github/**", "x"])
def test_names_that_only_look_like_problems_are_fine(glob):
    assert globs.problem(glob) is None


@pytest.mark.parametrize(
    ("glob", "ends"),
    [
        ("**/test_*.py", ("test_", ".py")),
        ("src/*.py", ("", ".py")),
        ("src/[ab]x?.py", ("", ".py")),
        ("a/b*c*d.txt", ("b", "d.txt")),  # before the first wildcard, after the last
        ("x/*", ("", "")),
        ("src/*/README.md", ("README.md", "README.md")),  # a literal last segment is the name
        ("./lib/?.rs", ("", ".rs")),
        ("src/db/", None),  # everything under a folder: any name
        ("src/a.py", None),  # a literal path covers what is under it too
        ("src/**", None),
        ("**", None),
    ],
)
def test_the_ends_every_matched_name_has(glob, ends):
    assert globs.name_ends(glob) == ends


@pytest.mark.parametrize(
    ("glob", "path"),
    [
        ("**/test_*.py", "a/b/test_x.py"),
        ("src/*.py", "src/mod.py"),
        ("a/b*c*d.txt", "a/bXcYd.txt"),
        ("src/*/README.md", "src/pkg/README.md"),
    ],
)
def test_a_matched_name_has_the_ends_the_glob_promises(glob, path):
    start, end = globs.name_ends(glob)
    name = path.rsplit("/", 1)[-1]
    assert globs.matches(glob, path) and name.startswith(start) and name.endswith(end)


@pytest.mark.parametrize(
    ("glob", "prefix"),
    [("src/db", "src/db"), ("/src/", "src"), ("src?/x", ""), ("a/b/c*", "a/b"), ("  src/db/**  ", "src/db")],
)
def test_literal_prefix_more_shapes(glob, prefix):
    assert globs.literal_prefix(glob) == prefix


def test_governed_lists_the_matched_paths_sorted_and_nothing_for_no_globs():
    paths = ["z.md", "src/a", "lib/b", "a/c.md", "src/z/y.py"]
    assert globs.governed(["src/**", "*.md"], paths) == ["src/a", "src/z/y.py", "z.md"]
    assert globs.governed([], paths) == []
    assert globs.governed(["nothing/**"], paths) == []


def test_a_glob_set_names_every_glob_that_matches_in_order_and_skips_an_invalid_one():
    found = globs.GlobSet(("src/**", "[z-a]", "*.md", "src/a.py"))
    assert found.matching("src/a.py") == [0, 3]
    assert found.matching("x.md") == [2]
    assert found.matching("lib/x") == []
    assert not found.any("lib/x") and found.any("src/b")


def test_a_glob_set_of_many_globs_agrees_with_matching_each_alone():
    many = tuple(f"pkg{n}/**/*.py" for n in range(600)) + ("docs/",)
    found = globs.glob_set(many)
    assert found.matching("pkg7/a/b.py") == [7]
    assert found.matching("pkg599/c.py") == [599]
    assert found.matching("docs/adr/x.md") == [600]
    assert globs.any_match(many, "pkg42/x.py") and not globs.any_match(many, "pkg42/x.txt")
    for path in ("pkg7/a/b.py", "pkg600/x.py", "docs", "pkg1/x.pyc", "pkg10/deep/er/x.py"):
        assert found.matching(path) == [n for n, glob in enumerate(many) if globs.matches(glob, path)], path


_SEGMENT = st.text(alphabet="abcxyz_.-0123456789", min_size=1, max_size=8).filter(lambda s: s not in (".", ".."))


@given(st.lists(_SEGMENT, min_size=1, max_size=5))
def test_a_literal_path_matches_itself_and_everything_under_it_and_not_its_siblings(parts):
    path = "/".join(parts)
    assert globs.problem(path) is None
    assert globs.matches(path, path)
    assert globs.matches(path, path + "/child.txt")
    assert not globs.matches(path, path + "x")
    assert globs.literal_prefix(path) == path
    assert path in globs.under(path) and "" in globs.under(path)
