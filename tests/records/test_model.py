"""The record model's plain parts: every link key another tool writes maps to one of ours, a
link's identity is its relation and target, and the status vocabulary is the one documented."""

from __future__ import annotations

from adr_memory.records import parse
from adr_memory.records.model import LINK_KEYS, STATUSES, Link


def test_the_statuses_are_the_five_of_the_lifecycle():
    assert STATUSES == ("proposed", "accepted", "rejected", "deprecated", "superseded")


def test_every_spelling_of_a_link_key_is_read_as_one_relation():
    for key, rel in LINK_KEYS.items():
        rec = parse(f"---\n{key}: [ADR-0002]\n---\n# T\n", "docs/adr/0001-t.md")
        assert [(link.rel, link.target) for link in rec.links] == [(rel, "ADR-0002")], key


def test_a_link_is_the_same_link_whichever_file_it_was_written_as():
    assert Link("supersedes", "ADR-0002", 3, file="0002-x.md") == Link("supersedes", "ADR-0002", 3)
    assert Link("supersedes", "ADR-0002") != Link("relates-to", "ADR-0002")
