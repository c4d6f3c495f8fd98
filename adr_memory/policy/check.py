"""`adr check`: every problem in the ADR folder, each with file, line and a hint.

The lint part reads only the work tree: no git history, no index, no model, so it is cheap
enough for a pre-commit hook. Later checks (history, staleness, rules) add findings of their own.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from adr_memory import records
from adr_memory.base import globs
from adr_memory.errors import AdrError
from adr_memory.policy import conflicts, sourcing, succession
from adr_memory.records import ERROR, WARNING, Catalog, Finding, Record, category, standing

# Every kind of finding, for `--fail-on` (which also takes any, none and error).
KINDS = (
    "accepted-edit",
    "binary",
    "collision",
    "conflict",
    "conflict-key",
    "cycle",
    "date",
    "deleted",
    "duplicate-id",
    "encoding",
    "glob-prefix",
    "governs",
    "id-mismatch",
    "merge-conflict",
    "placeholder",
    "renumbered",
    "rule",
    "rule-invalid",
    "schema",
    "scope-missing",
    "secret",
    "source",
    "stale",
    "status",
    "status-backwards",
    "supersession",
    "symlink",
    "title",
    "toml",
    "too-large",
    "unknown",
    "unknown-link",
    "unnamed",
    "unreadable",
    "yaml",
)

# Parse problems that are warnings: the record is still usable as it is.
_WARNING_KINDS = {"status", "title", "glob-prefix", "date"}


def lint(catalog: Catalog, *, only: Iterable[str] | None = None, require_status: bool = False) -> list[Finding]:
    """All lint findings, sorted; with `only`, just those about these repo-relative paths.

    A record without a status is in force (MADR makes status optional); `require_status`
    (the `require-status` setting) makes each one a warning."""
    findings = [
        *_per_record(catalog, require_status),
        *_duplicates(catalog),
        *succession.findings(catalog),
        *_unknown_links(catalog),
        *_cycles(catalog),
        *conflicts.findings(list(catalog)),
        *_unnamed(catalog),
    ]
    if only is not None:
        wanted = set(only)
        findings = [f for f in findings if f.path in wanted]
    return sorted(set(findings))


def fails(findings: Iterable[Finding], fail_on: set[str] | None = None) -> bool:
    """Whether the run should exit 1.

    By default any error fails. `fail_on` names the kinds that fail instead (`any`: every
    finding, warnings included; `none`: never); a source that could not be read fails unless
    `none` is asked.
    """
    if not fail_on:
        return any(f.severity == ERROR for f in findings)
    if "none" in fail_on:
        return False
    if any(f.kind == "source" and f.severity == ERROR for f in findings):
        return True  # the organisation's decisions went unread: whatever else is asked, never a pass
    return any("any" in fail_on or f.kind in fail_on or (f.severity == ERROR and "error" in fail_on) for f in findings)


def _finding(
    rec: Record, kind: str, message: str, line: int = 1, hint: str | None = None, severity: str | None = None
) -> Finding:
    sev = severity or (WARNING if kind in _WARNING_KINDS else ERROR)
    return Finding(rec.path, line, kind, sev, rec.id, message, hint)


def _per_record(catalog: Catalog, require_status: bool) -> Iterator[Finding]:
    for rec in catalog:
        for p in rec.problems:
            yield _finding(rec, p.kind, p.message, p.line, p.hint)
        if rec.unread:
            continue
        if not any(p.kind in records.FRONTMATTER_KINDS for p in rec.problems):  # else every field looks missing
            yield from _status(rec, require_status)
        yield from _identity(rec)
        yield from _governs(rec)
        yield from _credentials(rec)
        yield from _placeholders(rec)


def _status(rec: Record, require_status: bool) -> Iterator[Finding]:
    line = rec.line_of("status")
    if not rec.status_stated:
        if require_status:
            yield _finding(
                rec,
                "status",
                "no status (read as accepted)",
                line,
                'add "status: accepted" to the frontmatter or a "## Status" section',
            )
    elif rec.status == "unknown" and (meant := _misspelt(rec.status_text)):
        # `acceptd` is a typo, not a status of its own: the record would read as not in force
        yield _finding(
            rec,
            "status",
            f"status {rec.status_text!r} is not one of " + ", ".join(records.STATUSES) + f": did you mean {meant}?",
            line,
            f"write status: {meant}",
            severity=ERROR,
        )
    elif rec.status == "unknown":
        yield _finding(
            rec,
            "status",
            f"status {rec.status_text!r} is not one of " + ", ".join(records.STATUSES),
            line,
            "start the status with one of those words; the rest of the text is kept",
        )
    if rec.status == "superseded" and not rec.superseded_by:
        yield _finding(
            rec,
            "supersession",
            "superseded, but by which decision is not said",
            line,
            "adr supersede OLD --by NEW",
            severity=WARNING,
        )
    if not rec.heading and "title" not in rec.meta and records.is_rst(rec.path):
        yield _finding(
            rec,
            "title",
            "no title (no section title before the first section)",
            rec.body_line,
            "start the file with the title over a line of `=` as long as it",
        )
    elif not rec.heading and "title" not in rec.meta:
        yield _finding(
            rec,
            "title",
            "no title (no `# ` heading, no `title:`)",
            rec.body_line,
            "start the body with `# Title of the decision`",
        )
    elif len(rec.title) > records.MAX_TITLE:
        yield _finding(
            rec,
            "title",
            f"the title is {len(rec.title):,} characters: lists and agents show its first {records.MAX_TITLE}",
            rec.body_line,
            "name the decision in a few words; the rest belongs in the body (a blank line after the heading?)",
        )


def _misspelt(text: str) -> str | None:
    """The known status a status word is a letter or two away from (`acceptd`, `Deprectaed`)."""
    import difflib

    word = re.match(r"\W*([^\W\d_]+)", text)
    if word is None or len(word.group(1)) < 5:
        return None
    close = difflib.get_close_matches(word.group(1).lower(), records.STATUSES, n=1, cutoff=0.8)
    return close[0] if close else None


# The sections an accepted decision cannot leave empty: what was decided and what follows
# (Nygard's and MADR's names); an empty "More Information" may be meant.
_SAID = frozenset({"decision", "decision outcome", "consequences"})


def placeholders(rec: Record) -> list[Finding]:
    """What `check` says of one record's unwritten sections (`adr accept` says it at once)."""
    return list(_placeholders(rec))


