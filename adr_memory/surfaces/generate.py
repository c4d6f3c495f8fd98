"""`adr generate toc` and `adr generate graph`: derived views of the catalog."""

from __future__ import annotations

import posixpath
import re

from adr_memory.base import safe
from adr_memory.commands import generate as drawing
from adr_memory.records import MD_LINK, Catalog, scrub, standing
from adr_memory.surfaces.formats import Format


def toc(drawn: drawing.Drawn | Catalog, *, relative_to: str | None = None) -> str:
    """A markdown index: one line per record with its status (what holds, where its file says
    otherwise), links relative to the ADR folder."""
    drawn = drawn if isinstance(drawn, drawing.Drawn) else drawing.Drawn.of(drawn)
    catalog, standings = drawn.catalog, drawn.standings
    base = relative_to if relative_to is not None else catalog.adr_dir
    lines = ["# Architecture Decision Records", ""]
    for rec in catalog:
        link = posixpath.relpath(rec.path, base or ".")
        held = standings[rec.path]
        status = _rebased(rec.status_text, posixpath.dirname(rec.path), base) or rec.status
        if held.status != rec.status or held.state == standing.SUCCESSOR_PROPOSED:
            status = held.describe()  # what the file says is not what holds: the standing, as list says
        lines.append(f"* [{rec.id}: {_escape(rec.title)}]({link}) ({status})")
    return "\n".join(lines) + "\n"


def _rebased(text: str, folder: str, base: str) -> str:
    """`text` with its relative markdown links (`Superseded by [2. X](../ui/0002-x.md)`, written
    from the record's folder) written from the index's folder instead."""

    def rebase(match: re.Match[str]) -> str:
        href = match.group(2)
        if "://" in href or href.startswith(("#", "/", "mailto:")):
            return match.group(0)
        moved = posixpath.relpath(posixpath.normpath(posixpath.join(folder, href)), base or ".")
        return match.group(0).replace(f"({href}", f"({moved}", 1)

    return MD_LINK.sub(rebase, text)


def _escape(text: str) -> str:
    text = scrub(text)
    return text.replace("[", "\\[").replace("]", "\\]")


def graph(drawn: drawing.Drawn | Catalog, fmt: Format = Format.MERMAID) -> str:
    """The decisions and their links as a mermaid flowchart or a graphviz digraph."""
    drawn = drawn if isinstance(drawn, drawing.Drawn) else drawing.Drawn.of(drawn)
    catalog, standings = drawn.catalog, drawn.standings
    if fmt == "dot":
        return _dot(drawn)
    lines = ["graph TD"]
    for rec in catalog:
        lines.append(f'  {_node(rec.id)}["{rec.id}: {_quote(rec.title)} ({standings[rec.path].status})"]')
    for src, dst, label in drawing.edges(catalog):
        lines.append(f"  {_node(src)} -->|{label}| {_node(dst)}")  # a relation is words: record._rel
    return "\n".join(lines) + "\n"


def _dot(drawn: drawing.Drawn) -> str:
    catalog, standings = drawn.catalog, drawn.standings
    lines = ["digraph adr {", "  rankdir=LR;", "  node [shape=box];"]
    for rec in catalog:
        style = ", style=dashed" if standings[rec.path].state in (standing.RETIRED, standing.EXCEPTION) else ""
        lines.append(f'  "{_dot_text(rec.id)}" [label="{_dot_text(rec.id)}\\n{_dot_text(rec.title)}"{style}];')
    for src, dst, label in drawing.edges(catalog):
        lines.append(f'  "{_dot_text(src)}" -> "{_dot_text(dst)}" [label="{_dot_text(label)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node(ident: str) -> str:
    return "n_" + "".join(c if c.isalnum() else "_" for c in ident)


def _quote(text: str) -> str:
    """Record text inside a quoted mermaid label: one line (a line break would end the node and
    start a statement of the record's choosing), no double quote."""
    return safe.one_line(scrub(text)).replace('"', "'")


def _dot_text(text: str) -> str:
    """Record text inside a quoted DOT string: one line, and no backslash left to escape its end."""
    return _quote(text).replace("\\", "\\\\")
