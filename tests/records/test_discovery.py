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
