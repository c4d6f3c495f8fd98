"""What a result row says and where it stands: the decision in force ahead of the one it
replaced, a snippet from what was decided rather than from the options weighed, and the
snippet itself, cut around the question's words."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from adr_memory.records import Record, plain, standing

if TYPE_CHECKING:
    from adr_memory.search.index import Index

K = TypeVar("K")  # a result's key: a record's path in a folder, (repository, id) in the hub


def in_force_first(
    records: dict[str, Record], order: list[tuple[str, float]], matches: Callable[[str], bool]
) -> list[tuple[str, float]]:
    """A retired record that ranks above the record in force that replaced it gives that one
    its place, when the successor matches the question too (ADR-0101): "which database do we
    use" answers with the decision in force, the one it replaced right below. Scores stay each
    record's own."""
    held = standing.of(records.values())
    by_id = {rec.id: key for key, rec in records.items()}

    def replacing(key: str) -> list[str]:
        retired = held.get(key)
        if retired is None or retired.state != standing.RETIRED:
            return []
        return [by_id[i] for i in retired.retired_by if i in by_id]

    return successors_first(order, replacing, matches)


def successors_first(
    order: list[tuple[K, float]], replacing: Callable[[K], Sequence[K]], matches: Callable[[K], bool]
) -> list[tuple[K, float]]:
    """`order` with each retired entry's successors in force (`replacing(key)`) moved just
    above it, where they rank below it and match the question too: the one rule for a folder's
    search and the hub's, whose keys are (repository, id)."""
    out = list(order)
    for key, _score in order:
        keys = [k for k, _ in out]
        for succ in replacing(key):
            if succ not in keys or keys.index(succ) < keys.index(key) or not matches(succ):
                continue
            moved = out.pop(keys.index(succ))
            out.insert(keys.index(key), moved)
            keys = [k for k, _ in out]
    return out


# Sections that list what was weighed (the rejected options among them), and those that say
# what was decided.
OPTIONS = re.compile(r"\boptions?\b|\balternatives?\b|pros and cons", re.IGNORECASE)
_DECISION = re.compile(r"\bdecision\b|\boutcome\b|\bdecided\b", re.IGNORECASE)


def the_decision_instead(index: Index, rid: str, row: int, cosines: Any) -> int:
    """A snippet from the options weighed may show a rejected one (`* MongoDB`) as the answer:
    the record's decision section is shown instead when it matches the question too (its
    cosine above the folder's floor)."""
    floor = index.floor
    chunks = index.meta["vectors"]["chunks"]
    for key, start, end in index.chunk_runs:
        if key != rid:
            continue
        said = [r for r in range(start, end) if _DECISION.search(chunks[r]["section"])]
        best = max(said, key=lambda r: float(cosines[r]), default=None)
        if best is not None and floor is not None and float(cosines[best]) >= floor.level:
            return best
    return row


def snippet(text: str, words: Sequence[str], width: int = 220) -> str:
    """About `width` characters around the first place a query word appears, as a reader sees
    the markdown: no bold's asterisks (`**Decision.** We chose` reads "Decision. We chose"), a
    link as its text, in a terminal or an agent's context alike."""
    flat = plain(text)
    lower = flat.lower()
    hits = [lower.find(w[:6]) for w in words if lower.find(w[:6]) >= 0]
    start = max(0, min(hits) - width // 3) if hits else 0
    start = flat.rfind(" ", 0, start + 1) + 1 if start else 0  # whole words: a URL is never cut at its start
    end = flat.find(" ", start + width)
    end = len(flat) if end < 0 else end
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")
