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
        (["2024-01-05-a.md", "2024-02-01-b.md"], "docs/adr/{today}-use-redis.md"),  # today: when it runs
        (["20240105-a/index.md", "20240201-b/index.md"], "docs/adr/{compact}-use-redis/index.md"),
    ],
)
def test_a_new_record_is_named_as_the_folder_names_its_records(repo, names, made):
    commit(repo, {f"docs/adr/{name}": adr_text(f"R {n}") for n, name in enumerate(names)}, "folder")
    assert _new(repo, "Use Redis") == _dated(made)


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


def _kept(*names):
    from adr_memory.records import Catalog, parse

    return Catalog("docs/adr", tuple(parse("---\nstatus: accepted\n---\n# X\n", f"docs/adr/{n}") for n in names))


@pytest.mark.parametrize(
    ("names", "made", "number"),
    [
        ([], "0001-use-redis-now.md", 1),  # a new folder: four digits
        (["0001-a.md"], "0002-use-redis-now.md", 2),
        (["adr-007-a.md"], "adr-008-use-redis-now.md", 8),
        (["007-a.md"], "008-use-redis-now.md", 8),
        (["adr001-a.md"], "adr002-use-redis-now.md", 2),
        (["0001-a.rst", "0002-b.rst"], "0003-use-redis-now.rst", 3),  # Open edX's suffix
        (["use-pg.md", "keep.md"], "use-redis-now.md", None),  # named by title alone: no number
        (["2024-01-05-a.md", "2024-02-01-b.md"], "{today}-use-redis-now.md", None),
        (["20240105-a.md", "20240201-b.md"], "{compact}-use-redis-now.md", None),
        (["2024-01-05 Use A.md", "2024-02-01 Use B.md"], "{today} Use Redis now.md", None),  # the title as typed
        (["2024-01-05-a.md", "0002-b.md", "0003-c.md"], "0004-use-redis-now.md", 4),  # most are numbered
    ],
)
def test_a_new_file_is_named_and_numbered_as_most_of_its_folder(tmp_path, names, made, number):
    from adr_memory.policy import new

    kept = _kept(*names)
    assert new._file_name(kept, tmp_path, kept.next_number(), "Use Redis: now?") == (_dated(made), number)


def _dated(name: str) -> str:
    """`name` with the day the test runs (worked out then: a run that crosses midnight)."""
    return name.replace("{today}", today()).replace("{compact}", today().replace("-", ""))


def test_a_name_taken_on_disk_by_a_file_or_a_record_s_folder_gets_the_next_suffix(tmp_path):
    from adr_memory.policy import new

    kept = _kept("use-pg.md", "keep.md")
    (tmp_path / "use-redis.md").write_text("not a record yet")
    (tmp_path / "use-redis-2").mkdir()  # a record kept in a folder of its own
    assert new._free_name(kept, tmp_path, "use-redis") == "use-redis-3.md"
    assert new._free_name(kept, tmp_path, "use-pg") == "use-pg-2.md"


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Use Redis: now/then?", "Use Redis now then"),  # separators and reserved characters go
        ('a*b?c"d<e>f|g\\h', "a b c d e f g h"),
        ("  .hidden  ", "hidden"),  # no leading dot
        ("tab\there", "tab here"),
        ("\x00\x01", "Decision"),
        ("...", "Decision"),
        ("a" * 100, "a" * 80),
    ],
)
def test_a_title_kept_as_a_file_name_is_safe_on_every_file_system(title, name):
    from adr_memory.policy import new

    assert new._as_file_name(title) == name


@pytest.mark.parametrize(
    ("names", "name", "placed"),
    [
        (["0001-a.md", "0002-b.md"], "0003-x.md", "0003-x.md"),
        (["20240105-a/index.md", "20240201-b/README.md"], "20260101-x.md", "20260101-x/README.md"),  # the newest's page
        (["0001-a/index.md", "0002-b/index.md", "0003-c.md"], "0004-x.rst", "0004-x/index.rst"),
        (["0001-a.md", "0002-b/index.md"], "0003-x.md", "0003-x.md"),  # half is no majority
    ],
)
def test_a_record_goes_in_a_folder_of_its_own_where_most_of_its_neighbours_do(names, name, placed):
    from adr_memory.policy import new

    assert new._placed(_kept(*names), name) == placed


