"""Rules: typed checks an accepted decision carries in its frontmatter, enforced by `adr check`.

Rules are data; nothing from an ADR is ever run. Types: `forbid` (no line may match; literal,
or a regular expression with `regex: true`), `require` (every file in scope contains it),
`forbid-path` (no file may exist there), `require-path` (at least one file must). Each may
say where it applies (`in`) and where not (`except`), and what to tell the reader (`message`).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adr_memory.base import globs, read_capped, safe
from adr_memory.errors import TooLarge
from adr_memory.history import Workspace, branch_range
from adr_memory.records import ERROR, Finding, Record, catalog, standing

if TYPE_CHECKING:
    from adr_memory.history import Repo

TYPES = ("forbid", "require", "forbid-path", "require-path")
_OPTIONS = {"message", "in", "except", "regex"}
MAX_LINE = 2_000  # longer lines are cut before matching: minified files must not stall a check
MAX_BYTES = 2_000_000  # larger files are skipped (generated or vendored)


@dataclass(frozen=True)
class Rule:
    decision: str
    type: str
    value: str
    regex: bool
    message: str
    within: tuple[str, ...]
    exclude: tuple[str, ...]
    rule_id: str

    def describe(self) -> str:
        scope = f" in {', '.join(self.within)}" if self.within else ""
        scope += f" except {', '.join(self.exclude)}" if self.exclude else ""
        kind = "regex " if self.regex else ""
        return f"{self.type} {kind}{self.value!r}{scope}"

    def applies_to(self, path: str) -> bool:
        return (not self.within or globs.any_match(self.within, path)) and not globs.any_match(self.exclude, path)


def rule_id(decision: str, kind: str, value: str, regex: bool, within: Sequence[str], exclude: Sequence[str]) -> str:
    """A hash of what the rule says, not where it stands: it survives new versions."""
    body = json.dumps(
        {"type": kind, "value": value, "regex": regex, "in": sorted(within), "except": sorted(exclude)}, sort_keys=True
    )
    return f"{decision}:{kind.upper()}:{hashlib.sha256(body.encode()).hexdigest()[:32]}"


def parse_rules(rec: Record) -> tuple[list[Rule], list[Finding]]:
    """The record's rules, and a finding for each one that cannot be used."""
    rules: list[Rule] = []
    problems: list[Finding] = []
    for index, raw in enumerate(rec.rules, start=1):
        rule, why = parse_one(rec.id, raw)
        if rule is None:
            problems.append(
                Finding(
                    rec.path,
                    rec.line_of("rules"),
                    "rule-invalid",
                    ERROR,
                    rec.id,
                    f"rule {index} {why}",
                    "see docs/checks.md, Rules",
                )
            )
        else:
            rules.append(rule)
    return rules, problems


def parse_one(decision: str, raw: Any) -> tuple[Rule | None, str]:
    if not isinstance(raw, Mapping):
        return None, 'is not a mapping like {forbid: "text"}'
    kinds = [k for k in raw if k in TYPES]
    unknown = [k for k in raw if k not in TYPES and k not in _OPTIONS]
    if unknown:
        return None, f"has unknown key {unknown[0]!r} (types: {', '.join(TYPES)})"
    if len(kinds) != 1:
        return None, f"must have exactly one of: {', '.join(TYPES)}"
    kind = kinds[0]
    value = raw[kind]
    if not isinstance(value, str) or not value:
        return None, f"{kind} must be non-empty text"
    within, exclude = _globs(raw.get("in")), _globs(raw.get("except"))
    if within is None or exclude is None:
        return None, "`in` and `except` must be lists of globs"
    for glob in (*within, *exclude, *((value,) if kind.endswith("-path") else ())):
        why = globs.problem(glob)
        if why:
            return None, f"glob {glob!r} {why}"
    regex = bool(raw.get("regex", False))
    if regex:
        try:
            _compile(value)
        except ValueError as exc:
            return None, f"regex {value!r} cannot be used: {exc}"
    message = str(raw.get("message") or f"{kind} {value!r}")
    return Rule(
        decision, kind, value, regex, message, within, exclude, rule_id(decision, kind, value, regex, within, exclude)
    ), ""


