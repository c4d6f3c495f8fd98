"""`adr new`: a record named as the folder names its records, filled from its template, its
keys and links written, and bad input refused before anything is written."""

from __future__ import annotations

import pytest

from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.policy.new import Key, create
from adr_memory.policy.templates import today
from tests.helpers import adr_text, commit


def _new(repo, title, **kwargs):
    return create(Workspace.discover(repo), title, **kwargs).relative_to(repo).as_posix()


@pytest.mark.parametrize(
    ("names", "made"),
    [
        (["0001-a.md", "0002-b.md"], "docs/adr/0003-use-redis.md"),
        (["adr-007-a.md"], "docs/adr/adr-008-use-redis.md"),
        (["use-postgres.md", "keep-logs.md"], "docs/adr/use-redis.md"),
        (["2024-01-05-a.md", "2024-02-01-b.md"], f"docs/adr/{today()}-use-redis.md"),
        (["20240105-a/index.md", "20240201-b/index.md"], f"docs/adr/{today().replace('-', '')}-use-redis/index.md"),
    ],
)
def test_a_new_record_is_named_as_the_folder_names_its_records(repo, names, made):
    commit(repo, {f"docs/adr/{name}": adr_text(f"R {n}") for n, name in enumerate(names)}, "folder")
    assert _new(repo, "Use Redis") == made


def test_a_second_record_of_the_same_day_and_title_gets_the_next_free_name(repo):
    commit(repo, {"docs/adr/2024-01-05-a.md": adr_text("A")}, "dated")
    assert _new(repo, "Use Redis") == f"docs/adr/{today()}-use-redis.md"
    assert _new(repo, "Use Redis") == f"docs/adr/{today()}-use-redis-2.md"


def test_the_record_carries_what_it_was_given_and_the_superseded_one_says_so(repo):
    commit(repo, {"docs/adr/0001-use-postgres.md": adr_text("Use Postgres")}, "one")
    path = _new(repo, "Use Redis", supersedes=["1"], governs=["src/cache/**"], tags=["cache"], status="accepted")
    rec = Workspace.discover(repo).catalog.get(path)
    assert (rec.status, list(rec.governs), list(rec.tags)) == ("accepted", ["src/cache/**"], ["cache"])
    assert [(link.rel, link.target) for link in rec.links] == [("supersedes", "ADR-0001")]
    assert Workspace.discover(repo).catalog.get("1").status == "superseded"


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"title": "  \x1b "}, "needs a title"),
        ({"title": "T", "status": "maybe"}, "unknown status"),
        ({"title": "T", "governs": ["src/[oops"]}, "governs glob"),
        ({"title": "T", "key": Key("Not A Key")}, "not a dotted lowercase key"),
        ({"title": "T", "key": Key("db.primary", cardinality="some")}, "unknown cardinality"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_written(repo, kwargs, said):
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    with pytest.raises(UsageError, match=said):
        create(Workspace.discover(repo), **kwargs)
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == ["0001-a.md"]


def test_a_single_valued_key_held_in_force_is_refused_unless_superseded(repo):
    commit(
        repo, {"docs/adr/0001-pg.md": adr_text("Postgres", extra="conflict-key: db.primary\nvalue: postgres")}, "one"
    )
    with pytest.raises(UsageError, match=r"db\.primary is already decided by ADR-0001") as told:
        _new(repo, "MySQL", key=Key("db.primary", value="mysql"))
    assert "-s ADR-0001" in told.value.hint
    assert _new(repo, "MySQL", key=Key("db.primary", value="mysql"), supersedes=["1"]) == "docs/adr/0002-mysql.md"
    assert _new(repo, "Also SQLite", key=Key("db.primary", cardinality="multi")) == "docs/adr/0003-also-sqlite.md"
