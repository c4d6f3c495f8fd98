"""Where the decisions live: `--dir` or the config, `.adr-dir`, another tool's settings, a
conventional folder, else the folder whose files read like ADRs, else `docs/adr`."""

from __future__ import annotations

import pytest

from adr_memory.errors import ConfigError
from adr_memory.records.discovery import discover, locate

ADR = "# {n}. Title\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n"


def _records(root, folder, count=2, names="{n:04}-record.md"):
    for n in range(1, count + 1):
        path = root / folder / names.format(n=n)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ADR.format(n=n))


def test_each_source_is_asked_in_order(tmp_path):
    assert locate(tmp_path, None) == ("docs/adr", "default")
    _records(tmp_path, "architecture/records")
    assert locate(tmp_path, None) == ("architecture/records", "discovered")
    (tmp_path / "doc/adr").mkdir(parents=True)
    assert locate(tmp_path, None) == ("doc/adr", "found")
    (tmp_path / "adrs.toml").write_text('adr_dir = "from-adrs"\n')
    assert locate(tmp_path, None) == ("from-adrs", "adrs.toml")
    (tmp_path / ".adr-dir").write_text("doc/arch\n")
    assert locate(tmp_path, None) == ("doc/arch", ".adr-dir")
    assert locate(tmp_path, "mine") == ("mine", "configured")


@pytest.mark.parametrize("named", ["../outside", "/etc", ".git/hooks", ".git"])
def test_a_folder_outside_the_work_tree_or_in_git_is_refused(tmp_path, named):
    (tmp_path / ".adr-dir").write_text(named)
    with pytest.raises(ConfigError):
        locate(tmp_path, None)


def test_discovery_counts_files_that_read_like_adrs_and_passes_dependencies_by(tmp_path):
    _records(tmp_path, "node_modules/pkg/adr", count=9)
    _records(tmp_path, "docs/notes", count=1)
    assert discover(tmp_path) is None  # one file is no folder of decisions; dependencies are not ours
    _records(tmp_path, "engineering/choices", count=3)
    _records(tmp_path, "engineering/choices/old", count=2)
    _records(tmp_path, "docs/decisions-x", count=3)
    assert discover(tmp_path) == "engineering/choices"  # its subfolder's records count with it
    (tmp_path / "src").mkdir()
    for n in range(1, 9):  # numbered files that do not read like ADRs
        (tmp_path / "src" / f"{n:04}-migration.md").write_text("ALTER TABLE x;\n")
    assert discover(tmp_path) == "engineering/choices"


def test_a_folder_of_records_named_by_title_is_found_where_its_name_says_decisions(tmp_path):
    _records(tmp_path, "architecture/decision-log", names="choice-{n}.md", count=3)
    _records(tmp_path, "notes", names="note-{n}.md", count=5)
    assert discover(tmp_path) == "architecture/decision-log"


def test_a_repository_of_decisions_keeps_them_at_its_root(tmp_path):
    _records(tmp_path, ".", count=3)
    assert discover(tmp_path) == "."


@pytest.mark.parametrize(
    ("counts", "chosen"),
    [
        ({"docs/adr": 3, "notes": 3}, "docs/adr"),  # a tie: the folder named like ADRs
        ({"a": 3, "a/b": 2}, "a"),  # the subfolder counts with it
        ({"x": 2, "y/z": 2}, "x"),  # a tie of names too: the shallower
        ({"big": 2, "big/sub": 3, "other": 4}, "big"),
        ({"x": 1}, None),  # one file of its own is no folder of decisions
        ({".": 5}, None),  # the root is no folder below it
        ({}, None),
    ],
)
def test_the_folder_with_the_most_records_is_chosen(counts, chosen):
    from adr_memory.records.discovery import _most

    assert _most(counts) == chosen


def test_an_adr_dir_file_is_read_stripped_and_one_that_says_nothing_is_passed_over(tmp_path):
    (tmp_path / ".adr-dir").write_bytes(b"  doc/arch  \r\n")
    assert locate(tmp_path, None) == ("doc/arch", ".adr-dir")
    (tmp_path / ".adr-dir").write_text("   \n")  # says nothing: the next source is asked
    assert locate(tmp_path, None) == ("docs/adr", "default")


def test_a_git_dir_named_anyhow_is_refused_with_its_name(tmp_path):
    with pytest.raises(ConfigError) as refused:
        locate(tmp_path, "./.git/")
    assert refused.value.message == "the ADR folder './.git/' is inside .git, where nothing is versioned"
    assert refused.value.hint == "name a folder of the work tree, e.g. docs/adr"
    (tmp_path / ".adr-dir").write_text(".git/x")
    with pytest.raises(ConfigError, match=r"^the ADR folder in \.adr-dir '\.git/x' is inside \.git"):
        locate(tmp_path, None)
    assert locate(tmp_path, ".github/adr") == (".github/adr", "configured")  # only `.git` itself


def test_another_tools_folder_outside_the_repository_is_refused_by_the_settings_name(tmp_path):
    (tmp_path / "adrs.toml").write_text('adr_dir = "../elsewhere"\n')
    with pytest.raises(ConfigError) as refused:
        locate(tmp_path, None)
    assert refused.value.message == "the ADR folder in adrs.toml '../elsewhere' points outside the repository"


def test_hidden_folders_build_output_and_deep_folders_are_not_searched(tmp_path):
    _records(tmp_path, ".hidden/adr", count=5)
    _records(tmp_path, "build/adr", count=5)
    _records(tmp_path, "a/b/c/d/e/adr", count=5)  # past four levels down
    assert discover(tmp_path) is None
    _records(tmp_path, "a/b/c/adr", count=2)  # four levels: searched
    assert discover(tmp_path) == "a/b/c/adr"


def test_records_in_folders_of_their_own_count_for_the_folder_above(tmp_path):
    for n in (1, 2):
        page = tmp_path / "design" / f"{n:04}-choice-{n}" / "index.md"
        page.parent.mkdir(parents=True)
        page.write_text(ADR.format(n=n))
    assert discover(tmp_path) == "design"


def test_a_file_reads_like_an_adr_by_two_of_its_words_at_line_starts(tmp_path):
    from adr_memory.records.discovery import _reads_like_adr

    path = tmp_path / "0001-x.md"
    for text, reads in [
        ("## Status\n\n## Context\n", True),
        ("* status: x\n| Decision | y |\n", True),
        ("Status\nstatus\nSTATUS\n", False),  # one word, however often
        ("The status and the context of it.\n", False),  # in passing, not at a line's start
        ("", False),
    ]:
        path.write_text(text)
        assert _reads_like_adr(path) is reads, text
    assert not _reads_like_adr(tmp_path / "missing.md")
