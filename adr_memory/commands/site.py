"""`adr site`'s data: what the site shows, gathered from git once (surfaces/site writes the pages): each decision with its versions, status
changes, links both ways, governed code, rules and conflicts, and the repository's timeline.

Everything here has been through credential redaction (`facts.gather` redacts the records;
older versions, commit subjects and event details are scrubbed here), so no page can print a
secret that `adr check` flags.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adr_memory.commands import facts, views
from adr_memory.errors import AdrError
from adr_memory.history import Workspace, events, staleness, versions
from adr_memory.policy import conflicts
from adr_memory.records import Record, Standing, credentials, is_rst, iso_date, standing


@dataclass(frozen=True)
class Related:
    rel: str  # as people read it: "supersedes", "depends on", "amended by"
    id: str
    title: str  # "" when the folder holds no such decision
    page: str | None  # site-relative page, None for a target outside the folder


@dataclass(frozen=True)
class Change:
    """A status change: when, who, from what to what, and why."""

    date: str
    author: str
    before: str
    after: str
    reason: str
    commit: str


@dataclass(frozen=True)
class Shown:
    """One version as a page lists it."""

    version_id: str
    commit: str  # short sha, "" for the uncommitted draft
    author: str
    date: str
    subject: str
    status: str


@dataclass
class Decision:
    record: Record  # redacted
    page: str  # site-relative: decisions/ADR-0007.html
    date: str | None  # ISO 8601: the record's date, else when git first saw it
    verdict: staleness.Verdict | None
    shown: list[Shown] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    texts: list[dict[str, str]] = field(default_factory=list)  # each version's text, for the diff
    related: list[Related] = field(default_factory=list)
    backlinks: list[Related] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[conflicts.Conflict] = field(default_factory=list)
    standing: Standing | None = None  # records/standing.py: the one answer to "does it bind?"

    @property
    def successors(self) -> list[Related]:
        """What replaced this decision (a successor in force), as either side records it: said
        under the title, where a reader decides whether to read on. A successor only proposed
        replaces nothing yet (`proposed`)."""
        said = [r for r in self.related if r.rel == "is superseded by"]
        said += [r for r in self.backlinks if r.rel == "supersedes"]
        if self.standing is not None:
            said = [r for r in said if r.id in self.standing.retired_by] if self.standing.retired_by else said
            if self.standing.in_force:
                said = []
        return list({r.id: r for r in said}.values())

    @property
    def proposed(self) -> list[Related]:
        """Successors proposed for a decision still in force."""
        if self.standing is None or not self.standing.proposed:
            return []
        said = [*self.related, *self.backlinks]
        return list({r.id: r for r in said if r.id in self.standing.proposed}.values())

    @property
    def state(self) -> str:
        """fresh, stale, scope-missing…; "" when the decision governs no code or git cannot say."""
        v = self.verdict
        return "" if v is None or not self.record.governs or v.state == "not-accepted" else v.state

    @property
    def rst(self) -> bool:
        return is_rst(self.record.path)


@dataclass(frozen=True)
class Happening:
    """A timeline entry."""

    date: str
    author: str
    id: str
    title: str
    kind: str
    detail: str
    page: str | None


@dataclass
class Site:
    title: str
    decisions: list[Decision]
    timeline: list[Happening]
    note: str | None  # what git could not say, when it could not
    sourced: list[Decision] = field(default_factory=list)  # other repositories' decisions, as pinned


def gather(ws: Workspace, title: str) -> Site:
    records = list(ws.catalog)
    history: versions.History | None = None
    try:
        history = versions.walk(ws)
    except AdrError as exc:  # no commits, or a clone git cannot read: the records still show
        ws.unread = exc
    theirs = [credentials.redacted(r) for folder in ws.sources for r in folder.records]
    pages = page_names(records + theirs)
    gathered = facts.gather(ws, records, history=history, count_commits=True)  # each page says how many
    shown = [f.record for f in gathered]
    known = _Known(shown + theirs, pages)
    found = conflicts.find(shown + theirs)
    incoming = _incoming(shown)
    held = standing.of(shown + theirs)
    decisions = []
    for raw, fact in zip(records, gathered):
        rec = fact.record
        decision = Decision(rec, pages[rec.path], iso_date(rec.date) or iso_date(fact.first_recorded), fact.verdict)
        decision.standing = held.get(rec.path)
        decision.related = [known.related(_read_as(rel), target) for rel, target in _links(rec)]
        stated = {target for _, target in _links(rec)}
        decision.backlinks = [  # what the record already says of the other side is not said twice
            known.related(_read_as(rel), source) for rel, source in incoming.get(rec.id, []) if source not in stated
        ]
        decision.rules = views.rule_objects(rec) if rec.rules else []
        decision.conflicts = conflicts.involving(found, {rec.id})
        if history is not None:
            _versions(ws, raw, history, decision)
        decisions.append(decision)
    timeline = _timeline(ws, history, known) if history is not None else []
    sourced = [_sourced(rec, pages[rec.path], known, found) for rec in theirs]
    for decision in sourced:
        decision.standing = held.get(decision.record.path)
    return Site(title, decisions, timeline, facts.incomplete(ws), sourced)


def _sourced(rec: Record, page: str, known: _Known, found: list[conflicts.Conflict]) -> Decision:
    """A source's decision as pinned: its links resolved among the site's decisions; its
    versions are its own repository's (`adr log`), not shown here."""
    decision = Decision(rec, page, iso_date(rec.date), None)
    decision.related = [known.related(_read_as(rel), target) for rel, target in _links(rec)]
    decision.rules = views.rule_objects(rec) if rec.rules else []
    decision.conflicts = conflicts.involving(found, {rec.id})
    return decision


