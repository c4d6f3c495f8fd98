"""A decision's reasons written into its template (`adr new --context/--option/--decision/
--consequences`, `--body-file`), and the check that an accepted record says something.

Pure text in, text out: the template decides the headings (MADR's "Context and Problem
Statement" or Nygard's "Context"), we fill what the user gave and leave the rest as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from adr_memory.record import frontmatter_span, without_comments

_HEADING = re.compile(r"^(#{2,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
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


def fill(text: str, reasons: Reasons) -> str:
    """The record with each given reason in its section (the section's placeholder text
    replaced); a section the template lacks is added in the usual order."""
    for field, names, heading in _SECTIONS:
        value = getattr(reasons, field)
        if not value:
            continue
        body = "\n".join(f"* {o.strip()}" for o in value) if field == "options" else value.strip()
        text = _replace_section(text, names, body, heading, before=_after(field))
    return text


def _after(field: str) -> tuple[str, ...]:
    """Headings a missing section goes before, so an added section lands in the usual order."""
    order = [names for f, names, _h in _SECTIONS]
    index = [f for f, _n, _h in _SECTIONS].index(field)
    return tuple(n for names in order[index + 1:] for n in names)


def _replace_section(text: str, names: Sequence[str], body: str, heading: str,
                     before: Sequence[str]) -> str:
    lines = text.split("\n")
    start = _find(lines, names)
    if start is None:
        at = _find(lines, before)
        insert = [f"## {heading}", "", body, ""]
        if at is None:
            return text.rstrip("\n") + "\n\n" + "\n".join(insert)
        lines[at:at] = insert
        return "\n".join(lines)
    level = len(_HEADING.match(lines[start]).group(1))  # type: ignore[union-attr]
    end = start + 1
    while end < len(lines):
        match = _HEADING.match(lines[end])
        if match and len(match.group(1)) <= level:
            break
        end += 1
    lines[start + 1:end] = ["", body, ""]
    return "\n".join(lines)


def _body_start(lines: list[str]) -> int:
    """The first line after the frontmatter (whose YAML comments also start with `#`)."""
    end = frontmatter_span(lines)
    return 0 if end is None else end + 1


def _find(lines: list[str], names: Sequence[str]) -> int | None:
    start = _body_start(lines)
    for i, line in enumerate(lines[start:], start=start):
        match = _HEADING.match(line)
        if match and match.group(2).strip(" :*").lower().startswith(tuple(names)):
            return i
    return None


def with_body(text: str, body: str) -> str:
    """The record with everything after its title replaced by `body` (`--body-file`)."""
    lines = text.split("\n")
    start = _body_start(lines)
    title = next((i for i, line in enumerate(lines) if i >= start and re.match(r"^#[ \t]+\S", line)), None)
    if title is None:
        return text.rstrip("\n") + "\n\n" + body.strip("\n") + "\n"
    return "\n".join(lines[:title + 1]) + "\n\n" + body.strip("\n") + "\n"


def says_nothing(section_text: str) -> bool:
    """Whether a section holds only a template's placeholders (comments, "Chosen option:
    \"\", because .", empty bullets). A section left empty on purpose ("-") is not one: it
    holds no placeholder."""
    bare = without_comments(section_text)
    if bare == section_text and not _SCAFFOLD.search(section_text):
        return False
    text = _SCAFFOLD.sub("", bare)
    return not _MARKS.sub("", text)
