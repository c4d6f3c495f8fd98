"""Output: rich tables for people, JSON for machines. The only module that imports rich.

JSON shapes are a contract (README: JSON output): fields may be added, never renamed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from adr_memory.base import safe
from adr_memory.records.credentials import redacted, scrub, scrub_data
from adr_memory.records.record import Record, is_rst


class _SafeConsole(Console):
    """A console for untrusted text: record text is never read as markup (markup=False), and
    every segment of text it renders loses escape sequences and control characters; only the
    styles rich itself adds reach the terminal. Credentials are redacted in the data first;
    scrubbing each segment again is the backstop for a field that missed it."""

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Any:
        for segment in super().render(renderable, options):
            yield (
                segment
                if segment.control
                else Segment(safe.terminal(scrub(segment.text)), segment.style, segment.control)
            )

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


out = _SafeConsole(highlight=False, soft_wrap=False, markup=False, emoji=False)
err = _SafeConsole(stderr=True, highlight=False, markup=False, emoji=False)

STATUS_STYLE = {
    "accepted": "green",
    "proposed": "yellow",
    "rejected": "red",
    "deprecated": "magenta",
    "superseded": "dim",
    "unknown": "red",
}


def warn(message: str) -> None:
    sys.stderr.write(f"warning: {safe.one_line(scrub(message))}\n")


def emit_json(data: Any) -> None:
    """JSON on stdout; credentials redacted in every string (keys included)."""
    sys.stdout.write(json.dumps(scrub_data(data), indent=2, ensure_ascii=False, default=str) + "\n")


def line(text: str) -> None:
    """Plain text on stdout, credentials redacted, escape sequences and control characters gone."""
    text = safe.terminal(scrub(text))
    sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))


def paths(items: Iterable[str], *, zero: bool = False) -> None:
    """Paths for a script: a line each, a name with a newline or control character quoted as
    git quotes it; or, `zero`, each path's own bytes ended by NUL (`xargs -0`)."""
    if zero:
        sys.stdout.flush()
        for path in items:
            sys.stdout.buffer.write(path.encode("utf-8", "surrogateescape") + b"\0")
        sys.stdout.buffer.flush()
        return
    for path in items:
        line(safe.quoted_path(path))


# ---------------------------------------------------------------------------- records


def record_json(rec: Record, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `adr list --json` object for one record."""
    rec = redacted(rec)
    data: dict[str, Any] = {
        "id": rec.id,
        "number": rec.number,
        "title": rec.title,
        "status": rec.status,
        "status_text": rec.status_text,
        "status_stated": rec.status_stated,
        "path": rec.path,
        "date": rec.date,
        "tags": list(rec.tags),
        "governs": list(rec.governs),
        "supersedes": list(rec.supersedes),
        "superseded_by": list(rec.superseded_by),
        "version_id": None,
        "stale": None,
    }
    data.update(extra or {})
    return data


def record_detail_json(rec: Record, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `adr show --json` object: the list object plus sections, rules and links."""
    rec = redacted(rec)
    data = record_json(rec, extra)
    data["sections"] = [{"heading": s.heading, "text": s.text} for s in rec.parts]
    data["rules"] = list(extra.get("rules", rec.rules) if extra else rec.rules)
    data["links"] = [{"rel": link.rel, "id": link.target} for link in rec.links]
    data["backlinks"] = list(extra.get("backlinks", [])) if extra else []
    data["heading"] = rec.heading
    data["format"] = rec.format
    return data


def _status(rec: Record) -> Text:
    return Text(rec.status_shown, style=STATUS_STYLE.get(rec.status, ""))


def _table() -> Table:
    """A borderless table. Its folding columns get a ratio, never a min_width: when rich cannot
    meet every column's minimum it draws the table wider than the terminal, and the terminal
    cuts the last column (`adr log` lost words of commit messages at 80 columns)."""
    return Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)


def _id_column(table: Table) -> None:
    """`ADR-0007` stays on one line; an id a folder names by date (`2021-06-01-patch-release-
    process`) folds rather than take the title's room."""
    table.add_column("ID", overflow="fold", max_width=24)


