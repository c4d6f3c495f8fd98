"""Conflicts between decisions in force: rules that contradict on overlapping scope, and two
decisions holding one single-valued `conflict-key` (ARCHITECTURE.md §6). Superseding one of
them resolves it. Read from the committed records only; nothing here touches git."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from adr_memory.base import globs
from adr_memory.records import ERROR, Finding, Record, standing

if TYPE_CHECKING:
    from adr_memory.policy.rules import Rule

KEY = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)*$")
CARDINALITIES = ("single", "multi")
# Rule types that cannot both hold for the same text or path.
_OPPOSITE = {"forbid": "require", "forbid-path": "require-path"}
T = TypeVar("T")


@dataclass(frozen=True)
class Conflict:
    kind: str  # "rules" or "key"
    ids: tuple[str, str]  # (older, newer)
    message: str

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "ids": list(self.ids), "message": self.message}


def in_force(records: Iterable[Record]) -> list[Record]:
    """The decisions in force (records/standing.py), each as the verdicts read it: one marked
    superseded whose successors are all only proposed reads as accepted."""
    records = list(records)
    holds = standing.of(records)
    return [r for r in standing.judged(records, holds) if holds[r.path].in_force]


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
        for older, newer in itertools.pairwise(recs):
            values = " / ".join(v for v in (key_of(older)[2], key_of(newer)[2]) if v)  # type: ignore[index]
            yield Conflict(
                "key",
                (older.id, newer.id),
                f"{older.id} and {newer.id} both decide {key}" + (f" ({values})" if values else ""),
            )


# A record may list thousands of rules (its text allows 1 MB). Between two records, the
# first contradictions are named and the rest counted, and at most COMPARED_PER_PAIR
# comparisons are made, of rules and of the globs of their scopes: two records of 3,000 rules
# that could all meet were nine million findings, 5.8 GB and nine minutes of `adr check`.
LISTED_PER_PAIR = 5
COMPARED_PER_PAIR = 100_000
COMPARED_IN_ALL = 500_000  # over all pairs: ten thousand one-rule records are 25 million pairs


def _rule_conflicts(live: list[Record]) -> Iterator[Conflict]:
    from adr_memory.policy import rules

    placed = [
        ((i, k), rec, rule)
        for i, rec in enumerate(live)
        if rec.rules
        for k, rule in enumerate(rules.parse_rules(rec)[0])
        if rule.type in _SIDES
    ]
    budget = _Budget()
    found = _contradictions(placed, budget)
    if budget.stopped:  # first: the record it lands on may have more conflicts than are listed
        older, newer = (live[n].id for n in budget.stopped)
        yield Conflict(
            "rules",
            (older, newer),
            f"conflicts were looked for up to {COMPARED_IN_ALL:,} comparisons "
            f"between the decisions in force, and stopped at {older} and {newer}",
        )
    for pair in sorted(found.keys() | budget.over):
        said = found.get(pair, [])
        yield from said[:LISTED_PER_PAIR]
        more = _more(live[pair[0]].id, live[pair[1]].id, len(said) - LISTED_PER_PAIR, pair in budget.over)
        if more:
            yield more


def _contradictions(placed: list[Any], budget: _Budget) -> dict[tuple[int, int], list[Conflict]]:
    """Per pair of records (by index), the pairs of their rules that contradict, as far as the
    budget goes."""
    found: dict[tuple[int, int], list[Conflict]] = defaultdict(list)
    for (ka, a, ra), (kb, b, rb) in _candidates(placed, budget):
        try:
            contradict = _contradict(ra, rb, budget.rooms[ka[0], kb[0]])
        except _Stopped:
            budget.stopped = budget.stopped or (ka[0], kb[0])
            break
        except _TooMany:
            budget.over.add((ka[0], kb[0]))
            continue
        if contradict:
            found[ka[0], kb[0]].append(
                Conflict("rules", (a.id, b.id), f"{a.id} says {ra.describe()} and {b.id} says {rb.describe()}")
            )
    return found


def _more(older: str, newer: str, unnamed: int, cut: bool) -> Conflict | None:
    """What is left unsaid about two records: contradictions not named, pairs not compared."""
    more = f"{unnamed:,} more pair{'s' if unnamed != 1 else ''} of rules" if unnamed > 0 else ""
    if cut:
        message = (
            f"{older} and {newer} are not compared in full: their rules take over "
            f"{COMPARED_PER_PAIR:,} comparisons" + (f"; they contradict in {more} among those made" if more else "")
        )
    elif more:
        message = f"{older} and {newer} contradict in {more}"
    else:
        return None
    return Conflict("rules", (older, newer), message)


_SIDES = {*_OPPOSITE, *_OPPOSITE.values()}  # the rule types a conflict can involve


class _TooMany(Exception):
    """A pair of records whose rules take more comparisons than COMPARED_PER_PAIR."""


class _Stopped(_TooMany):
    """All the pairs of records together took COMPARED_IN_ALL comparisons."""


class _Room:
    """Comparisons left for one pair of records, within those left for all of them."""

    exhausted: type[_TooMany] = _TooMany

    def __init__(self, left: int = COMPARED_PER_PAIR, within: _Room | None = None) -> None:
        self.left = left
        self.within = within

    def spend(self) -> None:
        if self.within is not None:
            self.within.spend()
        self.left -= 1
        if self.left < 0:
            raise self.exhausted


class _AllRooms(_Room):
    exhausted = _Stopped


class _Budget:
    """Comparisons per pair of records (by index), of their rules and of the globs of their
    rules' scopes, and the record pairs that needed more than COMPARED_PER_PAIR."""

    def __init__(self) -> None:
        everything = _AllRooms(COMPARED_IN_ALL)
        self.rooms: dict[tuple[int, int], _Room] = defaultdict(lambda: _Room(COMPARED_PER_PAIR, everything))
        self.over: set[tuple[int, int]] = set()
        self.stopped: tuple[int, int] | None = None  # the pair of records where comparing stopped

    def pairs(self, firsts: list[Any], seconds: list[Any]) -> Iterator[tuple[Any, Any]]:
        """Rules of `firsts` (one record) against rules of `seconds` (another), the earlier
        record first, as far as the budget of the two records allows."""
        if self.stopped or not firsts or not seconds or firsts[0][0][0] == seconds[0][0][0]:
            return  # two rules of one record are not a conflict between decisions
        pair = (min(firsts[0][0][0], seconds[0][0][0]), max(firsts[0][0][0], seconds[0][0][0]))
        room = self.rooms[pair]
        for a, b in itertools.product(firsts, seconds):
            try:
                room.spend()
            except _Stopped:
                self.stopped = pair
                return
            except _TooMany:
                self.over.add(pair)
                return
            yield (a, b) if a[0] < b[0] else (b, a)


