"""search.practice: records about keeping decisions answer questions about that (ADR-0095)."""

from __future__ import annotations

import json

import numpy as np

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
