"""Status edits in the record's own style: a sign beside the word (`✅ Accepted`), the word's
case, a dated log's next entry, a table's next row; every other byte kept."""

from __future__ import annotations

import pytest

from adr_memory import records
from adr_memory.policy import statuses
from adr_memory.policy.templates import today


def _changed(text: str, status: str) -> str:
    rec = records.parse(text, "docs/adr/0001-a.md")
    return statuses._status_edit(text, rec, status)


NYGARD = "# 1. A\n\n## Status\n\n{}\n\n## Context\n\nc\n"


@pytest.mark.parametrize(
    ("before", "status", "after"),
    [
        ("✅ Accepted", "deprecated", "⚠️ Deprecated"),
        ("🚧 Proposed", "accepted", "✅ Accepted"),
        ("✅ accepted", "rejected", "❌ rejected"),
        ("⚠️ Deprecated", "accepted", "✅ Accepted"),
        ("+ Proposed", "accepted", "+ Accepted"),  # a plus is no sign of a status
        ("Accepted", "deprecated", "Deprecated"),
        ("ACCEPTED", "deprecated", "DEPRECATED"),
        ("accepted", "rejected", "rejected"),
    ],
)
def test_a_status_keeps_the_folders_sign_and_case(before, status, after):
    assert _changed(NYGARD.format(before), status) == NYGARD.format(after)


def test_a_dated_status_log_gets_a_new_entry_and_keeps_the_old_ones():
    text = NYGARD.format("- 2020-01-01: Proposed")
    changed = _changed(text, "accepted")
    assert changed.startswith("# 1. A\n\n## Status\n\n- 2020-01-01: Proposed\n- ") and changed.count("Accepted") == 1
    assert changed.endswith("\n\n## Context\n\nc\n")


def test_status_commands_on_tendermint_records_change_the_word_and_keep_the_rest(repo, capsys):
    """cometbft's status lines carry tracking issues and pull requests after the word: `adr
    deprecate 118` wrote `Deprecated` over `Accepted. Tracking issue: [#2803][tracking-issue].`"""
    import shutil

    from tests.helpers import CORPORA, commit, run

    shutil.copytree(CORPORA / "cometbft", repo / "docs/adr")
    commit(repo, {}, "cometbft's decisions")
    folder = repo / "docs/adr"
    before = {p.name: p.read_text() for p in folder.glob("adr-11*.md")}

    def status_line(name):
        lines = (folder / name).read_text().splitlines()
        return lines[lines.index("## Status") + 2]

    run(capsys, "deprecate", "118")
    assert status_line("adr-118-mempool-lanes.md") == "Deprecated. Tracking issue: [#2803][tracking-issue]."
    run(capsys, "deprecate", "114")
    assert status_line("adr-114-undo-109.md") == r"Deprecated (PR [\#2897])"
    run(capsys, "reject", "110", "--reason", "a remote mempool costs a round trip per transaction")
    assert status_line("adr-110-remote-mempool.md") == (
        "Rejected in favour of ADR 111 (a remote mempool costs a round trip per transaction)"
    )
    run(capsys, "accept", "118")
    assert (folder / "adr-118-mempool-lanes.md").read_text() == before["adr-118-mempool-lanes.md"]
    for name, text in before.items():  # only the status line of each changed
        if name not in ("adr-118-mempool-lanes.md", "adr-114-undo-109.md", "adr-110-remote-mempool.md"):
            assert (folder / name).read_text() == text
    run(capsys, "accept", "113")
    assert status_line("adr-113-modular-transaction-hashing.md") == "Accepted"


def test_tendermint_s_qualified_and_prose_statuses_keep_their_text_or_refuse(repo, capsys):
    """`Partially Accepted` read `Rejected: test Accepted` after `reject 24 --reason test`;
    ADR-035's status, a paragraph, became the one word `Deprecated` without a warning; ADR-008,
    stating no status and holding no frontmatter, was given frontmatter its folder never uses."""
    import shutil

    from tests.helpers import CORPORA, commit, run

    shutil.copytree(CORPORA / "cometbft", repo / "docs/adr")
    commit(repo, {}, "cometbft's decisions")
    folder = repo / "docs/adr/tendermint-core"
    run(capsys, "reject", "24", "--reason", "test")
    lines = (folder / "adr-024-sign-bytes.md").read_text().splitlines()
    assert lines[lines.index("## Status") + 2] == "Rejected: test"
    prose = (folder / "adr-035-documentation.md").read_bytes()
    refused = run(capsys, "deprecate", "35", code=2)
    assert refused.err.splitlines() == [
        "error: the status is stated in a sentence ('The two points above have been ...'): "
        "changing its word would lose the rest",
        "hint: write the new status in the Status section by hand, or start the sentence with it",
    ]
    assert (folder / "adr-035-documentation.md").read_bytes() == prose
    plain = (folder / "adr-008-priv-validator.md").read_text()
    said = run(capsys, "deprecate", "8", "--reason", "replaced by remote signers")
    assert said.out.startswith("ADR-0008 is now deprecated")
    assert (folder / "adr-008-priv-validator.md").read_text() == plain + (
        "\n## Status\n\nDeprecated: replaced by remote signers\n"
    )