def _globs(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def active(records: Iterable[Record]) -> tuple[list[Rule], list[Finding]]:
    """Rules of the decisions in force (records/standing.py): a decision's rules stop applying
    the moment its successor is accepted, and a local decision superseding a source's is this
    repository's exception to the organisation's rule."""
    records = list(records)
    held = standing.of(records)
    rules: list[Rule] = []
    problems: list[Finding] = []
    for rec in records:
        if not rec.rules:
            continue
        parsed, bad = parse_rules(rec)
        problems += bad
        if held[rec.path].in_force:
            rules += parsed
    return rules, problems


# ---------------------------------------------------------------------------- enforcement


@dataclass(frozen=True)
class Violation:
    rule: Rule
    path: str
    line: int
    col: int


def scan(files: Mapping[str, Any], rules: Sequence[Rule], read: Any) -> list[Violation]:
    """Every violation: each file is read once for all the content rules that apply to it,
    each line matched once against all of them (RE2 sets), each path once against all path
    rules. A record may carry thousands of rules: one pass per rule made 1,000 rules over
    1,000 files of 50 lines take 60 s."""
    out: list[Violation] = []
    content = [r for r in rules if r.type in ("forbid", "require")]
    compiled = {r.rule_id: _compile(_pattern(r)) for r in content}
    scopes = _Scopes(content)
    for path in files:
        applicable = scopes.applying(path)
        if applicable:
            text = read(path)
            if text is not None:
                out += _scan_text(path, text, applicable, compiled)
    return out + _path_violations(files, [r for r in rules if r.type.endswith("-path")])


class _Scopes:
    """Rules grouped by where they apply (`in`, `except`), so each scope is matched against a
    path once, not once per rule."""

    def __init__(self, rules: list[Rule]) -> None:
        self._groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[int]] = {}
        for n, rule in enumerate(rules):
            self._groups.setdefault((rule.within, rule.exclude), []).append(n)
        self._rules = rules

    def applying(self, path: str) -> list[Rule]:
        """The rules that apply to `path`, in their order."""
        found = [n for members in self._groups.values() if self._rules[members[0]].applies_to(path) for n in members]
        return [self._rules[n] for n in sorted(found)]


def _path_violations(files: Mapping[str, Any], rules: list[Rule]) -> list[Violation]:
    """forbid-path: each file it matches; require-path: the rule itself when no file matches.
    Every path is matched once against all the globs (`globs.GlobSet`)."""
    if not rules:
        return []
    matching = globs.glob_set(tuple(r.value for r in rules))
    hits: dict[int, list[str]] = {n: [] for n in range(len(rules))}
    for path in files:
        for n in matching.matching(path):
            if (rules[n].type == "forbid-path" or not hits[n]) and rules[n].applies_to(path):
                hits[n].append(path)
    out: list[Violation] = []
    for n, rule in enumerate(rules):
        if rule.type == "forbid-path":
            out += [Violation(rule, p, 1, 1) for p in hits[n]]
        elif not hits[n]:
            out.append(Violation(rule, rule.value, 0, 0))
    return out


def _compile(pattern: str) -> Any:
    """A pattern compiled by RE2 (`safe.linear`): a rule from a pull request cannot stall CI
    with catastrophic backtracking; one RE2 cannot take is refused with the engine's reason."""
    try:
        return safe.linear(pattern)
    except ValueError as exc:
        raise ValueError(f"{exc} (rules use RE2 syntax: no backreferences or lookaround)") from None


def _matcher(rule: Rule) -> Any:
    """`search(line)` for the rule's text; a literal is escaped, so both kinds share one path."""
    return _compile(_pattern(rule)).search


def _scan_text(path: str, text: str, rules: Sequence[Rule], compiled: Mapping[str, Any]) -> Iterator[Violation]:
    """Violations in one file; `compiled` holds each rule's RE2 pattern by rule id."""
    lines = [line[:MAX_LINE] for line in text.split("\n")]
    hits = _hits(lines, [compiled[r.rule_id] for r in rules])
    for n, rule in enumerate(rules):
        if rule.type == "require":
            if not hits[n]:
                yield Violation(rule, path, 1, 1)
            continue
        for number in hits[n]:
            found = compiled[rule.rule_id].search(lines[number - 1])
            yield Violation(rule, path, number, found.start() + 1)


def _hits(lines: list[str], patterns: list[Any]) -> list[list[int]]:
    """Per pattern, the numbers of the lines it matches. A few patterns search each line
    alone; more share RE2 sets, one pass over a line per set."""
    if len(patterns) <= _ALONE:
        return [[n for n, line in enumerate(lines, start=1) if p.search(line)] for p in patterns]
    hits: list[list[int]] = [[] for _ in patterns]
    sets, alone = _content_sets(tuple(p.pattern for p in patterns))
    for number, line in enumerate(lines, start=1):
        for found, members in sets:
            for i in found.Match(line) or ():
                hits[members[i]].append(number)
        for n in alone:
            if patterns[n].search(line):
                hits[n].append(number)
    return hits


_ALONE = 4  # up to this many rules a file, each searches alone (no set to build)


@lru_cache(maxsize=64)
def _content_sets(patterns: tuple[str, ...]) -> tuple[list[tuple[Any, list[int]]], list[int]]:
    """RE2 sets for the patterns, and the patterns no set took (those search alone)."""
    sets = safe.linear_sets(list(enumerate(patterns)), search=True)
    taken = {n for _, members in sets for n in members}
    return sets, [n for n in range(len(patterns)) if n not in taken]


def _pattern(rule: Rule) -> str:
    return rule.value if rule.regex else re.escape(rule.value)


