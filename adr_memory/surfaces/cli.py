"""The `adr` command line: parse, call one feature, render. No logic lives here.

Heavy modules (search index, embeddings, git history) are imported inside the commands that
need them, so `adr --help` and `adr check` start fast.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import typer

from adr_memory import __version__
from adr_memory.base import safe
from adr_memory.errors import AdrError, UsageError
from adr_memory.history.workspace import Workspace
from adr_memory.surfaces import boundary, render

app = typer.Typer(
    name="adr",
    help="A git-native memory of architecture decisions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
generate_app = typer.Typer(help="Derived views: a table of contents, a graph.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")
hooks_app = typer.Typer(help="Plain git hooks: install or uninstall.", no_args_is_help=True)
app.add_typer(hooks_app, name="hooks")

F = TypeVar("F", bound=Callable[..., Any])

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON (shape in README).")]
DirOption = Annotated[str | None, typer.Option("--dir", help="ADR folder (overrides config).")]


def command(target: typer.Typer = app, name: str | None = None) -> Callable[[F], F]:
    """Register a command; the one place AdrError becomes `error:`/`hint:` and an exit code."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            failed = False
            try:
                return fn(*args, **kwargs)
            except (typer.Exit, typer.Abort):
                raise
            except AdrError as exc:
                failed = True
                boundary.report(exc)
                raise typer.Exit(exc.exit_code) from None
            except KeyboardInterrupt:
                raise typer.Exit(boundary.INTERRUPTED) from None
            except BrokenPipeError:
                raise typer.Exit(0) from None
            finally:
                _say_if_incomplete(failed=failed)

        target.command(name=name)(run)
        return fn

    return wrap


def _show(data: Any, as_json: bool, human: Callable[[Any], None], machine: Callable[[Any], Any] = lambda d: d) -> None:
    """One shape for every data command: JSON for machines, rich output for people."""
    if as_json:
        render.emit_json(machine(data))
    else:
        human(data)


def _csv(values: Sequence[str]) -> list[str]:
    """Repeated and comma-separated option values: `--status a,b --status c`."""
    return [v.strip().lower() for item in values for v in item.split(",") if v.strip()]


_opened: list[Workspace] = []


def _choice(values: Sequence[str], allowed: Sequence[str], what: str) -> list[str]:
    """Comma-separated values of an enumerated option, each checked: a typo in a workflow
    (`--fail-on stael`) must stop the run, not pass it."""
    chosen = _csv(values)
    for value in chosen:
        if value not in allowed:
            raise UsageError(f"unknown {what} {value!r}", hint="choose from: " + ", ".join(allowed))
    return chosen


def _statuses(values: Sequence[str]) -> list[str]:
    from adr_memory.records.record import STATUSES

    return _choice(values, (*STATUSES, "all"), "status")


def workspace(adr_dir: str | None = None, *, need_folder: bool = True) -> Workspace:
    """The workspace of the current directory. Every command that reads records refuses the
    same way when there is no ADR folder; `init` and `new` create one."""
    ws = Workspace.discover(adr_dir=adr_dir)
    if need_folder and not ws.adr_path.is_dir():
        if ws.adr_dir_source in ("configured", "found", "discovered", "default"):
            raise UsageError(
                f"no ADR folder: {ws.adr_dir} does not exist and no folder of ADRs was found",
                hint="run `adr init`, or name the folder: echo path/to/adrs > .adr-dir",
            )
        raise UsageError(
            f"no ADR folder: {ws.adr_dir}, named in {ws.adr_dir_source}, does not exist",
            hint=f"run `adr init` to create it, or correct {ws.adr_dir_source}",
        )
    if ws.adr_dir_source == "discovered":
        where = "the repository's root" if ws.adr_dir == "." else ws.adr_dir
        render.warn(f"using {where}, the folder whose files look like ADRs; pin it with: echo {ws.adr_dir} > .adr-dir")
    # A cold history walk on a large repository takes seconds: show it (stderr, transient).
    ws.progress = _history_bar.tick
    _opened.append(ws)
    return ws


