"""Links between records as they are written: frontmatter keys, status lines (`Superseded by
ADR-9`), metadata fields and prose (`in favour of ...`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from adr_memory.records import languages, rst
from adr_memory.records.grammar import TASK, unstruck
from adr_memory.records.model import LINK_KEYS, Link, Problem, Section
from adr_memory.records.names import (
    RECORD_SUFFIXES,
    _number,
    file_id,
    format_id,
    named_by_date,
    named_by_year,
    normalise_id,
    record_name,
    stem,
)

# Record text is anyone's input: no pattern here may backtrack over a run of what it cannot
# match (a line of 50,000 "[" or spaces). Each one below reads a character once or twice.
MD_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]+)[^()\[]*\)")
_MD_LINK_OR_IMAGE = re.compile(r"!?" + MD_LINK.pattern)


def plain(text: str) -> str:
    """Markdown as a reader sees it, for a snippet: a link or an image is its text, bold's
    asterisks go, comments go, and runs of white space are one space."""
    from adr_memory.records.frontmatter import without_comments

    unmarked = _MD_LINK_OR_IMAGE.sub(r"\1", without_comments(text)).replace("**", "")
    return " ".join(unmarked.split())


_ADR_REF = r"\[?#?(?:ADR[-\s]?)?#?(\d+)"  # ADR-7, ADR 7, [ADR-7, 7, #7
# Status text that names a relation: "accepted; supersedes ADR-0045", "superseded by: ADR-0057".
STATUS_LINKS = (
    (
        "superseded-by",
        re.compile(
            r"(?:(?:super[sc]eded|replaced|obsoleted)\s+by|" + languages.REPLACED_BY + r")[\s:]+" + _ADR_REF,
            re.IGNORECASE,
        ),
    ),
    ("supersedes", re.compile(r"\b(?:super[sc]edes|replaces)[\s:]+" + _ADR_REF, re.IGNORECASE)),
    ("amended by", re.compile(r"\bamended\s+by[\s:]+" + _ADR_REF, re.IGNORECASE)),
    ("amends", re.compile(r"\bamends[\s:]+" + _ADR_REF, re.IGNORECASE)),
)
# More records listed after the first a relation names: "superseded by ADR-5 and ADR-6".
# (No leading blanks: `_listed` steps over them, so no match can start at each of a long run.)
_AND_REF = re.compile(r"(?:,|&|\band\b)[ \t]*+ADR[-\s]?(\d+)", re.IGNORECASE)
_FIELD_RELS = {
    "supersedes": "supersedes",
    "superseded by": "superseded-by",
    "updates": "amends",
    "amends": "amends",
    "updated by": "amended by",
    "amended by": "amended by",
}


def _str_list(meta: Mapping[str, Any], key: str, problems: list[Problem]) -> tuple[str, ...]:
    value = meta.get(key)
    if value is None:
        return ()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # `supersedes: 3`: one number, as YAML reads it
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    problems.append(
        Problem("schema", f"`{key}` must be a list of text values", 1, f'write it as {key}: ["a", "b"]', key=key)
    )
    return ()


def _links(
    meta: Mapping[str, Any],
    fields: Mapping[str, tuple[str, int]],
    status_text: str,
    status_line: int,
    sections: tuple[Section, ...],
    preamble: list[tuple[int, str]],
    problems: list[Problem],
    status: str = "unknown",
    where: Mapping[str, int] | None = None,
) -> tuple[Link, ...]:
    """Every link a record states; one written in frontmatter points at its key's line (`where`)."""
    where = where or {}
    links: list[Link] = []
    for key, rel in LINK_KEYS.items():
        for target in _str_list(meta, key, problems):
            links.append(Link(rel, normalise_id(target), where.get(key, 1)))
    items = meta.get("links") or []
    if not isinstance(items, list):
        problems.append(
            Problem(
                "schema",
                "`links` must be a list of {rel, id} mappings",
                1,
                "write it as links: [{rel: amends, id: ADR-0003}]",
                key="links",
            )
        )
        items = []
    for item in items:
        if isinstance(item, Mapping) and "id" in item:
            links.append(
                Link(_rel(str(item.get("rel", "relates-to"))), normalise_id(item["id"]), where.get("links", 1))
            )
    dated, status_text = _dated_links(unstruck(status_text))
    links.extend(Link(_rel(before), named, status_line, name) for before, named, name in dated)
    for doc in rst.DOC.finditer(status_text):  # `:Status: Superseded by :doc:`0027-x``
        href = doc.group(2) + ".rst"
        if (named := file_id(record_name(href))) is not None:
            links.append(Link(_rel(_before(status_text, doc.start())), named, status_line, href))
    for rel, pattern in STATUS_LINKS:
        for match in pattern.finditer(status_text):
            for digits in _listed(status_text, match):
                if (number := _number(digits)) is not None:
                    links.append(Link(rel, format_id(number), status_line))
    if _names_successor(status, status_text) and not any(link.rel == "superseded-by" for link in links):
        links.extend(_successors_named(status_text, status_line))
    for key, rel in _FIELD_RELS.items():
        dated, value = _dated_links(fields.get(key, ("", 0))[0])
        line = fields.get(key, ("", 0))[1]
        links.extend(Link(rel, named, line, name) for _, named, name in dated)
        for digits in re.findall(r"(?:ADR[-\s]?|\b)(\d+)\b", value, re.IGNORECASE):
            if (number := _number(digits)) is not None:
                links.append(Link(rel, format_id(number), line))
    links.extend(_status_section_links(sections))
    links.extend(_header_links(preamble))
    stated = {link.target for link in links if link.rel == "supersedes"}
    links.extend(link for link in _prose_supersedes(preamble) if link.target not in stated)
    links.extend(link for link in _link_lines([(status_line, status_text)]) if link.rel in _TITLE_NAMED_RELS)
    unique: dict[Link, Link] = {}
    for link in links:  # one relation named twice: keep the one that says which file it links
        if link not in unique or (link.file and not unique[link].file):
            unique[link] = link
    return tuple(unique.values())