def _placeholders(rec: Record) -> Iterator[Finding]:
    """An accepted decision whose sections still hold the template's placeholders: agents and
    reviewers would read an empty decision."""
    if rec.status != "accepted" or not rec.status_stated:
        return
    from adr_memory.records import says_nothing

    sections = rec.sections
    for i, section in enumerate(sections):
        has_subsections = i + 1 < len(sections) and sections[i + 1].level > section.level
        if not section.text.strip() and not has_subsections and section.heading.strip().lower() in _SAID:
            yield _finding(
                rec,
                "placeholder",
                f"section {section.heading!r} is empty",
                section.line,
                "write what was decided and what follows from it, or delete the heading",
                severity=WARNING,
            )
        if section.text and not has_subsections and says_nothing(section.text, records.is_rst(rec.path)):
            yield _finding(
                rec,
                "placeholder",
                f"section {section.heading!r} still holds the template's placeholders",
                section.line,
                "write the section, or delete it if it does not apply",
                severity=WARNING,
            )


def _identity(rec: Record) -> Iterator[Finding]:
    if rec.number is None or "id" not in rec.meta:
        return
    if rec.id != records.format_id(rec.number) and rec.id.upper().startswith("ADR-"):
        yield _finding(
            rec,
            "id-mismatch",
            f"id {rec.id} does not match the file number {rec.number}",
            rec.line_of("id"),
            "rename the file or fix `id:`; ids must not change",
        )


def _governs(rec: Record) -> Iterator[Finding]:
    for glob in rec.governs:
        why = globs.problem(glob)
        if why:
            yield _finding(
                rec,
                "governs",
                f"governs glob {glob!r} {why}",
                rec.line_of("governs"),
                'globs are repo-relative, e.g. "src/db/**"',
            )
        elif not globs.literal_prefix(glob):
            yield _finding(
                rec,
                "glob-prefix",
                f"governs glob {glob!r} has no folder prefix; staleness must diff the whole tree for it",
                rec.line_of("governs"),
                'anchor it, e.g. "src/**/x.py" rather than "**/x.py"',
            )


