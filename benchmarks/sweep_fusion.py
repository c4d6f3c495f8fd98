"""How much BM25 the hybrid ranking mixes into the cosine, scored on every shared question set,
with the leave-one-folder-out pick: the weight that does best on two folders, scored on the third.

    python benchmarks/sweep_fusion.py [--corpora DIR] [--weights 0,0.05,0.1,0.15,0.25]

Each corpus is copied unmodified, in its own folder name, into a git repository under /tmp and
indexed once; every weight is then scored with `adr eval`'s own scoring (k = 5, every status).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

from adr_memory import search
from adr_memory.workspace import Workspace

FOLDERS = {"cloud-platform": "architecture-decision-record", "cometbft": "docs/references/architecture",
           "tdr": "architecture-decision-records"}


def prepare(corpora: Path, name: str) -> tuple[Workspace, search.Context, list[dict[str, object]]]:
    root = Path(f"/tmp/adr-sweep-{name}")
    if not (root / ".git").is_dir():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(corpora / name, root / FOLDERS[name])
        (root / FOLDERS[name] / "SOURCE.md").unlink(missing_ok=True)
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    ws = Workspace.discover(root)
    return ws, search.prepare(ws, mode="hybrid"), search._questions(corpora / f"{name}-queries.json")


def score(ws: Workspace, ctx: search.Context, questions: list[dict[str, object]], mode: str) -> tuple[float, float]:
    kinds = search._score(ws, ctx, questions, mode, 5)["kinds"]["paraphrase"]
    return float(kinds["recall@5"]), float(kinds["mrr"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpora", type=Path, default=Path(__file__).parent.parent / "tests/fixtures/corpora")
    parser.add_argument("--weights", default="0,0.05,0.1,0.15,0.25")
    args = parser.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    sets = {name: prepare(args.corpora, name) for name in FOLDERS}
    table: dict[float, dict[str, tuple[float, float]]] = {}
    print("| weight | " + " | ".join(f"{n} paraphrase recall@5 / MRR" for n in sets) + " |")
    print("|---|" + "---|" * len(sets))
    semantic = {n: score(*s, "semantic") for n, s in sets.items()}
    print("| semantic only | " + " | ".join(f"{r:.3f} / {m:.3f}" for r, m in semantic.values()) + " |")
    for weight in weights:
        search.KEYWORD_WEIGHT = weight
        table[weight] = {n: score(*s, "hybrid") for n, s in sets.items()}
        print(f"| {weight} | " + " | ".join(f"{r:.3f} / {m:.3f}" for r, m in table[weight].values()) + " |")
    print("\nleave one folder out (pick the weight with the best recall + MRR on the other two):")
    for held in sets:
        pick = max(weights, key=lambda w: sum(sum(table[w][n]) for n in sets if n != held))
        recall, mrr = table[pick][held]
        print(f"  {held}: weight {pick} -> paraphrase recall@5 {recall:.3f}, MRR {mrr:.3f}")


if __name__ == "__main__":
    main()
