"""Writing records: `adr new`, `adr accept|reject|deprecate`, `adr supersede`, `adr link`.

Every edit goes through `record.set_keys` or a one-line replacement, so only the keys (or the
status line) a command owns change; everything else in the file stays byte for byte.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from adr_memory.base import safe
from adr_memory.base.files import create_exclusive, locked, unwritable, write_text_atomic
from adr_memory.base.globs import problem as glob_problem
from adr_memory.errors import AdrError, InvalidRecord, UsageError
from adr_memory.history.workspace import Workspace
from adr_memory.records import badges, catalog, content, languages, record, rst
from adr_memory.records.record import Record

# rel as typed (lowercased) -> the frontmatter key it is stored under; others go to `links`.
_REL_KEYS = {
    "supersedes": "supersedes",
    "superseded by": "superseded-by",
    "relates to": "relates-to",
    "depends on": "depends-on",
}


@dataclass(frozen=True)
class LinkSpec:
    """`-l "5:Amends:Amended by"` (adr-tools): this record amends 5; 5 is amended by this one."""

    target: str
    rel: str
    reverse: str

    @classmethod
    def parse(cls, text: str) -> LinkSpec:
        parts = text.split(":")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise UsageError(
                f"cannot read link {text!r}", hint='write it as "TARGET:Link:Reverse link", e.g. "5:Amends:Amended by"'
            )
        return cls(*(p.strip() for p in parts))


# Latin letters Unicode does not decompose into a base letter and a mark.
_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"})


def slugify(title: str) -> str:
    """The file-name part of a title, in ASCII: accents are folded (`Überprüfung` gives
    `uberprufung`, not adr-tools' `berpr-fung`); other scripts drop out."""
    folded = unicodedata.normalize("NFKD", title.lower().translate(_FOLD))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.encode("ascii", "ignore").decode()).strip("-")
    return slug[:60].rstrip("-") or "decision"


def today() -> str:
    return dt.date.today().isoformat()


# ---------------------------------------------------------------------------- adr new


def template_text(ws: Workspace, name: str | None = None) -> str:
    """The folder's own template (`own_template`) unless a bundled one is named, else the
    bundled one in the folder's style. A reStructuredText folder has one bundled template,
    Nygard's."""
    suffix = suffix_of(ws)
    syntax = ".rst" if record.is_rst(suffix) else ".md"  # `.mdx` and `.markdown` are markdown
    if name is None and (own := own_template(ws, (suffix, syntax))) is not None:
        return _read_template(ws, own)
    chosen = "nygard" if syntax == ".rst" else name or template_name(ws)
    return resources.files("adr_memory.templates").joinpath(f"{chosen}{syntax}").read_text("utf-8")


def own_template(ws: Workspace, suffixes: Sequence[str]) -> Path | None:
    """adr-tools' `<adr_dir>/templates/template.md`, else a template kept among the records
    (MADR says to copy its `adr-template.md` there; `template.md`, `0000-template.md`): of
    MADR's four, the full one, whose name is the shortest. A category (`adr new --dir
    docs/decisions/backend`) without one of its own takes the folder's above it."""
    wanted = tuple(s.lower() for s in suffixes)
    for folder in _template_folders(ws):
        for suffix in dict.fromkeys(suffixes):
            if (path := folder / "templates" / f"template{suffix}").is_file():
                return path
        try:
            kept = [
                p.name
                for p in folder.iterdir()
                if catalog.is_template_name(p.name) and p.name.lower().endswith(wanted) and p.is_file()
            ]
        except OSError:
            continue
        if kept:
            return folder / min(kept, key=lambda n: (len(n), n))
    return None


def _template_folders(ws: Workspace) -> list[Path]:
    """The ADR folder, then the repository's own ADR folder when `--dir` named one inside it."""
    try:
        top = ws.root / catalog.locate(ws.root, ws.config.adr_dir)[0]
    except AdrError:
        return [ws.adr_path]
    inside = top != ws.adr_path and ws.adr_path.is_relative_to(top)
    return [ws.adr_path, top] if inside else [ws.adr_path]


def _read_template(ws: Workspace, path: Path) -> str:
    """A template the repository keeps, read as a record is: never through a link out of it."""
    data = catalog.read_kept(path, ws.root.resolve())
    if isinstance(data, record.Problem):
        rel = path.relative_to(ws.root).as_posix()
        raise UsageError(
            f"cannot use the template {rel}: {data.message}",
            hint=data.hint or "fix it, or name a bundled one with --template madr",
        )
    return data.decode("utf-8", errors="replace")


def suffix_of(ws: Workspace) -> str:
    """The suffix most of the folder's records have (`.rst` in Open edX's, `.mdx` in a
    Docusaurus site's); `.md` when it has none, or on a tie with `.md`."""
    counts = Counter(record.suffix(r.path) for r in ws.catalog)
    counts[".md"] += 0
    return max(counts.items(), key=lambda kv: (kv[1], kv[0] == ".md"))[0]


# Record formats written like adr-tools' template: a numbered heading, then Status, Context,
# Decision and Consequences sections (Tendermint's adds a Changelog).
_NYGARD_LIKE = ("nygard", "tendermint")


