"""reStructuredText records (Open edX and other Sphinx projects keep `docs/decisions/0001-x.rst`):
their section titles, their links, and the comment line that holds what markdown records keep
in frontmatter.

A section title is a line of text under a line of one punctuation character repeated as long
as the text (or four times; and, in a second style, also over one). Levels are not fixed by
the character: the first style a document uses is its title, the next one its sections, and
so on.

reStructuredText has no frontmatter: the keys a command owns (`reviewed` from `adr affirm`,
`governs` and `rules` from `adr new`, a link a record without a Status section cannot show) go
into one comment line at the top, `.. adr-memory: {...}`, a YAML flow mapping that readers of
the rendered page never see. A status goes where they see it: a Status section.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# One punctuation character repeated (reStructuredText's adornment), nothing else on the line.
_RULE = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*")
META = re.compile(r"\.\. adr-memory:[ \t]*(\S(?:.*\S)?)?[ \t]*")  # blanks an editor left after it too
META_PREFIX = ".. adr-memory: "
# `text <0003-x.rst>`_ (or __, an anonymous link): a link to another record.
LINK = re.compile(r"`([^`<]*)<([^<>`\s]+)>`__?")
# :doc:`0027-x` or :doc:`Title <0027-x>`: Sphinx's reference to another document, no suffix.
DOC = re.compile(r":doc:`(?:([^`<]*)<)?([^`<>\s]+)>?`")


@dataclass(frozen=True)
class Heading:
    first: int  # index of its first line (the overline, or the text)
    text_at: int  # index of the line holding its text
    end: int  # index of the line after its underline
    level: int  # 1 for the document's first style (its title), 2 for the next, ...
    text: str


def _rule(line: str) -> str | None:
    """The character a line repeats when it is an adornment line, else None."""
    match = _RULE.fullmatch(line.rstrip("\n"))
    return match.group(1) if match else None


def _long_enough(rule: str, text: str) -> bool:
    """docutils takes a rule shorter than its title's text for a title still (with a warning)
    from four characters on."""
    return len(rule.rstrip()) >= min(len(text), 4)


def headings(lines: Sequence[str]) -> list[Heading]:
    """The section titles of a document (lines without their endings). A title follows a blank
    line (or the start, or another title) and starts at the margin; its rule is as docutils
    takes it (`_long_enough`)."""
    styles: list[tuple[str, bool]] = []
    found: list[Heading] = []
    i, after_break = 0, True
    while i + 1 < len(lines):
        line = lines[i]
        over = _rule(line)
        if (
            over
            and i + 2 < len(lines)
            and lines[i + 1].strip()
            and _rule(lines[i + 2]) == over
            and _long_enough(lines[i + 2], lines[i + 1].strip())
            and _rule(lines[i + 1]) is None
        ):
            style, text_at, end = (over, True), i + 1, i + 3
        elif (
            after_break
            and line.strip()
            and not line[0].isspace()
            and over is None
            and (under := _rule(lines[i + 1]))
            and _long_enough(lines[i + 1], line.rstrip())
        ):
            style, text_at, end = (under, False), i, i + 2
        else:
            after_break = not line.strip()
            i += 1
            continue
        if style not in styles:
            styles.append(style)
        found.append(Heading(i, text_at, end, styles.index(style) + 1, lines[text_at].strip()))
        i, after_break = end, True
    return found


def split_title(found: list[Heading]) -> tuple[Heading | None, list[Heading]]:
    """A document's title (its first section title, if it is of the first style) and its
    sections (every other title)."""
    if found and found[0].level == 1:
        return found[0], found[1:]
    return None, found


# Explicit markup that is not a comment: a directive (`.. code-block::`), a link target
# (`.. _name:`), a substitution (`.. |name|`), a footnote or citation (`.. [1]`).
_MARKUP = re.compile(r"\.\.[ \t]+(?:_|\||\[|[\w.+-]+::)")


def without_comments(text: str) -> str:
    """`text` without its comments: a `..` line that is no other markup, with the indented
    lines that continue it (a template's placeholders are written so)."""
    out: list[str] = []
    inside = False
    for line in text.split("\n"):
        if inside and (not line.strip() or line[0].isspace()):
            continue
        inside = (line.rstrip() == ".." or line.startswith((".. ", "..\t"))) and not _MARKUP.match(line)
        if not inside:
            out.append(line)
    return "\n".join(out)


def link(label: str, target: str) -> str:
    """A link to another record, as reStructuredText writes one (GitHub renders it as a link
    to the file)."""
    return f"`{re.sub(r'[`<>]', '', label)} <{target}>`_"


def fit_title(text: str) -> str:
    """`text` with its title's rules as long as the title (a template's are a guess)."""
    lines = text.split("\n")
    head, _sections = split_title(headings(lines))
    if head is not None:
        for at in range(head.first, head.end):
            if at != head.text_at:
                lines[at] = lines[at][0] * max(len(head.text), 3)
    return "\n".join(lines)
