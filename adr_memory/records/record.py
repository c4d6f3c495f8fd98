"""One decision record: parse every common ADR format as it is, and edit only the keys we own.

Formats read without migration (ARCHITECTURE.md §1): YAML frontmatter (ours and MADR 4), the
MADR 2/3 `* Status: ...` list header, Nygard/adr-tools (`# 1. Title`, `Date:`, `## Status`
with link lines) and Tendermint (`# ADR 012: Title`, `## Changelog`, `## Status`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from adr_memory.records import badges, languages, rst

STATUSES = ("proposed", "accepted", "rejected", "deprecated", "superseded")

# The leading word of a free-text status, mapped to our vocabulary. Words seen in real folders
# (cloud-platform, cometbft, adr-tools, MADR) are listed; anything else is "unknown".
_STATUS_WORDS = {
    "proposed": "proposed",
    "proposal": "proposed",
    "draft": "proposed",
    "pending": "proposed",
    "review": "proposed",
    "wip": "proposed",
    "incomplete": "proposed",
    "open": "proposed",
    "rfc": "proposed",
    "discussion": "proposed",
    "in": "proposed",  # "In review", "In progress"
    "accepted": "accepted",
    "approved": "accepted",
    "implemented": "accepted",
    "adopted": "accepted",
    "done": "accepted",
    "agreed": "accepted",
    "decided": "accepted",
    "active": "accepted",
    "partially": "accepted",  # "Partially Accepted"/"Partially implemented"
    "rejected": "rejected",
    "declined": "rejected",
    "refused": "rejected",
    "abandoned": "rejected",
    "deprecated": "deprecated",
    "obsolete": "deprecated",
    "retired": "deprecated",
    "reverted": "deprecated",
    "withdrawn": "deprecated",
    "superseded": "superseded",
    "replaced": "superseded",
    "superceded": "superseded",
    "superseeded": "superseded",
    "deferred": "proposed",
    "postponed": "proposed",
    "paused": "proposed",  # not in force, not decided against
    "completed": "accepted",
    "complete": "accepted",
    "final": "accepted",
    "ratified": "accepted",
    "effective": "accepted",
    "accept": "accepted",
    "discarded": "rejected",
    "amended": "accepted",  # "Amended by ADR-9": in force, as amended
    "cancelled": "rejected",
    "canceled": "rejected",
    "dropped": "rejected",
    "archived": "deprecated",
    "revoked": "deprecated",
    "invalidated": "deprecated",
    "outdated": "deprecated",
    "shelved": "proposed",
    "parked": "proposed",
    "tbd": "proposed",
    "idea": "proposed",
    "confirmed": "accepted",
    "finalized": "accepted",
    "finalised": "accepted",
    "implementing": "accepted",
    "retracted": "deprecated",
    "obsoleted": "superseded",  # "Obsoleted by ADR-9", as RFCs say it
    "suggested": "proposed",
    "requested": "proposed",
    "planned": "proposed",
    "candidate": "proposed",
    "preliminary": "proposed",
    "tentative": "proposed",
    "provisional": "proposed",
    "voting": "proposed",
    "awaiting": "proposed",
    "blocked": "proposed",
    "settled": "accepted",
    "enacted": "accepted",
    "enforced": "accepted",
    "signed": "accepted",
    "invalid": "rejected",
    "duplicate": "rejected",
    "wont": "rejected",
    "expired": "deprecated",
    "sunset": "deprecated",
    "sunsetted": "deprecated",
    "decommissioned": "deprecated",
}
# Before a status word, what turns it around: "Not accepted" was rejected, "Not yet approved"
# is still proposed ("won't do" reads as "won", "t", "do"); "Nicht akzeptiert", "No aceptado".
_NEGATIONS = frozenset({"not", "never", "t", "nicht", "non", "no", "niet", "não", "nao"})
# A status whose first word says nothing alone is read by its first two: "In effect" is in
# force, "In review" (the leading word's reading) is not; "Work in progress", "Ready for review".
_STATUS_PHRASES = {
    ("in", "effect"): "accepted",
    ("in", "force"): "accepted",
    ("in", "kraft"): "accepted",
    ("in", "use"): "accepted",
    ("in", "place"): "accepted",
    ("in", "production"): "accepted",
    ("under", "review"): "proposed",
    ("under", "discussion"): "proposed",
    ("under", "consideration"): "proposed",
    ("on", "hold"): "proposed",
    ("work", "in"): "proposed",
    ("ready", "for"): "proposed",
    ("needs", "review"): "proposed",
}
# "Akzeptiert", "Aceptada", ... (ADR-0048); an English reading of a word stands.
_STATUS_WORDS.update({word: status for word, status in languages.STATUS_WORDS.items() if word not in _STATUS_WORDS})


def written(status_text: str, status: str) -> str | None:
    """`status` (or "by": superseded by, "replaces": supersedes) in the language `status_text`
    is written in, when that is one of `languages.SAID`'s; None for English or one not known."""
    words = _WORD.findall(marked(status_text).lower())
    return languages.written(words[0], status) if words else None


# Frontmatter link keys (ours, plus the spellings MADR and other tools use).
LINK_KEYS = {
    "supersedes": "supersedes",
    "superseded-by": "superseded-by",
    "superseded_by": "superseded-by",
    "supersededBy": "superseded-by",
    "replaced-by": "superseded-by",
    "replaced_by": "superseded-by",
    "replaces": "supersedes",
    "amends": "amends",
    "amended-by": "amended by",
    "amended_by": "amended by",
    "relates-to": "relates-to",
    "relates_to": "relates-to",
    "related": "relates-to",
    "depends-on": "depends-on",
    "depends_on": "depends-on",
}