def template_name(ws: Workspace) -> str:
    """The configured template; unset, the one the folder's records mostly follow: a new
    record in an adr-tools folder should read like its neighbours, as `adr-tools new` writes it."""
    if ws.config.template:
        return ws.config.template
    records = list(ws.catalog)
    nygard = sum(rec.format in _NYGARD_LIKE for rec in records)
    return "nygard" if records and nygard * 2 > len(records) else "madr"


# `{title}`-style placeholders (ours) and adr-tools' bare upper-case words, replaced in one
# pass over the template, so a title holding "DATE" or "{number}" is written as typed.
_NUMBER_LEAD = re.compile(r"(?:\{number\}|\bNUMBER\b)\.?[ \t]*")
_PLACEHOLDER = re.compile(r"\{(number|title|status|Status|date)\}|\b(NUMBER|TITLE|DATE|STATUS)\b")


# A template a folder keeps says where the title, status and date go in its own words: MADR's
# `# {short title of solved problem and solution}`, `status: {proposed | rejected | ...}` and
# `date: {YYYY-MM-DD when the decision was last updated}`, MADR 2's and log4brains' `[...]`,
# backstage's `# ADR000: [TITLE]`, a bare `# Title`.
_BRACKETED = re.compile(r"\{[^{}\n]*\}|\[[^\[\]\n]*\]|<[^<>\n]*>")
_HEADING = re.compile(r"^(#[ \t]+)(.*)$", re.MULTILINE)
_SUBHEADING = re.compile(r"^#{2,6}[ \t]", re.MULTILINE)
_TITLE_KEY = re.compile(r"^(title:[ \t]*)(.*)$", re.MULTILINE)
_ID_KEY = re.compile(r"^(id:[ \t]*)(.*)$", re.MULTILINE)
_NUMBER_RUN = re.compile(r"(?<![A-Za-z0-9])(?:ADR[-_ ]?)?(X{3,}|N{3,}|0{3,})(?![A-Za-z0-9])", re.IGNORECASE)
_FIELD_LINE = re.compile(
    r"^([ \t]*(?:[-*+][ \t]+)?\**(status|date)\**[ \t]*:\**[ \t]*)(\S(?:.*\S)?)([ \t\r]*+)$",
    re.IGNORECASE | re.MULTILINE,
)


def _as_ours(template: str, number: int | None) -> str:
    """A template with its own placeholders for the title (in its first heading and its
    frontmatter `title:`), status and date written as ours (`{title}`, `{status}`, `{date}`),
    and its number placeholder there (`XXXX`, `NNN`, `000`) as the number, as wide. What else
    it says to the writer is left for them."""
    lines = record.split_lines(template)
    closing = record.frontmatter_span(lines)
    end = sum(map(len, lines[: closing + 1])) if closing is not None else 0

    def numbered(text: str) -> str:
        if number is None:
            return text
        return _NUMBER_RUN.sub(lambda m: m.group(0)[: -len(m.group(1))] + f"{number:0{len(m.group(1))}d}", text)

    def title(match: re.Match[str]) -> str:
        text = numbered(match.group(2))
        placeholder = next((m for m in _BRACKETED.finditer(text) if "title" in m.group(0).lower()), None)
        if placeholder is not None:
            text = text[: placeholder.start()] + "{title}" + text[placeholder.end() :]
        elif text.strip().lower() == "title":
            text = "{title}"
        return match.group(1) + text

    def field(match: re.Match[str]) -> str:
        name, value = match.group(2).lower(), match.group(3)
        choices = "|" in value if name == "status" else "YYYY" in value.upper()
        return f"{match.group(1)}{{{name}}}{match.group(4)}" if value[0] in "{[<" or choices else match.group(0)

    head = _TITLE_KEY.sub(title, template[:end], count=1)
    head = _ID_KEY.sub(lambda m: m.group(1) + numbered(m.group(2)), head, count=1)  # `id: adrs-adr000`
    body, heads = template[end:], list(_HEADING.finditer(template[end:]))
    if heads:  # the record's title: its first heading, or the one below a copied template's own
        own = (
            heads[1]
            if len(heads) > 1
            and record.copied_template(heads[0].group(2), heads[1].group(2))
            and not _SUBHEADING.search(body, heads[0].end(), heads[1].start())
            else heads[0]
        )
        body = body[: own.start()] + title(own) + body[own.end() :]
    return _FIELD_LINE.sub(field, head + body)


def render_template(template: str, *, number: int | None, title: str, status: str, date: str) -> str:
    """The template filled in. A record named by its date has no number: a numbered heading
    (`# {number}. {title}`) loses its number."""
    template = _as_ours(template, number)
    if number is None:
        template = _NUMBER_LEAD.sub("", template)
    values = {
        "number": str(number),
        "title": title,
        "status": status,
        "Status": status.capitalize(),
        "date": date,
        "NUMBER": str(number),
        "TITLE": title,
        "DATE": date,
        "STATUS": status.capitalize(),
    }
    return _title_as_yaml(_PLACEHOLDER.sub(lambda m: values[m.group(1) or m.group(2)], template))


