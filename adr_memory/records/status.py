"""Where a record's body states its status (a section, a field, a log of dated lines, a
checklist, a badge), read from the body and its place kept for edits."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from adr_memory.records import languages
from adr_memory.records.grammar import (
    _STATUS_PHRASES,
    _STATUS_WORDS,
    _WORD,
    STATUS_LOG,
    _ticked,
    html_text,
    normalise_status,
)
from adr_memory.records.model import Problem, Section
from adr_memory.records.names import RECORD_SUFFIXES, record_name
from adr_memory.records.text import (
    _BULLET,
    _PLAIN_FIELD,
    _undressed,
    _value,
    heading_status,
    status_section,
    table_cells,
)

_UNFILLED = re.compile(r"^[\[{(<]?\s*\w+(\s*\|\s*\w+)+\s*[\]})>]?$")


# A field's label on a line of its own, as a heading set in bold (`**Status**` or `**Status:**`).
# (`Decided` or `Created` alone is as likely a heading over prose: not those.)
_LABEL_ALONE = re.compile(r"^(status|date|" + "|".join(languages.FIELD_NAMES) + r")[ \t]*+:?[ \t]*+$", re.IGNORECASE)


def _value_below(preamble: list[tuple[int, str]], at: int) -> tuple[str, int] | None:
    """The value under a label alone on its line: the next line that is not blank, when it is
    a value, not another label, field or table (a label over nothing states nothing)."""
    for n in range(at + 1, len(preamble)):  # by index: a slice per label copies the rest each time
        number, line = preamble[n]
        if not line.strip():
            continue
        plain = _undressed(line)
        if _LABEL_ALONE.match(plain) or _PLAIN_FIELD.match(plain) or table_cells(line) or line.lstrip().startswith("#"):
            return None
        return _value(plain), number
    return None


def _status_below_label(preamble: list[str]) -> set[int]:
    """The lines of a status set under its own label (`**Status**`, then `Accepted`): both
    are lifecycle."""
    numbered = list(enumerate(preamble))
    out: set[int] = set()
    for at, line in numbered:
        label = _LABEL_ALONE.match(_undressed(line))
        if label and languages.field_name(label.group(1)) == "status" and (value := _value_below(numbered, at)):
            out.update((at, value[1]))
    return out


def _uncommented(preamble: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines with HTML comments blanked, across lines too, one pass (an unclosed comment
    runs to the end): a badge left in a comment, as a menu of the others, is not the status."""
    text = "\n".join(line for _, line in preamble)
    out, pos = [], 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        stop = len(text) if end < 0 else end + 3
        out += [text[pos:start], "\n" * text.count("\n", start, stop)]
        pos = stop
    out.append(text[pos:])
    return [(number, line) for (number, _), line in zip(preamble, "".join(out).split("\n"))]


def _text_field(meta: Mapping[str, Any], key: str, problems: list[Problem]) -> str:
    value = meta.get(key)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], (str, int, float)):
        value = value[0]  # `status: [accepted]`: one choice, as a form's multi-select writes it
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        problems.append(Problem("schema", f"`{key}` must be text, not a {type(value).__name__}", 1, key=key))
        return ""
    return str(value).strip()


def _status_text(
    meta: Mapping[str, Any],
    fields: Mapping[str, tuple[str, int]],
    sections: tuple[Section, ...],
    problems: list[Problem],
    preamble: Sequence[tuple[int, str]] = (),
) -> tuple[str, int]:
    """The status as written, and the file line it stands on (0 when it is in frontmatter, or
    in prose no edit should rewrite)."""
    if "status" in meta:
        return _text_field(meta, "status", problems), 0
    if "status" in fields:
        return fields["status"]
    section = status_section(sections)
    if section is not None:
        # Comments blanked line for line (one may span lines: `<!-- What is the status,
        # such as ...,\netc.? -->`), so each line keeps its number.
        lines = [line for _, line in _uncommented(list(enumerate(section.text.split("\n"))))]
        if (ticked := _ticked(lines)) is not None:
            return ticked[1], section.text_line + ticked[0]
        if (logged := last_logged(lines)) is not None:
            return lines[logged].strip(), section.text_line + logged
        quoted = None
        for i, line in enumerate(lines):
            cleaned = line.strip()
            if cleaned.startswith(">"):  # a template's guidance, unless it is a status alone
                quoted = quoted or ((_unlabelled(cleaned), section.text_line + i) if _states(cleaned) else None)
            elif cleaned and not _asks(cleaned) and not _RELATION_LINE.match(cleaned):
                if _UNFILLED.match(cleaned):
                    break  # the template's "{Proposed|Accepted}" states nothing
                return _unlabelled(cleaned), section.text_line + i
        else:  # no unquoted line states one (a template's blank breaks off: then nothing does)
            if quoted is not None:
                return quoted
    for section in sections:
        stated = heading_status(section.heading)
        if stated:
            return stated, section.line
    return _prose_superseded(preamble), 0


