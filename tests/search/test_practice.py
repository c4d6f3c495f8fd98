"""search.practice: records about keeping decisions answer questions about that (ADR-0095)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from adr_memory.search import practice
from tests.helpers import commit, run


def test_a_practice_record_leads_only_by_a_clear_margin():
    order = [("process.md", 0.33), ("db.md", 0.32), ("jobs.md", 0.10)]
    assert [k for k, _ in practice.in_their_place(order, {"process.md"})] == ["db.md", "process.md", "jobs.md"]
    clear = [("process.md", 0.67), ("jobs.md", 0.24)]
    assert [k for k, _ in practice.in_their_place(clear, {"process.md"})] == ["process.md", "jobs.md"]
    assert practice.in_their_place(order, set()) == order


def test_a_question_that_names_the_practice_is_about_it():
    far = np.array([1.0, 0.0])
    reference = np.array([0.0, 1.0])
    assert practice.asked(["why", "keep", "adrs"], far, reference)
    assert not practice.asked(["which", "database"], far, reference)
    assert practice.asked(["record"], reference, reference)


def test_the_record_about_keeping_decisions_answers_that_and_not_another_subject(repo, model_cache, capsys):
    """The README's tour: "Record architecture decisions" is close in meaning to any question
    in a decision folder; it must not come before the decision a question is about, and must
    still lead the questions about keeping decisions (ADR-0095)."""
    import shutil

    from tests.helpers import PLAIN

    shutil.copytree(PLAIN / "tour", repo / "docs/adr")
    commit(repo, {}, "the tour")

    def first(question):
        return json.loads(run(capsys, "search", question, "--json").out)["results"][0]["id"]

    assert first("which database do we use") == "ADR-0002"
    assert first("what do we store orders in") == "ADR-0002"
    assert first("how do we record decisions") == "ADR-0001"
    assert first("why do we keep ADRs") == "ADR-0001"
    assert first("where do we write down why we chose things") == "ADR-0001"


def test_the_records_about_the_practice_are_those_whose_title_comes_within_at():
    practice_row = np.array([1.0, 0.0])
    titles = {
        "0001-record.md": np.array([0.63, 0.776]),  # "Record architecture decisions"
        "0002-db.md": np.array([0.34, 0.94]),  # any other title
        "0003-edge.md": np.array([practice.AT, (1 - practice.AT**2) ** 0.5]),  # exactly AT counts
    }
    assert practice.records(titles, practice_row) == {"0001-record.md", "0003-edge.md"}
    assert practice.records({}, practice_row) == set()


@pytest.mark.parametrize("name", ["adr", "adrs", "madr", "madrs"])
def test_each_of_the_practice_s_own_names_makes_a_question_about_it(name):
    far, reference = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert practice.asked(["where", name], far, reference)
    assert not practice.asked(["where", name.upper() + "x"], far, reference)


def test_a_question_is_about_the_practice_from_exactly_at_in_meaning():
    reference = np.array([1.0, 0.0])
    at = np.array([practice.AT, (1 - practice.AT**2) ** 0.5])
    below = np.array([practice.AT - 0.01, (1 - (practice.AT - 0.01) ** 2) ** 0.5])
    assert practice.asked([], at, reference)
    assert not practice.asked([], below, reference)


def test_the_practice_is_embedded_once_per_loaded_model():
    class Model:
        def __init__(self):
            self.asked = []

        def embed(self, texts):
            self.asked.append(list(texts))
            return np.array([[0.6, 0.8]])

    model, other = Model(), Model()
    first = practice.reference(model)
    assert np.array_equal(first, [0.6, 0.8]) and practice.reference(model) is first
    practice.reference(other)
    assert model.asked == [[practice.PRACTICE]] == other.asked


def test_lowered_practice_records_keep_ties_in_their_order_and_others_their_scores():
    order = [("practice.md", 0.5), ("b.md", 0.45), ("a.md", 0.45), ("c.md", 0.39)]
    placed = practice.in_their_place(order, {"practice.md"})
    assert [k for k, _ in placed] == ["b.md", "a.md", "practice.md", "c.md"]  # b before a, as given
    assert dict(placed) == {"practice.md": 0.4, "a.md": 0.45, "b.md": 0.45, "c.md": 0.39}  # 0.5 - LEAD == 0.4
    # Lowered to a tie, it keeps its place ahead: it led by LEAD, and ties keep their order.
    tie = practice.in_their_place([("practice.md", 0.5), ("a.md", 0.4)], {"practice.md"})
    assert [k for k, _ in tie] == ["practice.md", "a.md"]
