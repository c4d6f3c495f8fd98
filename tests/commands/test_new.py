"""commands.new: a record with its reasons, tags and the key it holds."""

from __future__ import annotations

import pytest

from adr_memory.commands import new
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.records import parse
from tests.helpers import adr_text, commit


def test_a_record_with_its_reasons_and_a_refusal_in_the_caller_s_words(repo):
    commit(repo, {"docs/adr/0001-pg.md": adr_text("Use PostgreSQL", extra="conflict-key: project.primary_database")})
    made = new.run(Workspace.discover(repo), "Use Kafka", tags=["queues"], context="Jobs pile up.")
    rec = parse((repo / made["created"]).read_text(), made["created"])
    assert rec.tags == ("queues",) and "Jobs pile up." in rec.body
    with pytest.raises(UsageError) as told:
        new.run(
            Workspace.discover(repo),
            "Use MongoDB",
            key="project.primary_database",
            spelled=("supersede {id}", "go multi"),
        )
    assert told.value.hint == "supersede ADR-0001 to supersede it, or go multi if several decisions may hold it"
