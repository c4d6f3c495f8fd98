"""`adr sources add|update|list|remove`: other repositories' decision folders, pinned in git
(history/sources.py, ADR-0097)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from adr_memory.base import CONFIG_FILE, SOURCE_NAME, kept_file, same_repository, write_atomic
from adr_memory.errors import UsageError
from adr_memory.history import Workspace, sources
from adr_memory.records import redact_url


def add(ws: Workspace, name: str, url: str, ref: str = "main", dir: str = "") -> dict[str, Any]:
    """Name another repository's decision folder in `.adr-memory.toml` (a `[sources.NAME]`
    table appended, every other byte kept); `adr sources update` then fetches and pins it."""
    if not SOURCE_NAME.fullmatch(name):
        raise UsageError(f"source name {name!r} is not a short lowercase name", hint="e.g. platform")
    if any(s.name == name for s in ws.config.sources):
        raise UsageError(f"source {name} is already in {CONFIG_FILE}", hint=f"adr sources update {name}")
    twin = next((s for s in ws.config.sources if same_repository(s.url) == same_repository(url)), None)
    if twin is not None:
        raise UsageError(
            f"source {twin.name} already reads {redact_url(url)}",
            hint=f"one name per repository: adr sources update {twin.name}",
        )
    typed = url
    url, stripped = without_credentials(url)
    held = typed if stripped else ""
    path = kept_file(ws.root, CONFIG_FILE)
    before = path.read_bytes().decode("utf-8") if path.exists() else ""  # bytes: its line endings stay
    end = "\r\n" if "\r\n" in before else "\n"
    table = [f"[sources.{name}]", f"url = {json.dumps(url)}", f"ref = {json.dumps(ref or 'main')}"]
    table += [f"dir = {json.dumps(dir)}"] if dir else []
    joiner = "" if not before or before.endswith(end * 2) else (end if before.endswith(end) else end * 2)
    write_atomic(path, (before + joiner + end.join(table) + end).encode("utf-8"))
    return {
        "added": name,
        "url": redact_url(url),
        "config": CONFIG_FILE,
        # the credential typed in the URL went nowhere: where `sources update` takes one from
        "credential": _where_credentials_go(name, held) if held else None,
    }


def _where_credentials_go(name: str, url: str) -> str:
    token = sources.token_variable(name)
    user = token.replace("_TOKEN_", "_USER_")
    parts = urlsplit(url)  # `user:token@` names a user; `token@` alone is the token (GitHub's form)
    named = bool(parts.password) and parts.username not in (None, "", "git", "oauth2", "x-access-token")
    return f"not written: set {token}" + (f" (and {user})" if named else "") + ", or keep it in git's credential store"


def without_credentials(url: str) -> tuple[str, bool]:
    """`url` without a user or token (`https://user:tok@host/x`, `?token=...`), and whether it
    held one: the config is committed, a credential never is."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return url, False
    host = parts.netloc.rpartition("@")[2]
    query = "&".join(q for q in parts.query.split("&") if q and not _SECRET_PARAM.search(q.partition("=")[0]))
    clean = urlunsplit((parts.scheme, host, parts.path, query, parts.fragment))
    return clean, clean != url


_SECRET_PARAM = re.compile(r"token|key|secret|passw|auth", re.IGNORECASE)  # in a query parameter's name


def remove(ws: Workspace, name: str) -> dict[str, Any]:
    """Take a source out: its `[sources.NAME]` table from `.adr-memory.toml` (every other byte
    kept) and its pin and reviews from `adr-sources.lock`. Commit both to stop reading it."""
    if not any(s.name == name for s in ws.config.sources):
        known = ", ".join(s.name for s in ws.config.sources) or "none"
        raise UsageError(f"no source {name!r}", hint=f"known: {known}")
    path = kept_file(ws.root, CONFIG_FILE)
    text = path.read_bytes().decode("utf-8")
    write_atomic(path, _without_table(text, f"sources.{name}").encode("utf-8"))
    if (ws.root / sources.LOCK).exists():
        pins = {k: v for k, v in sources.read_lock(ws.root).items() if k != name}
        reviews = {k: v for k, v in sources.read_reviews(ws.root).items() if not k.startswith(f"{name}:")}
        sources.write_lock(ws.root, pins, reviews)
    return {"removed": name, "config": CONFIG_FILE, "lock": sources.LOCK}


def _without_table(text: str, table: str) -> str:
    """The TOML text without the table `[table]` (its header down to the next header), and the
    blank line that set it apart; every other line as it was."""
    lines = text.splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(map(re.escape, table.split("."))) + r"\s*\]\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if header.match(line.rstrip("\r\n"))), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    while end > start + 1 and not lines[end - 1].strip() and end < len(lines):
        end -= 1  # the blank lines before the next table stay with it
    if start > 0 and not lines[start - 1].strip():
        start -= 1
    return "".join(lines[:start] + lines[end:])


def update(ws: Workspace, names: list[str] | None = None) -> dict[str, Any]:
    """Fetch the named sources (all, without names) and pin each to the commit its ref names
    now, in `adr-sources.lock`: commit that file to move what every check here reads."""
    done = sources.update(ws, names)
    return {
        "lock": sources.LOCK,
        "sources": [
            {
                "name": u.pin.name,
                **u.pin.to_json(),
                "before": u.before,
                "moved": u.before != u.pin.commit,
                "note": u.note,
            }
            for u in done
        ],
    }


def listing(ws: Workspace) -> dict[str, Any]:
    """Each source: its URL (credentials never shown), ref, pinned commit and date, how many
    decisions it holds there, and whether its copy is here (else the problem, in one line)."""
    out = []
    for folder in ws.sources:
        pin = folder.pin
        out.append(
            {
                "name": folder.spec.name,
                "url": redact_url(folder.spec.url),
                "ref": folder.spec.ref,
                "commit": pin.commit if pin else None,
                "date": pin.date if pin else None,
                "dir": pin.dir if pin else folder.spec.dir or None,
                "records": len(folder.records),
                "fetched": folder.catalog is not None,
                "problem": folder.problem,
            }
        )
    return {"sources": out}