def test_a_record_stating_no_status_gets_a_status_section_before_its_first(repo, capsys):
    from tests.helpers import commit, run

    commit(repo, {"docs/adr/0001-a.md": "# 1. A\n\nIntro.\n\n## Context\n\nWhy.\n"})
    assert run(capsys, "accept", "1").out.startswith("ADR-0001 is now accepted")  # said, not assumed
    assert (
        repo / "docs/adr/0001-a.md"
    ).read_text() == "# 1. A\n\nIntro.\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"
    assert run(capsys, "accept", "1").out.startswith("ADR-0001 is already accepted")


def _edit(text, status, *, path="docs/adr/0001-a.md", reason=None, line_text=None):
    return statuses._status_edit(text, records.parse(text, path), status, line_text, reason)


@pytest.mark.parametrize(
    ("before", "status", "after"),
    [
        # Frontmatter: the key changes; a body that says the same status says the new one too.
        ("---\nstatus: proposed\n---\n# A\n", "accepted", "---\nstatus: accepted\n---\n# A\n"),
        (
            "---\nstatus: proposed\n---\n# A\n\n## Status\n\nProposed\n",
            "accepted",
            "---\nstatus: accepted\n---\n# A\n\n## Status\n\nAccepted\n",
        ),
        # Frontmatter without a status, and no status in the body: the key is added.
        ("---\ntitle: A\n---\n# A\n", "accepted", "---\ntitle: A\nstatus: accepted\n---\n# A\n"),
        # MADR 2's list item keeps the case of the word it replaces.
        (
            "# A\n\n* Status: proposed\n* Date: 2020-01-01\n",
            "accepted",
            "# A\n\n* Status: accepted\n* Date: 2020-01-01\n",
        ),
        ("# A\n\n**Status:** Proposed\n", "rejected", "# A\n\n**Status:** Rejected\n"),
        # What belongs to the old status goes with it; a reference beside it stays.
        ("# A\n\nStatus: Accepted (PR #12)\n", "deprecated", "# A\n\nStatus: Deprecated (PR #12)\n"),
        ("# A\n\n## Status\n\nSuperseded by ADR-7\n", "accepted", "# A\n\n## Status\n\nAccepted\n"),
        # A written transition gets one more step.
        (
            "# A\n\n## Status\n\nProposed → Accepted\n",
            "deprecated",
            "# A\n\n## Status\n\nProposed → Accepted → Deprecated\n",
        ),
        # What is struck out stays struck: only the word in force changes.
        ("# A\n\n## Status\n\n~~Proposed~~ Accepted\n", "deprecated", "# A\n\n## Status\n\n~~Proposed~~ Deprecated\n"),
        # A table's one row of values: the cell changes in place.
        (
            "# A\n\n| Status | Date |\n|---|---|\n| Proposed | 2020-01-01 |\n",
            "accepted",
            "# A\n\n| Status | Date |\n|---|---|\n| Accepted | 2020-01-01 |\n",
        ),
        # A badge shows the word alone.
        (
            "# A\n\n![status](https://img.shields.io/badge/status-proposed-yellow)\n",
            "accepted",
            "# A\n\n![status](https://img.shields.io/badge/status-accepted-yellow)\n",
        ),
        # In the record's language.
        ("# 1. A\n\n## Status\n\nAkzeptiert\n", "deprecated", "# 1. A\n\n## Status\n\nVeraltet\n"),
        # Line endings and a byte-order mark are kept.
        ("# 1. A\r\n\r\n## Status\r\n\r\nProposed\r\n", "accepted", "# 1. A\r\n\r\n## Status\r\n\r\nAccepted\r\n"),
        ("\ufeff# 1. A\n\n## Status\n\nProposed\n", "accepted", "\ufeff# 1. A\n\n## Status\n\nAccepted\n"),
    ],
)
def test_a_status_is_changed_where_and_as_the_record_states_it(before, status, after):
    assert _edit(before, status) == after


