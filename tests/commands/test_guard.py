"""commands.guard: the decisions governing paths, whether they hold, and what applies."""

from __future__ import annotations

from adr_memory.commands import guard
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_a_governed_path_and_one_outside_the_repository(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"})
    answer = guard.run(Workspace.discover(repo), ["src/a.py", "/etc/passwd"])
    inside, outside = answer["paths"]
    assert [d["id"] for d in inside["decisions"]] == ["ADR-0001"] and inside["decisions"][0]["in_force"]
    assert outside["outside"] and outside["decisions"] == []
