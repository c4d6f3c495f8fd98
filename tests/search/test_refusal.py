"""The refusal rule on its own: a floor from how close off-topic questions come, a band above it
where missing words that carry a third of the meaning refuse, and nothing that refuses a close
meaning."""

from __future__ import annotations

import numpy as np
import pytest

from adr_memory.search import refusal

FLOOR = refusal.Floor(mean=0.15, sd=0.04)  # level 0.23


def test_the_floor_is_the_off_topic_mean_plus_two_spreads():
    chunks = np.eye(3, dtype=np.float32)  # three unit vectors
    probes = np.array([[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1]], dtype=np.float32)
    floor = refusal.floor_of(chunks, probes)
    assert floor is not None
    assert floor.mean == pytest.approx((1.0 + 0.8 + 1.0) / 3)
    assert floor.level == pytest.approx(floor.mean + refusal.SPREAD * floor.sd)
    assert refusal.floor_of(np.zeros((0, 3), dtype=np.float32), probes) is None  # no chunks, no floor


@pytest.mark.parametrize(
    "top, unknown, kept, refused, confidence",
    [
        (0.20, [], 1.0, True, "none"),  # below the floor: far, whatever the words
        (FLOOR.level, [], 1.0, True, "none"),  # at the floor: no closer than unrelated questions come
        (0.30, ["expiry"], 0.5, True, "none"),  # near the floor, and its missing word is half its meaning
        (0.30, ["actually"], 0.98, False, "low"),  # near the floor, a filler missing: answered, unsure
        (0.30, ["toggle"], 0.68, False, "low"),  # near the floor, a synonym missing: answered, unsure
        (0.30, [], 1.0, False, "low"),  # near the floor in the folder's own words: answered, unsure
        (0.36, ["expiry", "policy"], 0.33, False, "low"),  # a close meaning: missing words only lower confidence
        (0.36, ["actually"], 0.98, False, "high"),  # close, in the folder's words but a filler
    ],
)
def test_missing_words_refuse_only_near_the_floor_and_only_when_they_are_the_topic(
    top, unknown, kept, refused, confidence
):
    verdict = refusal.judge(top, FLOOR, unknown, kept, band=0.13)
    assert (verdict.reason is not None, verdict.confidence) == (refused, confidence)
    if unknown and refused:
        assert all(word in verdict.reason for word in unknown)


def test_below_the_floor_a_question_in_the_folders_own_words_is_answered_unsure():
    assert refusal.judge(0.20, FLOOR, [], 1.0, in_its_words=True) == refusal.Verdict(None, "low")
    assert refusal.judge(0.20, FLOOR, [], 1.0).reason is not None  # no word of it found: far
    assert refusal.judge(0.20, FLOOR, ["scarf"], 0.0).reason is not None


def test_without_a_floor_nothing_is_refused_for_its_meaning():
    assert refusal.judge(0.01, None, ["anything"], 0.0) == refusal.Verdict(None, "low")


@pytest.mark.parametrize(
    "header",
    [
        None,
        [],
        {},
        {"floor": None},
        {"floor": [1, 2]},
        {"floor": {"mean": "x", "sd": 0.1}},
        {"floor": {"mean": True, "sd": 0}},
    ],
)
def test_a_damaged_floor_in_the_index_header_is_no_floor(header):
    assert refusal.read_floor(header) is None


def test_a_stored_floor_reads_back_as_it_was_written():
    assert refusal.read_floor({"floor": FLOOR.as_dict()}) == refusal.Floor(0.15, 0.04)


def test_high_is_earned_only_when_the_missing_words_carry_next_to_nothing():
    """On long records every question lands near something: "which database do we use for user
    accounts and billing" reached `high` on cometbft with `unknown: [billing]`. A word of the
    question's topic the folder lacks makes an answer `low`; a filler leaves it `high`."""
    from adr_memory.search import refusal

    floor = refusal.Floor(0.20, 0.02)
    close = floor.level + refusal.BAND + 0.1
    assert refusal.judge(close, floor, [], 1.0).confidence == "high"
    assert refusal.judge(close, floor, ["actually"], 0.98).confidence == "high"
    assert refusal.judge(close, floor, ["billing"], 0.886).confidence == "low"
    assert refusal.judge(close, floor, ["billing"], 0.5).confidence == "low"  # close in meaning: never refused


def test_an_absent_question_in_a_topic_the_folder_lacks_is_no_longer_high(corpus, capsys):
    """cloud-platform, a folder of long records: a service-mesh question it never answers came
    back `high` (its words mesh, istio, linkerd, mutual are the folder's nowhere)."""
    import json

    from tests.helpers import run

    answer = json.loads(run(capsys, "search", "Should we adopt a service mesh such as Istio or Linkerd", "--json").out)
    assert answer["confidence"] != "high" and answer["signals"]["unknown"]
