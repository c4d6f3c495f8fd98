"""Read-side views that combine the catalog, versions and staleness: what `list`, `show`,
`diff`, `why` and `guard` print."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from adr_memory.commands import facts
from adr_memory.errors import AdrError
from adr_memory.history import Workspace, folder_at, staleness, versions
from adr_memory.policy import conflicts
from adr_memory.records import Record, credentials, is_rst, iso_date, says_nothing, standing, without_comments


def extras(
    ws: Workspace, records: Sequence[Record], *, at: str | None = None, budget: int | None = None
) -> dict[str, dict[str, Any]]:
    """Version id, first-recorded date and staleness per record's file; empty when git cannot
    say, or when more than `budget` commits of history are not cached yet."""
    if at is not None or not records:
        return {}
    return {
        f.record.path: {
            "version_id": f.version_id,
            "first_date": iso_date(f.first_recorded) or f.first_recorded,
            "stale": f.stale,
            "stale_text": f"{f.verdict.state}: {f.verdict.reason}" if f.verdict else None,
            # Local feedback beside the verdict, never in it: reports here that it misled.
            "disputed": list(f.verdict.disputed) if f.verdict else [],
        }
        for f in facts.gather(ws, records, budget=budget)
    }


def with_standing(
    ws: Workspace,
    records: Sequence[Record],
    extras: Mapping[str, Mapping[str, Any]],
    *,
    everything: Sequence[Record] | None = None,
    changed: bool = False,
) -> dict[str, dict[str, Any]]:
    """`extras` with each record's standing (records/standing.py), judged among `everything`
    (default: this folder's records and the source records listed; a source's decision is an
    exception only where a local record supersedes it, so no source is read for local records).
    With `changed`, a local record's standing also says who made it so, in which commit."""
    pool = list(everything if everything is not None else ws.catalog)
    known = {r.path for r in pool}
    held = standing.of(pool + [r for r in records if r.path not in known])
    said = {r.path: held[r.path].to_json() for r in records}
    if changed:
        try:  # the walk the facts beside it made, recalled whole from the cache
            history = versions.walk(ws) if any(not r.source for r in records) else None
        except AdrError:  # a damaged clone: the facts beside it say why; who changed it is unknown
            history = None
        for r in records:
            said[r.path]["changed"] = None
            if history is not None and not r.source:
                with contextlib.suppress(AdrError):  # a version's blob missing: unknown, as above
                    said[r.path]["changed"] = standing_changed(ws, r, said[r.path], history)
    return {r.path: {**extras.get(r.path, {}), "standing": said[r.path]} for r in records}


def shown(
    ws: Workspace, ident: str, *, version: str | None, at: str | None, budget: int | None = None
) -> tuple[Record, dict[str, Any]]:
    """The record `adr show` prints, at a version or a commit, with its derived facts."""
    if at is not None:
        rec = folder_at(ws, at).catalog.get(ident)
        return rec, {}
    from adr_memory.history import sources

    found = sources.find(ws, ident) if ws.config.sources else None
    if found is not None:  # a source's decision: as pinned, its derived facts are its repository's
        held = standing.of(ws.decisions)
        return found, {
            "source": found.source,
            "backlinks": backlinks(ws.decisions, found.id),
            "standing": held[found.path].to_json() if found.path in held else None,
        }
    rec = ws.catalog.get(ident)
    if version is not None:
        history = versions.walk(ws)
        chosen = versions.version_ref(ws, rec, version, history)
        return versions.content_at(ws, chosen), {"version_id": chosen.version_id}
    extra = with_standing(ws, [rec], extras(ws, [rec], budget=budget), changed=True)[rec.path]
    if rec.rules:
        extra["rules"] = rule_objects(rec)
    extra["backlinks"] = backlinks(ws.catalog, rec.id)
    return rec, extra


def standing_changed(ws: Workspace, rec: Record, held: Mapping[str, Any], history: Any = None) -> dict[str, Any] | None:
    """When, by whom and in which commit the decision came to stand as it does: its newest
    status change (credited along a merged branch, as versions are), or, retired by a
    successor its own file does not name, that successor's. None before any commit."""
    from adr_memory.records import iso_moment

    target = rec
    if held.get("retired_by") and rec.status != "superseded":  # one-sided: the successor's acceptance retired it
        target = ws.catalog.find(held["retired_by"][0]) or rec
    found = None
    said: tuple[str, str | None, str | None, int | None, str | None] | None = None
    for v in versions.versions(ws, target, history or versions.walk(ws)):  # newest first
        if v.transitions:  # a status changed with its text unchanged: who changed it
            t = v.transitions[-1]
            if not t.commit:
                return None  # changed in the work tree, not committed yet: no one made it so yet
            said = (t.after, t.commit or None, t.author or None, t.date, t.written_in)
            break
        if not v.commit:  # the draft in the work tree
            continue
        if v.unknown:
            return None  # a version this clone lacks: when it came to stand so is not known
        if v.status != target.status:
            break
        found = v  # the oldest version saying its status, back to one that said another
    if said is None and found is not None:
        said = (found.status, found.commit, found.author, found.date, found.written_in)
    if said is None:
        return None
    to, commit, author, date, written_in = said
    return {
        "id": target.id,
        "to": to,
        "commit": commit,
        "author": author,
        "date": iso_moment(date),
        "written_in": written_in,
    }