def records_table(records: Sequence[Record], extras: Mapping[str, Mapping[str, Any]]) -> None:
    records = [redacted(r) for r in records]
    if not records:
        out.print("No decisions found.")
        return
    table = _table()
    # Fixed columns stay on one line; the title takes what is left.
    _id_column(table)
    table.add_column("Status", no_wrap=True, max_width=20, overflow="ellipsis")
    table.add_column("Title", overflow="fold", ratio=1)
    table.add_column("Date", no_wrap=True, width=10)
    table.add_column("Version", no_wrap=True, width=13)
    table.add_column("Stale", no_wrap=True, max_width=7, overflow="ellipsis")
    for rec in records:
        extra = extras.get(rec.path, {})
        stale = extra.get("stale")
        table.add_row(
            rec.id,
            _status(rec),
            rec.title,
            str(extra.get("first_date") or rec.date or ""),
            str(extra.get("version_id") or ""),
            _stale_cell(stale, extra.get("stale_text")),
        )
    out.print(table)


def _stale_cell(stale: bool | None, text: str | None) -> Text | str:
    if stale:
        return Text("stale", style="bold red")
    if stale is None:  # git cannot tell: say which way, never "no"
        return Text(text.split(":", 1)[0], style="yellow") if text else ""
    return "no"