# A title longer than this is a mistake (a paragraph run into the heading), or worse: lists
# and agents' answers show this much of it, and `adr check` warns.
MAX_TITLE = 200
_NUMBERED_FILE = re.compile(r"^(?:adr[-_ ]?)?(\d+)(?=[-_ .]|$)", re.IGNORECASE)
# A name that starts with a date (`2021-06-01-release-process.md`, log4brains' `20210601-x.md`)
# is named by it, not numbered: read as a number, every record of a year (or of a day) would
# share one id. A year alone (`2020-x.md`) stays a number: `1999-x.md` is record 1999 of a
# folder with thousands.
_DATED_FILE = re.compile(
    r"^(?:adr[-_ ]?)?(?P<y>19[7-9]\d|20\d\d)"
    r"(?P<sep>-?)(?P<m>0[1-9]|1[0-2])(?P=sep)(?P<d>0[1-9]|[12]\d|3[01])"
    r"(?=[-_ .]|$)",
    re.IGNORECASE,
)
# linq2db names its decisions by year alone (`2020-eager-loading.md`). One such name cannot
# say whether it is a year or a number (`1999-x.md` is record 1999 of a folder with thousands):
# the folder decides (catalog.from_files).
_YEAR_FILE = re.compile(r"^(?:adr[-_ ]?)?(?:19[7-9]\d|20\d\d)[-_ ]", re.IGNORECASE)
# A proposal not numbered yet: pyadr names it `XXXX-use-kafka.md` and gives it the next number
# when it is accepted. Its name is its id until then (`XXXX-template.md` stays a template).
_PENDING_FILE = re.compile(r"^(?:adr[-_ ]?)?(?:x{3,}|n{3,})[-_ ](?=[^\W_])", re.IGNORECASE)
# A markdown heading's closing `#`s are stripped in code (`atx_heading`): `(.*?)[ \t]*#*[ \t]*$`
# splits a run of spaces between its two `[ \t]*` every way there is (a 2,000-space heading
# took 8 seconds).
_ATX = re.compile(r" {0,3}(#{1,6})[ \t]+(.*)")
_FENCE = re.compile(r"^ {0,3}(```+|~~~+)")
# `ADR-7: x`, `[ADR-0007] x`, `ADR #7 – x`, `7. x`, `7: x`.
_TITLE_PREFIX = re.compile(r"^(?:\[?ADR[-\s]*#?\d+\]?\s*[:.\-–—·|]?\s*|\d+\s*[.:](?!\d)\s*)", re.IGNORECASE)
# `0007 x`, `0007 - x`, `7) x`: the record's own number only (`# 2024 roadmap` keeps its year,
# `# 3-tier web` its number).
_BARE_NUMBER = re.compile(r"^#?(\d+)(?!\d)(?:[ \t]*\)[ \t]*|[ \t]+[\-–—][ \t]+|[ \t]+)(\S.*)")
_ID_TEXT = re.compile(r"^(?:adr[-_ ]?)?(\d+)$", re.IGNORECASE)  # _number drops leading zeros
# Record text is anyone's input: no pattern here may backtrack over a run of what it cannot
# match (a line of 50,000 "[" or spaces). Each one below reads a character once or twice.
MD_LINK = re.compile(r"\[([^\[\]]*)\]\(([^()\s]+)[^()\[]*\)")
_LIST_FIELD = re.compile(r"^\s*[*-]\s+([A-Za-z][\w \t-]*):\s*(.*)$")
# The day a record was written, under other names (backstage's `| Created | Status |`, `Recorded:`).
_DATE_NAMES = {"created": "date", "recorded": "date", "decided": "date"}
_LIFECYCLE_NAMES = "status|date|" + "|".join([*languages.FIELD_NAMES, *_DATE_NAMES])  # `- Statut : acceptée`
_PLAIN_FIELD = re.compile(rf"^({_LIFECYCLE_NAMES})\s*:\s*(.+)$", re.IGNORECASE)
# reStructuredText's field list under the title (`:Status: Accepted`, `:Superseded-By: ...`).
FIELD_LIST = re.compile(r"^:([A-Za-z][\w -]*):[ \t]+(\S.*)$")
_UNFILLED = re.compile(r"^[\[{(<]?\s*\w+(\s*\|\s*\w+)+\s*[\]})>]?$")
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
_TOP_KEY = re.compile(r"^([A-Za-z0-9_][\w.-]*)\s*:")
# A `Status:` or `Date:` line before the first section (Nygard's `Date:`, MADR 2/3's list
# header): lifecycle, not content.
LIFECYCLE_LINE = re.compile(rf"^\s*(?:[*-]\s+)?({_LIFECYCLE_NAMES})\s*:", re.IGNORECASE)

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
# What `Record.parts` names the text before the first section, and a record's text without one.
OPENING, WHOLE = "Introduction", "Body"


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    level: int
    line: int  # 1-based line of the heading in the file
    text: str  # stripped of surrounding blank lines
    text_line: int = 0  # 1-based line where `text` starts