def test_a_key_writes_only_what_differs_from_the_defaults():
    assert Key("db.primary").frontmatter() == {"conflict-key": "db.primary"}
    assert Key("db.primary", "multi", "postgres").frontmatter() == {
        "conflict-key": "db.primary",
        "cardinality": "multi",
        "value": "postgres",
    }


@pytest.mark.parametrize(
    ("key", "message", "hint"),
    [
        (
            Key("Not A Key"),
            "conflict key 'Not A Key' is not a dotted lowercase key",
            "e.g. --key project.primary_database",
        ),
        (Key("db.primary", cardinality="some"), "unknown cardinality 'some'", "single or multi"),
    ],
)
def test_a_key_that_cannot_be_held_is_refused_with_how_to_write_it(key, message, hint):
    with pytest.raises(UsageError) as told:
        key.validate()
    assert (told.value.message, told.value.hint) == (message, hint)


def test_rules_are_checked_where_they_are_typed_and_the_first_bad_one_is_named():
    from adr_memory.policy import new

    good = [{"forbid": "import requests"}, {"require-path": "migrations/*.sql"}]
    assert new._checked_rules(good) == good
    hint = 'e.g. --rule "forbid: import requests" (see docs/checks.md, Rules)'
    with pytest.raises(UsageError) as told:
        new._checked_rules([{"forbid": "import x"}, {"bogus": 1}])
    assert (told.value.message, told.value.hint) == (
        "rule 2 has unknown key 'bogus' (types: forbid, require, forbid-path, require-path)",
        hint,
    )
    with pytest.raises(
        UsageError, match=r"^rule 1 must have exactly one of: forbid, require, forbid-path, require-path$"
    ):
        new._checked_rules([{}])


@pytest.mark.parametrize(
    ("text", "status", "stated"),
    [
        # A status the template states as asked: the text as it is.
        ("---\nstatus: proposed\n---\n# A\n", "proposed", "---\nstatus: proposed\n---\n# A\n"),
        # Another status: the one asked for.
        ("---\nstatus: accepted\n---\n# A\n", "proposed", "---\nstatus: proposed\n---\n# A\n"),
        ("# A\n\n- Status: Proposed\n", "accepted", "# A\n\n- Status: Accepted\n"),
        # A Status section left to the writer: the status goes there.
        (
            "# 1. A\n\n## Status\n\n<!-- proposed, accepted -->\n\n## Context\n\nc\n",
            "proposed",
            "# 1. A\n\n## Status\n\nProposed\n\n## Context\n\nc\n",
        ),
        # No status anywhere (it would read as accepted): frontmatter says it.
        ("# 1. A\n\n## Context\n\nc\n", "proposed", "---\nstatus: proposed\n---\n# 1. A\n\n## Context\n\nc\n"),
    ],
)
def test_a_new_record_states_the_status_asked_for(text, status, stated):
    from adr_memory.policy import new

    assert new._stated(text, "0001-a.md", status) == stated


@pytest.mark.parametrize(
    ("text", "values", "filled"),
    [
        (
            "---\nstatus: proposed\ntags: []\ngoverns: []\n---\n# A\n",
            {"governs": ["src/**"], "tags": ["db", "cache"]},
            "---\nstatus: proposed\ntags: [db, cache]\ngoverns: [src/**]\n---\n# A\n",
        ),
        # Keys the template declares stay declared when nothing is given.
        (
            "---\nstatus: proposed\ntags: []\ngoverns: []\n---\n# A\n",
            {"governs": [], "tags": []},
            "---\nstatus: proposed\ntags: []\ngoverns: []\n---\n# A\n",
        ),
        # log4brains' header list keeps the tags.
        (
            "# A\n\n- Status: proposed\n- Tags: \n\n## Context\n",
            {"governs": [], "tags": ["db", "cache"]},
            "# A\n\n- Status: proposed\n- Tags: db, cache\n\n## Context\n",
        ),
        # Nothing given, nothing declared: the record is left without frontmatter.
        ("# 1. A\n\n## Status\n\nProposed\n", {"governs": [], "tags": []}, "# 1. A\n\n## Status\n\nProposed\n"),
        (
            "# 1. A\n\n## Status\n\nProposed\n",
            {"governs": ["src/**"], "tags": []},
            "---\ngoverns: [src/**]\n---\n# 1. A\n\n## Status\n\nProposed\n",
        ),
    ],
)
def test_governs_and_tags_go_where_the_template_keeps_them(text, values, filled):
    from adr_memory.policy import new

    assert new._with_keys(text, "0001-a.md", **values) == filled


