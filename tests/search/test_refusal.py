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


def test_a_far_question_is_told_how_far_in_two_decimals():
    verdict = refusal.judge(0.214, FLOOR, [], 1.0)
    assert verdict == refusal.Verdict(
        "no passage is closer to the question (best cosine 0.21) than questions about nothing in these "
        "decisions come (0.23)",
        "none",
    )


def test_a_question_near_the_floor_missing_its_topic_names_at_most_six_of_the_words():
    missing = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"]
    verdict = refusal.judge(0.30, FLOOR, missing, 0.2)
    assert verdict.confidence == "none"
    assert verdict.reason == (
        "the best passage is barely closer than unrelated questions come (cosine 0.30, floor 0.23), "
        "and the decisions never use: alpha, bravo, charlie, delta, echo, foxtrot"
    )


@pytest.mark.parametrize(
    ("top", "kept", "confidence"),
    [
        (FLOOR.level + refusal.BAND - 0.001, 1.0, "low"),  # just inside the band: near the floor
        (FLOOR.level + refusal.BAND + 0.001, 1.0, "high"),  # just above it, in the folder's words
        (FLOOR.level + refusal.BAND + 0.001, refusal.KEPT_HIGH, "high"),  # exactly enough kept
        (FLOOR.level + refusal.BAND + 0.001, refusal.KEPT_HIGH - 0.001, "low"),
    ],
)
def test_the_band_and_what_is_kept_decide_between_low_and_high(top, kept, confidence):
    unknown = [] if kept == 1.0 else ["actually"]
    assert refusal.judge(top, FLOOR, unknown, kept) == refusal.Verdict(None, confidence)


def test_two_thirds_of_the_meaning_kept_is_enough_near_the_floor():
    assert refusal.judge(0.30, FLOOR, ["toggle"], refusal.MIN_KEPT) == refusal.Verdict(None, "low")
    assert refusal.judge(0.30, FLOOR, ["toggle"], refusal.MIN_KEPT - 0.01).confidence == "none"
    # Nothing missing is no missing topic, however little the number says is kept.
    assert refusal.judge(0.30, FLOOR, [], 0.0) == refusal.Verdict(None, "low")


def test_a_floor_reports_itself_rounded_to_four_places():
    floor = refusal.Floor(mean=0.123456, sd=0.0123456)
    assert floor.level == pytest.approx(0.123456 + 2 * 0.0123456)
    assert floor.as_dict() == {"mean": 0.1235, "sd": 0.0123, "level": 0.1481}


def test_a_stored_floor_may_have_integer_parts_and_extra_keys():
    assert refusal.read_floor({"floor": {"mean": 0, "sd": 1, "level": 99}}) == refusal.Floor(0.0, 1.0)
    assert refusal.read_floor({"floor": {"mean": 0.2}}) is None  # no spread
    assert refusal.read_floor({"floor": {"mean": 0.2, "sd": "0.1"}}) is None


def test_the_off_topic_questions_are_twenty_different_everyday_ones():
    assert len(refusal.OFF_TOPIC) == 20 == len(set(refusal.OFF_TOPIC))


def test_a_floor_from_probes_that_all_reach_one_chunk_has_no_spread():
    chunks = np.array([[1.0, 0.0]], dtype=np.float32)
    probes = np.array([[0.6, 0.8], [0.6, -0.8]], dtype=np.float32)
    floor = refusal.floor_of(chunks, probes)
    assert floor is not None
    assert (floor.mean, floor.sd) == (pytest.approx(0.6), pytest.approx(0.0))
    assert floor.level == pytest.approx(0.6)
