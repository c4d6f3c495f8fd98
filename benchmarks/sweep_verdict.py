"""The absence verdict's trade-off: for each setting of its rule, how many absent questions are
refused and how many answerable ones wrongly refused, on each shared question set.

    python benchmarks/sweep_verdict.py [--corpora ../shared/corpora] [--work /tmp/adr-sweep]

Each corpus is copied into a git repository under --work and indexed once (reused on later
runs); every setting is then scored over the same index with `adr eval`'s own scoring. This is
the table in README "Search" and in ADR-0005.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from adr_memory import search
from adr_memory.workspace import Workspace

# (min confidence, min coverage, foreign rise): None switches that arm of the rule off.
SETTINGS: list[tuple[float | None, float, float | None]] = [
    (0.46, 0.9, None),   # session 1's rule: confidence and coverage only
    (0.46, 0.9, 0.06),
    (0.46, 0.9, 0.05),
    (0.46, 0.9, 0.045),  # the chosen rule
    (0.46, 0.9, 0.04),
    (0.46, 0.9, 0.03),
    (0.46, 0.9, 0.02),
    (0.46, 0.9, 0.0),
    (None, 0.9, 0.045),  # foreign words alone
    (0.43, 0.9, 0.045),
    (0.50, 0.9, 0.045),
    (0.46, 1.01, 0.045),  # confidence arm whatever the coverage
]


def corpus_repo(src: Path, dest: Path) -> Path:
    if not (dest / ".git").exists():
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest / "docs/adr", ignore=shutil.ignore_patterns("SOURCE.md"))
        for args in (["init", "-q"], ["add", "-A"],
                     ["-c", "user.name=bench", "-c", "user.email=b@x", "commit", "-qm", "corpus"]):
            subprocess.run(["git", *args], cwd=dest, check=True)
    return dest


def score(ws: Workspace, ctx: search.Context, questions: Path,
          setting: tuple[float | None, float, float | None]) -> str:
    conf, cov, rise = setting
    search.MIN_CONFIDENCE = conf if conf is not None else -1.0
    search.MIN_COVERAGE = cov
    search.FOREIGN_RISE = rise if rise is not None else float("inf")
    report = search._score(ws, ctx, search._questions(questions), "hybrid", 5)
    return f"{report['absent_refused']} absent refused, {report['answerable_refused']} wrongly refused"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).parents[1] / "tests/fixtures/corpora")
    parser.add_argument("--work", type=Path, default=Path("/tmp/adr-sweep"))
    args = parser.parse_args()
    sets = sorted(args.corpora.glob("*-queries.json"))
    if not sets:
        raise SystemExit(f"error: no *-queries.json in {args.corpora}\nhint: pass --corpora ../shared/corpora")
    columns: dict[str, list[str]] = {}
    for queries in sets:
        name = queries.name.removesuffix("-queries.json")
        root = corpus_repo(args.corpora / name, args.work / name)
        ws = Workspace.discover(root)
        print(f"indexing {name} …", file=sys.stderr)
        ctx = search.prepare(ws, mode="hybrid")
        columns[name] = [score(ws, ctx, queries, s) for s in SETTINGS]
    names = list(columns)
    print("| min confidence | coverage | foreign rise | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for n, (conf, cov, rise) in enumerate(SETTINGS):
        cells = [columns[name][n] for name in names]
        coverage = f"<{cov}" if cov <= 1 else "any"
        print(f"| {conf if conf is not None else 'off'} | {coverage} | {rise if rise is not None else 'off'} | "
              + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
