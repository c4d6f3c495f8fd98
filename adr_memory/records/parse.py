"""One decision record: parse every common ADR format as it is, and edit only the keys we own.

Formats read without migration (ARCHITECTURE.md §1): YAML frontmatter (ours and MADR 4), the
MADR 2/3 `* Status: ...` list header, Nygard/adr-tools (`# 1. Title`, `Date:`, `## Status`
with link lines) and Tendermint (`# ADR 012: Title`, `## Changelog`, `## Status`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from adr_memory.records import badges, languages, rst
from adr_memory.records.dates import iso_date
from adr_memory.records.frontmatter import _folded, _read_frontmatter, key_lines, split_lines
from adr_memory.records.grammar import _WORD, normalise_status
from adr_memory.records.links import _format_name, _links, _str_list
from adr_memory.records.model import Problem, Section
from adr_memory.records.names import (
    _DATED_FILE,
    _ID_TEXT,
    _NUMBERED_FILE,
    _PENDING_FILE,
    _number,
    file_date,
    file_id,
    file_number,
    is_rst,
    named_by_date,
    normalise_id,
    record_name,
    stem,
)
from adr_memory.records.record import Record
from adr_memory.records.status import (
    _LABEL_ALONE,
    _status_below_label,
    _status_text,
    _text_field,
    _told_twice,
    _uncommented,
    _value_below,
)
from adr_memory.records.text import (
    _DATE_NAMES,
    _DRESSED_STATUS,
    _LIST_FIELD,
    _PLAIN_FIELD,
    _TABLE_KEYS,
    FIELD_LIST,
    LIFECYCLE_LINE,
    _field_list,
    _fields_in_line,
    _header_of_keys,
    _latest_row,
    _undressed,
    _value,
    _value_rows,
    is_rule,
    md_headings,
    merge_conflict,
    metadata_lines,
    table_cells,
)

# `ADR-7: x`, `[ADR-0007] x`, `ADR #7 – x`, `7. x`, `7: x`.
_TITLE_PREFIX = re.compile(r"^(?:\[?ADR[-\s]*#?\d+\]?\s*[:.\-–—·|]?\s*|\d+\s*[.:](?!\d)\s*)", re.IGNORECASE)
# `0007 x`, `0007 - x`, `7) x`: the record's own number only (`# 2024 roadmap` keeps its year,
# `# 3-tier web` its number).
_BARE_NUMBER = re.compile(r"^#?(\d+)(?!\d)(?:[ \t]*\)[ \t]*|[ \t]+[\-–—][ \t]+|[ \t]+)(\S.*)")


def parse(text: str, path: str) -> Record:
    """Parse one record. Never raises: what is wrong is reported in `Record.problems`."""
    problems: list[Problem] = []
    text = text.removeprefix("\ufeff")
    lines = split_lines(text)
    conflict = merge_conflict(lines)
    if conflict:  # first: the YAML or status problems that follow are its doing
        problems.append(
            Problem(
                "merge-conflict",
                "an unresolved merge conflict (git's `<<<<<<<`, `=======`, `>>>>>>>` lines)",
                conflict,
                "keep what each side should, delete the marker lines, then `git add`",
            )
        )
    restructured = is_rst(path)
    meta, body_start = (_rst_meta if restructured else _read_frontmatter)(lines, problems)
    meta = _folded(meta)
    body = "".join(lines[body_start:]).replace("\r\n", "\n").replace("\r", "\n")
    heading, sections, preamble = (_scan_rst if restructured else _scan)(body, body_start + 1)
    fields = _preamble_fields(preamble + metadata_lines(sections))
    filename = record_name(path)
    number = file_number(filename)

    title = (
        _one_line(_strip_title(_text_field(meta, "title", problems), number))
        or _strip_title(heading, number)
        or _slug_title(filename)
    )
    status_text, status_line = _status_text(meta, fields, sections, problems, preamble)
    # No stated status means in force: MADR makes status optional (ARCHITECTURE.md §1). A
    # status stated in a form we cannot read (`status: {current: x}`) is unknown, not in force.
    unreadable = not status_text and meta.get("status") not in (None, "")
    status = normalise_status(status_text) if status_text else ("unknown" if unreadable else "accepted")
    problems.extend(_told_twice(meta, fields, sections, status))
    where = key_lines(lines) if meta else {}
    links = _links(meta, fields, status_text, status_line, sections, preamble, problems, status=status, where=where)
    rec_id = _decision_id(meta, filename)
    fmt = _format_name(meta, fields, heading, sections)
    reviewed = meta.get("reviewed")
    if reviewed is not None and not isinstance(reviewed, Mapping):
        problems.append(Problem("schema", "`reviewed` must be a mapping {commit, date}", 1, key="reviewed"))
        reviewed = None
    return Record(
        path=path,
        number=number,
        id=rec_id,
        title=title,
        heading=heading,
        status=status,
        status_text=status_text,
        date=_date(meta, fields, problems) or file_date(filename),
        tags=_str_list(meta, "tags", problems) or _field_list(fields, "tags"),
        governs=_str_list(meta, "governs", problems),
        links=links,
        rules=_rules(meta, problems),
        reviewed=reviewed,
        meta=meta,
        body=body,
        sections=sections,
        format=fmt,
        problems=tuple(_placed(problems, lines)),
        body_line=body_start + 1,
        status_line=status_line,
        status_stated=bool(status_text) or unreadable,
        preamble="\n".join(line for _, line in preamble),
        key_lines=tuple(sorted(where.items())),
    )


def _scan(body: str, first_line: int) -> tuple[str, tuple[Section, ...], list[tuple[int, str]]]:
    """The first level-1 heading, the sections (headings outside fenced code), the preamble lines."""
    heading = ""
    sections: list[Section] = []
    current: tuple[str, int, int, int] | None = None  # heading, level, its line, its text's first line
    buffer: list[str] = []
    preamble: list[tuple[int, str]] = []

    def close() -> None:
        if current is not None:
            blank = next((i for i, b in enumerate(buffer) if b.strip()), len(buffer))
            sections.append(Section(current[0], current[1], current[2], "\n".join(buffer).strip(), current[3] + blank))

    lines = body.split("\n")
    heads = {h.first: h for h in md_headings(lines)}
    rules = {h.end - 1 for h in heads.values() if h.end - h.first == 2}  # a setext title's rule
    for offset, line in enumerate(lines):
        head = heads.get(offset)
        if offset in rules:
            continue
        if head and head.level == 1 and not heading and not sections:
            heading = head.text.strip()
        elif head and head.level == 1 and current is None and copied_template(heading, head.text):
            heading, preamble = head.text.strip(), []  # the template's heading and its intro are no record's
        elif head:
            close()
            current, buffer = (head.text.strip(), head.level, first_line + offset, first_line + head.end), []
        elif current is None:
            preamble.append((first_line + offset, line))
        else:
            buffer.append(line)
    close()
    return heading, tuple(sections), preamble


# The heading of a template copied whole, kept above the record's own title: Joel Parker
# Henderson's collection opens each with one ("# Decision record template by Michael Nygard",
# an introduction, then "# Title").
# The sections every decision format names one of (`Decision Outcome`, `Context and Problem
# Statement` start so).
DECISION_SECTIONS = ("context", "decision", "consequences", "considered options")


def copied_template(first: str, second: str) -> bool:
    """Whether a record's first level-1 heading is a copied template's, and the second its own
    title (not a section written at level 1: `# Context`)."""
    words, name = set(_WORD.findall(first.lower())), second.strip(" :*#").lower()
    return (
        bool(words & {"template", "templates"})
        and bool(words & {"adr", "decision", "record"})
        and not name.startswith(DECISION_SECTIONS)
        and not languages.is_status_heading(name)
    )


def _scan_rst(body: str, first_line: int) -> tuple[str, tuple[Section, ...], list[tuple[int, str]]]:
    """`_scan` for reStructuredText: the title is the first section title, if it is of the
    document's first style; every other title is a section."""
    lines = body.split("\n")
    title, titled = rst.split_title(rst.headings(lines))
    heading = title.text if title else ""
    sections = []
    for n, head in enumerate(titled):
        end = titled[n + 1].first if n + 1 < len(titled) else len(lines)
        buffer = lines[head.end : end]
        blank = next((i for i, b in enumerate(buffer) if b.strip()), len(buffer))
        sections.append(
            Section(
                head.text,
                head.level,
                first_line + head.text_at,
                "\n".join(buffer).strip(),
                first_line + head.end + blank,
            )
        )
    stop = titled[0].first if titled else len(lines)
    before = [*range(title.first), *range(title.end, stop)] if title else range(stop)
    return heading, tuple(sections), [(first_line + i, lines[i]) for i in before]


