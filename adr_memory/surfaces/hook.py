"""`adr-hook lint|guard FILES...`, `adr-hook pre-commit|post-commit|agent-guard`: the entry
points hooks call (ADR-0003).

A few arguments parsed with argparse so that every commit pays neither typer, pydantic nor
rich; the work is done by the same functions `adr check` and `adr guard` call.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from adr_memory.base import safe
from adr_memory.errors import UsageError
from adr_memory.surfaces import boundary


class _Parser(argparse.ArgumentParser):
    """argparse's usage errors in the shape every error has: `error:` and `hint:`, exit 2."""

    def error(self, message: str) -> NoReturn:
        boundary.report(UsageError(message, hint=f"{self.prog} -h shows the usage"))
        raise SystemExit(2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="adr-hook", description=__doc__)
    sub = parser.add_subparsers(dest="verb", required=True)
    lint = sub.add_parser("lint", help="check the ADR files passed in")
    lint.add_argument("files", nargs="*")
    guard = sub.add_parser("guard", help="name the decisions governing staged code files")
    guard.add_argument("files", nargs="*")
    guard.add_argument("--strict", action="store_true", help="fail on stale/superseded decisions")
    sub.add_parser("pre-commit", help="plain git hook: lint staged ADRs, guard staged code")
    sub.add_parser("post-commit", help="plain git hook: the decisions this commit made stale")
    sub.add_parser("post-merge", help="plain git hook: the decisions a pull or merge made stale")
    agent = sub.add_parser(
        "agent-guard", help="coding-agent pre-edit hook (Claude Code PreToolUse JSON on stdin, hook JSON on stdout)"
    )
    agent.add_argument(
        "--strict", action="store_true", help="ask before edits to code a stale or conflicting decision governs"
    )
    sub.add_parser("session-start", help="coding-agent session start: a digest of the decisions in force")
    sub.add_parser("prompt", help="coding-agent prompt: the decisions that answer it, when search is sure")
    args = parser.parse_args(argv)
    if args.verb in ("post-commit", "post-merge"):
        return _never_fail(_post_commit if args.verb == "post-commit" else _post_merge)
    if args.verb == "agent-guard":
        return _never_fail(lambda: _agent_guard(args.strict))
    if args.verb == "session-start":
        return _never_fail(_session_start)
    if args.verb == "prompt":
        return _never_fail(_prompt)

    def verb() -> int:
        if args.verb == "pre-commit":
            return _pre_commit()
        return _lint(args.files) if args.verb == "lint" else _guard(args.files, args.strict)

    return boundary.run(verb, list(argv) if argv is not None else sys.argv[1:])


def _say(text: str) -> None:
    """A line for the terminal that runs the hook: record text (a path, a title, a quoted
    value) may hold escape sequences, and credentials are redacted, as `adr` prints them."""
    from adr_memory.records import scrub

    print(safe.terminal(scrub(text)))


def _lint(files: Sequence[str], ws: Any = None) -> int:
    from adr_memory.commands import hooks
    from adr_memory.history import Workspace

    ws = ws or Workspace.discover()
    only = hooks.records_among(ws, files)
    if not only:
        return 0  # the framework passes every markdown file; only records are ours to judge
    checked = hooks.lint(ws, only)
    for f in checked.findings:
        for text in f.text_lines():
            _say(text)
    return 1 if checked.fails() else 0


def _guard(files: Sequence[str], strict: bool, ws: Any = None) -> int:
    from adr_memory.commands import guard, hooks
    from adr_memory.history import Workspace

    ws = ws or Workspace.discover()
    answer = guard.run(ws, hooks.code_among(ws, files))
    flagged = 0
    for item in answer["paths"]:
        for d in item["decisions"]:
            bad = d["state"] in ("stale", "at-risk") or not d["in_force"]  # the standing says, once
            flagged += bad
            mark = "!" if bad else "-"
            _say(f"{mark} {item['path']}: {d['id']} {d['title']} [{d['standing']['label']}, {d['state']}]")
        for unread in item.get("unreadable_sources", []):
            flagged += 1
            _say(f"! {item['path']}: unknown: {unread['problem']}")
    return 1 if strict and flagged else 0


def _never_fail(fn: Callable[[], None]) -> int:
    """post-commit and agent-guard are advisory: any failure prints nothing and exits 0."""
    with contextlib.suppress(BaseException):
        fn()
    return 0


def _pre_commit() -> int:
    from adr_memory.commands import hooks
    from adr_memory.history import Workspace

    ws = Workspace.discover()
    staged = hooks.pre_commit(ws)
    result = _lint(staged.records, ws) if staged.records else 0
    if staged.code:
        _guard(staged.code, strict=False, ws=ws)
    return result


def _post_commit() -> None:
    from adr_memory.commands import hooks
    from adr_memory.history import Workspace

    _say_made_stale(hooks.post_commit(Workspace.discover()), "this commit makes")


def _post_merge() -> None:
    from adr_memory.commands import hooks
    from adr_memory.history import Workspace

    _say_made_stale(hooks.post_merge(Workspace.discover()), "what this merge brought in makes")


def _say_made_stale(made: list[Any], what: str) -> None:
    from adr_memory.records import first_few

    for stale in made:
        _say(
            f"adr: {what} {stale.id} stale ({stale.title}): "
            f"{first_few(stale.hit, 3)}; review it, then `adr affirm {stale.id}`"
        )


_ATTENTION = ("stale", "at-risk", "unknown")
# The tools whose file the guard looks at; `Read` reaches it only when installed with `--read`.
_EDIT_TOOLS = ("Edit", "Write", "MultiEdit", "NotebookEdit", "Read")
_MAX_DECISIONS = 5