def _say_if_incomplete(failed: bool) -> None:
    """Once per command that read git: say what git could not give it, and how to fix that."""
    opened = list(_opened)
    _opened.clear()
    if not opened:
        return
    from adr_memory.surfaces import facts

    note = next((n for ws in opened if (n := facts.incomplete(ws, after_error=failed))), None)
    if note:
        render.warn(note)


_history_bar = render.progress("Reading git history (commits)")


def _version(value: bool) -> None:
    if value:
        render.line(f"adr-memory {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """A git-native memory of architecture decisions.

    Decisions are markdown files under docs/adr, committed like code; versions, staleness and
    the search index are derived from git.
    """


# ---------------------------------------------------------------------------- setup


@command()
def init(
    adr_dir: DirOption = None,
    template: Annotated[str | None, typer.Option(help="madr or nygard.")] = None,
) -> None:
    """Create the ADR folder, a first record, a config file; ignore the cache in git."""
    from adr_memory.policy.init import init as run_init

    if template not in (None, "madr", "nygard"):
        raise UsageError(f"unknown template {template!r}", hint="use --template madr or nygard")
    result = run_init(workspace(adr_dir, need_folder=False), template=template)
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
    --context/--option/--decision/--consequences or --body-file, a complete one."""
    from adr_memory.policy import lifecycle
    from adr_memory.records import content

    ws = workspace(adr_dir, need_folder=False)
    body = _read_body(body_file) if body_file is not None else None
    path = lifecycle.create(
        ws,
        " ".join(title),
        supersedes=supersede,
        links=[lifecycle.LinkSpec.parse(x) for x in link],
        governs=governs,
        tags=tag,
        status=status,
        template=template,
        key=lifecycle.Key(key, cardinality, value) if key else None,
        reasons=content.Reasons(context, tuple(option), decision, consequences),
        body=body,
    )
    render.line(_shown(path))


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


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path, Path.cwd())
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------------- reading


@command(name="list")
def list_(
    status: Annotated[list[str], typer.Option("--status", help="Only these statuses.")] = [],
    tag: Annotated[list[str], typer.Option("--tag", help="Only records with this tag.")] = [],
    at: AtOption = None,
    as_json: JsonFlag = False,
    paths: Annotated[bool, typer.Option("--paths", help="One path per line, as adr-tools lists.")] = False,
    zero: Annotated[bool, typer.Option("-z", help="With --paths: end each path with NUL, unquoted.")] = False,
    adr_dir: DirOption = None,
) -> None:
    """List the decisions."""
    ws = workspace(adr_dir)
    wanted = set(_statuses(status))
    records = [
        r
        for r in _catalog(ws, at)
        if (not wanted or "all" in wanted or r.status in wanted) and (not tag or set(tag) & set(r.tags))
    ]
    if paths or zero:  # for scripts written against adr-tools: `adr list --paths | xargs ...`
        render.paths([rec.path for rec in records], zero=zero)
        return
    extras = _extras(ws, records, at=at)
    if as_json:
        render.emit_json([render.record_json(r, extras.get(r.path)) for r in records])
    else:
        render.records_table(records, extras)


def _extras(ws: Workspace, records: Sequence[Any], *, at: str | None = None) -> dict[str, dict[str, Any]]:
    """Derived facts per record from git: current version id, first date, staleness."""
    from adr_memory.surfaces import views

    return views.extras(ws, records, at=at)


AtOption = Annotated[str | None, typer.Option("--at", metavar="REF", help="The catalog as it was at a commit.")]


def _catalog(ws: Workspace, at: str | None) -> Any:
    if at is None:
        return ws.catalog
    from adr_memory.history import versions

    return versions.catalog_at(ws, at)