def _placed(problems: list[Problem], lines: list[str]) -> list[Problem]:
    """Each problem with a frontmatter key on the line that writes the key (a GitHub annotation
    lands where the fix is), not on the file's first line."""
    if not any(p.key for p in problems):
        return problems
    where = key_lines(lines)
    return [dataclasses.replace(p, line=where.get(p.key, p.line)) if p.key else p for p in problems]


def _rst_meta(lines: list[str], problems: list[Problem]) -> tuple[dict[str, Any], int]:
    """What a reStructuredText record keeps in its `.. adr-memory: {...}` first line, read as
    frontmatter is (the same limits on what YAML may make of it)."""
    match = rst.META.fullmatch(lines[0].rstrip("\r\n")) if lines else None
    if match is None:
        return {}, 0
    found: list[Problem] = []
    meta, _ = _read_frontmatter(["---\n", (match.group(1) or "") + "\n", "---\n"], found)
    line = "the `.. adr-memory:` line"
    problems.extend(
        dataclasses.replace(
            p,
            line=1,
            message=p.message.replace("frontmatter", line),
            hint="fix the YAML after `.. adr-memory:`, or delete the line",
        )
        for p in found
    )
    return meta, 1


# `Date 09/04/2018`: a date line without its colon (Ministry of Justice records write it so); only
# digits follow, so a sentence that starts with the word is never read as one.
_DATE_SPACED = re.compile(r"^date[ \t]++(\d[\d/.\-]*+)[ \t]*+$", re.IGNORECASE)