def _credentials(rec: Record) -> Iterator[Finding]:
    from adr_memory.records import credentials

    for hit in dict.fromkeys(credentials.hits(rec)):
        yield _finding(
            rec,
            "secret",
            f"this line looks like {hit.what}",
            hit.line,
            "remove it and rotate the credential: git history keeps it",
        )
    if (what := credentials.in_name(rec.path)) is not None:
        yield _finding(
            rec,
            "secret",
            f"the file name looks like it holds {what}",
            1,
            "git mv it to a name without it and rotate the credential: git history keeps it",
        )


def _unnamed(catalog: Catalog) -> Iterator[Finding]:
    """A decision written beside numbered records without a number: nothing reads it."""
    numbers: dict[str, int] = {}
    for rec in catalog.unnamed:
        folder, name = rec.path.rsplit("/", 1) if "/" in rec.path else ("", rec.path)
        group = category(catalog.adr_dir, rec)
        number = numbers[group] = numbers.get(group) or catalog.next_number(group)
        numbers[group] += 1
        renamed = f"{folder}/{catalog.numbered_name(number, name)}".lstrip("/")
        yield _finding(
            rec,
            "unnamed",
            "reads like a decision, but its name has no number, so it is no "
            "record: list, search and stale do not see it",
            1,
            f"git mv {rec.path} {renamed}",
            severity=WARNING,
        )


def _duplicates(catalog: Catalog) -> Iterator[Finding]:
    by_id: dict[str, list[Record]] = defaultdict(list)
    for rec in catalog:
        by_id[rec.id].append(rec)
    for ident, recs in by_id.items():
        if len(recs) > 1:
            paths = ", ".join(r.path for r in recs)
            for rec in recs:
                yield _finding(
                    rec,
                    "duplicate-id",
                    f"{ident} is used by {len(recs)} files: {paths}",
                    1,
                    "renumber the newer one (`git mv`), then fix links to it",
                )


_QUALIFIED_ID = re.compile(r"\A[a-z0-9][a-z0-9_-]{0,39}:\S")  # a source's id; anchored: linear on any text


def _unknown_links(catalog: Catalog) -> Iterator[Finding]:
    known = catalog.ids()
    for rec in catalog:
        for link in rec.links:
            if link.target not in known and not _QUALIFIED_ID.match(link.target):  # a source's: `check` reads those
                yield _finding(
                    rec,
                    "unknown-link",
                    f"{link.rel} {link.target}: no such decision",
                    link.line or 1,
                    "`adr list` shows the ids",
                    severity=WARNING,
                )


def _cycles(catalog: Catalog) -> Iterator[Finding]:
    """A supersedes B supersedes ... A: no decision in the loop can be current.

    Edges are gathered in one pass, and a loop is looked for only from a decision that lies on
    one (a strongly connected group) and is not in a loop already reported: every record
    against every other, and a search from each, made 6,000 records 30 s of `adr check`."""
    edges: dict[str, set[str]] = {r.id: set(r.supersedes) for r in catalog}
    for other in catalog:
        for target in other.superseded_by:
            if target in edges:
                edges[target].add(other.id)
    by_id = {r.id: r for r in catalog}
    looped = _on_loops(edges)
    reported: set[frozenset[str]] = set()
    covered: set[str] = set()
    for start in edges:
        if start not in looped or start in covered:
            continue
        path = _cycle_from(start, edges)
        if path and frozenset(path) not in reported:
            reported.add(frozenset(path))
            covered.update(path)
            # A loop of thousands is named by its first few: every member gets this message.
            loop = " -> ".join(path[:6] + ([start] if len(path) <= 6 else [f"... ({len(path):,} decisions)"]))
            for member in path:  # every file in the loop is part of the fix
                yield _finding(
                    by_id[member],
                    "cycle",
                    f"supersession cycle: {loop}",
                    1,
                    "one of these decisions must be the current one",
                )


