"""policy.templates: a new record's file name and template, from the folder's own when it has one."""

from __future__ import annotations

import pytest

from adr_memory.policy.templates import slugify


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Use PostgreSQL for storage", "use-postgresql-for-storage"),
        ("Überprüfung der Eingaben", "uberprufung-der-eingaben"),  # folded, not adr-tools' `berpr-fung`
        ("Straße & Œuvre", "strasse-oeuvre"),
        ("  --Leading and trailing--  ", "leading-and-trailing"),
        ("日本語", "decision"),  # nothing ASCII left: a name still
        ("x" * 100, "x" * 60),
    ],
)
def test_a_title_gives_an_ascii_file_name(title, slug):
    assert slugify(title) == slug


def test_a_cut_slug_never_ends_in_a_dash():
    assert not slugify("a" * 59 + " word").endswith("-")
