"""A decision's reasons written into its template (`adr new --context/--option/--decision/
--consequences`, `--body-file`), and the check that an accepted record says something.

Pure text in, text out: the template decides the headings (MADR's "Context and Problem
Statement" or Nygard's "Context"), we fill what the user gave and leave the rest as it was.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from adr_memory.records import rst
from adr_memory.records.frontmatter import frontmatter_span, without_comments
from adr_memory.records.languages import is_status_heading
from adr_memory.records.text import md_headings

# What a template writes around its placeholders: left alone, it says nothing.
_SCAFFOLD = re.compile(r"(?i)chosen option|good, because|bad, because|neutral, because|because")
_MARKS = re.compile(r"[\s*\-\"'`,.:;()\[\]{}]+")


@dataclass(frozen=True)
class Reasons:
    context: str = ""
    options: tuple[str, ...] = ()
    decision: str = ""
    consequences: str = ""

    def __bool__(self) -> bool:
        return bool(self.context or self.options or self.decision or self.consequences)


# (names a template may use for the section, the heading to add when it has none)
_SECTIONS = (
    ("context", ("context and problem statement", "context", "problem"), "Context"),
    ("options", ("considered options", "options", "alternatives"), "Considered Options"),
    ("decision", ("decision outcome", "decision"), "Decision"),
    ("consequences", ("consequences",), "Consequences"),
)


def fill(text: str, reasons: Reasons, rst_text: bool = False) -> str:
    """The record with each given reason in its section (the section's placeholder text
    replaced); a section the template lacks is added in the usual order. `rst_text`: the
    record is reStructuredText."""
    text, crlf = _as_lf(text)
    for field, names, heading in _SECTIONS:
        value = getattr(reasons, field)
        if not value:
            continue
        body = "\n".join(f"* {o.strip()}" for o in value) if field == "options" else value.strip()
        text = _replace_section(text, names, _as_lf(body)[0], heading, _after(field), rst_text)
    return _as_written(text, crlf)


def _as_lf(text: str) -> tuple[str, bool]:
    """The text with its CRLF line endings read as LF, and whether it had any: a template kept
    with Windows line endings keeps them, in the lines filled in too."""
    return text.replace("\r\n", "\n"), "\r\n" in text


def _as_written(text: str, crlf: bool) -> str:
    return text.replace("\n", "\r\n") if crlf else text


def _after(field: str) -> tuple[str, ...]:
    """Headings a missing section goes before, so an added section lands in the usual order."""
    order = [names for f, names, _h in _SECTIONS]
    index = [f for f, _n, _h in _SECTIONS].index(field)
    return tuple(n for names in order[index + 1 :] for n in names)


def _replace_section(
    text: str, names: Sequence[str], body: str, heading: str, before: Sequence[str], rst_text: bool
) -> str:
    lines = text.split("\n")
    found = _headings(lines, rst_text)
    start = _find(found, names)
    if start is None:
        at = _find(found, before)
        if rst_text:
            rule = next((lines[h.end - 1][0] for h in found if h.level > 1), "-")
            insert = [heading, rule * len(heading), "", body, ""]
        else:
            insert = [f"## {heading}", "", body, ""]
        if at is None:
            return text.rstrip("\n") + "\n\n" + "\n".join(insert)
        lines[found[at].first : found[at].first] = insert
        return "\n".join(lines)
    # Up to the next heading: MADR's "### Consequences" under its "Decision Outcome" stays, and
    # so does the comment MADR writes above a heading (`<!-- This is an optional element. -->`).
    end = found[start + 1].first if start + 1 < len(found) else len(lines)
    while end > found[start].end and _NOTE_LINE.match(lines[end - 1]) and start + 1 < len(found):
        end -= 1
    lines[found[start].end : end] = ["", body, ""]
    return "\n".join(lines)


_NOTE_LINE = re.compile(r"^[ \t]*<!--.*-->[ \t]*$")


def _headings(lines: list[str], rst_text: bool) -> list[rst.Heading]:
    """The section titles after the frontmatter (whose YAML comments also start with `#`)."""
    if rst_text:
        return rst.headings(lines)
    end = frontmatter_span(lines)
    start = 0 if end is None else end + 1
    return [
        dataclasses.replace(h, first=h.first + start, text_at=h.text_at + start, end=h.end + start)
        for h in md_headings(lines[start:])
    ]


def _find(found: list[rst.Heading], names: Sequence[str]) -> int | None:
    """The section named one of `names`, the first name first: MADR's "Decision Drivers" comes
    before its "Decision Outcome", and a template's "Decision Drivers" is not its "Decision"."""
    titles = [h.text.strip(" :*").lower() if h.level > 1 else "" for h in found]
    for name in names:
        if name in titles:
            return titles.index(name)
    return next((n for name in names for n, title in enumerate(titles) if title.startswith(name)), None)


def with_body(text: str, body: str, rst_text: bool = False) -> str:
    """The record with its sections replaced by `body` (`--body-file`): what comes before them
    (the title, a `Date:` line) and a Status section stay, so the status `adr new` was given
    is still stated."""
    (text, crlf), body = _as_lf(text), _as_lf(body)[0]
    lines = text.split("\n")
    cut = next((h.first for h in _headings(lines, rst_text) if h.level > 1 and not is_status_heading(h.text)), None)
    kept = text if cut is None else "\n".join(lines[:cut])
    return _as_written(kept.rstrip("\n") + "\n\n" + body.strip("\n") + "\n", crlf)


def state_in_section(text: str, status: str, rst_text: bool = False) -> str | None:
    """The record with `status` written in its Status section, when it has one that says
    nothing yet (a template's comment, as a folder's own template may leave it); else None."""
    text, crlf = _as_lf(text)
    lines = text.split("\n")
    found = [h for h in _headings(lines, rst_text) if h.level > 1]
    at = next((n for n, h in enumerate(found) if is_status_heading(h.text)), None)
    if at is None:
        return None
    end = next((h.first for h in found[at + 1 :] if h.level <= found[at].level), len(lines))
    if not says_nothing("\n".join(lines[found[at].end : end]), rst_text):
        return None
    lines[found[at].end : end] = ["", status, ""]
    return _as_written("\n".join(lines), crlf)


def says_nothing(section_text: str, rst_text: bool = False) -> bool:
    """Whether a section holds only a template's placeholders (comments, "Chosen option:
    \"\", because .", empty bullets). A section left empty on purpose ("-") is not one: it
    holds no placeholder. `rst_text`: the comments are reStructuredText's (`.. text`)."""
    bare = rst.without_comments(section_text) if rst_text else without_comments(section_text)
    if bare == section_text and not _SCAFFOLD.search(section_text):
        return False
    text = _SCAFFOLD.sub("", bare)
    return not _MARKS.sub("", text)
