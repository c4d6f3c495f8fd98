"""`adr-hook lint|guard FILES...`: the pre-commit entry points (ADR-0003).

A few arguments parsed with argparse so that every commit pays neither typer, pydantic nor
rich; the work is done by the same functions `adr check` and `adr guard` call.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from adr_memory.errors import AdrError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="adr-hook", description=__doc__)
    sub = parser.add_subparsers(dest="verb", required=True)
    lint = sub.add_parser("lint", help="check the ADR files passed in")
    lint.add_argument("files", nargs="*")
    guard = sub.add_parser("guard", help="name the decisions governing staged code files")
    guard.add_argument("files", nargs="*")
    guard.add_argument("--strict", action="store_true", help="fail on stale/superseded decisions")
    args = parser.parse_args(argv)
    try:
        return _lint(args.files) if args.verb == "lint" else _guard(args.files, args.strict)
    except AdrError as exc:
        sys.stderr.write(f"error: {exc.message}\n" + (f"hint: {exc.hint}\n" if exc.hint else ""))
        return exc.exit_code


def _lint(files: Sequence[str]) -> int:
    from adr_memory import check
    from adr_memory.workspace import Workspace

    ws = Workspace.discover()
    only = [ws.relpath(f) for f in files]
    findings = check.lint(ws.catalog, only=only)
    for f in findings:
        print(f"{f.path}:{f.line}: {f.severity}: {f.kind}: {f.message}")
        if f.hint:
            print(f"    hint: {f.hint}")
    return 1 if check.fails(findings) else 0


def _guard(files: Sequence[str], strict: bool) -> int:
    from adr_memory import views
    from adr_memory.workspace import Workspace

    answer = views.guard(Workspace.discover(), files)
    flagged = 0
    for item in answer["paths"]:
        for d in item["decisions"]:
            bad = d["state"] in ("stale", "at-risk") or d["status"] in ("superseded", "deprecated")
            flagged += bad
            mark = "!" if bad else "-"
            print(f"{mark} {item['path']}: {d['id']} {d['title']} [{d['status']}, {d['state']}]")
    return 1 if strict and flagged else 0


if __name__ == "__main__":
    raise SystemExit(main())
