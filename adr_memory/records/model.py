"""The record model's plain parts: the status vocabulary, the keys that link records, and the
sections, links and problems a parse yields."""

from __future__ import annotations

from dataclasses import dataclass, field

STATUSES = ("proposed", "accepted", "rejected", "deprecated", "superseded")


# Frontmatter link keys (ours, plus the spellings MADR and other tools use).
LINK_KEYS = {
    "supersedes": "supersedes",
    "superseded-by": "superseded-by",
    "superseded_by": "superseded-by",
    "supersededBy": "superseded-by",
    "replaced-by": "superseded-by",
    "replaced_by": "superseded-by",
    "replaces": "supersedes",
    "amends": "amends",
    "amended-by": "amended by",
    "amended_by": "amended by",
    "relates-to": "relates-to",
    "relates_to": "relates-to",
    "related": "relates-to",
    "depends-on": "depends-on",
    "depends_on": "depends-on",
}

# A title longer than this is a mistake (a paragraph run into the heading), or worse: lists
# and agents' answers show this much of it, and `adr check` warns.
MAX_TITLE = 200
# What `Record.parts` names the text before the first section, and a record's text without one.
OPENING, WHOLE = "Introduction", "Body"


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    level: int
    line: int  # 1-based line of the heading in the file
    text: str  # stripped of surrounding blank lines
    text_line: int = 0  # 1-based line where `text` starts


@dataclass(frozen=True, slots=True)
class Link:
    rel: str  # supersedes, superseded-by, relates-to, depends-on, or free text ("amends")
    target: str  # ADR-0007, or the text as written when it names no number
    line: int = 0
    file: str = field(default="", compare=False)  # the file a markdown link names, as written


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str
    message: str
    line: int = 0
    hint: str | None = None
    # The frontmatter key at fault: the parse places the problem on that key's line.
    key: str | None = field(default=None, compare=False)
