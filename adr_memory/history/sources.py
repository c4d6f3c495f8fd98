"""Sources: other repositories' decision folders, fetched with dulwich into the cache and pinned
to a commit in a lock file this repository commits (ARCHITECTURE.md §8, ADR-0097).

Every command reads a source at its pinned commit, never at a moving ref, so a verdict stays a
function of this repository's commit: the central repository moving on changes nothing here
until someone runs `adr sources update` and commits the lock. A source is anyone's content: it
is read from git objects only (no checkout, no hook, no filter), with the same caps as a clone.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from adr_memory import records
from adr_memory.base import Config, SourceSpec, cache, locked, write_atomic
from adr_memory.errors import AdrError, GitError, UsageError
from adr_memory.history.fetch import fetch_ref, stored_credential
from adr_memory.history.folder import AtCommit, read_at
from adr_memory.history.folder import Folder as RecordFolder
from adr_memory.history.repo import Repo, open_bare
from adr_memory.records import Catalog, Link, Parses, Record, redact_url


class Here(RecordFolder, Protocol):
    """What sources read of the repository a command runs in (its Workspace is one): where its
    lock is, what its config names, its decisions and the sources as read at their pins."""

    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    @property
    def sources(self) -> list[Any]: ...

    @property
    def decisions(self) -> list[Record]: ...


LOCK = "adr-sources.lock"
LOCK_VERSION = 1
MAX_LOCK = 1_000_000


@dataclass(frozen=True)
class Pin:
    """What the lock says of one source: where it is read from, and the commit it is read at."""

    name: str
    url: str  # credentials stripped: the lock is committed
    ref: str
    commit: str
    dir: str
    date: str | None = None  # the pinned commit's time, ISO 8601

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "ref": self.ref, "commit": self.commit, "dir": self.dir, "date": self.date}


@dataclass
class Source:
    """A source's decisions as read at its pin (or why they could not be)."""

    spec: SourceSpec
    pin: Pin | None
    catalog: Catalog | None = None
    problem: str | None = None  # one line: which source could not be read, and why

    @property
    def records(self) -> tuple[Record, ...]:
        """Its decisions: every record it holds but a file that could not be read as one (too
        large, binary, a symlink), which binds nothing here (`unread` names them)."""
        return tuple(r for r in self._held if not r.unread)

    @property
    def unread(self) -> tuple[Record, ...]:
        return tuple(r for r in self._held if r.unread)

    @property
    def _held(self) -> tuple[Record, ...]:
        return self.catalog.records if self.catalog is not None else ()


# ---------------------------------------------------------------------------- the lock


def read_lock(root: Path) -> dict[str, Pin]:
    """The pins the repository commits; {} when it has none. A lock that does not read is an
    error: a verdict must never quietly read a source at another commit."""
    path = root / LOCK
    return _pins(path.read_bytes()[:MAX_LOCK]) if path.is_file() else {}


