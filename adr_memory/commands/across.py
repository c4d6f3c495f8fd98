"""`adr hub search`: every repository's decisions, the passages the hub's store finds nearest to
the question ranked by the local search's own fusion (search/fusion.py) and judged by its refusal,
on the hub's own floor."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adr_memory.hub import wording
from adr_memory.records import plain
from adr_memory.search import embed, fusion, refusal, rows, words

CANDIDATES = 100  # nearest chunks read per question: enough to rank the records they belong to
MAX_TERMS = 64  # distinctive words looked up, as locally


def _model(cache: Path) -> Any:
    cache.mkdir(parents=True, exist_ok=True)
    return embed.load_query(cache)


def search(
    store: Any,
    query: str,
    *,
    limit: int = 5,
    repository: str | None = None,
    status: str = "",
    tag: str = "",
    cache: Path,
    vector: Any = None,
) -> dict[str, Any]:
    """The question answered from every repository (or one): best chunk per record by cosine,
    lifted a little by the question's words in the passages found; refused, as locally, when the best passage
    is no closer than questions about nothing in these decisions come. `vector`: the question
    already embedded (the benchmark times the store apart from the model)."""
    model = _model(cache)
    vector = model.embed([query])[0] if vector is None else vector
    terms = words.terms(query)[:MAX_TERMS]
    best: dict[tuple[str, str], tuple[float, str, str]] = {}
    titled: dict[tuple[str, str], tuple[float, str, str]] = {}
    matched: dict[tuple[str, str], float] = {}
    closest = -1.0
    for repo, ident, section, text, cosine, offset in store.nearest(vector, CANDIDATES, repository, status, tag):
        key, closest = (repo, ident), max(closest, cosine)
        # As locally (ADR-0093): a record is ranked by what its sections say, its title alone
        # only when none of them came near; each passage less the penalty for its place in the
        # record (a long record's appendix does not outrank another's decision).
        kept, score = (titled if section == TITLE else best), fusion.placed(cosine, offset)
        if key not in kept or score > kept[key][0]:
            kept[key] = (score, section, text)
        # The question's words lift the records the meaning found, as the local fusion does:
        # scored here, from the passages the store returned, one way for every store (so a
        # folder and PostgreSQL rank alike).
        if (got := wording.share(terms, text)) > matched.get(key, 0.0):
            matched[key] = got
    # The local search's fusion, one function for both: the best passage's cosine, lifted by
    # the question's words in proportion to the evidence a folder of this size gives them.
    best |= {key: found for key, found in titled.items() if key not in best}
    # As locally, the words lift less the fewer of the question's words the decisions asked of use.
    coverage = 1 - len(store.unused(terms, repository)) / len(terms) if terms else 0.0
    weight = fusion.keyword_weight(max(2, len(best)), coverage)
    fused = fusion.fuse(
        {key: (c, 0) for key, (c, _s, _t) in best.items()}, {k: (v, 0) for k, v in matched.items()}, "hybrid", weight
    )
    scored = sorted(((score, key) for key, score in fused.items()), key=lambda x: -x[0])
    named = [key for key, (_c, _s, text) in titled.items() if _titled(query, text)]  # its title chunk says it
    docs = store.docs(list(dict.fromkeys([key for _score, key in scored[: limit * 2]] + named)))
    floor = _floor(store, model, repository)
    scored = _in_force_first(
        scored, docs, lambda key: key in matched or (floor is not None and best[key][0] >= floor.level)
    )
    exact = _exact(query, [(0.0, key) for key in named], docs)
    scored = [(2.0, key) for key in exact] + [(score, key) for score, key in scored if key not in exact]
    top = scored[0][0] if scored else 0.0
    # Missing words are judged where the answer comes from: the other repositories' words would
    # hide that the one answering never speaks of the question's topic.
    answering = scored[0][1][0] if scored else repository
    unknown = store.unused(terms, answering) if floor else []
    verdict = (
        refusal.Verdict(None, "high")
        if exact  # a decision's exact title, as locally
        else refusal.judge(
            closest, floor, unknown, _kept(model, query, vector, unknown), in_its_words=bool(matched) and not unknown
        )
    )
    rows = [_row(docs.get(key, {}), key, score, best[key], key in matched) for score, key in scored[: limit * 2]]
    refused = verdict.confidence == "none"
    return {
        "query": query,
        "mode": "hybrid",
        "no_strong_match": refused,
        "confidence": verdict.confidence,
        "reason": verdict.reason,
        "results": [] if refused else rows[:limit],
        "best_weak": rows[:3] if refused else [],
        "signals": {"top": round(top, 4), "floor": round(floor.level, 4) if floor else None, "unknown": unknown},
    }


def _in_force_first(
    scored: list[tuple[float, tuple[str, str]]], docs: dict[Any, dict[str, Any]], matches: Callable[[Any], bool]
) -> list[tuple[float, tuple[str, str]]]:
    """As locally (search/rows.py, one rule): a retired decision that ranks above the decision in
    force that replaced it, in its repository, gives it its place when it matches the question too."""

    def replacing(key: tuple[str, str]) -> list[tuple[str, str]]:
        held = docs.get(key, {}).get("standing")
        if not isinstance(held, dict) or held.get("state") != "retired":
            return []
        return [(key[0], str(i)) for i in held.get("retired_by") or []]

    order = rows.successors_first([(key, score) for score, key in scored], replacing, matches)
    return [(score, key) for key, score in order]


TITLE = "Title"  # the section name of a record's title passage, as the local index chunks it


def _titled(query: str, title: str) -> bool:
    """Whether the question is this title, or the title with the record's number before it, as
    headings write it (`7. Use Kafka`, `ADR 025: Commit`)."""
    wanted, said = words.norm_title(query), words.norm_title(title)
    if not wanted or not said:
        return False
    if wanted == said:
        return True
    numbered = wanted[: -len(said)].split() if wanted.endswith(" " + said) else []
    return any(w.isdigit() for w in numbered) and all(w.isdigit() or w == "adr" for w in numbered)


def _exact(query: str, scored: list[tuple[float, tuple[str, str]]], docs: dict[Any, dict[str, Any]]) -> list[Any]:
    """The records found whose title the question is, word for word (`Use Kafka`, or as its
    heading writes it, `7. Use Kafka`, `ADR 025: Commit`): first, as the local search puts them. A title asked
    is among the passages found, so only those are looked at; several repositories may share it."""
    wanted = words.norm_title(query)
    if not wanted:
        return []

    def titles(doc: dict[str, Any]) -> set[str]:
        title, heading = str(doc.get("title") or ""), str(doc.get("heading") or "")
        number = doc.get("number")
        named = {words.norm_title(title), words.norm_title(heading)} - {""}
        return named | ({words.norm_title(f"{number}. {title}")} if number is not None else set())

    return [key for _score, key in scored if wanted in titles(docs.get(key, {}))]


def _kept(model: Any, query: str, vector: Any, unknown: list[str]) -> float:
    """How much of the question's meaning is left without the words no decision uses (the local
    search's measure): 1.0 when none is missing, 0.0 when nothing distinctive is left."""
    if not unknown:
        return 1.0
    rest = words.without(query, set(unknown))
    if not words.terms(rest):
        return 0.0
    return float(model.embed([rest])[0] @ vector)


