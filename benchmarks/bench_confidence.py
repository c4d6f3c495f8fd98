"""How often `confidence: high` is right, per question set, under the shipped rule and beside
simpler ones, each judged on the same evidence (every question embedded once per set).

    python benchmarks/bench_confidence.py [--sets all|NAME,NAME] [--json] [--scratch DIR]

For each set: answerable questions answered `high`, how many of them hold an expected record in
the top 3 ("right"), and absent questions (no record answers them) that reach `high` (what the
prompt recall would inject). The rules beside the shipped one are the simplest a team would try:
"near" alone (the folder's floor plus the band, no words), and "any missing word" (no word of
the question's topic absent from the folder). A rule that loses to the simplest one is no rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from common import machine  # noqa: E402

from adr_memory.history.workspace import Workspace  # noqa: E402
from adr_memory.search import evaluation, refusal, search  # noqa: E402

CORPORA = ROOT / "tests/fixtures/corpora"
FOLDERS = ROOT / "tests/fixtures/folders"
PLAIN = ROOT / "tests/fixtures/plain"


def _sets(wanted: str) -> list[tuple[Path, Path]]:
    pairs = [(CORPORA / f"{n}-queries.json", CORPORA / n) for n in ("cloud-platform", "cometbft", "tdr")]
    pairs += [(q, FOLDERS / q.name.removesuffix("-queries.json")) for q in sorted(FOLDERS.glob("*-queries.json"))]
    # plain questions, held out from every constant: asked of the shared folders and the tour's
    pairs += [(PLAIN / f"{n}-plain-queries.json", CORPORA / n) for n in ("cloud-platform", "tdr")]
    pairs += [(PLAIN / "tour-plain-queries.json", PLAIN / "tour")]
    if wanted != "all":
        names = set(wanted.split(","))
        pairs = [p for p in pairs if p[0].name.removesuffix("-queries.json") in names]
    return pairs


Rule = Callable[[search.Context, search.Evidence, search.Ranking], bool]


def shipped(ctx: search.Context, ev: search.Evidence, ranking: search.Ranking) -> bool:
    return search.judge(ctx, ev, ranking).confidence == "high"


def before(ctx: search.Context, ev: search.Evidence, ranking: search.Ranking) -> bool:
    """The rule before ADR-0102: high unless near the floor or its topic missing."""
    floor = ctx.index.floor
    if floor is None or (not shipped(ctx, ev, ranking) and ev.meaning_kept >= refusal.KEPT_HIGH):
        return False
    near = ranking.top_cosine < floor.level + refusal.BAND
    return not near and not (bool(ev.unknown) and ev.meaning_kept < refusal.MIN_KEPT)


def near_only(ctx: search.Context, ev: search.Evidence, ranking: search.Ranking) -> bool:
    """The simplest: high when the best passage is past the folder's floor plus the band."""
    floor = ctx.index.floor
    return floor is not None and ranking.top_cosine >= floor.level + refusal.BAND


def no_missing_word(ctx: search.Context, ev: search.Evidence, ranking: search.Ranking) -> bool:
    """The shipped rule, and no distinctive word of the question missing from the folder at all."""
    return shipped(ctx, ev, ranking) and not ev.unknown


RULES: dict[str, Rule] = {
    "shipped": shipped,
    "before ADR-0102": before,
    "near only": near_only,
    "no missing word": no_missing_word,
}


def measure(queries: Path, folder: Path, scratch: Workspace) -> dict[str, Any]:
    (qset,) = evaluation.question_sets(scratch, [queries], [folder])
    ctx = search.prepare(qset.ws, mode="hybrid")
    base = qset.ws.adr_dir.rstrip("/") + "/"
    out: dict[str, Any] = {}
    rows = []
    for q in qset.questions:
        ev = search.gather(ctx, q["q"], mode="hybrid", statuses=("all",))
        ranking = search.rank(ctx, ev)
        answer = search.decide(ctx, ev, mode="hybrid", limit=5)
        top3 = [r["path"].removeprefix(base) for r in answer["results"][:3]]
        rows.append((q, ev, ranking, answer, top3))
    for name, rule in RULES.items():
        high = right = absent_high = absent = 0
        for q, ev, ranking, answer, top3 in rows:
            sure = bool(ev.exact) if answer["no_strong_match"] or ev.exact else rule(ctx, ev, ranking)
            if not q["answers"]:
                absent += 1
                absent_high += sure
            elif sure:
                high += 1
                right += any(p in q["answers"] for p in top3)
        out[name] = {"high": high, "right": right, "absent_high": absent_high, "absent": absent}
    out["answerable"] = sum(1 for q, *_ in rows if q["answers"])
    floor = ctx.index.floor
    out["questions"] = [
        {
            "q": q["q"],
            "answerable": bool(q["answers"]),
            "right": any(p in q["answers"] for p in top3),
            "refused": answer["no_strong_match"],
            "confidence": answer["confidence"],
            "exact": bool(ev.exact),
            "top": round(ranking.top_cosine, 4),
            "gap": round(ranking.cosine_gap, 4),
            "over_floor": round(ranking.top_cosine - floor.level, 4) if floor else None,
            "unknown": ev.unknown,
            "kept": round(ev.meaning_kept, 3),
            "coverage": round(ev.coverage, 3),
            "keyword_agrees": bool(ev.keyword)
            and max(ev.keyword, key=lambda k: ev.keyword[k][0]) in [o for o, _ in ranking.order[:3]],
        }
        for q, ev, ranking, answer, top3 in rows
    ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="all")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--scratch", help="where the sets' folders and indexes are kept (default: the temp dir)")
    args = parser.parse_args()
    print(machine(), file=sys.stderr)
    import tempfile

    # The sets' indexes are kept between runs (as `adr eval` keeps them): a rerun embeds nothing.
    where = Path(args.scratch or Path(tempfile.gettempdir()) / "adr-bench-confidence")
    if not (where / ".git").exists():
        import subprocess

        where.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(where)], check=True)
    scratch = Workspace.discover(where)
    results = {q.name.removesuffix("-queries.json"): measure(q, folder, scratch) for q, folder in _sets(args.sets)}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    names = list(RULES)
    print("| set | answerable | " + " | ".join(f"{n}: high right (top 3) / absent high" for n in names) + " |")
    print("|---|---|" + "---|" * len(names))
    for set_name, r in results.items():
        cells = [
            f"{r[n]['right']}/{r[n]['high']} ({_pct(r[n]['right'], r[n]['high'])}) / {r[n]['absent_high']}/{r[n]['absent']}"
            for n in names
        ]
        print(f"| {set_name} | {r['answerable']} | " + " | ".join(cells) + " |")


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f}%" if b else "-"


if __name__ == "__main__":
    main()
