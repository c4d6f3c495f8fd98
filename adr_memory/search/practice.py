"""Records about the practice of keeping decisions, and the questions that ask about it.

Every adr-tools folder starts with "Record architecture decisions", and many teams keep a record of
where and how they write decisions down. Such a record is about decisions in general, so it comes
close in meaning to a question about any one of them: in the README's tour "which database do we
use" found it (0.33) above "Use PostgreSQL for the primary store" (0.32), and on cloud-platform a
question about egress firewalls ranked it second. It should answer questions about the practice,
not about the subject of another decision (ADR-0095).

A record is about the practice when its title is: over the 253 titles of the seventeen evaluation
folders, the four that are ("Record architecture decisions" three times, "Use GitHub for
architecture decision log") come within 0.54 to 0.63 of `PRACTICE`, every other title within 0.34
(cometbft's "Documentation"); `AT` sits in that gap. A question is about the practice when it names
it (the model does not know "ADR") or comes that close itself; otherwise a practice record must
lead by more than `LEAD` to stay ahead: it led subject questions by at most 0.08 in the tour, and
questions about the practice by 0.19 or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

PRACTICE = "how we record architecture decisions"
AT = 0.45
LEAD = 0.1
# The practice's own names, which the bundled model reads as noise.
NAMES = frozenset({"adr", "adrs", "madr", "madrs"})

_reference: dict[int, Any] = {}


def reference(embedder: Any) -> Any:
    """`PRACTICE` as the model reads it (one row), once per loaded model."""
    key = id(embedder)
    if key not in _reference:
        _reference[key] = embedder.embed([PRACTICE])[0]
    return _reference[key]


def records(title_rows: dict[str, Any], practice: Any) -> set[str]:
    """The record files whose title vector comes within `AT` of the practice."""
    return {rid for rid, row in title_rows.items() if float(row @ practice) >= AT}


def asked(words: Sequence[str], question: Any, practice: Any) -> bool:
    """Whether a question is about the practice: it names it, or means it."""
    return bool(NAMES & set(words)) or float(question @ practice) >= AT


def in_their_place(order: list[tuple[str, float]], about_practice: set[str]) -> list[tuple[str, float]]:
    """`order` with each practice record's score lowered by `LEAD`, re-sorted: it stays first
    only where it leads clearly. Sorting is stable, so ties keep their order."""
    if not about_practice:
        return order
    lowered = [(key, score - LEAD if key in about_practice else score) for key, score in order]
    return sorted(lowered, key=lambda kv: -kv[1])
