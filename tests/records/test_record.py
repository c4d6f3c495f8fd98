from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adr_memory import records
from tests.helpers import CORPORA

# Checked by hand against the files (first heading, status section as written).
CORPUS_TABLE = [
    ("cloud-platform/000-Record-Architecture-Decisions.md", "ADR-0000", "Record Architecture Decisions", "accepted"),
    ("cloud-platform/001-Use-AWS-hosted-elasticsearch.md", "ADR-0001", "Use AWS hosted Elasticsearch", "accepted"),
    ("cloud-platform/003-Use-Concourse-CI.md", "ADR-0003", "Use Concourse CI", "accepted"),
    (
        "cloud-platform/017-Variable-Naming.md",
        "ADR-0017",
        "Variable names in YAML & Terraform files are in snake case",
        "proposed",
    ),
    (
        "cloud-platform/018-Dedicated-Ingress-Controllers.md",
        "ADR-0018",
        "Dedicated Ingress Controllers for teams",
        "rejected",
    ),
    ("cloud-platform/020-Environments-and-Pipeline.md", "ADR-0020", "Environments and Pipeline", "proposed"),
    ("cloud-platform/021-Multi-cluster.md", "ADR-0021", "Multi-cluster", "superseded"),
    ("cloud-platform/022-EKS.md", "ADR-0022", "EKS", "accepted"),
    ("cloud-platform/023-Logging.md", "ADR-0023", "Logging", "accepted"),
    ("cloud-platform/028-Repo-vulnerability-scanning.md", "ADR-0028", "Repo vulnerability scanning", "accepted"),
    ("cloud-platform/034-EKS-Fargate.md", "ADR-0034", "EKS Fargate", "proposed"),
    ("cloud-platform/036-multi-cluster.md", "ADR-0036", "Multi-cluster", "accepted"),
    ("cloud-platform/037-serverless.md", "ADR-0037", "Serverless (Lambda/Functions-as-a-Service)", "rejected"),
    (
        "cloud-platform/049-use-cluster-accounts-for-resources.md",
        "ADR-0049",
        "Use Cluster Accounts for Resources",
        "accepted",
    ),
    ("cometbft/adr-100-data-companion-push-api.md", "ADR-0100", "Data Companion Push API", "rejected"),
    ("cometbft/adr-102-rpc-companion.md", "ADR-0102", "RPC Companion", "accepted"),
    ("cometbft/adr-105-refactor-mempool-senders.md", "ADR-0105", "Refactor list of senders in mempool", "deprecated"),
    (
        "cometbft/adr-108-e2e-abci++.md",
        "ADR-0108",
        "E2E tests for CometBFT's behaviour in respect to ABCI 2.0.",
        "accepted",
    ),
    ("cometbft/adr-112-proposer-based-timestamps.md", "ADR-0112", "Proposer-Based Timestamps", "accepted"),
    ("cometbft/adr-113-modular-transaction-hashing.md", "ADR-0113", "Modular transaction hashing", "proposed"),
    ("cometbft/tendermint-core/adr-001-logging.md", "ADR-0001", "Logging", "accepted"),
    ("cometbft/tendermint-core/adr-012-peer-transport.md", "ADR-0012", "PeerTransport", "proposed"),
    ("cometbft/tendermint-core/adr-021-abci-events.md", "ADR-0021", "ABCI Events", "accepted"),
    ("cometbft/tendermint-core/adr-030-consensus-refactor.md", "ADR-0030", "Consensus Refactor", "proposed"),
    ("cometbft/tendermint-core/adr-036-empty-blocks-abci.md", "ADR-0036", "Empty Blocks via ABCI", "accepted"),
    ("cometbft/tendermint-core/adr-045-abci-evidence.md", "ADR-0045", "ABCI Evidence Handling", "proposed"),
    ("cometbft/tendermint-core/adr-058-event-hashing.md", "ADR-0058", "Event hashing", "rejected"),
    (
        "cometbft/tendermint-core/adr-071-proposer-based-timestamps.md",
        "ADR-0071",
        "Proposer-Based Timestamps",
        "accepted",
    ),
]


@pytest.mark.parametrize("rel,ident,title,status", CORPUS_TABLE)
def test_corpus_records_parse_with_the_right_title_and_status(rel, ident, title, status):
    rec = records.parse((CORPORA / rel).read_text(encoding="utf-8"), rel)
    assert (rec.id, rec.title, rec.status) == (ident, title, status)


def test_every_corpus_record_parses_with_a_title():
    files = [p for p in CORPORA.rglob("*.md") if p.name != "SOURCE.md"]
    assert len(files) == 49 + 93 + 39
    for path in files:
        rec = records.parse(path.read_text(encoding="utf-8"), path.name)
        assert rec.title and rec.number is not None, path


def test_nygard_supersession_link_is_read_from_the_status_section():
    rec = records.parse((CORPORA / "cloud-platform/021-Multi-cluster.md").read_text(), "021-Multi-cluster.md")
    assert rec.superseded_by == ("ADR-0036",)
    assert rec.status_text.startswith("⌛️ Superseded by")


def test_madr_list_header_status_and_date():
    text = (
        "# Use Markdown Architectural Decision Records\n\n* Status: superseded by "
        "[ADR-0005](0005-use-x.md)\n* Deciders: alice, bob\n* Date: 2020-05-01\n\n"
        "## Context and Problem Statement\n\nWhy.\n"
    )
    rec = records.parse(text, "docs/adr/0002-use-madr.md")
    assert rec.format == "madr"
    assert rec.status == "superseded"
    assert rec.superseded_by == ("ADR-0005",)
    assert rec.date == "2020-05-01"
    assert rec.status_line == 3


