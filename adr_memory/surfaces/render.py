"""Output: rich tables for people, JSON for machines. The only module that imports rich.

JSON shapes are a contract (README: JSON output): fields may be added, never renamed.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from adr_memory.base import safe
from adr_memory.records import MD_LINK, Record, is_rst, redacted, scrub, scrub_data, standing
from adr_memory.surfaces.formats import Format


class _SafeConsole(Console):
    """A console for untrusted text: record text is never read as markup (markup=False), and
    every segment of text it renders loses escape sequences and control characters; only the
    styles rich itself adds reach the terminal. Credentials are redacted in the data first;
    scrubbing each segment again is the backstop for a field that missed it."""

    _line_start = True  # whether the next text begins a line (a CI log reads `::` there as a command)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """Off a terminal (a pipe, a file, CI's log) prose is not wrapped at a guessed width: a
        paragraph is one line, as the record writes it, and a URL or a path stays whole to copy
        and click (rich would cut it at 80 columns). Table columns keep their own overflow."""
        if not self.is_terminal:
            kwargs.setdefault("overflow", "ignore")
            kwargs.setdefault("crop", False)
        super().print(*objects, **kwargs)

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Any:
        ci = safe.in_ci()
        for segment in super().render(renderable, options):
            if segment.control:
                yield segment
                continue
            text = _clean(segment.text)
            if ci and text:
                text = _not_commands(text, at_start=self._line_start)
                # Blanks alone keep a line at its start: a centred heading's padding comes first.
                self._line_start = text.endswith("\n") or (self._line_start and not text.strip(" \t"))
            yield Segment(text, segment.style, segment.control)

    def on_broken_pipe(self) -> None:
        """The reader left (`adr show 1 | head -1`): write nothing more and end as every other
        command does then, exit 0 (rich's own exits 1, which reads as findings)."""
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:  # the interpreter's last flush then writes nowhere instead of failing
            os.dup2(devnull, self.file.fileno())
        except (OSError, ValueError):  # no descriptor to point elsewhere
            pass
        finally:
            os.close(devnull)
        raise BrokenPipeError


@functools.lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    """`text` without credentials, escape sequences or control characters. Remembered: rich
    renders a table's cells through this console once for every level they are nested in (cell,
    padding, table), and a long list would scrub each piece of text three times."""
    return safe.terminal(scrub(text))


# NO_COLOR (no-color.org) asks for no colour; rich then still writes bold and dim. A reader who
# set it gets plain text: no style at all.
_PLAIN: dict[str, Any] = {"color_system": None} if os.environ.get("NO_COLOR") else {}
out = _SafeConsole(highlight=False, soft_wrap=False, markup=False, emoji=False, **_PLAIN)
err = _SafeConsole(stderr=True, highlight=False, markup=False, emoji=False, **_PLAIN)

STATUS_STYLE = {
    "accepted": "green",
    "proposed": "yellow",
    "rejected": "red",
    "deprecated": "magenta",
    "superseded": "dim",
    "unknown": "red",
}


def warn(message: str) -> None:
    sys.stderr.write(_in_ci(f"warning: {safe.one_line(scrub(message))}") + "\n")


def counted(n: int, noun: str, plural: str = "") -> str:
    """`1 decision`, `2 decisions`: a count and its noun as a person writes them."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def note(message: str) -> None:
    """One line on stderr that explains an answer, never wrapped (it is not a problem: no `warning:`)."""
    sys.stderr.write(_in_ci(f"note: {safe.one_line(scrub(message))}") + "\n")


def _in_ci(text: str) -> str:
    return safe.no_workflow_commands(text) if safe.in_ci() else text


def emit_json(data: Any) -> None:
    """JSON on stdout; credentials redacted in every string (keys included). In CI a `##[` in
    a string is written `#\\u0023[`: the same string to a JSON reader, no command to the log's."""
    text = json.dumps(scrub_data(data), indent=2, ensure_ascii=False, default=str)
    sys.stdout.write((text.replace("##[", "#\\u0023[") if safe.in_ci() else text) + "\n")


def line(text: str, *, command: bool = False) -> None:
    """Plain text on stdout, credentials redacted, escape sequences and control characters gone;
    in CI, no line of it starts a workflow command unless it is one we write (`command`)."""
    text = safe.terminal(scrub(text))
    if safe.in_ci() and not command:
        text = safe.no_workflow_commands(text)
    sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))


