"""`adr site`: write the pages, the assets and the search data into a fresh folder, then swap
it in whole, so a reader (or a web server) never sees half a site.

The folder it replaces must be one it wrote (it holds `.adr-site`), and it may not lie inside
the ADR folder or hold the repository: the command never deletes what it did not make.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from adr_memory.base import cache, locked
from adr_memory.commands import generate as drawing
from adr_memory.commands import site as gathered
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Workspace
from adr_memory.records import STATUSES, plain
from adr_memory.surfaces.site import graph, markup

MARKER = ".adr-site"
TIMELINE_PAGE = 200  # events per timeline page: a long history stays a page a phone opens
_SEARCH_TEXT = 50_000  # characters of a record's text that in-page search reads
# A setext title starts at a non-space: `\s*` then `[^\n]+` would share a run of blanks (quadratic).
_H1 = re.compile(r"\A\s*(?:#[ \t]+[^\n]*|\S[^\n]*\n=+[ \t]*)(?:\n|\Z)")


@dataclass
class Built:
    out: Path
    decisions: int
    files: list[str] = field(default_factory=list)
    bytes: int = 0
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "decisions": self.decisions,
            "files": self.files,
            "bytes": self.bytes,
            "index": str(self.out / "index.html"),
            "note": self.note,
        }


def default_out(ws: Workspace) -> Path:
    return cache.ensure(ws.cache_path) / "site"


def build(ws: Workspace, out: Path | None = None, *, base_url: str | None = None, title: str | None = None) -> Built:
    target = (out or default_out(ws)).absolute()
    _check_target(ws, target)
    if base_url is not None and not re.match(r"^https?://[^\s<>\"']+$", base_url):
        raise UsageError(
            f"--base-url {base_url!r} is not a web address", hint="e.g. --base-url https://org.github.io/repo/"
        )
    site = gathered.gather(ws, title or f"{ws.root.name}: architecture decisions")
    files = _render(ws, site, base_url.rstrip("/") + "/" if base_url else None)
    staging = target.with_name(f".{target.name}.building-{os.getpid()}")
    try:
        write_files(staging, files)
        _swap(ws, staging, target)
    except OSError as exc:  # a full disk, a folder that cannot be written: the old site stays
        raise AdrError(
            f"cannot write the site to {target}: {exc.strerror or exc}",
            hint="free some space or fix the folder's permissions, or name another folder with --out",
        ) from None
    finally:
        cache.remove_marked(staging, MARKER)
    written = sorted(files)
    size = sum(len(data) if isinstance(data, bytes) else data.stat().st_size for data in files.values())
    return Built(target, len(site.decisions), written, size, site.note)


def _check_target(ws: Workspace, target: Path) -> None:
    real = target.resolve()
    adr = ws.adr_path.resolve()
    root = ws.root.resolve()
    if real == adr or real.is_relative_to(adr):
        raise UsageError(f"{target} is inside the ADR folder", hint="write the site elsewhere, e.g. --out site")
    if real == root or root.is_relative_to(real):
        raise UsageError(f"{target} holds the repository", hint="name a folder of its own, e.g. --out site")
    check_folder(target)


def check_folder(target: Path) -> None:
    """A folder a site may be written to: new, empty, or a site we wrote (never a user's files)."""
    real = target.resolve()
    if real.is_file():
        raise UsageError(f"{target} is a file", hint="name a folder, e.g. --out site")
    if real.is_dir() and any(real.iterdir()) and not (real / MARKER).is_file():
        raise UsageError(
            f"{target} holds files adr did not write",
            hint="name an empty or new folder; a site replaces only a site adr built",
        )


def write_files(staging: Path, files: dict[str, bytes | Path]) -> None:
    cache.remove_marked(staging, MARKER)  # what a build killed with this process id left
    for rel, data in files.items():  # the marker first: a half-written folder is ours to remove
        path = staging / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, Path):
            shutil.copyfile(data, path)
        else:
            path.write_bytes(data)


