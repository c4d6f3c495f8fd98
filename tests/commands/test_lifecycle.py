"""commands.lifecycle: status changes, supersession, links and reviews, each saying what it did."""

from __future__ import annotations

from adr_memory.commands import lifecycle
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_each_says_what_it_did(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed"), "docs/adr/0002-b.md": adr_text("B")})
    ws = Workspace.discover(repo)
    assert lifecycle.accept(ws, "1")["changed"] is True
    assert lifecycle.accept(Workspace.discover(repo), "1")["changed"] is False  # already
    done = lifecycle.supersede(Workspace.discover(repo), "1", "2")
    assert (done["superseded"], done["by"], done["completed"]) == ("ADR-0001", "ADR-0002", True)
    assert done["standing"]["retired_by"] == ["ADR-0002"]
    linked = lifecycle.link(Workspace.discover(repo), "2", "Led to", "1", "Caused by")
    assert (linked["rel"], linked["reverse"]) == ("led to", "caused by")
    assert lifecycle.affirm(Workspace.discover(repo), "2", "holds")["affirmed"] == "ADR-0002"