def check(ws: Workspace, *, base: str | None = None) -> list[Finding]:
    """Rule findings for `adr check`: invalid rules, and violations (only new ones with a base)."""
    rules, problems = active(ws.decisions)  # a source's rules bind this repository's code too
    if not rules:
        return problems
    files = _files(ws.repo, ws.root, ws.adr_dir)
    violations = scan(files, rules, lambda p: _read(ws.root, p))
    if base is not None:
        # A pin this branch moves brings the source's new and changed rules: those are judged on
        # the whole repository, which the merge makes them bind (ADR-0101); the rest, on what
        # the branch wrote (legacy code does not block a PR).
        arrived = _brought_by_pins(ws, base)
        violations = [v for v in violations if v.rule.decision in arrived] + _new_only(
            ws.repo, ws.root, base, [v for v in violations if v.rule.decision not in arrived]
        )
    return problems + [_finding(v) for v in violations]


def _brought_by_pins(ws: Workspace, base: str) -> set[str]:
    """Ids of the source decisions a branch adds or changes by moving a pin."""
    if not ws.config.sources:
        return set()
    from adr_memory.history import sources

    merge_base = branch_range(ws.repo, base).base
    return {r.id for m in sources.moved(ws, merge_base) for r in [*m.added, *(new for _old, new in m.changed)]}


def _files(repo: Repo, root: Path, adr_dir: str) -> dict[str, None]:
    """Tracked files that exist in the work tree, outside the ADR folder (whose own text
    quotes the rules)."""
    return {p: None for p in sorted(repo.tracked_paths()) if catalog.outside(adr_dir, p) and (root / p).is_file()}


def _read(root: Path, path: str) -> str | None:
    full = root / path
    if full.is_symlink():
        return None  # git stores a link's target, not what it points at (maybe outside the repo)
    try:
        data = read_capped(full, MAX_BYTES)
    except (OSError, TooLarge):
        return None  # huge (generated, vendored) or not a file: not source we judge line by line
    return None if b"\x00" in data[:8192] else data.decode("utf-8", errors="replace")


def _new_only(repo: Repo, root: Path, base_ref: str, violations: list[Violation]) -> list[Violation]:
    """Keep violations on lines or files this branch added (legacy code does not block a PR)."""
    base = branch_range(repo, base_ref).base
    added: dict[str, set[int] | None] = {}
    out = []
    for v in violations:
        if v.rule.type == "require-path":
            if any(
                globs.matches(v.rule.value, p)
                for p, _ in repo.files(repo.commit(base).tree, globs.literal_prefix(v.rule.value))
            ):
                out.append(v)  # this change removed the last such file
            continue
        if v.path not in added:
            added[v.path] = _added_lines(repo, root, base, v.path)
        if _is_new(repo, base, v, added[v.path]):
            out.append(v)
    return out


def _is_new(repo: Repo, base: str, v: Violation, added: set[int] | None) -> bool:
    if added is None:
        return True  # the whole file is new
    if v.rule.type == "forbid":
        return v.line in added
    if v.rule.type == "require":
        return _base_has(repo, base, v)
    return False  # forbid-path on a file that already existed


def _added_lines(repo: Repo, root: Path, base: str, path: str) -> set[int] | None:
    """Line numbers (1-based, current file) added since the base; None for a new file."""
    old = _base_bytes(repo, base, path)
    if old is None:
        return None
    new = _read(root, path) or ""
    matcher = difflib.SequenceMatcher(None, old.decode("utf-8", "replace").split("\n"), new.split("\n"), autojunk=False)
    lines: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            lines.update(range(j1 + 1, j2 + 1))
    return lines


def _base_bytes(repo: Repo, base: str, path: str) -> bytes | None:
    """The file at the base, None where it is missing or too large to judge (as in the work tree)."""
    try:
        return repo.read(base, path, limit=MAX_BYTES)
    except TooLarge:
        return None


def _base_has(repo: Repo, base: str, v: Violation) -> bool:
    """A `require` violation is new only if the base version of the file satisfied the rule."""
    old = _base_bytes(repo, base, v.path)
    if old is None:
        return True
    match = _matcher(v.rule)
    return any(match(line[:MAX_LINE]) for line in old.decode("utf-8", "replace").split("\n"))


def _finding(v: Violation) -> Finding:
    return Finding(
        v.path,
        v.line,
        "rule",
        ERROR,
        v.rule.decision,
        v.rule.message,
        f"{v.rule.describe()} ({v.rule.decision})",
        col=v.col,
        rule_id=v.rule.rule_id,
    )


def for_path(records: Iterable[Record], path: str) -> list[Rule]:
    """The active rules that apply to a path (for `adr why`)."""
    rules, _ = active(records)
    return [
        r
        for r in rules
        if r.applies_to(path)
        and (r.type in ("forbid", "require") or (r.type == "forbid-path" and globs.matches(r.value, path)))
    ]