def test_frontmatter_status_superseded_by_text_and_lists():
    text = (
        '---\nstatus: "superseded by ADR-0057"\nsupersedes: [3, ADR-4]\ndepends-on: ADR-0002\n'
        'governs: ["src/db/**"]\ntags: storage, db\n---\n# Title here\n'
    )
    rec = records.parse(text, "0007-x.md")
    assert rec.status == "superseded" and rec.status_text == "superseded by ADR-0057"
    assert rec.superseded_by == ("ADR-0057",)
    assert rec.supersedes == ("ADR-0003", "ADR-0004")
    assert rec.depends_on == ("ADR-0002",)
    assert rec.governs == ("src/db/**",) and rec.tags == ("storage", "db")


# How folders say what replaced a record, beyond "Superseded by ADR-5".
SUCCESSOR_FORMS = [
    "Superseded (see ADR-5)",
    "Superseded, see ADR-5",
    "Superseded: ADR-5",
    "Superseded -> ADR-5",
    "Superseded by #5",
    "Replaced by #5",
    "Obsoleted by ADR-5",
    "Obsoleted by [ADR-5](0005-x.md)",
    "Superseded (see [ADR-5](0005-x.md))",
    "Superseded. See [5. New](0005-new.md)",
    "Superseded → [ADR 5](0005-x.md)",
    "Superseded on 2021-03-04 by ADR-5",
    "Deprecated in favour of ADR-5",
    "Deprecated in favor of [ADR-5](0005-x.md)",
]


@pytest.mark.parametrize("status", SUCCESSOR_FORMS)
@pytest.mark.parametrize(
    "layout",
    [
        "# 2. Old\n\nDate: 2020-01-01\n\n## Status\n\n{}\n\n## Context\n\nc\n",
        "# Old\n\n* Status: {}\n* Date: 2020-01-01\n\n## Context\n\nc\n",
        "---\nstatus: {}\n---\n# Old\n",
    ],
)
def test_a_record_retired_for_another_names_it_in_the_forms_folders_write(status, layout):
    text = layout.format(status if not layout.startswith("---") else f"'{status}'")
    rec = records.parse(text, "docs/adr/0002-old.md")
    assert rec.status == ("deprecated" if status.startswith("Deprecated") else "superseded")
    assert rec.superseded_by == ("ADR-0005",)


@pytest.mark.parametrize(
    "frontmatter,link",
    [
        ("replaced_by: ADR-5", ("superseded-by", "ADR-0005")),
        ("replacedBy: ADR-5", ("superseded-by", "ADR-0005")),
        ("supersedes: 1", ("supersedes", "ADR-0001")),
        ("replaces: ADR-1", ("supersedes", "ADR-0001")),
        ("amends: ADR-1", ("amends", "ADR-0001")),
        ("amended-by: [ADR-7]", ("amended by", "ADR-0007")),
    ],
)
def test_relations_are_read_under_the_keys_records_give_them(frontmatter, link):
    rec = records.parse(f"---\nstatus: accepted\n{frontmatter}\n---\n# Old\n\nc\n", "docs/adr/0002-old.md")
    assert [(x.rel, x.target) for x in rec.links] == [link] and rec.problems == ()


@pytest.mark.parametrize("status", ["Accepted. Replaces ADR-1", "Accepted; replaces [1. X](0001-x.md)"])
def test_a_status_that_says_it_replaces_a_record_supersedes_it(status):
    rec = records.parse(f"# 2. New\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0002-new.md")
    assert rec.status == "accepted" and rec.supersedes == ("ADR-0001",)


