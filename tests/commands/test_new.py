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


def test_rules_given_at_creation_are_what_check_enforces_once_accepted(repo):
    from adr_memory.commands import check, lifecycle

    commit(repo, {"docs/adr/0001-pg.md": adr_text("Use PostgreSQL"), "src/db.py": "import pymongo\n"})
    rule = {"forbid": "import pymongo", "in": ["src/**"], "message": "we use PostgreSQL"}
    made = new.run(Workspace.discover(repo), "No MongoDB", rules=[rule], links=["1:Narrows:Narrowed by"])
    rec = parse((repo / made["created"]).read_text(), made["created"])
    assert rec.rules == (rule,) and [(x.rel, x.target) for x in rec.links] == [("narrows", "ADR-0001")]

    def errors() -> list[tuple[str, str]]:
        found = check.run(Workspace.discover(repo)).findings
        return [(f.path, f.message) for f in found if f.severity == "error"]

    assert errors() == []  # proposed: not enforced yet
    lifecycle.accept(Workspace.discover(repo), "2")
    assert errors() == [("src/db.py", "we use PostgreSQL")]


def test_a_rule_check_could_not_use_is_refused_and_nothing_is_written(repo):
    commit(repo, {"docs/adr/0001-pg.md": adr_text("Use PostgreSQL")})
    refused = (
        ({"forbid": ""}, "non-empty"),
        ({"ban": "x"}, "unknown key 'ban'"),
        ({"forbid": "(", "regex": True}, "regex"),
    )
    for bad, said in refused:
        with pytest.raises(UsageError, match=said):
            new.run(Workspace.discover(repo), "No MongoDB", rules=[bad])
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-pg.md"]


def test_only_a_bundled_template_may_be_named_and_nothing_is_written_otherwise(repo):
    commit(repo, {"docs/adr/0001-pg.md": adr_text("Use PostgreSQL")})
    ws = Workspace.discover(repo)
    for name in ("first", "bogus", "../nygard"):
        with pytest.raises(UsageError, match=f"unknown template {name!r}") as told:
            new.run(ws, "Use Kafka", written=new.Written(template=name))
        assert told.value.hint == "use --template madr or nygard"
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-pg.md"]
    made = new.run(ws, "Use Kafka", written=new.Written(template="madr"))
    assert made == {"created": "docs/adr/0002-use-kafka.md"}
