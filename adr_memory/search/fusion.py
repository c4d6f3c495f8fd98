"""How the two legs of a search become one score per record: the best passage's closeness in
meaning, lifted by the question's words in proportion to the evidence a shared word gives in a
folder of this size (ADR-0088). The local search and the hub's search score with these."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TypeVar

KEYWORD_WEIGHT = 0.01  # Tuning.keyword_weight's shipped value (fitted by `adr eval`, ADR-0091)
# A passage's place in its record: a decision states itself early, and a long record's appendix
# should not outrank another record's context (Tuning.position_penalty and position_span).
POSITION_PENALTY = 0.05
POSITION_SPAN = 400.0  # words


def placed(cosine: float, offset: int, penalty: float = POSITION_PENALTY, span: float = POSITION_SPAN) -> float:
    """A passage's closeness less the penalty for where it starts in its record (`offset`
    words in): what ranks a record by its best passage, here and in the hub."""
    return cosine - penalty * min(1.0, max(0, offset) / span)


def _evidence(records: int) -> float:
    """How much a shared word says in a folder of this many records: a word's IDF can reach
    about ln(records), so one record of ninety using it says more than one of six (ADR-0088)."""
    return math.log(records) if records > 1 else 0.0


_Key = TypeVar("_Key", str, tuple[str, str])  # a record's file here; (repository, id) in the hub


def keyword_weight(records: int, coverage: float = 1.0, weight: float = KEYWORD_WEIGHT) -> float:
    """How much the keyword leg lifts a record among `records` (ADR-0088): the fitted weight, times
    the evidence a shared word gives in a folder this size, less as the question's words go missing
    from the folder (`coverage`). The hub's search weighs its repositories' passages by it too."""
    return weight * _evidence(records) * coverage**2


def fuse(
    sem: Mapping[_Key, tuple[float, int]], kw: Mapping[_Key, tuple[float, int]], mode: str, weight: float
) -> dict[_Key, float]:
    """Per record: keyword mode, BM25 normalised to the best; semantic, the best chunk's score;
    hybrid, that plus `weight` x normalised BM25."""
    top = max((v[0] for v in kw.values()), default=1.0) or 1.0
    if mode == "keyword":
        return {k: v[0] / top for k, v in kw.items()}
    if mode == "semantic":
        return {k: v[0] for k, v in sem.items()}
    return {k: v[0] + weight * (kw[k][0] / top if k in kw else 0.0) for k, v in sem.items()}