@pytest.mark.parametrize(
    "status",
    [
        "Rejected in favour of ADR 111",
        "Superseded, see discussion in #123",
        "Superseded, see [issue](https://github.com/x/y/issues/4)",
        "Accepted; superseded ADR-3 in part",
        "Deprecated, see ADR-5 for context",
    ],
)
def test_what_a_status_names_in_passing_is_no_successor(status):
    """A rejected proposal was never in force, so nothing replaced it; an issue's number is no
    record's; a status not superseded names other records for other reasons."""
    rec = records.parse(f"# 2. Old\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert rec.superseded_by == ()


@pytest.mark.parametrize(
    "heading",
    [
        "1. Status",
        "2) Status",
        "Decision status",
        "Current Status",
        "Status of this decision",
        "📌 Status",
        "Status 🚦",
        "**Status**",
        "Status:",
    ],
)
def test_a_status_section_is_read_however_its_heading_is_numbered_or_dressed(heading):
    """Read as no status at all, a rejected decision was in force (MADR: unstated is accepted)."""
    text = f"# 2. Old\n\n## 0. Summary\n\ns\n\n## {heading}\n\nRejected\n\n## Context\n\nc\n"
    rec = records.parse(text, "docs/adr/0002-old.md")
    assert (rec.status, rec.status_stated) == ("rejected", True)


# A Status written as folders write it, beyond a word on a line of its own.
STATUS_LAYOUTS = {
    "quoted": "## Status\n\n> Rejected\n",
    "guidance quoted above it": "## Status\n\n> What is the status\n\nRejected\n",
    "in HTML": '## Status\n\n<span style="color:red">Rejected</span>\n',
    "a table of keys": "## Status\n\n| Status | Date |\n|---|---|\n| Rejected | 2021-01-01 |\n",
    "a table of rows": "## Status\n\n| | |\n|---|---|\n| Status | Rejected |\n",
    "under a bold label": "**Status**\n\nRejected\n\n",
    "under a bold label with a colon": "**Status:**\n\nRejected\n\n",
}


@pytest.mark.parametrize("layout", list(STATUS_LAYOUTS))
def test_a_status_is_read_however_a_folder_lays_it_out(layout):
    rec = records.parse(f"# 2. Old\n\n{STATUS_LAYOUTS[layout]}\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert (rec.status, rec.status_stated) == ("rejected", True)


HISTORY = (
    "| Date | Status |\n|---|---|\n| 2020-01-01 | Proposed |\n| 2020-02-01 | Accepted |\n| 2021-01-01 | Rejected |\n"
)


@pytest.mark.parametrize(
    "layout",
    [
        HISTORY,
        "## Status\n\n" + HISTORY,
        "## Status\n\n- 2020-01-01: Proposed\n- 2021-01-01: Rejected\n",
        "## Status\n\n* 2020-01-01 - Proposed\n* 2021-01-01 — Rejected\n",
    ],
)
def test_a_history_of_statuses_states_its_last(layout):
    rec = records.parse(f"# 2. Old\n\n{layout}\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert rec.status == "rejected"


@pytest.mark.parametrize(
    "status,expected",
    [
        ("Proposed → Accepted", "accepted"),
        ("Proposed -> Accepted -> Rejected", "rejected"),
        ("Draft => Accepted", "accepted"),
        ("Accepted, then deprecated", "deprecated"),
        ("Proposed / Accepted", "proposed"),
        ("Superseded -> ADR-5", "superseded"),
    ],
)
def test_a_chain_of_statuses_states_where_it_went(status, expected):
    rec = records.parse(f"# 2. Old\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert rec.status == expected


@pytest.mark.parametrize(
    "entry,reason",
    [
        ("- 2021-01-01: Deprecated", ""),
        ("* 2021-01-01 - Deprecated: gone", "gone"),
        ("2021-01-01 deprecated: gone", "gone"),
    ],
)
def test_a_log_entrys_date_is_no_part_of_its_reason(entry, reason):
    rec = records.parse(f"# 2. X\n\n## Status\n\n{entry}\n\n## Context\n\nc\n", "docs/adr/0002-x.md")
    assert (rec.status, rec.status_reason) == ("deprecated", reason)


def test_a_dated_note_below_a_status_is_no_entry_of_its_history():
    rec = records.parse(
        "# 2. Old\n\n## Status\n\nRejected\n\n- 2022-01-01: discussed again\n\n## Context\n\nc\n",
        "docs/adr/0002-old.md",
    )
    assert rec.status == "rejected"


@pytest.mark.parametrize(
    "text",
    [
        "## Status\n\n> A decision may be proposed if the stakeholders agree\n",
        "## Status\n\n> Proposed, Accepted, Rejected\n",
        "**Status**\n\n**Date:** 2021-01-01\n\n",
    ],
)
def test_guidance_a_menu_or_a_label_over_nothing_states_no_status(text):
    rec = records.parse(f"# 2. Old\n\n{text}\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert (rec.status, rec.status_stated) == ("accepted", False)


@pytest.mark.parametrize(
    "frontmatter",
    [
        "status: [rejected]",
        "state: rejected",
        "adr_status: rejected",
        "decision_status: rejected",
        "decisionStatus: rejected",
    ],
)
def test_a_frontmatter_status_is_read_under_the_names_and_shapes_records_give_it(frontmatter):
    rec = records.parse(f"---\n{frontmatter}\n---\n# Old\n\nc\n", "docs/adr/0002-old.md")
    assert (rec.status, rec.problems) == ("rejected", ())


@pytest.mark.parametrize("frontmatter", ["status:\n  current: rejected", "status: [rejected, accepted]"])
def test_a_status_stated_in_a_shape_we_cannot_read_is_unknown_not_in_force(frontmatter):
    rec = records.parse(f"---\n{frontmatter}\n---\n# Old\n\nc\n", "docs/adr/0002-old.md")
    assert (rec.status, rec.status_stated) == ("unknown", True)
    assert [p.kind for p in rec.problems] == ["schema"]


@pytest.mark.parametrize("heading", ["Statusbericht", "Status quo analysis", "Status codes", "HTTP status"])
def test_a_section_about_some_other_status_states_none(heading):
    rec = records.parse(f"# 2. Old\n\n## {heading}\n\nRejected\n\n## Context\n\nc\n", "docs/adr/0002-old.md")
    assert (rec.status, rec.status_stated) == ("accepted", False)


@pytest.mark.parametrize(
    "heading",
    [
        "# ADR: Use X",
        "# Decision 5: Use X",
        "# Architecture Decision Record: Use X",
        "# Decision record - Use X",
        "# Title: Use X",
        "# [5] Use X",
        "# Use X (ADR-0005)",
        "# Use X [ADR 5]",
    ],
)
def test_a_title_is_read_without_the_label_or_own_id_its_heading_adds(heading):
    assert records.parse(f"{heading}\n\nc\n", "docs/adr/0005-use-x.md").title == "Use X"


@pytest.mark.parametrize("heading", ["Decision-making process", "Use X (ADR-0007)", "Adrenaline: a name", "ADR"])
def test_a_title_that_only_looks_labelled_is_kept_whole(heading):
    assert records.parse(f"# {heading}\n\nc\n", "docs/adr/0005-use-x.md").title == heading


@pytest.mark.parametrize(
    "status,expected",
    [
        ("Not accepted", "rejected"),
        ("Not approved", "rejected"),
        ("Not yet approved", "proposed"),
        ("The proposal was not accepted.", "rejected"),
        ("It wasn't approved", "rejected"),
        ("Won't do", "rejected"),
        ("Not deprecated", "unknown"),
        ("Accepted, not implemented yet", "accepted"),
        ("Nicht akzeptiert", "rejected"),
        ("Non accepté", "rejected"),
        ("No aceptado", "rejected"),
        ("Suggested", "proposed"),
        ("Awaiting approval", "proposed"),
        ("Decommissioned", "deprecated"),
        ("Signed off", "accepted"),
    ],
)
def test_a_status_turned_around_or_in_other_words_reads_as_meant(status, expected):
    """A decision that was not accepted is not in force."""
    assert records.normalise_status(status) == expected


@pytest.mark.parametrize(
    "section,status,stated",
    [
        ("Supersedes [1. Y](0001-y.md)", "accepted", False),
        ("Amends [1. Y](0001-y.md)\n\nRejected", "rejected", True),
        ("Rejected\n\nSupersedes [1. Y](0001-y.md)", "rejected", True),
    ],
)
def test_a_relation_line_in_a_status_section_is_no_status(section, status, stated):
    rec = records.parse(f"# 2. X\n\n## Status\n\n{section}\n\n## Context\n\nc\n", "docs/adr/0002-x.md")
    assert (rec.status, rec.status_stated) == (status, stated)
    assert next((link.rel, link.target) for link in rec.links)[1] == "ADR-0001"


def test_fenced_code_is_not_a_heading():
    text = "# T\n\n## Decision\n\n```sh\n# not a heading\n## nor this\n```\nafter\n\n## Consequences\n\nc\n"
    rec = records.parse(text, "0001-t.md")
    assert [s.heading for s in rec.sections] == ["Decision", "Consequences"]
    assert "# not a heading" in rec.sections[0].text


def test_status_is_normalised_from_its_leading_word():
    cases = {
        "✅ Accepted": "accepted",
        "**Accepted**": "accepted",
        "Implemented.": "accepted",
        "🤔 Proposed": "proposed",
        "In review": "proposed",
        "Declined": "rejected",
        "Superseded by [3](0003-x.md)": "superseded",
        "Obsolete": "deprecated",
        "{Deprecated|Proposed|Accepted}": "unknown",
        "": "unknown",
        "Banana": "unknown",
        # cisagov's template line states no status, whatever word it holds; a word in brackets does
        "[change when approved]": "unknown",
        "[Accepted]": "accepted",
        # what a status strikes out is the status it replaced, or a choice not taken
        "~~Proposed~~ **Accepted** _(2026-07-06: accepted by the maintainer)_": "accepted",
        "~~Proposed~~ | **Accepted** | ~~Depreciated~~ | ~~Superceded~~": "accepted",
        "~~Proposed~~ | Accepted | Rejected": "unknown",
        "[ ] Proposed": "unknown",
    }
    assert {k: records.normalise_status(k) for k in cases} == cases


def test_a_status_opening_with_a_preposition_is_read_by_its_next_word():
    cases = {
        "In effect": "accepted",
        "in force since 2024": "accepted",
        "In use": "accepted",
        "In review": "proposed",
        "In progress": "proposed",
        "Under review": "proposed",
        "On hold": "proposed",
        "Deferred for post-proof revalidation by ADR 0043": "proposed",
        "Discarded": "rejected",
        "Completed": "accepted",
        "Ratified": "accepted",
        "The migration has been completed; see below": "accepted",
    }
    assert {k: records.normalise_status(k) for k in cases} == cases


def test_statuses_that_say_not_in_force_or_no_longer_so_are_read():
    cases = {
        "Amended by ADR-9": "accepted",
        "Cancelled": "rejected",
        "Canceled": "rejected",
        "Dropped in favour of ADR-4": "rejected",
        "Archived": "deprecated",
        "Revoked": "deprecated",
        "Invalidated by the 2024 audit": "deprecated",
        "Outdated": "deprecated",
        "Shelved": "proposed",
        "Parked until Q3": "proposed",
        "TBD": "proposed",
        "Idea": "proposed",
        "Work in progress": "proposed",
        "Ready for review": "proposed",
        "Needs review": "proposed",
        "The plan was cancelled": "rejected",
        "Experimental": "unknown",
        "Work completed in March": "accepted",
        "Ready": "unknown",
        "Confirmed": "accepted",
        "Finalised": "accepted",
        "Implementing": "accepted",
        "Retracted": "deprecated",
        "Superseeded by [3. B](0003-b.md)": "superseded",
    }
    assert {k: records.normalise_status(k) for k in cases} == cases


def test_a_checklist_of_statuses_states_the_one_it_ticks_and_no_link_it_leaves_unticked():
    """`- [ ] Proposed` over `- [x] Accepted` read as proposed (its first line), and an
    unticked `Superseded by [..](..)` choice would have been read as a supersession."""
    text = (
        "# 1. X\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Superseded by [3. Y](0003-y.md)\n"
        "\n## Context\n\nc\n"
    )
    rec = records.parse(text, "docs/adr/0001-x.md")
    assert (rec.status, rec.status_text, rec.status_line, rec.superseded_by) == ("accepted", "Accepted", 6, ())
    untouched = records.parse(text.replace("[x]", "[ ]"), "docs/adr/0001-x.md")
    assert (untouched.status, untouched.status_line) == ("unknown", 5)
    progress = records.parse("# 1. X\n\n## Status\n\nProposed\n\n- [x] Phase 1 built\n- [ ] Phase 2\n", "0001-x.md")
    assert (progress.status, progress.status_line) == ("proposed", 5)  # under a status written out: the work's progress
    struck = records.parse("# 1. X\n\n## Status\n\n~~Superseded by [3. Y](0003-y.md)~~ Accepted\n", "0001-x.md")
    assert (struck.status, struck.superseded_by) == ("accepted", ())


@pytest.mark.parametrize("text", ["7", "0007", "ADR-7", "adr-0007", "ADR 7", " ADR-0007 "])
def test_id_forms(text):
    assert records.normalise_id(text) == "ADR-0007"


def test_bad_yaml_is_a_problem_with_a_line_not_an_exception():
    rec = records.parse("---\nstatus: [unclosed\ntitle: x\n---\n# T\n", "0001-t.md")
    assert rec.problems and rec.problems[0].kind == "yaml" and rec.problems[0].line >= 2
    assert rec.title == "T"


# ---------------------------------------------------------------------------- minimal edits


def test_set_keys_changes_only_the_owned_key_and_keeps_crlf_bom_order_and_comments():
    text = (
        "\ufeff---\r\ntitle: X\r\nstatus: proposed  # was draft\r\ncustom:\r\n  - a\r\n"
        "zeta: 1\r\n---\r\n# X\r\n\r\nbody  \r\n"
    )
    out = records.set_keys(text, {"status": "accepted"})
    assert out == text.replace("status: proposed  # was draft", "status: accepted")


def test_set_keys_replaces_a_block_list_and_appends_a_new_key_before_the_closing_line():
    text = "---\ntags:\n  - a\n  - b\ntitle: T\n---\nbody"
    out = records.set_keys(text, {"tags": ["c"], "reviewed": {"commit": "abc"}})
    assert out == "---\ntags: [c]\ntitle: T\nreviewed: {commit: abc}\n---\nbody"


def test_set_keys_removes_a_key_with_none():
    assert records.set_keys("---\na: 1\nb: 2\n---\n", {"a": None}) == "---\nb: 2\n---\n"


def test_set_keys_on_a_record_without_frontmatter_adds_a_block_in_its_newline_style():
    out = records.set_keys("\ufeff# T\r\n\r\nBody\r\n", {"status": "accepted"})
    assert out == "\ufeff---\r\nstatus: accepted\r\n---\r\n# T\r\n\r\nBody\r\n"


def test_replace_line_keeps_lone_cr_endings():
    assert records.replace_line("a\rb\rc", 2, "B") == "a\rB\rc"


_keys = st.sampled_from(["status", "title", "tags", "custom", "x-y", "governs", "date", "notes"])
_scalars = st.one_of(
    st.text(alphabet="abcdefgh xyz-_", min_size=1, max_size=12).map(str.strip).filter(bool), st.integers(0, 999)
)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=3))


@st.composite
def documents(draw):
    keys = draw(st.lists(_keys, unique=True, min_size=1, max_size=6))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = ["---"]
    for key in keys:
        value = draw(_values)
        style = draw(st.booleans())
        if isinstance(value, list) and style and value:
            lines.append(f"{key}:")
            lines.extend(f"  - {v}" for v in value)
        else:
            lines.append(records.dump_key(key, value).rstrip("\n"))
        if draw(st.booleans()):
            lines.append("# a comment the edit must keep")
    body = draw(st.text(alphabet="abc #\n\t*-", max_size=60)).replace("\n", newline)
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + newline.join(lines + ["---"]) + newline + body, keys


@settings(max_examples=200, deadline=None)
@given(doc=documents(), key=_keys, value=_values)
def test_property_edits_touch_only_the_owned_key(doc, key, value):
    text, _keys_in_doc = doc
    assert records.set_keys(text, {}) == text
    edited = records.set_keys(text, {key: value})
    meta, before = records.parse(edited, "0001-x.md").meta, records.parse(text, "0001-x.md").meta
    assert meta[key] == value
    assert {k: v for k, v in meta.items() if k != key} == {k: v for k, v in before.items() if k != key}
    # Outside the edited key's own lines, every byte is the same: BOM, comments, body.
    old_lines, new_lines = records.split_lines(text), records.split_lines(edited)
    removed = [ln for ln in old_lines if ln not in new_lines]
    assert all(ln.lstrip("\ufeff").startswith((f"{key}:", "  - ")) for ln in removed)
    old_end = records.frontmatter_span(records.split_lines(text.removeprefix("\ufeff")))
    new_end = records.frontmatter_span(records.split_lines(edited.removeprefix("\ufeff")))
    assert old_lines[old_end + 1 :] == new_lines[new_end + 1 :]
    assert edited.startswith("\ufeff") == text.startswith("\ufeff")


BOMB = "".join(
    f"{k}: &{k} [" + ", ".join([f"*{p}"] * 9 if p else ['"lol"'] * 9) + "]\n"
    for k, p in zip("abcdefg", ["", "a", "b", "c", "d", "e", "f"])
)


def test_a_yaml_alias_bomb_is_refused_not_expanded():
    rec = records.parse(f"---\n{BOMB}status: accepted\n---\n# T\n", "docs/adr/0001-t.md")
    assert len(BOMB) < 500
    assert [p.kind for p in rec.problems] == ["yaml"] and "aliases" in rec.problems[0].message
    assert rec.meta == {}


def test_mcp_get_of_an_alias_bomb_stays_small(repo):
    from adr_memory.history.workspace import Workspace
    from adr_memory.surfaces import mcp as mcp_server
    from tests.helpers import commit

    commit(repo, {"docs/adr/0001-t.md": f"---\n{BOMB}status: accepted\n---\n# T\n"})
    answer = mcp_server.tool("get")(Workspace.discover(repo), ["1"])
    assert len(answer) < 5_000


SETEXT = """12: Adding key prefix to annotations
================================

Date: 2023-08-23

Status
------

Proposed

Context
-------

A paragraph
that runs on
------------

```
Code
----
```

- an item
---

Decision
--------

Rename the column.
"""


def test_setext_titles_are_read_as_github_renders_them():
    """Cloud Foundry's decisions underline their titles: the title was the file's name (with a
    `title` warning), and a `Status` section over `------` was unread, so a proposed decision
    read as accepted."""
    rec = records.parse(SETEXT, "docs/adr/0012-key-prefix.md")
    assert (rec.title, rec.status, rec.status_line, rec.date) == (
        "Adding key prefix to annotations",
        "proposed",
        9,
        "2023-08-23",
    )
    assert [(s.heading, s.level) for s in rec.sections] == [("Status", 2), ("Context", 2), ("Decision", 2)]
    assert "that runs on\n------------" in rec.section("context").text  # a two-line paragraph is no title


@pytest.mark.parametrize(
    "heading, stated, status",
    [
        ("Status", "Akzeptiert am 07.08.2026.", "accepted"),
        ("Status", "Abgelöst durch ADR-0009", "superseded"),
        ("Statut", "Acceptée — 2026-08", "accepted"),
        ("Statut", "Proposé", "proposed"),
        ("Estado", "Aceptado (F2).", "accepted"),
        ("Estado", "Propuesto", "proposed"),
        ("Estado", "En revisión", "proposed"),
        ("Estado", "Substituído por [ADR-9](0009-y.md)", "superseded"),
        ("Stato", "Respinto", "rejected"),
        ("Status", "Verouderd", "deprecated"),
    ],
)
def test_statuses_written_in_other_languages_are_read(heading, stated, status):
    """A German folder's "Akzeptiert" was unknown (so its decisions never went stale), and a
    Spanish "## Estado" section was not a status at all: "Propuesto" read as accepted."""
    rec = records.parse(f"# 1. X\n\n## {heading}\n\n{stated}\n\n## Kontext\n\nx\n", "docs/adr/0001-x.md")
    assert (rec.status, rec.status_line) == (status, 5)
    assert rec.superseded_by == (("ADR-0009",) if status == "superseded" else ())


def test_the_opening_is_the_prose_before_the_first_section_without_its_fields():
    text = (
        "# 3. Shard by tenant\n\n* Status: accepted\n* **Date:** 2024-01-02\n> Statut : accepté\n\n"
        "| Status | Date |\n|---|---|\n| Accepted | 2024 |\n\n"
        "- [Context](#context)\n- [Decision](#decision)\n\n<!-- a template's hint -->\n"
        "We weighed the quokka scheme first; see [ADR-2](0002-x.md).\n\n## Context\n\nc\n"
    )
    rec = records.parse(text, "docs/adr/0003-shard-by-tenant.md")
    assert records.opening(rec.preamble) == "We weighed the quokka scheme first; see [ADR-2](0002-x.md)."
    assert (
        records.parse("# 4. X\n\nStatus: accepted\n\n## Context\n\nc\n", "docs/adr/0004-x.md").preamble.strip()
        == "Status: accepted"
    )
    rst = records.parse(
        "=====\n5. Y\n=====\n\n:Status: Accepted\n\nAn introduction.\n\nContext\n-------\n\nc\n",
        "docs/decisions/0005-y.rst",
    )
    assert records.opening(rst.preamble) == "An introduction."


@pytest.mark.parametrize(
    "heading",
    [
        "# [ADR-0007] Use X",
        "# [ADR-007]: Use X",
        "# ADR #7 – Use X",
        "# ADR #7: Use X",
        "# 0007 - Use X",
        "# 0007 – Use X",
        "# 7) Use X",
        "# 0007 Use X",
        "# 7. Use X",
        "# ADR 0007 · Use X",
        "# ADR 7 | Use X",
    ],
)
def test_a_title_is_read_without_the_number_however_the_heading_writes_it(heading):
    assert records.parse(f"{heading}\n\n## Status\n\nAccepted\n", "docs/adr/0007-use-x.md").title == "Use X"


@pytest.mark.parametrize("heading", ["# 2024 roadmap", "# 7-tier web", "# 0007-use-x"])
def test_a_number_that_is_not_the_records_own_prefix_stays_in_the_title(heading):
    assert records.parse(f"{heading}\n\n## Status\n\nAccepted\n", "docs/adr/0007-use-x.md").title == heading[2:]


@pytest.mark.parametrize(
    "status,successors",
    [
        ("Superseded by: ADR 5", ["ADR-0005"]),
        ("Superseded by ADR-0005 and ADR-0006", ["ADR-0005", "ADR-0006"]),
        ("Superseded by ADR-5, ADR-6 & ADR-7", ["ADR-0005", "ADR-0006", "ADR-0007"]),
        ("Superseded by [ADR-5](0005-x.md) and [ADR-6](0006-y.md)", ["ADR-0005", "ADR-0006"]),
        ("Superseded by ADR-5 and 2 others", ["ADR-0005"]),
        ("Replaced by ADR 5", ["ADR-0005"]),
    ],
)
def test_a_status_names_each_successor_it_lists(status, successors):
    rec = records.parse(f"# 1. X\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0001-x.md")
    assert list(rec.superseded_by) == successors


@pytest.mark.parametrize("page_id", ["adrs-adr002", "adr-002-catalog-format", "ai-skill", "docs/adr/002"])
def test_a_docs_sites_page_id_is_not_the_decisions_id(page_id):
    """Docusaurus reads `id` as the page's id: a lowercase slug. The file's number stays the
    decision's id; an id written as one (`ADR-0009`, `9`, `SEC-12`) still names it."""
    text = f"---\nid: {page_id}\ntitle: 'ADR002: Default catalog file format'\nsidebar_label: ADR002\n---\n\n## Context\n\nc\n"
    rec = records.parse(text, "docs/architecture-decisions/adr002-default-catalog-file-format.md")
    assert (rec.id, rec.title) == ("ADR-0002", "Default catalog file format")
    for written, ident in (("ADR-0009", "ADR-0009"), ("9", "ADR-0009"), ("adr-9", "ADR-0009"), ("SEC-12", "SEC-12")):
        assert records.parse(f"---\nid: {written}\n---\n# X\n", "docs/adr/0002-x.md").id == ident
    assert records.parse("---\nid: ai-skill\n---\n# X\n", "docs/adr/ai-skill.md").id == "ai-skill"


@pytest.mark.parametrize(
    "title,read",
    [
        ("ADR-007: Transaction boundaries", "Transaction boundaries"),
        ("ADR 0007 - Official skill", "Official skill"),
        ("7. Use X", "Use X"),
        ("1.5 release plan", "1.5 release plan"),
        ("10:30 stand-up", "10:30 stand-up"),
    ],
)
def test_a_frontmatter_title_is_read_without_the_number_as_a_heading_is(title, read):
    assert records.parse(f"---\ntitle: '{title}'\n---\n\n## Context\n\nc\n", "docs/adr/0007-x.md").title == read
    assert records.parse(f"# {title}\n\n## Context\n\nc\n", "docs/adr/0007-x.md").title == read


def test_a_status_table_with_a_created_column_gives_the_status_and_the_date():
    text = (
        "---\nid: adrs-adr002\ntitle: 'ADR002: Catalog format'\n---\n\n| Created    | Status |\n"
        "| ---------- | ------ |\n| 2020-05-17 | Open   |\n\n## Background\n\nb\n"
    )
    rec = records.parse(text, "docs/architecture-decisions/adr002-catalog-format.md")
    assert (rec.status, rec.status_text, rec.date) == ("proposed", "Open", "2020-05-17")
    assert records.opening(rec.preamble) == ""


def test_frontmatter_names_the_day_as_lines_do():
    """`created: 2021-01-01` in frontmatter (notes apps write it so) gave no date, though a
    `Created:` line under the title does; `date:` wins where both are written."""

    def date(frontmatter: str) -> str | None:
        return records.parse(f"---\nstatus: accepted\n{frontmatter}---\n# T\n\nDate: 2019-01-01\n", "0001-t.md").date

    assert date("created: 2021-01-01\n") == "2021-01-01"
    assert date("Created: 2021-03-01 10:00:00\n") == "2021-03-01"
    assert date("date: 2022-01-01\ncreated: 2021-01-01\n") == "2022-01-01"
    assert date("") == "2019-01-01"


def test_a_date_left_unfilled_is_none_and_other_names_for_the_day_are_dates(repo, capsys):
    """MADR 2's `Date: ???` (and `[YYYY-MM-DD when ...]`) were shown as the record's date;
    `Recorded: 2021-03-04` and `* Created: ...` lines were prose, their day unread."""
    import json

    from tests.helpers import commit, run

    nygard = "# {n}. {t}\n\n{d}\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"
    commit(
        repo,
        {
            "docs/adr/0001-a.md": nygard.format(n=1, t="A", d="Date: ???"),
            "docs/adr/0002-b.md": nygard.format(n=2, t="B", d="* Date: [YYYY-MM-DD when the decision was made]"),
            "docs/adr/0003-c.md": nygard.format(n=3, t="C", d="Recorded: 2021-03-04"),
            "docs/adr/0004-d.md": nygard.format(n=4, t="D", d="* Created: 4 March 2021"),
            "docs/adr/0005-e.md": nygard.format(n=5, t="E", d="Date: March 2021"),
        },
    )
    committed = run(capsys, "log", "1", "--json").out
    day = json.loads(committed)["versions"][0]["date"]
    rows = {r["id"]: (r["date"], r["date_text"]) for r in json.loads(run(capsys, "list", "--json").out)}
    assert rows == {
        "ADR-0001": (None, None),
        "ADR-0002": (None, None),
        "ADR-0003": ("2021-03-04", "2021-03-04"),
        "ADR-0004": ("2021-03-04", "4 March 2021"),
        "ADR-0005": ("2021-03", "March 2021"),
    }
    assert json.loads(run(capsys, "show", "1", "--json").out)["first_date"] == day[:10]  # what the table shows
    assert "Recorded" not in json.loads(run(capsys, "show", "3", "--json").out)["sections"][0]["text"]


_JPH = (
    "# Decision record template by Michael Nygard\n\nThis is the template in [Documenting architecture "
    "decisions - Michael Nygard](http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions)."
    "\n\nIn each ADR file, write these sections:\n\n"
)


def test_a_copied_templates_own_heading_is_not_the_records_title():
    """Records that keep Joel Parker Henderson's template whole open with its heading ("# Decision
    record template by Michael Nygard") and introduction, then their own `# Title`: every such
    record was titled after the template, and its own title read as a section."""
    rec = records.parse(_JPH + "# Assignment of tasks\n\n## Status\n\nAccepted\n\n## Context\n\nc\n", "0003-a.md")
    assert (rec.title, [s.heading for s in rec.sections]) == ("Assignment of tasks", ["Status", "Context"])
    assert records.opening(rec.preamble) == ""  # the template's introduction says nothing of this decision
    written_so = records.parse("# ADR template\n\n# Status\n\nAccepted\n\n# Context\n\nc\n", "0004-b.md")
    assert (written_so.title, written_so.status) == ("ADR template", "accepted")  # sections at level 1 stay sections
    topical = records.parse("# Use a template engine\n\n# Jinja\n\nWe chose Jinja.\n", "0005-c.md")
    assert topical.title == "Use a template engine"


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (
            "Superseded by [40. Use GitHub Actions](040-use-github-actions.md) (GitHub Actions replaced Concourse)",
            "GitHub Actions replaced Concourse",
        ),
        ("Superseded by ADR-40 and ADR-41: both replace it", "both replace it"),
        ("Superseded by [40. X](040-x.md)", ""),
        ("Deprecated: the service is gone", "the service is gone"),
        ("Accepted", ""),
    ],
)
def test_a_status_reason_is_its_words_not_the_records_it_names(status, reason):
    """The successor a status names is a link (`adr log` shows it as one); the reason is what
    is said beside it, as `adr supersede --reason` writes it in a body-status folder."""
    rec = records.parse(
        f"# 3. Use Concourse\n\n## Status\n\n{status}\n\n## Context\n\nc\n", "docs/adr/0003-use-concourse.md"
    )
    assert rec.status_reason == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("---\nstatus: Deprecated\nstatus-reason: '  the service is gone '\n---\n# T\n", "the service is gone"),
        ("---\nstatus: 'Deprecated: the service is gone'\n---\n# T\n", "the service is gone"),
        ("---\nstatus: Superseded by [10. X](0010-x.md), because cheaper\n---\n# T\n", "because cheaper"),
        ("---\nstatus: Deprecated in favour of ADR-4 and ADR-5 - too slow\n---\n# T\n", "too slow"),
        ("# T\n\n## Status\n\n- 2024-01-02: Rejected - too costly\n", "too costly"),  # a log entry's date is no reason
        ("---\nstatus-reason: 5\nstatus: 'Rejected: no budget'\n---\n# T\n", "no budget"),  # a reason must be text
        # what `adr reject --reason` writes after a body status that stays: the reason in parentheses
        ("# T\n\n## Status\n\nRejected (no budget)\n", "no budget"),
        ("# T\n\n## Status\n\nDeprecated (PR [\\#2897])\n", "PR [\\#2897]"),  # as cometbft writes it
        (
            "# T\n\n## Status\n\nRejected in favour of ADR 111 (a remote mempool costs a round trip)\n",
            "a remote mempool costs a round trip",
        ),
        ("---\nstatus: \u2705 Accepted (by the board)\n---\n# T\n", "by the board"),
        ("# T\n", ""),  # no status stated: no reason
    ],
)
def test_a_status_reason_wherever_it_is_written(text, reason):
    assert records.parse(text, "docs/adr/0009-x.md").status_reason == reason