def _not_commands(text: str, *, at_start: bool) -> str:
    """`safe.no_workflow_commands` for a piece of a line: its first line is a line's start only
    when `at_start`."""
    if at_start:
        return safe.no_workflow_commands(text)
    head, newline, rest = text.partition("\n")
    head = head.replace("##[", "#\u200b#[")  # read anywhere in a line, not only at its start
    return head + newline + safe.no_workflow_commands(rest) if newline else head


def paths(items: Iterable[str], *, zero: bool = False) -> None:
    """Paths for a script: a line each, a name with a newline or control character quoted as
    git quotes it; or, `zero`, each path's own bytes ended by NUL (`xargs -0`)."""
    if zero:
        sys.stdout.flush()
        for path in items:
            sys.stdout.buffer.write(path.encode("utf-8", "surrogateescape") + b"\0")
        sys.stdout.buffer.flush()
        return
    for path in items:  # as it is, as `git ls-files` prints it: a path redacted names no file
        sys.stdout.write(safe.terminal(safe.quoted_path(path)) + "\n")


# ---------------------------------------------------------------------------- records


def _disputed(notes: Sequence[str] | None) -> str:
    """Feedback here says it misled (local, beside the verdict): how often, and the last note."""
    if not notes:
        return ""
    return f"{len(notes)} report(s) here that it misled since its last review: {notes[-1]}"


def _status(rec: Record, extra: Mapping[str, Any] | None = None) -> Text:
    """The status as its standing reads (records/standing.py): a record whose successor is only
    proposed is accepted, and says which is proposed; a retired one names what retired it."""
    held = (extra or {}).get("standing")
    if not held:
        return Text(rec.status_shown, style=STATUS_STYLE.get(rec.status, ""))
    label = standing.Standing.from_json(held).label(rec.status_shown)
    return Text(label, style=STATUS_STYLE.get(label.split(";")[0].split(" ")[0], ""))


_CAP = {"Status": 14}  # "superseded by ADR-0003" wraps in its column: whole, never cut (a standing cut short misleads)


def records_table(records: Sequence[Record], extras: Mapping[str, Mapping[str, Any]]) -> None:
    records = [redacted(r) for r in records]
    if not records:
        out.print("No decisions found.")
        return
    rows: list[dict[str, Text | str]] = []
    for rec in records:
        extra = extras.get(rec.path, {})
        rows.append(
            {
                "ID": rec.id,
                "Status": _status(rec, extra),
                "Title": rec.title,
                "Date": str(extra.get("first_date") or rec.date or ""),
                "Version": str(extra.get("version_id") or ""),
                "Stale": _stale_cell(extra.get("stale"), extra.get("stale_text")),
            }
        )
    # Every column but the title stays on one line, the title wraps in what is left; where the
    # columns leave it too little, each record is stacked (grid.py): no column is dropped, so a
    # superseded decision never reads as in force for want of its status.
    from adr_memory.surfaces import grid

    if not any(row["Date"] for row in rows):
        for row in rows:
            del row["Date"]
    grid.show(rows, fold="Title", room=16, caps=_CAP)


def _stale_cell(stale: bool | None, text: str | None) -> Text | str:
    if stale:
        return Text("stale", style="bold red")
    if stale is None:  # git cannot tell: say which way, never "no"
        return Text(text.split(":", 1)[0], style="yellow") if text else ""
    return "no"


# A relation another record states about this one, read from this one's side.
_INVERSE = {
    "superseded-by": "supersedes",
    "supersedes": "superseded by",
    "depends-on": "needed by",
    "relates-to": "relates-to",
    "amends": "amended by",
    "amended by": "amends",
}


def since(changed: Mapping[str, Any]) -> str:
    """A standing's `changed`, as people read it: "accepted in ADR-0003 2026-12-01 by Bob (1a2b3c4d5e)"
    (the commit a merged branch wrote it in, not the merge)."""
    where = (changed.get("written_in") or changed.get("commit") or "")[:10]
    by = (changed.get("author") or "").split(" <", 1)[0]
    when = (changed.get("date") or "")[:10]
    return f"{changed['to']} in {changed['id']} {when} by {by} ({where})"


