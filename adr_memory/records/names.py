"""names: split from record."""

from __future__ import annotations

import re

from adr_memory.records.grammar import _CATEGORY

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
_ID_TEXT = re.compile(r"^(?:adr[-_ ]?)?(\d+)$", re.IGNORECASE)  # _number drops leading zeros


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


_QUALIFIED = re.compile(r"([a-z0-9][a-z0-9_-]{0,39}):(?!//)(\S.*)")


def normalise_id(text: str) -> str:
    """`7`, `0007`, `ADR-7`, `adr-0007` all become `ADR-0007`, and `backend/7` (a record of
    MADR's category `backend`) `backend/ADR-0007`; a source's `platform:12` is
    `platform:ADR-0012`; anything else is kept as written."""
    text = str(text).strip()
    if (qualified := _QUALIFIED.fullmatch(text)) is not None:
        return f"{qualified.group(1)}:{normalise_id(qualified.group(2))}"
    category, _, ident = text.rpartition("/")
    number = _number(match.group(1)) if (match := _ID_TEXT.match(ident)) else None
    if number is None or (category and not _CATEGORY.fullmatch(category)):
        return text
    return f"{category}/{format_id(number)}" if category else format_id(number)
