"""The hub kept in a folder: a file per repository, each replaced whole by an atomic rename, so
a reader sees a repository's old state or its new one, never half, and a killed publish leaves
the old one. Nothing to run: what a small team tries first."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from adr_memory.base import locked, write_atomic
from adr_memory.errors import AdrError, UsageError
from adr_memory.hub import wording
from adr_memory.hub.snapshot import Snapshot
from adr_memory.records import redact_url

MARKER = "adr-hub.json"
TOKENS = "tokens.json"  # names, scopes and hashes: never a token itself
VERSION = 1


class FolderStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        # path -> (its stat, what it holds): a long-lived reader (an MCP server) parses a
        # repository's file again only when a publish replaced it
        self._loaded: dict[Path, tuple[tuple[int, int, int], str, Snapshot, str | None]] = {}
        self._texts: dict[str, dict[tuple[str, str], str]] = {}  # repository -> its versions' texts
        self._words: dict[str, tuple[Snapshot, frozenset[str]]] = {}  # each repository's words, as parsed

    def _marked(self) -> None:
        if not (self.root / MARKER).is_file():
            shown = redact_url(str(self.root))  # a URL no store reads lands here, credentials and all
            raise UsageError(f"{shown} is no hub folder", hint=f"adr hub init --to {shown}")

    def init(self) -> list[str]:
        if (self.root / MARKER).is_file():
            return []
        if self.root.exists() and any(self.root.iterdir()):
            raise UsageError(f"{self.root} holds files of its own", hint="name an empty or new folder")
        (self.root / "repos").mkdir(parents=True, exist_ok=True)
        write_atomic(self.root / MARKER, json.dumps({"version": VERSION}).encode())
        return [f"created the hub folder {self.root}"]

    def _file(self, name: str) -> Path:
        stem = "".join(c if c.isalnum() or c in "-_." else "-" for c in name)[:80]
        return self.root / "repos" / f"{stem}-{hashlib.sha256(name.encode()).hexdigest()[:8]}.json"

    def publish(self, snap: Snapshot) -> str:
        self._marked()
        path = self._file(snap.repository)
        with locked(self.root / "repos" / ".publish.lock"):
            try:
                held = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                held = {}
            if held.get("digest") == snap.digest:
                return "unchanged"
            if snap.older_than(held.get("committed")):
                return "older"
            data = {**snap.to_json(), "published_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            try:
                write_atomic(path, json.dumps(data).encode())
            except AdrError as exc:
                raise AdrError(
                    f"cannot publish to the hub folder: {exc.message}", hint="nothing was published"
                ) from None
        return "published"

    def _all(self) -> dict[str, tuple[Snapshot, str | None]]:
        self._marked()
        out: dict[str, tuple[Snapshot, str | None]] = {}
        for path in sorted((self.root / "repos").glob("*.json")):
            try:
                st = path.stat()
                stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
                kept = self._loaded.get(path)
                if kept is None or kept[0] != stamp:
                    data = json.loads(path.read_text(encoding="utf-8"))
                    snap = Snapshot.from_json(data)
                    snap.records, self._texts[data["repository"]] = snap.split_texts()
                    kept = (stamp, data["repository"], snap, data.get("published_at"))
                    self._loaded[path] = kept
                out[kept[1]] = (kept[2], kept[3])
            except (OSError, ValueError, KeyError, TypeError):  # a file being replaced, or damaged: skipped
                continue
        return out

    def repositories(self) -> list[dict[str, Any]]:
        return [
            {"name": name, "commit": snap.commit, "published_at": when, "records": len(snap.records)}
            for name, (snap, when) in self._all().items()
        ]

    def holds(self, repository: str) -> bool:
        return repository in self._all()

    def count(self) -> int:
        return len(self._all())

    def records(self, repository: str | None = None) -> list[dict[str, Any]]:
        return [
            {**doc, "repository": name}
            for name, (snap, _when) in self._all().items()
            if repository in (None, name)
            for doc in snap.records
        ]

    def nearest(
        self, vector: Any, limit: int, repository: str | None = None, status: str = "", tag: str = ""
    ) -> list[tuple[str, str, str, str, float, int]]:
        import numpy as np

        rows: list[tuple[str, str, str, str, float, int]] = []
        for name, (snap, _when) in self._all().items():
            if repository not in (None, name) or snap.vectors is None or not len(snap.chunks):
                continue
            scores = snap.vectors @ np.asarray(vector, dtype=np.float32)
            if status or tag:
                kept = {d["id"] for d in snap.records if _has(d, status, tag)}
                scores[[c["id"] not in kept for c in snap.chunks]] = -np.inf
            for i in np.argsort(-scores)[:limit]:
                if not np.isfinite(scores[int(i)]):
                    break
                chunk = snap.chunks[int(i)]
                rows.append(
                    (
                        name,
                        chunk["id"],
                        chunk["section"],
                        chunk["text"],
                        float(scores[int(i)]),
                        int(chunk.get("offset", 0)),
                    )
                )
        return sorted(rows, key=lambda r: -r[4])[:limit]

    def docs(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, Any]]:
        wanted = set(keys)
        return {(d["repository"], d["id"]): d for d in self.records() if (d["repository"], d["id"]) in wanted}

    def unused(self, words: list[str], repository: str | None = None) -> list[str]:
        vocabulary: set[str] = set()
        for name, (snap, _when) in self._all().items():
            if repository in (None, name):
                vocabulary |= self._vocabulary(name, snap)
        return [w for w in words if not wording.uses(vocabulary, w)]

    def _vocabulary(self, name: str, snap: Snapshot) -> frozenset[str]:
        kept = self._words.get(name)
        if kept is None or kept[0] is not snap:  # a publish replaced it
            kept = (snap, frozenset(w for c in snap.chunks for w in wording.words_in(c["text"])))
            self._words[name] = kept
        return kept[1]

    def version_text(self, repository: str, ident: str, version_id: str) -> str | None:
        return self._texts.get(repository, {}).get((ident, version_id)) if repository in self._all() else None

    def followers(self, repository: str, ident: str) -> list[dict[str, Any]]:
        return [
            {"follower": name, **{k: f.get(k) for k in ("state", "reason", "exception")}}
            for name, (snap, _when) in self._all().items()
            for f in snap.following
            if (f.get("repository"), f.get("id")) == (repository, ident)
        ]

    def remove(self, repository: str) -> bool:
        self._marked()
        with locked(self.root / "repos" / ".publish.lock"):
            path = self._file(repository)
            if not path.is_file():
                return False
            path.unlink()
        return True

    def rename(self, old: str, new: str) -> bool:
        self._marked()
        with locked(self.root / "repos" / ".publish.lock"):
            path = self._file(old)
            if not path.is_file():
                return False
            if self._file(new).is_file():
                raise UsageError(f"the hub holds {new!r} already", hint=f"adr hub remove {new} first")
            data = json.loads(path.read_text(encoding="utf-8"))
            snap = Snapshot.from_json({**data, "repository": new})
            kept = {**snap.to_json(), "published_at": data.get("published_at")}
            write_atomic(self._file(new), json.dumps(kept).encode())
            path.unlink()
            for other in sorted((self.root / "repos").glob("*.json")):  # what the others say of it follows it
                self._renamed_in(other, old, new)
        return True

    def _renamed_in(self, path: Path, old: str, new: str) -> None:
        """`old` named `new` in what the repository in `path` follows and excepts."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        named = list(data.get("following") or [])
        named += [e for d in data.get("records") or [] for e in d.get("exceptions") or []]
        hits = [x for x in named if isinstance(x, dict) and x.get("repository") == old]
        for x in hits:
            x["repository"] = new
        if hits:
            write_atomic(path, json.dumps(data).encode())

    def _tokens(self) -> dict[str, dict[str, Any]]:
        try:
            held = json.loads((self.root / TOKENS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return held if isinstance(held, dict) else {}

    def _keep_tokens(self, held: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.root / TOKENS, json.dumps(held, indent=1).encode())

    def add_token(self, name: str, digest: str, scopes: list[str]) -> None:
        self._marked()
        with locked(self.root / ".tokens.lock"):
            held = self._tokens()
            if name in held and not held[name].get("revoked"):  # a revoked one's name is free again
                raise UsageError(f"a token named {name!r} exists", hint=f"adr hub token revoke {name}, or another name")
            held[name] = {"digest": digest, "scopes": scopes, "created": _now(), "last_used": None, "revoked": None}
            self._keep_tokens(held)

    def tokens(self) -> list[dict[str, Any]]:
        self._marked()
        return [
            {"name": n, **{k: t.get(k) for k in ("scopes", "created", "last_used", "revoked")}}
            for n, t in sorted(self._tokens().items())
        ]

    def revoke(self, name: str) -> bool:
        self._marked()
        with locked(self.root / ".tokens.lock"):
            held = self._tokens()
            if name not in held:
                return False
            held[name]["revoked"] = held[name].get("revoked") or _now()
            self._keep_tokens(held)
        return True

    def token(self, digest: str) -> dict[str, Any] | None:
        for name, held in self._tokens().items():
            if held.get("digest") == digest and not held.get("revoked"):
                if held.get("last_used") != (now := _now()):  # a minute's precision: one write a minute
                    with locked(self.root / ".tokens.lock"):
                        fresh = self._tokens()
                        if name in fresh:
                            fresh[name]["last_used"] = now
                            self._keep_tokens(fresh)
                return {"name": name, "scopes": list(held.get("scopes") or [])}
        return None

    def close(self) -> None:
        self._loaded.clear()
        self._texts.clear()
        self._words.clear()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())


def _has(doc: dict[str, Any], status: str, tag: str) -> bool:
    return (not status or doc.get("status") == status) and (not tag or tag in (doc.get("tags") or []))
