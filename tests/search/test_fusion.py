"""search.fusion: one scoring of the two legs for the local search and the hub's."""

from __future__ import annotations

import math

import pytest

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


@pytest.mark.parametrize(
    ("offset", "placed"),
    [
        (0, 0.60),  # a passage at the start keeps its closeness
        (-5, 0.60),  # an offset before the start is the start
        (200, 0.60 - 0.025),  # half the span in: half the penalty
        (400, 0.55),  # the whole penalty at the span's end...
        (4000, 0.55),  # ...and no more beyond it
    ],
)
def test_a_passage_loses_closeness_over_the_first_span_of_words_only(offset, placed):
    assert fusion.placed(0.60, offset) == pytest.approx(placed)


def test_the_position_penalty_and_span_are_the_callers_to_tune():
    assert fusion.placed(0.5, 50, penalty=0.2, span=100) == pytest.approx(0.4)
    assert fusion.placed(0.5, 1000, penalty=0.0) == 0.5


@pytest.mark.parametrize("records", [0, 1])
def test_in_a_folder_of_one_record_or_none_a_shared_word_is_no_evidence(records):
    assert fusion.keyword_weight(records) == 0.0
    assert fusion.keyword_weight(records, coverage=1.0, weight=5.0) == 0.0


def test_the_keyword_weight_grows_with_the_folder_and_falls_with_the_square_of_missing_words():
    assert fusion.keyword_weight(2) == pytest.approx(fusion.KEYWORD_WEIGHT * math.log(2))
    assert fusion.keyword_weight(90) > fusion.keyword_weight(6) > fusion.keyword_weight(2) > 0
    assert fusion.keyword_weight(90, coverage=0.0) == 0.0
    assert fusion.keyword_weight(90, coverage=0.5, weight=1.0) == pytest.approx(math.log(90) / 4)


def test_keyword_scores_are_normalised_to_the_best_even_when_every_score_is_zero():
    assert fusion.fuse({}, {"a": (0.0, 3), "b": (0.0, 1)}, "keyword", 0.1) == {"a": 0.0, "b": 0.0}
    assert fusion.fuse({}, {}, "keyword", 0.1) == {}
    assert fusion.fuse({"a": (0.3, 0)}, {}, "hybrid", 0.5) == {"a": 0.3}  # no word found: meaning alone


def test_hybrid_ranks_only_records_the_meaning_leg_found():
    """A record only BM25 found has no passage to judge by: hybrid leaves it out (keyword mode
    is where words alone rank)."""
    fused = fusion.fuse({"a": (0.2, 0)}, {"a": (1.0, 0), "z": (9.0, 0)}, "hybrid", 1.0)
    assert fused == {"a": pytest.approx(0.2 + 1.0 / 9.0)}
    assert "z" in fusion.fuse({"a": (0.2, 0)}, {"z": (9.0, 0)}, "keyword", 1.0)