@dataclass(frozen=True, slots=True)
class Link:
    rel: str  # supersedes, superseded-by, relates-to, depends-on, or free text ("amends")
    target: str  # ADR-0007, or the text as written when it names no number
    line: int = 0
    file: str = field(default="", compare=False)  # the file a markdown link names, as written


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str
    message: str
    line: int = 0
    hint: str | None = None


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

    @property
    def status_reason(self) -> str:
        """Why the status is what it is: `status-reason:` in frontmatter, else what the status
        text says after its first word ("Deprecated: the service is gone")."""
        reason = self.meta.get("status-reason")
        if isinstance(reason, str) and reason.strip():
            return reason.strip()
        logged = STATUS_LOG.match(self.status_text)
        said = self.status_text[logged.end() :] if logged else self.status_text  # a log entry's date
        rest = re.sub(r"^\W*\w+\W*", "", said, count=1) if self.status_stated else ""
        return rest.strip()

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


# ---------------------------------------------------------------------------- identity


def _number(digits: str) -> int | None:
    """A record number from its digits; None past nine significant ones (no folder holds a
    billion records, and int() refuses a string of 4,300 digits that record text may hold)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else None


def file_number(filename: str) -> int | None:
    """The number a record file name starts with (`0007-x.md`, `adr-012-x.md`), else None
    (a name that starts with a date has none)."""
    match = _NUMBERED_FILE.match(filename)
    return _number(match.group(1)) if match and not named_by_date(filename) else None


def named_by_date(filename: str) -> bool:
    """Whether a record file's name starts with a date rather than a number."""
    return _DATED_FILE.match(filename) is not None


def named_by_year(filename: str) -> bool:
    """Whether a record file's name starts with what could be a year (`2020-x.md`)."""
    return _YEAR_FILE.match(filename) is not None and not named_by_date(filename)


def file_date(filename: str) -> str | None:
    """The date (`YYYY-MM-DD`) a record file name starts with (`2021-06-01-x.md`,
    `20210601-x.md`), else None."""
    match = _DATED_FILE.match(filename)
    return f"{match['y']}-{match['m']}-{match['d']}" if match else None


def file_id(filename: str) -> str | None:
    """The id a record's file name gives it: `ADR-0007` for `0007-x.md`, the name without
    `.md` for one named by its date (unique where the date is not) or not numbered yet
    (`XXXX-x.md`); None for any other name."""
    number = file_number(filename)
    if number is not None:
        return format_id(number)
    return stem(filename) if named_by_date(filename) or _PENDING_FILE.match(filename) else None


# A record kept in a folder of its own, which names it: pipe-cd's `adr/20240524-pipeline/index.md`
# (a Hugo page bundle, beside its images), `000-documenting-architecture-decisions/README.md`.
# The folder's name carries a title after its number or date: `2023/README.md` is a year's index.
_PAGE_FILE = re.compile(r"^(?:index|readme)$", re.IGNORECASE)
_RECORD_FOLDER = re.compile(r"^(?:adr[-_ ]?)?\d[\d-]*+[_ .]?+(?<=[-_ .]).*?[^\W\d_]", re.IGNORECASE)


def record_file(path: str) -> str:
    """A record's path as if it were a file of its folder: `adr/20240524-pipeline/index.md` is
    `adr/20240524-pipeline.md`; any other path is itself."""
    folder, _, name = path.rpartition("/")
    parent = folder.rpartition("/")[2]
    if _PAGE_FILE.match(stem(name)) and _RECORD_FOLDER.match(parent) and file_id(parent + suffix(name)):
        return folder + suffix(name)
    return path


def record_name(path: str) -> str:
    """The name a record goes by (its file's, or its own folder's): what numbers and dates it."""
    return record_file(path).rpartition("/")[2]


# Markdown (`.mdx`: Docusaurus' and fumadocs' folders), and reStructuredText (Open edX's and
# Sphinx's); in any case (`0001-X.MD`).
RECORD_SUFFIXES = (".md", ".markdown", ".mdx", ".rst")


def stem(filename: str) -> str:
    """A record file's name without its suffix."""
    lower = filename.lower()
    for suffix in RECORD_SUFFIXES:
        if lower.endswith(suffix):
            return filename[: -len(suffix)]
    return filename


def suffix(filename: str) -> str:
    """A record file's suffix as written (`.md`, `.MD`, `.mdx`, `.rst`), "" for none of them."""
    return filename[len(stem(filename)) :]


def is_rst(path: str) -> bool:
    """Whether a record is written in reStructuredText (and so has no frontmatter)."""
    return path.lower().endswith(".rst")


def format_id(number: int) -> str:
    return f"ADR-{number:04d}"


def normalise_id(text: str) -> str:
    """`7`, `0007`, `ADR-7`, `adr-0007` all become `ADR-0007`, and `backend/7` (a record of
    MADR's category `backend`) `backend/ADR-0007`; anything else is kept as written."""
    text = str(text).strip()
    category, _, ident = text.rpartition("/")
    number = _number(match.group(1)) if (match := _ID_TEXT.match(ident)) else None
    if number is None or (category and not _CATEGORY.fullmatch(category)):
        return text
    return f"{category}/{format_id(number)}" if category else format_id(number)


# A category's folder below the ADR folder, as an id names it (`backend`, `platform/api`,
# `Team A`); no part starts with a dot or a space (`..` names no category).
_CATEGORY = re.compile(r"[^/.\s][^/]*(?:/[^/.\s][^/]*)*")