@pytest.mark.parametrize(
    ("before", "status", "after"),
    [
        (
            "# A\n\n## Status\n\n- [x] Proposed\n- [ ] Accepted\n- [ ] Rejected\n",
            "accepted",
            "# A\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Rejected\n",
        ),
        # No item names the new status: a ticked one is added below the list.
        (
            "# A\n\n## Status\n\n- [x] Proposed\n- [ ] Accepted\n\n## Context\n",
            "deprecated",
            "# A\n\n## Status\n\n- [ ] Proposed\n- [ ] Accepted\n- [x] Deprecated\n\n## Context\n",
        ),
        (
            "# A\n\n## Status\n\n* [X] Proposed\n* [ ] Accepted\n",
            "accepted",
            "# A\n\n## Status\n\n* [ ] Proposed\n* [x] Accepted\n",
        ),
    ],
)
def test_a_ticked_checklist_moves_its_tick_and_loses_no_choice(before, status, after):
    assert _edit(before, status) == after


def test_a_status_section_that_states_nothing_gets_the_status_where_the_page_shows_it():
    commented = "# A\n\n## Status\n\n<!-- the status -->\n\n## Context\n\nc\n"
    assert _edit(commented, "accepted") == "# A\n\n## Status\n\n<!-- the status -->\n\nAccepted\n\n## Context\n\nc\n"
    empty = "# A\n\n## Status\n\n## Context\n\nc\n"
    assert _edit(empty, "accepted") == "# A\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"
    at_the_end = "# A\n\n## Context\n\nc\n\n## Status\n"
    assert _edit(at_the_end, "proposed") == "# A\n\n## Context\n\nc\n\n## Status\n\nProposed\n"


def test_a_table_of_changes_gets_a_row_dated_today_for_this_one():
    text = "# A\n\n| Date | Status | By |\n|---|---|---|\n| 2020-01-01 | Proposed | ann |\n| 2020-02-01 | Accepted | bo |\n"
    assert _edit(text, "deprecated") == text + f"| {today()} | Deprecated |  |\n"


def test_a_dated_log_in_a_list_or_in_lines_gets_its_next_entry_as_it_writes_them():
    listed = "# A\n\n## Status\n\n- 2020-01-01: Proposed\n\n## Context\n\nc\n"
    assert _edit(listed, "accepted") == (
        f"# A\n\n## Status\n\n- 2020-01-01: Proposed\n- {today()}: Accepted\n\n## Context\n\nc\n"
    )


@pytest.mark.parametrize(
    ("before", "status", "reason", "after"),
    [
        (
            "---\nstatus: proposed\n---\n# A\n",
            "rejected",
            "too costly",
            "---\nstatus: rejected\nstatus-reason: too costly\n---\n# A\n",
        ),
        ("# A\n\n## Status\n\nProposed\n", "rejected", "too costly", "# A\n\n## Status\n\nRejected: too costly\n"),
        # The status stays: its line keeps every word and gains the reason.
        ("# A\n\n## Status\n\nAccepted\n", "accepted", "still right", "# A\n\n## Status\n\nAccepted (still right)\n"),
        # A reason is one line, whatever was typed.
        ("# A\n\n## Status\n\nProposed\n", "rejected", "a\nb\x1b", "# A\n\n## Status\n\nRejected: a b\n"),
    ],
)
def test_a_reason_goes_to_frontmatter_or_after_the_status_word(before, status, reason, after):
    assert _edit(before, status, reason=reason) == after


def test_a_restructuredtext_record_without_a_status_gets_a_section_in_its_own_style():
    with_sections = "Use X\n=====\n\nContext\n-------\n\nc\n"
    assert _edit(with_sections, "accepted", path="docs/adr/0001-a.rst") == (
        "Use X\n=====\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\nc\n"
    )
    without = "Use X\n=====\n\nJust text.\n"
    assert _edit(without, "accepted", path="docs/adr/0001-a.rst") == (
        "Use X\n=====\n\nJust text.\n\nStatus\n------\n\nAccepted\n"
    )


