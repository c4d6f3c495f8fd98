"""The commands that judge the records against the code and the repository: stale, affirm,
feedback, why, guard, index, search, eval, mcp, check, review, hooks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from adr_memory.errors import UsageError
from adr_memory.surfaces import formats, render, render_history, render_search
from adr_memory.surfaces.app import (
    DirOption,
    HookNames,
    JsonFlag,
    _choice,
    _hook_names,
    _show,
    _statuses,
    command,
    complete_ids,
    hooks_app,
    sources_app,
    workspace,
)

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
    from adr_memory.commands import stale as stale_cmd

    judged = stale_cmd.run(workspace(adr_dir), worktree)
    if as_json:
        render.emit_json(judged.to_json())
    else:
        render_history.stale_table(judged.verdicts, show_all=show_all)
    raise typer.Exit(1 if fail and judged.fails(allow_unknown=allow_unknown) else 0)


@command()
def affirm(
    ident: Annotated[str, typer.Argument(metavar="ID", autocompletion=complete_ids)],
    note: Annotated[str | None, typer.Option("--note", help="Why it still holds.")] = None,
    adr_dir: DirOption = None,
) -> None:
    """Record that a decision still holds; once committed, this commit is its new anchor."""
    from adr_memory.commands import lifecycle as lifecycle_cmd

    done = lifecycle_cmd.affirm(workspace(adr_dir), ident, note or "")
    render.line(f"{done['affirmed']} affirmed in {done['path']}; commit it to move the anchor")


@command(name="feedback")
def feedback_(
    ident: Annotated[str, typer.Argument(metavar="ID", autocompletion=complete_ids)],
    used: Annotated[bool, typer.Option("--used", help="It helped.")] = False,
    not_applicable: Annotated[bool, typer.Option("--not-applicable", help="It did not apply.")] = False,
    wrong: Annotated[bool, typer.Option("--wrong", help="It misled: mark it disputed.")] = False,
    note: Annotated[str, typer.Option("--note", help="What happened.")] = "",
    adr_dir: DirOption = None,
) -> None:
    """Say how a decision served you; kept in the local cache, never committed. A `--wrong`
    since its last review shows the decision as disputed in `adr stale` and `adr review`."""
    from adr_memory.commands import feedback as feedback_cmd

    chosen = [v for v, on in (("used", used), ("not_applicable", not_applicable), ("wrong", wrong)) if on]
    if len(chosen) != 1:
        raise UsageError("say one of --used, --not-applicable or --wrong", hint="adr feedback 7 --wrong --note '...'")
    done = feedback_cmd.run(workspace(adr_dir), ident, chosen[0], note)
    render.line(f"{done['id']}: {done['verdict']} noted (local cache)")


@command()
def why(
    paths: Annotated[list[str], typer.Argument(help="Files you are about to change.")],
    adr_dir: DirOption = None,
    as_json: JsonFlag = False,
) -> None:
    """The decisions that govern these files, with their status and staleness."""
    from adr_memory.commands import guard as guard_cmd

    _show(guard_cmd.run(workspace(adr_dir), paths), as_json, render_history.why)


@command()
def guard(
    paths: Annotated[list[str], typer.Argument(help="Files about to be edited.")],
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """For tools: the decisions governing these paths (JSON with --json)."""
    from adr_memory.commands import guard as guard_cmd

    _show(guard_cmd.run(workspace(adr_dir), paths), as_json, render_history.why)


# ---------------------------------------------------------------------------- search


@command(name="index")
def index_(
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Build from scratch.")] = False,
    adr_dir: DirOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Build or refresh the search index (BM25 + vectors) in the cache."""
    from adr_memory.commands import index as index_cmd

    with render.progress("Embedding sections") as tick:
        built = index_cmd.run(workspace(adr_dir), rebuild, tick)
    if as_json:
        render.emit_json(built)
        return
    size = f"{built['records']} records, {built['sections']} sections, {built['vectors']} vectors"
    render.line(
        f"index: {size} ({built['embedded']} embedded, {built['reused']} reused)"
        if built["built"]
        else f"index: up to date ({size}); nothing to embed"
    )
    for said in built["notes"]:
        render.warn(said)


