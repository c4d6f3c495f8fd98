"""records.names: what a file's name says about the record in it (number, date, id), and ids as
people type them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.records import names


@pytest.mark.parametrize(
    ("filename", "number", "ident"),
    [
        ("0007-use-x.md", 7, "ADR-0007"),
        ("adr-012-use-x.md", 12, "ADR-0012"),
        ("0001-X.MD", 1, "ADR-0001"),
        ("2020-eager-loading.md", 2020, "ADR-2020"),  # a year alone may be a number: the folder decides
        ("2021-06-01-release.md", None, "2021-06-01-release"),  # named by its date, not numbered
        ("20210601-release.md", None, "20210601-release"),
        ("XXXX-use-kafka.md", None, "XXXX-use-kafka"),  # pyadr's proposal before it has a number
        ("notes.md", None, None),
        ("1" * 12 + "-x.md", None, None),  # no folder holds a billion records
    ],
)
def test_a_file_name_gives_its_number_and_id(filename, number, ident):
    assert names.file_number(filename) == number
    assert names.file_id(filename) == ident


def test_dates_and_years_in_names():
    assert names.file_date("2021-06-01-x.md") == names.file_date("20210601-x.md") == "2021-06-01"
    assert names.named_by_date("2021-06-01-x.md") and not names.named_by_year("2021-06-01-x.md")
    assert names.named_by_year("2020-x.md") and not names.named_by_date("2020-x.md")
    assert names.file_date("0007-x.md") is None


def test_a_record_in_a_folder_of_its_own_goes_by_the_folders_name():
    assert names.record_file("adr/20240524-pipeline/index.md") == "adr/20240524-pipeline.md"
    assert names.record_name("adr/0003-use-x/README.md") == "0003-use-x.md"
    assert names.record_file("adr/2023/README.md") == "adr/2023/README.md"  # a year's index
    assert names.record_file("docs/adr/0001-x.md") == "docs/adr/0001-x.md"


@pytest.mark.parametrize(
    ("filename", "stem", "suffix"),
    [("0001-x.md", "0001-x", ".md"), ("0001-x.MDX", "0001-x", ".MDX"), ("a.rst", "a", ".rst"), ("a.txt", "a.txt", "")],
)
def test_stem_and_suffix_split_a_record_name_as_written(filename, stem, suffix):
    assert (names.stem(filename), names.suffix(filename)) == (stem, suffix)
    assert names.stem(filename) + names.suffix(filename) == filename


@pytest.mark.parametrize(
    ("typed", "ident"),
    [
        ("7", "ADR-0007"),
        ("0007", "ADR-0007"),
        ("ADR-7", "ADR-0007"),
        (" adr-0007 ", "ADR-0007"),
        ("backend/7", "backend/ADR-0007"),  # a MADR category
        ("../7", "../7"),  # `..` names no category: kept as typed, to be reported unknown
        ("use-x", "use-x"),
    ],
)
def test_ids_as_people_type_them(typed, ident):
    assert names.normalise_id(typed) == ident


@given(st.integers(min_value=0, max_value=999_999_999))
def test_a_formatted_id_reads_back_as_itself(number):
    ident = names.format_id(number)
    assert names.normalise_id(ident) == ident
    assert names.file_id(f"{ident.lower()}-title.md") == ident


@pytest.mark.parametrize(
    ("filename", "number", "ident"),
    [
        ("ADR_0003_x.md", 3, "ADR-0003"),
        ("adr 5 x.md", 5, "ADR-0005"),
        ("0007.md", 7, "ADR-0007"),  # a number alone names a record too
        ("007-x.rst", 7, "ADR-0007"),
        ("0000-x.md", 0, "ADR-0000"),  # adr-tools' own record zero
        ("000000001-x.md", 1, "ADR-0001"),  # leading zeros are no significant digits
        ("0000000001-x.md", 1, "ADR-0001"),
        ("12345-x.md", 12345, "ADR-12345"),  # wider than four digits: as many as it needs
        ("1234567890-x.md", None, None),  # ten significant digits: no record's number
        ("12a-x.md", None, None),  # the number must end where the name's next part starts
        ("v1-x.md", None, None),
        ("adr-2021-06-01-x.md", None, "adr-2021-06-01-x"),
        ("2021-13-01-x.md", 2021, "ADR-2021"),  # no month 13: a year, so a number
        ("2021-0601-x.md", 2021, "ADR-2021"),  # a date mixes no separators
        ("19691231-x.md", 19691231, "ADR-19691231"),  # before 1970 is no date a folder names
        ("NNN-use.md", None, "NNN-use"),  # a pending proposal, as pyadr also writes it
        ("XXX_x.md", None, "XXX_x"),
        ("XX-x.md", None, None),  # two letters are a name, not a placeholder
    ],
)
def test_more_file_names(filename, number, ident):
    assert names.file_number(filename) == number
    assert names.file_id(filename) == ident


@pytest.mark.parametrize(
    ("filename", "date", "by_date", "by_year"),
    [
        ("2021-06-01-x.md", "2021-06-01", True, False),
        ("20210601-x.md", "2021-06-01", True, False),
        ("adr-20210601-x.md", "2021-06-01", True, False),
        ("2021-06-01.md", "2021-06-01", True, False),
        ("1999-x.md", None, False, True),
        ("2020_x.md", None, False, True),
        ("2021-13-01-x.md", None, False, True),
        ("2020.md", None, False, False),  # a year must be followed by a title's separator
        ("3000-x.md", None, False, False),  # no year a folder is named in
        ("0007-x.md", None, False, False),
    ],
)
def test_a_name_starts_with_a_date_a_year_or_neither(filename, date, by_date, by_year):
    assert names.file_date(filename) == date
    assert names.named_by_date(filename) is by_date
    assert names.named_by_year(filename) is by_year


@pytest.mark.parametrize(
    ("path", "file"),
    [
        ("adr/0001-x/INDEX.MDX", "adr/0001-x.MDX"),  # any case, any record suffix
        ("adr/20240524-pipeline/README.rst", "adr/20240524-pipeline.rst"),
        ("adr/0001/index.md", "adr/0001/index.md"),  # a folder named by a number alone is no record's
        ("adr/0001-x/notes.md", "adr/0001-x/notes.md"),  # only its page file stands for the folder
        ("adr/x-0001/index.md", "adr/x-0001/index.md"),
        ("index.md", "index.md"),
        ("0002-y/README.md", "0002-y.md"),
    ],
)
def test_only_a_page_file_in_a_numbered_and_titled_folder_goes_by_the_folder(path, file):
    assert names.record_file(path) == file
    assert names.record_name(path) == file.rpartition("/")[2]


@pytest.mark.parametrize(
    ("typed", "ident"),
    [
        ("platform:12", "platform:ADR-0012"),  # a source's record
        ("platform:ADR-0012", "platform:ADR-0012"),
        ("Platform:12", "Platform:12"),  # a source's name is lowercase
        ("https://x", "https://x"),  # an address is no source's id
        ("Team A/7", "Team A/ADR-0007"),  # a category may hold a space
        ("a/b/7", "a/b/ADR-0007"),  # and nest
        (".x/7", ".x/7"),  # a hidden folder is no category
        ("ADR 7", "ADR-0007"),
        ("adr_7", "ADR-0007"),
        ("#7", "#7"),
        ("7.0", "7.0"),
        ("", ""),
        ("  ", ""),
        ("1234567890", "1234567890"),  # past nine digits: kept, to be reported unknown
        ("2021-06-01-x", "2021-06-01-x"),
    ],
)
def test_more_ids_as_people_type_them(typed, ident):
    assert names.normalise_id(typed) == ident


@given(st.integers(min_value=0, max_value=999_999_999), st.sampled_from(["", "adr-", "ADR_", "adr "]))
def test_any_number_in_any_prefix_is_one_id(number, prefix):
    ident = names.format_id(number)
    assert names.normalise_id(f"{prefix}{number}") == ident
    assert names.normalise_id(f"{prefix}{number:09d}") == ident
    assert names.file_number(f"{prefix}{number:04d}-a-title.md") == number


@pytest.mark.parametrize(
    ("path", "rst"), [("a.rst", True), ("a.RST", True), ("docs/x.Rst", True), ("a.rst.md", False), ("a.md", False)]
)
def test_restructured_text_is_told_by_its_suffix_in_any_case(path, rst):
    assert names.is_rst(path) is rst


def test_every_record_suffix_splits_in_any_case():
    for written in names.RECORD_SUFFIXES:
        for suffix in (written, written.upper()):
            assert (names.stem(f"0001-x{suffix}"), names.suffix(f"0001-x{suffix}")) == ("0001-x", suffix)
    assert names.format_id(12345) == "ADR-12345" and names.format_id(0) == "ADR-0000"
