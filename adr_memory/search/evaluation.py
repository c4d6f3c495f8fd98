"""`adr eval`: how well search ranks and refuses on question sets, per set and per mode, with
the figures a folder it was never tuned on will see.

With one question set it scores this repository's ADR folder under the shipped constants
(`search.Tuning`). With several (each paired with its folder), it also fits the constants on
every set together, and leave-one-folder-out: fit on all sets but one, score the one left out.
Evidence (each chunk's cosine, the keyword leg, the probes) is gathered once per question;
fitting only re-ranks and re-judges it, so a grid of tunings costs seconds, not model runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import os
import re
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory.base import Config, cache
from adr_memory.errors import UsageError
from adr_memory.history import Workspace
from adr_memory.search import search

# The grids the constants are fitted on: ranking first (it decides which record is on top),
# then the refusal rule given that ranking.
RANK_GRID = {
    "keyword_weight": (0.0, 0.05, 0.1),
    "position_penalty": (0.0, 0.05, 0.07, 0.1),
    "position_span": (400.0, 700.0, 1000.0),
}
OFF = float("inf")  # a rise no question reaches: that arm of the rule is off
REFUSE_GRID = {
    "min_any_coverage": (0.5, 0.6, 0.67),
    "plain_rise": (0.05, 0.07, OFF),
    "jargon_rise": (0.03, 0.04, 0.045, 0.05, OFF),
    "term_rise": (-0.02, -0.01, 0.0, OFF),
    "min_cosine": (0.29, 0.31, 0.33, 0.35, 0.37, 0.39, -OFF),
    "min_coverage": (0.8, 0.9),
    "min_cosine_any": (-OFF, 0.24, 0.26, 0.28, 0.30, 0.32),
}
# Refusing one answerable question costs more than refusing one absent question gains, and more
# than one per set costs a lot: a wrong "no match" hides a decision that exists.
WRONG_COST, MANY_WRONG_COST = 0.5, 4.0


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
    return Workspace(root, Config(), adr_dir, "eval")


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
    report: dict[str, Any] = {"limit": limit, "sets": [], "tuning": _as_json(search.DEFAULT_TUNING)}
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
        report["sets"].append(entry)
    if len(sets) == 1:
        report["queries"], report["modes"] = str(sets[0].queries), report["sets"][0]["modes"]
    if len(sets) > 1:
        report["fit_all"], report["leave_one_out"] = {}, {}
        fits = [mode for mode, runs in gathered.items() if len(runs) == len(sets)]
        tick = _counter(fitting, len(fits) * (len(sets) + 1))
        for mode in fits:
            report["fit_all"][mode] = _as_json(fit(gathered[mode], mode, limit))
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
            "fit": _as_json(tuning),
            **{k: result[k] for k in ("kinds", "titles_first", "absent_refused", "answerable_refused")},
        }
    return out


def _as_json(tuning: search.Tuning) -> dict[str, Any]:
    """The constants as JSON: an arm that is off (an infinite threshold) is null."""
    return {k: (None if isinstance(v, float) and math.isinf(v) else v) for k, v in dataclasses.asdict(tuning).items()}


# ---------------------------------------------------------------------------- scoring


def score(run: Gathered, mode: str, limit: int, tuning: search.Tuning) -> dict[str, Any]:
    """recall@k and MRR per kind, titles ranked first, refusals, and every miss."""
    base = run.qset.ws.adr_dir.rstrip("/") + "/"
    kinds: dict[str, dict[str, Any]] = {}
    misses: list[dict[str, Any]] = []
    refused_absent = wrongly_refused = titles_first = titles = 0
    for q, ev in zip(run.qset.questions, run.evidence):
        answer = search.decide(run.ctx, ev, mode=mode, limit=limit, tuning=tuning)
        got = [r["path"].removeprefix(base) for r in answer["results"]]
        kind = q.get("kind", "other")
        stats = kinds.setdefault(kind, {"n": 0, "hits": 0, "rr": 0.0})
        stats["n"] += 1
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
    per_kind = {
        k: {"n": v["n"], f"recall@{limit}": round(v["hits"] / v["n"], 3), "mrr": round(v["rr"] / v["n"], 3)}
        for k, v in kinds.items()
        if k != "absent"
    }
    absent = kinds.get("absent", {"n": 0})["n"]
    return {
        "ran": True,
        "kinds": per_kind,
        "titles_first": f"{titles_first}/{titles}",
        "absent_refused": f"{refused_absent}/{absent}",
        "answerable_refused": wrongly_refused,
        "misses": misses,
    }


def _first_answer(paths: list[str], answers: list[str]) -> int | None:
    """The rank (1-based) of the first path that answers the question, if any does."""
    return next((i + 1 for i, path in enumerate(paths) if path in answers), None)


# ---------------------------------------------------------------------------- fitting


def fit(runs: Sequence[Gathered], mode: str, limit: int) -> search.Tuning:
    """The tuning that ranks best on `runs`, then refuses best given that ranking. Ranking ties
    go to less departure from plain cosine; refusal ties to the middle of the tied region."""
    base = search.DEFAULT_TUNING
    if mode == "keyword":  # only the coverage floor acts on keyword answers
        rank_tuning, grid = base, {"min_keyword_coverage": REFUSE_GRID["min_any_coverage"]}
    else:
        rank_tuning = max(
            _grid(base, RANK_GRID),
            key=lambda t: (_rank_quality(runs, t, limit), -t.position_penalty, -t.keyword_weight),
        )
        grid = REFUSE_GRID
    rankings = [[search.rank(r.ctx, ev, rank_tuning) for ev in r.evidence] for r in runs]
    scored = [(_refusal_quality(runs, rankings, t), t) for t in _grid(rank_tuning, grid)]
    best = max(gain for (gain, _), _ in scored)
    return _middle([(-fewer, t) for (gain, fewer), t in scored if gain == best], grid)


def _middle(tied: list[tuple[int, search.Tuning]], grid: Mapping[str, Iterable[Any]]) -> search.Tuning:
    """Of tunings (with their refusal counts) that refuse equally well, the one nearest the
    middle of them: per constant, the median of their places on its grid; then the one that
    refuses least. The edge of a tied region is where a folder the fit never saw falls off it
    (leaving one folder out, this choice kept tdr's absent refusals at 5/8 where the edge gave
    3/8)."""
    places = {name: list(values) for name, values in grid.items()}

    def where(t: search.Tuning) -> list[int]:
        return [places[name].index(getattr(t, name)) for name in places]

    spots = [where(t) for _, t in tied]
    middle = [sorted(column)[len(column) // 2] for column in zip(*spots)]
    return min(tied, key=lambda rt: (sum(abs(a - b) for a, b in zip(where(rt[1]), middle)), rt[0]))[1]


def _grid(base: search.Tuning, grid: Mapping[str, Iterable[Any]]) -> Iterable[search.Tuning]:
    names = list(grid)
    for values in itertools.product(*(grid[n] for n in names)):
        yield dataclasses.replace(base, **dict(zip(names, values)))


def _rank_quality(runs: Sequence[Gathered], tuning: search.Tuning, limit: int) -> float:
    """Mean of recall@k and MRR over every answerable question of every set."""
    total = 0.0
    for run in runs:
        base = run.qset.ws.adr_dir.rstrip("/") + "/"
        for q, ev in zip(run.qset.questions, run.evidence):
            if not q["answers"]:
                continue
            order = search.rank(run.ctx, ev, tuning).order[:limit]
            found = _first_answer([run.ctx.records[rid].path.removeprefix(base) for rid, _ in order], q["answers"])
            total += (1 + 1 / found) if found else 0.0
    return total


def _refusal_quality(
    runs: Sequence[Gathered], rankings: list[list[search.Ranking]], tuning: search.Tuning
) -> tuple[float, int]:
    gain, refusals = 0.0, 0
    for run, ranked in zip(runs, rankings):
        absent = wrong = 0
        for q, ev, ranking in zip(run.qset.questions, run.evidence, ranked):
            refused = search.judge(ev, ranking, tuning)[0] is not None
            refusals += refused
            if q["answers"]:
                wrong += refused
            else:
                absent += refused
        gain += absent - WRONG_COST * wrong - MANY_WRONG_COST * max(0, wrong - 1)
    return gain, -refusals