def record_detail(rec: Record, extra: Mapping[str, Any]) -> None:
    from rich.markdown import Markdown

    rec = redacted(rec)
    out.print(Text(f"{rec.id}: {rec.title}", style="bold"))
    facts = [
        (
            "status",
            _status(rec)
            + Text(f"  ({rec.status_text})" if rec.status_text and rec.status_text.lower() != rec.status else ""),
        )
    ]
    facts += [
        (k, Text(str(v)))
        for k, v in (
            ("path", rec.path),
            ("date", extra.get("first_date") or rec.date),
            ("version", extra.get("version_id")),
            ("stale", extra.get("stale_text")),
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
    for back in extra.get("backlinks", []):
        facts.append((f"← {back['rel']}", Text(back["id"])))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim")
    grid.add_column()
    for key, value in facts:
        grid.add_row(key, value)
    out.print(grid)
    for rule in extra.get("rules", []):
        out.print(Text(f"rule {rule['rule_id']}  {rule['description']}", style="cyan"))
    out.print()
    # reStructuredText read as markdown loses its links and literal blocks: shown as written.
    out.print(Text(rec.body) if is_rst(rec.path) else Markdown(rec.body))


# ---------------------------------------------------------------------------- findings


def findings(items: Sequence[Any], fmt: str, *, title: str = "adr check", untouched: str | None = None) -> None:
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
            line(_workflow_command(f))
        if untouched:
            line(f"::notice title=adr check::{safe.workflow_data(untouched)}")
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


def event_json(e: Any) -> dict[str, Any]:
    return {
        "commit": e.commit,
        "date": day(e.date) or None,
        "author": e.author,
        "id": e.id,
        "title": e.title,
        "kind": e.kind,
        "detail": e.detail,
    }


def timeline(events: Sequence[Any]) -> None:
    """`adr log` without an id: decision events, newest first."""
    if not events:
        out.print("No decision events in this history.")
        return
    table = _table()
    table.add_column("Date", no_wrap=True, width=10)
    table.add_column("Commit", no_wrap=True, width=7)
    table.add_column("Author", no_wrap=True, max_width=12, overflow="ellipsis")
    _id_column(table)
    table.add_column("Event", no_wrap=True)
    table.add_column("Title / detail", overflow="fold", ratio=1)
    for e in events:
        text = scrub(e.title) + (f" ({scrub(e.detail)})" if e.detail else "")
        table.add_row(day(e.date), e.commit[:7], e.author.split(" <")[0], e.id, e.kind, text)
    out.print(table)


def log_json(rec: Record, versions: Sequence[Any]) -> dict[str, Any]:
    return {
        "id": rec.id,
        "versions": [
            {
                "version_id": v.version_id,
                "digest": v.digest,
                "commit": v.commit,
                "author": v.author,
                "date": day(v.date) or None,
                "message": v.message,
                "status": v.status,
                "draft": v.draft,
                "path": v.path,
                "transitions": [
                    {
                        "commit": t.commit,
                        "date": day(t.date) or None,
                        "from": t.before,
                        "to": t.after,
                        "author": t.author or None,
                        "reason": t.reason or None,
                    }
                    for t in v.transitions
                ],
            }
            for v in versions
        ],
    }


def log_table(rec: Record, versions: Sequence[Any]) -> None:
    rec = redacted(rec)
    out.print(Text(f"{rec.id}: {rec.title}", style="bold"))
    table = _table()
    # The message gets the room: readable at 80 columns (short commit, author cut short).
    table.add_column("Version", no_wrap=True, width=13)
    table.add_column("Commit", no_wrap=True, width=7)
    table.add_column("Date", no_wrap=True, width=10)
    table.add_column("Author", no_wrap=True, max_width=12, overflow="ellipsis")
    table.add_column("Status", overflow="fold", max_width=22)
    table.add_column("Message", overflow="fold", ratio=1)
    for v in versions:  # newest first; a version's status changes follow it, newest first too
        for t in reversed(v.transitions):
            status = Text(f"{t.before} → ") + Text(t.after, style=STATUS_STYLE.get(t.after, ""))
            table.add_row(
                "  ↳", (t.commit or "draft")[:7], day(t.date), t.author.split(" <")[0], status, scrub(t.reason)
            )
        table.add_row(
            v.version_id + ("*" if v.draft else ""),
            (v.commit or "draft")[:7],
            day(v.date),
            (v.author or "").split(" <")[0],
            Text(v.status, style=STATUS_STYLE.get(v.status, "")),
            scrub(v.message or ""),
        )
    out.print(table)


_STATE_STYLE = {
    "stale": "bold red",
    "at-risk": "red",
    "scope-missing": "yellow",
    "disputed": "bold yellow",
    "unknown": "yellow",
    "fresh": "green",
    "not-accepted": "dim",
}


def stale_table(verdicts: Sequence[Any], *, show_all: bool = False) -> None:
    shown = [v for v in verdicts if show_all or v.state not in ("fresh", "not-accepted")]
    if not shown:
        fresh = sum(v.state == "fresh" for v in verdicts)
        out.print(f"Nothing stale: {fresh} accepted decision(s) still match their code.")
        return
    table = _table()
    _id_column(table)
    table.add_column("State", no_wrap=True)
    for name in ("Title", "Changed"):
        table.add_column(name, overflow="fold", ratio=1)
    table.add_column("Commits", no_wrap=True, justify="right")
    table.add_column("Days", no_wrap=True, justify="right")
    table.add_column("Reason", overflow="fold", ratio=2)
    for v in shown:
        changed = ", ".join(v.changed[:3]) + (f" (+{len(v.changed) - 3})" if len(v.changed) > 3 else "")
        table.add_row(
            v.id,
            Text(v.state, style=_STATE_STYLE.get(v.state, "")),
            scrub(v.title),
            changed,
            "" if v.commits_since is None else str(v.commits_since),
            "" if v.days_since_anchor is None else str(v.days_since_anchor),
            scrub(v.reason),
        )
    out.print(table)


def why(answer: Mapping[str, Any]) -> None:
    for item in answer["paths"]:
        out.print(Text(item["path"], style="bold"))
        if item.get("outside"):
            out.print("  outside the repository: no decision governs it")
        elif not item["decisions"]:
            out.print("  no decision governs this path")
        for rule in item.get("rules", []):
            out.print(Text(f"  rule {rule['rule_id']}: {rule['description']}", style="cyan"))
        for d in item["decisions"]:
            state = Text(d["state"], style=_STATE_STYLE.get(d["state"], ""))
            out.print(
                Text(f"  {d['id']} ", style="bold")
                + Text(scrub(d["title"]))
                + Text("  [")
                + Text(d["status"], style=STATUS_STYLE.get(d["status"], ""))
                + Text(", ")
                + state
                + Text("]")
            )
            if d["excerpt"]:
                out.print(Text("    " + d["excerpt"], style="dim"))
        for conflict in item.get("conflicts", []):
            out.print(Text(f"  conflict: {conflict['message']}", style="bold red"))


# ---------------------------------------------------------------------------- search


class progress:
    """A rich progress bar on stderr for long work; silent when nothing long happens."""

    def __init__(self, label: str) -> None:
        self.label = label
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Any:
        return self.tick

    def tick(self, done: int, total: int | None) -> None:
        """Advance the bar (total None: unknown). Reaching the total stops it, so what the
        command prints next is not mixed with a live display."""
        if self._bar is None:
            if (total is not None and done >= total) or not err.is_terminal:
                return  # nothing left to show, or nobody watching (CI logs stay clean)
            from rich.progress import Progress

            self._bar = Progress(console=err, transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        self._bar.update(self._task, completed=done, total=total)
        if total is not None and done >= total:
            self._stop()

    def _stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __exit__(self, *exc: object) -> None:
        self._stop()


def search_answer(answer: Mapping[str, Any]) -> None:
    if answer["no_strong_match"]:
        why = f" {answer['reason'][0].upper()}{answer['reason'][1:]}." if answer.get("reason") else ""
        out.print(Text("No strong match." + why, style="bold yellow"))
        if answer["best_weak"]:
            out.print("Nearest, for what it is worth:")
        rows = answer["best_weak"]
    else:
        rows = answer["results"]
    for row in rows:
        stale = Text("  stale", style="bold red") if row.get("stale") else Text("")
        later = row.get("superseded_by") or []
        status = row["status"] + (f" by {', '.join(later)}" if later else "")
        out.print(
            Text(f"{row['id']} ", style="bold")
            + Text(row["title"])
            + Text("  [")
            + Text(status, style=STATUS_STYLE.get(row["status"], ""))
            + Text(f"] {row['score']:.2f} {'+'.join(row['provenance'])}", style="dim")
            + stale
        )
        out.print(Text(f"    {row['section']}: {row['snippet']}", style="dim"))
    signals = answer["signals"]
    out.print(
        Text(
            f"mode {answer['mode']} · coverage {signals['coverage']} · top cosine {signals['top_cosine']}", style="dim"
        )
    )


def eval_report(report: Mapping[str, Any]) -> None:
    limit = report["limit"]
    for entry in report["sets"]:
        for mode, result in entry["modes"].items():
            if not result.get("ran"):
                out.print(Text(f"{entry['name']} · {mode}: not run ({result.get('reason')})", style="yellow"))
                continue
            table = Table(title=f"{entry['name']} · {mode} (k={limit})", box=box.SIMPLE_HEAD)
            for name in ("kind", "n", "recall@k", "MRR"):
                table.add_column(name)
            for kind, stats in result["kinds"].items():
                table.add_row(kind, str(stats["n"]), str(stats[f"recall@{limit}"]), str(stats["mrr"]))
            out.print(table)
            out.print(
                f"titles ranked first {result['titles_first']} · absent refused "
                f"{result['absent_refused']} · answerable wrongly refused {result['answerable_refused']}"
            )
            for miss in result["misses"]:
                out.print(Text(f"  miss [{miss['kind']}] {miss['q']} -> {miss.get('got')}", style="dim"))
    if report.get("leave_one_out"):
        _leave_one_out_table(report["leave_one_out"], limit)


def _leave_one_out_table(lofo: Mapping[str, Any], limit: int) -> None:
    """What a folder the constants were never fitted on sees: fit on the others, score it."""
    table = Table(title=f"leave one folder out (k={limit})", box=box.SIMPLE_HEAD)
    for name in (
        "mode",
        "left out",
        "keyword\nrecall",
        "para-\nphrase\nrecall",
        "para-\nphrase\nMRR",
        "titles\nfirst",
        "absent\nrefused",
        "wrongly\nrefused",
    ):
        table.add_column(name)
    for mode, per_set in lofo.items():
        for name, result in per_set.items():
            kinds = result["kinds"]
            table.add_row(
                mode,
                name,
                *(
                    str(kinds.get(kind, {}).get(key, "-"))
                    for kind, key in (
                        ("keyword", f"recall@{limit}"),
                        ("paraphrase", f"recall@{limit}"),
                        ("paraphrase", "mrr"),
                    )
                ),
                result["titles_first"],
                result["absent_refused"],
                str(result["answerable_refused"]),
            )
    out.print(table)


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
