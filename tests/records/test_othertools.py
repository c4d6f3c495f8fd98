"""Other ADR tools' settings name the folder: log4brains, adrgen, pyadr, adrs and ADR-J, each
read as untrusted text; settings that do not parse, or name nothing, are passed over."""

from __future__ import annotations

import pytest

from adr_memory.records import othertools

SETTINGS = [
    (".log4brains.yml", "project:\n  name: shop\n  adrFolder: ./docs/decisions\n", "./docs/decisions"),
    ("adrgen.config.yml", "directory: arch/adr\ntemplate_file: t.md\n", "arch/adr"),
    (".adr", "[adr]\nrecords_dir = doc/records\n", "doc/records"),
    ("adrs.toml", 'adr_dir = "decisions"\n', "decisions"),
    (".adr/adr.properties", "author=me\ndocPath = docs/architecture\n", "docs/architecture"),
]


@pytest.mark.parametrize(("name", "text", "folder"), SETTINGS)
def test_each_tool_s_settings_name_its_folder(tmp_path, name, text, folder):
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert othertools.folder(tmp_path) == (folder, name)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".log4brains.yml", "project: 3\n"),
        (".log4brains.yml", "project: [unclosed\n"),
        (".log4brains.yml", "[" * 5000 + "]" * 5000),
        ("adrgen.config.yml", "directory: ''\n"),
        (".adr", "[adr\nrecords_dir = x\n"),
        ("adrs.toml", "adr_dir = \n"),
        ("adrs.toml", "adr_dir = 7\n"),
    ],
)
def test_settings_that_do_not_parse_or_name_nothing_are_passed_over(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    assert othertools.folder(tmp_path) is None


def test_the_first_tool_asked_wins_and_oversized_settings_are_not_read(tmp_path):
    (tmp_path / "adrs.toml").write_text('adr_dir = "b"\n')
    (tmp_path / "adrgen.config.yml").write_text("directory: a\n")
    assert othertools.folder(tmp_path) == ("a", "adrgen.config.yml")
    (tmp_path / "adrgen.config.yml").write_text("directory: a\n" + "#" * othertools.MAX_BYTES)
    assert othertools.folder(tmp_path) == ("b", "adrs.toml")
