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
