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