def normalise_status(text: str) -> str:
    """Our status word for a free-text status, from its leading word (emoji and markup skipped,
    and what it strikes out: `~~Proposed~~ Accepted`)."""
    text = html_text(marked(text))
    if text.startswith("[ ]"):  # a checklist with nothing ticked (`_ticked`): no status chosen yet
        return "unknown"
    if (moved := transition(text)) is not None:
        return normalise_status(moved[1])
    words = _WORD.findall(text.lower())
    if not words or "|" in text:  # "{Deprecated|Proposed|Accepted}": an unfilled template
        return "unknown"
    if words[:2] == ["won", "t"]:  # "Won't do", "Won't fix"
        return "rejected"
    if words[0] in _NEGATIONS:
        return _negated(words[1:])
    if tuple(words[:2]) in _STATUS_PHRASES:
        return _STATUS_PHRASES[tuple(words[:2])]
    if words[0] in _STATUS_WORDS:
        return _STATUS_WORDS[words[0]]
    if re.fullmatch(r"\[[^\]]*\]", text.strip()):  # a template's "[change when approved]": no status yet
        return "unknown"
    # A sentence ("The two points above have been implemented; ..."): the first status word
    # of its first clause, participles only, so "in" or "open" in passing do not count.
    clause = _WORD.findall(re.split(r"[.;:\n]", text.lower(), maxsplit=1)[0])
    for n, word in enumerate(clause):
        if word.endswith("ed") and word in _STATUS_WORDS:
            negated = n > 0 and clause[n - 1] in _NEGATIONS  # "The proposal was not accepted."
            return _negated(clause[n:]) if negated else _STATUS_WORDS[word]
    return "unknown"


def _negated(words: Sequence[str]) -> str:
    """The status of a status word turned around (`not accepted`: rejected; `not yet
    accepted`: proposed); unknown when nothing plain is left (`not deprecated`)."""
    waiting = bool(words) and words[0] == "yet"
    rest = words[1:] if waiting else words
    if rest and _STATUS_WORDS.get(rest[0]) == "accepted":
        return "proposed" if waiting else "rejected"
    return "unknown"


# Between the statuses a record went through: `Proposed → Accepted`, `Proposed -> Accepted`,
# `Proposed, then Accepted`.
_TRANSITION = re.compile(r"\u2192|->|=>|\u21d2|\u2794|\u27f6|\bthen\b", re.IGNORECASE)


def transition(text: str) -> tuple[str, str] | None:
    """(the mark before it, with its blanks, and the status it went to) when `text` is a chain
    of statuses, oldest first (`Proposed → Accepted`); None otherwise (`Superseded -> ADR-5`
    names a record)."""
    marks = list(_TRANSITION.finditer(text))
    if not marks:
        return None
    before, after = text[: marks[-1].start()], text[marks[-1].end() :]
    last = after.strip()
    if not _WORD.match(last) or _leading_status(last) is None or _leading_status(text[: marks[0].start()]) is None:
        return None
    mark = before[len(before.rstrip(" \t,")) :] + marks[-1].group(0) + after[: len(after) - len(after.lstrip(" \t"))]
    return mark, last


def _leading_status(text: str) -> str | None:
    words = _WORD.findall(text.lower())
    return _STATUS_WORDS.get(words[0]) if words else None


_WORD = re.compile(r"[^\W\d_]+")  # letters of any script: "Accepté" is one word
_TAG = re.compile(r"<[^<>\n]*>")


def html_text(text: str) -> str:
    """`text` without its HTML tags: `<span style="color:red">Rejected</span>` states Rejected."""
    return " ".join(_TAG.sub(" ", text).split()) if "<" in text else text


_STRUCK = re.compile(r"~~[^~\n]*~~")
# A status ticked in a checklist of the statuses (`- [x] Accepted` among `- [ ] Proposed`).
# The item's words end at its last non-space: `(.*?)[ \t]*$` rescans a run of spaces from
# each place in it (seconds on one long line).
TASK = re.compile(r"^[ \t]*[*+-][ \t]+\[([ xX])\][ \t]*((?:\S(?:.*\S)?)?)")


def marked(text: str) -> str:
    """A status without what it strikes out: the status it replaced, kept struck
    (`~~Proposed~~ **Accepted**`), or the choices not taken (`~~Proposed~~ | **Accepted** |
    ~~Deprecated~~`). Both state Accepted."""
    if "~~" not in text:
        return text
    kept = [c.strip() for c in _STRUCK.sub(" ", text).split("|") if c.strip(" *_\t")]
    return kept[0] if len(kept) == 1 else " | ".join(kept)


def unstruck(line: str) -> str:
    """`line` with its struck text blanked, every other character where it was."""
    return _STRUCK.sub(lambda m: " " * len(m.group(0)), line) if "~~" in line else line


def _ticked(lines: list[str]) -> tuple[int, str] | None:
    """The item a checklist of statuses ticks, and where it is in `lines`; with none ticked,
    the first item, its `[ ]` kept (no status is chosen yet). None when `lines` do not open
    with a checklist: under a status written out, a checklist is the work's progress."""
    items: list[tuple[int, re.Match[str]]] = []
    for i, line in enumerate(lines):
        if (m := TASK.match(line)) is not None:
            items.append((i, m))
        elif line.strip():
            break
    if not items:
        return None
    at, item = next(((i, m) for i, m in items if m.group(1) != " "), items[0])
    return at, item.group(2) if item.group(1) != " " else f"[ ] {item.group(2)}"


# ---------------------------------------------------------------------------- parsing


def split_lines(text: str) -> list[str]:
    """Lines with their own endings kept (`\\r\\n`, `\\r` or `\\n`), so edits round-trip."""
    return _LINE.findall(text)


