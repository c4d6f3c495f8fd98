from __future__ import annotations

import pytest

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