def _preamble_fields(preamble: list[tuple[int, str]]) -> dict[str, tuple[str, int]]:
    """Fields before the first section: `* Status: x` (MADR 2/3), `Date: x`, `**Date**: x`,
    `* **Status**: x`, `> Status: x` (Nygard and its variants), and metadata tables, a key
    per row (`| Status | Implemented |`) or per column (`| Status | Date |` over a rule and a
    row of values)."""
    fields: dict[str, tuple[str, int]] = {}
    rows = [table_cells(line) for _, line in preamble]
    values_row = -1  # the row under a header of keys: its cells are their values
    for at, (number, line) in enumerate(preamble):
        cells = rows[at]
        if not cells:
            if (label := _LABEL_ALONE.match(_undressed(line))) and (below := _value_below(preamble, at)):
                key = languages.field_name(label.group(1))  # `**Status**`, then `Rejected` below it
                fields.setdefault(_DATE_NAMES.get(key, key), below)
            elif field := FIELD_LIST.match(line):
                key = languages.field_name(field.group(1)).replace("-", " ").replace("_", " ")
                fields.setdefault(_DATE_NAMES.get(key, key), (_value(field.group(2)), number))
            elif match := _LIST_FIELD.match(line) or _PLAIN_FIELD.match(_undressed(line)):
                for name, value in _fields_in_line(match.group(1), match.group(2)):
                    key = languages.field_name(name)
                    fields.setdefault(_DATE_NAMES.get(key, key), (_value(value), number))
            elif spaced := _DATE_SPACED.match(_undressed(line)):
                fields.setdefault("date", (spaced.group(1), number))
            continue
        if len(cells) < 2 or at == values_row or is_rule(cells):
            continue
        keys = [c.lower() for c in cells]
        if at + 2 < len(rows) and _header_of_keys(keys) and is_rule(rows[at + 1]):
            values_row = at + 2  # a header of keys (`| Status | Date |`), each value below its key
            for column, (key, value) in enumerate(zip(keys, rows[at + 2])):
                if key in _TABLE_KEYS and value:
                    # a row per change (`| Date | Status |`, oldest first): the last states the status
                    row = _latest_row(rows, at + 2, column) if key == "status" else at + 2
                    fields.setdefault(_DATE_NAMES.get(key, key), (rows[row][column], preamble[row][0]))
        elif keys[0] in _TABLE_KEYS and cells[1]:  # a row per key (`| Status | Implemented |`)
            fields.setdefault(_DATE_NAMES.get(keys[0], keys[0]), (cells[1], number))
    if "status" not in fields:
        badged = next(((n, b) for n, line in _uncommented(preamble) if (b := badges.status_badge(line))), None)
        if badged is not None:
            fields["status"] = (badges.message(badged[1]), badged[0])
    return fields


