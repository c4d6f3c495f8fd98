"""The commands that read and edit records: init, new, list, show, log, diff, the status
changes, supersede, link, migrate, generate, export."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from adr_memory.base import safe
from adr_memory.errors import UsageError
from adr_memory.surfaces import formats, render, render_history
from adr_memory.surfaces.app import (
    AtOption,
    DirOption,
    HistoryFlag,
    JsonFlag,
    ReasonOption,
    _show,
    _shown,
    _statuses,
    command,
    complete_ids,
    generate_app,
    workspace,
)

# ---------------------------------------------------------------------------- setup


@command()
def init(
    adr_dir: DirOption = None,
    template: Annotated[str | None, typer.Option(help="madr or nygard.")] = None,
) -> None:
    """Create the ADR folder, a first record, a config file; ignore the cache in git."""
    from adr_memory.commands import init as init_cmd

    result = init_cmd.run(workspace(adr_dir, need_folder=False, pins=True), template)
    render.line(f"ADR folder: {result.adr_dir}")
    if result.first_record:
        render.line(f"created {_shown(result.first_record)}")
    if result.config_file:
        verb = "updated" if result.config_updated else "created"
        render.line(f"{verb} {result.config_file.name} (adr-dir = {result.adr_dir})")
    if result.gitignore_updated:
        render.line("added the cache folder to .gitignore")


@command()
def new(
    title: Annotated[list[str], typer.Argument(help="Title of the decision.")],
    supersede: Annotated[list[str], typer.Option("-s", "--supersede", help="ID this supersedes.")] = [],
    link: Annotated[list[str], typer.Option("-l", "--link", help='"ID:Link:Reverse link".')] = [],
    governs: Annotated[list[str], typer.Option("--governs", help="Glob of code it governs.")] = [],
    tag: Annotated[list[str], typer.Option("--tag", help="A tag.")] = [],
    rule: Annotated[
        list[str], typer.Option("--rule", help='A check it enforces once accepted, e.g. "forbid: import requests".')
    ] = [],
    status: Annotated[str, typer.Option(help="Initial status.")] = "proposed",
    template: Annotated[str | None, typer.Option(help="madr or nygard.")] = None,
    key: Annotated[
        str | None,
        typer.Option("--key", help="The question it answers, e.g. project.primary_database (refused when held)."),
    ] = None,
    cardinality: Annotated[str, typer.Option(help="single or multi (with --key).")] = "single",
    value: Annotated[str, typer.Option(help="Its answer in a few words (with --key).")] = "",
    context: Annotated[str, typer.Option(help="Why a decision is needed.")] = "",
    option: Annotated[list[str], typer.Option("--option", help="An option considered (repeat).")] = [],
    decision: Annotated[str, typer.Option(help="What was decided, and why.")] = "",
    consequences: Annotated[str, typer.Option(help="What becomes easier or harder.")] = "",
    body_file: Annotated[
        str | None, typer.Option("--body-file", metavar="FILE|-", help="The whole body after the title.")
    ] = None,
    adr_dir: DirOption = None,
) -> None:
    """Write a new decision record and print its path (adr-tools compatible flags); with
    --context/--option/--decision/--consequences or --body-file, a complete one; --rule
    (repeat) takes a rule as the frontmatter writes it, in YAML."""
    from adr_memory.commands import new as command

    ws = workspace(adr_dir, need_folder=False)
    body = _read_body(body_file) if body_file is not None else None
    made = command.run(
        ws,
        " ".join(title),
        governs=governs,
        tags=tag,
        supersedes=supersede,
        links=link,
        rules=[_rule(text) for text in rule],
        context=context,
        options=option,
        decision=decision,
        consequences=consequences,
        key=key or "",
        value=value,
        cardinality=cardinality,
        written=command.Written(status, template, body),
    )
    render.line(_shown(ws.root / made["created"]))


def _rule(text: str) -> dict[str, Any]:
    from adr_memory.commands import new as new_cmd

    return new_cmd.rule_from_text(text)


def _day(text: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise UsageError(f"cannot read the date {text!r}", hint="write it as YYYY-MM-DD") from None


_MAX_BODY = 1_000_000  # a record is refused past it anyway (catalog.MAX_BYTES)


def _read_body(source: str) -> str:
    try:
        if source == "-":
            data = sys.stdin.buffer.read(_MAX_BODY + 1)
        else:  # a pipe (`<(cmd)`) is fine; /dev/zero must not fill the memory
            with open(source, "rb") as handle:
                data = handle.read(_MAX_BODY + 1)
        if len(data) > _MAX_BODY:
            raise UsageError(
                f"{source} is over {_MAX_BODY:,} bytes, more than a record may hold",
                hint="write the long parts elsewhere and link them",
            )
        return data.decode("utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror}", hint="name a readable file, or - for stdin") from None
    except UnicodeDecodeError:
        raise UsageError(f"{source} is not UTF-8 text", hint="re-save it as UTF-8") from None


# ---------------------------------------------------------------------------- reading


@command(name="list")
def list_(
    status: Annotated[list[str], typer.Option("--status", help="Only these statuses.")] = [],
    tag: Annotated[list[str], typer.Option("--tag", help="Only records with this tag.")] = [],
    at: AtOption = None,
    as_json: JsonFlag = False,
    paths: Annotated[bool, typer.Option("--paths", help="One path per line, as adr-tools lists.")] = False,
    zero: Annotated[bool, typer.Option("-z", help="With --paths: end each path with NUL, unquoted.")] = False,
    read_history: HistoryFlag = False,
    sources: Annotated[bool, typer.Option("--sources", help="With every source's decisions.")] = False,
    source: Annotated[str, typer.Option("--source", metavar="NAME", help="Only this source's decisions.")] = "",
    adr_dir: DirOption = None,
) -> None:
    """List the decisions."""
    from adr_memory.commands import listing as listing_cmd

    ws = workspace(adr_dir)
    listed = listing_cmd.run(ws, _statuses(status), tag, at, source or ("all" if sources else ""))
    if paths or zero:  # for scripts written against adr-tools: `adr list --paths | xargs ...`
        render.paths([rec.path for rec in listed.records], zero=zero)
        return
    if at is not None and listed.records and not as_json:  # the empty columns are on purpose: say so
        render.err.print(
            "note: with --at, the records are shown as they were, without versions or staleness (those describe HEAD)"
        )
    if as_json:
        render.emit_json(listed.to_json())
    else:
        render.records_table(listed.records, listed.extras)


@command()
def show(
    ident: Annotated[
        str, typer.Argument(metavar="ID", autocompletion=complete_ids, help="7, 0007, ADR-7 or ADR-0007.")
    ],
    version: Annotated[
        str | None, typer.Option("--version", metavar="vN|ID|COMMIT", help="Show an earlier version.")
    ] = None,
    at: AtOption = None,
    as_json: JsonFlag = False,
    read_history: HistoryFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Show one decision (its current version, or --version / --at an earlier one)."""
    from adr_memory.commands import show as show_cmd

    shown = show_cmd.run(workspace(adr_dir), ident, version, at)
    _show(shown, as_json, lambda s: render.record_detail(s.record, s.extra), lambda s: s.to_json())


