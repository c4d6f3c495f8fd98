"""commands.feedback: kept in the local cache, never in a verdict."""

from __future__ import annotations

import pytest

from adr_memory.commands import feedback
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_a_verdict_is_kept_and_an_unknown_one_refused(repo):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    ws = Workspace.discover(repo)
    assert feedback.run(ws, "1", "used")["stored"] == "local cache"
    assert (repo / ".adr-cache" / "feedback.jsonl").is_file()
    with pytest.raises(UsageError):
        feedback.run(ws, "1", "meh")
