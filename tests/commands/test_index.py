"""commands.index: the index built, and built again from scratch, with what it took."""

from __future__ import annotations

from adr_memory.commands import index
from adr_memory.history import Workspace


def test_a_build_then_a_rebuild_hold_the_same_vectors(few):
    first = index.run(Workspace.discover(few))
    assert first["records"] == 10 and first["vectors"] > 0 and first["embedded"] == first["vectors"]
    again = index.run(Workspace.discover(few), rebuild=True)
    assert again["vectors"] == first["vectors"] and again["notes"] == []