def test_the_parts_lead_with_the_opening_and_a_record_without_sections_is_one_part():
    rec = records.parse(
        "---\nstatus: accepted\ntags: [a]\n---\n# T\n\nIntro.\n\n## Context\n\nc\n\n## Status\n\nAccepted\n",
        "docs/adr/0009-x.md",
    )
    assert [(s.heading, s.level, s.line, s.text, s.text_line) for s in rec.parts] == [
        ("Introduction", 1, 5, "Intro.", 5),
        ("Context", 2, 9, "c", 11),
        ("Status", 2, 13, "Accepted", 15),
    ]
    whole = records.parse("# T\n\nJust words.\n", "docs/adr/0009-x.md")
    assert [(s.heading, s.text) for s in whole.parts] == [("Body", "Just words.")]
    bare = records.parse("# T\n\n## Status\n\nAccepted\n", "docs/adr/0009-x.md")
    assert bare.parts == bare.sections


def test_a_finding_about_a_key_points_at_the_line_that_writes_it():
    rec = records.parse("---\nstatus: accepted\ntags: [a]\n---\n# T\n\n## Status\n\nAccepted\n", "docs/adr/0009-x.md")
    assert (rec.line_of("status"), rec.line_of("tags"), rec.line_of("nothing")) == (2, 3, 1)
    body = records.parse("# T\n\n## Status\n\nAccepted\n", "docs/adr/0009-x.md")
    assert (body.line_of("status"), body.key_lines) == (5, ())


