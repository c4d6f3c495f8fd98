"""`adr eval`: how well search ranks and refuses on question sets, per set and per mode, beside
the naive dense baseline, with the figures a folder it was never tuned on will see.

With one question set it scores this repository's ADR folder under the shipped constants
(`search.Tuning`). With several (each paired with its folder), it also fits the two constants
fitted at all, the keyword leg's weight and the refusal `band`, on every set together, and
leave-one-folder-out: fit on all sets but one, score the one left out. Evidence (each chunk's
cosine, the keyword leg) is gathered once per question; fitting only re-ranks and re-judges it.

The baseline is what a team would write in an afternoon: the same bundled model, each record cut
at its headings with its title in front of every piece, a record scored by its best piece, no
keyword leg, no refusal. Search that ranks below it has no reason to be this complicated.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory.base import Config, cache
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.search import search

# The band is fitted on this grid (ADR-0080): from no band to one wider than any set needs.
BAND_GRID = tuple(round(0.01 * n, 2) for n in range(21))
# The keyword weight on this one (ADR-0088): from semantic alone to about twice ADR-0017's weight
# on a folder of fifty records (x ln 50 = 3.9).
WEIGHT_GRID = tuple(round(0.005 * n, 3) for n in range(11))


@dataclass
class QuestionSet:
    name: str
    queries: Path
    ws: Workspace
    questions: list[dict[str, Any]]


@dataclass
class Gathered:
    """One set under one mode: the index and each question's evidence."""

    qset: QuestionSet
    ctx: search.Context
    evidence: list[search.Evidence]
    baseline: dict[str, Any] | None = None  # the naive dense baseline's figures on the set


# ---------------------------------------------------------------------------- sets


def question_sets(ws: Workspace, queries: Sequence[Path], folders: Sequence[Path]) -> list[QuestionSet]:
    """Each question set with the folder it is asked of: this repository's ADR folder, or
    `folders[i]` copied (unmodified, under the set's `adr_dir`) into a scratch repository in
    the cache, so answers name the paths the set expects."""
    if folders and len(folders) != len(queries):
        raise UsageError(
            f"{len(queries)} --queries but {len(folders)} --folder",
            hint="give one --folder per --queries, in the same order, or none",
        )
    out: list[QuestionSet] = []
    for n, path in enumerate(queries):
        header, questions = read_questions(path)
        where = _scratch(ws, path, header, folders[n]) if folders else ws
        name, taken = _set_name(path), {q.name for q in out}
        name = (
            next(f"{name}-{i}" for i in range(2, len(out) + 3) if f"{name}-{i}" not in taken) if name in taken else name
        )
        out.append(QuestionSet(name, path, where, questions))
    return out


def read_questions(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        questions = list(data["questions"])
        if not all(
            isinstance(q, dict) and isinstance(q.get("q"), str) and isinstance(q.get("answers"), list)
            for q in questions
        ):
            raise TypeError("every question needs a string 'q' and a list 'answers'")
        return data, questions
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(
            f"cannot read queries file {path}: {exc}", hint="see tests/fixtures/corpora/*-queries.json for the format"
        ) from None


def _set_name(path: Path) -> str:
    return path.name.removesuffix(".json").removesuffix("-queries")


def _scratch(ws: Workspace, queries: Path, header: dict[str, Any], folder: Path) -> Workspace:
    if not folder.is_dir():
        raise UsageError(f"--folder {folder} is not a folder", hint="name the folder of ADRs the set asks about")
    adr_dir = str(header.get("adr_dir") or folder.name)
    # Plain names only: no "..", and no "." or dot-folder that could reach the scratch's own cache.
    if not re.fullmatch(r"[\w-][\w.-]*(/[\w-][\w.-]*)*", adr_dir):
        raise UsageError(
            f"queries file {queries}: adr_dir {adr_dir!r} is not a plain relative path", hint='write it like "docs/adr"'
        )
    key = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:12]
    root = cache.ensure(ws.cache_path) / "eval" / f"{_set_name(queries)}-{key}"
    try:
        _mirror(folder, root / adr_dir)
    except OSError as exc:
        raise cache.CacheUnavailable(
            f"cannot copy {folder} into the cache: {exc}", hint="free the cache folder (.adr-cache) or set cache-dir"
        ) from None
    # The user's own model (embed-model) is the one measured: eval tells what it gives them.
    return Workspace(root, Config(embed_model=ws.config.embed_model), adr_dir, "eval")