def record_detail(rec: Record, extra: Mapping[str, Any]) -> None:
    from rich.markdown import Markdown

    rec = redacted(rec)
    out.print(Text(f"{rec.id}: {rec.title}", style="bold"), soft_wrap=not out.is_terminal)
    stated = MD_LINK.sub(r"\1", rec.status_text or "")  # a status line's link reads as its text
    facts = [("status", _status(rec) + Text(f"  ({stated})" if stated and stated.lower() != rec.status else ""))]
    if extra.get("standing") and extra["standing"]["text"] not in ("in force", rec.status):
        facts.append(("standing", Text(extra["standing"]["text"])))
    if changed := (extra.get("standing") or {}).get("changed"):  # who made it stand so, and where
        facts.append(("since", Text(since(changed))))
    facts += [
        (k, Text(str(v)))
        for k, v in (
            ("path", rec.path),
            ("date", extra.get("first_date") or rec.date),
            ("version", extra.get("version_id")),
            ("stale", extra.get("stale_text")),
            ("disputed", _disputed(extra.get("disputed"))),
            ("tags", ", ".join(rec.tags)),
            ("governs", ", ".join(rec.governs)),
            ("supersedes", ", ".join(rec.supersedes)),
            ("superseded by", ", ".join(rec.superseded_by)),
        )
        if v
    ]
    for link in rec.links:
        if link.rel not in ("supersedes", "superseded-by"):
            facts.append((link.rel, Text(link.target)))
    linked = {link.target for link in rec.links} | set(rec.supersedes) | set(rec.superseded_by)
    for back in extra.get("backlinks", []):
        if back["rel"] == "supersedes":
            continue  # a successor, proposed or in force: the standing above names it
        if back["id"] in linked:
            continue  # the other half of a pair this record states itself (adr-tools writes both)
        # ADR-0002's `superseded-by: this` reads here as "supersedes ADR-0002"; a relation with
        # no known inverse is said from the other side: "linked from  ADR-0001 (refers to)".
        rel = _INVERSE.get(back["rel"])
        facts.append((rel, Text(back["id"])) if rel else ("linked from", Text(f"{back['id']} ({back['rel']})")))
    if not out.is_terminal:  # off a terminal, a line each, never folded at a width no one chose
        width = max(len(key) for key, _value in facts)
        for key, value in facts:
            out.print(Text(f"{key:<{width}}  ") + value, soft_wrap=True)
    else:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim")
        grid.add_column(overflow="fold")  # a path or an id wraps whole at any width, never cut with "…"
        for key, value in facts:
            grid.add_row(key, value)
        out.print(grid)
    for rule in extra.get("rules", []):
        out.print(Text(f"rule {rule['rule_id']}  {rule['description']}", style="cyan"), soft_wrap=not out.is_terminal)
    out.print()
    # reStructuredText read as markdown loses its links and literal blocks: shown as written.
    # Off a terminal (a pipe, a file) the body is the markdown as written, never wrapped or cut
    # at a width no one chose: rich lays lists out at 80 columns and cuts what passes them.
    out.print(Text(rec.body) if is_rst(rec.path) or not out.is_terminal else Markdown(rec.body))


# ---------------------------------------------------------------------------- findings


def findings(items: Sequence[Any], fmt: Format, *, title: str = "adr check", untouched: str | None = None) -> None:
    """Check findings as text, json, github annotations or markdown; `untouched` is the one
    line that stands for what a pull request did not cause."""
    if fmt == "json":
        emit_json(
            {
                "ok": not any(f.severity == "error" for f in items),
                "findings": [f.to_json() for f in items],
                "untouched": untouched,
            }
        )
    elif fmt == "github":
        for f in items:
            line(_workflow_command(f), command=True)
        if untouched:
            line(f"::notice title=adr check::{safe.workflow_data(untouched)}", command=True)
    elif fmt == "markdown":
        line(findings_markdown(items, title) + (f"\n{untouched}\n" if untouched else ""))
    else:
        for f in items:
            for text in f.text_lines():
                line(text)
        errors = sum(f.severity == "error" for f in items)
        summary = f"{errors} error(s), {len(items) - errors} warning(s)" if items else "no problems"
        err.print(Text(f"{title}: {summary}" + (f"; {untouched}" if untouched else "")))


