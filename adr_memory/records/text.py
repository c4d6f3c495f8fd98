"""Markdown text as records write it: ATX headings, fenced code, merge-conflict markers,
metadata lines, lists and tables of fields, and the section that states the status."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from adr_memory.records import languages, rst
from adr_memory.records.frontmatter import without_comments
from adr_memory.records.grammar import normalise_status
from adr_memory.records.model import Section

# A markdown heading's closing `#`s are stripped in code (`atx_heading`): `(.*?)[ \t]*#*[ \t]*$`
# splits a run of spaces between its two `[ \t]*` every way there is (a 2,000-space heading
# took 8 seconds).
_ATX = re.compile(r" {0,3}(#{1,6})[ \t]+(.*)")
_FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
_LIST_FIELD = re.compile(r"^\s*[*-]\s+([A-Za-z][\w \t-]*):\s*(.*)$")
# The day a record was written, under other names (backstage's `| Created | Status |`, `Recorded:`).
_DATE_NAMES = {"created": "date", "recorded": "date", "decided": "date"}
_LIFECYCLE_NAMES = "status|date|" + "|".join([*languages.FIELD_NAMES, *_DATE_NAMES])  # `- Statut : acceptée`
_PLAIN_FIELD = re.compile(rf"^({_LIFECYCLE_NAMES})\s*:\s*(.+)$", re.IGNORECASE)
# reStructuredText's field list under the title (`:Status: Accepted`, `:Superseded-By: ...`).
FIELD_LIST = re.compile(r"^:([A-Za-z][\w -]*):[ \t]+(\S.*)$")
_TABLE_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
# Keys of metadata tables under the title (`| Status | Implemented |`) that we read.
_TABLE_KEYS = {
    "status",
    "date",
    *_DATE_NAMES,
    "tags",
    "updates",
    "updated by",
    "supersedes",
    "superseded by",
    "amends",
    "amended by",
    "deciders",
    "decision-makers",
}
# A `Status:` or `Date:` line before the first section (Nygard's `Date:`, MADR 2/3's list
# header): lifecycle, not content.
LIFECYCLE_LINE = re.compile(rf"^\s*(?:[*-]\s+)?({_LIFECYCLE_NAMES})\s*:", re.IGNORECASE)


_MARKER = re.compile(r"(<{7}|={7}|>{7})(?:[ \t]|\r?\n|\r|$)")


def merge_conflict(lines: list[str]) -> int:
    """The line where git's first unresolved conflict starts (`<<<<<<<`, then `=======`, then
    `>>>>>>>`, outside fenced code), or 0. A lone `=======` is markdown's heading underline."""
    start, middle, fence = 0, False, None
    for n, line in enumerate(lines, 1):
        fence_match = _FENCE.match(line)
        if fence_match and (fence is None or fence_match.group(1).startswith(fence)):
            fence = None if fence else fence_match.group(1)
            continue
        marker = None if fence else _MARKER.match(line)
        if marker is None:
            continue
        kind = marker.group(1)[0]
        if kind == "<":
            start, middle = n, False
        elif kind == "=" and start:
            middle = True
        elif kind == ">" and start and middle:
            return start
    return 0