# A folder of decisions is prose: past these, the folder named is not one (`--folder /`).
MAX_FILES, MAX_BYTES = 20_000, 200_000_000


def _mirror(source: Path, target: Path) -> None:
    """Copy `source` over `target`, keeping timestamps (an unchanged folder keeps its index)
    and dropping files the source no longer has. Symlinks are copied as links, never followed."""
    if target.resolve().is_relative_to(source.resolve()):
        raise UsageError(
            f"--folder {source} holds this repository's cache",
            hint="name the folder of ADRs itself, not a folder above the repository",
        )
    files = size = 0
    for here, _dirs, names in os.walk(source):
        files += len(names)
        size += sum(os.lstat(os.path.join(here, n)).st_size for n in names)
        if files > MAX_FILES or size > MAX_BYTES:
            raise UsageError(
                f"--folder {source} holds over {MAX_FILES:,} files or {MAX_BYTES // 1_000_000} MB: "
                "not a folder of decisions",
                hint="name the folder of ADRs itself",
            )
    shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True, copy_function=_copy_if_changed)
    for here, _dirs, copied in os.walk(target):
        for name in copied:
            copy = Path(here) / name
            if not (source / copy.relative_to(target)).exists():
                copy.unlink()


def _copy_if_changed(source: str, target: str) -> None:
    """Copy a file unless the copy already has its size and mtime: a rerun rewrites nothing,
    so a second `adr eval` running at the same time never reads a half-written copy."""
    try:
        have, want = os.stat(target), os.stat(source)
        if (have.st_size, have.st_mtime_ns) == (want.st_size, want.st_mtime_ns):
            return
    except OSError:
        pass
    shutil.copy2(source, target)


# ---------------------------------------------------------------------------- the command


