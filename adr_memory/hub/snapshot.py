"""What a repository publishes: its catalog at HEAD, with each record's state and key, and its
sections with the vectors its own CI embedded (reused by content digest, as the local index does)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from adr_memory.commands import log, show, views
from adr_memory.history import Workspace, sources, staleness
from adr_memory.records import Record, credentials


@dataclass
class Snapshot:
    repository: str
    commit: str | None
    contract: dict[str, Any] | None
    records: list[dict[str, Any]]
    chunks: list[dict[str, Any]]  # {"id", "section", "text"}, row n of `vectors`
    vectors: Any = field(default=None, repr=False)  # float32 rows, unit length; None without a model

    @property
    def digest(self) -> str:
        """What the snapshot says, as one hash: publishing the same twice changes nothing."""
        body = json.dumps([self.repository, self.commit, self.records, self.chunks], sort_keys=True, default=str)
        data = body.encode() + (self.vectors.tobytes() if self.vectors is not None else b"")
        return hashlib.sha256(data).hexdigest()

    def to_json(self) -> dict[str, Any]:
        vectors = base64.b64encode(self.vectors.tobytes()).decode() if self.vectors is not None else None
        return {
            "repository": self.repository,
            "commit": self.commit,
            "contract": self.contract,
            "records": self.records,
            "chunks": self.chunks,
            "vectors": vectors,
            "digest": self.digest,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        import numpy as np

        raw = data.get("vectors")
        dim = (data.get("contract") or {}).get("dim") or 0
        vectors = np.frombuffer(base64.b64decode(raw), dtype=np.float32).reshape(-1, dim) if raw and dim else None
        return cls(
            data["repository"], data.get("commit"), data.get("contract"), data["records"], data["chunks"], vectors
        )


def build(ws: Workspace, name: str | None = None) -> Snapshot:
    """This repository's catalog at HEAD as the hub keeps it. The search index is refreshed
    first (here, in this repository's CI): only sections whose text changed are embedded."""
    from adr_memory.search import search as search_mod

    records = list(ws.catalog)
    extras = views.with_standing(ws, records, views.extras(ws, records))  # each record's standing, published
    verdicts = staleness.by_path(ws)
    histories = _versions(ws, records)
    web = web_url(ws.repo.remote_url("origin") if (ws.root / ".git").exists() else None)
    head = ws.repo.head()
    out = []
    for rec in records:
        doc = show.record_detail_json(rec, extras.get(rec.path))
        doc["versions"] = histories.get(rec.path, [])  # digest, commit, author, date; status changes with who and why
        doc["link"] = f"{web}/blob/{head}/{quote(rec.path)}" if web and head else None  # its file, at this commit
        verdict = verdicts.get(rec.path)
        doc["state"] = verdict.state if verdict else None
        doc["reason"] = verdict.reason if verdict else None
        key, cardinality, value = _key(rec)
        doc |= {"key": key, "cardinality": cardinality, "value": value, "exceptions": _exceptions(ws, rec)}
        out.append(credentials.scrub_data(doc))
    ctx = search_mod.prepare(ws, mode="hybrid")
    ids = {rec.path: rec.id for rec in records}
    header = ctx.index.meta.get("vectors") or {}
    rows = [i for i, c in enumerate(header.get("chunks") or []) if c["record"] in ids]
    chunks = [
        {"id": ids[c["record"]], "section": c["section"], "text": credentials.scrub(c["text"])}
        for c in (header["chunks"][i] for i in rows)
    ]
    vectors = ctx.index.vectors[rows] if ctx.index.vectors is not None and rows else None
    return Snapshot(name or sources.repository_name(ws), ws.repo.head(), header.get("contract"), out, chunks, vectors)


def _exceptions(ws: Workspace, rec: Record) -> list[dict[str, str]]:
    """The organisation's decisions this record is this repository's exception to: each source
    decision it supersedes, named as the hub knows it (the source's repository, its id there)."""
    specs = {spec.name: spec for spec in ws.config.sources}
    out = []
    for target in rec.supersedes:
        name, sep, ident = target.partition(":")
        if sep and name in specs:
            out.append({"repository": specs[name].hub_name, "id": ident, "source": name})
    return out


_SSH = re.compile(r"^(?:ssh://)?[\w.-]+@([\w.-]+)[:/](?:\d+/)?(.+?)(?:\.git)?/?$")
_WEB = re.compile(r"^https?://(?:[^@/\s]+@)?([\w.:-]+)/(.+?)(?:\.git)?/?$")


def web_url(remote: str | None) -> str | None:
    """The repository's page on its host, from its remote, credentials never kept
    (`git@github.com:acme/payments.git` -> `https://github.com/acme/payments`); None for a
    remote that is a path on disk."""
    found = _SSH.match(remote or "") or _WEB.match(remote or "")
    return f"https://{found.group(1)}/{found.group(2)}" if found else None


def _versions(ws: Workspace, records: list[Any]) -> dict[str, list[dict[str, Any]]]:
    """Each record's versions as `adr log --json` gives them, from one walk of the history;
    none when git cannot say (a repository with no commits)."""
    from adr_memory.errors import AdrError
    from adr_memory.history import versions

    try:
        history = versions.walk(ws)
        return {rec.path: log.log_json(rec, versions.versions(ws, rec, history))["versions"] for rec in records}
    except AdrError:
        return {}


def _key(rec: Any) -> tuple[str | None, str | None, str | None]:
    key = rec.meta.get("conflict-key")
    if not isinstance(key, str) or not key.strip():
        return None, None, None
    cardinality = str(rec.meta.get("cardinality") or "single").strip().lower()
    return key.strip(), cardinality, str(rec.meta.get("value") or "").strip()
