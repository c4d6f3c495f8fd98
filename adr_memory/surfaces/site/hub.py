"""`adr hub site`: every repository's decisions as one static site, read from the hub: an index
of them all, a page per repository (the filter, as plain links: the pages run no script), and a
page per decision that links back to its file in its repository, at the commit published.

Record text is anyone's text: it is rendered as the repository's own site renders it (raw HTML
off, only web, mail and relative links kept), and every value the templates print is escaped."""

from __future__ import annotations

import hashlib
import os
import time
from importlib import resources
from pathlib import Path
from typing import Any

from markupsafe import Markup

from adr_memory import __version__
from adr_memory.base import cache
from adr_memory.errors import AdrError
from adr_memory.surfaces.site import markup
from adr_memory.surfaces.site.build import MARKER, check_folder, environment, swap_in, write_files


def _slug(text: str) -> str:
    """A file name for any name: readable, and unique by a hash of the whole."""
    plain = "".join(c if c.isalnum() or c in "-_." else "-" for c in text)[:60].strip(".")
    return f"{plain}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def build(docs: list[dict[str, Any]], out: Path, title: str = "Decisions") -> int:
    """Write the site for `docs` (the hub's records) into `out`, replacing what was there as a
    whole; the number of pages written."""
    repositories = sorted({d["repository"] for d in docs})
    listed = [{"name": r, "page": f"repositories/{_slug(r)}.html"} for r in repositories]
    rows = [
        {**d, "page": f"decisions/{_slug(d['repository'])}/{_slug(d['id'])}.html"}
        | {"repository_page": f"repositories/{_slug(d['repository'])}.html"}
        for d in sorted(docs, key=lambda d: (d["repository"], d["id"]))
    ]
    env = environment()
    common = {
        "site": {"title": title},
        "canonical": None,
        "repositories": listed,
        "footer": footer_line(len(rows), len(listed)),
    }
    pages: dict[str, str] = {
        "index.html": env.get_template("hub_index.html").render(
            common, kind="index", root="", current=None, decisions=rows, link=None
        )
    }
    for r in listed:
        own = [d for d in rows if d["repository"] == r["name"]]
        link = next((d["link"].split("/blob/", 1)[0] for d in own if d.get("link")), None)
        pages[r["page"]] = env.get_template("hub_index.html").render(
            common, kind="repository", root="../", current=r["name"], decisions=own, link=link
        )
    page = env.get_template("hub_decision.html")
    for d in rows:
        pages[d["page"]] = page.render(
            common, kind="decision", root="../../", current=d["repository"], d=d, body=body(d)
        )
    _write(out, pages)
    return len(pages)


def body(d: dict[str, Any], root: str = "../../") -> Markup:
    """The record's sections as its own site shows them; links to its neighbours keep their
    words (their pages are the hub's, not the repository's). The served hub's pages too."""
    page = markup.Page(record_path=d.get("path") or "", pages={}, root=root, local_file=lambda _rel: None)
    parts = []
    for section in d.get("sections") or []:
        text = f"## {section.get('heading') or ''}\n\n{section.get('text') or ''}"
        rst = (d.get("path") or "").endswith(".rst")
        parts.append(markup.preformatted(text) if rst else markup.markdown(text, page))
    return Markup("\n".join(parts))  # built by the markdown renderer, raw HTML off


def signature() -> str:
    return f"adr-memory {__version__} · {time.strftime('%Y-%m-%d')}"


def footer_line(decisions: int, repositories: int) -> str:
    return (
        f"{decisions} decisions of {repositories} repositories · adr-memory {__version__} · {time.strftime('%Y-%m-%d')}"
    )


def _write(out: Path, pages: dict[str, str]) -> None:
    """Pages and assets into a folder beside `out`, then put in its place: a reader never sees
    half a site, a build that fails leaves the old one, and a folder of a user's files is never
    replaced."""
    target = out.absolute()
    check_folder(target)
    files: dict[str, bytes | Path] = {MARKER: b"written by adr hub site; the next build replaces this folder whole\n"}
    files |= {rel: text.encode("utf-8") for rel, text in pages.items()}
    for name in ("site.css", "icon.svg"):
        files[f"assets/{name}"] = resources.files("adr_memory.surfaces.site").joinpath("assets", name).read_bytes()
    staging = target.with_name(f".{target.name}.building-{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_files(staging, files)
        swap_in(staging, target)
    except OSError as exc:
        raise AdrError(
            f"cannot write the site to {target}: {exc.strerror or exc}", hint="the old site, if any, is untouched"
        ) from None
    finally:
        cache.remove_marked(staging, MARKER)
