"""commands.stale: a verdict per decision, and whether `--fail` fails."""

from __future__ import annotations

from adr_memory.commands import stale
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_a_changed_governed_file_makes_it_stale_and_fail(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"})
    assert not stale.run(Workspace.discover(repo)).fails()
    commit(repo, {"src/a.py": "2"})
    judged = stale.run(Workspace.discover(repo))
    assert judged.to_json()["decisions"][0]["state"] == "stale" and judged.fails()