def _title_as_yaml(text: str) -> str:
    """The frontmatter's `title:` as YAML can read it: unquoted, as backstage's template writes
    it (`title: ADR000: [TITLE]`), `ADR015: Use Kafka` is no YAML; it is quoted."""
    lines = record.split_lines(text)
    for i in range(1, record.frontmatter_span(lines) or 0):
        match = re.match(r"title:[ \t]*(\S.*?)[ \t]*$", lines[i].rstrip("\r\n"))
        if match is None:
            continue
        try:
            read = yaml.safe_load(lines[i])
        except yaml.YAMLError:
            read = None
        if not (isinstance(read, dict) and isinstance(read.get("title"), str)):
            lines[i] = record.dump_key("title", match.group(1), lines[i][len(lines[i].rstrip("\r\n")) :] or "\n")
        break
    return "".join(lines)


def _file_name(ws: Workspace, number: int, title: str) -> tuple[str, int | None]:
    """The new record's file name and the number its heading carries. Follow the folder's own
    naming (`0007-`, `007-`, `adr-007-`, or today's date, or year, with no number, in a folder
    that names its records so, or by title alone in a folder that numbers and dates none) so new
    files sit in line."""
    if _named_by_date(ws):
        return _dated_name(ws, title), None
    if len(ws.catalog) and not any(record.file_id(record.record_name(r.path)) for r in ws.catalog):
        return _free_name(ws, slugify(title)), None  # `use-postgres.md`: a number would hide them all
    return ws.catalog.numbered_name(number, f"{slugify(title)}{suffix_of(ws)}"), number


def _placed(ws: Workspace, name: str) -> str:
    """Where a record named `name` goes: beside the others, or, in a folder whose records
    mostly keep a folder of their own (`20240524-pipeline/index.md`), in its own, its page
    named as the newest such record's is (`index.md`, `README.md`)."""
    own = [r.path for r in ws.catalog if record.record_file(r.path) != r.path]
    if len(own) * 2 <= len(ws.catalog):
        return name
    page = record.stem(own[-1].rpartition("/")[2])
    return f"{record.stem(name)}/{page}{record.suffix(name)}"


def _by_day_or_year(rec: Record) -> bool:
    return record.named_by_date(record.record_name(rec.path)) or catalog.named_by_name(rec)


def _named_by_date(ws: Workspace) -> bool:
    return sum(map(_by_day_or_year, ws.catalog)) * 2 > len(ws.catalog)


def _dated_name(ws: Workspace, title: str) -> str:
    """`YYYY-MM-DD-slug.md` for today (`YYYYMMDD-` where most of the folder's dates are written
    so, as log4brains writes them; `YYYY-` where most name the year alone, as linq2db does;
    `YYYY-MM-DD Title as typed.md` where most names are so, as joelparkerhenderson's guide
    writes them); `-2`, `-3`... when a record of that name was made today."""
    named = [record.record_name(r.path) for r in ws.catalog if _by_day_or_year(r)]
    dated = [name for name in named if record.file_date(name)]
    if len(dated) * 2 < len(named):
        return _free_name(ws, f"{today()[:4]}-{slugify(title)}")
    if sum(re.match(r"\d{4}-\d\d-\d\d ", name) is not None for name in dated) * 2 > len(dated):
        return _free_name(ws, f"{today()} {_as_file_name(title)}")
    compact = sum(re.match(r"\d{8}(?!\d)", name) is not None for name in dated) * 2 > len(dated)
    return _free_name(ws, f"{today().replace('-', '') if compact else today()}-{slugify(title)}")


def _as_file_name(title: str) -> str:
    """A title as a file's name keeps it: no path separators, control or reserved characters,
    no leading dot, at most 80 characters."""
    kept = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]+', " ", title)
    return " ".join(kept.split())[:80].strip(" .") or "Decision"


def _free_name(ws: Workspace, stem: str) -> str:
    """`stem` with the folder's suffix, or `-2`, `-3`... when a record has that name."""
    taken = {record.record_name(r.path) for r in ws.catalog}
    for n in itertools.count(1):
        name = f"{stem}{suffix_of(ws)}" if n == 1 else f"{stem}-{n}{suffix_of(ws)}"
        if name not in taken and not (ws.adr_path / name).exists() and not (ws.adr_path / record.stem(name)).exists():
            return name
    raise AssertionError("unreachable")


def create(
    ws: Workspace,
    title: str,
    *,
    supersedes: Sequence[str] = (),
    links: Sequence[LinkSpec] = (),
    governs: Sequence[str] = (),
    tags: Sequence[str] = (),
    status: str = "proposed",
    template: str | None = None,
    key: Key | None = None,
    reasons: content.Reasons | None = None,
    body: str | None = None,
) -> Path:
    """Write a new record and the reverse links on the records it names; return its path.

    Numbering and creation happen under the repository's adr lock, and the file is created
    exclusively: concurrent `adr new` runs get distinct numbers and never replace a record.
    """
    title = safe.one_line(title)  # typed or sent by an agent: no control character reaches the file
    if not title:
        raise UsageError("a decision needs a title", hint='adr new "Use PostgreSQL for storage"')
    if status not in record.STATUSES:
        raise UsageError(f"unknown status {status!r}", hint="one of: " + ", ".join(record.STATUSES))
    for glob in governs:
        why = glob_problem(glob)
        if why:
            raise UsageError(f"governs glob {glob!r} {why}", hint='e.g. --governs "src/db/**"')
    if key is not None:
        key.validate()
    with repo_lock(ws):
        if key is not None:
            _refuse_held(ws, key, supersedes)
        for _attempt in range(_CREATE_ATTEMPTS):
            try:
                path = _create_once(
                    ws, title, supersedes, links, governs, tags, status, template, key, _writer(reasons, body)
                )
                break
            except FileExistsError:  # a writer that does not take our lock got there first
                continue
        else:
            raise AdrError(
                "could not find a free record number: other writers keep taking them", hint="run the command again"
            )
    ws.reload()
    return path