def without_comments(text: str) -> str:
    """The text without its HTML comments (`<!-- ... -->`). An unclosed one stays, as
    `<!--.*?-->` would leave it, but in one pass: that pattern rescans to the end of the text
    from every unclosed opener (quadratic on a record of "<!--" repeated)."""
    out, pos = [], 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[pos:start])
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


# Hugo and Zola write frontmatter in TOML between `+++` lines; everyone else YAML between `---`.
_CLOSERS = {"---": ("---", "..."), "+++": ("+++",)}
# The finding kinds of frontmatter that cannot be read: no key of it is known.
FRONTMATTER_KINDS = ("yaml", "toml")


def frontmatter_span(lines: list[str]) -> int | None:
    """Index of the closing line when `lines` open with a frontmatter block (YAML `---`, or
    TOML `+++`)."""
    closers = _CLOSERS.get(lines[0].rstrip("\r\n").rstrip()) if lines else None
    if closers is None:
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n").rstrip() in closers:
            return i
    return None


def _in_toml(lines: list[str]) -> bool:
    return bool(lines) and lines[0].rstrip("\r\n").rstrip() == "+++"


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
    links = _links(meta, fields, status_text, status_line, sections, preamble, problems, status=status)
    rec_id = _decision_id(meta, filename)
    fmt = _format_name(meta, fields, heading, sections)
    reviewed = meta.get("reviewed")
    if reviewed is not None and not isinstance(reviewed, Mapping):
        problems.append(Problem("schema", "`reviewed` must be a mapping {commit, date}", 1))
        reviewed = None
    return Record(
        path=path,
        number=number,
        id=rec_id,
        title=title,
        heading=heading,
        status=status,
        status_text=status_text,
        date=_date(meta, fields) or file_date(filename),
        tags=_str_list(meta, "tags", problems) or _field_list(fields, "tags"),
        governs=_str_list(meta, "governs", problems),
        links=links,
        rules=_rules(meta, problems),
        reviewed=reviewed,
        meta=meta,
        body=body,
        sections=sections,
        format=fmt,
        problems=tuple(problems),
        body_line=body_start + 1,
        status_line=status_line,
        status_stated=bool(status_text) or unreadable,
        preamble="\n".join(line for _, line in preamble),
    )


def _read_frontmatter(lines: list[str], problems: list[Problem]) -> tuple[dict[str, Any], int]:
    end = frontmatter_span(lines)
    if end is None:
        fence = lines[0].strip() if lines else ""
        if len(lines) > 1 and fence in _CLOSERS and (_TOP_KEY if fence == "---" else _TOML_KEY).match(lines[1]):
            problems.append(
                Problem(
                    "toml" if fence == "+++" else "yaml",
                    f"frontmatter opens with `{fence}` but is never closed",
                    1,
                    f"add a `{fence}` line after the last key",
                )
            )
        return {}, 0
    source = "".join(lines[1:end])
    if _in_toml(lines):
        return _read_toml(source, problems, end)
    loader = getattr(yaml, "CSafeLoader", None)  # same safe subset, several times faster (pre-commit)
    if loader is None:  # PyYAML's own loader: Python bounds its recursion (a RecursionError, below)
        loader = yaml.SafeLoader
    elif _nesting_bound(source) > MAX_NESTING_TEXT and _deeper_than(source, MAX_DEPTH, loader):
        return _unread(problems, _TOO_DEEP, end)
    try:
        # python-frontmatter: the YAML handler we agreed to read with
        from frontmatter.default_handlers import YAMLHandler

        loaded = YAMLHandler().load(source, Loader=loader)
    except RecursionError:
        return _unread(problems, _TOO_DEEP, end)
    except (ValueError, TypeError, OverflowError) as exc:  # a value YAML cannot build: date: 2024-02-30
        return _unread(
            problems,
            (f"holds a value YAML cannot read: {exc}", "fix the value (dates are YYYY-MM-DD), or quote it"),
            end,
        )
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problems.append(
            Problem(
                "yaml",
                f"frontmatter is not valid YAML: {_yaml_reason(exc)}",
                line,
                "fix the YAML between the `---` lines",
            )
        )
        return {}, end + 1
    if loaded is None:
        return {}, end + 1
    if not isinstance(loaded, dict):
        problems.append(Problem("yaml", "frontmatter is not a mapping of keys to values", 2))
        return {}, end + 1
    unbounded = _unbounded(loaded, budget=MAX_EXPANSION * len(source) + 1_000)
    if unbounded:
        return _unread(problems, unbounded, end)
    twice = _written_twice(lines, end, source, loader)
    if twice:
        problems.append(twice)
    return {str(k): v for k, v in loaded.items()}, end + 1


def _folded(meta: dict[str, Any]) -> dict[str, Any]:
    """Keys as the tool reads them: `Status:` is `status:`, `supersededBy:` (as JavaScript
    sites' content schemas write keys) is `superseded-by:`. YAML's and TOML's keys are
    case-sensitive, but a record that writes its fields so still states them; where it also
    has the key as we write it, that one is read."""
    return {(_fold(key) if _fold(key) not in meta else key): value for key, value in meta.items()}


_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


# Other names records give their status key (`state:`, `decision_status:`, `adrStatus:`).
_KEY_ALIASES = {"state": "status", "decision-status": "status", "adr-status": "status"}


