"""Edits to several records are written all or none: a file that changed under the command
stops it, and what was already written is put back."""

from __future__ import annotations

import pytest

from adr_memory.errors import InvalidRecord
from adr_memory.history.workspace import Workspace
from adr_memory.policy.transaction import Transaction
from tests.helpers import adr_text, commit


def _two(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-b.md": adr_text("B")})
    return Workspace.discover(repo)


def test_every_edit_and_new_file_lands_together(repo):
    ws = _two(repo)
    edits = Transaction(ws)
    new = edits.add_new(repo / "docs/adr/0003-c.md", adr_text("C"))
    edits.edit("docs/adr/0001-a.md", lambda text, rec: text.replace("We decided.", "We decided again."))
    edits.commit()
    assert new == "docs/adr/0003-c.md" and (repo / new).read_text() == adr_text("C")
    assert "We decided again." in (repo / "docs/adr/0001-a.md").read_text()


def test_a_file_changed_under_the_command_stops_it_and_nothing_stays_written(repo):
    ws = _two(repo)
    edits = Transaction(ws)
    edits.edit("docs/adr/0001-a.md", lambda text, rec: text + "\nfirst edit\n")
    edits.edit("docs/adr/0002-b.md", lambda text, rec: text + "\nsecond edit\n")
    (repo / "docs/adr/0002-b.md").write_text("someone else's words\n")  # changed since it was read
    with pytest.raises(InvalidRecord, match="changed while this command was editing it"):
        edits.commit()
    assert (repo / "docs/adr/0001-a.md").read_text() == adr_text("A")  # put back
    assert (repo / "docs/adr/0002-b.md").read_text() == "someone else's words\n"


def test_a_new_record_in_a_folder_of_its_own_is_taken_back_with_its_folder(repo):
    ws = _two(repo)
    edits = Transaction(ws)
    edits.add_new(repo / "docs/adr/0003-c/README.md", adr_text("C"))
    edits.edit("docs/adr/0001-a.md", lambda text, rec: text + "\nedit\n")
    (repo / "docs/adr/0001-a.md").write_text("changed\n")
    with pytest.raises(InvalidRecord):
        edits.commit()
    assert not (repo / "docs/adr/0003-c").exists()