_FLOORS: dict[tuple[str, str | None], tuple[float, refusal.Floor | None]] = {}
FLOOR_SECONDS = 60.0  # a long-lived reader (an MCP server) measures the floor again this often


def _floor(store: Any, model: Any, repository: str | None) -> refusal.Floor | None:
    """The hub's own floor: how close questions about nothing in it come to its passages
    (measured once a minute per reader: twenty probes are twenty index searches)."""
    import time

    import numpy as np

    key = (str(getattr(store, "url", None) or getattr(store, "root", "")), repository)
    kept = _FLOORS.get(key)
    if kept is not None and time.monotonic() - kept[0] < FLOOR_SECONDS:
        return kept[1]
    tops = [rows[0][4] for probe in _probes(model) if (rows := store.nearest(probe, 1, repository))]
    floor = refusal.Floor(float(np.mean(tops)), float(np.std(tops))) if tops else None
    _FLOORS[key] = (time.monotonic(), floor)
    return floor


_PROBES: list[Any] = []


def _probes(model: Any) -> Any:
    if not _PROBES:
        _PROBES.extend(model.embed(list(refusal.OFF_TOPIC)))
    return _PROBES


def _row(
    doc: dict[str, Any], key: tuple[str, str], score: float, best: tuple[float, str, str], kw: bool
) -> dict[str, Any]:
    _cosine, section, text = best
    return {
        "repository": key[0],
        "id": key[1],
        "title": doc.get("title", ""),
        "status": doc.get("status", ""),
        "path": doc.get("path", ""),
        "score": round(score, 4),
        "provenance": ["semantic", "keyword"] if kw else ["semantic"],
        "section": section,
        "snippet": plain(text)[:220],
        "stale": doc.get("state") == "stale",
        "standing": doc.get("standing") if isinstance(doc.get("standing"), dict) else None,  # "superseded by ..."
    }