def _fold(key: str) -> str:
    if not isinstance(key, str):
        return key
    folded = _CAMEL_HUMP.sub("-", key).lower()
    return _KEY_ALIASES.get(folded.replace("_", "-"), folded)


def _spelled(key: str, written: Iterable[str]) -> str:
    """`key` as the record spells it (`Status` for `status`, `supersededBy` for
    `superseded-by`), so an edit replaces its key rather than adding a second one."""
    names = list(written)
    return key if key in names else next((name for name in names if _fold(name) == key), key)


MAX_EXPANSION = 10  # parsed frontmatter may hold at most ~10x its text; more is an alias bomb
MAX_DEPTH = 32  # deeper is no record's metadata; every walker downstream may recurse this far
# libyaml's composer recurses once per level in C and crashes the process (a segfault, no
# exception) somewhere past 10,000 nested `[`: text that could nest that deep is first walked
# event by event (libyaml's parser keeps its own stack) to see how deep it really nests.
MAX_NESTING_TEXT = 2_000
_TOO_DEEP = (f"nests deeper than {MAX_DEPTH} levels", "a record's metadata is a flat mapping of short values")
_ALIAS_BOMB = ("expands far beyond its text (YAML aliases)", "write the values out instead of repeating anchors")


def _unread(problems: list[Problem], why: tuple[str, str], end: int, kind: str = "yaml") -> tuple[dict[str, Any], int]:
    """No metadata from this frontmatter, and the problem that says why."""
    problems.append(Problem(kind, f"frontmatter {why[0]}", 2, why[1]))
    return {}, end + 1


_TOML_KEY = re.compile(r"^\s*[A-Za-z0-9_\"'-][^=]*=")


def _read_toml(source: str, problems: list[Problem], end: int) -> tuple[dict[str, Any], int]:
    """Hugo's and Zola's TOML frontmatter, read by the standard library's reader."""
    import tomllib

    try:
        loaded = tomllib.loads(source)
    except RecursionError:
        return _unread(problems, _TOO_DEEP, end, "toml")
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"line (\d+)", str(exc))
        problems.append(
            Problem(
                "toml",
                f"frontmatter is not valid TOML: {exc}",
                int(at.group(1)) + 1 if at else 1,
                "fix the TOML between the `+++` lines",
            )
        )
        return {}, end + 1
    unbounded = _unbounded(loaded, budget=MAX_EXPANSION * len(source) + 1_000)
    if unbounded:
        return _unread(problems, unbounded, end, "toml")
    return loaded, end + 1


def _deeper_than(source: str, limit: int, loader: Any) -> bool:
    """Whether the YAML nests more than `limit` collections deep, read as a stream of events
    (no recursion), stopping at the first level past it. A long flow list counts thousands of
    brackets yet nests three deep: it is read. Invalid YAML says no here; loading reports it."""
    depth = -1  # the top-level mapping is level 0, as `_unbounded` counts
    try:
        for event in yaml.parse(source, Loader=loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limit:
                    return True
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return False
    return False


def _nesting_bound(source: str) -> int:
    """A bound on how deep the YAML in `source` can nest, never below the truth: every flow
    bracket or brace (quoted ones too), plus the most block indicators (`- `, `? `) and
    indentation on any one line. One pass over the text."""
    flow = source.count("[") + source.count("{")
    block = max(
        (len(line) - len(line.lstrip(" ")) + line.count("- ") + line.count("? ") for line in source.splitlines()),
        default=0,
    )
    return flow + block


def _unbounded(value: Any, budget: int) -> tuple[str, str] | None:
    """Why the parsed YAML is no record's metadata (with a hint), or None: it nests deeper than
    MAX_DEPTH (JSON export, rendering and every other walker would recurse that far), or, counted as text,
    exceeds `budget` characters. Aliases share objects, so a 400-byte file can stand for
    gigabytes: count with a shrinking budget and stop as soon as it runs out, never walking the
    whole expansion."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _TOO_DEEP
        budget -= len(item) if isinstance(item, str) else 8
        if budget < 0:
            return _ALIAS_BOMB
        if isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return None


def _yaml_reason(exc: yaml.YAMLError) -> str:
    return str(getattr(exc, "problem", None) or exc).splitlines()[0]


_MARKER = re.compile(r"(<{7}|={7}|>{7})(?:[ \t]|\r?\n|\r|$)")


def merge_conflict(lines: list[str]) -> int:
    """The line where git's first unresolved conflict starts (`<<<<<<<`, then `=======`, then
    `>>>>>>>`, outside fenced code), or 0. A lone `=======` is markdown's heading underline."""
    start, middle, fence = 0, False, None
    for n, line in enumerate(lines, 1):
        fence_match = _FENCE.match(line)
        if fence_match and (fence is None or fence_match.group(1).startswith(fence)):
            fence = None if fence else fence_match.group(1)[:3]
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
            fence = None if fence else fence_match.group(1)[:3]
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


# An MDX record's module lines (`import { Callout } from "..."`, `export const meta = ...`).
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


def _text_field(meta: Mapping[str, Any], key: str, problems: list[Problem]) -> str:
    value = meta.get(key)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], (str, int, float)):
        value = value[0]  # `status: [accepted]`: one choice, as a form's multi-select writes it
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        problems.append(Problem("schema", f"`{key}` must be text, not a {type(value).__name__}", 1))
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


