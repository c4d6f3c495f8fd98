"""Cold CI on a long history: `adr check --base`, `adr review --base` and `adr stale` beside
`adr check` and a git CLI loop, on a generated repository whose decisions are recent.

    python benchmarks/bench_ci.py [--files 20000 --commits 20000 --adrs 29 --recent 60] [--dir PATH]

Cold means no `.adr-cache` (a fresh CI clone); warm, the cache of the previous run. Each figure
is the median of three whole processes. Targets (issue 13): cold `check --base HEAD~50` within
2x cold `adr check`; cold `adr stale` within 1.5x warm; warm `adr stale` within 2x the git loop.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from common import accepted_decisions, adr, best, forget_caches, generated_repo_args, machine, repo, timed


def git_loop(root: Path) -> dict[str, bool]:
    """What a shell loop answers: per accepted decision, `git log -1` for its anchor and
    `git diff --quiet anchor HEAD -- prefixes` for whether its code changed."""
    answer: dict[str, bool] = {}
    for ident, anchor, _governs, prefixes in accepted_decisions(root):
        quiet = subprocess.run(["git", "diff", "--quiet", anchor, "HEAD", "--", *prefixes], cwd=root)
        answer[ident] = quiet.returncode == 1
    return answer


def main() -> None:
    args = generated_repo_args(__doc__, adrs=29, recent=60, folder="/tmp/adr-bench-ci")
    root = repo(args.dir, files=args.files, commits=args.commits, adrs=args.adrs, recent=args.recent)

    def cold() -> None:
        forget_caches(root)

    check = best(adr("check"), root, before=cold)
    check_base = best(adr("check", "--base", "HEAD~50", "--format", "json"), root, before=cold)
    review = best(adr("review", "--base", "HEAD~50"), root, before=cold)
    stale_cold = best(adr("stale", "--json"), root, before=cold)
    stale_warm = best(adr("stale", "--json"), root)
    ours = {
        d["id"]: d["state"] == "stale"
        for d in json.loads(timed(adr("stale", "--json"), root)[1])["decisions"]
        if d["state"] != "not-accepted"
    }
    start = time.perf_counter()
    loop = git_loop(root)
    loop_time = time.perf_counter() - start
    agree = sum(ours.get(k) == v for k, v in loop.items())
    print(f"machine: {machine()}")
    print(
        f"repo: {args.files} files, {args.commits} commits, {args.adrs} decisions added in the "
        f"last {args.recent} commits ({sum(loop.values())} stale per git)"
    )
    print(f"cold adr check:                 {check:.2f} s")
    print(f"cold adr check --base HEAD~50:  {check_base:.2f} s  ({check_base / check:.2f}x adr check; target <= 2)")
    print(f"cold adr review --base HEAD~50: {review:.2f} s  ({review / check:.2f}x adr check)")
    print(
        f"adr stale: cold {stale_cold:.2f} s, warm {stale_warm:.2f} s  "
        f"(cold {stale_cold / stale_warm:.2f}x warm; target <= 1.5)"
    )
    print(
        f"git loop (log -1 + diff --quiet per decision): {loop_time:.2f} s  "
        f"(warm adr stale {stale_warm / loop_time:.2f}x; target <= 2)"
    )
    print(f"answers agree: {agree}/{len(loop)} decisions")


if __name__ == "__main__":
    main()
