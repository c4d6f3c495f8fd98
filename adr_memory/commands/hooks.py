"""`adr hooks install|uninstall`: our git hooks, or the coding-agent guard, in and out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adr_memory.history import Workspace
from adr_memory.history import hooks as git_hooks

GIT_HOOKS = git_hooks.HOOKS  # the git hooks `adr hooks install` knows


def install(
    ws: Workspace,
    hooks: Sequence[str],
    claude: bool,
    *,
    strict: bool = False,
    read: bool = False,
    recalls: Sequence[str] = (),
) -> list[Any]:
    """Install our git hooks (a foreign hook is kept as <hook>.legacy and run first), and the
    coding-agent guard into .claude/settings.json (other settings kept) with the recalls asked for."""
    actions = git_hooks.install(ws, tuple(hooks)) if hooks else []
    if claude:
        actions.append(git_hooks.install_claude(ws, strict=strict, read=read, recalls=tuple(recalls)))
    return actions


def uninstall(ws: Workspace, hooks: Sequence[str], claude: bool) -> list[Any]:
    """Remove only our hooks and put any legacy hook back; for claude-code, only ours."""
    actions = git_hooks.uninstall(ws, tuple(hooks)) if hooks else []
    if claude:
        actions.append(git_hooks.uninstall_claude(ws))
    return actions


def lint(ws: Workspace, only: Sequence[str]) -> Any:
    """What the pre-commit hook judges: the lint findings of these records alone (no rules, no
    history: it runs on every commit)."""
    from adr_memory.commands.check import Checked
    from adr_memory.policy import check

    return Checked(check.lint(ws.catalog, only=only, require_status=ws.config.require_status == "true"))


def made_stale(ws: Workspace, touched: set[str]) -> list[Any]:
    """The decisions stale because of these paths (a commit's, or what a merge brought in)."""
    from adr_memory.history import staleness

    if not any(staleness.governing(list(ws.catalog), p) for p in touched):
        return []  # the common case: nothing governed changed, no history walk needed
    return [v for v in staleness.report(ws) if v.state == "stale" and set(v.changed) & touched]


def records_among(ws: Workspace, files: Sequence[str]) -> list[str]:
    """The repo-relative paths of the records of the ADR folder among `files` (typed or passed
    paths): pre-commit's framework passes every markdown file, and only records are ours to judge."""
    return [p for p in (ws.relpath(f) for f in files) if _is_record(ws, p)]


def code_among(ws: Workspace, files: Sequence[str]) -> list[str]:
    """`files` less the records: the paths the guard names decisions for."""
    return [f for f in files if not _is_record(ws, ws.relpath(f))]


def _is_record(ws: Workspace, path: str) -> bool:
    from adr_memory.records import holds, may_hold

    # By its name first: the catalog is read only for a file only the folder can judge.
    return holds(ws.adr_dir, path) or (may_hold(ws.adr_dir, path) and ws.catalog.judges(path))


@dataclass(frozen=True)
class Staged:
    """What a commit is about to record: the records to lint, the code to name decisions for."""

    records: list[str]
    code: list[str]


def pre_commit(ws: Workspace) -> Staged:
    from adr_memory.records import outside

    staged = ws.repo.staged_paths()
    records = [p for p in staged if _is_record(ws, p) and (ws.root / p).exists()]  # a deletion is not linted
    return Staged(records, [p for p in staged if outside(ws.adr_dir, p)])


@dataclass(frozen=True)
class MadeStale:
    """A decision a commit or a merge made stale, and the changed files of it that did."""

    id: str
    title: str
    hit: list[str]


def post_commit(ws: Workspace) -> list[MadeStale]:
    """The decisions this commit made stale."""
    return _made_stale_by(ws, ws.repo.head_changes())


def post_merge(ws: Workspace) -> list[MadeStale]:
    """After `git pull`/`git merge`: the decisions what came in made stale (ORIG_HEAD..HEAD)."""
    repo = ws.repo
    before, head = repo.orig_head(), repo.head()
    if head is None or before is None or before == head:
        return []
    return _made_stale_by(ws, repo.changed_paths(repo.commit(before).tree, repo.commit(head).tree, [""]))


def _made_stale_by(ws: Workspace, touched: set[str]) -> list[MadeStale]:
    found = ((v, sorted(set(v.changed) & touched)) for v in made_stale(ws, touched))
    return [MadeStale(v.id, v.title, hit) for v, hit in found if hit]