def test_a_section_is_found_by_the_start_of_its_heading_in_any_case():
    rec = records.parse("# T\n\n## Status\n\nAccepted\n\n## Context and Problem\n\nc\n", "docs/adr/0009-x.md")
    assert rec.section("CON").heading == "Context and Problem"
    assert rec.section("x", "stat").heading == "Status"
    assert rec.section("decision") is None


def test_each_relation_lists_its_records_once_in_order():
    rec = records.parse(
        "---\nsupersedes: [1, 1, 2]\ndepends-on: [3]\nsuperseded-by: 4\n---\n# T\n", "docs/adr/0009-x.md"
    )
    assert (rec.supersedes, rec.superseded_by, rec.depends_on, rec.linked("amends")) == (
        ("ADR-0001", "ADR-0002"),
        ("ADR-0004",),
        ("ADR-0003",),
        (),
    )


@pytest.mark.parametrize(
    ("preamble", "prose"),
    [
        (
            "Intro\n\n* Status: x\nDate: y\n| Status | A |\n|---|---|\n[Context](#context)\n- [Decision](#decision)\n"
            'import { X } from "y"\nexport const meta = 1\n<!-- c -->\nEnd',
            "Intro\n\n\nEnd",
        ),
        (":Status: Accepted\n:Author: me", ":Author: me"),  # a field list's lifecycle field goes
        ("| Owner | me |\n| --- | --- |\n\nText", "| Owner | me |\n\nText"),  # a table of no metadata stays
        ("export default function X() {}\nreal", "real"),
        ("See [the RFC](https://x/rfc) first.", "See [the RFC](https://x/rfc) first."),  # a link elsewhere is prose
        ("", ""),
    ],
)
def test_the_opening_is_prose_without_fields_contents_or_module_lines(preamble, prose):
    assert records.opening(preamble) == prose


def test_a_file_no_one_could_read_as_a_record_is_unread_and_one_with_other_problems_is_not():
    from adr_memory.records import Problem, catalog, parse

    assert catalog.parse_bytes("docs/adr/0001-a.md", b"\x00\x01binary").unread
    assert catalog.parse_bytes("docs/adr/0001-a.md", Problem("symlink", "a symlink", 1)).unread
    assert catalog.parse_bytes("docs/adr/0001-a.md", b"x" * (catalog.MAX_BYTES + 1)).unread
    assert not parse("---\nstatus: acceptd\n---\n# A\n", "docs/adr/0001-a.md").unread  # a typo: still a record