def backlinks(records: Any, ident: str) -> list[dict[str, str]]:
    """Links other records make to this one, with the relation as they state it: what
    depends on it, what supersedes it, what relates to or amends it."""
    return [
        {"rel": link.rel, "id": other.id}
        for other in records
        if other.id != ident
        for link in other.links
        if link.target == ident
    ]


def rule_objects(rec: Record) -> list[dict[str, Any]]:
    """`adr show --json` rules: each with its stable id."""
    from adr_memory.policy import rules

    return [
        {
            "rule_id": r.rule_id,
            "description": r.describe(),
            "type": r.type,
            "value": r.value,
            "regex": r.regex,
            "message": r.message,
            "in": list(r.within),
            "except": list(r.exclude),
        }
        for r in rules.parse_rules(rec)[0]
    ]


def diff_text(ws: Workspace, ident: str, old: str | None, new: str | None) -> str:
    """Frontmatter field changes plus a unified diff of the body between two versions."""
    rec = ws.catalog.get(ident)
    history = versions.walk(ws)
    listed = versions.versions(ws, rec, history)
    to_v = versions.version_ref(ws, rec, new, history) if new else listed[0]
    if old:
        from_v = versions.version_ref(ws, rec, old, history)
    else:
        index = listed.index(to_v)
        from_v = listed[index + 1] if index + 1 < len(listed) else to_v
    a, b = versions.content_at(ws, from_v), versions.content_at(ws, to_v)
    return render_diff(a, b, from_v.version_id, to_v.version_id)


def render_diff(a: Record, b: Record, a_label: str, b_label: str) -> str:
    """What changed between two versions. A credential is redacted by what either version held,
    not by what a hunk shows: a changed line inside a key block comes without its `BEGIN`."""
    lines: list[str] = []
    for key in sorted(set(a.meta) | set(b.meta)):
        if a.meta.get(key) != b.meta.get(key):
            was, now = (credentials.scrub_data({key: r.meta.get(key)})[key] for r in (a, b))
            lines.append(f"~ {key}: {_value(was)} -> {_value(now)}")
    if a.status != b.status and "status" not in a.meta and "status" not in b.meta:
        lines.append(f"~ status: {a.status_text!r} -> {b.status_text!r}")
    secret = credentials.secret_lines(a.body) | credentials.secret_lines(b.body)
    body = difflib.unified_diff(a.body.splitlines(), b.body.splitlines(), fromfile=a_label, tofile=b_label, lineterm="")
    lines.extend(_unsecret(line, secret) for line in body)
    return credentials.scrub("\n".join(lines)) if lines else "no differences"


def _unsecret(line: str, secret: set[str]) -> str:
    if secret and line[:1] in "+- " and not line.startswith(("+++", "---")) and line[1:].strip() in secret:
        return line[:1] + "[REDACTED]"
    return line