# A status log, a dated line per change, as phodal's `adr status` appends them
# (`2018-10-16 proposed`, then `2018-10-20 accepted`), or a list of them (`- 2018-10-20:
# Accepted`): the last is the status. The match ends where the status starts; its groups are
# the bullet (with its indent) and what parts the date from the status, for the next entry.
STATUS_LOG = re.compile(r"^([ \t]*(?:[*+-][ \t]+)?)\d{4}-\d{1,2}-\d{1,2}([ \t:\u2013\u2014-]+)(?=[^\W\d_])")


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


def _date(meta: Mapping[str, Any], fields: Mapping[str, tuple[str, int]]) -> str | None:
    named = next((key for key in ("date", *_DATE_NAMES) if key in meta), None)  # `created:` too
    value = meta[named] if named else fields.get("date", ("",))[0]
    if value is None or value == "":
        return None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    text = str(value).strip()
    # A date is written with digits ("2020-06-17", "17 June 2020", "June 2020"); without any it is
    # a template's blank left unfilled (MADR 2's `Date: ???`, `[YYYY-MM-DD when ...]`, `TBD`).
    return text if any(c.isdigit() for c in text) else None


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
    problems.append(Problem("schema", f"`{key}` must be a list of text values", 1, f'write it as {key}: ["a", "b"]'))
    return ()


def _rules(meta: Mapping[str, Any], problems: list[Problem]) -> tuple[Any, ...]:
    value = meta.get("rules")
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(Problem("schema", "`rules` must be a list", 1))
        return ()
    return tuple(value)


def _links(
    meta: Mapping[str, Any],
    fields: Mapping[str, tuple[str, int]],
    status_text: str,
    status_line: int,
    sections: tuple[Section, ...],
    preamble: list[tuple[int, str]],
    problems: list[Problem],
    status: str = "unknown",
) -> tuple[Link, ...]:
    links: list[Link] = []
    for key, rel in LINK_KEYS.items():
        for target in _str_list(meta, key, problems):
            links.append(Link(rel, normalise_id(target), 1))
    items = meta.get("links") or []
    if not isinstance(items, list):
        problems.append(
            Problem(
                "schema",
                "`links` must be a list of {rel, id} mappings",
                1,
                "write it as links: [{rel: amends, id: ADR-0003}]",
            )
        )
        items = []
    for item in items:
        if isinstance(item, Mapping) and "id" in item:
            links.append(Link(_rel(str(item.get("rel", "relates-to"))), normalise_id(item["id"]), 1))
    dated, status_text = _dated_links(unstruck(status_text))
    links.extend(Link(_rel(before), named, status_line, name) for before, named, name in dated)
    for doc in rst.DOC.finditer(status_text):  # `:Status: Superseded by :doc:`0027-x``
        href = doc.group(2) + ".rst"
        if (named := file_id(record_name(href))) is not None:
            links.append(Link(_rel(status_text[: doc.start()]), named, status_line, href))
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
        found.append((text[: match.start()], named, href))
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
            rel = _rel(line[: match.start()])
            # A file named by its title (`use-kafka.md`, in a folder that numbers none) is a
            # record when the line names how it relates: other links there are references.
            named = file_id(name) or (stem(name) if rel in _TITLE_NAMED_RELS and "://" not in target else None)
            if named is not None:
                yield Link(rel, named, number, target)


_TITLE_NAMED_RELS = {"superseded-by", "supersedes", "depends-on", "amends", "amended by"}


# Before a link, what says the record linked replaced this one: `Superseded by`, `Superseded
# (see`, `Superseded ->`, `Obsoleted by`.
_SUCCESSOR_WORDS = re.compile(r"\b(?:super[sc]ee?ded|replaced|obsoleted)\b")


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
    if not words or words.split()[-1] in {
        "see",
        "to",
        "relates",
        "related",
        "accepted",
        "rejected",
        "proposed",
        "deprecated",
    }:
        return "relates-to"
    return words


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


# ---------------------------------------------------------------------------- minimal edits


def _newline(lines: list[str]) -> str:
    for line in lines:
        for ending in ("\r\n", "\n", "\r"):
            if line.endswith(ending):
                return ending
    return "\n"


def dump_key(key: str, value: Any, newline: str = "\n") -> str:
    """`key: value` as one YAML line; lists and mappings in flow style, in the file's newline."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10_000)
    text = text.removesuffix("\n").removesuffix("\n...").strip()
    return f"{key}: {text}".replace("\n", newline) + newline


def _key_spans(lines: list[str], start: int, end: int) -> dict[str, tuple[int, int]]:
    """Top-level frontmatter keys and the [first, last+1) line span each occupies."""
    spans: dict[str, tuple[int, int]] = {}
    i = start
    while i < end:
        match = _TOP_KEY.match(lines[i])
        if not match:
            i += 1
            continue
        j = i + 1
        while j < end and lines[j].strip() and lines[j][0] in " \t-":
            j += 1
        spans.setdefault(match.group(1), (i, j))
        i = j
    return spans


# A line that may start a top-level key, quoted or not (`"status": x` is `status` to YAML).
_ANY_TOP_KEY = re.compile(r"""^(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_][\w.-]*))[ \t]*:""")


def _written_twice(lines: list[str], end: int, source: str, loader: Any) -> Problem | None:
    """A key the frontmatter writes twice: YAML forbids it, PyYAML quietly reads the last, other
    readers (js-yaml, ruamel) refuse the file, and an edit could change the copy nobody reads.
    The lines are scanned first (one pass); only a key seen twice there is confirmed on YAML's
    own nodes, which a quoted value's continuation line cannot fool."""
    keys = [
        match.group(1) or match.group(2) or match.group(3) for match in map(_ANY_TOP_KEY.match, lines[1:end]) if match
    ]
    if len(keys) == len(set(keys)):
        return None
    root = yaml.compose(source, Loader=loader)
    seen: dict[str, int] = {}
    for node, _ in root.value if isinstance(root, yaml.MappingNode) else []:
        if not isinstance(node, yaml.ScalarNode) or node.value == "<<":
            continue
        line = node.start_mark.line + 2  # the `---` line is line 1
        if node.value in seen:
            return Problem(
                "yaml",
                f"frontmatter names `{node.value}` twice (lines {seen[node.value]} and {line}); YAML allows one",
                line,
                "keep one of them",
            )
        seen[node.value] = line
    return None