_CREATE_ATTEMPTS = 5


@dataclass(frozen=True)
class Key:
    """`adr new --key K [--cardinality single|multi] [--value V]`: the question it answers."""

    name: str
    cardinality: str = "single"
    value: str = ""

    def validate(self) -> None:
        from adr_memory.policy import conflicts

        if not conflicts.KEY.match(self.name):
            raise UsageError(
                f"conflict key {self.name!r} is not a dotted lowercase key", hint="e.g. --key project.primary_database"
            )
        if self.cardinality not in conflicts.CARDINALITIES:
            raise UsageError(f"unknown cardinality {self.cardinality!r}", hint="single or multi")

    def frontmatter(self) -> dict[str, object]:
        keys: dict[str, object] = {"conflict-key": self.name}
        if self.cardinality != "single":
            keys["cardinality"] = self.cardinality
        if self.value:
            keys["value"] = self.value
        return keys


def _refuse_held(ws: Workspace, key: Key, supersedes: Sequence[str]) -> None:
    """A single-valued key an in-force decision holds is taken: write nothing, name the holders
    and the ways out (supersede them, or declare the key multi-valued)."""
    from adr_memory.policy import conflicts

    if key.cardinality == "multi":
        return
    ws.reload()
    replaced = {ws.catalog.get(i).id for i in supersedes}
    held = [r for r in conflicts.holders(ws.catalog, key.name) if r.id not in replaced]
    if held:
        names = ", ".join(f"{r.id} ({r.title})" for r in held)
        raise UsageError(
            f"{key.name} is already decided by {names}",
            hint=" ".join(f"-s {r.id}" for r in held) + " to supersede it, or "
            "--cardinality multi if several decisions may hold it",
        )


def _writer(reasons: content.Reasons | None, body: str | None) -> Callable[[str, bool], str]:
    """How the user's reasons go into the rendered template (of a reStructuredText record, or not)."""
    if body is not None:
        return lambda text, rst_text: content.with_body(text, body, rst_text)
    if reasons:
        return lambda text, rst_text: content.fill(text, reasons, rst_text)
    return lambda text, _rst: text


def _create_once(
    ws: Workspace,
    title: str,
    supersedes: Sequence[str],
    links: Sequence[LinkSpec],
    governs: Sequence[str],
    tags: Sequence[str],
    status: str,
    template: str | None,
    key: Key | None = None,
    write_reasons: Callable[[str, bool], str] = lambda text, _rst: text,
) -> Path:
    ws.reload()
    old = [ws.catalog.get(i) for i in supersedes]
    targets = [(spec, ws.catalog.get(spec.target)) for spec in links]
    number = ws.catalog.next_number()
    name, number_shown = _file_name(ws, number, title)
    path = ws.adr_path / _placed(ws, name)
    text = _stated(
        render_template(template_text(ws, template), title=title, status=status, date=today(), number=number_shown),
        name,
        status,
    )
    text = write_reasons(rst.fit_title(text) if record.is_rst(name) else text, record.is_rst(name))
    edits = Transaction(ws)
    text = _with_keys(text, name, governs=list(governs), tags=list(tags))
    if key is not None:
        text = record.set_keys(text, key.frontmatter(), name)
    rel = edits.add_new(path, text)
    for prev in old:
        edits.link(rel, "supersedes", prev.path)
        edits.link(prev.path, "superseded by", rel, status="superseded")
    for spec, target in targets:
        edits.link(rel, spec.rel, target.path)
        edits.link(target.path, spec.reverse, rel)
    edits.commit()
    return path


def _stated(text: str, name: str, status: str) -> str:
    """The record states the status asked for. A folder's template may leave it to the writer
    (a comment in its Status section, or no status at all: the record would read as accepted)."""
    rec = record.parse(text, name)
    if rec.status_stated and rec.status == status:
        return text
    in_section = None if rec.status_stated else content.state_in_section(text, status.capitalize(), record.is_rst(name))
    return in_section or _status_edit(text, rec, status)


def _with_keys(text: str, name: str, **values: list[str]) -> str:
    """Fill list keys the template declares (or add them when asked and not declared); tags go
    where a template without frontmatter keeps them, in its header list (log4brains' `- Tags:`)."""
    parsed = record.parse(text, name)
    if values.get("tags") and "tags" not in parsed.meta and (field := _TAGS_ITEM.search(parsed.preamble)):
        at = text.find(field.group(0))
        text = text[:at] + field.group(1) + ", ".join(values.pop("tags")) + text[at + len(field.group(0)) :]
    updates = {k: v for k, v in values.items() if v or k in parsed.meta}
    return record.set_keys(text, updates, name) if updates else text


