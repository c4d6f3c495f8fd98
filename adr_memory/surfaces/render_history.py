"""History for people and machines: the timeline, a record's log, the staleness table and the
`why` answer, as rich tables and as JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from adr_memory.records import Record, redacted, scrub
from adr_memory.surfaces import render  # render.out, read at each call: one console, whoever swaps it
from adr_memory.surfaces.render import STATUS_STYLE, _id_column, _table, day


def timeline(events: Sequence[Any]) -> None:
    """`adr log` without an id: decision events, newest first."""
    if not events:
        render.out.print("No decision events in this history.")
        return
    ids = [e.id for e in events]
    widths = {
        "Date": 10,
        "Commit": 7,
        "Author": min(12, max(len(e.author.split(" <")[0]) for e in events)),
        "ID": min(24, max(len(i) for i in ids)),
        "Event": max(len("Event"), *(len(e.kind) for e in events)),
    }
    # On a narrow terminal the commit, the author, then the date leave; the id never folds.
    kept = render.fitted(list(widths.items()), ("Commit", "Author", "Date"), room=20)
    table = _table()
    for name in ("Date", "Commit", "Author"):
        if name in kept:
            table.add_column(name, no_wrap=True, overflow="ellipsis", width=max(len(name), widths[name]))
    _id_column(table, ids)
    table.add_column("Event", no_wrap=True, width=widths["Event"])
    room = render.left_for_title(max(len(n), widths[n]) for n in kept)
    table.add_column("Title / detail", overflow="fold", max_width=room)
    for e in events:
        text = scrub(e.title) + (f" ({scrub(e.detail)})" if e.detail else "")
        cells = {"Date": day(e.date), "Commit": e.commit[:7], "Author": e.author.split(" <")[0]}
        table.add_row(*(cells[n] for n in ("Date", "Commit", "Author") if n in kept), e.id, e.kind, text)
    render.out.print(table)


def log_table(rec: Record, versions: Sequence[Any]) -> None:
    rec = redacted(rec)
    render.out.print(Text(f"{rec.id}: {rec.title}", style="bold"))
    table = _table()
    # The message gets the room: readable at 80 columns (short commit, author cut short).
    table.add_column("Version", no_wrap=True, width=13)
    table.add_column("Commit", no_wrap=True, width=7)
    table.add_column("Date", no_wrap=True, width=10)
    table.add_column("Author", no_wrap=True, max_width=12, overflow="ellipsis")
    table.add_column("Status", overflow="fold", max_width=22)
    table.add_column("Message", overflow="fold", ratio=1)
    for v in versions:  # newest first; a version's status changes and reviews follow it, newest first too
        for r in reversed(v.reviews):
            table.add_row(
                "  ↳",
                r.commit[:7],
                day(r.date),
                r.author.split(" <")[0],
                Text("affirmed", style="green"),
                scrub(r.note),
            )
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
    render.out.print(table)


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
    # The reason folds over lines at most 30 wide; the rest stay on one line each, and on a
    # narrow terminal the days, the commits, the changed files, then the reason leave.
    widths = {n: max(len(n), *(len(str(r[n])) for r in rows)) for n in rows[0]}
    widths["Changed"], widths["Reason"] = min(widths["Changed"], 30), min(widths["Reason"], 30)
    kept = render.fitted(
        [(n, w) for n, w in widths.items() if n not in ("ID", "Title")] + [("ID", widths["ID"])],
        ("Days", "Commits", "Changed", "Reason"),
        room=15,  # here the reason is what a reader came for: the title gives way sooner
    )
    table = _table()
    _id_column(table, [v.id for v in shown])
    others = [n for n in ("State", "Changed", "Commits", "Days", "Reason") if n in kept]
    title_room = render.left_for_title([widths["ID"], *(widths[n] for n in others)])
    for name in ("State", "Title", "Changed", "Commits", "Days", "Reason"):
        if name == "Title":
            table.add_column("Title", no_wrap=True, overflow="ellipsis", max_width=title_room)
        elif name == "Reason" and name in kept:
            table.add_column("Reason", overflow="fold", width=widths["Reason"])
        elif name in kept:
            numbers = name in ("Commits", "Days")
            table.add_column(
                name, no_wrap=True, overflow="ellipsis", width=widths[name], justify="right" if numbers else "left"
            )
    names = ["ID", *(str(c.header) for c in table.columns[1:])]
    for row in rows:
        table.add_row(*(row[n] for n in names))
    render.out.print(table)


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
            if d["excerpt"]:
                render.out.print(Text("    " + d["excerpt"], style="dim"))
        for conflict in item.get("conflicts", []):
            render.out.print(Text(f"  conflict: {conflict['message']}", style="bold red"))
