"""History for people and machines: the timeline, a record's log, the staleness table and the
`why` answer, as rich tables and as JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from adr_memory.records import Record, redacted, scrub
from adr_memory.surfaces import grid, render  # render.out, read at each call: one console, whoever swaps it
from adr_memory.surfaces.render import STATUS_STYLE, day


def timeline(events: Sequence[Any]) -> None:
    """`adr log` without an id: decision events, newest first."""
    if not events:
        render.out.print("No decision events in this history.")
        return
    rows = [
        {
            "Date": day(e.date),
            "Commit": e.commit[:7],
            "Author": e.author.split(" <")[0],
            "ID": e.id,
            "Event": e.kind,
            "Title / detail": scrub(e.title) + (f" ({scrub(e.detail)})" if e.detail else ""),
        }
        for e in events
    ]
    grid.show(rows, fold="Title / detail", room=20, caps={"Author": 16}, lead=4)


def log_table(rec: Record, versions: Sequence[Any]) -> None:
    rec = redacted(rec)
    render.out.print(Text(f"{rec.id}: {rec.title}", style="bold"), overflow="fold")
    rows: list[dict[str, Text | str]] = []
    for v in versions:  # newest first; a version's status changes and reviews follow it, newest first too
        for r in reversed(v.reviews):
            rows.append(_log_row("  ↳", r.commit, r.date, r.author, Text("affirmed", style="green"), scrub(r.note)))
        for t in reversed(v.transitions):
            status = Text(f"{t.before} → ") + Text(t.after, style=STATUS_STYLE.get(t.after, ""))
            rows.append(_log_row("  ↳", t.commit, t.date, t.author, status, scrub(t.reason)))
        status = Text(v.status, style=STATUS_STYLE.get(v.status, ""))
        version = (v.version_id or "unknown") + ("*" if v.draft else "")  # "": this clone lacks one before
        rows.append(_log_row(version, v.commit, v.date, v.author or "", status, scrub(v.message or "")))
    # The message gets the room; the author and a status change wrap rather than lose a word.
    grid.show(rows, fold="Message", room=16, caps={"Author": 12, "Status": 10}, lead=3)


def _log_row(version: str, commit: str | None, date: Any, author: str, status: Text, message: str) -> dict[str, Any]:
    return {
        "Version": version,
        "Commit": (commit or "draft")[:7],
        "Date": day(date),
        "Author": author.split(" <")[0],
        "Status": status,
        "Message": message,
    }


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
    shown = [v for v in verdicts if show_all or v.disputed or v.state not in ("fresh", "not-accepted")]
    if not shown:
        fresh = [v for v in verdicts if v.state == "fresh"]
        from adr_memory.history import staleness

        governing = [v for v in fresh if v.reason != staleness.NO_CODE]
        if fresh and not governing:  # nothing is watched, which is not the same as nothing stale
            render.out.print(
                f"Nothing to check: none of the {len(fresh)} accepted decision(s) governs code. Add "
                '`governs: ["src/payments/**"]` to a record (or `adr new --governs GLOB`) and `adr stale` '
                "watches that code."
            )
            return
        render.out.print(f"Nothing stale: {len(governing)} accepted decision(s) still match their code.")
        return
    rows = []
    for v in shown:
        changed = ", ".join(v.changed[:3]) + (f" (+{len(v.changed) - 3})" if len(v.changed) > 3 else "")
        rows.append(
            {
                "ID": v.id,
                "State": Text(v.state, style=_STATE_STYLE.get(v.state, ""))
                + (Text(", disputed", style="bold yellow") if v.disputed else ""),
                "Title": scrub(v.title),
                "Changed": changed,
                "Commits": ""
                if v.commits_since is None
                else f"{v.commits_since}{'' if v.commits_since_complete else '+'}",
                "Days": "" if v.days_since_anchor is None else str(v.days_since_anchor),
                "Reason": scrub(
                    v.reason
                    + (
                        f"; {len(v.disputed)} report(s) here that it is wrong since its last review"
                        if v.disputed
                        else ""
                    )
                ),
            }
        )
    # The reason takes what is left, the title and the changed files wrap in columns of their own;
    # where they do not fit, each decision is stacked (grid.py): no column leaves.
    grid.show(rows, fold="Reason", room=15, caps={"Title": 16, "Changed": 24}, right=("Commits", "Days"))


def why(answer: Mapping[str, Any]) -> None:
    for item in answer["paths"]:
        render.out.print(Text(item["path"], style="bold"))
        if item.get("outside"):
            render.out.print("  outside the repository: no decision governs it")
        elif not item["decisions"] and not item.get("unreadable_sources"):
            render.out.print("  no decision governs this path")
        for unread in item.get("unreadable_sources", []):
            render.out.print(
                Text(f"  unknown: {unread['problem']}; its decisions may govern this path", style="bold yellow")
            )
        for rule in item.get("rules", []):
            render.out.print(Text(f"  rule {rule['rule_id']}: {rule['description']}", style="cyan"))
        for d in item["decisions"]:
            state = Text(d["state"], style=_STATE_STYLE.get(d["state"], ""))
            render.out.print(
                Text(f"  {d['id']} ", style="bold")
                + Text(scrub(d["title"]))
                + Text("  [")
                + Text(d["standing"]["label"], style=STATUS_STYLE.get(d["standing"]["status"], ""))
                + Text(", ")
                + state
                + Text("]")
            )
            if (changed := d["standing"].get("changed")) and not d["in_force"]:  # who retired it, when
                render.out.print(Text("    since: " + render.since(changed), style="dim"))
            if d["excerpt"]:
                render.out.print(Text("    " + d["excerpt"], style="dim"))
        for conflict in item.get("conflicts", []):
            render.out.print(Text(f"  conflict: {conflict['message']}", style="bold red"))