# A record a status names by number: `ADR-5`, `ADR 5` (a bare number may be a date's, and
# `#5` an issue's when no "by" says it replaced this one).
_NAMED_REF = re.compile(r"\bADR[-\s]?#?(\d+)\b", re.IGNORECASE)


def _names_successor(status: str, status_text: str) -> bool:
    """Whether the records a status names replaced this one: it says it is superseded, or that
    it was retired in favour of another (`Deprecated in favour of ADR-9`; `Rejected in favour
    of ADR-9` was never in force, so nothing took its place)."""
    return status == "superseded" or (status == "deprecated" and _IN_FAVOUR.search(status_text) is not None)


_IN_FAVOUR = re.compile(r"\bin[ \t]+favou?r[ \t]+of\b", re.IGNORECASE)


def _successors_named(status_text: str, line: int) -> Iterator[Link]:
    """The records a superseded record's status names without saying "by": `Superseded (see
    ADR-5)`, `Superseded -> ADR-5`, `Superseded: [ADR-5](0005-x.md)`. A record that says it
    is superseded and names a record names what superseded it."""
    for match in MD_LINK.finditer(status_text):
        href = match.group(2).split("#", 1)[0]
        name = record_name(href)
        if name.lower().endswith(RECORD_SUFFIXES) and (named := file_id(name)) is not None:
            yield Link("superseded-by", named, line, href)
    for digits in _NAMED_REF.findall(MD_LINK.sub(" ", status_text)):
        if (number := _number(digits)) is not None:
            yield Link("superseded-by", format_id(number), line)


def _listed(text: str, match: re.Match[str]) -> Iterator[str]:
    """The number a relation names, then each one listed after it with an `ADR` prefix."""
    yield match.group(1)
    end = match.end()
    while (more := _AND_REF.match(text, len(text) - len(text[end:].lstrip(" \t")))) is not None:
        yield more.group(1)
        end = more.end()


def _dated_links(text: str) -> tuple[list[tuple[str, str, str]], str]:
    """(the text before it, the id, the link) of each markdown link in `text` to a record named
    by its date or what could be a year, and `text` with those links blanked: the digits of a
    date are no record numbers, and a year's are the folder's to read."""
    found: list[tuple[str, str, str]] = []

    def take(match: re.Match[str]) -> str:
        href = match.group(2).split("#", 1)[0]
        name = record_name(href)
        named = file_id(name)
        if named is None or not (named_by_date(name) or named_by_year(name)):
            return match.group(0)
        found.append((_before(text, match.start()), named, href))
        return " " * len(match.group(0))

    return found, MD_LINK.sub(take, text)


def _status_section_links(sections: tuple[Section, ...]) -> Iterator[Link]:
    """adr-tools link lines: `Superseded by [3. Title](0003-title.md)`, `Amends [..](..)`."""
    for section in sections:
        if languages.is_status_heading(section.heading):
            yield from _link_lines((section.text_line + i, line) for i, line in enumerate(section.text.split("\n")))


def _header_links(preamble: list[tuple[int, str]]) -> Iterator[Link]:
    """Link items in MADR 2's header list, where `adr supersede` writes them beside its status
    (`* Status: accepted`, then `* Supersedes [1. Use X](0001-use-x.md)`): an item that names
    the relation and nothing else before its link. Prose under a title (`This decision has
    been superseded by decision: [...]`) states no status, and is not read as one."""
    items = [(number, line) for number, line in preamble if _HEADER_ITEM.match(line)]
    for link in _link_lines(items):
        if link.rel in _TITLE_NAMED_RELS:
            yield link


