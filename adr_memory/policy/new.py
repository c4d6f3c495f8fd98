"""`adr new`: the next free number, a record filled from the folder's template, created without
ever reusing a number when two run at once."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adr_memory import records
from adr_memory.base import Config, safe
from adr_memory.base import problem as glob_problem
from adr_memory.errors import AdrError, UsageError
from adr_memory.history import Workspace
from adr_memory.policy.linking import LinkSpec
from adr_memory.policy.statuses import _status_edit
from adr_memory.policy.templates import folder_sign, render_template, slugify, suffix_of, template_text, today
from adr_memory.policy.transaction import Transaction, repo_lock
from adr_memory.records import Catalog, Record, catalog, content, rst


def _file_name(kept: Catalog, where: Path, number: int, title: str) -> tuple[str, int | None]:
    """The new record's file name and the number its heading carries. Follow the folder's own
    naming (`0007-`, `007-`, `adr-007-`, or today's date, or year, with no number, in a folder
    that names its records so, or by title alone in a folder that numbers and dates none) so new
    files sit in line."""
    if _named_by_date(kept):
        return _dated_name(kept, where, title), None
    if len(kept) and not any(records.file_id(records.record_name(r.path)) for r in kept):
        return _free_name(kept, where, slugify(title)), None  # `use-postgres.md`: a number would hide them all
    return kept.numbered_name(number, f"{slugify(title)}{suffix_of(kept)}"), number


def _placed(kept: Catalog, name: str) -> str:
    """Where a record named `name` goes: beside the others, or, in a folder whose records
    mostly keep a folder of their own (`20240524-pipeline/index.md`), in its own, its page
    named as the newest such record's is (`index.md`, `README.md`)."""
    own = [r.path for r in kept if records.record_file(r.path) != r.path]
    if len(own) * 2 <= len(kept):
        return name
    page = records.stem(own[-1].rpartition("/")[2])
    return f"{records.stem(name)}/{page}{records.suffix(name)}"


def _by_day_or_year(rec: Record) -> bool:
    return records.named_by_date(records.record_name(rec.path)) or catalog.named_by_name(rec)


def _named_by_date(kept: Catalog) -> bool:
    return sum(map(_by_day_or_year, kept)) * 2 > len(kept)


def _dated_name(kept: Catalog, where: Path, title: str) -> str:
    """`YYYY-MM-DD-slug.md` for today (`YYYYMMDD-` where most of the folder's dates are written
    so, as log4brains writes them; `YYYY-` where most name the year alone, as linq2db does;
    `YYYY-MM-DD Title as typed.md` where most names are so, as joelparkerhenderson's guide
    writes them); `-2`, `-3`... when a record of that name was made today."""
    named = [records.record_name(r.path) for r in kept if _by_day_or_year(r)]
    dated = [name for name in named if records.file_date(name)]
    if len(dated) * 2 < len(named):
        return _free_name(kept, where, f"{today()[:4]}-{slugify(title)}")
    if sum(re.match(r"\d{4}-\d\d-\d\d ", name) is not None for name in dated) * 2 > len(dated):
        return _free_name(kept, where, f"{today()} {_as_file_name(title)}")
    compact = sum(re.match(r"\d{8}(?!\d)", name) is not None for name in dated) * 2 > len(dated)
    return _free_name(kept, where, f"{today().replace('-', '') if compact else today()}-{slugify(title)}")


def _as_file_name(title: str) -> str:
    """A title as a file's name keeps it: no path separators, control or reserved characters,
    no leading dot, at most 80 characters."""
    kept = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]+', " ", title)
    return " ".join(kept.split())[:80].strip(" .") or "Decision"


def _free_name(kept: Catalog, where: Path, stem: str) -> str:
    """`stem` with the folder's suffix, or `-2`, `-3`... when a record has that name."""
    taken = {records.record_name(r.path) for r in kept}
    for n in itertools.count(1):
        name = f"{stem}{suffix_of(kept)}" if n == 1 else f"{stem}-{n}{suffix_of(kept)}"
        if name not in taken and not (where / name).exists() and not (where / records.stem(name)).exists():
            return name
    raise AssertionError("unreachable")