def _agent_guard(strict: bool = False) -> None:
    """Claude Code PreToolUse: name, as `additionalContext` the model reads, every decision
    governing the file an edit touches (or the paths a Bash command names): its state, the
    decision itself in a line, the rules that apply, any conflict. Silent for ungoverned
    files. With `strict`, a stale or conflicting decision makes the edit ask first."""
    import json
    import os

    if os.environ.get("ADR_GUARD", "1") == "0":
        return
    call = json.loads(sys.stdin.read() or "{}")
    paths = _paths_of(call)
    if not paths:
        return
    from adr_memory.commands import guard
    from adr_memory.history import Workspace

    answer = guard.run(Workspace.discover(), paths)
    lines, worries = _guard_lines(answer)
    if not lines:
        return
    from adr_memory.records import scrub

    output: dict[str, object] = {"hookEventName": "PreToolUse", "additionalContext": scrub("\n".join(lines))}
    if strict and worries:
        output["permissionDecision"] = "ask"
        output["permissionDecisionReason"] = "; ".join(worries)[:500]
    print(json.dumps({"hookSpecificOutput": output}))


def _paths_of(call: dict[str, Any]) -> list[str]:
    """The files a tool call is about to change: the edit tools' path, or the words of a Bash
    command that name an existing file or folder."""
    tool = call.get("tool_name") or ""
    tool_input = call.get("tool_input") or {}
    if tool == "Bash":
        import shlex

        try:
            words = shlex.split(str(tool_input.get("command") or ""))
        except ValueError:
            return []
        import os

        return [w for w in words if not w.startswith("-") and ("/" in w or "." in w) and os.path.exists(w)][:20]
    if tool and tool not in _EDIT_TOOLS:
        return []
    path = tool_input.get("file_path") or tool_input.get("path") or tool_input.get("notebook_path")
    return [str(path)] if path else []


def _guard_lines(answer: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The context lines for the agent, and the worries that make a strict guard ask. Each line
    names the path it is about; a rule or a conflict that several paths share is said once, with
    all of them (a command touching ten files once repeated each rule ten times)."""
    lines: list[str] = []
    worries: list[str] = []
    rules: dict[str, list[str]] = {}
    conflicts: dict[str, list[str]] = {}
    for item in answer["paths"]:
        for d in item["decisions"][:_MAX_DECISIONS]:
            lines.append(
                f"{d['id']} ({d['standing']['label']}; {d['state']}) governs {item['path']}: "
                f"{d['title']}. Decision: {d['excerpt'] or '(no decision text)'} "
                f"Full record: {d['path']}."
            )
            if d["standing"]["proposed_successors"] and d["in_force"]:
                lines.append(f"  {d['id']} still binds: {d['standing']['text']}, not accepted yet.")
            if d["state"] in _ATTENTION:
                lines.append(f"  {d['id']} is {d['state']}: {d['reason']}. Check it still holds before relying on it.")
                worries.append(f"{d['id']} is {d['state']}")
            if d.get("disputed"):
                lines.append(f"  {d['id']} is disputed here: {d['disputed'][-1]}. A person should review it.")
        for unread in item.get("unreadable_sources", []):
            said = (
                f"The organisation's decisions from source {unread['source']} could not be read "
                f"({unread['problem']}): what governs {{paths}} is not known. Do not assume nothing does; "
                "ask the user before relying on it."
            )
            rules.setdefault(said, []).append(item["path"])
            worries.append(f"source {unread['source']} could not be read")
        for rule in item.get("rules", []):
            said = f"Rule from {rule['id']}: {rule['description']} ({rule['message']})"
            rules.setdefault(said, []).append(item["path"])
        for conflict in item.get("conflicts", []):
            conflicts.setdefault(f"Conflict: {conflict['message']}", []).append(item["path"])
            worries.append(f"conflict between {' and '.join(conflict['ids'])}")
    lines += [_for_paths(said, paths) for said, paths in {**rules, **conflicts}.items()]
    return lines, list(dict.fromkeys(worries))


def _for_paths(said: str, paths: list[str]) -> str:
    named = ", ".join(dict.fromkeys(paths))
    return said.replace("{paths}", named) if "{paths}" in said else f"{said}, for {named}."


def _context(event: str, text: str) -> None:
    """Text for the agent's context, in the Claude Code hook protocol (nothing when empty)."""
    import json

    from adr_memory.records import scrub

    if text:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": scrub(text)}}))


def _session_start() -> None:
    """Claude Code SessionStart: the decisions in force by area, the stale and the conflicting."""
    from adr_memory.commands import views
    from adr_memory.history import Workspace

    _context("SessionStart", views.digest(Workspace.discover()))


def _prompt() -> None:
    """Claude Code UserPromptSubmit: the decisions that answer the prompt, only when search is
    sure (`confidence: high`); nothing at all when it is not, and nothing for a short prompt."""
    import json

    from adr_memory.commands import search
    from adr_memory.history import Workspace

    prompt = str(json.loads(sys.stdin.read() or "{}").get("prompt") or "").strip()
    if len(prompt.split()) < 3:
        return
    answer = search.run(Workspace.discover(), prompt[:2000], limit=3)
    if answer["no_strong_match"] or answer["confidence"] != "high" or not answer["results"]:
        return
    # Only decisions in force are offered; a retired one only beside what replaced it (ADR-0101).
    offered = {r["id"] for r in answer["results"]}
    shown = [r for r in answer["results"] if r["standing"]["in_force"] or set(r["standing"]["retired_by"]) & offered]
    if not shown:
        return
    rows = [f"{r['id']} ({r['standing']['label']}) {r['title']}: {r['snippet'][:200]}" for r in shown]
    _context("UserPromptSubmit", "Recorded decisions that answer this (read before acting):\n" + "\n".join(rows))


if __name__ == "__main__":
    raise SystemExit(main())
