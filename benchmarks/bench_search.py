"""Index build, refresh and search latency on generated corpora of real-sounding ADRs.

    python benchmarks/bench_search.py [--sizes 100,1000] [--keyword-sizes 10000] [--runs 5]

Records are stitched from the sections of the shared corpora (so the vocabulary is real).
Prints, per size: full build time and chunks/s beside raw fastembed on the same chunks, the
refresh after one edited record, and `adr search` per mode as a whole process (median of
--runs) with the median of its paired ratio to a keyword search, and peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from common import adr, machine

from adr_memory.history.workspace import Workspace
from adr_memory.records import catalog
from adr_memory.search import embed, index

CORPORA = Path(__file__).parent.parent / "tests/fixtures/corpora"
# A plain question, and one with words no record uses (each is probed in the same model run).
QUERIES = ("why did we pick this queue", "should we move the queue to Kafka or NATS JetStream")


def make_corpus(root: Path, size: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    sources = [
        catalog.parse_bytes(p.name, p.read_bytes()) for p in sorted(CORPORA.rglob("*.md")) if p.name != "SOURCE.md"
    ]
    sections = [s for r in sources for s in r.sections if len(s.text) > 80]
    shutil.rmtree(root, ignore_errors=True)
    (root / "docs/adr").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for i in range(1, size + 1):
        title = rng.choice(sources).title + f" ({i})"
        parts = rng.sample(sections, 3)
        body = "\n\n".join(f"## {p.heading}\n\n{p.text}" for p in parts)
        (root / f"docs/adr/{i:05d}-r.md").write_text(f"---\nstatus: accepted\n---\n# {title}\n\n{body}\n")


def run(args: list[str], cwd: Path) -> tuple[float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    return elapsed, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def median_run(args: list[str], cwd: Path, runs: int) -> float:
    return statistics.median(run(args, cwd)[0] for _ in range(runs))


def paired(query: str, cwd: Path, runs: int) -> dict[str, tuple[float, float]]:
    """Per mode: median wall time, and the median of its ratio to the keyword run of the same
    round (the modes take turns, so a drift in the machine's speed hits all of them alike)."""
    modes = ("keyword", "semantic", "hybrid")
    times: dict[str, list[float]] = {m: [] for m in modes}
    for _ in range(runs + 1):  # the first round warms the page cache and is dropped
        for mode in modes:
            times[mode].append(run(adr("search", query, "--mode", mode, "--json"), cwd)[0])
    keyword = times["keyword"][1:]
    return {
        m: (statistics.median(t[1:]), statistics.median(a / b for a, b in zip(t[1:], keyword)))
        for m, t in times.items()
    }


def raw_fastembed(root: Path) -> float:
    ws = Workspace.discover(root)
    chunks = [c.embedded for rec in ws.catalog for c in index.chunks_of(rec)]
    model = embed.load(ws.cache_path)._model  # fastembed itself, the chunks in their order
    start = time.perf_counter()
    list(model.embed(chunks, batch_size=embed.BATCH))
    return len(chunks) / (time.perf_counter() - start)


def refreshed(root: Path, n: int) -> float:
    """One whole search process after one record was edited (a new sentence each time)."""
    target = root / "docs/adr/00001-r.md"
    target.write_text(target.read_text() + f"\nOne more consideration about costs, number {n}.\n")
    seconds, _ = run(adr("search", "costs", "--json"), root)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--keyword-sizes", default="10000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/adr-bench-search"))
    args = parser.parse_args()
    print(f"machine: {machine()}")
    version = median_run(adr("--version"), Path.cwd(), args.runs)
    print(f"adr --version: {version:.2f} s")
    for size in [int(s) for s in args.sizes.split(",") if s]:
        root = args.dir / str(size)
        make_corpus(root, size)
        build, rss = run(adr("index", "--rebuild"), root)
        ws = Workspace.discover(root)
        chunks = sum(len(index.chunks_of(r)) for r in ws.catalog)
        raw = raw_fastembed(root)
        refresh = statistics.median(refreshed(root, n) for n in range(args.runs))
        print(
            f"\n{size} ADRs, {chunks} chunks: build {build:.1f} s ({chunks / build:.1f} chunks/s; "
            f"raw fastembed {raw:.1f} chunks/s), peak RSS {rss / 1024:.0f} MB"
        )
        print(f"  refresh after one edited record (a whole search process, median of {args.runs}): {refresh:.2f} s")
        for query in QUERIES:
            print(
                f"  {query!r}: "
                + ", ".join(
                    f"{mode} {t:.2f} s ({ratio:.2f}x keyword)"
                    for mode, (t, ratio) in paired(query, root, args.runs).items()
                )
            )
    for size in [int(s) for s in args.keyword_sizes.split(",") if s]:
        root = args.dir / f"kw{size}"
        make_corpus(root, size)
        build, rss = run(adr("search", "queue", "--mode", "keyword", "--json"), root)
        t = median_run(adr("search", "why did we pick this queue", "--mode", "keyword", "--json"), root, args.runs)
        print(
            f"\n{size} ADRs keyword-only: first search (builds BM25) {build:.1f} s, peak RSS "
            f"{rss / 1024:.0f} MB; search --mode keyword {t:.2f} s median"
        )


if __name__ == "__main__":
    main()