def _typed(reasons: content.Reasons | None, body: str | None) -> list[tuple[str, str]]:
    said = [("body", body or "")]
    if reasons is not None:
        said += [("context", reasons.context), ("decision", reasons.decision), ("consequences", reasons.consequences)]
        said += [("option", option) for option in reasons.options]
    return said


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
    rules: Sequence[Mapping[str, Any]] = (),
) -> Path:
    """Write a new record and the reverse links on the records it names; return its path.

    Numbering and creation happen under the repository's adr lock, and the file is created
    exclusively: concurrent `adr new` runs get distinct numbers and never replace a record.
    """
    title = safe.one_line(title)  # typed or sent by an agent: no control character reaches the file
    records.credentials.refuse_in(title, "title")  # it names the file too, which no redaction reaches
    for what, text in _typed(reasons, body):  # what a writer or an agent sends goes into git history
        records.credentials.refuse_in(text, what)
    if not title:
        raise UsageError("a decision needs a title", hint='adr new "Use PostgreSQL for storage"')
    if status not in records.STATUSES:
        raise UsageError(f"unknown status {status!r}", hint="one of: " + ", ".join(records.STATUSES))
    for glob in governs:
        why = glob_problem(glob)
        if why:
            raise UsageError(f"governs glob {glob!r} {why}", hint='e.g. --governs "src/db/**"')
    if key is not None:
        key.validate()
    checked = _checked_rules(rules)
    with repo_lock(ws.git_dir):
        if key is not None:
            _refuse_held(ws, key, supersedes)
        for _attempt in range(_CREATE_ATTEMPTS):
            try:
                path = _create_once(
                    ws, title, supersedes, links, governs, tags, status, template, key, _writer(reasons, body), checked
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


def _checked_rules(rules: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rules as the record will carry them, each one `adr check` can use: a rule it could
    not is refused here, where it is typed, not found by the next check."""
    from adr_memory.policy.rules import parse_one

    for number, rule in enumerate(rules, start=1):
        _parsed, why = parse_one("new", rule)
        if why:
            raise UsageError(
                f"rule {number} {why}", hint='e.g. --rule "forbid: import requests" (see docs/checks.md, Rules)'
            )
    return [dict(rule) for rule in rules]


@dataclass(frozen=True)
class Key:
    """`adr new --key K [--cardinality single|multi] [--value V]`: the question it answers."""

    name: str
    cardinality: str = "single"
    value: str = ""
    # How the caller's surface spells the two ways out of a held key, so a refusal's hint names
    # what the user can type there: the CLI's flags by default, an MCP tool's arguments.
    spelled: tuple[str, str] = ("-s {id}", "--cardinality multi")

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
    unread = [f for f in (ws.sources if ws.config.sources else ()) if f.problem]
    if unread:  # whether a source's decision holds the key cannot be told: fail closed (ADR-0101)
        raise UsageError(
            f"cannot tell whether {key.name} is already decided: {unread[0].problem}",
            hint=f"adr sources update {unread[0].spec.name}, or check the network, then run it again",
        )
    replaced = {_replaced(ws, i).id for i in supersedes}
    # a source's decision in force holds its key here too: superseding it records this
    # repository's exception (ADR-0101)
    held = [r for r in conflicts.holders(ws.decisions, key.name) if r.id not in replaced]
    if held:
        names = ", ".join(f"{r.id} ({r.title})" for r in held)
        supersede, multi = key.spelled
        raise UsageError(
            f"{key.name} is already decided by {names}",
            hint=" ".join(supersede.format(id=r.id) for r in held) + " to supersede it, or "
            f"{multi} if several decisions may hold it",
        )


def _replaced(ws: Workspace, ident: str) -> Record:
    """The record `-s ident` names: this folder's, or a source's (`platform:1`)."""
    if _a_source_s(ws.config, ident):
        from adr_memory.history import sources

        found = sources.find(ws, ident)
        if found is not None:
            return found
    return ws.catalog.get(ident)


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
    rules: Sequence[dict[str, Any]] = (),
) -> Path:
    ws.reload()
    # A source's decision is read-only here: the new record names it (this repository's
    # exception), and the source is left as it is.
    theirs = [_replaced(ws, i).id for i in supersedes if _a_source_s(ws.config, i)]
    old = [ws.catalog.get(i) for i in supersedes if not _a_source_s(ws.config, i)]
    targets = [(spec, ws.catalog.get(spec.target)) for spec in links]
    number = ws.catalog.next_number()
    name, number_shown = _file_name(ws.catalog, ws.adr_path, number, title)
    path = ws.adr_path / _placed(ws.catalog, name)
    text = _stated(
        render_template(
            template_text(ws, template),
            title=title,
            status=status,
            date=today(),
            number=number_shown,
            sign=folder_sign(ws.catalog, status),
        ),
        name,
        status,
    )
    text = write_reasons(rst.fit_title(text) if records.is_rst(name) else text, records.is_rst(name))
    edits = Transaction(ws)
    text = _with_keys(text, name, governs=list(governs), tags=list(tags))
    if key is not None:
        text = records.set_keys(text, key.frontmatter(), name)
    if theirs:
        text = records.set_keys(text, {"supersedes": theirs}, name)
    if rules:
        text = records.set_keys(text, {"rules": list(rules)}, name)
    rel = edits.add_new(path, text)
    for prev in old:
        edits.link(rel, "supersedes", prev.path)
        if status == "accepted":  # a proposed successor retires nothing until it is accepted (ADR-0101)
            edits.link(prev.path, "superseded by", rel, status="superseded")
    for spec, target in targets:
        edits.link(rel, spec.rel, target.path)
        edits.link(target.path, spec.reverse, rel)
    edits.commit()
    return path


def _a_source_s(cfg: Config, ident: str) -> bool:
    name, sep, _rest = ident.partition(":")
    return bool(sep) and any(s.name == name.strip() for s in cfg.sources)


def _stated(text: str, name: str, status: str) -> str:
    """The record states the status asked for. A folder's template may leave it to the writer
    (a comment in its Status section, or no status at all: the record would read as accepted)."""
    rec = records.parse(text, name)
    if rec.status_stated and rec.status == status:
        return text
    in_section = (
        None if rec.status_stated else content.state_in_section(text, status.capitalize(), records.is_rst(name))
    )
    return in_section or _status_edit(text, rec, status)


def _with_keys(text: str, name: str, **values: list[str]) -> str:
    """Fill list keys the template declares (or add them when asked and not declared); tags go
    where a template without frontmatter keeps them, in its header list (log4brains' `- Tags:`)."""
    parsed = records.parse(text, name)
    if values.get("tags") and "tags" not in parsed.meta and (field := _TAGS_ITEM.search(parsed.preamble)):
        at = text.find(field.group(0))
        text = text[:at] + field.group(1) + ", ".join(values.pop("tags")) + text[at + len(field.group(0)) :]
    updates = {k: v for k, v in values.items() if v or k in parsed.meta}
    return records.set_keys(text, updates, name) if updates else text


_TAGS_ITEM = re.compile(r"^([ \t]*[-*+][ \t]+\**tags\**[ \t]*:\**[ \t]*)([^\r\n]*)", re.IGNORECASE | re.MULTILINE)
