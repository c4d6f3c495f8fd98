"""The output formats a command writes (`--format`), one enum for all of them.

Each command offers some of them, in the order its help lists them; a format typed that it does
not offer is one usage error naming those it does. `md` is markdown's short name everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from adr_memory.errors import UsageError


class Format(StrEnum):
    TEXT = "text"  # for a person at a terminal
    JSON = "json"  # one document (shapes in docs/reference.md)
    JSONL = "jsonl"  # one JSON object per line
    GITHUB = "github"  # GitHub workflow commands: annotations on the lines a finding names
    MARKDOWN = "markdown"  # a pull-request comment, a document
    MERMAID = "mermaid"  # a graph GitHub draws
    DOT = "dot"  # a graph for Graphviz


_ALIASES = {"md": Format.MARKDOWN}

# What each command offers, its default first.
CHECK = (Format.TEXT, Format.JSON, Format.GITHUB, Format.MARKDOWN)
REVIEW = (Format.MARKDOWN, Format.JSON)
EXPORT = (Format.JSON, Format.JSONL, Format.MARKDOWN)
GRAPH = (Format.MERMAID, Format.DOT)


def chosen(typed: str, offered: Sequence[Format]) -> Format:
    """The format `typed` names, when the command offers it."""
    name = typed.strip().lower()
    found = _ALIASES.get(name) or next((f for f in Format if f.value == name), None)
    if found is None or found not in offered:
        raise UsageError(f"unknown format {typed!r}", hint=f"use --format {listed(offered)}")
    return found


def listed(offered: Sequence[Format]) -> str:
    """`text, json, github or markdown`."""
    names = [f.value for f in offered]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
