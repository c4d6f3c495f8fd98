"""search.fusion: one scoring of the two legs for the local search and the hub's."""

from __future__ import annotations

import math

from adr_memory.search import fusion


def test_hybrid_lifts_the_meaning_by_the_words_in_proportion_to_the_best_keyword_score():
    sem = {"a": (0.50, 0), "b": (0.48, 1), "c": (0.40, 2)}
    kw = {"b": (8.0, 0), "c": (4.0, 0)}
    fused = fusion.fuse(sem, kw, "hybrid", 0.1)
    assert fused == {"a": 0.50, "b": 0.48 + 0.1, "c": 0.40 + 0.05}
    assert fusion.fuse(sem, kw, "keyword", 0.1) == {"b": 1.0, "c": 0.5}
    assert fusion.fuse(sem, kw, "semantic", 0.1) == {"a": 0.50, "b": 0.48, "c": 0.40}


def test_the_words_weigh_more_in_a_bigger_folder_and_less_as_they_go_missing():
    assert fusion.keyword_weight(1) == 0.0
    assert math.isclose(fusion.keyword_weight(50), fusion.KEYWORD_WEIGHT * math.log(50))
    assert math.isclose(fusion.keyword_weight(50, coverage=0.5), fusion.keyword_weight(50) / 4)
    keyed = fusion.fuse({("svc", "ADR-0001"): (0.5, 0)}, {("svc", "ADR-0001"): (1.0, 0)}, "hybrid", 0.2)
    assert keyed == {("svc", "ADR-0001"): 0.7}  # the hub's keys: (repository, id)
