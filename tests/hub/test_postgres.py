"""hub.postgres: the schema moves forward by migrations, once each, and the vector search uses
its HNSW index."""

from __future__ import annotations

from adr_memory.hub.postgres import MIGRATIONS, PostgresStore
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
