"""Status changes written into a record where it states its status: frontmatter, a status
section or line, a log, a table cell or a badge, in the folder's own words."""

from __future__ import annotations

import re

from adr_memory import records
from adr_memory.base import safe
from adr_memory.errors import UsageError
from adr_memory.policy.templates import SIGN, today
from adr_memory.records import Record, badges, languages, rst


def _status_edit(
    text: str,
    rec: Record,
    status: str,
    line_text: str | None = None,
    reason: str | None = None,
    *,
    in_body: bool = False,
) -> str:
    """The status changed where the record states it: frontmatter, or its body's status line
    (also under frontmatter that holds other keys, such as a Jekyll page's `layout:`, whose
    Status section would otherwise go on saying the old status). A reason goes to
    `status-reason:` in frontmatter, or after the status word on a body status line
    ("Deprecated: why"). `in_body`: a record of the folder stating no status and holding no
    frontmatter gets a Status section (a new record's template states it in frontmatter)."""
    reason = safe.one_line(reason) if reason else None
    if reason and line_text is None and rec.status_line and rec.status == status and rec.status_stated:
        # the status stays: its line keeps every word and gains the reason
        return records.replace_line(
            text, rec.status_line, _restated(_status_line(text, rec), rec.status_text, f"{rec.status_text} ({reason})")
        )
    if reason and line_text is None:
        line_text = f"{status.capitalize()}: {reason}"
    if not rec.status_line and records.is_rst(rec.path) and "status" not in rec.meta:
        return _status_section(text, rec, line_text or status.capitalize())
    section = records.status_section(rec.sections) if not records.is_rst(rec.path) else None
    if not rec.status_line and "status" not in rec.meta and section is not None:
        return _into_status_section(text, section, line_text or status.capitalize())
    if in_body and not rec.status_line and not rec.meta and rec.body_line == 1 and not records.is_rst(rec.path):
        return _md_status_section(text, rec, line_text or status.capitalize())  # stated nowhere, no frontmatter
    if not rec.status_line:  # stated in frontmatter, or nowhere
        return records.set_keys(
            _body_too(text, rec, status), {"status": status, **({"status-reason": reason} if reason else {})}, rec.path
        )
    return _restate(text, rec.status_line, rec.status_text, status, line_text)


def _into_status_section(text: str, section: records.Section, stated: str) -> str:
    """A Status section that states nothing (empty, or holding only the template's question
    or a comment) gets the status below what it holds, a blank line apart: the page shows it
    there."""
    if section.text:
        return records.insert_lines_after(text, section.text_line + section.text.count("\n"), ["", stated])
    lines = [line.rstrip("\r\n") for line in records.split_lines(text.removeprefix("\ufeff"))]
    heading = min(section.text_line - 1, len(lines))  # back over the blank lines to the heading
    while heading > section.line and not lines[heading - 1].strip():
        heading -= 1
    below = heading < len(lines) and lines[heading].strip()  # the next heading right below
    return records.insert_lines_after(text, heading, ["", stated, *[""] * bool(below)])


def _md_status_section(text: str, rec: Record, stated: str) -> str:
    """A Markdown record with neither frontmatter nor a status gets a Status section, as records
    without frontmatter state it (`## Status`, adr-tools' and Nygard's), before its first
    section, else at its end: frontmatter would be a style the record does not use."""
    lines = records.split_lines(text.removeprefix("\ufeff"))
    if rec.sections and rec.sections[0].line > 1:
        first = rec.sections[0]
        return records.insert_lines_after(text, first.line - 1, ["#" * first.level + " Status", "", stated, ""])
    blank_end = bool(lines) and not lines[-1].strip()
    return records.insert_lines_after(text, len(lines), [""] * (not blank_end) + ["## Status", "", stated])


