"""The ADR folder: where it is, which files are records, and looking records up by id."""

from __future__ import annotations

import codecs
import dataclasses
import hashlib
import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from adr_memory.base import read_capped
from adr_memory.errors import RecordNotFound, TooLarge
from adr_memory.records.model import Link, Problem
from adr_memory.records.names import (
    RECORD_SUFFIXES,
    file_date,
    file_id,
    file_number,
    format_id,
    named_by_date,
    named_by_year,
    normalise_id,
    record_file,
    record_name,
)
from adr_memory.records.names import stem as file_stem
from adr_memory.records.parse import DECISION_SECTIONS, parse
from adr_memory.records.record import Record

NOT_RECORDS = {
    f"{name}{suffix}"
    for name in ("readme", "index", "contributing", "changelog", "license", "summary", "toc")
    for suffix in RECORD_SUFFIXES
}
# A template numbered zero (`0000-template.md`, backstage's `adr000-template.md`,
# `0000-template-record-decision.md`): a record's skeleton, often with placeholders YAML cannot
# read (`title: ADR000: [TITLE]`). (A file name is short: the two `.*` cannot run long.)
_NUMBERED_TEMPLATE = re.compile(
    r"^(?:adr[-_ ]?)?0+[-_ ](?:.*[-_ ])?templates?(?:[-_ ].*)?(?:" + "|".join(map(re.escape, RECORD_SUFFIXES)) + ")$",
    re.IGNORECASE,
)
# MADR's templates, copied into the folder as MADR says (`adr-template-minimal.md`,
# `adr-template-bare-minimal.md`), their kin (`madr-template.md`, `decision-template.md`), and
# those named with the number or date a record's name holds (`XXXX-template.md`,
# `YYYY-MM-DD.decision-template.md`).
_NAMED_TEMPLATE = re.compile(
    r"^(?:(?:x{3,}|n{3,}|#{3,}|y{4}-?m{2}-?d{2})[-_. ])?"
    r"(?:(?:adr|madr|decision|record|nygard)[-_ ])?templates?"
    r"(?:[-_ ](?:bare|minimal|short|long|full|lite|simple|example|default|en))*(?:"
    + "|".join(map(re.escape, RECORD_SUFFIXES))
    + ")$",
    re.IGNORECASE,
)
MAX_BYTES = 1_000_000  # a decision is prose; a bigger file is a mistake, not a record


def is_record_name(name: str) -> bool:
    """A file named as a record: numbered or dated (`0007-x.md`, `2021-06-01-x.md`)."""
    return may_be_record(name) and file_id(name) is not None


def is_template_name(name: str) -> bool:
    """A record's skeleton kept among the records: `template.md`, MADR's `adr-template.md` (and
    `-minimal`, `-bare`), `0000-template.md`, backstage's `adr000-template.md`."""
    return bool(_NAMED_TEMPLATE.match(name) or _NUMBERED_TEMPLATE.match(name))


def may_be_record(name: str) -> bool:
    """A file that is a record in a folder that numbers and dates none (`use-postgres.md`):
    markdown or reStructuredText, and no README, index, template or partial (`_x.md`)."""
    lower = name.lower()
    return (
        lower.endswith(RECORD_SUFFIXES)
        and lower not in NOT_RECORDS
        and not name.startswith(("_", "."))
        and not is_template_name(name)
    )