_TAGS_ITEM = re.compile(r"^([ \t]*[-*+][ \t]+\**tags\**[ \t]*:\**[ \t]*)([^\r\n]*)", re.IGNORECASE | re.MULTILINE)


def _reload(ws: Workspace, path: Path) -> Record:
    ws.reload()
    return ws.catalog.get(path.relative_to(ws.root).as_posix())


# ---------------------------------------------------------------------------- writing safely


@contextlib.contextmanager
def repo_lock(ws: Workspace) -> Iterator[None]:
    """Serialise edits to the ADR folder across processes (a lock file in the git dir). Where
    the git dir cannot be written, edits still refuse to overwrite what changed under them."""
    with contextlib.ExitStack() as stack:
        # Only taking the lock may fail so: what the edits raise is theirs to tell.
        with contextlib.suppress(OSError):
            stack.enter_context(locked(ws.git_dir / "adr-memory.lock"))
        yield


class Transaction:
    """Edits to several records, validated in memory first, then written all or none.

    Each file is re-read just before it is replaced: if it changed since this command read it,
    nothing more is written, what was written is put back, and the command fails.
    """

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.original: dict[str, str | None] = {}  # repo path -> text as read (None: new file)
        self.text: dict[str, str] = {}

    def add_new(self, path: Path, text: str) -> str:
        rel = path.relative_to(self.ws.root).as_posix()
        self.original[rel], self.text[rel] = None, text
        return rel

    def read(self, rel: str) -> str:
        if rel not in self.text:
            rec = self.ws.catalog.get(rel)
            self.original[rel] = self.text[rel] = _read(self.ws, rec)
        return self.text[rel]

    def record(self, rel: str) -> Record:
        return self.ws.catalog.as_read_here(record.parse(self.read(rel), rel))

    def edit(self, rel: str, fn: Callable[[str, Record], str]) -> None:
        self.text[rel] = fn(self.read(rel), self.record(rel))

    def link(self, rel: str, kind: str, target_rel: str, *, status: str | None = None) -> None:
        target = self.record(target_rel) if target_rel in self.text else self.ws.catalog.get(target_rel)
        self.edit(rel, lambda text, rec: link_text(text, rec, kind, target, status=status))

    def commit(self) -> None:
        done: list[str] = []
        try:
            for rel, text in self.text.items():
                if text == self.original[rel]:
                    continue
                self._write(rel, text)
                done.append(rel)
        except BaseException:
            for rel in reversed(done):
                self._undo(rel)
            raise

    def _write(self, rel: str, text: str) -> None:
        path = self.ws.root / rel
        if self.original[rel] is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)  # a record's own folder, or a new ADR folder
            except OSError as exc:
                raise unwritable(path.parent, exc) from None
            create_exclusive(path, text.encode("utf-8"))
            return
        if _read_path(path) != self.original[rel]:
            raise InvalidRecord(
                f"{rel} changed while this command was editing it; nothing written", hint="run the command again"
            )
        write_text_atomic(path, text)

    def _undo(self, rel: str) -> None:
        path = self.ws.root / rel
        with contextlib.suppress(OSError, AdrError):
            if self.original[rel] is None:
                path.unlink()
                if path.parent != self.ws.adr_path:  # the record's own folder, made for it
                    path.parent.rmdir()
            else:
                write_text_atomic(path, self.original[rel] or "")


# ---------------------------------------------------------------------------- status and links


def set_status(ws: Workspace, ident: str, status: str, *, reason: str | None = None) -> Record:
    """`adr accept|reject|deprecate ID [--reason TEXT]`: change the status (and its reason),
    and only that."""
    with repo_lock(ws):
        ws.reload()
        rec = ws.catalog.get(ident)
        edits = Transaction(ws)
        edits.edit(rec.path, lambda text, current: _status_edit(text, current, status, reason=reason))
        edits.commit()
    return _reload(ws, ws.root / rec.path)


def _status_edit(text: str, rec: Record, status: str, line_text: str | None = None, reason: str | None = None) -> str:
    """The status changed where the record states it: frontmatter, or its body's status line
    (also under frontmatter that holds other keys, such as a Jekyll page's `layout:`, whose
    Status section would otherwise go on saying the old status). A reason goes to
    `status-reason:` in frontmatter, or after the status word on a body status line
    ("Deprecated: why")."""
    reason = safe.one_line(reason) if reason else None
    if reason and line_text is None:
        line_text = f"{status.capitalize()}: {reason}"
    if not rec.status_line and record.is_rst(rec.path) and "status" not in rec.meta:
        return _status_section(text, rec, line_text or status.capitalize())
    section = record.status_section(rec.sections) if not record.is_rst(rec.path) else None
    if not rec.status_line and "status" not in rec.meta and section is not None:
        return _into_status_section(text, section, line_text or status.capitalize())
    if not rec.status_line:  # stated in frontmatter, or nowhere
        return record.set_keys(
            _body_too(text, rec, status), {"status": status, **({"status-reason": reason} if reason else {})}, rec.path
        )
    return _restate(text, rec.status_line, rec.status_text, status, line_text)