def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, text) of a markdown heading line (`## Context ##`), else None."""
    match = _ATX.match(line)
    if match is None:
        return None
    return len(match.group(1)), match.group(2).rstrip(" \t").rstrip("#").rstrip(" \t")


# A setext title's rule (`===` for level 1, `---` for 2), and lines that are no paragraph's
# text: list items, quotes, table rows, headings, comments, indented code.
_SETEXT_RULE = re.compile(r" {0,3}(=+|-+)[ \t]*")
_NOT_TEXT = re.compile(r" {0,3}(?:[*+-][ \t]|\d{1,9}[.)][ \t]|[>|#`~]|<!--)|[ \t]{4}")


def md_headings(lines: Sequence[str]) -> list[rst.Heading]:
    """A markdown document's section titles outside fenced code, as GitHub renders them:
    `## Title`, and setext titles (a one-line paragraph over a rule of `=`, level 1, or of
    `-`, level 2, three or more)."""
    found: list[rst.Heading] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        lead = line.lstrip(" ")[:1]
        if not lead or lead not in "#`~=-":  # most lines: no heading, fence or rule starts here
            continue
        fence_match = _FENCE.match(line)
        if fence_match and (fence is None or fence_match.group(1).startswith(fence)):
            fence = None if fence else fence_match.group(1)
            continue
        if fence:
            continue
        if lead == "#" and (atx := atx_heading(line)) is not None:
            found.append(rst.Heading(i, i, i + 1, *atx))
        elif lead in "=-" and _setext_rule(lines, i - 1, found):  # the title is the line above its rule
            found.append(rst.Heading(i - 1, i - 1, i + 1, 1 if lead == "=" else 2, lines[i - 1].strip()))
    return found


def _setext_rule(lines: Sequence[str], i: int, found: list[rst.Heading]) -> bool:
    """Whether line `i` is a one-line paragraph over a setext rule."""
    if i < 0 or not lines[i].strip() or _NOT_TEXT.match(lines[i]) or (found and found[-1].end > i):
        return False
    after_break = i == 0 or not lines[i - 1].strip() or bool(found and found[-1].end == i)
    rule = _SETEXT_RULE.fullmatch(lines[i + 1])
    return after_break and rule is not None and len(rule.group(1)) >= 3


def _value_rows(rows: list[list[str]], first: int) -> list[int]:
    """The rows of a table from `first` to its end (`rows` holds each line's cells)."""
    end = first
    while end < len(rows) and rows[end] and not is_rule(rows[end]):
        end += 1
    return list(range(first, end))


def _latest_row(rows: list[list[str]], first: int, column: int) -> int:
    """Of the table rows from `first` on, the last whose `column` holds a status (a history
    table's current one); `first` when none after it does."""
    stated = [
        at
        for at in _value_rows(rows, first)
        if len(rows[at]) > column and normalise_status(rows[at][column]) != "unknown"
    ]
    return stated[-1] if stated else first


_FIELD_START = re.compile(r"[^\W\d_][\w -]{0,40}:")  # `Date:` in `Accepted | Date: 2026-05-30`


def _fields_in_line(name: str, value: str) -> list[tuple[str, str]]:
    """The fields a header line holds: one, or several apart by `|` or `·` (`**Status**:
    Accepted | **Date**: 2026-03-07 | **Deciders**: A`). A value that only holds a `|` (an unfilled
    template's `{proposed | accepted}`) is one value."""
    pieces = [_undressed(piece) for piece in re.split(r"[|·]", value)]
    if len(pieces) == 1 or not all(_FIELD_START.match(piece) for piece in pieces[1:]):
        return [(name, value)]
    more = [(m.group(1), m.group(2)) for piece in pieces[1:] if (m := _PLAIN_FIELD.match(piece))]
    return [(name, pieces[0]), *more]


def is_metadata_heading(heading: str) -> bool:
    """A section that holds the record's fields (`## Metadata` over `- **Status**: Accepted`,
    `- **Date**: ...`), as many records written with assistants keep them."""
    return "metadata" in heading.lower() and languages.heading_core(heading).lower() == "metadata"


def metadata_lines(sections: Sequence[Section]) -> list[tuple[int, str]]:
    """The numbered lines of the record's Metadata section, and of a Status section that
    keeps the status in a table (`| Status | Date |` over a row of values, or `| Status |
    Rejected |`), read as the lines under its title are."""
    held = [s for s in sections if is_metadata_heading(s.heading)][:1]
    status = status_section(sections)
    if status is not None and table_cells(next((line for line in status.text.split("\n") if line.strip()), "")):
        held.append(status)
    return [
        (section.text_line + i, line)
        for section in held
        if section.text
        for i, line in enumerate(section.text.split("\n"))
    ]


def _value(text: str) -> str:
    """A field's value without the line breaks HTML forces after it (`**Date:** 2026-08-29<br>`).
    (Read back from the end once: a value of 50,000 `<br>` costs one pass, not one per tag.)"""
    text = text.strip()
    end = len(text)
    while tag := next((t for t in ("<br>", "<br/>", "<br />") if text[max(0, end - 6) : end].lower().endswith(t)), ""):
        end -= len(tag)
        while end and text[end - 1] in " \t":
            end -= 1
    return text[:end]


def _undressed(line: str) -> str:
    """A line without bold, a blockquote's `>` and a list bullet: `* **Status**: x` reads
    `Status: x`."""
    return _BULLET.sub("", line.strip().replace("**", "").replace("__", ""))


_DRESSED_STATUS = re.compile(r"(?:decision[ \t]+)?(?:status|statut|estado|stato)\s*:", re.IGNORECASE)
_BULLET = re.compile(r"^(?:>[ \t]*)*(?:[*+-][ \t]+)?")  # one pass: no quantifier can take what the next one does


def _header_of_keys(cells: list[str]) -> bool:
    """Whether a table's header row names fields, each value below it (`| Status | Date |`),
    rather than being the first pair of a key-value table (`| Status | Implemented |`)."""
    return sum(c.lower() in _TABLE_KEYS for c in cells) >= 2


def table_cells(line: str) -> list[str]:
    """The cells of a markdown table row, bold and spaces stripped; [] for any other line."""
    row = _TABLE_ROW.match(line)
    return [c.strip().strip("*_ ").strip() for c in row.group(1).split("|")] if row else []


def is_rule(cells: list[str]) -> bool:
    return bool(cells) and all(c and set(c) <= set("-: ") for c in cells)


def _field_list(fields: Mapping[str, tuple[str, int]], key: str) -> tuple[str, ...]:
    """`- Tags: a, b` (or `[a, b]`). A template's blank left in (log4brains' `[space and/or comma
    separated list of tags] <!-- optional -->`) names none: a tag is a word or two, no sentence."""
    value = without_comments(fields.get(key, ("", 0))[0]).strip()
    if value[:1] + value[-1:] in ("[]", "{}", "<>"):
        value = value[1:-1]
    items = [v.strip(" `'\"") for v in re.split(r"[,;]", value)]
    return tuple(v for v in items if v and len(v.split()) <= 3)


_STATUS_HEADING = re.compile(r"^Status\s*:\s*(\S.*)$", re.IGNORECASE)


def heading_status(heading: str) -> str | None:
    """The status a heading states itself (`## Status: Accepted`), if it does."""
    stated = _STATUS_HEADING.match(heading.replace("**", ""))
    return stated.group(1).strip() if stated else None


def status_section(sections: Sequence[Section]) -> Section | None:
    """The record's own status section: the first at the record's top section level (a
    `### Status` interface inside a design is not the record's status)."""
    top = min((s.level for s in sections), default=2)
    return next((s for s in sections if s.level == top and languages.is_status_heading(s.heading)), None)
