"""`adr review --base REF`: what a reviewer needs to know about a pull request's decisions.

Written to read well as a GitHub PR comment: headings, small tables, long diffs collapsed in
<details>; and short when nothing relevant changed.
"""

from __future__ import annotations

import re
from typing import Any

from adr_memory.base import safe
from adr_memory.records import first_few

# GitHub refuses a comment over 65,536 characters, and the README's workflow posts this report
# as one: a pull request that rewrites a long specification must not fail its own CI.
MAX_CHARS = 65_000


def _shown(row: dict[str, Any]) -> str:
    """A decision's status as its standing reads: `accepted; ADR-0009 proposed`."""
    held = row.get("standing")
    return str(held["label"]) if held else str(row["status"])


def _replacing(row: dict[str, Any]) -> str:
    """What a new decision replaces, or would once accepted: a reviewer sees what it retires."""
    named = row.get("supersedes") or []
    if not named:
        return ""
    return f"; {'replaces' if row['status'] == 'accepted' else 'would replace'} {_cell(', '.join(named))}"


def markdown(data: dict[str, Any], limit: int = MAX_CHARS) -> str:
    """The report in at most `limit` characters: past it, the longest diffs give way first to a
    line naming the command that shows them, then the report is cut at a line and says so."""
    text = _markdown(data, set())
    if len(text) <= limit:
        return text
    blocks = sorted(((len(r["diff"]), r["id"]) for r in data["new_versions"]), reverse=True)
    folded: set[str] = set()
    over = len(text) - limit
    for size, rid in blocks:
        if over <= 0:
            break
        folded.add(rid)
        over -= size - 200  # what a folded diff's line leaves, at most
    text = _markdown(data, folded)
    if len(text) > limit:  # long titles or many rows: no diff is left open where the cut falls
        text = _markdown(data, {r["id"] for r in data["new_versions"]})
    if len(text) <= limit:
        return text
    note = (
        f"\n\n… the report stops here, at {limit:,} characters (a pull-request comment's size); "
        "`adr review --format json` has all of it.\n"
    )
    head = text[: limit - len(note)]
    return head[: head.rfind("\n")].rstrip() + note