_NUMBERING = re.compile(r"^((?:adr[-_]?)?)(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class Catalog:
    adr_dir: str  # repo-relative posix path of the ADR folder
    records: tuple[Record, ...]
    # Files beside numbered records that read like decisions but are named as none
    # (`use-kafka.md`): no command reads them, and `adr check` says so.
    unnamed: tuple[Record, ...] = ()
    # MADR's categories: subfolders that each number their records from the start
    # (`backend/0001-x.md`, `frontend/0001-y.md`); a record there is `backend/ADR-0001`.
    categories: bool = False

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def find(self, ident: str) -> Record | None:
        """A record by id (`7`, `0007`, `ADR-7`, `ADR-0007`, a custom id, a docs site's page
        id) or by path."""
        wanted, lower = normalise_id(ident), ident.strip().lower()
        for rec in self.records:
            if rec.id == wanted or rec.id.lower() == lower or (lower and _page_id(rec) == lower):
                return rec
        for rec in self.records:
            if ident in (rec.path, record_name(rec.path)):  # not `index.md`: every page is one
                return rec
        return self._by_number(wanted) or self._by_date(ident.strip())

    def named(self, ident: str) -> list[Record]:
        """Every record `ident` names: the one `find` gives, or, when two files claim its id
        and `ident` names neither file, both."""
        rec = self.find(ident)
        if rec is None:
            return []
        if ident in (rec.path, record_name(rec.path)):
            return [rec]
        return [r for r in self.records if r.id == rec.id]

    def _by_number(self, wanted: str) -> Record | None:
        """A record whose frontmatter `id` is no ADR number (`id: SEC-12`) still answers to its
        file's number (`12`, `ADR012`), when only one file has it."""
        if not re.fullmatch(r"ADR-\d{4,}", wanted):
            return None
        found = [r for r in self.records if r.number is not None and format_id(r.number) == wanted]
        return found[0] if len(found) == 1 else None

    def _by_date(self, text: str) -> Record | None:
        """A record named by its date or year, from the start of its name (`2021-06-01`,
        `2020`), when only one record's name starts so."""
        if file_date(text) is None and not re.fullmatch(r"(?:19|20)\d\d", text):
            return None
        found = [r for r in self.records if named_by_name(r) and r.id.startswith(text)]
        return found[0] if len(found) == 1 else None

    def as_read_here(self, rec: Record) -> Record:
        """`rec` (one file, parsed alone) as this folder reads it: in a folder named by year,
        its id is its name; in a folder of categories, its category names it."""
        records = _named_by_year([r for r in self.records if r.path != rec.path] + [rec])
        return (_categorised(self.adr_dir, records) if self.categories else records)[-1]

    def named_like(self, other: Catalog) -> Catalog:
        """This catalog (of another commit) with ids as `other` gives them: once a folder names
        its records by year, its records from before two shared a year are read so too, and a
        branch compares like with like."""
        mine = self
        if other.categories and not self.categories:  # a category's first record came since
            mine = dataclasses.replace(
                self, categories=True, records=_in_order(_categorised(self.adr_dir, list(self.records)))
            )
        if not any(named_by_name(r) and named_by_year(r.id) for r in other.records):
            return mine
        return dataclasses.replace(mine, records=_in_order(_named_by_year(list(mine.records), always=True)))

    def get(self, ident: str) -> Record:
        rec = self.find(ident)
        if rec is None:
            wanted = normalise_id(ident)
            several = [r.id for r in self.records if "/" in r.id and r.id.endswith("/" + wanted)]
            if len(several) > 1:  # `7` in a folder of categories, each with its own ADR 7
                raise RecordNotFound(
                    f"{ident!r} names {len(several)} decisions: {', '.join(several)}",
                    hint=f"name the category too, e.g. {several[0]}",
                )
            raise RecordNotFound(f"no decision {ident!r} in {self.adr_dir}", hint=self.nearest_hint(ident))
        sharing = [r.path for r in self.named(ident)]
        if len(sharing) > 1:
            # Two branches that each added "ADR 5", merged: which one is meant is not ours to guess.
            raise RecordNotFound(
                f"{rec.id} is used by {len(sharing)} files: {', '.join(sharing)}",
                hint=f"name the file instead (e.g. {sharing[-1]}); renumber one of them with `git mv`",
            )
        return rec

    def nearest(self, ident: str, n: int = 3) -> list[str]:
        """The ids closest to one that names no decision: by number where it has one (`42` in a
        folder of 1-12: 12, 11, 10), else by spelling."""
        import difflib

        digits = "".join(c for c in normalise_id(ident) if c.isdigit())
        numbered = [r for r in self.records if r.number is not None]
        if digits and numbered:
            wanted = int(digits)
            return [r.id for r in sorted(numbered, key=lambda r: (abs((r.number or 0) - wanted), r.id))[:n]]
        return difflib.get_close_matches(ident, [r.id for r in self.records], n=n, cutoff=0.3)

    def nearest_hint(self, ident: str) -> str:
        near = self.nearest(ident)
        return f"the nearest: {', '.join(near)}; `adr list` shows them all" if near else "`adr list` shows the ids"

    def judges(self, path: str) -> bool:
        """Whether a repository path is one of these records or reads like one (`unnamed`)."""
        return any(rec.path == path for rec in (*self.records, *self.unnamed))

    def ids(self) -> set[str]:
        return {r.id for r in self.records}

    def next_number(self, folder: str = "") -> int:
        """The number a new record at the top of the folder takes; in a folder of categories,
        the next of its `folder`'s own count."""
        return (
            max(
                (
                    r.number
                    for r in self.records
                    if r.number is not None and not (self.categories and category(self.adr_dir, r) != folder)
                ),
                default=0,
            )
            + 1
        )

    def numbered_name(self, number: int, rest: str) -> str:
        """`rest` named with `number` as the folder numbers its records (`0007-`, `007-`,
        `adr-007-`, Backstage's `adr007-`), the newest numbered one showing how."""
        names = [_name(r) for r in self.records if r.number is not None]
        prefix, width = "", 4
        if names and (match := _NUMBERING.match(names[-1])):
            prefix, width = match.group(1), len(match.group(2))
        return f"{prefix}{number:0{width}d}-{rest}"


@dataclass
class Parses:
    """Records parsed before, by (path, digest of the file's bytes): `parse_bytes` depends on
    nothing else, so a file whose bytes are unchanged is the record it was. `used` gathers what
    the reads took or parsed (the work tree's, and another commit's tree), for the next read and
    the next command (history/parsed.py keeps it between commands)."""

    known: dict[tuple[str, str], Record]
    used: dict[tuple[str, str], Record] = dataclasses.field(default_factory=dict)

    def record(self, path: str, data: bytes | Problem) -> Record:
        if isinstance(data, Problem):  # nothing to key it by; and it is no parse
            return parse_bytes(path, data)
        key = (path, hashlib.sha256(data).hexdigest())
        rec = self.used.get(key)
        if rec is None:
            rec = self.known.get(key)
        if rec is None:
            rec = parse_bytes(path, data)
        self.used[key] = rec
        return rec

    @property
    def changed(self) -> bool:
        return self.used.keys() != self.known.keys()


def from_files(adr_dir: str, files: Iterable[tuple[str, bytes | Problem]], parses: Parses | None = None) -> Catalog:
    """Build a catalog from (repo-relative path, content) pairs: a work tree or a git tree.

    A file that could not be read comes as a Problem instead of bytes and is listed with it.
    """
    parsed = parses.record if parses is not None else parse_bytes
    candidates = [parsed(path, data) for path, data in files if may_be_record(record_name(path))]
    named = [r for r in candidates if file_id(_name(r)) is not None]
    if not named:  # a folder that names none so (`use-postgres.md`): each file, its name its id
        return Catalog(adr_dir, _in_order(candidates))
    # Guides and notes beside numbered records stay out; one that reads like a decision is named.
    unnamed = tuple(r for r in candidates if file_id(_name(r)) is None and _reads_like_decision(r))
    records = _named_by_year(named)
    categories = _counts_apart(adr_dir, records)
    return Catalog(adr_dir, _in_order(_categorised(adr_dir, records) if categories else records), unnamed, categories)


def _page_id(rec: Record) -> str:
    """A docs site's page id in the record's frontmatter (`id: adrs-adr013`), lowercased."""
    value = rec.meta.get("id")
    return str(value).strip().lower() if isinstance(value, (str, int)) else ""


def category(adr_dir: str, rec: Record) -> str:
    """The folder below the ADR folder a record sits in ("" at its top): its MADR category."""
    base, path = git_folder(adr_dir), record_file(rec.path)
    inner = path[len(base) + 1 :] if base and path.startswith(base + "/") else path
    return inner.rsplit("/", 1)[0] if "/" in inner else ""


def _numbered_by_file(rec: Record) -> bool:
    return rec.number is not None and rec.id == format_id(rec.number)


def _counts_apart(adr_dir: str, records: list[Record]) -> bool:
    """Whether two folders each start a count of their own, at the same first number (0001 in
    each, or 0000): MADR's "subfolders with local IDs". One count spread over folders (0000 at
    the top, 0001 moved into `archive/`) is none; a later number shared by two folders (a merge
    that gave two branches' records one number) is a duplicate, not a category."""
    starts = Counter(
        number
        for number, _ in {
            (r.number, category(adr_dir, r)) for r in records if _numbered_by_file(r) and r.number in (0, 1)
        }
    )
    return any(count > 1 for count in starts.values())


def _categorised(adr_dir: str, records: list[Record]) -> list[Record]:
    """Records of a folder of categories: one in a subfolder is `backend/ADR-0001`, and what
    it names by number (`supersedes: [ADR-0002]`, `Superseded by ADR-2`) is its own folder's
    record, as MADR reads it; a markdown link names the record at the path it links to."""
    folders = {r.path: category(adr_dir, r) for r in records}
    ids = {r.path: f"{folders[r.path]}/{r.id}" if folders[r.path] and _numbered_by_file(r) else r.id for r in records}
    known = set(ids.values())

    def follow(rec: Record, link: Link) -> Link:
        if link.file and "://" not in link.file:
            linked = posixpath.normpath(posixpath.join(posixpath.dirname(rec.path), link.file))
            return dataclasses.replace(link, target=ids[linked]) if linked in ids else link
        folder = folders[rec.path]
        local = f"{folder}/{link.target}"
        return dataclasses.replace(link, target=local) if folder and "/" not in link.target and local in known else link

    return [dataclasses.replace(r, id=ids[r.path], links=tuple(follow(r, link) for link in r.links)) for r in records]


_DECISION_HEADINGS = (*DECISION_SECTIONS, "status")


def _reads_like_decision(rec: Record) -> bool:
    """A status stated, or two of a decision's sections (Context, Decision, Consequences...)."""
    headings = {s.heading.strip(" :*").lower() for s in rec.sections}
    return (rec.status_stated and rec.status != "unknown") or sum(
        any(h.startswith(word) for h in headings) for word in _DECISION_HEADINGS
    ) >= 2


def _in_order(records: list[Record]) -> tuple[Record, ...]:
    return tuple(sorted(records, key=lambda r: (r.number if r.number is not None else 1 << 30, file_stem(r.path))))


def _named_by_year(records: list[Record], *, always: bool = False) -> list[Record]:
    """A folder that names its records by year (linq2db: `2020-eager-loading.md`, three of
    2020) would give every record of a year one id. Where two records' names share a year (or
    `always`), each record named by a year has its name as its id, as one named by its date
    does, and links that name its file (or its year, when no other record has that year)
    follow it."""
    yearly = {r.path: r for r in records if _numbered_by_file(r) and named_by_year(_name(r))}
    named = [r for r in records if named_by_name(r) and named_by_year(r.id)]  # read so already
    years = Counter([r.number for r in yearly.values()] + [file_number(_name(r)) for r in named])
    if not (always or named) and all(count == 1 for count in years.values()):
        return records
    by_file = {_name(r): file_stem(_name(r)) for r in [*yearly.values(), *named]}
    by_year = {}
    for name, stem in by_file.items():
        year = file_number(name)
        if year is not None and years[year] == 1:
            by_year[format_id(year)] = stem

    def follow(link: Link) -> Link:
        target = by_file.get(record_name(link.file)) if link.file else by_year.get(link.target)
        return dataclasses.replace(link, target=target) if target else link

    def renumbered(r: Record) -> Record:
        linked = dataclasses.replace(r, links=tuple(map(follow, r.links)))
        return dataclasses.replace(linked, id=by_file[_name(r)], number=None) if r.path in yearly else linked

    return [renumbered(r) for r in records]


def named_by_name(rec: Record) -> bool:
    """Whether a record's id is its file's name: named by its date, or in a folder named by
    year."""
    return rec.number is None and rec.id == file_stem(_name(rec)) and (named_by_date(rec.id) or named_by_year(rec.id))


def _name(rec: Record) -> str:
    return record_name(rec.path)


def parse_bytes(path: str, data: bytes | Problem) -> Record:
    """Decode and parse one record; bytes that are not a readable record become problems, and
    a file that could not be read is listed with its Problem."""
    if isinstance(data, Problem):
        return _unreadable(path, data)
    if len(data) > MAX_BYTES:
        return _unreadable(path, too_large(len(data)))
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Windows PowerShell's `>` writes it
        rec = parse(data.decode("utf-16", errors="replace"), path)
        return dataclasses.replace(
            rec,
            problems=(
                Problem(
                    "encoding",
                    "file is UTF-16, not UTF-8: it is read, and no command edits it",
                    1,
                    "re-save it as UTF-8 (e.g. iconv -f utf-16 -t utf-8)",
                ),
            )
            + rec.problems,
        )
    if b"\x00" in data[:8192]:
        return _unreadable(path, Problem("binary", "file is binary, not markdown", 1, "move it out of the ADR folder"))
    try:
        text = data.decode("utf-8")
        extra: list[Problem] = []
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        line = data[: exc.start].count(b"\n") + 1
        extra = [Problem("encoding", "file is not UTF-8", line, "re-save it as UTF-8 (e.g. iconv -f latin1 -t utf-8)")]
    rec = parse(text, path)
    return dataclasses.replace(rec, problems=tuple(extra) + rec.problems) if extra else rec


def too_large(size: int) -> Problem:
    return Problem(
        "too-large",
        f"file is {size:,} bytes; a record is prose",
        1,
        "split it, or move the attachment out of the ADR folder",
    )


def _unreadable(path: str, problem: Problem) -> Record:
    return dataclasses.replace(parse("", path), problems=(problem,))


def read_worktree(root: Path, adr_dir: str, parses: Parses | None = None) -> Catalog:
    """The catalog as the files on disk are now (nested folders included); a file `parses`
    holds is not parsed again."""
    return from_files(adr_dir, _worktree_files(root, adr_dir), parses)


MAX_NESTING = 32  # folders below the ADR folder that records are read from


def git_folder(adr_dir: str) -> str:
    """The ADR folder as git names it: `docs/adr`, or "" when the records sit at the root of a
    repository of decisions (`.adr-dir` holding `.`)."""
    base = adr_dir.strip("/")
    return "" if base in ("", ".") else base


def in_record_folder(adr_dir: str, path: str) -> bool:
    """Whether a file at this repository path sits where records are read from: below the
    ADR folder, in no hidden folder and no `templates`, at most MAX_NESTING folders down (a
    repository may nest ~2,000 folders; Python 3.11's os.walk recurses once per folder)."""
    base = git_folder(adr_dir)
    if base and not path.startswith(base + "/"):
        return False
    folders = path[len(base) + 1 if base else 0 :].split("/")[:-1]
    return len(folders) <= MAX_NESTING and not any(f.startswith(".") or f == "templates" for f in folders)


def holds(adr_dir: str, path: str) -> bool:
    """Whether a repository path is a record of the ADR folder (nested or not), by its name."""
    return in_record_folder(adr_dir, path) and is_record_name(record_name(path))


def may_hold(adr_dir: str, path: str) -> bool:
    """Whether a repository path may be a record of the ADR folder: `holds`, or any markdown
    file there, which is one when the folder numbers and dates none (`from_files` decides)."""
    return in_record_folder(adr_dir, path) and may_be_record(record_name(path))


def outside(adr_dir: str, path: str) -> bool:
    """Whether a repository path is the project's own, not the ADR folder's: below another
    folder, or, in a repository whose records sit at its root, no record."""
    base = git_folder(adr_dir)
    return not path.startswith(base + "/") if base else not holds(adr_dir, path)


def _worktree_files(root: Path, adr_dir: str) -> Iterator[tuple[str, bytes | Problem]]:
    base = root / adr_dir
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "templates")
        if len(Path(dirpath).relative_to(base).parts) >= MAX_NESTING:
            dirnames[:] = []
        for name in sorted(filenames):
            full = Path(dirpath) / name
            rel = full.relative_to(root).as_posix()
            if may_be_record(record_name(rel)):  # the walk follows no folder link
                yield rel, read_kept(full, real_root, folder_inside=True)


def read_kept(full: Path, real_root: Path, *, folder_inside: bool = False) -> bytes | Problem:
    """A file the repository keeps, or the Problem that kept it from being read: one that
    links outside the repository (itself, or a folder above it unless `folder_inside` says
    its folder is known to be real and inside), is too large, or cannot be read."""
    # A Problem rather than an exception: one unreadable file must not hide the others.
    if (full.is_symlink() or not folder_inside) and not full.resolve().is_relative_to(real_root):
        return Problem(
            "symlink", "symlink points outside the repository; not read", 1, "replace the link with the file itself"
        )
    try:
        return read_capped(full, MAX_BYTES)
    except TooLarge as exc:
        return too_large(exc.size)
    except OSError as exc:
        return Problem("unreadable", f"cannot read the file: {exc.strerror}", 1, "check the file's permissions")
