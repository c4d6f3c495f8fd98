"""Status edits in the record's own style: a sign beside the word (`✅ Accepted`), the word's
case, a dated log's next entry, a table's next row; every other byte kept."""

from __future__ import annotations

import pytest

from adr_memory import records
from adr_memory.policy import statuses


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