# Prose under the title that says the record supersedes one and links it, the other side of
# what status.py reads as superseded (tdr: "This decision supersedes decision: [0008 ...](0008-x.md)").
_PROSE_SUPERSEDES = re.compile(r"\b(?:super[sc]edes|replaces)\b[^\[\n]{0,40}+\[[^\]\n]*\]\(([^)\s]+)\)", re.IGNORECASE)


def _prose_supersedes(preamble: list[tuple[int, str]]) -> Iterator[Link]:
    for number, line in preamble:
        for match in _PROSE_SUPERSEDES.finditer(line):
            target = match.group(1).split("#", 1)[0]
            name = record_name(target)
            if name.lower().endswith(RECORD_SUFFIXES) and (named := file_id(name)) is not None:
                yield Link("supersedes", named, number, target)


# `* Supersedes [..](..)`, `- **Superseded by:** [..](..)`, `* Status: Superseded by [..](..)`.
_HEADER_ITEM = re.compile(
    r"^[ \t]*[-*+][ \t]+[*_]*(?:status[*_]*:[*_ \t]*)?(?:[^\W\d_]+[ \t]+){0,2}[^\W\d_]+[*_:]*[ \t]*\[", re.IGNORECASE
)


def _link_lines(lines: Iterable[tuple[int, str]]) -> Iterator[Link]:
    for number, line in lines:
        task = TASK.match(line)
        if task and task.group(1) == " ":
            continue  # a choice not taken: `- [ ] Superseded by [ADR-3](0003-x.md)`
        line = unstruck(line)
        for match in [*MD_LINK.finditer(line), *rst.LINK.finditer(line), *rst.DOC.finditer(line)]:
            target = match.group(2).split("#", 1)[0] + (".rst" if match.re is rst.DOC else "")
            name = record_name(target)
            if not name.lower().endswith(RECORD_SUFFIXES):
                continue
            rel = _rel(_before(line, match.start()))
            # A file named by its title (`use-kafka.md`, in a folder that numbers none) is a
            # record when the line names how it relates: other links there are references.
            named = file_id(name) or (stem(name) if rel in _TITLE_NAMED_RELS and "://" not in target else None)
            if named is not None:
                yield Link(rel, named, number, target)


_TITLE_NAMED_RELS = {"superseded-by", "supersedes", "depends-on", "amends", "amended by"}


# Before a link, what says the record linked replaced this one: `Superseded by`, `Superseded
# (see`, `Superseded ->`, `Obsoleted by`.
_SUCCESSOR_WORDS = re.compile(r"\b(?:super[sc]ee?ded|replaced|obsoleted)\b")


# What names a link's relation stands at the start of its line (`Superseded by`) or just before
# it (`, amends`): of a longer text before a link, the words read are its head and its tail, so
# a line of thousands of links is read in work linear in its length, not its square.
_HEAD, _TAIL = 600, 200


def _before(text: str, end: int) -> str:
    """The text before `end` that names a link's relation: all of it, or its head and tail."""
    if end <= _HEAD + _TAIL:
        return text[:end]
    return text[:_HEAD] + " … " + text[end - _TAIL : end]


def _rel(text: str) -> str:
    words = " ".join(re.findall(r"[a-z]+", text.lower()))
    if _SUCCESSOR_WORDS.search(words) or re.search(languages.REPLACED_BY, text, re.IGNORECASE):
        return "superseded-by"
    if (
        words.endswith(("supersedes", "replaces"))
        or words.startswith(("supersedes", "replaces"))
        or " ".join(text.split()).lower() in languages.REPLACES
    ):
        return "supersedes"
    if "depends on" in words:
        return "depends-on"
    # Only what says "related" and nothing more is relates-to: any other text is its own relation,
    # and round-trips ("Led to" and its reverse "Caused by" once read as relates-to).
    if not words or words in _RELATED or words.split()[-1] in _STATUS_WORDS:
        return "relates-to"
    return words


_RELATED = {"see", "see also", "relates", "related", "relates to", "related to", "relate to", "see related"}
_STATUS_WORDS = {"accepted", "rejected", "proposed", "deprecated"}


def _format_name(
    meta: Mapping[str, Any], fields: Mapping[str, Any], heading: str, sections: tuple[Section, ...]
) -> str:
    if meta:
        return "frontmatter"
    if "status" in fields and not any(languages.is_status_heading(s.heading) for s in sections):
        return "madr"
    if re.match(r"^ADR[-\s]*\d+", heading, re.IGNORECASE):
        return "tendermint"
    if any(languages.is_status_heading(s.heading) for s in sections):
        return "nygard"
    return "plain"
