"""Conflicts between decisions in force: rules that contradict on overlapping scope, and two
decisions holding one single-valued `conflict-key` (ARCHITECTURE.md §6). Superseding one of
them resolves it. Read from the committed records only; nothing here touches git."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adr_memory import globs
from adr_memory.findings import ERROR, Finding
from adr_memory.record import Record

if TYPE_CHECKING:
    from adr_memory.rules import Rule

KEY = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)*$")
CARDINALITIES = ("single", "multi")
# Rule types that cannot both hold for the same text or path.
_OPPOSITE = {"forbid": "require", "forbid-path": "require-path"}


@dataclass(frozen=True)
class Conflict:
    kind: str  # "rules" or "key"
    ids: tuple[str, str]  # (older, newer)
    message: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "ids": list(self.ids), "message": self.message}


def in_force(records: Iterable[Record]) -> list[Record]:
    """Accepted decisions (a stated or unstated status) not replaced by an accepted successor."""
    records = list(records)
    accepted = {r.id for r in records if r.status == "accepted"}
    return [r for r in records if r.id in accepted and not set(r.superseded_by) & accepted]


def key_of(rec: Record) -> tuple[str, str, str] | None:
    """(conflict-key, cardinality, value) when the record declares a key."""
    key = rec.meta.get("conflict-key")
    if not isinstance(key, str) or not key.strip():
        return None
    cardinality = str(rec.meta.get("cardinality") or "single").strip().lower()
    return key.strip(), cardinality, str(rec.meta.get("value") or "").strip()


def holders(records: Iterable[Record], key: str) -> list[Record]:
    """In-force decisions holding a single-valued key."""
    return [r for r in in_force(records) if (k := key_of(r)) and k[0] == key and k[1] == "single"]


def find(records: Sequence[Record]) -> list[Conflict]:
    """Every conflict among the decisions in force, each pair once, older id first."""
    live = sorted(in_force(records), key=lambda r: (r.number or 0, r.id))
    return [*_key_conflicts(live), *_rule_conflicts(live)]


def _key_conflicts(live: list[Record]) -> Iterator[Conflict]:
    by_key: dict[str, list[Record]] = defaultdict(list)
    for rec in live:
        declared = key_of(rec)
        if declared and declared[1] == "single" and KEY.match(declared[0]):
            by_key[declared[0]].append(rec)
    for key, recs in by_key.items():
        for older, newer in zip(recs, recs[1:]):
            values = " / ".join(v for v in (key_of(older)[2], key_of(newer)[2]) if v)  # type: ignore[index]
            yield Conflict("key", (older.id, newer.id),
                           f"{older.id} and {newer.id} both decide {key}" + (f" ({values})" if values else ""))


def _rule_conflicts(live: list[Record]) -> Iterator[Conflict]:
    from adr_memory import rules

    placed = [((i, k), rec, rule) for i, rec in enumerate(live) if rec.rules
              for k, rule in enumerate(rules.parse_rules(rec)[0]) if rule.type in _SIDES]
    for (_, a, ra), (_, b, rb) in _candidates(placed):
        if _contradict(ra, rb):
            yield Conflict("rules", (a.id, b.id), f"{a.id} says {ra.describe()} and {b.id} says {rb.describe()}")


_SIDES = {*_OPPOSITE, *_OPPOSITE.values()}  # the rule types a conflict can involve


def _candidates(placed: list[tuple[tuple[int, int], Record, Rule]]) -> list[tuple[Any, Any]]:
    """Pairs of rules of two records that may contradict, in record order then rule order:
    opposite types on the same text, and opposite path rules whose folders nest. Looked up,
    not every rule against every other: a record may list thousands of rules, and two such
    records were nine million comparisons for `adr check`."""
    by_text: dict[tuple[str, bool], list[Any]] = defaultdict(list)
    for entry in placed:
        by_text[entry[2].value, entry[2].regex].append(entry)
    found = [pair for group in by_text.values() for pair in _opposed(group)]
    found += _nested_paths([e for e in placed if e[2].type.endswith("-path")])
    pairs = {(a[0], b[0]): (a, b) for a, b in found}
    return [pairs[key] for key in sorted(pairs, key=lambda ab: (ab[0][0], ab[1][0], ab[0][1], ab[1][1]))]


def _opposed(group: list[Any]) -> Iterator[tuple[Any, Any]]:
    """Pairs of the group from different records with opposite types, the earlier first."""
    by_type: dict[str, list[Any]] = defaultdict(list)
    for entry in group:
        by_type[entry[2].type].append(entry)
    for kind, other in _OPPOSITE.items():
        for a in by_type[kind]:
            for b in by_type[other]:
                yield from _ordered(a, b)


def _ordered(a: Any, b: Any) -> Iterator[tuple[Any, Any]]:
    if a[0][0] != b[0][0]:  # two rules of one record are not a conflict between decisions
        yield (a, b) if a[0] < b[0] else (b, a)


def _nested_paths(entries: list[Any]) -> Iterator[tuple[Any, Any]]:
    """forbid-path and require-path rules whose globs' folders nest (one lies within the
    other, or either has none): the only pairs `_paths_meet` can accept."""
    requires: dict[str, list[Any]] = defaultdict(list)
    for entry in entries:
        if entry[2].type == "require-path":
            requires[globs.literal_prefix(entry[2].value)].append(entry)
    folders = sorted(requires)
    for forbid in (e for e in entries if e[2].type == "forbid-path"):
        folder = globs.literal_prefix(forbid[2].value)
        near = set(folders) if not folder else {"", folder, *_above(folder), *_below(folders, folder)}
        for prefix in near & requires.keys():
            for require in requires[prefix]:
                yield from _ordered(forbid, require)


def _above(folder: str) -> Iterator[str]:
    while "/" in folder:
        folder = folder.rsplit("/", 1)[0]
        yield folder


def _below(folders: list[str], folder: str) -> Iterator[str]:
    """The sorted folders that lie within `folder`: one run of the sorted list."""
    for other in folders[bisect.bisect_left(folders, folder + "/"):]:
        if not other.startswith(folder + "/"):
            return
        yield other


def _contradict(a: Rule, b: Rule) -> bool:
    if _OPPOSITE.get(a.type) != b.type and _OPPOSITE.get(b.type) != a.type:
        return False
    if a.value != b.value or a.regex != b.regex:
        return a.type.endswith("-path") and _paths_meet(a.value, b.value)
    return _scopes_meet(a.within, b.within)


def _scopes_meet(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two `in` scopes can cover a common file (no `in`: everywhere)."""
    if not a or not b:
        return True
    return any(_paths_meet(x, y) for x in a for y in b)