def _pins(raw: bytes) -> dict[str, Pin]:
    try:
        data = json.loads(raw.decode("utf-8"))
        pins = {
            name: Pin(name, str(v["url"]), str(v["ref"]), str(v["commit"]), str(v.get("dir") or ""), v.get("date"))
            for name, v in data["sources"].items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise AdrError(
            f"cannot read {LOCK}: {type(exc).__name__}", hint="`adr sources update` writes it again"
        ) from None
    if not all(re.fullmatch(r"[0-9a-f]{40}", p.commit) for p in pins.values()):
        raise AdrError(f"{LOCK} pins something that is no commit id", hint="`adr sources update` writes it again")
    return pins


def write_lock(root: Path, pins: dict[str, Pin], reviews: dict[str, Any] | None = None) -> None:
    """The lock, whole and atomically; the reviews this repository made of source decisions
    (`adr affirm platform:12`) are kept as they were unless given."""
    kept = reviews if reviews is not None else read_reviews(root)
    data: dict[str, Any] = {"version": LOCK_VERSION, "sources": {name: pins[name].to_json() for name in sorted(pins)}}
    if kept:
        data["reviews"] = {key: kept[key] for key in sorted(kept)}
    write_atomic(root / LOCK, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def read_reviews(root: Path) -> dict[str, Any]:
    """source decision id -> the review this repository recorded of it ({date, note})."""
    path = root / LOCK
    return _reviews(path.read_bytes()[:MAX_LOCK]) if path.is_file() else {}


def _reviews(raw: bytes) -> dict[str, Any]:
    try:
        found = json.loads(raw.decode("utf-8")).get("reviews") or {}
    except (ValueError, AttributeError, RecursionError):
        return {}
    return {str(k): v for k, v in found.items() if isinstance(v, dict)} if isinstance(found, dict) else {}


def affirm(ws: Here, ident: str, note: str = "") -> Record:
    """Record, in the lock, that this repository reviewed a source decision against its own
    code: committing it moves the decision's anchor here (`adr affirm platform:12`)."""
    records.credentials.refuse_in(note, "note")
    rec = find(ws, ident)
    if rec is None:
        raise UsageError(f"{ident} names no source decision", hint="`adr sources list` names the sources")
    with locked(cache.entry(cache.ensure(ws.cache_path), "sources.lock")):
        reviews = read_reviews(ws.root)
        reviews[rec.id] = {"date": time.strftime("%Y-%m-%d", time.gmtime()), "note": note or None}
        write_lock(ws.root, read_lock(ws.root), reviews)
    return rec


# ---------------------------------------------------------------------------- fetching


def store(cache_path: Path, name: str) -> Path:
    """Where a source's copy is kept: a bare repository in the cache (disposable, as all of it)."""
    return cache.entry(cache.ensure(cache_path), "sources") / name


@dataclass(frozen=True)
class Updated:
    pin: Pin
    before: str | None  # the commit it was pinned at
    note: str | None = None  # what the user should know (a rewritten ref)


def update(ws: Here, names: list[str] | None = None) -> list[Updated]:
    """Fetch each named source (all, without names) at its ref and pin it: the lock is written
    once, whole, under a lock of its own (two updates at once leave one valid lock)."""
    specs = _chosen(ws.config.sources, names)
    done: list[Updated] = []
    failed: list[GitError] = []
    with locked(cache.entry(cache.ensure(ws.cache_path), "sources.lock")):
        pins = read_lock(ws.root)
        for spec in specs:
            try:
                done.append(_update_one(ws.cache_path, spec, pins.get(spec.name)))
            except GitError as exc:  # the others are pinned all the same; this one keeps its pin
                failed.append(exc)
                continue
            pins[spec.name] = done[-1].pin
        for gone in set(pins) - {s.name for s in ws.config.sources}:  # a source taken out of the config
            del pins[gone]
        if done or not failed:
            write_lock(ws.root, pins)
    if failed:
        written = ", ".join(u.pin.name for u in done)
        raise GitError(
            "; ".join(exc.message for exc in failed)
            + (f" (the lock was written for {written})" if written else " (the lock is as it was)"),
            hint=failed[0].hint,
        )
    return done


def _chosen(specs: Sequence[SourceSpec], names: list[str] | None) -> list[SourceSpec]:
    known = {s.name: s for s in specs}
    if not known:
        raise UsageError("no sources in the config", hint="adr sources add NAME URL")
    unknown = [n for n in names or () if n not in known]
    if unknown:
        raise UsageError(f"no source {unknown[0]!r} in the config", hint="known: " + ", ".join(sorted(known)))
    return [known[n] for n in names] if names else list(known.values())


def _update_one(cache_path: Path, spec: SourceSpec, before: Pin | None) -> Updated:
    shown = redact_url(spec.url)
    try:
        sha, _refs = fetch_ref(spec.url, store(cache_path, spec.name), spec.ref, credential(spec))
    except GitError as exc:
        raise GitError(f"source {spec.name} ({shown}): {exc.message}", hint=exc.hint) from None
    repo = open_bare(store(cache_path, spec.name))
    info = repo.commit(sha)
    folder = spec.dir or _discovered(repo, info.tree)
    note = None
    if before is not None and before.commit != sha and not _descends(repo, before.commit, sha):
        note = (
            f"source {spec.name}: {spec.ref} was rewritten (force-pushed): the pin moves from {before.commit[:10]} "
            f"to {sha[:10]}, which does not descend from it; review what changed before you commit the lock"
        )
    pin = Pin(spec.name, shown, spec.ref, sha, folder, records.iso_moment(info.timestamp))
    return Updated(pin, before.commit if before else None, note)


def token_variable(name: str) -> str:
    """The environment variable a source's token is read from (`ADR_SOURCE_TOKEN_PLATFORM`)."""
    return "ADR_SOURCE_TOKEN_" + re.sub(r"[^A-Z0-9]", "_", name.upper())


def credential(spec: SourceSpec) -> tuple[str, str] | None:
    """(user, token) for fetching a source over HTTP: its token variable (the user from
    `ADR_SOURCE_USER_<NAME>`, else `git`, which GitHub and GitLab accept with a token), else
    git's credential store (`git config credential.helper store`) for its host. A credential is
    never part of the committed URL."""
    import os

    token = os.environ.get(token_variable(spec.name))
    if token:
        return os.environ.get(token_variable(spec.name).replace("_TOKEN_", "_USER_")) or "git", token
    return stored_credential(spec.url)


def _descends(repo: Repo, old: str, new: str) -> bool:
    try:
        return repo.is_ancestor(old, new)
    except AdrError:  # the old commit is not in the copy: rewritten away
        return False


def _discovered(repo: Repo, tree: str) -> str:
    """The source's ADR folder at that commit, as a repository's own is found: the first
    conventional folder it has."""
    for folder in records.CONVENTIONAL_DIRS:
        if repo.lookup(tree, folder) is not None:
            return folder
    return "docs/adr"


# ---------------------------------------------------------------------------- reading


def read(ws: Here, parses: Parses | None = None) -> list[Source]:
    """Each configured source's decisions at its pinned commit, qualified (`platform:ADR-0012`).
    A source that cannot be read (not pinned yet, no copy and no network, the commit gone) is a
    Source with a `problem` and no records: the caller says which, and never judges without it.
    `parses`: records parsed before, by their bytes (a source's pin moves seldom)."""
    pins = read_lock(ws.root)
    return [_read_one(ws.cache_path, spec, pins.get(spec.name), parses) for spec in ws.config.sources]


def _read_one(cache_path: Path, spec: SourceSpec, pin: Pin | None, parses: Parses | None = None) -> Source:
    if pin is None:
        return Source(spec, None, problem=f"source {spec.name} is not pinned yet: run `adr sources update {spec.name}`")
    try:
        found = read_at(_with_commit(cache_path, spec, pin), pin.commit, pin.dir, parses)
    except AdrError as exc:
        return Source(spec, pin, problem=f"source {spec.name} cannot be read at {pin.commit[:10]}: {exc.message}")
    return Source(spec, pin, _qualified(found, spec.name))


def _with_commit(cache_path: Path, spec: SourceSpec, pin: Pin) -> Repo:
    """The copy holding the pinned commit: fetched once when it is not here (a fresh clone of
    this repository has the lock but no copy)."""
    where = store(cache_path, spec.name) if cache.owned(cache_path) else cache_path / "sources" / spec.name
    if (where / "objects").is_dir():
        repo = open_bare(where)
        if repo.has_commit(pin.commit):
            return repo
    fetch_ref(spec.url, store(cache_path, spec.name), spec.ref, credential(spec))
    repo = open_bare(store(cache_path, spec.name))
    if not repo.has_commit(pin.commit):
        raise GitError(
            f"the pinned commit is no longer at {redact_url(spec.url)} {spec.ref} (rewritten history?)",
            hint=f"`adr sources update {spec.name}` pins what it holds now",
        )
    return repo


def _qualified(found: Catalog, name: str) -> Catalog:
    """The source's records under ids of their own (`platform:ADR-0012`, the path
    `platform:docs/adr/...`), their links to each other qualified too."""
    own = {rec.id for rec in found.records}

    def link(item: Link) -> Link:
        return dataclasses.replace(item, target=f"{name}:{item.target}") if item.target in own else item

    return dataclasses.replace(
        found,
        records=tuple(
            dataclasses.replace(
                rec,
                id=f"{name}:{rec.id}",
                path=f"{name}:{rec.path}",
                links=tuple(link(item) for item in rec.links),
                source=name,
            )
            for rec in found.records
        ),
        unnamed=(),
    )


# ---------------------------------------------------------------------------- where they apply


def applies(rec: Record, here: str) -> bool:
    """Whether a source decision binds the repository named `here` (`repository_name`): it names
    none (`applies-to` absent), or one of the names or globs it lists matches."""
    listed = rec.meta.get("applies-to")
    if listed is None:
        return True
    names = [listed] if isinstance(listed, str) else listed if isinstance(listed, list) else []
    import fnmatch

    return any(isinstance(n, str) and fnmatch.fnmatchcase(here, n.strip()) for n in names)


def repository_name(ws: Here) -> str:
    """This repository's name as the organisation knows it: its origin remote's last part
    (`git@github.com:acme/payments.git` -> `payments`), else its folder's name."""
    url = ws.repo.remote_url("origin") if "repo" in ws.__dict__ or (ws.root / ".git").exists() else None
    name = (url or "").rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git")
    return name or ws.root.name


def find(ws: Here, ident: str) -> Record | None:
    """A source decision by its qualified id (`platform:12`, `platform:ADR-0012`), or None
    when `ident` names no source."""
    name, sep, _rest = ident.partition(":")
    folder: Source | None = next((f for f in ws.sources if f.spec.name == name.strip()), None) if sep else None
    if folder is None:
        return None
    if folder.catalog is None:
        raise AdrError(folder.problem or f"source {name} cannot be read", hint=f"adr sources update {name}")
    wanted = records.normalise_id(ident)
    found = next((r for r in folder.records if r.id == wanted or r.id.lower() == ident.strip().lower()), None)
    if found is None:
        near = ", ".join(r.id for r in folder.records[:3])
        raise UsageError(
            f"no decision {ident!r} in source {name}", hint=f"its decisions: {near}, …" if near else "it holds none"
        )
    return found


def read_only(ws: Here, ident: str) -> None:
    """Refuse a change to a source decision: it is the source repository's to change."""
    name, sep, _rest = ident.partition(":")
    spec = next((s for s in ws.config.sources if s.name == name.strip()), None) if sep else None
    if spec is not None:
        raise UsageError(
            f"{ident} is source {spec.name}'s decision: read-only here",
            hint=f"change it in {redact_url(spec.url)}, then `adr sources update {spec.name}`; "
            f"or record this repository's exception: adr new -s {ident} TITLE",
        )


# ---------------------------------------------------------------------------- a source's own history


def history_of(ws: Here, rec: Record) -> tuple[AtCommit, Record]:
    """The source's folder in its own copy, read at its pin, and the record as the source names
    it: what versions and the walk read a source decision's history with (its own git)."""
    folder = next(f for f in ws.sources if f.spec.name == rec.source)
    if folder.pin is None:
        raise AdrError(folder.problem or f"source {rec.source} is not pinned", hint=f"adr sources update {rec.source}")
    repo = open_bare(store(ws.cache_path, rec.source), pinned=folder.pin.commit)
    # The walk of its own git is kept apart from this repository's.
    there = AtCommit(repo, folder.pin.dir, folder.pin.commit, store(ws.cache_path, f"{rec.source}.history"))
    plain = f"{rec.source}:"
    own = dataclasses.replace(rec, id=rec.id.removeprefix(plain), path=rec.path.removeprefix(plain), source="")
    return there, own


# ---------------------------------------------------------------------------- a branch that moves a pin


@dataclass(frozen=True)
class Moved:
    """What a branch's new pin of a source brings: decisions added, changed and retired."""

    name: str
    before: str
    after: str
    added: list[Record]
    changed: list[tuple[Record, Record]]
    retired: list[Record]


def moved(ws: Here, base: str) -> list[Moved]:
    """Each source whose pin differs between commit `base` and the lock here, and what moved."""
    from adr_memory.history.versions import digest

    try:
        raw = ws.repo.read(base, LOCK, MAX_LOCK)
    except AdrError:
        raw = None
    before = _pins(raw) if raw else {}
    out = []
    for folder in ws.sources:
        old = before.get(folder.spec.name)
        if folder.pin is None or folder.catalog is None or (old is not None and old.commit == folder.pin.commit):
            continue
        then = {r.id: r for r in _read_one(ws.cache_path, folder.spec, old).records} if old else {}
        now = {r.id: r for r in folder.records}
        out.append(
            Moved(
                folder.spec.name,
                old.commit if old else "",
                folder.pin.commit,
                [now[i] for i in now if i not in then],
                [(then[i], now[i]) for i in now if i in then and digest(then[i]) != digest(now[i])],
                [now[i] for i in now if i in then and then[i].status == "accepted" and now[i].status != "accepted"]
                + [then[i] for i in then if i not in now],
            )
        )
    return out


# ---------------------------------------------------------------------------- staleness here


def verdicts(ws: Here) -> list[Any]:
    """A verdict for each source decision in force here that governs code: stale when the code
    it governs here changed since this repository last reviewed it (`adr affirm platform:12`),
    or, never reviewed, since it adopted the source (the commit that first pinned it)."""
    from adr_memory.history.staleness import Verdict, governed_changes

    head = ws.repo.head()
    if head is None:
        return []
    anchors = _anchors(ws.repo, head)
    everything = ws.decisions
    held = records.standing.of(everything)
    out = []
    for rec in everything:
        if not rec.source or not rec.governs or not held[rec.path].in_force:
            continue  # not in force here: its status, or this repository's recorded exception
        anchor = anchors.get(rec.id) or anchors.get(f"{rec.source}:")
        if anchor is None:  # not committed yet: anchored at HEAD
            anchor = head
        changed = governed_changes(ws, rec, anchor, head)
        state = "stale" if changed else "fresh"
        why = f"{len(changed)} governed file(s) changed since this repository last reviewed it" if changed else ""
        out.append(
            Verdict(
                rec.id,
                rec.title,
                rec.path,
                state,
                anchor,
                tuple(changed),
                reason=why or "governed code unchanged since the review",
            )
        )
    for fetched in ws.sources:  # its decisions went unread: not known, never "nothing governs"
        if fetched.problem:
            name = fetched.spec.name
            out.append(
                Verdict(
                    f"{name}:*",
                    f"the decisions of source {name}",
                    LOCK,
                    "unknown",
                    None,
                    reason=f"source {name} cannot be read: {fetched.problem}",
                    remedy=f"adr sources update {name}",
                )
            )
    return out


def _anchors(repo: Repo, head: str) -> dict[str, str]:
    """From HEAD back along the first-parent history: for each source decision the newest commit
    that changed its review in the lock, and for each source (`platform:`) the oldest commit
    whose lock pins it (when this repository adopted it)."""
    found: dict[str, str] = {}
    newer: tuple[str, dict[str, Any], set[str]] | None = None  # (commit, its reviews, its sources)
    sha: str | None = head
    seen_blob: str | None = None
    wanted: set[str] = set()
    here: tuple[dict[str, Any], set[str]] = ({}, set())
    while sha is not None:
        tree, parents = repo.skeleton(sha)
        entry = repo.lookup(tree, LOCK)
        blob = entry[1] if entry else None
        if blob != seen_blob:
            raw = repo.blob(blob, MAX_LOCK) if blob else b""
            here = (_reviews(raw), set(_pins(raw)) if raw else set())
            seen_blob = blob
        if newer is not None:
            commit, reviews, pinned = newer
            for key, value in reviews.items():
                if key not in found and here[0].get(key) != value:
                    found[key] = commit
            for name in pinned - here[1]:
                found.setdefault(f"{name}:", commit)
        if newer is None:  # HEAD's lock: what the walk must find an anchor for
            wanted = set(here[0]) | {f"{name}:" for name in here[1]}
        elif wanted <= found.keys():
            return found
        newer = (sha, here[0], here[1])
        sha = parents[0] if parents else None
    if newer is not None:  # the root commit: what it already held began there
        commit, reviews, pinned = newer
        for key in reviews:
            found.setdefault(key, commit)
        for name in pinned:
            found.setdefault(f"{name}:", commit)
    return found