def _candidates(placed: list[tuple[tuple[int, int], Record, Rule]], budget: _Budget) -> list[tuple[Any, Any]]:
    """Pairs of rules of two records that may contradict, in record order then rule order:
    opposite types on the same text, and opposite path rules whose folders nest and whose
    file names can be one. Looked up, not every rule against every other."""
    by_text: dict[tuple[str, bool], list[Any]] = defaultdict(list)
    for entry in placed:
        by_text[entry[2].value, entry[2].regex].append(entry)
    found = [pair for group in by_text.values() if not budget.stopped for pair in _opposed(group, budget)]
    found += _nested_paths([e for e in placed if e[2].type.endswith("-path")], budget)
    pairs = {(a[0], b[0]): (a, b) for a, b in found}
    return [pairs[key] for key in sorted(pairs, key=lambda ab: (ab[0][0], ab[1][0], ab[0][1], ab[1][1]))]


def _by_record(entries: Iterable[Any]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = defaultdict(list)
    for entry in entries:
        out[entry[0][0]].append(entry)
    return out


def _opposed(group: list[Any], budget: _Budget) -> Iterator[tuple[Any, Any]]:
    """Pairs of the group from different records with opposite types, the earlier first."""
    for kind, other in _OPPOSITE.items():
        firsts = _by_record(e for e in group if e[2].type == kind)
        seconds = _by_record(e for e in group if e[2].type == other)
        for a in firsts.values():
            if budget.stopped:
                return
            for b in seconds.values():
                yield from budget.pairs(a, b)


def _nested_paths(entries: list[Any], budget: _Budget) -> Iterator[tuple[Any, Any]]:
    """forbid-path and require-path rules whose globs can meet by their folders and file names
    (`_Near`): the only pairs `_paths_meet` can accept."""
    requires = _Near([(e[2].value, e) for e in entries if e[2].type == "require-path"])
    for forbid in (e for e in entries if e[2].type == "forbid-path"):
        if budget.stopped:
            return
        for require in _by_record(requires.near(forbid[2].value)).values():
            yield from budget.pairs([forbid], require)


class _Near(Generic[T]):
    """Items looked up by glob: those whose globs' folders nest with a glob's folder (one lies
    within the other, or either has none), and whose file names can be one with its name by
    plain text (`**/x.py` finds `x.py` and every name that is no plain text). A superset of
    what `_paths_meet` accepts, found without comparing every pair."""

    def __init__(self, items: list[tuple[str, T]]) -> None:
        self._by: dict[str, dict[str, list[T]]] = defaultdict(lambda: defaultdict(list))
        for glob, item in items:
            self._by[globs.literal_prefix(glob)][_plain_name(glob)].append(item)
        self._folders = sorted(self._by)

    def near(self, glob: str) -> list[T]:
        folder, name = globs.literal_prefix(glob), _plain_name(glob)
        near = self._folders if not folder else sorted({"", folder, *_above(folder), *_below(self._folders, folder)})
        out: list[T] = []
        for prefix in (p for p in near if p in self._by):
            named = self._by[prefix]
            out += [*named.get(name, []), *named.get("", [])] if name else [i for its in named.values() for i in its]
        return out


def _plain_name(glob: str) -> str:
    """The glob's last segment when it is plain text in a pattern (`**/x.py` -> `x.py`), else ""."""
    ends = globs.name_ends(glob)
    name = glob.rsplit("/", 1)[-1]
    return name if ends is not None and ends[0] == name else ""


def _above(folder: str) -> Iterator[str]:
    while "/" in folder:
        folder = folder.rsplit("/", 1)[0]
        yield folder


def _below(folders: list[str], folder: str) -> Iterator[str]:
    """The sorted folders that lie within `folder`: one run of the sorted list."""
    for other in folders[bisect.bisect_left(folders, folder + "/") :]:
        if not other.startswith(folder + "/"):
            return
        yield other


def _contradict(a: Rule, b: Rule, room: _Room | None = None) -> bool:
    if _OPPOSITE.get(a.type) != b.type and _OPPOSITE.get(b.type) != a.type:
        return False
    if a.value != b.value or a.regex != b.regex:
        return a.type.endswith("-path") and _paths_meet(a.value, b.value)
    return _scopes_meet(a.within, b.within, room)


def _scopes_meet(a: Sequence[str], b: Sequence[str], room: _Room | None = None) -> bool:
    """Whether two `in` scopes can cover a common file (no `in`: everywhere). Scopes of
    thousands of globs each are looked up, not compared glob by glob; each comparison is
    spent from `room` (_TooMany when it runs out)."""
    if not a or not b:
        return True
    room = room or _Room()
    near = _scope_index(tuple(b)) if len(a) * len(b) > 64 else None
    for x in a:
        for y in near.near(x) if near is not None else b:
            room.spend()
            if _paths_meet(x, y):
                return True
    return False


@lru_cache(maxsize=64)
def _scope_index(scope: tuple[str, ...]) -> _Near[str]:
    return _Near([(glob, glob) for glob in scope])


def _paths_meet(a: str, b: str) -> bool:
    """Whether two globs can match one path: one's folder prefix lies within the other's, and
    either glob matches the other written as a path, or one spans folders (`**`) and the names
    they match can be one (`**/x.py` and `**/y.py` cannot: what a name starts and ends with)."""
    pa, pb = globs.literal_prefix(a), globs.literal_prefix(b)
    nested = not pa or not pb or pa == pb or pa.startswith(pb + "/") or pb.startswith(pa + "/")
    return nested and (
        a == b or globs.matches(a, b) or globs.matches(b, a) or (("**" in a or "**" in b) and _names_meet(a, b))
    )


def _names_meet(a: str, b: str) -> bool:
    ends_a, ends_b = globs.name_ends(a), globs.name_ends(b)
    if ends_a is None or ends_b is None:
        return True
    if _plain_name(a) and _plain_name(b):
        return _plain_name(a) == _plain_name(b)
    (head_a, tail_a), (head_b, tail_b) = ends_a, ends_b
    return (head_a.startswith(head_b) or head_b.startswith(head_a)) and (
        tail_a.endswith(tail_b) or tail_b.endswith(tail_a)
    )


LISTED_PER_RECORD = 20  # conflict findings on one record; the rest are counted in one more


def _way_out(conflict: Conflict) -> str:
    older, newer = conflict.ids
    theirs = [i for i in conflict.ids if ":" in i]  # a source's decision: read-only here
    if theirs:
        ours = next((i for i in conflict.ids if ":" not in i), None)
        exception = f"add `supersedes: [{theirs[0]}]` to {ours} (this repository's recorded exception)" if ours else ""
        return f"{exception or 'settle it in the sources'}, or declare `cardinality: multi`"
    if conflict.kind == "key":
        return f"supersede one of them (adr supersede {older} --by {newer}), or declare `cardinality: multi`"
    return f"supersede one of them: adr supersede {older} --by {newer}"


def _line(rec: Record, conflict: Conflict) -> int:
    """Where a conflict is said: the line of the key, or of the rules, the two decisions hold."""
    return rec.line_of("conflict-key" if conflict.kind == "key" else "rules")


def findings(records: Sequence[Record]) -> list[Finding]:
    """`adr check` findings: each conflict on the newer record (the one a pull request adds),
    naming both; and a `conflict-key` that is not a dotted lowercase key."""
    by_id = {r.id: r for r in records}
    on: dict[str, list[Conflict]] = defaultdict(list)
    for conflict in find(records):
        older, newer = (by_id[i] for i in conflict.ids[:2])
        # Said where it can be mended: on this repository's record, never on a source's.
        on[older.id if newer.source and not older.source else newer.id].append(conflict)
    out = []
    for newer_id, said in on.items():
        newer = by_id[newer_id]
        out += [
            Finding(
                newer.path, _line(newer, conflict), "conflict", ERROR, newer.id, conflict.message, _way_out(conflict)
            )
            for conflict in said[:LISTED_PER_RECORD]
        ]
        if len(said) > LISTED_PER_RECORD:  # a thousand records may all contradict a thousand others
            more = len(said) - LISTED_PER_RECORD
            out.append(
                Finding(
                    newer.path,
                    1,
                    "conflict",
                    ERROR,
                    newer.id,
                    f"{newer.id} is in {more:,} more conflicts (not listed)",
                    f"supersede what it contradicts: adr supersede ID --by {newer.id}",
                )
            )
    for rec in records:
        declared = key_of(rec)
        named = declared[0] if declared else rec.meta.get("conflict-key")
        if (named is not None and not isinstance(named, str)) or (declared and not KEY.match(declared[0])):
            out.append(
                Finding(
                    rec.path,
                    rec.line_of("conflict-key"),
                    "conflict-key",
                    ERROR,
                    rec.id,
                    f"conflict-key {named!r} is not a dotted lowercase key",
                    "e.g. conflict-key: project.primary_database",
                )
            )
        elif declared and declared[1] not in CARDINALITIES:
            out.append(
                Finding(
                    rec.path,
                    rec.line_of("cardinality"),
                    "conflict-key",
                    ERROR,
                    rec.id,
                    f"cardinality {declared[1]!r} is not single or multi",
                    "cardinality: single (the default) or multi",
                )
            )
    return out


def involving(found: Sequence[Conflict], ids: set[str]) -> list[Conflict]:
    """The conflicts (of those `find` gave) any of these decisions is part of (for `why`,
    `guard` and agents)."""
    return [c for c in found if set(c.ids) & ids]
