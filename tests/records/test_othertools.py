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


@pytest.mark.parametrize(
    ("name", "text", "folder"),
    [
        (".log4brains.yml", "project:\n  adrFolder: '  docs/adr  '\n", "docs/adr"),  # blanks around it go
        (".log4brains.yml", "\ufeffproject:\n  adrFolder: decisions\n", "decisions"),  # a BOM
        ("adrgen.config.yml", "directory: arch/adr\r\ntemplate_file: t.md\r\n", "arch/adr"),  # CRLF
        (".adr", "[adr]\nrecords_dir: doc/records\n", "doc/records"),  # configparser's `:` form
        (".adr/adr.properties", "  docPath: docs/arch\n", "docs/arch"),  # a properties `:` line
        (".adr/adr.properties", "docPathX = nope\ndocPath=docs/a\n", "docs/a"),
        ("adrs.toml", "adr_dir = 'd\u00e9cisions'\n", "d\u00e9cisions"),
    ],
)
def test_more_shapes_of_each_tools_settings(tmp_path, name, text, folder):
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_bytes(text.encode("utf-8"))
    assert othertools.folder(tmp_path) == (folder, name)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (".log4brains.yml", "packages:\n  - adrFolder: pkg/adr\n"),  # a package's folder is its own
        (".log4brains.yml", "- a\n- b\n"),  # no mapping
        (".log4brains.yml", "project:\n  adrFolder: [a, b]\n"),  # no text
        (".log4brains.yml", "x: !!python/object/apply:os.system ['true']\n"),  # builds no objects
        (".adr", "[other]\nrecords_dir = x\n"),
        (".adr", "records_dir = x\n"),  # no section header
        (".adr/adr.properties", "# docPath = commented\n"),
        ("adrs.toml", "[adr_dir]\nx = 1\n"),
    ],
)
def test_more_settings_that_name_no_folder(tmp_path, name, text):
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    assert othertools.folder(tmp_path) is None


def test_settings_that_are_no_regular_file_are_passed_over(tmp_path):
    import os

    os.mkfifo(tmp_path / ".log4brains.yml")  # never blocks
    (tmp_path / "adrgen.config.yml").mkdir()
    (tmp_path / "adrs.toml").write_bytes(b'adr_dir = "x\xff"\n')  # bytes past UTF-8 replaced, still read
    assert othertools.folder(tmp_path) == ("x\ufffd", "adrs.toml")


def test_a_settings_file_exactly_at_the_cap_is_read(tmp_path):
    text = "directory: a\n"
    (tmp_path / "adrgen.config.yml").write_text(text + "#" * (othertools.MAX_BYTES - len(text)))
    assert othertools.folder(tmp_path) == ("a", "adrgen.config.yml")


def test_the_order_the_tools_are_asked_in():
    assert [name for name, _ in othertools.SETTINGS] == [
        ".log4brains.yml",
        "adrgen.config.yml",
        ".adr",
        "adrs.toml",
        ".adr/adr.properties",
    ]
