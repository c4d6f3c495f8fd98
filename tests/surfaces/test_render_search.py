"""What search and its evaluation print for people: the answer and how sure it is, a refusal
with its reason and the nearest records marked as such, and the evaluation beside its baseline."""

from __future__ import annotations

from adr_memory.surfaces import render
from adr_memory.surfaces.render_search import eval_report, search_answer

ROW = {
    "id": "ADR-0007",
    "title": "Keep session tokens in Redis",
    "status": "superseded",
    "superseded_by": ["ADR-0009"],
    "score": 0.8123,
    "provenance": ["bm25", "vector"],
    "section": "Decision",
    "snippet": "Session tokens live in Redis with a TTL.",
    "stale": True,
}
SIGNALS = {"coverage": 0.5, "top_cosine": 0.61, "floor": 0.42}


def _answer(**changes):
    answer = {
        "mode": "hybrid",
        "no_strong_match": False,
        "results": [ROW],
        "best_weak": [],
        "confidence": "high",
        "signals": SIGNALS,
        "reason": None,
    }
    return answer | changes


def test_an_answer_shows_each_record_its_status_score_and_the_signals(capsys):
    search_answer(_answer())
    out = capsys.readouterr().out
    assert "ADR-0007 Keep session tokens in Redis  [superseded by ADR-0009] 0.81 bm25+vector  stale" in out
    assert "    Decision: Session tokens live in Redis with a TTL." in out
    assert "mode hybrid · confidence high · coverage 0.5 · top cosine 0.61 · folder floor 0.42" in out
    assert "Low confidence" not in out and "No strong match" not in out


def test_a_low_confidence_answer_says_to_check_the_record(capsys):
    search_answer(_answer(confidence="low"))
    assert "Low confidence: check the record before you rely on it." in capsys.readouterr().out


def test_a_refusal_gives_its_reason_and_the_nearest_as_no_answer(capsys):
    search_answer(
        _answer(
            no_strong_match=True, results=[], best_weak=[ROW], confidence="low", reason="nothing is close in meaning"
        )
    )
    out = capsys.readouterr().out
    assert out.startswith("No strong match. Nothing is close in meaning.\nNearest, for what it is worth:\nADR-0007")


def test_a_keyword_answer_shows_no_cosine_or_floor(capsys):
    search_answer(_answer(mode="keyword", signals={"coverage": 1.0, "top_cosine": None, "floor": None}))
    out = capsys.readouterr().out
    assert "mode keyword · confidence high · coverage 1.0\n" in out and "cosine" not in out


def test_the_evaluation_prints_each_mode_its_misses_and_the_baseline(capsys):
    result = {
        "ran": True,
        "kinds": {"paraphrase": {"n": 4, "recall@5": 0.75, "mrr": 0.6}},
        "titles_first": "2/2",
        "absent_refused": "3/4",
        "answerable_refused": 1,
        "high_right": "2/3",
        "absent_high": "1/4",
        "misses": [{"kind": "paraphrase", "q": "where do sessions live", "got": "ADR-0002"}],
    }
    report = {
        "limit": 5,
        "sets": [
            {
                "name": "team",
                "modes": {"hybrid": result, "semantic": {"ran": False, "reason": "no model"}},
                "baseline": {"ran": True, "kinds": {"paraphrase": {"recall@5": 0.5, "mrr": 0.4}}},
            }
        ],
        "leave_one_out": {"hybrid": {"team": {**result, "fit": {"keyword_weight": 0.01, "band": 0.07}}}},
        "fit_all": {"hybrid": {"keyword_weight": 0.01, "band": 0.07}, "keyword": {"keyword_weight": 0.005}},
        "tuning": {"keyword_weight": 0.005, "band": 0.12},
    }
    eval_report(report)
    out = capsys.readouterr().out
    assert "team · hybrid (k=5)" in out and "0.75" in out
    assert "titles ranked first 2/2 · absent refused 3/4 · answerable wrongly refused 1" in out
    assert "high right (top 3) 2/3 · absent answered high 1/4" in out
    assert "miss [paraphrase] where do sessions live -> ADR-0002" in out
    assert "team · semantic: not run (no model)" in out
    assert "team · naive dense baseline: paraphrase recall 0.5 MRR 0.4" in out
    assert "leave one folder out · hybrid (k=5)" in out and "0.07" in out
    assert (
        "fitted on every set (hybrid): keyword weight 0.01, band 0.07; shipped: keyword weight 0.005, band 0.12" in out
    )


def test_the_held_out_table_keeps_every_name_and_figure_whole_in_80_columns(capsys, monkeypatch):
    """A dozen folders named `team-…` would read as one if the name were cut."""
    monkeypatch.setattr(render.out, "width", 80)
    result = {
        "kinds": {"keyword": {"recall@5": 1.0}, "paraphrase": {"recall@5": 0.929, "mrr": 0.649}},
        "titles_first": "2/2",
        "absent_refused": "0/4",
        "answerable_refused": 1,
        "fit": {"keyword_weight": 0.025, "band": 0.125},
    }
    names = ["cloud-platform", "team-platform", "team-plain"]
    eval_report({"limit": 5, "sets": [], "leave_one_out": {"hybrid": dict.fromkeys(names, result)}})
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.split()[:1] and line.split()[0] in names]
    assert len(rows) == 3 and all(len(line) <= 80 for line in lines)
    assert rows[0].split() == ["cloud-platform", "1.0", "0.929", "0.649", "2/2", "0/4", "1", "0.025", "0.125"]