def without_lifecycle(preamble: list[str]) -> list[str]:
    """The lines before the first section without what lifecycle commands write there: a
    `Status:` or `Date:` line (Nygard, MADR 2/3's list header), a status however it is dressed
    (`**Status:** x`, `* **Status**: x`, `> Status: x`), and a metadata table's status cell,
    blanked. What is left there is content. (A dressed date is content, as it always was: no
    command writes one, and reading it so keeps the versions of such folders.)"""
    out: list[str] = []
    rows = [table_cells(line) for line in preamble]
    blank: set[int] = set()  # columns of the header row above that hold the status
    below = _status_below_label(preamble)
    history: set[int] = set()  # the rows of a status history table: each one a status change
    for at, line in enumerate(preamble):
        cells = rows[at]
        if not cells:
            if not (
                LIFECYCLE_LINE.match(line)
                or _DRESSED_STATUS.match(_undressed(line))
                or badges.status_badge(line)
                or at in below
            ):
                out.append(line.rstrip())
            continue
        if at in history:
            continue
        if blank and not is_rule(cells):  # the values under a header of keys: the status's cell goes blank
            line, blank = "|" + "|".join("" if i in blank else c for i, c in enumerate(cells)) + "|", set()
        elif cells[0].lower() == "status" and not _header_of_keys(cells):
            continue  # a row per key
        elif at + 1 < len(rows) and _header_of_keys(cells) and is_rule(rows[at + 1]):
            blank = {i for i, c in enumerate(cells) if c.lower() == "status"}
            if blank and len(values := _value_rows(rows, at + 2)) > 1:
                history.update(values)  # a row per change: each one is lifecycle
                blank = set()
        out.append(line.rstrip())
    return out


# A docs site's page id (Docusaurus: `id: adrs-adr002`, `id: ai-skill`): lowercase, a slug.
_PAGE_ID = re.compile(r"[a-z0-9][a-z0-9_./-]*")


def _decision_id(meta: Mapping[str, Any], filename: str) -> str:
    """Frontmatter `id` when it names a decision (`ADR-0007`, `7`, `SEC-12`); else the file's
    number or name. A lowercase slug is the page id of a docs site, which Docusaurus reads from
    the same key: taken for the decision's id, `adr show 2` named `adrs-adr002`."""
    raw = meta.get("id")
    text = "" if raw is None or isinstance(raw, (dict, list)) else str(raw).strip()
    if text and (_ID_TEXT.match(text) or not _PAGE_ID.fullmatch(text)):
        return normalise_id(text)
    return file_id(filename) or stem(filename)


