"""A new record in the style of its neighbours: where a folder's records carry no frontmatter
(adr-tools' own, tdr's, Tendermint's), `adr new` writes what they write, not MADR with YAML.

The skeleton is drawn from the folder itself: the newest record's title heading (`# 39. X`,
`# ADR 119: X`, its number as wide), the field lines under it that hold a date or a status
(`**Date**: 2026-03-06`), and the section headings that at least half of the records use, in
the newest record's order, each left empty but for the status, and a changelog's first line.
"""

from __future__ import annotations

import re
from collections import Counter

from adr_memory.records import Catalog, Record

_FIELD = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?\**(date|status)\**[ \t]*:\**[ \t]*\**[ \t]*)\S.*$", re.IGNORECASE)
_HEADING_LINE = re.compile(r"^#[ \t]+(.*\S)[ \t]*$", re.MULTILINE)
_MIN_SECTIONS = 2  # fewer common headings than this: the folder has no shape to follow


def template(kept: Catalog) -> str | None:
    """The skeleton, or None when a bundled template is already the folder's (most records
    have frontmatter, or follow adr-tools' template) or its records share too few headings."""
    records = [r for r in kept if r.number is not None and not r.path.lower().endswith(".rst")]
    formats = Counter(r.format for r in records)
    if not records or formats["frontmatter"] * 2 >= len(records) or formats["nygard"] * 2 > len(records):
        return None  # MADR's template, or adr-tools' own (bundled as nygard), is theirs
    newest = max(records, key=lambda r: (r.number or 0, r.path))
    heading = _heading(newest)
    sections = _common_sections(records)
    if heading is None or len(sections) < _MIN_SECTIONS:
        return None
    fields = [_field(line) for line in newest.preamble.split("\n") if _FIELD.match(line)]
    said = any("{Status}" in f for f in fields) or any(h.lower() == "status" for h in sections)
    if not said and fields:  # a folder that states no status: the new one says it as it says its date
        fields.append(re.sub(r"(?i)date", "Status", fields[0].replace("{date}", "{Status}"), count=1))
    parts = [f"# {heading}", *fields, *(_section(h) for h in sections)]
    return "\n\n".join(parts) + "\n"


def _heading(rec: Record) -> str | None:
    """The newest title heading with its title as `{title}` and its number as a placeholder
    as wide as written (`ADR 000` fills as `ADR 120`; `39.` as `{number}.`)."""
    written = rec.heading
    at = written.rfind(rec.title) if rec.title else -1
    if at < 0:
        return None
    lead = written[:at]
    digits = re.search(r"\d+", lead)
    if digits is None or int(digits.group(0)) != rec.number:
        return None
    run = digits.group(0)
    number = "0" * len(run) if len(run) >= 3 else "{number}"
    return lead[: digits.start()] + number + lead[digits.end() :] + "{title}" + written[at + len(rec.title) :]


def _field(line: str) -> str:
    match = _FIELD.match(line)
    assert match is not None
    return match.group(1) + ("{date}" if match.group(2).lower() == "date" else "{Status}")


def _common_sections(records: list[Record]) -> list[str]:
    """Second-level headings used by at least half of the records, in the order and the words
    of the newest record that has them all (one written off the pattern does not set it)."""
    used = Counter(h for rec in records for h in {s.heading.lower() for s in rec.sections if s.level == 2})
    common = {h for h, n in used.items() if n * 2 >= len(records)}
    for rec in sorted(records, key=lambda r: (r.number or 0, r.path), reverse=True):
        mine = [s.heading for s in rec.sections if s.level == 2 and s.heading.lower() in common]
        if {h.lower() for h in mine} == common:
            return list(dict.fromkeys(mine))
    return []


def _section(heading: str) -> str:
    words = heading.lower()
    if words == "status":
        return f"## {heading}\n\n{{Status}}"
    if words == "changelog":
        return f"## {heading}\n\n- {{date}}: first draft"
    return f"## {heading}"