@command()
def show(
    ident: Annotated[str, typer.Argument(metavar="ID", help="7, 0007, ADR-7 or ADR-0007.")],
    version: Annotated[
        str | None, typer.Option("--version", metavar="vN|ID|COMMIT", help="Show an earlier version.")
    ] = None,
    at: AtOption = None,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Show one decision (its current version, or --version / --at an earlier one)."""
    from adr_memory.surfaces import views

    ws = workspace(adr_dir)
    rec, extra = views.shown(ws, ident, version=version, at=at)
    _show(rec, as_json, lambda r: render.record_detail(r, extra), lambda r: render.record_detail_json(r, extra))


@command()
def log(
    ident: Annotated[str | None, typer.Argument(metavar="[ID]")] = None,
    since: Annotated[
        str | None, typer.Option("--since", metavar="YYYY-MM-DD", help="Without ID: events on or after this day.")
    ] = None,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """The versions of a decision, newest first, with status transitions, who made them and
    why; without ID, a timeline of every decision event in the repository."""
    from adr_memory.history import versions

    first_day = _day(since) if since else None  # a bad date fails before any work
    ws = workspace(adr_dir)
    if ident is None:
        events = versions.events(ws, versions.walk(ws))
        if first_day:
            events = [e for e in events if render.day(e.date) >= first_day]
        _show(events, as_json, render.timeline, lambda evs: {"events": [render.event_json(e) for e in evs]})
        return
    rec = ws.catalog.get(ident)
    listed = versions.versions(ws, rec)
    head = ws.repo.head()
    outside = (
        ws.repo.submodule_above(ws.repo.commit(head).tree, rec.path) if head and all(v.draft for v in listed) else None
    )
    if outside:  # no commit here holds it: the one version is no draft, and its history is elsewhere
        render.warn(
            f"{rec.id} is inside submodule {outside}: its versions are that repository's (run `adr log` in {outside})"
        )
    if as_json:
        render.emit_json(render.log_json(rec, listed))
    else:
        render.log_table(rec, listed)


@command()
def diff(
    ident: Annotated[str, typer.Argument(metavar="ID")],
    old: Annotated[str | None, typer.Argument(metavar="[FROM]")] = None,
    new: Annotated[str | None, typer.Argument(metavar="[TO]")] = None,
    adr_dir: DirOption = None,
) -> None:
    """Field changes and a unified diff of the body between two versions (default: the
    previous version and the current one)."""
    from adr_memory.surfaces import views

    render.line(views.diff_text(workspace(adr_dir), ident, old, new))


# ---------------------------------------------------------------------------- lifecycle


ReasonOption = Annotated[str | None, typer.Option("--reason", help="Why: kept in the record, shown by `adr log`.")]


def _status_command(status: str, verb: str) -> None:
    def change(
        ident: Annotated[str, typer.Argument(metavar="ID")],
        reason: ReasonOption = None,
        adr_dir: DirOption = None,
    ) -> None:
        from adr_memory.policy import lifecycle

        rec = lifecycle.set_status(workspace(adr_dir), ident, status, reason=reason)
        render.line(f"{rec.id} is now {rec.status}: {rec.path}")

    change.__doc__ = f"Mark a decision {status} (only its status changes)."
    command(name=verb)(change)


_status_command("accepted", "accept")
_status_command("rejected", "reject")
_status_command("deprecated", "deprecate")


@command()
def supersede(
    old: Annotated[str, typer.Argument(metavar="OLD")],
    by: Annotated[str, typer.Option("--by", metavar="NEW", help="The superseding decision.")],
    reason: ReasonOption = None,
    adr_dir: DirOption = None,
) -> None:
    """Record that NEW supersedes OLD, on both records."""
    from adr_memory.policy import lifecycle

    old_rec, new_rec = lifecycle.supersede(workspace(adr_dir), old, by, reason=reason)
    render.line(f"{new_rec.id} supersedes {old_rec.id}")


@command()
def link(
    source: Annotated[str, typer.Argument(metavar="SRC")],
    rel: Annotated[str, typer.Argument(metavar="LINK", help='e.g. "Amends".')],
    target: Annotated[str, typer.Argument(metavar="TGT")],
    reverse: Annotated[str | None, typer.Argument(metavar="[REVERSE]", help='e.g. "Amended by".')] = None,
    adr_dir: DirOption = None,
) -> None:
    """Link two decisions (adr-tools `adr link`)."""
    from adr_memory.policy import lifecycle

    lifecycle.link(workspace(adr_dir), source, rel, target, reverse)
    render.line(f"{source} {rel} {target}")


@command()
def migrate(
    idents: Annotated[list[str] | None, typer.Argument(metavar="[ID]...", help="The records to migrate.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every record in the folder.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the changes; write nothing.")] = False,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Move what records state in their body (Status section, Date: line) into frontmatter;
    only those lines change, and no record gets a new version."""
    from adr_memory.policy import migrate as migration

    if not idents and not every:
        raise UsageError("name the records to migrate, or --all", hint="adr migrate 3 7, or adr migrate --all")
    outcomes = migration.migrate(workspace(adr_dir), [] if every else list(idents or []), dry_run=dry_run)
    if as_json:
        render.emit_json(migration.as_json(outcomes, dry_run=dry_run))
    else:
        render.migration(outcomes, dry_run=dry_run)
    raise typer.Exit(1 if any(o.refused for o in outcomes) else 0)


# ---------------------------------------------------------------------------- generate


@command(generate_app, name="toc")
def generate_toc(at: AtOption = None, adr_dir: DirOption = None) -> None:
    """A markdown index of the decisions, with their status."""
    from adr_memory.surfaces import generate

    render.line(generate.toc(_catalog(workspace(adr_dir), at)))


@command(generate_app, name="graph")
def generate_graph(
    fmt: Annotated[str, typer.Option("--format", help="mermaid or dot.")] = "mermaid",
    adr_dir: DirOption = None,
) -> None:
    """The decisions and their links as a graph."""
    from adr_memory.surfaces import generate

    if fmt not in ("mermaid", "dot"):
        raise UsageError(f"unknown graph format {fmt!r}", hint="use --format mermaid or dot")
    render.line(generate.graph(workspace(adr_dir).catalog, fmt))


# ---------------------------------------------------------------------------- staleness


@command()
def stale(
    fail: Annotated[
        bool, typer.Option("--fail", help="Exit 1 when anything is stale, at risk or unknown (shallow clone).")
    ] = False,
    allow_unknown: Annotated[
        bool, typer.Option("--allow-unknown", help="With --fail: pass what git cannot judge.")
    ] = False,
    worktree: Annotated[bool, typer.Option("--worktree", help="Count uncommitted changes.")] = False,
    show_all: Annotated[bool, typer.Option("--all", help="Also list fresh decisions.")] = False,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Decisions whose governed code changed since they were last affirmed."""
    from adr_memory.history import staleness

    verdicts = staleness.report(workspace(adr_dir), worktree=worktree)
    if as_json:
        render.emit_json({"decisions": [v.to_json() for v in verdicts]})
    else:
        render.stale_table(verdicts, show_all=show_all)
    raise typer.Exit(1 if fail and staleness.fails(verdicts, allow_unknown=allow_unknown) else 0)


@command()
def affirm(
    ident: Annotated[str, typer.Argument(metavar="ID")],
    note: Annotated[str | None, typer.Option("--note", help="Why it still holds.")] = None,
    adr_dir: DirOption = None,
) -> None:
    """Record that a decision still holds; once committed, this commit is its new anchor."""
    from adr_memory.policy import lifecycle

    rec = lifecycle.affirm(workspace(adr_dir), ident, note=note)
    render.line(f"{rec.id} affirmed in {rec.path}; commit it to move the anchor")


@command(name="feedback")
def feedback_(
    ident: Annotated[str, typer.Argument(metavar="ID")],
    used: Annotated[bool, typer.Option("--used", help="It helped.")] = False,
    not_applicable: Annotated[bool, typer.Option("--not-applicable", help="It did not apply.")] = False,
    wrong: Annotated[bool, typer.Option("--wrong", help="It misled: mark it disputed.")] = False,
    note: Annotated[str, typer.Option("--note", help="What happened.")] = "",
    adr_dir: DirOption = None,
) -> None:
    """Say how a decision served you; kept in the local cache, never committed. A `--wrong`
    since its last review shows the decision as disputed in `adr stale` and `adr review`."""
    from adr_memory.history import feedback

    chosen = [v for v, on in (("used", used), ("not_applicable", not_applicable), ("wrong", wrong)) if on]
    if len(chosen) != 1:
        raise UsageError("say one of --used, --not-applicable or --wrong", hint="adr feedback 7 --wrong --note '...'")
    ws = workspace(adr_dir)
    rec = ws.catalog.get(ident)
    feedback.record(ws.cache_path, rec.id, chosen[0], note, head=ws.repo.head())
    render.line(f"{rec.id}: {chosen[0]} noted (local cache)")


@command()
def why(
    paths: Annotated[list[str], typer.Argument(help="Files you are about to change.")],
    adr_dir: DirOption = None,
) -> None:
    """The decisions that govern these files, with their status and staleness."""
    from adr_memory.surfaces import views

    render.why(views.guard(workspace(adr_dir), paths))


@command()
def guard(
    paths: Annotated[list[str], typer.Argument(help="Files about to be edited.")],
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """For tools: the decisions governing these paths (JSON with --json)."""
    from adr_memory.surfaces import views

    _show(views.guard(workspace(adr_dir), paths), as_json, render.why)


# ---------------------------------------------------------------------------- search


@command(name="index")
def index_(
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Build from scratch.")] = False,
    adr_dir: DirOption = None,
) -> None:
    """Build or refresh the search index (BM25 + vectors) in the cache."""
    from adr_memory.search import search as search_mod

    with render.progress("Embedding sections") as tick:
        ctx = search_mod.prepare(workspace(adr_dir), rebuild=rebuild, progress=tick)
    header = ctx.index.meta.get("vectors") or {}
    render.line(
        f"index: {len(ctx.records)} records, {ctx.index.doc_count} sections, "
        f"{header.get('rows', 0)} vectors ({header.get('embedded', 0)} embedded, "
        f"{header.get('reused', 0)} reused)"
    )
    for said in (ctx.fallback, ctx.note):
        if said:
            render.warn(said)


@command()
def search(
    query: Annotated[list[str], typer.Argument(help="Your question, in your own words.")],
    mode: Annotated[str, typer.Option(help="keyword, semantic or hybrid.")] = "hybrid",
    status: Annotated[list[str], typer.Option("--status", help="Statuses to include, or all.")] = [],
    limit: Annotated[int, typer.Option(min=1, max=100, help="At most this many results.")] = 5,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Find decisions by words and meaning; says so when nothing matches well."""
    from adr_memory.search import search as search_mod

    statuses = _statuses(status) or list(search_mod.DEFAULT_STATUSES)
    with render.progress("Embedding sections") as tick:
        answer = search_mod.search(
            workspace(adr_dir), " ".join(query), mode=mode, statuses=statuses, limit=limit, progress=tick
        )
    for said in (answer["fallback"], answer["index"].get("note")):
        if said:
            render.warn(said)
    _show(answer, as_json, render.search_answer)


@command(name="eval")
def eval_(
    queries: Annotated[list[Path], typer.Option("--queries", help="A question set (JSON); repeat for several.")],
    folder: Annotated[
        list[Path],
        typer.Option(
            "--folder", help="The ADR folder each --queries asks about, in order (default: this repository's)."
        ),
    ] = [],
    mode: Annotated[str, typer.Option(help="all, or keyword, semantic, hybrid (comma-separated).")] = "all",
    limit: Annotated[int, typer.Option(min=1, max=100, help="Cut-off k for recall@k.")] = 5,
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Score search on question sets: recall@k, MRR, refusals, every miss; with several sets,
    also leave-one-folder-out (fit on the others, score the one left out)."""
    from adr_memory.search import evaluation
    from adr_memory.search import search as search_mod

    chosen = _choice([mode], ("all", *search_mod.MODES), "mode")
    modes = list(search_mod.MODES) if "all" in chosen else chosen
    sets = evaluation.question_sets(workspace(adr_dir, need_folder=not folder), queries, folder)
    with render.progress("Embedding sections") as tick, render.progress("Fitting constants") as fitting:
        report = evaluation.evaluate(sets, modes=modes, limit=limit, progress=tick, fitting=fitting)
    _show(report, as_json, render.eval_report)


# ---------------------------------------------------------------------------- for tools


@command()
def export(
    fmt: Annotated[str, typer.Option("--format", help="json, jsonl or md.")] = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE.")] = None,
    adr_dir: DirOption = None,
) -> None:
    """Every record as data (one JSON array, JSON lines) or one markdown document."""
    from adr_memory.base.files import write_text_atomic
    from adr_memory.surfaces import export as export_mod

    if fmt not in export_mod.FORMATS:
        raise UsageError(f"unknown format {fmt!r}", hint="use json, jsonl or md")
    text = export_mod.render(export_mod.documents(workspace(adr_dir)), fmt)
    if output is None:  # data for a pipe or a file, byte for byte; a terminal gets no escape sequences
        sys.stdout.write(safe.terminal(text) if sys.stdout.isatty() else text)
    else:
        write_text_atomic(output, text)
        render.line(f"wrote {output}")


@command()
def mcp(
    allow_write: Annotated[bool, typer.Option("--allow-write", help="Also offer the new and affirm tools.")] = False,
    repo: Annotated[Path | None, typer.Option("--repo", help="The repository (default: here).")] = None,
) -> None:
    """Serve the decisions to coding agents over MCP (stdio)."""
    from adr_memory.surfaces import mcp as mcp_server

    mcp_server.serve(Workspace.discover(repo), allow_write=allow_write)


# ---------------------------------------------------------------------------- checks


@command()
def check(
    paths: Annotated[list[str] | None, typer.Argument(help="Only report on these ADR files.")] = None,
    base: Annotated[
        str | None,
        typer.Option(
            "--base", metavar="REF", help="Also check what this branch changed since its merge-base with REF (CI)."
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="text, json, github or markdown.")] = "text",
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on", metavar="KINDS", help="Comma-separated kinds that fail the run (any, none, error, stale, ...)."
        ),
    ] = None,
    rules_only: Annotated[bool, typer.Option("--rules-only", help="Run only the rules.")] = False,
    allow_unknown: Annotated[
        bool,
        typer.Option("--allow-unknown", help="Do not fail on decisions git cannot judge (shallow or damaged clone)."),
    ] = False,
    adr_dir: DirOption = None,
) -> None:
    """Check the ADR folder (and with --base, the change a branch makes); exit 1 on findings."""
    from adr_memory.policy import check as checks

    if fmt not in ("text", "json", "github", "markdown"):
        raise UsageError(f"unknown format {fmt!r}", hint="use text, json, github or markdown")
    kinds = set(_choice([fail_on], ("any", "none", "error", *checks.KINDS), "kind")) if fail_on else None
    ws = workspace(adr_dir)
    only = [ws.relpath(p) for p in paths] if paths else None
    outcome = checks.run(ws, only=only, base=base, rules_only=rules_only)
    findings = [f for f in outcome.findings if not (allow_unknown and f.kind == "unknown")]
    render.findings(findings, fmt, untouched=outcome.untouched_line())
    raise typer.Exit(1 if checks.fails(findings, kinds) else 0)


@command()
def review(
    base: Annotated[str, typer.Option("--base", metavar="REF", help="The branch a PR targets.")],
    fmt: Annotated[str, typer.Option("--format", help="markdown or json.")] = "markdown",
    adr_dir: DirOption = None,
) -> None:
    """A pull-request report: new decisions and versions, status changes, the decisions
    governing the code it touches, what it makes stale, and check findings."""
    from adr_memory.surfaces import review as review_mod

    if fmt not in ("markdown", "json"):
        raise UsageError(f"unknown format {fmt!r}", hint="use markdown or json")
    report = review_mod.report(workspace(adr_dir), base)
    if fmt == "json":
        render.emit_json(report)
    else:
        render.line(review_mod.markdown(report))


HookNames = Annotated[
    list[str] | None,
    typer.Argument(
        help="pre-commit, post-commit, post-merge (default: all three), or claude-code (.claude/settings.json)."
    ),
]


@command(hooks_app, name="install")
def hooks_install(
    names: HookNames = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="claude-code: ask before edits to code a stale or conflicting decision governs."),
    ] = False,
) -> None:
    """Install our git hooks (a foreign hook is kept as <hook>.legacy and run first), or the
    coding-agent guard into .claude/settings.json (other settings kept)."""
    from adr_memory.history import hooks

    ws = workspace(need_folder=False)
    git_hooks, claude = _hook_names(names)
    actions = hooks.install(ws, git_hooks) if git_hooks else []
    if claude:
        actions.append(hooks.install_claude(ws, strict=strict))
    for action in actions:
        render.line(f"{action.hook}: {action.action}")


@command(hooks_app, name="uninstall")
def hooks_uninstall(names: HookNames = None) -> None:
    """Remove only our hooks and put any legacy hook back; claude-code removes only ours."""
    from adr_memory.history import hooks

    ws = workspace(need_folder=False)
    git_hooks, claude = _hook_names(names)
    actions = hooks.uninstall(ws, git_hooks) if git_hooks else []
    if claude:
        actions.append(hooks.uninstall_claude(ws))
    for action in actions:
        render.line(f"{action.hook}: {action.action}")


def _hook_names(names: list[str] | None) -> tuple[tuple[str, ...], bool]:
    """(git hooks, whether claude-code was named)."""
    from adr_memory.history import hooks

    chosen = tuple(names or hooks.HOOKS)
    _choice(list(chosen), (*hooks.HOOKS, "claude-code"), "hook")
    return tuple(n for n in chosen if n in hooks.HOOKS), "claude-code" in chosen


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for the `adr` and `adr-memory` scripts; returns the exit code."""
    args = list(argv) if argv is not None else sys.argv[1:]

    def typer_app() -> int:
        try:
            code = app(args=args, prog_name="adr", standalone_mode=False)
        except typer.Abort:  # Ctrl-C while the arguments were read
            return boundary.INTERRUPTED
        except _CLICK_ERROR as exc:  # a bad argument: told like every other error, in two lines
            if type(exc).__name__ == "NoArgsIsHelpError":  # `adr` alone: the help, on stderr, exit 2
                cast(Any, exc).show()
                return 2
            raise _usage_error(exc, args) from None
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return code if isinstance(code, int) else 0

    return boundary.run(typer_app, args)


# click's own error for bad arguments (typer vendors click, so it is found through typer's)
_CLICK_ERROR: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _usage_error(exc: Exception, args: Sequence[str]) -> UsageError:
    """`error: missing argument 'ID'` / `hint: adr show -h shows the usage`, not click's four
    lines: every error a user sees has one shape."""
    message = str(getattr(exc, "format_message", lambda: str(exc))()).rstrip(".")
    ctx = getattr(exc, "ctx", None)
    first = args[0] if args and not args[0].startswith("-") else ""
    path = ctx.command_path if ctx is not None else f"adr {first}".strip()
    return UsageError(message[:1].lower() + message[1:], hint=f"{path} -h shows the usage")
