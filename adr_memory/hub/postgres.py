"""The hub on PostgreSQL with pgvector: full text in a GIN index, vectors in an HNSW index, a
repository's state replaced in one transaction (a reader sees the old state or the new one; a
killed publish leaves the old one). The only module that imports psycopg, on first use.

The schema moves forward by numbered migrations (`adr hub init`), each in a transaction of its
own, recorded in `hub_schema`; none drops data.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from adr_memory.errors import AdrError, ReadOnlyHub, UsageError
from adr_memory.hub.snapshot import Snapshot
from adr_memory.records import redact_url

DIM = 384  # the bundled model's; a hub holds vectors of one model (the contract says which)

MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (
        1,
        "repositories, decisions and their chunks, with full-text and vector indexes",
        [
            "CREATE EXTENSION IF NOT EXISTS vector",
            "CREATE TABLE repositories (name text PRIMARY KEY, commit text, digest text NOT NULL,"
            " contract jsonb, published_at timestamptz NOT NULL DEFAULT now())",
            "CREATE TABLE decisions (repository text NOT NULL REFERENCES repositories(name) ON DELETE CASCADE,"
            " id text NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (repository, id))",
            f"CREATE TABLE chunks (repository text NOT NULL, id text NOT NULL, n int NOT NULL, section text NOT NULL,"
            f" text text NOT NULL, tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,"
            f" embedding vector({DIM}), PRIMARY KEY (repository, id, n),"
            f" FOREIGN KEY (repository, id) REFERENCES decisions ON DELETE CASCADE)",
            "CREATE INDEX chunks_tsv ON chunks USING gin (tsv)",
            "CREATE INDEX chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops)",
            "CREATE INDEX decisions_key ON decisions ((doc->>'key')) WHERE doc->>'key' IS NOT NULL",
        ],
    ),
    (
        2,
        "when each repository's published commit was made: of two publishes, the later commit's stays",
        ["ALTER TABLE repositories ADD COLUMN IF NOT EXISTS committed_at timestamptz"],
    ),
    (
        3,
        "tokens (hashes only), and a repository renamed carries its decisions with it",
        [
            "CREATE TABLE IF NOT EXISTS tokens (name text PRIMARY KEY, digest text UNIQUE NOT NULL,"
            " scopes jsonb NOT NULL, created timestamptz NOT NULL DEFAULT now(), last_used timestamptz,"
            " revoked timestamptz)",
            "ALTER TABLE decisions DROP CONSTRAINT IF EXISTS decisions_repository_fkey",
            "ALTER TABLE decisions ADD CONSTRAINT decisions_repository_fkey FOREIGN KEY (repository)"
            " REFERENCES repositories(name) ON DELETE CASCADE ON UPDATE CASCADE",
            "ALTER TABLE chunks DROP CONSTRAINT IF EXISTS chunks_repository_id_fkey",
            "ALTER TABLE chunks ADD CONSTRAINT chunks_repository_id_fkey FOREIGN KEY (repository, id)"
            " REFERENCES decisions ON DELETE CASCADE ON UPDATE CASCADE",
        ],
    ),
    (
        4,
        "what each repository follows of the others' decisions (its sources'), and their state there",
        ["ALTER TABLE repositories ADD COLUMN IF NOT EXISTS following jsonb NOT NULL DEFAULT '[]'"],
    ),
    (
        5,
        "each version's text, kept beside its decision, for the diffs between two versions",
        [
            "CREATE TABLE IF NOT EXISTS version_texts (repository text NOT NULL, id text NOT NULL,"
            " version_id text NOT NULL, text text NOT NULL, PRIMARY KEY (repository, id, version_id),"
            " FOREIGN KEY (repository, id) REFERENCES decisions ON DELETE CASCADE ON UPDATE CASCADE)",
        ],
    ),
    (
        6,
        "each repository's words (its passages' lexemes): whether a question's word is used anywhere is one index lookup",
        [
            "CREATE TABLE IF NOT EXISTS words (repository text NOT NULL REFERENCES repositories(name)"
            " ON DELETE CASCADE ON UPDATE CASCADE, word text NOT NULL, PRIMARY KEY (word, repository))",
            "CREATE INDEX IF NOT EXISTS words_prefix ON words (word text_pattern_ops)",
            "CREATE INDEX IF NOT EXISTS words_repository_prefix ON words (repository, word text_pattern_ops)",
            "INSERT INTO words (repository, word) SELECT DISTINCT c.repository, w.lexeme FROM chunks c,"
            " unnest(c.tsv) AS w ON CONFLICT DO NOTHING",
        ],
    ),
    (
        7,
        "each passage's place in its record (words before it): ranked as the local search ranks it",
        ["ALTER TABLE chunks ADD COLUMN IF NOT EXISTS word_offset int NOT NULL DEFAULT 0"],
    ),
]
SCHEMA = MIGRATIONS[-1][0]  # the schema this code reads and writes


CONNECT_SECONDS = 2  # how long a hub that does not answer is waited for


def _why(exc: Exception) -> str:
    """What went wrong connecting, in words that hold no part of the URL (libpq's may)."""
    text = str(exc)
    if "password authentication failed" in text or "no password supplied" in text:
        return "the server refused the user or password"
    if "does not exist" in text and "database" in text:
        return "the server has no such database"
    if "does not exist" in text and "role" in text:
        return "the server has no such user"
    if type(exc).__name__ == "ProgrammingError":  # libpq could not parse the URL (and quoted it whole)
        return "the URL is not a PostgreSQL URL it can read (a % in a password is written %25)"
    if "timeout" in text.lower() or "timed out" in text.lower():
        return f"no answer within {CONNECT_SECONDS} s"
    if "refused" in text or "could not connect" in text or "Name or service not known" in text or "failed" in text:
        return "no server answers there"
    return type(exc).__name__


class PostgresStore:
    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: Any = None
        self._schema_checked = False

    @contextlib.contextmanager
    def _connect(self) -> Iterator[Any]:
        """A pooled connection; a server lost while it is used (stopped, the network gone) is
        one error naming the hub, and a publish cut short wrote nothing (one transaction)."""
        import psycopg

        try:
            with self._pooled() as conn:
                yield conn
        except psycopg.OperationalError as exc:
            self.close()
            raise AdrError(
                f"lost the hub at {redact_url(self.url)}: {_why(exc)}",
                hint="the server stopped or the network dropped; nothing was written (a publish is one transaction)",
            ) from None

    def _pooled(self) -> Any:
        """A pooled connection (many readers share a few), vectors adapted by pgvector."""
        if self._pool is None:
            from pgvector.psycopg import register_vector
            from psycopg_pool import ConnectionPool

            def configure(conn: Any) -> None:
                try:
                    register_vector(conn)
                except Exception:  # psycopg raises anything here: a hub not initialised has no vector type yet
                    conn.rollback()

            self._reach()
            try:
                self._pool = ConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=8,
                    configure=configure,
                    # a connection is checked before it is lent (a round trip): one kept from a
                    # server since restarted would fail the request it serves
                    check=ConnectionPool.check_connection,
                    open=True,
                    timeout=10,
                    kwargs={"autocommit": False},
                )
                self._pool.wait(timeout=10)
            except Exception as exc:  # psycopg_pool raises anything on a server it cannot reach
                self._pool = None
                raise AdrError(
                    f"cannot reach the hub at {redact_url(self.url)}: {type(exc).__name__}",
                    hint="check the URL, the server and your network; nothing was read or written",
                ) from None
        return self._pool.connection()

    def _reach(self) -> None:
        """One connection, for two seconds at most, before the pool: a wrong password, a missing
        database or no server is told at once, in one line, where the pool would retry for ten
        (its log printing the URL, password and all, on each try)."""
        import logging

        import psycopg

        logging.getLogger("psycopg.pool").disabled = True  # its messages carry the whole URL
        try:
            psycopg.connect(self.url, connect_timeout=CONNECT_SECONDS).close()
        except Exception as exc:  # psycopg raises anything here; its text may hold the URL: never shown
            raise AdrError(
                f"cannot reach the hub at {redact_url(self.url)}: {_why(exc)}",
                hint="check the URL, the server and your network; nothing was read or written",
            ) from None

    def init(self) -> list[str]:
        done = []
        with self._connect() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS hub_schema (version int PRIMARY KEY, applied_at timestamptz DEFAULT now())"
            )
            conn.commit()
            have = {row[0] for row in conn.execute("SELECT version FROM hub_schema").fetchall()}
            for version, what, statements in MIGRATIONS:
                if version in have:
                    continue
                with conn.transaction():
                    for statement in statements:
                        conn.execute(statement)
                    conn.execute("INSERT INTO hub_schema (version) VALUES (%s)", (version,))
                done.append(f"migration {version}: {what}")
            conn.commit()
        self.close()  # the vector type exists now: connections made before it could not read it
        return done

    def _ready(self, conn: Any) -> None:
        """The hub's schema is this code's, asked once per store (a reader asks thousands of
        times): a hub not made yet, or one an older adr-memory made, says how to move it forward."""
        if self._schema_checked:
            return
        try:
            have = conn.execute("SELECT max(version) FROM hub_schema").fetchone()[0]
        except Exception:  # psycopg raises anything on a missing table
            conn.rollback()
            raise UsageError(f"the hub at {redact_url(self.url)} has no schema", hint="adr hub init --to URL") from None
        conn.rollback()
        if (have or 0) < SCHEMA:
            raise UsageError(
                f"the hub at {redact_url(self.url)} has schema {have or 0}; this adr-memory reads schema {SCHEMA}",
                hint="adr hub init --to URL moves it forward (it never drops data)",
            )
        self._schema_checked = True

    def publish(self, snap: Snapshot) -> str:
        import psycopg

        try:
            return self._publish(snap)
        except psycopg.errors.InsufficientPrivilege:  # a reader's user, as the served hub's may be
            raise ReadOnlyHub(
                f"the hub's database user may not write at {redact_url(self.url)}",
                hint="publish as a user granted INSERT and DELETE on the hub's tables (docs/hub.md)",
            ) from None

    def _publish(self, snap: Snapshot) -> str:
        if snap.contract and snap.contract.get("dim") not in (None, DIM):
            raise UsageError(f"this hub keeps {DIM}-dimension vectors", hint="publish with the bundled model")
        with self._connect() as conn:
            self._ready(conn)
            conn.commit()
            with conn.transaction():  # the old state or the new one, never half
                # One publish of a repository at a time (two pushes in quick succession): the
                # second waits, then reads what the first wrote, as the folder store's lock does.
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 7))", (snap.repository,))
                row = conn.execute(
                    "SELECT digest, committed_at FROM repositories WHERE name = %s", (snap.repository,)
                ).fetchone()
                digest = snap.digest
                if row and row[0] == digest:
                    return "unchanged"
                if row and snap.older_than(_second(row[1])):
                    return "older"
                conn.execute("DELETE FROM repositories WHERE name = %s", (snap.repository,))
                conn.execute(
                    "INSERT INTO repositories (name, commit, digest, contract, committed_at, following)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    (
                        snap.repository,
                        snap.commit,
                        digest,
                        json.dumps(snap.contract),
                        snap.committed,
                        json.dumps(snap.following),
                    ),
                )
                records, texts = snap.split_texts()
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO decisions (repository, id, doc) VALUES (%s, %s, %s)",
                        [(snap.repository, doc["id"], json.dumps(doc)) for doc in records],
                    )
                    cur.executemany(
                        "INSERT INTO version_texts (repository, id, version_id, text) VALUES (%s, %s, %s, %s)",
                        [(snap.repository, i, v, text) for (i, v), text in texts.items()],
                    )
                    cur.executemany(
                        "INSERT INTO chunks (repository, id, n, section, text, embedding, word_offset)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        [
                            (snap.repository, c["id"], n, c["section"], c["text"], _vector(snap, n), c.get("offset", 0))
                            for n, c in enumerate(snap.chunks)
                        ],
                    )
                    cur.execute(
                        "INSERT INTO words (repository, word) SELECT DISTINCT %s, w.lexeme FROM chunks c,"
                        " unnest(c.tsv) AS w WHERE c.repository = %s",
                        (snap.repository, snap.repository),  # the lexemes of the chunks just written
                    )
            conn.commit()
        return "published"

    def repositories(self) -> list[dict[str, Any]]:
        with self._connect() as conn:
            self._ready(conn)
            rows = conn.execute(
                "SELECT r.name, r.commit, r.published_at, count(d.id) FROM repositories r"
                " LEFT JOIN decisions d ON d.repository = r.name GROUP BY r.name ORDER BY r.name"
            ).fetchall()
        return [{"name": n, "commit": c, "published_at": _second(p), "records": k} for n, c, p, k in rows]

    def holds(self, repository: str) -> bool:
        with self._connect() as conn:
            self._ready(conn)
            found = conn.execute("SELECT 1 FROM repositories WHERE name = %s", (repository,)).fetchone()
            conn.rollback()
        return found is not None

    def count(self) -> int:
        with self._connect() as conn:
            self._ready(conn)
            (found,) = conn.execute("SELECT count(*) FROM repositories").fetchone() or (0,)
            conn.rollback()
        return int(found)

    def records(self, repository: str | None = None) -> list[dict[str, Any]]:
        with self._connect() as conn:
            self._ready(conn)
            rows = conn.execute(
                "SELECT repository, doc FROM decisions WHERE %s::text IS NULL OR repository = %s ORDER BY repository, id",
                (repository, repository),
            ).fetchall()
        return [{**doc, "repository": repo} for repo, doc in rows]

    def nearest(
        self, vector: Any, limit: int, repository: str | None = None, status: str = "", tag: str = ""
    ) -> list[tuple[str, str, str, str, float, int]]:
        import numpy as np

        query = np.asarray(vector, dtype=np.float32)
        # A status or tag is the record's: joined only when asked, so the plain search keeps its plan.
        joined = " JOIN decisions d ON d.repository = c.repository AND d.id = c.id" if status or tag else ""
        kept = " AND (%s = '' OR d.doc->>'status' = %s) AND (%s = '' OR d.doc->'tags' ? %s)" if joined else ""
        with self._connect() as conn:
            self._ready(conn)
            conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, 2 * int(limit))}")  # an int: no text reaches SQL
            rows = conn.execute(
                "SELECT c.repository, c.id, c.section, c.text, 1 - (c.embedding <=> %s), c.word_offset FROM chunks c"
                + joined
                + " WHERE c.embedding IS NOT NULL AND (%s::text IS NULL OR c.repository = %s)"
                + kept
                + " ORDER BY c.embedding <=> %s LIMIT %s",
                (query, repository, repository, *((status, status, tag, tag) if joined else ()), query, limit),
            ).fetchall()
            conn.rollback()
        return [(r, i, s, t, float(c), int(o)) for r, i, s, t, c, o in rows]

    def docs(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
        if not keys:
            return {}
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT repository, id, doc FROM decisions WHERE (repository, id) IN (SELECT * FROM unnest(%s::text[], %s::text[]))",
                ([k[0] for k in keys], [k[1] for k in keys]),
            ).fetchall()
        return {(r, i): {**doc, "repository": r} for r, i, doc in rows}

    def unused(self, words: list[str], repository: str | None = None) -> list[str]:
        import re

        if not words:
            return []
        # Stemmed by PostgreSQL's English configuration, or a prefix of four letters or more (as
        # the GIN index answers both); a word PostgreSQL drops as a stop word is no missing topic.
        prefixes = [w.lower() if len(w) >= 4 and re.fullmatch(r"[a-z0-9]+", w.lower()) else None for w in words]
        # Looked up in the words table (a lexeme, or a word starting with the prefix: btree
        # lookups, the prefix as a range the pattern index answers), not the passages' GIN index, whose bitmap for a common word is tens of
        # thousands of rows (20 ms a question on 100,000 passages). A word of several lexemes
        # (`e-mail`) is used when each is, in any passage.
        anywhere = "(%(repository)s::text IS NULL OR repository = %(repository)s)"
        with self._connect() as conn:
            self._ready(conn)
            rows = conn.execute(
                "SELECT w FROM unnest(%(words)s::text[], %(prefixes)s::text[], %(uppers)s::text[]) AS t(w, prefix, upper)"
                " WHERE numnode(plainto_tsquery('english', w)) > 0"
                " AND EXISTS (SELECT 1 FROM unnest(tsvector_to_array(to_tsvector('english', w))) AS l(x)"
                f" WHERE NOT EXISTS (SELECT 1 FROM words WHERE word = l.x AND {anywhere}))"
                " AND NOT (prefix IS NOT NULL AND EXISTS (SELECT 1 FROM words"
                f" WHERE word ~>=~ prefix AND word ~<~ upper AND {anywhere}))",
                {
                    "words": words,
                    "prefixes": prefixes,
                    "uppers": [_after(p) for p in prefixes],
                    "repository": repository,
                },
            ).fetchall()
            conn.rollback()
        missing = {r[0] for r in rows}
        return [w for w in words if w in missing]

    def explain(self, vector: Any) -> str:
        """The plans of a vector search and a full-text one (what the benchmark shows: the HNSW
        and GIN indexes are used), the vector itself left out."""
        import re

        import numpy as np

        queries = (
            (
                "EXPLAIN SELECT id FROM chunks ORDER BY embedding <=> %s LIMIT 200",
                (np.asarray(vector, dtype=np.float32),),
            ),
            ("EXPLAIN SELECT id FROM chunks WHERE tsv @@ plainto_tsquery('english', %s)", ("queue broker",)),
        )
        with self._connect() as conn:
            plans = [conn.execute(sql, args).fetchall() for sql, args in queries]
        return "\n".join(re.sub(r"'\[[^']*\]'::vector", "'[...]'::vector", row[0]) for plan in plans for row in plan)

    def version_text(self, repository: str, ident: str, version_id: str) -> str | None:
        with self._connect() as conn:
            self._ready(conn)
            row = conn.execute(
                "SELECT text FROM version_texts WHERE repository = %s AND id = %s AND version_id = %s",
                (repository, ident, version_id),
            ).fetchone()
        return None if row is None else str(row[0])

    def followers(self, repository: str, ident: str) -> list[dict[str, Any]]:
        with self._connect() as conn:
            self._ready(conn)
            rows = conn.execute(
                "SELECT r.name, f FROM repositories r, jsonb_array_elements(r.following) f"
                " WHERE f->>'repository' = %s AND f->>'id' = %s ORDER BY r.name",
                (repository, ident),
            ).fetchall()
            conn.rollback()
        return [{"follower": name, **{k: f.get(k) for k in ("state", "reason", "exception")}} for name, f in rows]

    def remove(self, repository: str) -> bool:
        with self._connect() as conn:
            self._ready(conn)
            gone = conn.execute("DELETE FROM repositories WHERE name = %s", (repository,)).rowcount
            conn.commit()
        return bool(gone)

    def rename(self, old: str, new: str) -> bool:
        with self._connect() as conn:
            self._ready(conn)
            if conn.execute("SELECT 1 FROM repositories WHERE name = %s", (new,)).fetchone():
                conn.rollback()
                raise UsageError(f"the hub holds {new!r} already", hint=f"adr hub remove {new} first")
            moved = conn.execute("UPDATE repositories SET name = %s WHERE name = %s", (new, old)).rowcount
            if moved:  # what the others say of its decisions follows it: they follow, or made an exception
                names = {"old": old, "new": new}
                renamed = (
                    "(SELECT jsonb_agg(CASE WHEN x->>'repository' = %(old)s"
                    " THEN jsonb_set(x, '{repository}', to_jsonb(%(new)s::text)) ELSE x END) FROM jsonb_array_elements({list}) x)"
                )
                naming = "{list} @> jsonb_build_array(jsonb_build_object('repository', %(old)s::text))"
                conn.execute(
                    "UPDATE repositories SET following = " + renamed.replace("{list}", "following")
                    + " WHERE " + naming.replace("{list}", "following"),
                    names,
                )  # fmt: skip
                conn.execute(
                    "UPDATE decisions SET doc = jsonb_set(doc, '{exceptions}', "
                    + renamed.replace("{list}", "doc->'exceptions'") + ") WHERE "
                    + naming.replace("{list}", "doc->'exceptions'"),
                    names,
                )  # fmt: skip
            conn.commit()
        return bool(moved)

    def add_token(self, name: str, digest: str, scopes: list[str]) -> None:
        with self._connect() as conn:
            self._ready(conn)
            if conn.execute("SELECT 1 FROM tokens WHERE name = %s AND revoked IS NULL", (name,)).fetchone():
                conn.rollback()
                raise UsageError(f"a token named {name!r} exists", hint=f"adr hub token revoke {name}, or another name")
            conn.execute("DELETE FROM tokens WHERE name = %s", (name,))  # a revoked one's name is free again
            conn.execute(
                "INSERT INTO tokens (name, digest, scopes) VALUES (%s, %s, %s)", (name, digest, json.dumps(scopes))
            )
            conn.commit()

    def tokens(self) -> list[dict[str, Any]]:
        with self._connect() as conn:
            self._ready(conn)
            rows = conn.execute("SELECT name, scopes, created, last_used, revoked FROM tokens ORDER BY name").fetchall()
            conn.rollback()
        return [
            {"name": n, "scopes": sc, "created": _minute(c), "last_used": _minute(u), "revoked": _minute(r)}
            for n, sc, c, u, r in rows
        ]

    def revoke(self, name: str) -> bool:
        with self._connect() as conn:
            self._ready(conn)
            done = conn.execute(
                "UPDATE tokens SET revoked = coalesce(revoked, now()) WHERE name = %s", (name,)
            ).rowcount
            conn.commit()
        return bool(done)

    def token(self, digest: str) -> dict[str, Any] | None:
        with self._connect() as conn:
            self._ready(conn)
            row = conn.execute(
                "SELECT name, scopes, last_used > now() - interval '1 minute' FROM tokens"
                " WHERE digest = %s AND revoked IS NULL",
                (digest,),
            ).fetchone()
            if row and not row[2]:  # its use noted once a minute: a write per request would queue them all
                conn.commit()
                try:
                    conn.execute("UPDATE tokens SET last_used = now() WHERE digest = %s", (digest,))
                except Exception:  # psycopg raises anything; a server's user that may only read skips the note
                    conn.rollback()
            conn.commit()
        return {"name": row[0], "scopes": list(row[1])} if row else None

    def close(self) -> None:
        self._schema_checked = False  # asked again of the next connection: `init` may have moved it
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def _after(prefix: str | None) -> str | None:
    """The first text past every word starting with `prefix` (letters and digits), byte by byte
    as the words' pattern index orders them: `bill` -> `bilm`."""
    return None if prefix is None else prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _second(moment: Any) -> str | None:
    """A timestamptz as UTC ISO 8601: psycopg gives it in the session's time zone (the server's
    or the database's own), which is not UTC everywhere."""
    import datetime as dt

    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment is not None else None


def _minute(moment: Any) -> str | None:
    import datetime as dt

    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%MZ") if moment is not None else None


def _vector(snap: Snapshot, n: int) -> Any:
    return snap.vectors[n] if snap.vectors is not None else None
