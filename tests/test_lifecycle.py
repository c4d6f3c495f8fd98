from __future__ import annotations

from adr_memory import record
from tests.helpers import run, write


def test_accept_on_a_crlf_bom_record_changes_only_the_status(repo, capsys):
    text = "\ufeff---\r\nstatus: proposed\r\nowner: me # keep\r\n---\r\n# X\r\n\r\nBody  \r\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_bytes().decode() == text.replace("proposed", "accepted")


def test_accept_on_a_nygard_record_rewrites_only_the_status_line(repo, capsys):
    text = "# 1. X\n\nDate: 2020-01-01\n\n## Status\n\n🤔 Proposed\n\n## Context\n\nc\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "accept", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace("🤔 Proposed", "Accepted")


def test_reject_on_a_madr_list_header_keeps_the_bullet(repo, capsys):
    text = "# X\n\n* Status: proposed\n* Deciders: a\n\n## Context and Problem Statement\n\nc\n"
    write(repo, {"docs/adr/0001-x.md": text})
    run(capsys, "reject", "1")
    assert (repo / "docs/adr/0001-x.md").read_text() == text.replace("proposed", "rejected")


def test_supersede_writes_both_sides_in_each_records_own_style(repo, capsys):
    write(repo, {
        "docs/adr/0001-old.md": "# 1. Old\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
        "docs/adr/0002-new.md": "---\nstatus: accepted\n---\n# New\n",
    })
    run(capsys, "supersede", "1", "--by", "2")
    old = record.parse((repo / "docs/adr/0001-old.md").read_text(), "0001-old.md")
    new = record.parse((repo / "docs/adr/0002-new.md").read_text(), "0002-new.md")
    assert old.status == "superseded" and old.superseded_by == ("ADR-0002",)
    assert "Superseded by [2. New](0002-new.md)" in (repo / "docs/adr/0001-old.md").read_text()
    assert new.supersedes == ("ADR-0001",) and new.status == "accepted"
    assert run(capsys, "check").out == ""


def test_link_with_reverse_and_adr_tools_template(repo, capsys):
    write(repo, {"docs/adr/templates/template.md": "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n",
                 "docs/adr/0001-a.md": "---\nstatus: accepted\n---\n# A\n"})
    path = run(capsys, "new", "B").out.strip()
    assert (repo / path).read_text().startswith("# 2. B\n\nDate: ")
    run(capsys, "link", "2", "Amends", "1", "Amended by")
    assert "Amends [1. A](0001-a.md)" in (repo / path).read_text()
    a = record.parse((repo / "docs/adr/0001-a.md").read_text(), "0001-a.md")
    assert a.meta["links"] == [{"rel": "amended by", "id": "ADR-0002"}]


def test_new_follows_the_folders_own_numbering(repo, capsys):
    write(repo, {"docs/adr/adr-007-a.md": "# ADR 007: A\n\n## Status\n\nAccepted\n"})
    assert run(capsys, "new", "Next one").out == "docs/adr/adr-008-next-one.md\n"
