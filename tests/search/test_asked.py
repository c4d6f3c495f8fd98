"""search.asked: a question asked again is one model run, its rows the same; calls of many
texts (a build's chunks) pass by; the memory is bounded."""

from __future__ import annotations

import threading

import numpy as np

from adr_memory.search import embed
from adr_memory.search.asked import Asked


def _counting(runs: list[list[str]]):
    def run(texts: list[str]):
        runs.append(list(texts))
        return [np.full(3, float(len(t)), dtype=np.float32) for t in texts]

    return run


def test_a_question_asked_again_is_not_run_again_and_its_row_is_the_same():
    asked, runs = Asked(), []
    first = asked.embed(["which queue", "which database"], _counting(runs), 3)
    again = asked.embed(["which database", "which queue", "which cache"], _counting(runs), 3)
    assert runs == [["which queue", "which database"], ["which cache"]]  # only the new one ran
    assert again.dtype == np.float32 and again.shape == (3, 3)
    assert (again[0] == first[1]).all() and (again[1] == first[0]).all()


def test_nothing_asked_is_an_empty_matrix_and_a_text_twice_in_one_call_runs_once():
    asked, runs = Asked(), []
    assert asked.embed([], _counting(runs), 384).shape == (0, 384) and runs == []
    rows = asked.embed(["same", "same"], _counting(runs), 3)
    assert runs == [["same"]] and (rows[0] == rows[1]).all()


def test_a_build_s_many_texts_pass_by_and_the_memory_keeps_the_latest():
    asked, runs = Asked(), []
    chunks = [f"chunk {n}" for n in range(Asked.BATCH + 1)]
    asked.embed(chunks, _counting(runs), 3)
    asked.embed(chunks[:1], _counting(runs), 3)
    assert runs == [chunks, ["chunk 0"]]  # the build's call was not kept
    for n in range(Asked.SIZE + 1):  # one more than it holds: the oldest goes
        asked.embed([f"q{n}"], _counting(runs), 3)
    runs.clear()
    asked.embed(["q0", f"q{Asked.SIZE}"], _counting(runs), 3)
    assert runs == [["q0"]]


def test_threads_asking_at_once_each_get_their_own_rows():
    asked, errors = Asked(), []

    def ask(n: int) -> None:
        for k in range(200):
            text = f"question {(n * 7 + k) % 600}"
            row = asked.embed([text], _counting([]), 3)[0]
            if row[0] != len(text):
                errors.append(text)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_the_bundled_model_gives_a_question_asked_again_the_very_same_vector(model_cache):
    model = embed.load_query(model_cache)
    first = model.embed(["have we decided on a message queue anywhere"])
    again = model.embed(["have we decided on a message queue anywhere", "something else entirely"])
    assert np.array_equal(first[0], again[0]) and abs(float(np.linalg.norm(again[1])) - 1.0) < 1e-5