@pytest.mark.parametrize(
    ("old", "kept"),
    [
        ("Accepted. Tracking issue: [#2803][t].", ". Tracking issue: [#2803][t]."),
        ("Accepted (PR [#2897])", " (PR [#2897])"),
        ("Accepted, see #4", ", see #4"),
        ("Superseded by ADR-7", ""),  # whose it is belongs to the old status
        ("Rejected in favour of ADR 111", ""),
        ("Rejected in favor of ADR 111", ""),
        ("Deprecated: the service is gone", ""),
        ("Deprecated — gone", ""),
        ("Accepted", ""),
        ("Banana split", ""),  # no status word: nothing to keep beside it
        ("", ""),
        ("❌ Rejected (see [019](019-x.md))", " (see [019](019-x.md))"),  # behind a sign
        ("Accepted: Tracking issue [\\#3297].", ": Tracking issue [\\#3297]."),  # a reference, not a reason
        ("Deprecated: see https://example.org/why", ": see https://example.org/why"),
        ("**Accepted**", ""),
    ],
)
def test_what_a_status_line_says_beside_its_word_is_kept_only_when_not_about_that_status(old, kept):
    assert statuses._beside_the_word(old)[1] == kept


@pytest.mark.parametrize(
    ("line", "command", "written"),
    [
        ("Accepted: Tracking issue [\\#3297].", ("deprecated",), "Deprecated: Tracking issue [\\#3297]."),
        ("Accepted: Tracking issue [\\#3297].", ("deprecated", "gone"), "Deprecated: gone. Tracking issue [\\#3297]."),
        ("❌ Rejected (see [019](019-x.md))", ("accepted",), "✅ Accepted (see [019](019-x.md))"),
        (
            "✅ Accepted (documenting an existing thing)",
            ("deprecated",),
            "⚠️ Deprecated (documenting an existing thing)",
        ),
        ("**Accepted**", ("deprecated",), "**Deprecated**"),
    ],
)
def test_a_status_command_changes_the_word_and_keeps_the_rest_of_its_line(line, command, written):
    """Tendermint's and cloud-platform's status lines, as their folders write them: the sign,
    the emphasis, the tracking issue and the link stay; only the status word changes."""
    text = f"# 7. A decision\n\n## Status\n\n{line}\n\n## Decision\n\nX.\n"
    rec = records.parse(text, "docs/adr/0007-a-decision.md")
    status, *reason = command
    edited = statuses._status_edit(text, rec, status, reason=reason[0] if reason else None)
    assert edited.split("\n")[4] == written


@pytest.mark.parametrize(
    ("line", "old", "new", "restated"),
    [
        ("**Status:** Proposed", "Proposed", "Accepted", "**Status:** Accepted"),
        ("## Status: Proposed", "Proposed", "Accepted", "## Status: Accepted"),
        ("| Status | Proposed |", "Proposed", "Accepted", "| Status | Accepted |"),
        ("Status: ~~Accepted~~ Proposed", "Proposed", "Rejected", "Status: ~~Accepted~~ Rejected"),
        ("Proposed", "Proposed", "Accepted", "Accepted"),
        ("nothing like it", "zzz", "New", "New"),  # the status is not on the line: the line is the status
    ],
)
def test_a_status_line_keeps_its_label_and_cells_around_the_new_word(line, old, new, restated):
    assert statuses._restated(line, old, new) == restated


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # No section, a title underlined with `-`, no final newline: a rule of another character.
        ("Use X\n-----\n\nJust text.", "Use X\n-----\n\nJust text.\n\nStatus\n~~~~~~\n\nAccepted\n"),
        # The first section overlined: the Status section is too.
        (
            "=====\nUse X\n=====\n\n-------\nContext\n-------\n\nc\n",
            "=====\nUse X\n=====\n\n------\nStatus\n------\n\nAccepted\n\n-------\nContext\n-------\n\nc\n",
        ),
        (
            "Use X\r\n=====\r\n\r\nContext\r\n-------\r\n\r\nc\r\n",
            "Use X\r\n=====\r\n\r\nStatus\r\n------\r\n\r\nAccepted\r\n\r\nContext\r\n-------\r\n\r\nc\r\n",
        ),
        (
            "\ufeffUse X\n=====\n\nContext\n-------\n\nc\n",
            "\ufeffUse X\n=====\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\nc\n",
        ),
    ],
)
def test_a_restructuredtext_status_section_is_titled_as_the_record_titles_its_sections(before, after):
    assert _edit(before, "accepted", path="docs/adr/0001-a.rst") == after
