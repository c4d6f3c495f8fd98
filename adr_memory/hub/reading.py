"""What readers ask of the hub: search across every repository (the local search's ranking
signals and refusal, on the store's own indexes), the decisions, the stale ones, and the
organisation's conflicts. The answers keep the local commands' shapes, plus `repository`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from adr_memory.hub import wording
from adr_memory.hub.store import Store
from adr_memory.records import plain
from adr_memory.search import embed, refusal, words

CANDIDATES = 100  # nearest chunks read per question: enough to rank the records they belong to
MAX_TERMS = 64  # distinctive words looked up, as locally
KEYWORD_WEIGHT = 0.01  # the local search's (Tuning.keyword_weight), times ln(records) as there
ORG_KEY = "org."  # a conflict key the organisation shares: `conflict-key: org.primary_database`


def _model(cache: Path) -> Any:
    cache.mkdir(parents=True, exist_ok=True)
    return embed.load_query(cache)


def search(
    store: Store,
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
    matched: dict[tuple[str, str], float] = {}
    for repo, ident, section, text, cosine in store.nearest(vector, CANDIDATES, repository, status, tag):
        key = (repo, ident)
        if key not in best or cosine > best[key][0]:
            best[key] = (cosine, section, text)
        # The question's words lift the records the meaning found, as the local fusion does:
        # scored here, from the passages the store returned, one way for every store (so a
        # folder and PostgreSQL rank alike).
        if (got := wording.share(terms, text)) > matched.get(key, 0.0):
            matched[key] = got
    top_kw = max(matched.values(), default=1.0) or 1.0
    weight = KEYWORD_WEIGHT * math.log(max(2, len(best)))
    scored = sorted(
        ((c + weight * matched.get(key, 0.0) / top_kw, key) for key, (c, _s, _t) in best.items()), key=lambda x: -x[0]
    )
    floor = _floor(store, model, repository)
    top = scored[0][0] if scored else 0.0
    # Missing words are judged where the answer comes from: the other repositories' words would
    # hide that the one answering never speaks of the question's topic.
    answering = scored[0][1][0] if scored else repository
    unknown = store.unused(terms, answering) if floor else []
    verdict = refusal.judge(
        max((c for c, _s, _t in best.values()), default=-1.0),
        floor,
        unknown,
        _kept(model, query, vector, unknown),
        in_its_words=bool(matched) and not unknown,
    )
    docs = store.docs([key for _score, key in scored[: limit * 2]])
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


def _floor(store: Store, model: Any, repository: str | None) -> refusal.Floor | None:
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
    }


def listed(store: Store, repository: str | None = None, status: str = "", tag: str = "") -> list[dict[str, Any]]:
    return [
        d
        for d in store.records(repository)
        if (not status or d.get("status") == status) and (not tag or tag in (d.get("tags") or []))
    ]


def stale(store: Store) -> list[dict[str, Any]]:
    """Every repository's decisions whose governed code changed since they were last reviewed."""
    return [
        {k: d.get(k) for k in ("repository", "id", "title", "path", "state", "reason")}
        for d in store.records()
        if d.get("state") in ("stale", "at-risk")
    ]


def conflicts(store: Store) -> list[dict[str, Any]]:
    """In-force decisions of different repositories holding one single-valued key the
    organisation shares (`org.` keys) with different values."""
    holders: dict[str, list[dict[str, Any]]] = {}
    for d in store.records():
        key = d.get("key") or ""
        if key.startswith(ORG_KEY) and d.get("status") == "accepted" and (d.get("cardinality") or "single") == "single":
            holders.setdefault(key, []).append(d)
    out = []
    for key, docs in sorted(holders.items()):
        # a repository's recorded exception to another's decision (a local record superseding
        # the source's) is an exception, not a disagreement between teams
        held = {(d["repository"], d["id"]) for d in docs}
        docs = [d for d in docs if not any((e["repository"], e["id"]) in held for e in d.get("exceptions") or ())]
        repos = {d["repository"] for d in docs}
        values = {(d.get("value") or "").lower() for d in docs}
        if len(repos) > 1 and len(values) > 1:
            out.append(
                {
                    "key": key,
                    "holders": [{"repository": d["repository"], "id": d["id"], "value": d.get("value")} for d in docs],
                    "message": f"{key} is decided differently: "
                    + "; ".join(f"{d['repository']} {d['id']} says {d.get('value')}" for d in docs),
                }
            )
    return out


def shown(store: Store, repository: str, ident: str) -> dict[str, Any]:
    """One repository's decision as published (its `show` JSON, versions and state)."""
    from adr_memory.errors import UsageError
    from adr_memory.records import normalise_id

    key = (repository, normalise_id(ident))
    found = store.docs([key]).get(key)
    if found is None:
        near = [d["id"] for d in store.records(repository)][:5]
        raise UsageError(
            f"no decision {ident!r} of {repository} in the hub",
            hint=f"its decisions: {', '.join(near)}" if near else "`adr hub list` names the repositories",
        )
    return found


def timeline(store: Store, repository: str | None = None, since: str = "") -> list[dict[str, Any]]:
    """Every repository's decision events, newest first: each version and each status change,
    with who and why, as the repositories' own `adr log` gives them."""
    import datetime

    try:
        since = datetime.date.fromisoformat(since).isoformat() if since else ""
    except ValueError:
        from adr_memory.errors import UsageError

        raise UsageError(f"--since {since!r} is not a date", hint="write it as YYYY-MM-DD, e.g. 2026-01-31") from None
    events = [e for doc in store.records(repository) for e in _events(doc)]
    kept = [e for e in events if (e["date"] or "") >= since]
    return sorted(kept, key=lambda e: e["date"] or "", reverse=True)


def _events(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """One record's events. A status changes either with new content (a version whose status
    differs from the one before) or alone (a transition inside a version)."""

    def event(kind: str, at: dict[str, Any], detail: str | None) -> dict[str, Any]:
        who = at.get("author")
        return {
            "date": at.get("date"),
            "repository": doc["repository"],
            "id": doc["id"],
            "kind": kind,
            "author": who,
            "detail": detail,
        }

    out = []
    before = None
    for v in reversed(doc.get("versions") or []):  # oldest first
        if v.get("commit"):
            out.append(event("version", v, v.get("message")))
            if before is not None and v.get("status") != before:
                out.append(event("status", v, f"{before} -> {v.get('status')}"))
        for t in v.get("transitions") or []:
            out.append(
                event(
                    "status", t, f"{t.get('from')} -> {t.get('to')}" + (f": {t['reason']}" if t.get("reason") else "")
                )
            )
        before = (v.get("transitions") or [{}])[-1].get("to") or v.get("status")
    return out
