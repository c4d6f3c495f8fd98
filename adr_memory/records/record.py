"""The parsed record (`Record`): id, title, status, metadata, sections and links, and what it
opens with."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adr_memory.records.frontmatter import without_comments
from adr_memory.records.grammar import STATUS_LOG
from adr_memory.records.model import OPENING, WHOLE, Link, Problem, Section
from adr_memory.records.text import (
    _PLAIN_FIELD,
    _TABLE_KEYS,
    FIELD_LIST,
    LIFECYCLE_LINE,
    _undressed,
    is_rule,
    table_cells,
)

# The problems that leave a file no record at all, only the problem.
UNREAD_KINDS = ("binary", "too-large", "symlink", "unreadable")


@dataclass(frozen=True)
class Record:
    path: str  # repo-relative, posix
    number: int | None
    id: str
    title: str
    heading: str  # the first "# " heading as written
    status: str  # normalised: one of STATUSES or "unknown"
    status_text: str  # as written
    date: str | None
    tags: tuple[str, ...]
    governs: tuple[str, ...]
    links: tuple[Link, ...]
    rules: tuple[Any, ...]
    reviewed: Mapping[str, Any] | None
    meta: Mapping[str, Any]
    body: str
    sections: tuple[Section, ...]
    format: str  # frontmatter | madr | nygard | tendermint | plain
    problems: tuple[Problem, ...] = field(default=())
    body_line: int = 1  # file line where the body starts (after the frontmatter)
    status_line: int = 0  # file line holding a status written in the body (0: frontmatter/none)
    status_stated: bool = True  # False: the record says no status; MADR makes it optional
    preamble: str = ""  # the lines between the title and the first section, as written
    source: str = ""  # the source (another repository) it is read from; "" for this repository's own
    key_lines: tuple[tuple[str, int], ...] = ()  # frontmatter key -> the file line that writes it

    def line_of(self, key: str) -> int:
        """Where a finding about `key` points: the line that writes it (the status's body line,
        a frontmatter key's own), else the file's first. A supersession the record does not
        write yet points at its status, where writing it changes the record."""
        if key == "status" and self.status_line:
            return self.status_line
        lines = dict(self.key_lines)
        if key in ("supersedes", "superseded-by") and key not in lines:
            return self.line_of("status")
        return lines.get(key, 1)

    @property
    def unread(self) -> bool:
        """Whether the file could not be read as a record at all (binary, too large, a symlink,
        unreadable): it is listed with its problem and decides nothing."""
        return any(p.kind in UNREAD_KINDS for p in self.problems)

    @property
    def status_reason(self) -> str:
        """Why the status is what it is: `status-reason:` in frontmatter, else what the status
        text says after its first word ("Deprecated: the service is gone")."""
        reason = self.meta.get("status-reason")
        if isinstance(reason, str) and reason.strip():
            return reason.strip()
        logged = STATUS_LOG.match(self.status_text)
        said = self.status_text[logged.end() :] if logged else self.status_text  # a log entry's date
        # after the word, not its reason's opening parenthesis: "Rejected (no budget)"
        rest = re.sub(r"^\W*\w+[^\w(]*", "", said, count=1) if self.status_stated else ""
        # "Superseded by [40. X](040-x.md) (X replaced Y)": the successor is a link, not a reason.
        rest = re.sub(r"^[\s:;,.-]+", "", _NAMED_SUCCESSORS.sub("", rest, count=1))
        return rest[1:-1].strip() if rest.startswith("(") and rest.endswith(")") else rest.strip()

    @property
    def status_shown(self) -> str:
        """The status as people read it: `accepted (unstated)` when the record states none."""
        return self.status if self.status_stated else f"{self.status} (unstated)"

    def linked(self, rel: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(link.target for link in self.links if link.rel == rel))

    @property
    def supersedes(self) -> tuple[str, ...]:
        return self.linked("supersedes")

    @property
    def superseded_by(self) -> tuple[str, ...]:
        return self.linked("superseded-by")

    @property
    def depends_on(self) -> tuple[str, ...]:
        return self.linked("depends-on")

    @property
    def parts(self) -> tuple[Section, ...]:
        """The sections, led by what the record says before the first of them (`opening`) as
        one more, named OPENING; a record without sections is that one part, named WHOLE."""
        text = opening(self.preamble)
        if not text:
            return self.sections
        name = OPENING if self.sections else WHOLE
        return (Section(name, 1, self.body_line, text, self.body_line),) + self.sections

    def section(self, *names: str) -> Section | None:
        """The first section whose heading starts with one of `names` (case-insensitive)."""
        wanted = tuple(n.lower() for n in names)
        for section in self.sections:
            if section.heading.lower().startswith(wanted):
                return section
        return None


# An MDX record's module lines (`import { Callout } from "..."`, `export const meta = ...`).
# What a status names after its word (`by [40. X](040-x.md)`, `by ADR-40 and ADR-41`): the
# records it relates to, which the links say; the words after them are the reason.
_ONE_NAMED = r"(?:\[[^\]\n]*\]\([^)\s]*\)|ADR[-\s]?\d+|#?\d+\b)"
_NAMED_SUCCESSORS = re.compile(
    r"^(?:by|in\s+favou?r\s+of)\b[\s:]*" + _ONE_NAMED + r"(?:[ \t]*(?:,|&|\band\b)[ \t]*" + _ONE_NAMED + r")*",
    re.IGNORECASE,
)
_ESM_LINE = re.compile(
    r"^(?:import\s[^\n]*?\bfrom\s*[\"']|import\s*[\"']"
    r"|export\s+(?:const|let|default|function)\b)"
)
# A table of contents' line: nothing but a link to a heading of the same page.
_CONTENTS_LINE = re.compile(r"^[ \t]*(?:[*+-][ \t]+|\d+\.[ \t]+)?\[[^\]\n]*\]\(#[^)\s]*\)[ \t]*$")


def opening(preamble: str) -> str:
    """What a record says between its title and its first section, as prose: without its
    status and date (however dressed, in a field list or a metadata table), without a table
    of contents, MDX module lines or comments. An introduction is part of the decision: search
    reads it."""
    kept: list[str] = []
    in_table = False  # inside a table one of whose rows names a metadata key
    for line in without_comments(preamble).split("\n"):
        cells = table_cells(line)
        if cells:
            in_table = in_table or any(c.lower() in _TABLE_KEYS for c in cells)
            if in_table or is_rule(cells):
                continue
        else:
            in_table = False
        field = FIELD_LIST.match(line)
        if (
            (field and _PLAIN_FIELD.match(f"{field.group(1)}: {field.group(2)}"))
            or LIFECYCLE_LINE.match(line)
            or _PLAIN_FIELD.match(_undressed(line))
            or _CONTENTS_LINE.match(line)
            or _ESM_LINE.match(line)
        ):
            continue
        kept.append(line)
    return "\n".join(kept).strip()