def _on_loops(edges: dict[str, set[str]]) -> set[str]:
    """The nodes that lie on a loop: those of strongly connected groups of two or more, and
    those with an edge to themselves (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[str] = set()
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, nexts = work[-1]
            for nxt in nexts:
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in edges[node]:
                        found.update(group)
    return found


def _cycle_from(start: str, edges: dict[str, set[str]]) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in edges.get(node, ()):
            if nxt == start:
                return path
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


@dataclass(frozen=True)
class Outcome:
    """What `adr check` reports, and (with `--base`) how many findings it left out because they
    were already there, in records the branch did not touch."""

    findings: list[Finding]
    untouched: list[Finding] = field(default_factory=list)

    def untouched_line(self) -> str | None:
        if not self.untouched:
            return None
        errors = sum(f.severity == ERROR for f in self.untouched)
        parts = [f"{n} {word}" for n, word in ((errors, "error(s)"), (len(self.untouched) - errors, "warning(s)")) if n]
        return f"{' and '.join(parts)} in untouched records, already there before this change: `adr check` lists them"


def run(
    ws: Any, *, only: Iterable[str] | None = None, base: str | None = None, rules_only: bool = False, change: Any = None
) -> Outcome:
    """Every check `adr check` runs: lint; with `base`, the branch's changes (`change`, when
    the caller already compared) and only what the branch is answerable for; rules when the
    decisions carry any. `adr review` reports the same. Heavy parts are imported on demand."""
    require_status = ws.config.require_status == "true"
    findings = lint(ws.catalog, require_status=require_status)
    if rules_only:  # a rules block that does not parse must not pass silently
        findings = [f for f in findings if f.kind in (*records.FRONTMATTER_KINDS, "schema")]
    untouched: list[Finding] = []
    if base is not None and not rules_only:
        from adr_memory.policy import branch

        change = change or branch.compare(ws, base)
        findings, untouched = _scope(findings, change.changed_files, lint(change.before, require_status=require_status))
        findings += branch.findings(ws, change)
        if ws.config.sources:
            findings += sourcing.moved_pins(ws, change.base)
    if not rules_only:
        missing = _scope_missing(ws, change if base is not None else None)
        if base is not None:  # a branch answers for the records it touched; the rest were so before
            untouched += [f for f in missing if f.path not in change.changed_files]
            missing = [f for f in missing if f.path in change.changed_files]
        findings += missing
    if ws.config.sources:  # a source that cannot be read fails every mode: its rules went unchecked
        findings += sourcing.unreadable(ws) if rules_only else sourcing.across(ws)
    if any(r.rules for r in ws.decisions):
        from adr_memory.policy import rules

        findings += rules.check(ws, base=base)
    if only is not None:  # a source that cannot be read is said whichever files were named
        wanted = set(only)
        findings = [f for f in findings if f.path in wanted or (f.kind == "source" and f.severity == ERROR)]
    return Outcome(sorted(set(findings)), sorted(set(untouched)))


def _scope_missing(ws: Any, change: Any = None) -> list[Finding]:
    """A decision in force whose `governs` glob matches no file at HEAD: a warning (a typo, or
    code moved away, leaves the decision governing nothing and never stale); on a branch that
    adds the glob or changes it, an error: the branch wrote it so."""
    from adr_memory.history import staleness

    held = standing.of(ws.catalog)
    live = [r for r in ws.catalog if held[r.path].in_force and r.governs]
    try:
        missing = staleness.unmatched(ws, live)
    except AdrError:  # git cannot say (no repository, a damaged one): the other checks stand
        return []
    before = {r.id: set(r.governs) for r in change.before} if change is not None else {}
    out = []
    for rec in live:
        line = _governs_line(ws, rec) if missing.get(rec.path) else 1  # read once a record, not once a glob
        for glob in missing.get(rec.path, ()):
            written = change is not None and glob not in before.get(rec.id, set())
            out.append(
                Finding(
                    rec.path,
                    line,
                    "scope-missing",
                    ERROR if written else WARNING,
                    rec.id,
                    f"governs glob {glob!r} matches no file at HEAD" + (": this branch wrote it" if written else ""),
                    "fix the glob (a typo?), or remove it if the code is gone",
                )
            )
    return out


def _governs_line(ws: Any, rec: Record) -> int:
    """The line that writes `governs:`, else the record's first."""
    try:
        lines = records.split_lines((ws.root / rec.path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return 1
    return records.key_lines(lines).get("governs", 1)


def _scope(findings: list[Finding], changed: set[str], before: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """(findings the branch answers for, findings already there in records it did not touch).
    A finding on an untouched record that is new (a link the branch broke) is the branch's."""
    old = {(f.path, f.kind, f.id, f.message) for f in before}
    mine = [f for f in findings if f.path in changed or (f.path, f.kind, f.id, f.message) not in old]
    return mine, [f for f in findings if f not in set(mine)]