def _status_section(text: str, rec: Record, stated: str) -> str:
    """A reStructuredText record that states no status gets a Status section, where its readers
    see it (it has no frontmatter): before its first section, titled in that section's style."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = records.split_lines(text.removeprefix("\ufeff"))
    newline = lines[0][len(lines[0].rstrip("\r\n")) :] if lines and lines[0].endswith("\n") else "\n"
    body = [line.rstrip("\r\n") for line in lines[rec.body_line - 1 :]]
    found = rst.headings(body)
    _title, sections = rst.split_title(found)
    if sections:
        first, rule = rec.body_line - 1 + sections[0].first, body[sections[0].text_at + 1][0]
        over = sections[0].text_at > sections[0].first
    else:
        used = {body[h.text_at + 1][0] for h in found}
        first, rule, over = len(lines), next(c for c in "-~^=+*#\"'" if c not in used), False
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += newline
    block = [rule * 6] * over + ["Status", rule * 6, "", stated, ""]
    if not sections:
        block = ["", *block[:-1]]
    lines[first:first] = [line + newline for line in block]
    return bom + "".join(lines)


def _restate(text: str, line: int, old: str, status: str, line_text: str | None = None) -> str:
    """`text` with the status `old` on `line` replaced by `status` (or `line_text`)."""
    current = records.split_lines(text.removeprefix("\ufeff"))[line - 1].rstrip("\r\n")
    if records.TASK.match(current):
        return _retick(text, line, status, line_text)
    if (badge := badges.status_badge(current)) is not None:  # the badge shows the word alone
        old_word = badges.message(badge)
        word = languages.cased_as(old_word, records.written(old_word, status) or status)
        return records.replace_line(text, line, badges.with_message(current, badge, word))
    if logged := records.STATUS_LOG.match(current):  # a dated log: the change is its next entry, the past stays
        word = current[logged.end() :].strip()
        entry = languages.cased_as(word, line_text or records.written(word, status) or status)  # as the log writes
        bullet, sep = logged.groups()
        entry = f"{bullet}{today()}{sep}{entry}"
        return records.insert_lines_after(text, line, [entry] if bullet.strip() else ["", entry])
    if _in_history(text, line):  # a table of changes: a row for this one
        return records.insert_line_after(text, line, _next_row(current, old, line_text or status))
    if line_text is None and (moved := records.transition(old)) is not None:  # `Proposed → Accepted`: one more step
        word = languages.cased_as(moved[1], records.written(moved[1], status) or status)
        return records.replace_line(text, line, _restated(current, old, f"{old}{moved[0]}{word}"))
    listed = re.match(r"^\s*[*-]\s+Status\s*:", current, re.IGNORECASE)  # MADR 2/3 `* Status: accepted`
    said = records.written(old, status)  # the record's language (None: English)
    # What it strikes out stays struck, its HTML stays (`<span style=...>Rejected</span>`):
    # only the status's own word changes.
    struck = re.search(r"[^\W\d_]+", records.html_text(records.marked(old))) if "~~" in old or "<" in old else None
    if struck:
        old = struck.group(0)
    if said or struck:
        stated = line_text or languages.cased_as(old, said or status)
    else:
        stated = languages.cased_as(old or ("a" if listed else "A"), line_text or status)  # as the word it replaces
    wrap, rest = ("", "") if struck else _beside_the_word(old)
    if rest.startswith(":") and (":" in stated or " " in stated.strip()):  # its own words, then the reference
        rest = ". " + rest[1:].lstrip()
    return records.replace_line(
        text, line, _restated(current, old, _with_emoji(old, f"{wrap}{stated}{wrap}", status) + rest)
    )


# What follows a status word and belongs to that status (`Superseded by ADR-7`, `Rejected in
# favour of ADR 111`, `Deprecated: the service is gone`): it goes with the old status.
_THE_STATUS_OWN = re.compile(r"\A\s*+(?:by\b|in\s++favou?r\s++of\b|[:\u2013\u2014-]|\Z)", re.IGNORECASE)


def _beside_the_word(old: str) -> tuple[str, str]:
    """(the emphasis around the status word, what the line says after it that is not about
    that status): a tracking issue, a pull request, a reference (`Accepted. Tracking issue:
    [#2803][tracking-issue].`, `Accepted: Tracking issue [#3297].`, `❌ Rejected (see [019](..))`,
    `**Accepted**`). A status command changes the word and keeps these (ADR-0101)."""
    first = re.search(r"[^\W\d_]++", old)
    if first is None or records.normalise_status(first.group(0)) == "unknown":
        if records.normalise_status(old) != "unknown":  # a sentence read for its status word
            raise UsageError(
                f"the status is stated in a sentence ({_start(old)}): changing its word would lose the rest",
                hint="write the new status in the Status section by hand, or start the sentence with it",
            )
        return "", ""
    rest = old[first.end() :]
    qualified = re.match(r"\s+([^\W\d_]++)", rest) if first.group(0).lower().endswith("ly") else None
    if qualified and records.normalise_status(qualified.group(1)) != "unknown":
        rest = rest[qualified.end() :]  # `Partially Accepted`: the word it qualifies is the status's too
    mark = re.search(r"(\*\*|__|\*|_)\Z", old[: first.start()])
    wrap = mark.group(1) if mark and rest.startswith(mark.group(1)) else ""
    rest = rest[len(wrap) :]
    own = _THE_STATUS_OWN.match(rest) and not (rest.lstrip().startswith(":") and _REFERENCE.search(rest))
    return wrap, "" if own else rest


def _start(text: str) -> str:
    words = text.split()
    return repr(" ".join(words[:6]) + (" ..." if len(words) > 6 else ""))


# A reference after a colon is the line's, not the status's reason: `Accepted: Tracking issue [#3297].`
_REFERENCE = re.compile(r"tracking\s+issue|\bPR\b|\[\\?#\d+\]|(?<![\w/])#\d+|https?://", re.IGNORECASE)


# A folder that marks each status with a sign (`✅ Accepted`) keeps doing so: the sign goes with
# the status, so a changed status gets the sign commonly written for it.
_SIGNS = {"accepted": "✅", "proposed": "📝", "rejected": "❌", "deprecated": "⚠️", "superseded": "🔄"}


def _with_emoji(old: str, stated: str, status: str) -> str:
    sign = SIGN.match(old)
    if sign is None or SIGN.match(stated) or status not in _SIGNS:
        return stated
    return _SIGNS[status] + (sign.group(2) or " ") + stated


def _in_history(text: str, line: int) -> bool:
    """Whether a status's table row has a row of values above it too: the table keeps a row
    per change (`| 2020-01-01 | Proposed |` over `| 2020-02-01 | Accepted |`)."""
    lines = records.split_lines(text.removeprefix("\ufeff"))
    current, above = (records.table_cells(lines[n].rstrip("\r\n")) if n >= 0 else [] for n in (line - 1, line - 2))
    return bool(current and above) and not records.is_rule(above)


def _next_row(current: str, old: str, status: str) -> str:
    """The row of this change: the status, in the case of the one before, under its column;
    today under a date; nothing under the rest (who, why: the author's to write)."""
    word = languages.cased_as(old, records.written(old, status) or status)
    cells = [
        word if cell == old.strip() else today() if _DATE_CELL.fullmatch(cell) else ""
        for cell in records.table_cells(current)
    ]
    return "| " + " | ".join(cells) + " |"


_DATE_CELL = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


def _retick(text: str, line: int, status: str, line_text: str | None) -> str:
    """A status ticked in a checklist (`- [x] Accepted` among `- [ ] Deprecated`): the tick
    moves to the item that names the new status, which says `line_text` when one is given;
    with no such item, a ticked one is added below the list. No choice is renamed or lost."""
    lines = [t.rstrip("\r\n") for t in records.split_lines(text.removeprefix("\ufeff"))]
    first, last = _checklist(lines, line)
    items = {n: m for n in range(first, last + 1) if (m := records.TASK.match(lines[n - 1]))}
    chosen = next((n for n, m in items.items() if records.normalise_status(m.group(2)) == status), None)
    for n, m in items.items():
        mark, words = ("x", line_text or m.group(2)) if n == chosen else (" ", m.group(2))
        current = (
            lines[n - 1][: m.start(1)] + mark + lines[n - 1][m.end(1) : m.start(2)] + words + lines[n - 1][m.end(2) :]
        )
        if m.group(1).lower() != mark or words != m.group(2):
            text = records.replace_line(text, n, current)
    if chosen is None:
        bullet = items[first]
        text = records.insert_line_after(
            text, last, lines[first - 1][: bullet.start(1)] + "x] " + (line_text or status.capitalize())
        )
    return text


def _checklist(lines: list[str], line: int) -> tuple[int, int]:
    """The first and last line (1-based) of the checklist that holds `line`."""
    first = last = line
    while first > 1 and records.TASK.match(lines[first - 2]):
        first -= 1
    while last < len(lines) and records.TASK.match(lines[last]):
        last += 1
    return first, last


def _body_too(text: str, rec: Record, status: str) -> str:
    """A body that states, besides the frontmatter, the same status says the new one too:
    frontmatter edited alone would leave the page saying the old one (and `adr check` warning
    that the two disagree)."""
    if "status" not in rec.meta:
        return text
    alone = records.parse(rec.body, rec.path)  # the body's own status line, counted from its start
    if not alone.status_line or alone.status != rec.status:
        return text
    return _restate(text, rec.body_line - 1 + alone.status_line, alone.status_text, status)


def _status_line(text: str, rec: Record) -> str:
    return records.split_lines(text.removeprefix("\ufeff"))[rec.status_line - 1].rstrip("\r\n")


def _restated(line: str, old: str, new: str) -> str:
    """The status line with the status it states (`old`) replaced by `new`, keeping what
    surrounds it: a label (`**Status:**`, `* Status:`), a heading's hashes, a table's other
    cells. A line that is the status alone becomes `new`."""
    seen = records.unstruck(line)  # a struck word is history, not the status
    label = re.search(r"status\W*", seen, re.IGNORECASE)
    after = label.end() if label and old and seen.find(old, label.end()) >= 0 else 0
    start = seen.find(old, after) if old else -1
    return line[:start] + new + line[start + len(old) :] if start >= 0 else new


def _in_table(text: str, rec: Record) -> bool:
    """Whether the record states its status in a table's cell: a line added below it would
    break the table."""
    return bool(rec.status_line) and _status_line(text, rec).lstrip().startswith("|")