@command()
def search(
    query: Annotated[list[str], typer.Argument(help="Your question, in your own words.")],
    mode: Annotated[str, typer.Option(help="keyword, semantic or hybrid.")] = "hybrid",
    status: Annotated[list[str], typer.Option("--status", help="Statuses to include, or all.")] = [],
    limit: Annotated[int, typer.Option(min=1, max=100, help="At most this many results.")] = 5,
    alternatives: Annotated[
        list[str],
        typer.Option(
            "--or",
            help="Another phrasing of the question (up to 4): the results stay the question's; "
            "what only a phrasing finds is listed apart.",
        ),
    ] = [],
    as_json: JsonFlag = False,
    adr_dir: DirOption = None,
) -> None:
    """Find decisions by words and meaning; says so when nothing matches well."""
    from adr_memory.commands import search as search_cmd

    with render.progress("Embedding sections") as tick:
        answer = search_cmd.run(
            workspace(adr_dir), " ".join(query), mode, ",".join(_statuses(status)) or "all", limit, alternatives, tick
        )
    for said in (answer["fallback"], answer["index"].get("note")):
        if said:
            render.warn(said)
    _show(answer, as_json, render_search.search_answer)


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
    from adr_memory.commands import evaluate

    chosen = _choice([mode], ("all", *evaluate.MODES), "mode")
    modes = list(evaluate.MODES) if "all" in chosen else chosen
    ws = workspace(adr_dir, need_folder=not folder)
    with render.progress("Embedding sections") as tick, render.progress("Fitting constants") as fitting:
        report = evaluate.run(ws, queries, folder, modes=modes, limit=limit, progress=tick, fitting=fitting)
    _show(report, as_json, render_search.eval_report)


@command()
def mcp(
    allow_write: Annotated[bool, typer.Option("--allow-write", help="Also offer the new and affirm tools.")] = False,
    repo: Annotated[Path | None, typer.Option("--repo", help="The repository (default: here).")] = None,
    hub: Annotated[
        str | None, typer.Option("--hub", metavar="URL", help="Serve the organisation's hub instead, read-only.")
    ] = None,
) -> None:
    """Serve the decisions to coding agents over MCP (stdio)."""
    from adr_memory.commands import serving

    tools = serving.mcp(repo, allow_write=allow_write, hub=hub)
    if tools.hub is not None:
        from adr_memory.surfaces import mcp_hub

        mcp_hub.serve(tools.hub)
        return
    from adr_memory.surfaces import mcp as mcp_server

    mcp_server.serve(tools)


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
    fmt: Annotated[str, typer.Option("--format", help=f"{formats.listed(formats.CHECK)}.")] = "text",
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
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
) -> None:
    """Check the ADR folder (and with --base, the change a branch makes); exit 1 on findings."""
    from adr_memory.commands import check as check_cmd

    chosen = formats.chosen("json" if as_json else fmt, formats.CHECK)
    kinds = set(_choice([fail_on], ("any", "none", "error", *check_cmd.KINDS), "kind")) if fail_on else None
    checked = check_cmd.run(workspace(adr_dir), base, paths, rules_only, allow_unknown)
    render.findings(checked.findings, chosen, untouched=checked.untouched)
    raise typer.Exit(1 if checked.fails(kinds) else 0)


@command()
def review(
    base: Annotated[str, typer.Option("--base", metavar="REF", help="The branch a PR targets.")],
    fmt: Annotated[str, typer.Option("--format", help=f"{formats.listed(formats.REVIEW)}.")] = "markdown",
    adr_dir: DirOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
) -> None:
    """A pull-request report: new decisions and versions, status changes, the decisions
    governing the code it touches, what it makes stale, and check findings."""
    from adr_memory.commands import review as review_cmd
    from adr_memory.surfaces import review as review_mod

    chosen = formats.chosen("json" if as_json else fmt, formats.REVIEW)
    report = review_cmd.report(workspace(adr_dir), base)
    if chosen is formats.Format.JSON:
        render.emit_json(report)
    else:
        render.line(review_mod.markdown(report))