def _workflow_command(f: Any) -> str:
    """One `::error file=…::message` line; record text cannot end the command or start another."""
    level = "error" if f.severity == "error" else "warning"
    message = f.message + (f" (hint: {f.hint})" if f.hint else "")
    props = [f"file={safe.workflow_property(f.path)}", f"line={int(f.line)}"]
    if f.col:
        props.append(f"col={int(f.col)}")
    props.append(f"title={safe.workflow_property(f'{f.kind} {f.id}')}")
    return f"::{level} {','.join(props)}::{safe.workflow_data(scrub(message))}"


def findings_markdown(items: Iterable[Any], title: str) -> str:
    from adr_memory.surfaces.review import findings_table

    items = list(items)
    if not items:
        return f"### {title}\n\nNo problems found.\n"
    return "\n".join([f"### {title}", ""] + findings_table([f.to_json() for f in items])) + "\n"


# ---------------------------------------------------------------------------- history


def day(timestamp: int | None) -> str:
    if not timestamp:
        return ""
    import datetime as dt

    return dt.datetime.fromtimestamp(timestamp, dt.UTC).strftime("%Y-%m-%d")


# ---------------------------------------------------------------------------- search


class progress:
    """A rich progress bar on stderr for long work; silent when nothing long happens. Off a
    terminal (CI, a pipe, an MCP client's log) a plain line every few seconds instead, so a
    long first build is never silent there; work done within `QUIET` seconds prints nothing."""

    QUIET = 2.0  # seconds of work before the first line off a terminal
    EVERY = 5.0  # seconds between lines off a terminal

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.label = label
        self._bar: Any = None
        self._task: Any = None
        self._clock = clock
        self._started: float | None = None
        self._said: float | None = None  # when the last line off a terminal was written

    def __enter__(self) -> Any:
        return self.tick

    def tick(self, done: int, total: int | None) -> None:
        """Advance the bar (total None: unknown). Reaching the total stops it, so what the
        command prints next is not mixed with a live display."""
        if not err.is_terminal:
            self._line(done, total)
            return
        if self._bar is None:
            if total is not None and done >= total:
                return  # nothing left to show
            from rich.progress import Progress

            self._bar = Progress(console=err, transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        self._bar.update(self._task, completed=done, total=total)
        if total is not None and done >= total:
            self._stop()

    def _line(self, done: int, total: int | None) -> None:
        now = self._clock()
        if self._started is None:
            self._started = now
        finished = total is not None and done >= total
        due = now - self._started >= self.QUIET and (self._said is None or now - self._said >= self.EVERY)
        if due or (finished and self._said is not None):  # the last line, once any was written
            of = f"/{total}" if total is not None else ""
            sys.stderr.write(f"{self.label}: {done}{of}{' done' if finished else ''}\n")
            sys.stderr.flush()
            self._said = now
        if finished:  # the next piece of work starts its own count
            self._started = self._said = None

    def _stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __exit__(self, *exc: object) -> None:
        self._stop()


def migration(outcomes: Sequence[Any], *, dry_run: bool) -> None:
    """`adr migrate`: each record moved (with its diff on a dry run) or left, then a count."""
    import difflib

    for o in outcomes:
        if o.moved:
            if dry_run:  # plain lines: a diff must not be wrapped at the terminal's width
                for text in difflib.unified_diff(
                    o.before.splitlines(), o.after.splitlines(), fromfile=o.path, tofile=o.path, lineterm=""
                ):
                    line(text)
            line(f"{o.id}: moved {', '.join(o.moved)} into frontmatter")
        elif o.refused:
            line(f"{o.id}: left as it is: {o.refused}")
    moved = sum(bool(o.moved) for o in outcomes)
    left = sum(bool(o.refused) for o in outcomes)
    verb = "would migrate" if dry_run else "migrated"
    line(f"{verb} {moved} record(s); {left} left as they are; {len(outcomes) - moved - left} had nothing to move")
