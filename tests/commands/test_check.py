"""commands.check: findings as `adr check --format json` gives them."""

from __future__ import annotations

from adr_memory.commands import check
from adr_memory.history import Workspace
from tests.helpers import adr_text, commit


def test_an_error_fails_and_paths_narrow_the_report(repo):
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", extra="status: maybe"),
            "docs/adr/0002-b.md": "---\nstatus: [\n---\n# B\n",
        },
    )
    ws = Workspace.discover(repo)
    whole = check.run(ws).to_json()
    assert not whole["ok"] and {f["path"] for f in whole["findings"]} >= {"docs/adr/0002-b.md"}
    only = check.run(ws, paths=["docs/adr/0001-a.md"]).to_json()
    assert {f["path"] for f in only["findings"]} <= {"docs/adr/0001-a.md"}