@command(hooks_app, name="install")
def hooks_install(
    names: HookNames = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="claude-code: ask before edits to code a stale or conflicting decision governs."),
    ] = False,
    read: Annotated[bool, typer.Option("--read", help="claude-code: guard before the agent reads a file too.")] = False,
    session_start: Annotated[
        bool,
        typer.Option("--session-start", help="claude-code: a digest of the decisions in force when a session starts."),
    ] = False,
    prompt: Annotated[
        bool,
        typer.Option("--prompt", help="claude-code: the decisions that answer each prompt, only when search is sure."),
    ] = False,
) -> None:
    """Install our git hooks (a foreign hook is kept as <hook>.legacy and run first), or the
    coding-agent guard into .claude/settings.json (other settings kept), with the recalls asked for."""
    from adr_memory.commands import hooks

    git_hooks, claude = _hook_names(names)
    recalls = tuple(e for e, asked in (("SessionStart", session_start), ("UserPromptSubmit", prompt)) if asked)
    actions = hooks.install(workspace(need_folder=False), git_hooks, claude, strict=strict, read=read, recalls=recalls)
    for action in actions:
        render.line(f"{action.hook}: {action.action}")


@command(hooks_app, name="uninstall")
def hooks_uninstall(names: HookNames = None) -> None:
    """Remove only our hooks and put any legacy hook back; claude-code removes only ours."""
    from adr_memory.commands import hooks

    git_hooks, claude = _hook_names(names)
    for action in hooks.uninstall(workspace(need_folder=False), git_hooks, claude):
        render.line(f"{action.hook}: {action.action}")


# ---------------------------------------------------------------------------- sources


@command(sources_app, name="add")
def sources_add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="A short lowercase name: ids read NAME:ADR-0012.")],
    url: Annotated[str, typer.Argument(metavar="URL", help="Any URL git fetches, a file:// URL or a local path.")],
    ref: Annotated[str, typer.Option("--ref", help="The branch or tag to pin.")] = "main",
    folder: Annotated[
        str, typer.Option("--dir", help="Its decision folder (else found as a repository's own is).")
    ] = "",
) -> None:
    """Name another repository's decision folder in .adr-memory.toml (then `adr sources update`)."""
    from adr_memory.commands import sources as sources_cmd

    done = sources_cmd.add(workspace(need_folder=False), name, url, ref, folder)
    if done["credential"]:
        render.warn(f"the credential in the URL was {done['credential']}")
    render.line(f"source {done['added']} ({done['url']}) added to {done['config']}; now: adr sources update {name}")


@command(sources_app, name="remove")
def sources_remove(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The source to stop reading.")],
) -> None:
    """Take a source out of .adr-memory.toml and adr-sources.lock (commit both)."""
    from adr_memory.commands import sources as sources_cmd

    done = sources_cmd.remove(workspace(need_folder=False), name)
    render.line(f"source {done['removed']} removed from {done['config']} and {done['lock']}: commit them")


@command(sources_app, name="update")
def sources_update(
    names: Annotated[list[str] | None, typer.Argument(metavar="NAME", help="Only these sources.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Fetch the sources and pin each to the commit its ref names now, in adr-sources.lock
    (commit it: every check here reads the sources at their pins)."""
    from adr_memory.commands import sources as sources_cmd

    done = sources_cmd.update(workspace(need_folder=False), names or None)
    for row in done["sources"]:
        if row["note"]:
            render.warn(row["note"])
    if as_json:
        render.emit_json(done)
        return
    for row in done["sources"]:
        moved = f"{(row['before'] or 'unpinned')[:10]} -> {row['commit'][:10]}" if row["moved"] else "unchanged"
        render.line(f"{row['name']}: {row['ref']} at {row['commit'][:10]} ({moved}); {row['dir']}")
    render.line(f"pins written to {done['lock']}: commit it")


@command(sources_app, name="list")
def sources_list(as_json: JsonFlag = False) -> None:
    """The sources: URL (no credentials), ref, pinned commit and date, decisions, whether the copy is here."""
    from adr_memory.commands import sources as sources_cmd

    listed = sources_cmd.listing(workspace(need_folder=False))
    if as_json:
        render.emit_json(listed)
        return
    if not listed["sources"]:
        render.line("No sources: adr sources add NAME URL")
    for row in listed["sources"]:
        pin = f"{row['commit'][:10]} ({row['date']})" if row["commit"] else "not pinned"
        render.line(f"{row['name']}: {row['url']} {row['ref']} at {pin}; {render.counted(row['records'], 'decision')}")
        if row["problem"]:
            render.warn(row["problem"])
