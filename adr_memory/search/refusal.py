"""When search says "no strong match": the meaning is far, as this folder measures far.

What counts as close differs by folder: in ninety records about one blockchain every question
lands near something, in five records about a payments team an unrelated one lands nowhere. So
each folder is measured against questions about nothing in it (`OFF_TOPIC`, everyday questions no
decision record answers): how close the best passage comes to them is the folder's own floor,
`mean + SPREAD x sd` of their best cosines, stored with the index when it is built.

A question is refused when its best passage is no closer than that floor: the meaning is far. A
question within `band` above the floor is near the floor: then, and only then, the words it uses
count, and it is refused when the words the folder never uses carry a third or more of its
meaning (`MIN_KEPT`, measured by the model: the question against itself without them): its
topic, not one word of it, is missing. A filler or a synonym the folder lacks ("actually", "ok",
"toggle" for "flag") takes little of the meaning and never refuses, and no missing word refuses a
question whose meaning is close (ADR-0080, ADR-0086, ADR-0089). An exact title or id always
stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Everyday questions no record of an engineering team answers. Their number matters more than
# their wording: twenty give a steady mean and spread.
OFF_TOPIC = (
    "what is the capital of France",
    "how do I bake sourdough bread",
    "who won the football world cup in 2018",
    "what time does the train to Edinburgh leave",
    "how many legs does a spider have",
    "recommend a good novel to read on holiday",
    "how do I change a flat tyre on my bike",
    "what is the boiling point of water at altitude",
    "when is the best season to plant tomatoes",
    "how do you say thank you in Japanese",
    "what causes the northern lights",
    "how much should I tip in a restaurant",
    "who painted the Mona Lisa",
    "how do I get red wine out of a carpet",
    "what is a good stretch for lower back pain",
    "how long should I boil an egg",
    "which planets have rings",
    "how do I knit a scarf",
    "what is the offside rule",
    "how do I teach my dog to sit",
)
# The floor sits two spreads above the off-topic mean: what an unrelated question reaches here,
# but for the rare one (ADR-0080 has the figures for the mean, the maximum and the 90th centile).
SPREAD = 2.0
# Within BAND above the floor a question whose missing words carry its topic is refused; `adr eval`
# fits it, each set held out (ADR-0080, ADR-0085, ADR-0089).
BAND = 0.12
# Near the floor, a question is refused when less than two thirds of its meaning is left without
# the words the folder never uses: a third of a question is its topic (ADR-0086, ADR-0089).
MIN_KEPT = 2 / 3
# `high` needs the words the folder never uses to carry under a twentieth of the question's
# meaning: a filler or a near synonym ("actually", 0.98 kept) leaves it high, a word of its topic
# ("billing" in "which database do we use for user accounts and billing") makes it low. Fitted
# one grid step inside the edge that keeps every other set at 90% of `high` right (top 3) and at
# most 3 of 10 absent questions `high`, each set held out (ADR-0102, docs/search.md).
KEPT_HIGH = 0.95


@dataclass(frozen=True)
class Floor:
    """The best cosines the off-topic questions reach in one folder."""

    mean: float
    sd: float

    @property
    def level(self) -> float:
        return self.mean + SPREAD * self.sd

    def as_dict(self) -> dict[str, float]:
        return {"mean": round(self.mean, 4), "sd": round(self.sd, 4), "level": round(self.level, 4)}


def floor_of(chunks: Any, probes: Any) -> Floor | None:
    """The floor of a folder whose chunk vectors are `chunks`, from the off-topic questions'
    vectors `probes` (both unit rows). None for a folder with no chunks."""
    import numpy as np

    if len(chunks) == 0:
        return None
    tops = (np.asarray(probes, dtype=np.float32) @ np.asarray(chunks, dtype=np.float32).T).max(axis=1)
    return Floor(float(tops.mean()), float(tops.std()))


def read_floor(header: Any) -> Floor | None:
    """The floor stored in a vectors header, if it holds a well-formed one."""
    found = header.get("floor") if isinstance(header, dict) else None
    if not isinstance(found, dict):
        return None
    mean, sd = found.get("mean"), found.get("sd")
    if not isinstance(mean, (int, float)) or not isinstance(sd, (int, float)) or isinstance(mean, bool):
        return None
    return Floor(float(mean), float(sd))


@dataclass(frozen=True)
class Verdict:
    reason: str | None  # why the records do not answer, or None when they do
    # "high": close in meaning, in the folder's words; "low": answered, but near the floor or in
    # words the folder mostly lacks; "none": refused
    confidence: str


def judge(
    top_cosine: float,
    floor: Floor | None,
    unknown: list[str],
    kept: float,
    band: float = BAND,
    *,
    in_its_words: bool = False,
) -> Verdict:
    """The verdict on a question whose best passage has `top_cosine` (no exact title or id),
    whose distinctive words `unknown` the folder never uses, and which keeps `kept` of its
    meaning without them. `in_its_words`: the folder uses every distinctive word of the
    question, and a record matches them."""
    if floor is None:  # no vectors to measure by: nothing is refused for its meaning
        return Verdict(None, "low")
    if top_cosine <= floor.level:
        if in_its_words:
            # A name the model does not know ("what is the XCFramework for", "pg_trgm"): the model
            # places it nowhere, yet the folder says it. Answered, as keyword mode would, unsure.
            return Verdict(None, "low")
        return Verdict(
            f"no passage is closer to the question (best cosine {top_cosine:.2f}) than questions about "
            f"nothing in these decisions come ({floor.level:.2f})",
            "none",
        )
    near = top_cosine < floor.level + band
    topic_missing = bool(unknown) and kept < MIN_KEPT
    if near and topic_missing:
        missing = ", ".join(unknown[:6])
        return Verdict(
            f"the best passage is barely closer than unrelated questions come (cosine {top_cosine:.2f}, "
            f"floor {floor.level:.2f}), and the decisions never use: {missing}",
            "none",
        )
    # Words the folder lacks lower the confidence of an answer; they never refuse a close meaning.
    # `high` is earned: close in meaning, and in the folder's own words but for what carries next
    # to nothing of the question (ADR-0102).
    return Verdict(None, "low" if near or topic_missing or kept < KEPT_HIGH else "high")
