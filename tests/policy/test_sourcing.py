"""policy.sourcing: a source that cannot be read fails the check, never judged without."""

from __future__ import annotations

from adr_memory.history import Workspace
from adr_memory.policy import sourcing
from tests.helpers import adr_text, commit


def test_a_source_not_pinned_yet_is_an_error_naming_it(repo):
    commit(
        repo,
        {"docs/adr/0001-a.md": adr_text("A"), ".adr-memory.toml": '[sources.platform]\nurl = "/nowhere"\n'},
    )
    (finding,) = sourcing.across(Workspace.discover(repo))
    assert (finding.kind, finding.severity, finding.id) == ("source", "error", "platform")
    assert "not pinned yet" in finding.message and finding.hint == "adr sources update platform"
    head = Workspace.discover(repo).repo.head()
    assert sourcing.moved_pins(Workspace.discover(repo), head) == []