@command()
def log(
    ident: Annotated[str | None, typer.Argument(metavar="ID", autocompletion=complete_ids)] = None,
    since: Annotated[
        str | None, typer.Option("--since", metavar="YYYY-MM-DD", help="Without ID: events on or after this day.")
    ] = None,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """The versions of a decision, newest first, with status transitions, who made them and
    why; without ID, a timeline of every decision event in the repository."""
    from adr_memory.commands import log as log_cmd

    first_day = _day(since) if since else None  # a bad date fails before any work
    ws = workspace(adr_dir)
    if ident is None:
        timeline = log_cmd.timeline(ws, first_day)
        _show(timeline, as_json, lambda t: render_history.timeline(t.events), lambda t: t.to_json())
        return
    logged = log_cmd.run(ws, ident)
    if logged.outside:  # no commit here holds it: the one version is no draft, and its history is elsewhere
        render.warn(
            f"{logged.record.id} is inside submodule {logged.outside}: its versions are that repository's "
            f"(run `adr log` in {logged.outside})"
        )
    _show(logged, as_json, lambda lg: render_history.log_table(lg.record, lg.versions), lambda lg: lg.to_json())


@command()
def diff(
    ident: Annotated[str, typer.Argument(metavar="ID", autocompletion=complete_ids)],
    old: Annotated[str | None, typer.Argument(metavar="FROM")] = None,
    new: Annotated[str | None, typer.Argument(metavar="TO")] = None,
    adr_dir: DirOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Field changes and a unified diff of the body between two versions (default: the
    previous version and the current one)."""
    from adr_memory.commands import views

    text = views.diff_text(workspace(adr_dir), ident, old, new)
    _show({"id": ident, "from": old, "to": new, "diff": text}, as_json, lambda d: render.line(d["diff"]))


def _status_command(status: str, verb: str) -> None:
    def change(
        ident: Annotated[str, typer.Argument(metavar="ID", autocompletion=complete_ids)],
        reason: ReasonOption = None,
        by: Annotated[
            list[str] | None,
            typer.Option(
                "--by",
                metavar="NAME",
                help="Who made the decision (repeat for each): added to the record's decision-makers.",
            ),
        ] = None,
        adr_dir: DirOption = None,
        as_json: JsonFlag = False,
    ) -> None:
        from adr_memory.commands import lifecycle as lifecycle_cmd

        done = lifecycle_cmd.set_status(workspace(adr_dir), ident, status, reason or "", by)
        if as_json:
            render.emit_json(done)
            return
        render.line(f"{done['id']} is {'now' if done['changed'] else 'already'} {done['status']}: {done['path']}")
        if by:
            render.line(f"decision-makers: {', '.join(done['decision_makers'])}")
        for said in done["warnings"]:
            render.warn(f"{done['id']}: {said}")
        if done["superseded"]:
            render.line(f"{', '.join(done['superseded'])} superseded by {done['id']}")

    change.__doc__ = f"Mark a decision {status} (only its status changes)."
    command(name=verb)(change)


_status_command("accepted", "accept")
_status_command("rejected", "reject")
_status_command("deprecated", "deprecate")


@command()
def supersede(
    old: Annotated[str, typer.Argument(metavar="OLD", autocompletion=complete_ids)],
    by: Annotated[str, typer.Option("--by", metavar="NEW", help="The superseding decision.")],
    reason: ReasonOption = None,
    adr_dir: DirOption = None,
) -> None:
    """Record that NEW supersedes OLD: on both records once NEW is accepted (until then OLD
    stays in force, and accepting NEW completes it)."""
    from adr_memory.commands import lifecycle as lifecycle_cmd

    done = lifecycle_cmd.supersede(workspace(adr_dir), old, by, reason or "")
    if done["completed"]:
        render.line(f"{done['by']} supersedes {done['superseded']}")
    else:
        render.line(
            f"{done['by']} proposes to supersede {done['superseded']}: {done['superseded']} stays in force "
            f"until {done['by']} is accepted (adr accept {done['by']})"
        )


@command()
def link(
    source: Annotated[str, typer.Argument(metavar="SRC", autocompletion=complete_ids)],
    rel: Annotated[str, typer.Argument(metavar="LINK", help='e.g. "Amends".')],
    target: Annotated[str, typer.Argument(metavar="TGT", autocompletion=complete_ids)],
    reverse: Annotated[str | None, typer.Argument(metavar="REVERSE", help='e.g. "Amended by".')] = None,
    adr_dir: DirOption = None,
) -> None:
    """Link two decisions (adr-tools `adr link`)."""
    from adr_memory.commands import lifecycle as lifecycle_cmd

    done = lifecycle_cmd.link(workspace(adr_dir), source, rel, target, reverse or "")
    back = f" ({done['target']} {done['reverse']} {done['source']})" if done["reverse"] else ""
    render.line(f"{done['source']} {done['rel']} {done['target']}{back}")


@command()
def migrate(
    idents: Annotated[
        list[str] | None, typer.Argument(metavar="ID", autocompletion=complete_ids, help="The records to migrate.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every record in the folder.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the changes; write nothing.")] = False,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Move what records state in their body (Status section, Date: line) into frontmatter;
    only those lines change, and no record gets a new version."""
    from adr_memory.commands import migrate as migrate_cmd

    done = migrate_cmd.run(workspace(adr_dir), idents, every, dry_run)
    _show(done, as_json, lambda d: render.migration(d.outcomes, dry_run=d.dry_run), lambda d: d.to_json())
    raise typer.Exit(1 if done.refused else 0)


# ---------------------------------------------------------------------------- generate


@command(generate_app, name="toc")
def generate_toc(at: AtOption = None, adr_dir: DirOption = None, as_json: JsonFlag = False) -> None:
    """A markdown index of the decisions, with their status."""
    from adr_memory.commands import generate as drawing
    from adr_memory.surfaces import generate

    drawn = drawing.run(workspace(adr_dir), at)
    _show(drawn, as_json, lambda d: render.line(generate.toc(d)), lambda d: d.nodes())


@command(generate_app, name="graph")
def generate_graph(
    fmt: Annotated[str, typer.Option("--format", help=f"{formats.listed(formats.GRAPH)}.")] = "mermaid",
    adr_dir: DirOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The decisions and their links as a graph."""
    from adr_memory.commands import generate as drawing
    from adr_memory.surfaces import generate

    chosen = formats.chosen(fmt, formats.GRAPH)
    drawn = drawing.run(workspace(adr_dir))
    _show(drawn, as_json, lambda d: render.line(generate.graph(d, chosen)), lambda d: d.to_json())


# ---------------------------------------------------------------------------- for tools


@command()
def export(
    fmt: Annotated[str, typer.Option("--format", help="json, jsonl or md (markdown).")] = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE.")] = None,
    adr_dir: DirOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
) -> None:
    """Every record as data (one JSON array, JSON lines) or one markdown document."""
    from adr_memory.commands import export as export_cmd

    chosen = formats.chosen("json" if as_json else fmt, formats.EXPORT)
    text = export_cmd.render(export_cmd.documents(workspace(adr_dir)), chosen)
    if output is None:  # data for a pipe or a file, byte for byte; a terminal gets no escape sequences
        sys.stdout.write(safe.terminal(text) if sys.stdout.isatty() else text)
    else:
        export_cmd.write(output, text)
        render.line(f"wrote {output}")


# ---------------------------------------------------------------------------- site


@command()
def site(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", metavar="DIR", help="Where to write it (default: .adr-cache/site).")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", metavar="URL", help="Where it will be published (canonical links).")
    ] = None,
    title: Annotated[str | None, typer.Option("--title", metavar="TEXT", help="The site's name.")] = None,
    serve: Annotated[bool, typer.Option("--serve", help="Then serve it on localhost until Ctrl-C.")] = False,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="With --serve: the port (0 picks a free one).")
    ] = 8000,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """The decisions as a static website: a page per decision with its versions, status
    history, relations and governed code; a timeline, a graph, search in the page."""
    from adr_memory.surfaces.site import build

    built = build.build(workspace(adr_dir), out, base_url=base_url, title=title)
    if as_json:
        render.emit_json(built.to_json())
    else:
        render.line(
            f"wrote {render.counted(built.decisions, 'decision')}, {render.counted(len(built.files), 'file')} to {_shown(built.out)}"
        )
        render.line(f"open {_shown(built.out / 'index.html')}")
    if serve:
        from adr_memory.surfaces.site import serve as serving

        try:
            serving.serve(built.out, port, lambda url: render.line(f"serving {url} (Ctrl-C stops)"))
        except OSError as exc:
            raise UsageError(
                f"cannot serve on port {port}: {exc.strerror}", hint="choose another with --port"
            ) from None