def _swap(ws: Workspace, staging: Path, target: Path) -> None:
    """Put the new site in place of the old one: two renames, the old one removed after; one
    build at a time swaps (two `adr site` runs at once each finish, the later one's site stays).
    The lock lives in the cache, so nothing is left beside the site."""
    target.parent.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(str(target).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    try:
        lock = cache.entry(cache.ensure(ws.cache_path), f"site-{key}.lock")
    except AdrError:  # no cache to hold a lock: a single build is the common case
        lock = None
    with locked(lock) if lock is not None else contextlib.nullcontext():
        swap_in(staging, target)


def swap_in(staging: Path, target: Path) -> None:
    """The built folder in place of the old one: two renames, the old one removed after."""
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    staging.rename(target)
    cache.remove_marked(old, MARKER)


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' one environment: each template is compiled once a process (a served hub
    compiling its page's four templates on every request spent 80% of a page there)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("adr_memory.surfaces.site", "templates"),
        autoescape=True,  # every value a template prints is record text unless marked Markup here
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _render(ws: Workspace, site: gathered.Site, base_url: str | None) -> dict[str, bytes | Path]:
    env = environment()
    common = {"site": site, "note": site.note, "footer": _footer(site, _head(ws))}

    def page(template: str, rel: str, kind: str, **values: Any) -> bytes:
        root = "../" * rel.count("/")
        canonical = base_url + rel if base_url else None
        html = env.get_template(template).render(**common, root=root, kind=kind, canonical=canonical, **values)
        return html.encode("utf-8")

    files: dict[str, bytes | Path] = {MARKER: b"written by adr site; the next build replaces this folder whole\n"}
    for name in ("site.css", "site.js", "icon.svg"):
        files[f"assets/{name}"] = resources.files("adr_memory.surfaces.site").joinpath("assets", name).read_bytes()
    counts = Counter(d.record.status for d in site.decisions)
    order = [s for s in (*STATUSES, "unknown") if counts[s]]
    tags = sorted({t for d in site.decisions for t in d.record.tags}, key=str.lower)
    files["index.html"] = page(
        "index.html",
        "index.html",
        "index",
        decisions=site.decisions,
        counts=[(s, counts[s]) for s in order],
        tags=tags,
        sourced=site.sourced,
    )
    pages = {d.record.path: d.page for d in site.decisions}
    for d in [*site.decisions, *site.sourced]:
        body, copied = _body(ws, d, pages)
        files.update(copied)
        versions_js = d.page.removesuffix(".html") + ".versions.js"
        if len(d.texts) > 1:
            files[versions_js] = _script("ADR_VERSIONS", d.texts)
        files[d.page] = page(
            "decision.html", d.page, "decision", d=d, body=body, versions_js=versions_js.split("/")[-1]
        )
    chunks = [site.timeline[i : i + TIMELINE_PAGE] for i in range(0, len(site.timeline), TIMELINE_PAGE)] or [[]]
    names = ["timeline.html"] + [f"timeline-{n}.html" for n in range(2, len(chunks) + 1)]
    for n, (name, chunk) in enumerate(zip(names, chunks), start=1):
        files[name] = page("timeline.html", name, "timeline", happenings=chunk, pages=names, page=n)
    svg = graph.svg(site.decisions, drawing.edges(ws.catalog), "")
    files["graph.html"] = page("graph.html", "graph.html", "graph", svg=Markup(svg))
    files["search.html"] = page("search.html", "search.html", "search")
    files["assets/search-data.js"] = _script("ADR_SEARCH", [_searched(d, i) for i, d in enumerate(site.decisions)])
    return files


def _body(ws: Workspace, d: gathered.Decision, pages: dict[str, str]) -> tuple[Markup, dict[str, bytes | Path]]:
    text = d.record.body
    where = markup.Page(d.record.path, pages, "../", lambda rel: _kept_image(ws, rel))
    if d.rst:
        return Markup(markup.restructured(text, where)), {}
    found = _H1.match(text)
    if found:  # the page's own heading says it
        text = text[found.end() :]
    rendered = markup.markdown(text, where)
    return Markup(rendered), dict(where.copied)


def _kept_image(ws: Workspace, rel: str) -> Path | None:
    """A picture the repository keeps at `rel`, when it is a plain file inside the repository
    (a link out of it, or to a device, is not copied), and an SVG only when it is inert: one
    opened from the site runs its script in the site's origin (on GitHub Pages, the whole
    organisation's)."""
    root = ws.root.resolve()
    try:
        path = (ws.root / rel).resolve()
    except (OSError, RuntimeError):
        return None
    if not (path.is_relative_to(root) and path.is_file()):
        return None
    if path.suffix.lower() == ".svg" and not markup.inert_svg(path):
        return None
    return path


def _searched(d: gathered.Decision, order: int) -> dict[str, Any]:
    rec = d.record
    text = plain(" ".join(f"{s.heading}. {s.text}" for s in rec.parts))  # a snippet shows no markdown
    return {
        "id": rec.id,
        "number": rec.number,
        "title": rec.title,
        "status": rec.status,
        "tags": list(rec.tags),
        "url": d.page,
        "order": order,
        "text": text[:_SEARCH_TEXT],
    }


def _script(name: str, data: Any) -> bytes:
    """Data as a script that sets `window.<name>`: a page opened from disk may not fetch JSON,
    but may run a script beside it. `<` is escaped so no text can end a script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.{name}={text};\n".encode()


def _head(ws: Workspace) -> str | None:
    try:
        return ws.repo.head()
    except AdrError:  # no repository, or a HEAD that does not read: the pages say "work tree"
        return None


def _footer(site: gathered.Site, head: str | None) -> str:
    built = f"from commit {head[:10]}" if head else "from the work tree (no commit yet)"
    return f"{len(site.decisions)} decisions, built by adr-memory {built}."