_STEM_CHARS = 80


def page_names(records: Sequence[Record]) -> dict[str, str]:
    """record path -> its page: the id made safe for a file name (`ADR-0007.html`), unique."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for rec in records:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", rec.id.replace("/", "--")).strip("-.") or "decision"
        if len(stem) > _STEM_CHARS:  # a file system takes 255 bytes a name: a long id is cut and told apart
            stem = f"{stem[: _STEM_CHARS - 11]}-{hashlib.sha256(rec.id.encode()).hexdigest()[:10]}"
        name, n = stem, 2
        while name.lower() in taken:
            name, n = f"{stem}-{n}", n + 1
        taken.add(name.lower())
        out[rec.path] = f"decisions/{name}.html"
    return out


class _Known:
    """The folder's decisions by id: title and page, for the links a page draws."""

    def __init__(self, records: Sequence[Record], pages: dict[str, str]) -> None:
        self.titles: dict[str, str] = {}
        self.pages: dict[str, str] = {}
        for rec in records:  # two files claiming one id: the first one's page
            self.titles.setdefault(rec.id, rec.title)
            self.pages.setdefault(rec.id, pages[rec.path])

    def related(self, rel: str, ident: str) -> Related:
        return Related(rel, ident, self.titles.get(ident, ""), self.pages.get(ident))


def _links(rec: Record) -> list[tuple[str, str]]:
    return list(dict.fromkeys((link.rel, link.target) for link in rec.links if link.target != rec.id))


def _incoming(records: Sequence[Record]) -> dict[str, list[tuple[str, str]]]:
    """target id -> (relation, source id) of every link another record makes to it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for rec in records:
        for rel, target in _links(rec):
            out.setdefault(target, []).append((rel, rec.id))
    return out


def _read_as(rel: str) -> str:
    """A relation as a sentence reads it between two decisions: `supersedes`, `depends on`,
    `is superseded by`, `is amended by`."""
    words = rel.replace("-", " ")
    return f"is {words}" if words.endswith(" by") else words


def _versions(ws: Workspace, raw: Record, history: versions.History, decision: Decision) -> None:
    listed = versions.versions(ws, raw, history)
    for v in listed:
        decision.shown.append(
            Shown(
                v.version_id,
                (v.commit or "")[:10],
                _name(v.author or ""),
                _day(v.date) if v.date else "uncommitted",
                credentials.scrub(v.message.split("\n", 1)[0]) if v.message else "",
                v.status,
            )
        )
        for t in v.transitions:
            decision.changes.append(
                Change(
                    _day(t.date) if t.date else "uncommitted",
                    _name(t.author),
                    t.before,
                    t.after,
                    credentials.scrub(t.reason),
                    t.commit[:10],
                )
            )
        try:
            content = credentials.redacted(versions.content_at(ws, v))
        except AdrError:  # an object this clone lacks: that version's text is not offered
            continue
        decision.texts.append(
            {"id": v.version_id, "label": f"{v.version_id} · {decision.shown[-1].date}", "text": _text(content)}
        )
    decision.changes.sort(key=lambda c: c.date, reverse=True)


def _text(rec: Record) -> str:
    """A version as the diff compares it: its frontmatter keys, then its body."""
    keys = [f"{k}: {json.dumps(v, ensure_ascii=False, default=str)}" for k, v in sorted(rec.meta.items())]
    return ("\n".join(keys) + "\n\n" if keys else "") + rec.body


def _timeline(ws: Workspace, history: versions.History, known: _Known) -> list[Happening]:
    return [
        Happening(
            _day(e.date, clock=True),
            _name(e.author),
            e.id,
            known.titles.get(e.id, credentials.scrub(e.title)),
            e.kind,
            credentials.scrub(e.detail),
            known.pages.get(e.id),
        )
        for e in events(ws, history)
    ]


def _name(author: str) -> str:
    """Who, as a page shows it: the name without the mail address."""
    return author.split("<", 1)[0].strip() or author


def _day(stamp: int, *, clock: bool = False) -> str:
    return time.strftime("%Y-%m-%d %H:%M" if clock else "%Y-%m-%d", time.gmtime(stamp))