def set_keys(text: str, updates: Mapping[str, Any], path: str = "") -> str:
    """Set (or with None, remove) top-level frontmatter keys, leaving every other byte alone.

    A record without frontmatter gets a block holding only the keys set; a reStructuredText
    record (`path` ends in `.rst`) keeps them in its `.. adr-memory:` line.
    """
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    newline = _newline(lines)
    if is_rst(path):
        return bom + _rst_meta_with(lines, updates, newline)
    end = frontmatter_span(lines)
    if end is not None and _in_toml(lines):
        return bom + lines[0] + _toml_with("".join(lines[1:end]), updates, newline) + "".join(lines[end:])
    if end is None:
        added = [dump_key(k, v, newline) for k, v in updates.items() if v is not None]
        if not added:
            return text
        return bom + "---" + newline + "".join(added) + "---" + newline + "".join(lines)
    for key, value in updates.items():
        spans = _key_spans(lines, 1, end)
        key = _spelled(key, spans)
        new = [] if value is None else [dump_key(key, value, newline)]
        if key in spans:
            first, last = spans[key]
            lines[first:last] = new
            end += len(new) - (last - first)
        elif new:
            lines[end:end] = new
            end += 1
    return bom + "".join(lines)


def _rst_meta_with(lines: list[str], updates: Mapping[str, Any], newline: str) -> str:
    """A reStructuredText record with keys set in its `.. adr-memory:` first line (written as
    JSON, which YAML reads, with every character past ASCII escaped: one line whatever the
    values hold, since YAML breaks lines at U+2028 too), added with a blank line after it (a
    comment runs on to the next line otherwise)."""
    found: list[Problem] = []
    meta, start = _rst_meta(lines, found)
    if found:
        from adr_memory.errors import InvalidRecord

        raise InvalidRecord(
            f"its `.. adr-memory:` line cannot be read: {found[0].message}", hint="fix that line, or delete it"
        )
    for key, value in updates.items():
        if value is None:
            meta.pop(key, None)
        else:
            meta[key] = value
    line = [rst.META_PREFIX + json.dumps(meta, default=str) + newline] if meta else []
    return "".join(line + ([newline] if line and not start else []) + lines[start:])


def _toml_with(block: str, updates: Mapping[str, Any], newline: str) -> str:
    """TOML frontmatter with keys set (or with None, removed) by tomlkit, which keeps every
    other byte: comments, order, quoting, line endings (its new lines get the file's)."""
    import tomlkit

    try:  # what the standard reader takes, tomlkit takes too; should it not, nothing is written
        doc = tomlkit.parse(block)
        for key, value in updates.items():
            key = _spelled(key, doc.keys())
            if value is None:
                doc.pop(key, None)
            else:
                doc[key] = _toml_item(value)
        text = tomlkit.dumps(doc)
    except (tomlkit.exceptions.TOMLKitError, ValueError, RecursionError) as exc:
        from adr_memory.errors import InvalidRecord

        raise InvalidRecord(
            f"the TOML frontmatter cannot be edited safely: {exc}", hint="edit the keys by hand"
        ) from None
    return re.sub(r"(?<!\r)\n", newline, text) if newline != "\n" else text


def _toml_item(value: Any) -> Any:
    """A value as TOML writes it inline: a mapping is an inline table (`reviewed = {...}`), not
    a `[table]` after every key."""
    import tomlkit

    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update({str(k): _toml_item(v) for k, v in value.items() if v is not None})
        return table
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        array.extend(_toml_item(v) for v in value)
        return array
    return value


def replace_line(text: str, line_number: int, new_content: str) -> str:
    """Replace the content of one 1-based line, keeping its line ending and the BOM."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    old = lines[line_number - 1]
    ending = old[len(old.rstrip("\r\n")) :]
    lines[line_number - 1] = new_content + ending
    return bom + "".join(lines)


def insert_line_after(text: str, line_number: int, new_content: str) -> str:
    """Insert a line after a 1-based line, in the file's newline style."""
    return insert_lines_after(text, line_number, [new_content])


def insert_lines_after(text: str, line_number: int, new_lines: Sequence[str]) -> str:
    """Insert lines after a 1-based line, in the file's newline style; at the end of a file
    that has no final newline, the last one inserted has none either."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = split_lines(text.removeprefix("\ufeff"))
    newline = _newline(lines)
    open_end = bool(lines) and line_number == len(lines) and not lines[-1].endswith(("\n", "\r"))
    if lines and not lines[line_number - 1].endswith(("\n", "\r")):
        lines[line_number - 1] += newline
    added = [line + newline for line in new_lines]
    if open_end and added:
        added[-1] = new_lines[-1]
    lines[line_number:line_number] = added
    return bom + "".join(lines)
