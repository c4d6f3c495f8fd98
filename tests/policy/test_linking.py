"""Links written in each record's own style: a frontmatter key, an adr-tools line under the
status (in the record's language, in reStructuredText's syntax), nothing when it is said."""

from __future__ import annotations

import pytest

from adr_memory.errors import InvalidRecord, UsageError
from adr_memory.policy.linking import LinkSpec, link_text
from adr_memory.records import parse

TARGET = parse("---\nstatus: accepted\n---\n# Use Postgres\n", "docs/adr/0003-use-postgres.md")
NYGARD = "# 5. Use Redis\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"


def test_an_adr_tools_link_spec_reads_three_parts_or_says_how():
    assert LinkSpec.parse(" 5 : Amends : Amended by ") == LinkSpec("5", "Amends", "Amended by")
    with pytest.raises(UsageError, match="cannot read link") as told:
        LinkSpec.parse("5:Amends")
    assert "TARGET:Link:Reverse link" in told.value.hint


def test_a_frontmatter_record_gains_the_key_and_keeps_every_other_byte():
    text = "---\n# kept comment\nstatus: accepted\ntags: [db]   # mine\n---\n# Use Redis\n"
    rec = parse(text, "docs/adr/0005-use-redis.md")
    written = link_text(text, rec, "relates to", TARGET)
    assert written.replace("relates-to:", "\x00").count("\x00") == 1 and "ADR-0003" in written
    assert written.startswith("---\n# kept comment\nstatus: accepted\ntags: [db]   # mine\n")
    assert link_text(written, parse(written, rec.path), "relates to", TARGET) == written  # said once
    other = link_text(text, rec, "Amends", TARGET)
    assert "links:" in other and "rel: amends" in other


def test_links_that_are_no_list_are_not_rewritten():
    text = "---\nstatus: accepted\nlinks: see the wiki\n---\n# Use Redis\n"
    with pytest.raises(InvalidRecord, match="`links` is not a list"):
        link_text(text, parse(text, "docs/adr/0005-use-redis.md"), "Amends", TARGET)


def test_an_adr_tools_record_gets_a_line_under_its_status_and_supersession_replaces_it():
    rec = parse(NYGARD, "docs/adr/0005-use-redis.md")
    linked = link_text(NYGARD, rec, "Amends", TARGET)
    assert "## Status\n\nAccepted\n\nAmends [3. Use Postgres](0003-use-postgres.md)\n\n## Context" in linked
    replaced = link_text(NYGARD, rec, "Superseded by", TARGET, status="superseded")
    assert "## Status\n\nSuperseded by [3. Use Postgres](0003-use-postgres.md)\n" in replaced
    assert "Accepted" not in replaced


def test_the_line_is_written_in_the_record_s_language_and_markup():
    german = NYGARD.replace("Accepted", "Akzeptiert")
    rec = parse(german, "docs/adr/0005-use-redis.md")
    assert "Ersetzt durch [3. Use Postgres]" in link_text(german, rec, "Superseded by", TARGET, status="superseded")
    text = "5. Use Redis\n============\n\nStatus\n------\n\nAccepted\n"
    rst_rec = parse(text, "docs/adr/0005-use-redis.rst")
    assert "Amends `3. Use Postgres <0003-use-postgres.md>`_" in link_text(text, rst_rec, "Amends", TARGET)