# A title that opens in bold (`# **ADR-0002** Use annotations`, `# **Use annotations**`).
_EMPHASIS_LEAD = re.compile(r"^(\*\*|__)([^*_\n]+)\1")


def _one_line(title: str) -> str:
    """A frontmatter title on one line: a YAML block (`title: |`) or an escaped newline would
    otherwise break every line-based view (a table row, a graph node, a TOC entry)."""
    return " ".join(part.strip() for part in title.splitlines() if part.strip())


def _strip_title(heading: str, number: int | None) -> str:
    stripped = _TITLE_PREFIX.sub("", _EMPHASIS_LEAD.sub(r"\2", heading, count=1), count=1).strip()
    stripped = _TITLE_LABEL.sub("", stripped, count=1)
    bare = _BARE_NUMBER.fullmatch(stripped)
    if bare and number is not None and _number(bare.group(1)) == number:  # "# 23 Logging"
        stripped = bare.group(2)
    own = _TITLE_ID.search(stripped)
    if own and number is not None and _number(own.group(1)) == number:  # "# Use X (ADR-0005)"
        stripped = stripped[: own.start()]
    return stripped.strip() or heading


# A label before the title: `# ADR: Use X`, `# Decision 5: Use X`, `# Decision record - Use X`,
# `# Title: Use X` (a template's, filled in after it), `# [5] Use X`. A hyphen apart by spaces
# only: `# Decision-making process` is a title.
_TITLE_LABEL = re.compile(
    r"^(?:(?:(?:architecture[ \t]+)?decision(?:[ \t]+record)?|adr|title)"
    r"(?:[ \t]*#?\d+[ \t]*[:.\u2013\u2014-]|[ \t]*:|[ \t]+[\u2013\u2014-])|\[\d+\])[ \t]*(?=\S)",
    re.IGNORECASE,
)
# The record's own id after its title (`# Use X (ADR-0005)`, `# Use X [ADR 5]`).
_TITLE_ID = re.compile(r"[(\[]ADR[-\s]?#?(\d+)[)\]]$", re.IGNORECASE)


def _slug_title(filename: str) -> str:
    name = stem(filename)
    bare = (
        (_DATED_FILE if named_by_date(name) else _PENDING_FILE if _PENDING_FILE.match(name) else _NUMBERED_FILE)
        .sub("", name)
        .strip("-_ .")
    )
    return bare.replace("-", " ").replace("_", " ").strip().capitalize() or filename


def _date(meta: Mapping[str, Any], fields: Mapping[str, tuple[str, int]], problems: list[Problem]) -> str | None:
    named = next((key for key in ("date", *_DATE_NAMES) if key in meta), None)  # `created:` too
    value = meta[named] if named else fields.get("date", ("",))[0]
    if value is None or value == "":
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    text = str(value).strip()
    told = any(p.message.startswith(f"`{named}` ") for p in problems)  # YAML's "no date any calendar has": once
    if named and not told and iso_date(text) is None and not _TEMPLATE_BLANK.search(text):
        problems.append(Problem("date", f"`{named}` {text!r} is not a date", 1, "write it as YYYY-MM-DD", key=named))
    # A date is written with digits ("2020-06-17", "17 June 2020", "June 2020"); without any it is
    # a template's blank left unfilled (MADR 2's `Date: ???`, `[YYYY-MM-DD when ...]`, `TBD`).
    return text if any(c.isdigit() for c in text) else None


# What a template leaves in a date for its writer (MADR's `{YYYY-MM-DD when ...}`, `???`, `TBD`).
_TEMPLATE_BLANK = re.compile(r"[{\[?<]|\A(?:tbd|todo|n/?a|-+)\Z", re.IGNORECASE)


def _rules(meta: Mapping[str, Any], problems: list[Problem]) -> tuple[Any, ...]:
    value = meta.get("rules")
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(Problem("schema", "`rules` must be a list", 1, key="rules"))
        return ()
    return tuple(value)