def test_a_number_taken_by_another_writer_is_tried_again_up_to_five_times(repo, monkeypatch):
    from adr_memory.errors import AdrError
    from adr_memory.policy import new

    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    real, tries = new._create_once, []

    def raced(*args, **kwargs):
        tries.append(1)
        if len(tries) < 3:  # a writer that does not take our lock got there first, twice
            raise FileExistsError
        return real(*args, **kwargs)

    monkeypatch.setattr(new, "_create_once", raced)
    assert _new(repo, "Use Redis") == "docs/adr/0002-use-redis.md" and len(tries) == 3

    def always(*_args, **_kwargs):
        tries.append(1)
        raise FileExistsError

    tries.clear()
    monkeypatch.setattr(new, "_create_once", always)
    with pytest.raises(AdrError) as told:
        _new(repo, "Use Kafka")
    assert len(tries) == 5
    assert (told.value.message, told.value.hint) == (
        "could not find a free record number: other writers keep taking them",
        "run the command again",
    )


@pytest.mark.parametrize(
    ("kwargs", "message", "hint"),
    [
        ({"title": "\x1b[31m \t"}, "a decision needs a title", 'adr new "Use PostgreSQL for storage"'),
        (
            {"title": "T", "status": "Accepted"},  # statuses are written in lower case
            "unknown status 'Accepted'",
            "one of: proposed, accepted, rejected, deprecated, superseded",
        ),
        (
            {"title": "T", "governs": ["src/**", "/etc/**"]},
            "governs glob '/etc/**' is absolute; globs are relative to the repository root",
            'e.g. --governs "src/db/**"',
        ),
        (
            {"title": "T", "rules": [{"forbid": ""}]},
            "rule 1 forbid must be non-empty text",
            'e.g. --rule "forbid: import requests" (see docs/checks.md, Rules)',
        ),
    ],
)
def test_what_cannot_be_written_is_refused_with_what_to_type_instead(repo, kwargs, message, hint):
    with pytest.raises(UsageError) as told:
        create(Workspace.discover(repo), **kwargs)
    assert (told.value.message, told.value.hint) == (message, hint)
    assert not (repo / "docs/adr").exists()


@pytest.mark.parametrize(
    ("given", "what"),
    [
        ({"reasons": "context"}, "context"),
        ({"reasons": "decision"}, "decision"),
        ({"reasons": "consequences"}, "consequences"),
        ({"reasons": "options"}, "option"),
        ({"body": True}, "body"),
    ],
)
def test_a_secret_typed_into_a_new_record_is_refused_and_nothing_is_written(repo, given, what):
    """`adr new Rotate --context "DB_PASSWORD=..."` wrote the secret (into git history once
    committed), where a title or a reason holding one was refused."""
    from adr_memory.records import content

    secret = "DB_PASSWORD=Hunter2Secret99"
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")})
    field = given.get("reasons")
    reasons = content.Reasons(**{field: (secret,) if field == "options" else secret}) if field else None
    before = sorted(p.name for p in (repo / "docs/adr").iterdir())
    with pytest.raises(UsageError, match=f"^the {what} holds a password: nothing written$"):
        create(Workspace.discover(repo), "Rotate the keys", reasons=reasons, body=secret if "body" in given else None)
    assert sorted(p.name for p in (repo / "docs/adr").iterdir()) == before