def evaluate(
    sets: Sequence[QuestionSet],
    *,
    modes: Sequence[str],
    limit: int = 5,
    progress: Callable[[int, int], None] | None = None,
    fitting: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Score every set under the shipped constants; with two or more sets, fit and score
    leave-one-folder-out too (`fitting` hears of each fit). A mode that cannot run is 'not run'."""
    report: dict[str, Any] = {"limit": limit, "sets": [], "tuning": dataclasses.asdict(search.DEFAULT_TUNING)}
    gathered: dict[str, list[Gathered]] = {mode: [] for mode in modes}
    for qset in sets:
        entry: dict[str, Any] = {"name": qset.name, "queries": str(qset.queries), "modes": {}}
        for mode in modes:
            got = _gather(qset, mode, progress)
            if isinstance(got, str):
                entry["modes"][mode] = {"ran": False, "reason": got}
                continue
            gathered[mode].append(got)
            entry["modes"][mode] = score(got, mode, limit, search.DEFAULT_TUNING)
        if any(mode != "keyword" for mode in modes):
            built = next(
                (
                    runs[-1].ctx.index
                    for m, runs in gathered.items()
                    if m != "keyword" and runs and runs[-1].qset is qset
                ),
                None,
            )
            entry["baseline"] = baseline(qset, limit, built)
            for runs in gathered.values():
                if runs and runs[-1].qset is qset:
                    runs[-1].baseline = entry["baseline"]
        report["sets"].append(entry)
    if len(sets) == 1:
        report["queries"], report["modes"] = str(sets[0].queries), report["sets"][0]["modes"]
    if len(sets) > 1:
        report["fit_all"], report["leave_one_out"] = {}, {}
        fits = [mode for mode, runs in gathered.items() if len(runs) == len(sets)]
        tick = _counter(fitting, len(fits) * (len(sets) + 1))
        for mode in fits:
            report["fit_all"][mode] = dataclasses.asdict(fit(gathered[mode], mode, limit))
            tick()
            report["leave_one_out"][mode] = _leave_one_out(gathered[mode], mode, limit, tick)
    return report


def _counter(report: Callable[[int, int], None] | None, total: int) -> Callable[[], None]:
    done = [0]

    def tick() -> None:
        done[0] += 1
        if report:
            report(done[0], total)

    return tick


def _gather(qset: QuestionSet, mode: str, progress: Callable[[int, int], None] | None) -> Gathered | str:
    try:
        ctx = search.prepare(qset.ws, mode=mode, progress=progress)
    except search.EmbedRequired as exc:
        return exc.message
    if mode != "keyword" and ctx.embedder is None:
        return ctx.fallback or "no embedding model"
    evidence = [search.gather(ctx, q["q"], mode=mode, statuses=("all",)) for q in qset.questions]
    return Gathered(qset, ctx, evidence)


def _leave_one_out(runs: list[Gathered], mode: str, limit: int, tick: Callable[[], None]) -> dict[str, Any]:
    out = {}
    for held in runs:
        tuning = fit([r for r in runs if r is not held], mode, limit)
        tick()
        result = score(held, mode, limit, tuning)
        out[held.qset.name] = {
            "fit": dataclasses.asdict(tuning),
            **{
                k: result[k]
                for k in (
                    "kinds",
                    "ranked",
                    "titles_first",
                    "absent_refused",
                    "answerable_refused",
                    "high_right",
                    "absent_high",
                )
            },
        }
    return out


# ---------------------------------------------------------------------------- scoring


def score(run: Gathered, mode: str, limit: int, tuning: search.Tuning) -> dict[str, Any]:
    """recall@k and MRR per kind, titles ranked first, refusals, and every miss."""
    base = run.qset.ws.adr_dir.rstrip("/") + "/"
    kinds: dict[str, dict[str, Any]] = {}
    misses: list[dict[str, Any]] = []
    refused_absent = wrongly_refused = titles_first = titles = 0
    sure = {"high": 0, "right": 0, "absent": 0}  # how often `high` holds the answer in the top 3
    for q, ev in zip(run.qset.questions, run.evidence):
        answer = search.decide(run.ctx, ev, mode=mode, limit=limit, tuning=tuning)
        got = [r["path"].removeprefix(base) for r in answer["results"]]
        kind = q.get("kind", "other")
        stats = kinds.setdefault(kind, {"n": 0, "hits": 0, "rr": 0.0})
        stats["n"] += 1
        high = answer["confidence"] == "high"
        if high and q["answers"]:
            sure["high"] += 1
            sure["right"] += _first_answer(got[:3], q["answers"]) is not None
        sure["absent"] += high and not q["answers"]
        if not q["answers"]:
            refused_absent += answer["no_strong_match"]
            if not answer["no_strong_match"]:
                misses.append({"q": q["q"], "kind": kind, "why": "answered an absent question", "got": got[:3]})
            continue
        wrongly_refused += answer["no_strong_match"]
        found = _first_answer(got, q["answers"])
        if kind == "title":
            titles += 1
            titles_first += found == 1
        if found:
            stats["hits"] += 1
            stats["rr"] += 1 / found
        else:
            weak = [r["path"].removeprefix(base) for r in answer["best_weak"]]
            misses.append(
                {
                    "q": q["q"],
                    "kind": kind,
                    "expected": q["answers"],
                    "got": got[:3] or weak,
                    "refused": answer["no_strong_match"],
                    "reason": answer["reason"],
                }
            )
    per_kind = _per_kind({k: v for k, v in kinds.items() if k != "absent"}, limit)
    absent = kinds.get("absent", {"n": 0})["n"]
    return {
        "ran": True,
        "kinds": per_kind,
        "ranked": ranked(run, limit, tuning),
        "titles_first": f"{titles_first}/{titles}",
        "absent_refused": f"{refused_absent}/{absent}",
        "answerable_refused": wrongly_refused,
        # `high` answers with the answer in the top 3, of all answerable ones answered `high`;
        # absent questions answered `high` (what the prompt recall would inject)
        "high_right": f"{sure['right']}/{sure['high']}",
        "absent_high": f"{sure['absent']}/{absent}",
        "misses": misses,
    }


def ranked(run: Gathered, limit: int, tuning: search.Tuning) -> dict[str, dict[str, Any]]:
    """recall@k and MRR per kind of the ranking before any refusal: what the baseline (which
    refuses nothing) is held to."""
    base = run.qset.ws.adr_dir.rstrip("/") + "/"
    counts: dict[str, dict[str, Any]] = {}
    for q, ev in zip(run.qset.questions, run.evidence):
        if q["answers"]:
            order = search.rank(run.ctx, ev, tuning).order[:limit]
            placed = _first_answer([run.ctx.records[rid].path.removeprefix(base) for rid, _ in order], q["answers"])
            seen = counts.setdefault(q.get("kind", "other"), {"n": 0, "hits": 0, "rr": 0.0})
            seen["n"] += 1
            seen["hits"] += placed is not None
            seen["rr"] += 1 / placed if placed else 0.0
    return _per_kind(counts, limit)


def _per_kind(counts: dict[str, dict[str, Any]], limit: int) -> dict[str, dict[str, Any]]:
    return {
        k: {"n": v["n"], f"recall@{limit}": round(v["hits"] / v["n"], 3), "mrr": round(v["rr"] / v["n"], 3)}
        for k, v in counts.items()
    }


def _first_answer(paths: list[str], answers: list[str]) -> int | None:
    """The rank (1-based) of the first path that answers the question, if any does."""
    return next((i + 1 for i, path in enumerate(paths) if path in answers), None)


# ---------------------------------------------------------------------------- fitting


def fit(runs: Sequence[Gathered], mode: str, limit: int = 5) -> search.Tuning:
    """Hybrid's keyword weight (`fit_weight`), then the band that refuses the most absent
    questions while no set has more than one answerable question wrongly refused, at it and at
    the next wider band of the grid; of equally good bands, the narrowest. Keyword mode has no
    band.

    The next band must hold too because a band chosen at the edge of what holds on the sets
    it was fitted on falls over the edge on a folder it was not: held out, team-plain got the
    band the other five allow at their edge (0.15) and two answerable questions refused; a band
    one step inside gets one (ADR-0085)."""
    base = search.DEFAULT_TUNING
    if mode == "keyword":
        return base
    if mode == "hybrid":
        base = dataclasses.replace(base, keyword_weight=fit_weight(runs, limit))
    rankings = [[search.rank(r.ctx, ev, base) for ev in r.evidence] for r in runs]
    outcomes = []  # (most answerable questions refused in one set, absent questions refused), per band
    for band in BAND_GRID:
        tuning = dataclasses.replace(base, band=band)
        absent, worst = 0, 0
        for run, ranked in zip(runs, rankings):
            wrong = 0
            for q, ev, ranking in zip(run.qset.questions, run.evidence, ranked):
                refused = search.judge(run.ctx, ev, ranking, tuning).reason is not None
                absent += refused and not q["answers"]
                wrong += refused and bool(q["answers"])
            worst = max(worst, wrong)
        outcomes.append((worst, absent))
    scored = []
    for n, (worst, absent) in enumerate(outcomes):
        wider = outcomes[n + 1][0] if n + 1 < len(outcomes) else worst
        holds = worst <= 1 and wider <= 1
        scored.append(((holds, absent if holds else -worst), BAND_GRID[n]))
    best = max(quality for quality, _ in scored)
    # Of equally good bands the narrowest: a wider one refuses more and buys nothing here.
    return dataclasses.replace(base, band=min(band for quality, band in scored if quality == best))


def fit_weight(runs: Sequence[Gathered], limit: int = 5) -> float:
    """The smallest keyword weight at which every set ranks at least as well as the naive dense
    baseline (`_at_least`), one grid step inside that edge: the weight below it must hold too, so
    a folder left out that needs a little more of the keyword leg still gets it (ADR-0091). The
    least correction of the model's ranking that the sets ask for: the upper edge is the one each
    new folder has moved. Where no weight holds on every set, the same among the weights that
    hold on the most; where no weight has a neighbour below that holds as well, the smallest."""

    def sets_held(weight: float) -> int:
        tuning = dataclasses.replace(search.DEFAULT_TUNING, keyword_weight=weight)
        return sum(_at_least(ranked(run, limit, tuning), run.baseline, limit) for run in runs)

    held = [sets_held(weight) for weight in WEIGHT_GRID]
    most = [n for n, count in enumerate(held) if count == max(held)]
    inside = [n for n in most if n > 0 and held[n - 1] == max(held)]
    return WEIGHT_GRID[min(inside or most)]


def _at_least(ours: dict[str, dict[str, Any]], base: dict[str, Any] | None, limit: int) -> bool:
    """Whether a ranking is at or above the baseline: recall@k on every kind both have, and
    MRR on paraphrases, the questions asked in the asker's words. A keyword or title question
    uses the folder's own words; its bar is being found (recall), not the baseline's order
    among records that share them. True when the baseline did not run: nothing to hold it to."""
    if not base or not base.get("ran"):
        return True
    key = f"recall@{limit}"
    return all(
        ours[kind][key] >= theirs[key] and (kind != "paraphrase" or ours[kind]["mrr"] >= theirs["mrr"])
        for kind, theirs in base["kinds"].items()
        if kind in ours
    )


# ---------------------------------------------------------------------------- the baseline


def _embedded(index: Any, records: Any) -> dict[str, Any]:
    """The text each chunk of `index` was embedded as (its title and heading in front), with
    its vector."""
    header = index.meta.get("vectors") if index.vectors is not None else None
    if not header:
        return {}
    titles = {rec.path: rec.title for rec in records}
    return {
        f"{titles.get(chunk['record'], '')}. {chunk['section']}: {chunk['text']}": index.vectors[row]
        for row, chunk in enumerate(header["chunks"])
    }


def baseline(qset: QuestionSet, limit: int, built: Any = None) -> dict[str, Any]:
    """recall@k and MRR per answerable kind of the naive dense baseline (see the module's
    docstring), or why it could not run. A piece whose text is a chunk the index `built` already
    embedded (a short section: the same title, heading and words) takes that chunk's vector: the
    same model on the same tokens, so the same vector, without a second model run."""
    import numpy as np

    from adr_memory.search import embed

    try:
        model = embed.load(qset.ws.cache_path, qset.ws.config.embed_model)
    except embed.EmbedUnavailable as exc:
        return {"ran": False, "reason": str(exc)}
    base = qset.ws.adr_dir.rstrip("/") + "/"
    pieces: list[tuple[str, str]] = []
    for rec in qset.ws.catalog:
        # Words apart by single spaces: the tokenizer reads any run of white space as one.
        texts = [
            f"{rec.title}. {part.heading}: {' '.join(part.text.split())}" for part in rec.parts if part.text.strip()
        ]
        pieces += [(rec.path.removeprefix(base), text) for text in texts or [rec.title]]
    known = _embedded(built, qset.ws.catalog) if built is not None else {}
    todo = list(dict.fromkeys(text for _, text in pieces if text not in known))
    known.update(zip(todo, np.asarray(model.embed(todo)) if todo else []))
    vectors = np.asarray([known[text] for _, text in pieces])
    asked = [q for q in qset.questions if q["answers"]]
    questions = np.asarray(model.embed([q["q"] for q in asked])) if asked else np.zeros((0, vectors.shape[1]))
    kinds: dict[str, dict[str, Any]] = {}
    for q, cosines in zip(asked, questions @ vectors.T):
        best: dict[str, float] = {}
        for (path, _), cosine in zip(pieces, cosines):
            best[path] = max(best.get(path, -1.0), float(cosine))
        order = sorted(best, key=lambda p: -best[p])[:limit]
        found = _first_answer(order, q["answers"])
        stats = kinds.setdefault(q.get("kind", "other"), {"n": 0, "hits": 0, "rr": 0.0})
        stats["n"] += 1
        stats["hits"] += found is not None
        stats["rr"] += 1 / found if found else 0.0
    return {"ran": True, "kinds": _per_kind(kinds, limit)}