def _into_status_section(text: str, section: record.Section, stated: str) -> str:
    """A Status section that states nothing (empty, or holding only the template's question
    or a comment) gets the status below what it holds, a blank line apart: the page shows it
    there."""
    if section.text:
        return record.insert_lines_after(text, section.text_line + section.text.count("\n"), ["", stated])
    lines = [line.rstrip("\r\n") for line in record.split_lines(text.removeprefix("\ufeff"))]
    heading = min(section.text_line - 1, len(lines))  # back over the blank lines to the heading
    while heading > section.line and not lines[heading - 1].strip():
        heading -= 1
    below = heading < len(lines) and lines[heading].strip()  # the next heading right below
    return record.insert_lines_after(text, heading, ["", stated, *[""] * bool(below)])


def _status_section(text: str, rec: Record, stated: str) -> str:
    """A reStructuredText record that states no status gets a Status section, where its readers
    see it (it has no frontmatter): before its first section, titled in that section's style."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    lines = record.split_lines(text.removeprefix("\ufeff"))
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
    current = record.split_lines(text.removeprefix("\ufeff"))[line - 1].rstrip("\r\n")
    if record.TASK.match(current):
        return _retick(text, line, status, line_text)
    if (badge := badges.status_badge(current)) is not None:  # the badge shows the word alone
        old_word = badges.message(badge)
        word = languages.cased_as(old_word, record.written(old_word, status) or status)
        return record.replace_line(text, line, badges.with_message(current, badge, word))
    if logged := record.STATUS_LOG.match(current):  # a dated log: the change is its next entry, the past stays
        word = current[logged.end() :].strip()
        entry = languages.cased_as(word, line_text or record.written(word, status) or status)  # as the log writes
        bullet, sep = logged.groups()
        entry = f"{bullet}{today()}{sep}{entry}"
        return record.insert_lines_after(text, line, [entry] if bullet.strip() else ["", entry])
    if _in_history(text, line):  # a table of changes: a row for this one
        return record.insert_line_after(text, line, _next_row(current, old, line_text or status))
    if line_text is None and (moved := record.transition(old)) is not None:  # `Proposed → Accepted`: one more step
        word = languages.cased_as(moved[1], record.written(moved[1], status) or status)
        return record.replace_line(text, line, _restated(current, old, f"{old}{moved[0]}{word}"))
    listed = re.match(r"^\s*[*-]\s+Status\s*:", current, re.IGNORECASE)  # MADR 2/3 `* Status: accepted`
    said = record.written(old, status)  # the record's language (None: English)
    # What it strikes out stays struck, its HTML stays (`<span style=...>Rejected</span>`):
    # only the status's own word changes.
    struck = re.search(r"[^\W\d_]+", record.html_text(record.marked(old))) if "~~" in old or "<" in old else None
    if struck:
        old = struck.group(0)
    if said or struck:
        stated = line_text or languages.cased_as(old, said or status)
    else:
        stated = languages.cased_as(old or ("a" if listed else "A"), line_text or status)  # as the word it replaces
    return record.replace_line(text, line, _restated(current, old, stated))


def _in_history(text: str, line: int) -> bool:
    """Whether a status's table row has a row of values above it too: the table keeps a row
    per change (`| 2020-01-01 | Proposed |` over `| 2020-02-01 | Accepted |`)."""
    lines = record.split_lines(text.removeprefix("\ufeff"))
    current, above = (record.table_cells(lines[n].rstrip("\r\n")) if n >= 0 else [] for n in (line - 1, line - 2))
    return bool(current and above) and not record.is_rule(above)


def _next_row(current: str, old: str, status: str) -> str:
    """The row of this change: the status, in the case of the one before, under its column;
    today under a date; nothing under the rest (who, why: the author's to write)."""
    word = languages.cased_as(old, record.written(old, status) or status)
    cells = [
        word if cell == old.strip() else today() if _DATE_CELL.fullmatch(cell) else ""
        for cell in record.table_cells(current)
    ]
    return "| " + " | ".join(cells) + " |"


_DATE_CELL = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


def _retick(text: str, line: int, status: str, line_text: str | None) -> str:
    """A status ticked in a checklist (`- [x] Accepted` among `- [ ] Deprecated`): the tick
    moves to the item that names the new status, which says `line_text` when one is given;
    with no such item, a ticked one is added below the list. No choice is renamed or lost."""
    lines = [t.rstrip("\r\n") for t in record.split_lines(text.removeprefix("\ufeff"))]
    first, last = _checklist(lines, line)
    items = {n: m for n in range(first, last + 1) if (m := record.TASK.match(lines[n - 1]))}
    chosen = next((n for n, m in items.items() if record.normalise_status(m.group(2)) == status), None)
    for n, m in items.items():
        mark, words = ("x", line_text or m.group(2)) if n == chosen else (" ", m.group(2))
        current = (
            lines[n - 1][: m.start(1)] + mark + lines[n - 1][m.end(1) : m.start(2)] + words + lines[n - 1][m.end(2) :]
        )
        if m.group(1).lower() != mark or words != m.group(2):
            text = record.replace_line(text, n, current)
    if chosen is None:
        bullet = items[first]
        text = record.insert_line_after(
            text, last, lines[first - 1][: bullet.start(1)] + "x] " + (line_text or status.capitalize())
        )
    return text


def _checklist(lines: list[str], line: int) -> tuple[int, int]:
    """The first and last line (1-based) of the checklist that holds `line`."""
    first = last = line
    while first > 1 and record.TASK.match(lines[first - 2]):
        first -= 1
    while last < len(lines) and record.TASK.match(lines[last]):
        last += 1
    return first, last


def _body_too(text: str, rec: Record, status: str) -> str:
    """A body that states, besides the frontmatter, the same status says the new one too:
    frontmatter edited alone would leave the page saying the old one (and `adr check` warning
    that the two disagree)."""
    if "status" not in rec.meta:
        return text
    alone = record.parse(rec.body, rec.path)  # the body's own status line, counted from its start
    if not alone.status_line or alone.status != rec.status:
        return text
    return _restate(text, rec.body_line - 1 + alone.status_line, alone.status_text, status)


def _status_line(text: str, rec: Record) -> str:
    return record.split_lines(text.removeprefix("\ufeff"))[rec.status_line - 1].rstrip("\r\n")


def _restated(line: str, old: str, new: str) -> str:
    """The status line with the status it states (`old`) replaced by `new`, keeping what
    surrounds it: a label (`**Status:**`, `* Status:`), a heading's hashes, a table's other
    cells. A line that is the status alone becomes `new`."""
    seen = record.unstruck(line)  # a struck word is history, not the status
    label = re.search(r"status\W*", seen, re.IGNORECASE)
    after = label.end() if label and old and seen.find(old, label.end()) >= 0 else 0
    start = seen.find(old, after) if old else -1
    return line[:start] + new + line[start + len(old) :] if start >= 0 else new


def _in_table(text: str, rec: Record) -> bool:
    """Whether the record states its status in a table's cell: a line added below it would
    break the table."""
    return bool(rec.status_line) and _status_line(text, rec).lstrip().startswith("|")


def supersede(ws: Workspace, old_id: str, new_id: str, *, reason: str | None = None) -> tuple[Record, Record]:
    """`adr supersede OLD --by NEW [--reason TEXT]`: both sides, so the pair stays consistent."""
    with repo_lock(ws):
        ws.reload()
        old, new = ws.catalog.get(old_id), ws.catalog.get(new_id)
        if old.id == new.id:
            raise UsageError("a decision cannot supersede itself")
        edits = Transaction(ws)
        edits.link(new.path, "supersedes", old.path)
        edits.link(old.path, "superseded by", new.path, status="superseded")
        if reason:
            edits.edit(old.path, lambda text, rec: _reason_edit(text, rec, reason))
        edits.commit()
    return _reload(ws, ws.root / old.path), _reload(ws, ws.root / new.path)


def _reason_edit(text: str, rec: Record, reason: str) -> str:
    """Add why to a status already written: frontmatter `status-reason:`, else after the
    status line's text."""
    reason = safe.one_line(reason)
    if not rec.status_line:
        return record.set_keys(text, {"status-reason": reason}, rec.path)
    current = _status_line(text, rec)
    stated = rec.status_text if rec.status_text and rec.status_text in current else current.strip()
    return record.replace_line(text, rec.status_line, _restated(current, stated, f"{stated} ({reason})"))


def link(ws: Workspace, source: str, rel: str, target: str, reverse: str | None = None) -> None:
    """`adr link SRC LINK TGT [REVERSE]` (adr-tools): record a relation, and its reverse if given."""
    with repo_lock(ws):
        ws.reload()
        src, tgt = ws.catalog.get(source), ws.catalog.get(target)
        edits = Transaction(ws)
        edits.link(src.path, rel, tgt.path)
        if reverse:
            edits.link(tgt.path, reverse, src.path)
        edits.commit()


def link_text(text: str, rec: Record, rel: str, target: Record, *, status: str | None = None) -> str:
    """`rec --rel--> target` written in the record's own style: where it states its status
    (frontmatter, or a status line: a Jekyll page's `layout:` frontmatter does not make its
    Status section stale text)."""
    key = _REL_KEYS.get(rel.strip().lower())
    if _said(rec, rel, target) and status in (None, rec.status):
        return text  # said already, in the record's own words (prose under its title, too)
    if not rec.status_line and record.is_rst(rec.path) and status is not None and "status" not in rec.meta:
        return _status_edit(text, rec, status, line_text=_link_line(rec, rel, target))  # a Status section
    if not rec.status_line:
        return _frontmatter_link(text, rec, rel, key, target, status)
    if _in_table(text, rec) or badges.status_badge(_status_line(text, rec)):
        # the status changes in its cell or badge; the link goes where they have no room
        text = _status_edit(text, rec, status) if status is not None else text
        return _frontmatter_link(text, rec, rel, key, target, None)
    line = _link_line(rec, rel, target)
    if status is not None and key == "superseded-by":
        return _status_edit(text, rec, status, line_text=line)  # adr-tools replaces the status
    if line in text:
        return text
    stated = _status_line(text, rec)
    item = _LIST_ITEM.match(stated)
    if item and not record.TASK.match(stated):  # MADR 2's header list: an item of its own, in the list
        return record.insert_line_after(text, rec.status_line, item.group(0) + line)
    # adr-tools style: a blank line, then the link line (below a checklist, not in it)
    below = (
        _checklist([t.rstrip("\r\n") for t in record.split_lines(text.removeprefix("\ufeff"))], rec.status_line)[1]
        if record.TASK.match(stated)
        else rec.status_line
    )
    return record.insert_lines_after(text, below, ["", line])


_LIST_ITEM = re.compile(r"^[ \t]*[-*+][ \t]+")


def _said(rec: Record, rel: str, target: Record) -> bool:
    """Whether the record already links the target so, in its own words
    (`Supersedes [Pipeline](0001-pipeline.md)`): a second line would say it twice."""
    wanted = _REL_KEYS.get(rel.strip().lower(), rel.strip().lower())
    return any(link.rel == wanted and link.target == target.id for link in rec.links)


def _link_line(rec: Record, rel: str, target: Record) -> str:
    """`Superseded by [3. Title](0003-title.md)`, as adr-tools writes it: in reStructuredText's
    link syntax for such a record, and `Ersetzt durch` in a record whose status is German."""
    label = safe.one_line(target.title)
    if target.number is not None:  # adr-tools writes `[3. Title]`; a record named by date has no number
        label = f"{target.number}. {label}"
    relative = _relative(rec, target)
    key = _REL_KEYS.get(rel.strip().lower())
    said = (
        record.written(rec.status_text, {"superseded-by": "by", "supersedes": "replaces"}[key])
        if key in ("superseded-by", "supersedes")
        else None
    )
    return f"{said or rel.strip().capitalize()} " + (
        rst.link(label, relative) if record.is_rst(rec.path) else f"[{label}]({relative})"
    )


def _frontmatter_link(text: str, rec: Record, rel: str, key: str | None, target: Record, status: str | None) -> str:
    updates: dict[str, object] = {}
    if key is not None:
        current = list(rec.linked(key))
        updates[key] = current + [target.id] if target.id not in current else current
    else:
        written = rec.meta.get("links") or []
        if not isinstance(written, list):  # rewriting it would lose what the author wrote
            raise InvalidRecord(
                f"{rec.path}: `links` is not a list, so no link can join it",
                hint="write it as links: [{rel: amends, id: ADR-0003}] first (`adr check`)",
            )
        links = [dict(x) for x in written if isinstance(x, dict)]
        entry = {"rel": rel.strip().lower(), "id": target.id}
        updates["links"] = links + [entry] if entry not in links else links
    if status is not None:
        updates["status"] = status
        text = _body_too(text, rec, status)
    return record.set_keys(text, updates, rec.path)


def _relative(rec: Record, target: Record) -> str:
    import posixpath

    return posixpath.relpath(target.path, posixpath.dirname(rec.path))


# A record with one of these cannot be edited key by key: its keys cannot be read, or which
# side of a merge conflict an edit belongs to cannot be told.
_UNEDITABLE = ("merge-conflict", *record.FRONTMATTER_KINDS, "encoding", "binary", "too-large", "symlink")


def _read(ws: Workspace, rec: Record) -> str:
    blocking = [p for p in rec.problems if p.kind in _UNEDITABLE]
    if blocking:
        raise InvalidRecord(
            f"{rec.path} cannot be edited safely: {blocking[0].message}",
            hint=blocking[0].hint or "fix the file first (`adr check`)",
        )
    text = _read_path(ws.root / rec.path)
    if text is None:
        raise InvalidRecord(f"{rec.path} disappeared while this command was reading it", hint="run the command again")
    return text


def _read_path(path: Path) -> str | None:
    # newline="" keeps CRLF and lone CR exactly as they are.
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidRecord(f"cannot read {path.name}: {exc}") from None


def _refuse_unheld(ws: Workspace, rec: Record) -> None:
    """Affirming says a decision still holds: only an accepted one does. (A loop over `adr stale`
    rows would otherwise write "this decision holds" into superseded records.)"""
    if rec.status == "accepted":
        return
    if rec.superseded_by:
        hint = f"affirm what replaced it instead: adr affirm {_last_successor(ws, rec).id}"
    elif rec.status == "proposed":
        hint = f"accept it first: adr accept {rec.id}"
    else:
        hint = f"it no longer holds; adr show {rec.id} says why"
    raise UsageError(f"{rec.id} is {rec.status}: only an accepted decision is affirmed", hint=hint)


def _last_successor(ws: Workspace, rec: Record) -> Record:
    """The end of a record's chain of successors (a loop ends where it comes round)."""
    seen = {rec.path}
    while rec.superseded_by and (after := ws.catalog.find(rec.superseded_by[0])) is not None and after.path not in seen:
        rec = after
        seen.add(rec.path)
    return rec


def affirm(ws: Workspace, ident: str, *, note: str | None = None) -> Record:
    """`adr affirm ID`: write `reviewed: {commit, date, note}`, and only that key."""
    head = ws.repo.head()
    reviewed: dict[str, object] = {"commit": head[:12] if head else None, "date": dt.date.today()}
    if note:
        reviewed["note"] = safe.one_line(note)
    with repo_lock(ws):
        ws.reload()
        rec = ws.catalog.get(ident)
        _refuse_unheld(ws, rec)
        edits = Transaction(ws)
        edits.edit(rec.path, lambda text, _rec: record.set_keys(text, {"reviewed": reviewed}, rec.path))
        edits.commit()
    return _reload(ws, ws.root / rec.path)
