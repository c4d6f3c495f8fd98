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


DATED = parse("---\nstatus: accepted\n---\n# Dated\n", "docs/adr/2024-01-05-dated.md")
IN_A_CATEGORY = parse("---\nstatus: accepted\n---\n# Sub\n", "docs/adr/backend/0007-sub.md")


def _linked(text, rel, target=TARGET, status=None):
    return link_text(text, parse(text, "docs/adr/0005-use-redis.md"), rel, target, status=status)


@pytest.mark.parametrize(
    ("text", "rel", "status", "linked"),
    [
        # Frontmatter: the key the relation is stored under, typed in any case.
        (
            "---\nstatus: accepted\n---\n# A\n",
            "Supersedes",
            None,
            "---\nstatus: accepted\nsupersedes: [ADR-0003]\n---\n# A\n",
        ),
        (
            "---\nstatus: accepted\nsupersedes: [ADR-0001]\n---\n# A\n",
            "supersedes",
            None,
            "---\nstatus: accepted\nsupersedes: [ADR-0001, ADR-0003]\n---\n# A\n",
        ),
        (
            "---\nstatus: accepted\n---\n# A\n",
            "Superseded by",
            "superseded",
            "---\nstatus: superseded\nsuperseded-by: [ADR-0003]\n---\n# A\n",
        ),
        (
            "---\nstatus: accepted\n---\n# A\n",
            "Depends on",
            None,
            "---\nstatus: accepted\ndepends-on: [ADR-0003]\n---\n# A\n",
        ),
        # A relation of the writer's own naming joins `links`.
        (
            "---\nstatus: accepted\nlinks: [{rel: amends, id: ADR-0001}]\n---\n# A\n",
            "Amends",
            None,
            "---\nstatus: accepted\nlinks: [{rel: amends, id: ADR-0001}, {rel: amends, id: ADR-0003}]\n---\n# A\n",
        ),
        # MADR 2's header list: an item of its own, right below the status.
        (
            "# 5. A\n\n* Status: accepted\n* Date: 2024\n",
            "Amends",
            None,
            "# 5. A\n\n* Status: accepted\n* Amends [3. Use Postgres](0003-use-postgres.md)\n* Date: 2024\n",
        ),
        # Below a ticked checklist, not inside it.
        (
            "# 5. A\n\n## Status\n\n- [x] Accepted\n- [ ] Deprecated\n\n## Context\n",
            "Amends",
            None,
            "# 5. A\n\n## Status\n\n- [x] Accepted\n- [ ] Deprecated\n\n"
            "Amends [3. Use Postgres](0003-use-postgres.md)\n\n## Context\n",
        ),
        (
            "# 5. A\n\n## Status\n\nAccepted\n",
            "Supersedes",
            None,
            "# 5. A\n\n## Status\n\nAccepted\n\nSupersedes [3. Use Postgres](0003-use-postgres.md)\n",
        ),
        # A line already there is not written twice.
        (
            "# 5. A\n\n## Status\n\nAccepted\n\nAmends [3. Use Postgres](0003-use-postgres.md)\n",
            "Amends",
            None,
            "# 5. A\n\n## Status\n\nAccepted\n\nAmends [3. Use Postgres](0003-use-postgres.md)\n",
        ),
        # A status in a table's cell or a badge changes there; the link goes to frontmatter.
        (
            "# 5. A\n\n| Status | Date |\n|---|---|\n| Accepted | 2024-01-01 |\n",
            "Superseded by",
            "superseded",
            "---\nsuperseded-by: [ADR-0003]\n---\n# 5. A\n\n| Status | Date |\n|---|---|\n| Superseded | 2024-01-01 |\n",
        ),
        (
            "# 5. A\n\n![status](https://img.shields.io/badge/status-accepted-green)\n",
            "Amends",
            None,
            "---\nlinks: [{rel: amends, id: ADR-0003}]\n---\n# 5. A\n\n"
            "![status](https://img.shields.io/badge/status-accepted-green)\n",
        ),
    ],
)
def test_a_link_is_written_where_the_record_states_its_status(text, rel, status, linked):
    assert _linked(text, rel, status=status) == linked


def test_a_link_line_names_the_target_by_number_and_title_with_a_path_from_the_record():
    nygard = "# 5. A\n\n## Status\n\nAccepted\n"
    assert _linked(nygard, "Amends", DATED).endswith("\n\nAmends [Dated](2024-01-05-dated.md)\n")  # no number
    assert _linked(nygard, "Amends", IN_A_CATEGORY).endswith("\n\nAmends [7. Sub](backend/0007-sub.md)\n")


@pytest.mark.parametrize("spec", ["5", "5:Amends", "5:Amends:Amended by:x", " :Amends:Amended by", "5::Amended by"])
def test_a_link_spec_missing_a_part_is_refused(spec):
    with pytest.raises(UsageError) as told:
        LinkSpec.parse(spec)
    assert told.value.message == f"cannot read link {spec!r}"
    assert told.value.hint == 'write it as "TARGET:Link:Reverse link", e.g. "5:Amends:Amended by"'
