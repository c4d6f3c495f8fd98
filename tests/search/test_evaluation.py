"""`adr eval` over two shared question sets and eleven folders of our own, each asked of its
own folder: ranking never below the naive dense baseline, the refusal bar in-sample and held out,
and that the shipped band is what fitting on all of them picks (real model, real tantivy, one run)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adr_memory.base import cache
from adr_memory.history.workspace import Workspace
from adr_memory.search import embed, evaluation, search
from tests.helpers import CORPORA, FOLDERS, git, own_model, run

# cometbft (93 long records, two thirds of the model's work in a six-set run) is measured by
# `adr eval` with the others (docs/search.md#measured); the suite keeps to five minutes on two cores.
SHARED = ("cloud-platform", "tdr")
# Written for these tests (tests/fixtures/folders/SOURCE.md); team-platform, team-clinic and
# team-shop were written after the band was last fitted, team-shop after the rule of ADR-0086 was set,
# team-ml (reStructuredText) after that, before the keyword weight was fitted (ADR-0088), and
# team-mobile (bold status lines) after everything else, scored once as written (ADR-0090),
# team-data (Tyree and Akerman's template) after ADR-0091, scored once as written, and
# team-security (Backstage names, Y-statements) after that, scored once before ADR-0093, and
# team-games (date-named, bold run-in labels, no section headings) after ADR-0094, scored once.
OURS = (
    "team-nygard",
    "team-madr",
    "team-plain",
    "team-platform",
    "team-clinic",
    "team-shop",
    "team-ml",
    "team-mobile",
    "team-data",
    "team-security",
    "team-games",
)
# No keyword weight holds on both of these (ADR-0091): team-data's one question below the
# baseline needs 0.02 or more, team-mobile's one keeps first only up to 0.01.
_KNIFE_EDGE = (
    "one question decides it: 'what checks does my model need before it can be merged' finds the "
    "contracts record first and the dbt record second below a keyword weight of 0.02 (the baseline's "
    "best piece of the dbt record is its 'Status: Approved' line); 'what if a new version starts "
    "crashing for everyone' finds the crash-reporting record first above 0.01"
)
SETS = SHARED + OURS


def _short(reason: str, *names: str, among: tuple[str, ...] = SETS) -> list:
    """The sets `among`, with a strict xfail on `names`: a shortfall kept in sight (ADR-0086),
    which fails the suite the day it is mended, so the bar is raised then."""
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=reason)) if n in names else n for n in among]


def _where(name: str) -> Path:
    return CORPORA if name in SHARED else FOLDERS


def _pairs(names: tuple[str, ...] = SETS) -> list[str]:
    args = []
    for name in names:
        args += ["--queries", str(_where(name) / f"{name}-queries.json")]
    for name in names:
        args += ["--folder", str(_where(name) / name)]
    return args


@pytest.fixture(scope="session")
def all_sets(tmp_path_factory, built_cache):
    """One `adr eval --json` over every set and every mode, in a repository of its own:
    (repository, report). The cloud-platform scratch starts from the run's shared cloud-platform
    cache, as a user's second eval would: its unchanged chunks keep the vectors the same model
    gave them, and the rest of the run is what a first eval does."""
    root = tmp_path_factory.mktemp("eval")
    git(root, "init", "-q")
    key = hashlib.sha256(str((CORPORA / "cloud-platform").resolve()).encode()).hexdigest()[:12]
    shutil.copytree(built_cache, cache.ensure(root / ".adr-cache") / "eval" / f"cloud-platform-{key}" / ".adr-cache")
    home = tmp_path_factory.mktemp("eval-home")
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "adr_memory", "eval", *_pairs(), "--mode", "all", "--json"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr
    return root, json.loads(done.stdout)


def _entry(report: dict, name: str) -> dict:
    return next(e for e in report["sets"] if e["name"] == name)


def _counts(result: dict) -> tuple[int, int]:
    refused, total = map(int, result["absent_refused"].split("/"))
    return refused, total


@pytest.mark.parametrize("name", _short(_KNIFE_EDGE, "team-data"))
def test_ranking_is_never_below_the_naive_dense_baseline(all_sets, name):
    """The same model, cut at headings, a record scored by its best piece: search's ranking
    (before any refusal, as the baseline refuses nothing) is at least as good on every set."""
    _, report = all_sets
    base = _entry(report, name)["baseline"]["kinds"]["paraphrase"]
    ours = _entry(report, name)["modes"]["hybrid"]["ranked"]["paraphrase"]
    assert ours["recall@5"] >= base["recall@5"] and ours["mrr"] >= base["mrr"], (ours, base)


@pytest.mark.parametrize("name", _short(_KNIFE_EDGE, "team-data", "team-mobile"))
def test_ranking_held_out_is_never_below_the_naive_dense_baseline(all_sets, name):
    """With the keyword weight fitted on the other sets (ADR-0088, ADR-0091)."""
    _, report = all_sets
    base = _entry(report, name)["baseline"]["kinds"]["paraphrase"]
    ours = report["leave_one_out"]["hybrid"][name]["ranked"]["paraphrase"]
    assert ours["recall@5"] >= base["recall@5"] and ours["mrr"] >= base["mrr"], (ours, base)


@pytest.mark.parametrize(
    "name",
    _short(
        "semantic alone puts one answer second where the baseline has it first (MRR 0.871 vs 0.875); "
        "the default, hybrid, is above both (0.907); on team-data, 0.702 vs 0.756 (" + _KNIFE_EDGE + ")",
        "team-platform",
        "team-data",
    ),
)
def test_semantic_mode_is_never_below_the_naive_dense_baseline(all_sets, name):
    _, report = all_sets
    entry = _entry(report, name)
    base, ours = entry["baseline"]["kinds"]["paraphrase"], entry["modes"]["semantic"]["ranked"]["paraphrase"]
    assert ours["recall@5"] >= base["recall@5"] and ours["mrr"] >= base["mrr"], (ours, base)


@pytest.mark.parametrize("name", SETS)
def test_keyword_questions_and_titles_are_found_first(all_sets, name):
    _, report = all_sets
    hybrid = _entry(report, name)["modes"]["hybrid"]
    assert hybrid["kinds"]["keyword"]["recall@5"] == 1.0
    found, asked = map(int, hybrid["titles_first"].split("/"))
    assert found == asked > 0


@pytest.mark.parametrize("name", SETS)
def test_at_most_one_answerable_question_is_refused_in_sample(all_sets, name):
    """The shipped band: never more than one plain question refused on any set."""
    _, report = all_sets
    assert _entry(report, name)["modes"]["hybrid"]["answerable_refused"] <= 1


@pytest.mark.parametrize("name", SETS)
def test_at_most_one_answerable_question_is_refused_held_out(all_sets, name):
    """The band fitted on the other sets."""
    _, report = all_sets
    assert report["leave_one_out"]["hybrid"][name]["answerable_refused"] <= 1


@pytest.mark.parametrize(
    "name",
    _short(
        "absent questions as close in meaning as answerable ones, whose missing words carry as little of "
        "it: neither the bundled model nor one five times its size tells them apart (ADR-0089, ADR-0094)",
        "team-nygard",
        "team-platform",
        "team-clinic",
        "team-ml",
        "team-mobile",
        "team-data",
        "team-security",
        "team-games",
        among=OURS,
    ),
)
def test_small_folders_refuse_two_thirds_of_what_they_cannot_answer(all_sets, name):
    """In-sample and held out."""
    _, report = all_sets
    for result in (_entry(report, name)["modes"]["hybrid"], report["leave_one_out"]["hybrid"][name]):
        refused, absent = _counts(result)
        assert refused * 3 >= absent * 2, result


def test_the_shipped_constants_are_what_fitting_on_every_set_picks(all_sets):
    """No hand-set number: the shipped band is the fit over every set (and over six with cometbft, docs/search.md); the ranking's
    constants are not fitted here at all (ADR-0080), and keyword mode has none."""
    _, report = all_sets
    shipped = dataclasses.asdict(search.DEFAULT_TUNING)
    assert report["tuning"] == shipped
    assert report["fit_all"]["hybrid"] == shipped == report["fit_all"]["semantic"]
    assert report["fit_all"]["keyword"] == shipped


def test_leave_one_folder_out_scores_each_set_with_the_band_fitted_on_the_others(all_sets):
    _, report = all_sets
    for mode in ("hybrid", "semantic"):
        lofo = report["leave_one_out"][mode]
        assert sorted(lofo) == sorted(SETS)
        for name, result in lofo.items():
            assert set(result["fit"]) == {f.name for f in dataclasses.fields(search.Tuning)}
            assert result["kinds"]["keyword"]["recall@5"] == 1.0, (mode, name)
            assert 0.0 <= result["kinds"]["paraphrase"]["mrr"] <= result["kinds"]["paraphrase"]["recall@5"] <= 1.0


def test_keyword_mode_refuses_only_a_question_no_record_matches(all_sets):
    """No meaning to measure: a question is refused only when no record uses any of its words
    ("someone asks to be forgotten", for an erasure record, is the one such in these sets)."""
    _, report = all_sets
    for entry in report["sets"]:
        keyword = entry["modes"]["keyword"]
        assert keyword["answerable_refused"] <= 1, entry["name"]
        for miss in keyword["misses"]:
            assert not miss.get("refused") or miss["reason"] == "no decision uses the question's words"


def test_the_report_reads_as_tables_beside_the_baseline_with_the_leave_one_out_figures(all_sets, capsys, monkeypatch):
    root, _ = all_sets
    monkeypatch.chdir(root)
    out = run(capsys, "eval", *_pairs(("team-madr", "team-plain")), "--mode", "hybrid").out
    assert "team-madr · hybrid (k=5)" in out and "leave one folder out" in out
    assert "team-plain · naive dense baseline" in out


def test_the_sets_are_copied_unmodified_and_a_close_meaning_is_never_refused_for_a_word(all_sets):
    root, _ = all_sets
    sets = evaluation.question_sets(
        Workspace.discover(root),
        [CORPORA / "cloud-platform-queries.json", FOLDERS / "team-nygard-queries.json"],
        [CORPORA / "cloud-platform", FOLDERS / "team-nygard"],
    )
    cloud, nygard = sets
    for qset, source in ((cloud, CORPORA / "cloud-platform"), (nygard, FOLDERS / "team-nygard")):
        copied = sorted(p.relative_to(qset.ws.adr_path) for p in qset.ws.adr_path.rglob("*") if p.is_file())
        files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file())
        assert copied == files
        assert all((qset.ws.adr_path / p).read_bytes() == (source / p).read_bytes() for p in files)
    first = next(cloud.ws.adr_path.glob("*.md"))
    before = first.stat().st_ctime_ns
    evaluation.question_sets(
        Workspace.discover(root), [CORPORA / "cloud-platform-queries.json"], [CORPORA / "cloud-platform"]
    )
    assert first.stat().st_ctime_ns == before  # a rerun rewrites nothing
    ctx = search.prepare(nygard.ws, mode="hybrid")
    # "keep" is a word the records never use, and "policy" and "expiry" too; the meaning is close:
    # answered, the second with low confidence (the folder lacks two of its three words).
    for question, sure in (
        ("where do we keep session tokens", "high"),
        ("what is our policy on session expiry", "low"),
    ):
        answer = search.run_query(ctx, question)
        assert not answer["no_strong_match"] and answer["results"][0]["path"].endswith(
            "0002-keep-session-tokens-in-redis.md"
        )
        assert answer["confidence"] == sure, question
    unknown = search.run_query(ctx, "what is our policy on session expiry")["signals"]["unknown"]
    assert {"policy", "expiry"} <= set(unknown)
    far = search.run_query(ctx, "how do we translate the site into German")
    assert far["no_strong_match"] and far["confidence"] == "none" and far["best_weak"]
    assert far["signals"]["top_cosine"] <= far["signals"]["floor"]


def test_mismatched_or_unreadable_sets_are_a_usage_error(repo, capsys, tmp_path):
    err = run(
        capsys,
        "eval",
        "--queries",
        str(CORPORA / "tdr-queries.json"),
        "--folder",
        str(CORPORA / "tdr"),
        "--folder",
        str(CORPORA / "cometbft"),
        code=2,
    ).err
    assert "1 --queries but 2 --folder" in err and "hint:" in err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"questions": [{"q": 7}]}))
    assert (
        "cannot read queries file"
        in run(capsys, "eval", "--queries", str(bad), "--folder", str(CORPORA / "tdr"), code=2).err
    )
    hostile = tmp_path / "hostile-queries.json"
    for where in ("../../outside", ".", ".adr-cache", "docs/../..", "/etc"):
        hostile.write_text(json.dumps({"adr_dir": where, "questions": []}))
        err = run(capsys, "eval", "--queries", str(hostile), "--folder", str(CORPORA / "tdr"), code=2).err
        assert "not a plain relative path" in err, where
    assert not (repo.parent / "outside").exists()
    above = run(
        capsys, "eval", "--queries", str(CORPORA / "tdr-queries.json"), "--folder", str(tmp_path), code=2
    ).err  # the folder holds the repository, and so its cache: no copy into itself
    assert "holds this repository's cache" in above and not (repo / ".adr-cache" / "eval").exists()


def test_modes_are_checked_and_may_be_listed(repo, capsys):
    pair = ["--queries", str(CORPORA / "tdr-queries.json"), "--folder", str(CORPORA / "tdr")]
    err = run(capsys, "eval", *pair, "--mode", "keyword,bogus", code=2).err
    assert err.startswith("error: unknown mode 'bogus'") and "hint: choose from: all, keyword" in err
    report = json.loads(run(capsys, "eval", *pair, "--mode", "keyword", "--json").out)
    assert list(report["sets"][0]["modes"]) == ["keyword"]


def test_a_cache_that_cannot_take_the_copy_is_a_clear_error(repo, capsys):
    (repo / ".adr-cache").write_text("in the way")
    err = run(
        capsys, "eval", "--queries", str(CORPORA / "tdr-queries.json"), "--folder", str(CORPORA / "tdr"), code=2
    ).err
    assert err.startswith("error: the cache path") and "hint:" in err and "Traceback" not in err
    assert (repo / ".adr-cache").read_text() == "in the way"


def test_two_sets_of_one_name_stay_apart(repo):
    sets = evaluation.question_sets(Workspace.discover(repo), [CORPORA / "tdr-queries.json"] * 3, [CORPORA / "tdr"] * 3)
    assert [s.name for s in sets] == ["tdr", "tdr-2", "tdr-3"]


def test_the_keyword_weight_is_the_smallest_that_puts_no_set_below_the_baseline(monkeypatch):
    """The rule alone (the figures are the eval run's above): paraphrase recall and MRR at or
    above the baseline on every set (other kinds held to recall only), one grid step inside the
    lower edge; one weight alone holding is taken; where no weight holds on every set, the same
    among those that hold on the most."""
    base = {
        "ran": True,
        "kinds": {"paraphrase": {"recall@5": 1.0, "mrr": 0.8}, "keyword": {"recall@5": 1.0, "mrr": 1.0}},
    }

    def figures(mrr: float, keyword_mrr: float = 0.5) -> dict:
        return {"paraphrase": {"recall@5": 1.0, "mrr": mrr}, "keyword": {"recall@5": 1.0, "mrr": keyword_mrr}}

    # set name -> the weights (lowest, highest) at which it stays at or above the baseline
    def runs(spans: dict[str, tuple[float, float]]) -> list:
        monkeypatch.setattr(
            evaluation,
            "ranked",
            lambda run, limit, tuning: figures(
                0.8 if spans[run.name][0] <= tuning.keyword_weight <= spans[run.name][1] else 0.7
            ),
        )
        return [_FakeRun(name, base) for name in spans]

    assert evaluation.fit_weight(runs({"large": (0.005, 0.05), "small": (0.0, 0.02)})) == 0.01  # a step inside
    assert evaluation.fit_weight(runs({"a": (0.0, 1.0), "b": (0.0, 1.0)})) == 0.005  # never the grid's edge
    assert evaluation.fit_weight(runs({"a": (0.01, 0.01), "b": (0.0, 0.03)})) == 0.01  # the one that holds
    # no weight holds on both: every weight holds on one; a step inside the grid's edge
    assert evaluation.fit_weight(runs({"x": (0.025, 1.0), "y": (0.0, 0.02)})) == 0.005
    # most sets hold between 0.01 and 0.02: a step inside that
    assert evaluation.fit_weight(runs({"x": (0.01, 0.02), "y": (0.01, 0.05), "z": (0.04, 0.05)})) == 0.015


@dataclasses.dataclass
class _FakeRun:
    name: str
    baseline: dict | None = None


def test_eval_measures_the_users_own_model_and_sets_the_baseline_on_it(repo, capsys, tmp_path, monkeypatch):
    """With `embed-model` in the user's config, `adr eval` scores that model (the question it
    answers: what does my model give on my folder?), and the naive baseline runs on it too."""
    folder = own_model(tmp_path)
    loaded: list[str] = []
    real_load = embed.load
    monkeypatch.setattr(embed, "load", lambda cache_dir, model="": loaded.append(model) or real_load(cache_dir, model))
    pair = ["--queries", str(FOLDERS / "team-madr-queries.json"), "--folder", str(FOLDERS / "team-madr")]
    report = json.loads(run(capsys, "eval", *pair, "--mode", "semantic", "--json").out)
    (scratch,) = (repo / ".adr-cache" / "eval").iterdir()
    header = json.loads((scratch / ".adr-cache/index/current/meta.json").read_text())["vectors"]
    assert header["contract"]["model"] == f"local:{folder.resolve()}"
    assert loaded and set(loaded) == {str(folder)}  # the engine and the baseline: one model
    ours = report["sets"][0]["modes"]["semantic"]["kinds"]["paraphrase"]
    assert report["sets"][0]["baseline"]["ran"] and ours["n"] == 9