def _markdown(data: dict[str, Any], folded: set[str]) -> str:
    lines = [f"## Architecture decisions in this change (vs `{data['base']}`)", ""]
    if not any(
        data[k]
        for k in (
            "added",
            "new_versions",
            "status_changes",
            "deleted",
            "governing",
            "made_stale",
            "disputed",
            "findings",
        )
    ):
        return "\n".join(lines + ["No decision records changed, and no governed code was touched."])
    if data["added"]:
        lines += ["### New decisions", "", "| id | title | status |", "|---|---|---|"]
        lines += [
            f"| {_cell(r['id'])} | [{_cell(r['title'])}]({_url(r['path'])}) | {r['status']}{_replacing(r)} |"
            for r in data["added"]
        ]
        lines.append("")
    if data["new_versions"]:
        lines += ["### Decisions with a new version", ""]
        for r in data["new_versions"]:
            if r["id"] in folded:
                lines += [
                    f"* **{_cell(r['id'])}** {_cell(r['title'])} ({r['status']}): "
                    f"{r['diff'].count(chr(10)) + 1:,} lines of diff, too long for this "
                    f"comment; {_code('adr diff ' + r['id'])} shows them",
                    "",
                ]
                continue
            summary = f"<b>{_html(r['id'])}</b> {_html(r['title'])} ({r['status']})"
            lines += [*_collapsed(summary, r["diff"]), ""]
    if data["status_changes"]:
        lines += ["### Status changes", "", "| id | title | from | to |", "|---|---|---|---|"]
        for r in data["status_changes"]:
            to = r["standing"]["text"] if r.get("standing") else r["to"]
            lines.append(f"| {_cell(r['id'])} | {_cell(r['title'])} | {r['from']} | {_cell(to)} |")
        lines.append("")
    for m in data.get("sources_moved", []):
        lines += [f"### Source {_cell(m['source'])} moves to {_code(m['after'][:10])}", ""]
        lines += [f"* added: **{_cell(r['id'])}** {_cell(r['title'])} ({r['status']})" for r in m["added"]]
        lines += [f"* retired: **{_cell(r['id'])}** {_cell(r['title'])} ({r['status']})" for r in m["retired"]]
        for r in m["changed"]:
            lines += _collapsed(f"changed: <b>{_html(r['id'])}</b> {_html(r['title'])}", r["diff"])
        if m.get("violations"):
            lines += ["", f"This repository's code breaks {len(m['violations'])} rule(s) it brings:", ""]
            lines += [
                f"* {_code(v['path'])}:{v['line']}: {_cell(v['message'])} ({_cell(v['id'])})"
                for v in m["violations"][:20]
            ]
        lines.append("")
    if data["deleted"]:
        lines += (
            ["### Deleted decisions", ""] + [f"* {_cell(r['id'])} {_cell(r['title'])}" for r in data["deleted"]] + [""]
        )
    if data["governing"]:
        lines += ["### Decisions governing the code this change touches", ""]
        for r in data["governing"]:
            files = first_few([_code(f) for f in r["files"]])
            lines += [
                f"* **{_cell(r['id'])}** {_cell(r['title'])} ({_shown(r)}, {r['state']}): {files}",
                f"  > {_cell(r['excerpt'])}" if r["excerpt"] else "",
            ]
        lines.append("")
    if data["made_stale"]:
        lines += ["### Decisions this change makes stale", ""]
        lines += [
            f"* **{_cell(v['id'])}** {_cell(v['title'])}: {_cell(first_few(v['changed']))}; {_cell(v['advice'])}"
            for v in data["made_stale"]
        ]
        lines.append("")
    if data.get("disputed"):
        lines += [
            "### Disputed decisions",
            "",
            "Someone who relied on these reported them wrong since their last review "
            "(`adr feedback`); review them, then `adr affirm ID` or supersede.",
            "",
        ]
        lines += [
            f"* **{_cell(v['id'])}** {_cell(v['title'])}: " + _cell("; ".join(v["dispute_notes"][:3]))
            for v in data["disputed"]
        ] + [""]
    if data["findings"]:
        lines += ["### Check findings", ""] + findings_table(data["findings"])
    if data.get("untouched"):
        lines += ["", data["untouched"]]
    return "\n".join(line for line in lines).rstrip() + "\n"


def _cell(text: str) -> str:
    """Record text in a table cell or list item: one line, no markdown or HTML interpreted."""
    return safe.markdown_inline(str(text))


def _collapsed(summary: str, diff: str) -> list[str]:
    """A diff folded under a summary line (`summary` already escaped for HTML)."""
    fence = _fence(diff)
    return [f"<details><summary>{summary}</summary>", "", fence + "diff", safe.terminal(diff), fence, "", "</details>"]


def _html(text: str) -> str:
    """Record text inside an HTML element (`<summary>`): GitHub reads no markdown there, so a
    markdown escape would show its backslash; HTML escapes hold it, and no one is mentioned."""
    return safe.html_inline(str(text))


def _code(text: str) -> str:
    """Record text as an inline code span in a table: it cannot close the span or the cell."""
    return "`" + safe.one_line(str(text)).replace("`", "'").replace("|", "\\|") + "`"


def _url(path: str) -> str:
    from urllib.parse import quote

    return quote(path)


def _fence(text: str) -> str:
    """A code fence longer than any backtick run in the text, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def findings_table(findings: list[dict[str, Any]]) -> list[str]:
    """Check findings (their JSON form) as a markdown table."""
    rows = ["| | file | kind | message |", "|---|---|---|---|"]
    for f in findings:
        icon = "❌" if f["severity"] == "error" else "⚠️"
        where = _code(f"{f['path']}:{int(f['line'])}")
        rows.append(f"| {icon} | {where} | {f['kind']} | {_cell(f['message'])} |")
    return rows