# A Status section's line that names a relation, not a status (`Supersedes [1. X](0001-x.md)`,
# as adr-tools writes it below the status; `Amends ...` above it once edited).
_RELATION_LINE = re.compile(
    r"^(?:[*+-][ \t]+)?(?:supersedes|replaces|amends|amended[ \t]+by|relates[ \t]+to"
    r"|related[ \t]+to|depends[ \t]+on|see[ \t]+also)\b",
    re.IGNORECASE,
)


def _states(line: str) -> bool:
    """Whether a quoted line of a Status section is a status (`> Rejected`, `> Superseded by
    ADR-5`), not the template's guidance quoted above it ("> A decision may be proposed if
    ...") nor a menu of them (`> Proposed, Accepted, Rejected`)."""
    words = _WORD.findall(html_text(_unlabelled(line)).lower())
    if not words or not (words[0] in _STATUS_WORDS or tuple(words[:2]) in _STATUS_PHRASES):
        return False
    choices = [p for p in _CHOICES_APART.split(line.lower()) if _WORD.findall(p)]
    return sum(_WORD.findall(p)[0] in _STATUS_WORDS for p in choices) < 2


_CHOICES_APART = re.compile(r"[,/|]|\bor\b")


def _asks(line: str) -> bool:
    """Whether a Status section's line is the template's question, left above the answer or
    in its place ("What is the status, such as proposed, accepted, rejected, ...?"): it names
    every status and states none."""
    return line.strip("_* \t").endswith("?")


def _unlabelled(line: str) -> str:
    """A Status section's line without a `Status:` label of its own (adrgen writes
    `## Status` over `Status: accepted`, and edits the line so)."""
    field = _PLAIN_FIELD.match(_undressed(line))
    if field and languages.field_name(field.group(1)) == "status":
        return field.group(2).strip()
    return _BULLET.sub("", line) or line  # `- Accepted`: an edit keeps the bullet


def last_logged(lines: Sequence[str]) -> int | None:
    """The index of a Status section's last dated line that states a status, when it logs its
    statuses so (a dated note below a status, `- 2024-05-01: discussed`, is not one)."""
    return next(
        (
            i
            for i in range(len(lines) - 1, -1, -1)
            if (logged := STATUS_LOG.match(lines[i])) and normalise_status(lines[i][logged.end() :]) != "unknown"
        ),
        None,
    )


# Prose under the title that says the record was superseded and links its successor (tdr:
# "This decision has been superseded by decision: [0009 Keycloak ...](0009-x.md)").
_PROSE_SUPERSEDED = re.compile(
    r"\b(?:super[sc]eded|replaced)[ \t]+by\b[^\[\n]{0,40}+\[[^\]\n]*\]\(([^)\s]+)\)", re.IGNORECASE
)


def _prose_superseded(preamble: Sequence[tuple[int, str]]) -> str:
    """The part of a line under the title from "superseded by" on, when it links a record: a
    status, read when nothing else states one. It is no status line: `adr accept` writes the
    new status apart from the prose, which stays as written."""
    for _number, line in preamble:
        for match in _PROSE_SUPERSEDED.finditer(line):
            if record_name(match.group(1).split("#", 1)[0]).lower().endswith(RECORD_SUFFIXES):
                return line[match.start() :].strip()
    return ""


def _told_twice(
    meta: Mapping[str, Any], fields: Mapping[str, tuple[str, int]], sections: tuple[Section, ...], status: str
) -> list[Problem]:
    """A status in frontmatter that the body contradicts: the page a reader sees says one
    thing, the tool reads another, and no command edits the body's."""
    if "status" not in meta:
        return []
    said, line = _status_text({}, fields, sections, [])
    body = normalise_status(said) if said else "unknown"
    if body in ("unknown", status):
        return []
    return [
        Problem(
            "status",
            f"the frontmatter says {status}, the body says {said!r}",
            line,
            "keep the status in one place: the frontmatter's is the one read",
        )
    ]