def _paths_meet(a: str, b: str) -> bool:
    """Whether two globs can match one path: one's folder prefix lies within the other's and
    either glob matches the other written as a path."""
    pa, pb = globs.literal_prefix(a), globs.literal_prefix(b)
    nested = not pa or not pb or pa == pb or pa.startswith(pb + "/") or pb.startswith(pa + "/")
    return nested and (a == b or globs.matches(a, b) or globs.matches(b, a)
                       or "**" in a or "**" in b)


def findings(records: Sequence[Record]) -> list[Finding]:
    """`adr check` findings: each conflict on the newer record (the one a pull request adds),
    naming both; and a `conflict-key` that is not a dotted lowercase key."""
    by_id = {r.id: r for r in records}
    out = []
    for conflict in find(records):
        newer = by_id[conflict.ids[1]]
        out.append(Finding(newer.path, 1, "conflict", ERROR, newer.id, conflict.message,
                           f"supersede one of them (adr supersede {conflict.ids[0]} --by "
                           f"{conflict.ids[1]}), or declare `cardinality: multi`"
                           if conflict.kind == "key" else
                           f"supersede one of them: adr supersede {conflict.ids[0]} --by {conflict.ids[1]}"))
    for rec in records:
        declared = key_of(rec)
        if declared and not KEY.match(declared[0]):
            out.append(Finding(rec.path, 1, "conflict-key", ERROR, rec.id,
                               f"conflict-key {declared[0]!r} is not a dotted lowercase key",
                               "e.g. conflict-key: project.primary_database"))
        elif declared and declared[1] not in CARDINALITIES:
            out.append(Finding(rec.path, 1, "conflict-key", ERROR, rec.id,
                               f"cardinality {declared[1]!r} is not single or multi",
                               "cardinality: single (the default) or multi"))
    return out


def involving(found: Sequence[Conflict], ids: set[str]) -> list[Conflict]:
    """The conflicts (of those `find` gave) any of these decisions is part of (for `why`,
    `guard` and agents)."""
    return [c for c in found if set(c.ids) & ids]