def _value(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def guard(ws: Workspace, paths: Sequence[str]) -> dict[str, Any]:
    """`adr guard --json`: for each path, the decisions governing it and whether they hold."""
    wanted = [ws.relpath(p) for p in paths]
    records = ws.decisions  # a source decision's governs match this repository's paths too
    held = standing.of(records)  # a pending successor retires nothing yet; a local exception does
    governing = {p: staleness.governing(records, p) if _in_repository(p) else [] for p in wanted}
    relevant = {r.id for recs in governing.values() for r in recs}
    verdicts = staleness.by_path(ws) if relevant else {}
    if relevant and any(r.source for recs in governing.values() for r in recs):
        from adr_memory.history import sources

        verdicts |= {v.path: v for v in sources.verdicts(ws)}  # judged here, against this repository's code
    every = conflicts.find(records) if relevant else []  # once, not once per path
    # A source that could not be read may govern any path here: what governs it is not known,
    # never "nothing" (ADR-0101). Said on every path, with the source and why.
    unread = [
        {"source": f.spec.name, "problem": f.problem, "standing": standing.unreadable(f.problem).to_json()}
        for f in (ws.sources if ws.config.sources else ())
        if f.problem
    ]
    said = with_standing(ws, [r for recs in governing.values() for r in recs], {}, everything=records, changed=True)
    out = []
    for path in wanted:
        decisions: list[dict[str, Any]] = []
        for rec in governing[path]:
            verdict = verdicts.get(rec.path)
            state, reason = (verdict.state, verdict.reason) if verdict else ("unknown", "")
            if rec.source and not (verdict and held[rec.path].in_force):  # not in force here: say so
                state, reason = _source_state(rec, held[rec.path].in_force)
            decisions.append(
                {
                    "id": rec.id,
                    "title": rec.title,
                    "status": rec.status,
                    "state": state,
                    "reason": reason,
                    "disputed": list(verdict.disputed) if verdict else [],
                    "excerpt": excerpt(rec),
                    "path": rec.path,
                    "superseded_by": list(rec.superseded_by),
                    "in_force": held[rec.path].in_force,
                    "standing": said[rec.path]["standing"],
                    "status_text": rec.status_text,
                    "source": rec.source or None,
                }
            )
        found = conflicts.involving(every, {d["id"] for d in decisions})
        out.append(
            {
                "path": path,
                "outside": not _in_repository(path),
                "decisions": decisions,
                "rules": _rules_for(records, path) if _in_repository(path) else [],
                "conflicts": [c.to_json() for c in found],
                "unreadable_sources": unread if _in_repository(path) else [],
            }
        )
    return {"paths": out}


def _source_state(rec: Record, in_force: bool) -> tuple[str, str]:
    if not in_force:
        return (
            "not-accepted",
            f"source {rec.source}'s decision, not in force here (superseded by this repository, or its status)",
        )
    return "unknown", f"source {rec.source}'s decision at its pin; its staleness is its own repository's to say"


def _in_repository(path: str) -> bool:
    """Whether `ws.relpath` made it repo-relative: a path outside stays absolute or climbs out,
    and no decision governs it (`**` would otherwise claim /etc/passwd)."""
    return not (path.startswith(("/", "../")) or path == "..")


def _rules_for(records: list[Record], path: str) -> list[dict[str, Any]]:
    if not any(r.rules for r in records):
        return []
    from adr_memory.policy import rules

    return [
        {"id": r.decision, "rule_id": r.rule_id, "description": r.describe(), "message": r.message}
        for r in rules.for_path(records, path)
    ]


def excerpt(rec: Record, limit: int = 240) -> str:
    """The first lines of the decision section (the outcome, not the context); nothing when
    it still holds the template's placeholders (`Chosen option: "", because .` tells no one
    anything)."""
    rec = credentials.redacted(rec)
    section = rec.section("decision outcome", "decision", "outcome") or (rec.parts[0] if rec.parts else None)
    text = section.text if section else rec.body
    if says_nothing(text, is_rst(rec.path)):
        return ""
    text = without_comments(text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


DIGEST_CHARS = 1_600  # about four hundred tokens: a digest an agent reads at every session start


def digest(ws: Workspace) -> str:
    """What an agent should know at the start of a session: the decisions in force, by area
    (a record's first tag, else the top folder of the code it governs), then the stale and the
    conflicting ones; cut at DIGEST_CHARS with a pointer to the rest."""
    live = conflicts.in_force(ws.catalog)
    # The organisation's decisions bind here too: when they could not be read, the agent is told
    # first, never left to believe only what follows governs.
    unread = [f"{f.spec.name} ({f.problem})" for f in ws.sources if f.problem] if ws.config.sources else []
    warning = (
        "The organisation's decisions could not be read (source " + "; ".join(unread) + "): "
        "they bind this repository too; do not assume nothing else governs the code."
        if unread
        else ""
    )
    if not live:
        return warning
    areas: dict[str, list[Record]] = {}
    for rec in live:
        area = rec.tags[0] if rec.tags else (rec.governs[0].split("/", 1)[0] if rec.governs else "general")
        areas.setdefault(area, []).append(rec)
    lines = [warning] if warning else []
    lines.append(f"Architecture decisions in force here ({len(live)}; `adr show ID` or MCP `get` for one):")
    lines += [f"- {area}: " + "; ".join(f"{r.id} {r.title}" for r in recs) for area, recs in sorted(areas.items())]
    verdicts = staleness.by_path(ws)
    stale = [v for v in verdicts.values() if v.state in ("stale", "at-risk")]
    if stale:
        lines.append("Stale (code changed since last reviewed): " + "; ".join(f"{v.id} ({v.reason})" for v in stale))
    found = conflicts.find(list(ws.catalog))
    if found:
        lines.append("Conflicting: " + "; ".join(c.message for c in found))
    text = credentials.scrub("\n".join(lines))
    if len(text) > DIGEST_CHARS:
        text = text[: DIGEST_CHARS - 40].rsplit("\n", 1)[0] + "\n… (`adr list` has the rest)"
    return text
