from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adr_memory.history.walk import CACHE_SCHEMA
from tests.helpers import adr_text, commit, git, run, sealed_env

A = "docs/adr/0001-db.md"


def _states(capsys, *args):
    data = json.loads(run(capsys, "stale", "--json", *args).out)
    return {d["id"]: d for d in data["decisions"]}


def _oracle(repo, anchor, paths):
    return sorted(git(repo, "diff", "--name-only", anchor, "HEAD", "--", *paths).split())


def test_edit_makes_stale_and_the_git_cli_agrees(repo, capsys):
    anchor = commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1", "src/other.py": "1"}, "decide")
    commit(repo, {"src/other.py": "2"}, "unrelated")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"
    commit(repo, {"src/db/a.py": "2"}, "touch db")
    commit(repo, {"src/db/new.py": "x"}, "add db file")
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["anchor"] == anchor
    assert got["changed"] == _oracle(repo, anchor, ["src/db"]) == ["src/db/a.py", "src/db/new.py"]
    assert got["commits_since"] == 2 and got["newest_commit"]["subject"] == "add db file"
    assert run(capsys, "stale", "--fail", code=1)


def test_a_glob_written_from_the_current_folder_governs_the_same_files(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["./src/db/*.py"]), "src/db/a.py": "1"}, "decide")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"
    commit(repo, {"src/db/a.py": "2"}, "touch db")
    assert _states(capsys)["ADR-0001"]["changed"] == ["src/db/a.py"]


def test_revert_is_not_stale(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "change")
    commit(repo, {"src/db/a.py": "1"}, "revert")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"


def test_same_commit_carrying_adr_and_code_is_not_stale(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {A: adr_text("DB", governs=["src/db/**"], body="new"), "src/db/a.py": "2"}, "both")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"


def test_rename_out_of_scope_counts_both_paths(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    git(repo, "mv", "src/db/a.py", "src/a.py")
    commit(repo, {}, "move out")
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["changed"] == ["src/db/a.py"]


def test_merge_brings_a_change(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"src/db/a.py": "2"}, "topic change")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"README": "x"}, "main")
    git(repo, "merge", "-q", "--no-ff", "topic", "-m", "merge")
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["newest_commit"]["subject"] == "merge"


@pytest.mark.parametrize(
    "glob,path,stale",
    [
        ("src/db/**", "src/db/x/y.py", True),
        ("src/db/", "src/db/y.py", True),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/db/a.py", False),
        ("src/?.py", "src/b.py", True),
        ("src/[ab].py", "src/c.py", False),
        ("**/conf.yaml", "deep/er/conf.yaml", True),
        ("src/db", "src/db/z.py", True),
    ],
)
def test_glob_forms(repo, capsys, glob, path, stale):
    commit(
        repo,
        {
            A: adr_text("DB", governs=[glob]),
            "src/db/keep.py": "1",
            "src/a.py": "1",
            "src/b.py": "1",
            "src/c.py": "1",
            "deep/er/conf.yaml": "1",
            "src/db/x/y.py": "1",
            "src/db/y.py": "1",
            "src/db/z.py": "1",
            "src/db/a.py": "1",
        },
        "decide",
    )
    commit(repo, {path: "changed"}, "change")
    assert (_states(capsys)["ADR-0001"]["state"] == "stale") is stale


def test_depends_on_cascades_and_scope_missing_and_not_accepted(repo, capsys):
    commit(
        repo,
        {
            A: adr_text("DB", governs=["src/db/**"]),
            "src/db/a.py": "1",
            "docs/adr/0002-api.md": adr_text("API", governs=["src/api/**"], extra="depends-on: [1]"),
            "src/api/x.py": "1",
            "docs/adr/0003-ghost.md": adr_text("Ghost", governs=["nowhere/**"]),
            "docs/adr/0004-idea.md": adr_text("Idea", status="proposed", governs=["src/db/**"]),
        },
        "decide",
    )
    commit(repo, {"src/db/a.py": "2"}, "change")
    states = _states(capsys)
    assert [states[i]["state"] for i in ("ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004")] == [
        "stale",
        "at-risk",
        "scope-missing",
        "not-accepted",
    ]


def test_worktree_adds_uncommitted_changes(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    (repo / "src/db/a.py").write_text("dirty")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"
    assert _states(capsys, "--worktree")["ADR-0001"]["state"] == "stale"


def test_affirm_moves_the_anchor_once_committed(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "change")
    before = (repo / A).read_text()
    run(capsys, "affirm", "1", "--note", "still holds")
    after = (repo / A).read_text()
    assert after.replace(after.split("\n")[4] + "\n", "", 1) == before  # only `reviewed:` added
    assert "reviewed: {commit: " in after and "note: still holds}" in after
    assert _states(capsys)["ADR-0001"]["state"] == "stale"
    commit(repo, {}, "affirm")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"


def test_only_an_accepted_decision_is_affirmed(repo, capsys):
    """A loop over `adr stale`'s rows affirmed superseded records too: "this decision holds"
    was written into decisions that do not. The hint names the end of the successors' chain."""
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A", status="superseded", extra="superseded-by: [ADR-0002]"),
            "docs/adr/0002-b.md": adr_text("B", status="superseded", extra="superseded-by: [ADR-0003]"),
            "docs/adr/0003-c.md": adr_text("C"),
            "docs/adr/0004-d.md": adr_text("D", status="proposed"),
            "docs/adr/0005-e.md": adr_text("E", status="deprecated"),
        },
    )
    before = {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()}
    for ident, hint in (("1", "adr affirm ADR-0003"), ("4", "adr accept ADR-0004"), ("5", "adr show ADR-0005")):
        err = run(capsys, "affirm", ident, code=2).err
        assert err.startswith(f"error: ADR-000{ident} is ") and hint in err.split("hint:")[1]
    assert {p.name: p.read_bytes() for p in (repo / "docs/adr").iterdir()} == before
    run(capsys, "affirm", "3")


def test_a_reviewed_commit_the_clone_lacks_counts_where_the_review_landed(repo, capsys):
    commit(
        repo,
        {A: adr_text("DB", governs=["src/db/**"], extra="reviewed: {commit: deadbeefdeadbeef}"), "src/db/a.py": "1"},
        "decide",
    )
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "fresh" and "deadbeefdead, a commit this clone does not have" in got["reason"]
    commit(repo, {"src/db/a.py": "2"}, "change")
    assert _states(capsys)["ADR-0001"]["state"] == "stale"


def test_shallow_clone_is_unknown_not_fresh(repo, capsys, tmp_path, monkeypatch):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    for i in range(3):
        commit(repo, {f"src/{i}": "x"}, f"c{i}")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(clone)], check=True)
    monkeypatch.chdir(clone)
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "unknown" and "shallow" in got["reason"]


def test_why_and_guard(repo, capsys):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"], body="We use PostgreSQL."), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "change")
    out = run(capsys, "why", "src/db/a.py", "src/none.py").out
    assert "ADR-0001" in out and "We use PostgreSQL." in out and "no decision governs" in out
    data = json.loads(run(capsys, "guard", "src/db/a.py", "--json").out)
    d = data["paths"][0]["decisions"][0]
    assert (d["id"], d["state"], d["excerpt"]) == ("ADR-0001", "stale", "We use PostgreSQL.")


def test_why_shows_no_excerpt_of_a_decision_the_template_still_holds(repo, capsys):
    """`adr new` from the MADR template, never written: its outcome reads `Chosen option: "",
    because .` once its comments are gone, which tells a reader nothing."""
    run(capsys, "new", "Use Postgres", "--governs", "src/db/**")
    commit(repo, {"src/db/a.py": "1"}, "decide")
    data = json.loads(run(capsys, "guard", "src/db/a.py", "--json").out)
    assert data["paths"][0]["decisions"][0]["excerpt"] == ""
    assert "Chosen option" not in run(capsys, "why", "src/db/a.py").out


@pytest.mark.parametrize("affirmations", [1, 2])
def test_reverting_an_affirmation_puts_back_the_review_before_it(repo, capsys, affirmations):
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    for n in range(affirmations):
        commit(repo, {"src/db/a.py": str(n + 2)}, f"change {n}")
        run(capsys, "affirm", "1", "--note", f"review {n}")
        commit(repo, {}, f"affirm {n}")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"
    git(repo, "revert", "--no-edit", "HEAD")  # the last review is taken back; its code change stays
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["changed"] == ["src/db/a.py"]
    newest = json.loads(run(capsys, "log", "--json").out)["events"][0]
    assert newest["kind"] == "unaffirm"  # not shown as a review


def test_an_affirmation_amended_into_the_code_commit_counts(repo, capsys):
    """`adr affirm` names HEAD; `git commit --amend` then replaces HEAD with one that holds both."""
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"}, "decide")
    commit(repo, {"src/db/a.py": "2"}, "change db")
    assert _states(capsys)["ADR-0001"]["state"] == "stale"
    run(capsys, "affirm", "1", "--note", "still holds")
    git(repo, "commit", "-q", "-a", "--amend", "--no-edit")
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "fresh" and "(off this line: amended, rebased or squashed)" in got["reason"]


def _review_on_a_branch(repo, capsys, main_touches, together=False):
    """A decision reviewed on `topic` after a code change (committed with the review when
    `together`); main moves meanwhile."""
    commit(repo, {A: adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1", "src/db/b.py": "1"}, "decide")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"notes.txt": "topic work"}, "start topic")  # the review is made off main's line
    if not together:
        commit(repo, {"src/db/a.py": "2"}, "change db")
    run(capsys, "affirm", "1", "--note", "reviewed on topic")
    commit(repo, {"src/db/a.py": "2"} if together else {}, "affirm")
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"
    git(repo, "checkout", "-q", "main")
    commit(repo, main_touches, "main moves")


def _merge(repo, how):
    if how == "rebase":
        git(repo, "checkout", "-q", "topic")
        git(repo, "rebase", "-q", "main")
    elif how == "merge":  # a merge commit: the review is reachable, but not on main's first parents
        git(repo, "merge", "--no-ff", "-q", "-m", "Merge topic", "topic")
    else:  # GitHub's "Squash and merge", then the branch is deleted
        git(repo, "merge", "--squash", "-q", "topic")
        git(repo, "commit", "-qm", "topic (squashed)")
        git(repo, "branch", "-qD", "topic")


@pytest.mark.parametrize("together", [False, True], ids=["affirm-alone", "affirm-with-code"])
@pytest.mark.parametrize("how", ["rebase", "squash", "merge"])
def test_a_review_on_a_branch_still_counts_after_it_is_merged(repo, capsys, tmp_path, monkeypatch, how, together):
    _review_on_a_branch(repo, capsys, {"README": "main moves"}, together)
    _merge(repo, how)
    got = _states(capsys)["ADR-0001"]
    said = ", on a branch merged into this line" if how == "merge" else " (off this line: amended, rebased or squashed)"
    assert got["state"] == "fresh" and said in got["reason"]
    if how == "squash":
        clone = tmp_path / "clone"  # CI's clone has no commit of the deleted branch
        git(tmp_path, "clone", "-q", f"file://{repo}", str(clone))
        monkeypatch.chdir(clone)
        got = _states(capsys)["ADR-0001"]
        assert got["state"] == "fresh" and "a commit this clone does not have" in got["reason"]


@pytest.mark.parametrize("how", ["rebase", "merge"])
def test_code_the_branch_changed_after_its_review_is_stale_once_merged(repo, capsys, how):
    """GitHub checks a pull request out as the merge of the branch into its base: a change
    pushed after the review must be stale there, as it is on the branch."""
    _review_on_a_branch(repo, capsys, {"README": "main moves"}, together=True)
    git(repo, "checkout", "-q", "topic")
    commit(repo, {"src/db/a.py": "3"}, "after the review")
    assert _states(capsys)["ADR-0001"]["state"] == "stale"
    git(repo, "checkout", "-q", "main")
    _merge(repo, how)
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["changed"] == ["src/db/a.py"]


@pytest.mark.parametrize("how", ["rebase", "squash", "merge"])
def test_code_main_changed_under_a_review_on_a_branch_is_stale(repo, capsys, how):
    _review_on_a_branch(repo, capsys, {"src/db/b.py": "main's change"})
    _merge(repo, how)
    got = _states(capsys)["ADR-0001"]
    assert got["state"] == "stale" and got["changed"] == ["src/db/b.py"]
    assert "1 of them not seen by the review made at" in got["reason"]
    commit(
        repo,
        {
            A: adr_text(
                "DB",
                governs=["src/db/**"],
                body="Revised.",
                extra=next(line for line in (repo / A).read_text().splitlines() if line.startswith("reviewed:")),
            )
        },
        "revise the decision",
    )
    assert _states(capsys)["ADR-0001"]["state"] == "fresh"  # a new version anchors, whatever the review


@pytest.mark.parametrize(
    "shape",
    [
        lambda shas: {"schema": "any", "commits": []},
        lambda shas: [1, 2, 3],
        lambda shas: {"schema": CACHE_SCHEMA, "commits": dict.fromkeys(shas, "garbage")},
        lambda shas: {"schema": CACHE_SCHEMA, "commits": {s: [None, [["x"]]] for s in shas}},
        lambda shas: {
            "schema": CACHE_SCHEMA,
            "folders": [["docs/adr"]],
            "commits": {s: [None, [], {}, 5] for s in shas},
            "counts": {},
        },
        lambda shas: {"schema": CACHE_SCHEMA, "folders": "docs", "commits": {}, "counts": {}},
        lambda shas: {
            "schema": CACHE_SCHEMA,
            "folders": [],
            "commits": {},
            "counts": {"src/db": [shas[1], -3, {"x": 1}]},
        },
        lambda shas: {"schema": CACHE_SCHEMA, "folders": [], "commits": {}, "counts": {"src/db": [shas[1], 5, {}]}},
    ],
)
def test_a_history_cache_of_any_wrong_shape_is_discarded(repo, capsys, shape):
    base = commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"})
    head = commit(repo, {"src/db/a.py": "2"})
    cache = repo / ".adr-cache"
    cache.mkdir()
    (cache / "history.json").write_text(json.dumps(shape([base, head])))
    result = run(capsys, "stale", "--fail", "--json", code=1)
    assert [d["state"] for d in json.loads(result.out)["decisions"]] == ["stale"]


def _submodule_repo(repo, tmp_path, governs):
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q", "-b", "main")
    commit(sub, {"a.txt": "a"})
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/sub")
    commit(repo, {"docs/adr/0001-v.md": adr_text("Vendor", governs=[governs])}, "add")
    commit(sub, {"b.txt": "b"})
    git(repo / "vendor/sub", "-c", "protocol.file.allow=always", "pull", "-q", "origin", "main")
    git(repo, "add", "vendor/sub")
    git(repo, "commit", "-q", "-m", "bump the submodule")


@pytest.mark.parametrize("governs", ["vendor/sub", "vendor/**"])
def test_a_moved_submodule_pointer_makes_its_decision_stale_and_crashes_nothing(repo, tmp_path, capsys, governs):
    _submodule_repo(repo, tmp_path, governs)
    verdicts = json.loads(run(capsys, "stale", "--json", code=0).out)["decisions"]
    assert [(v["state"], v["changed"]) for v in verdicts] == [("stale", ["vendor/sub"])]
    guard = json.loads(run(capsys, "guard", "vendor/sub", "--json").out)
    assert [d["id"] for d in guard["paths"][0]["decisions"]] == ["ADR-0001"]
    assert "ADR-0001" in run(capsys, "why", "vendor/sub").out
    for args in (
        ["list"],
        ["show", "1"],
        ["search", "vendor", "--mode", "keyword"],
        ["export"],
        ["check", "--base", "HEAD~1"],
        ["review", "--base", "HEAD~1"],
        ["log", "1"],
    ):
        result = run(capsys, *args, code=None)
        assert result.code in (0, 1) and "error:" not in result.err, (args, result.err)
    hook = subprocess.run(
        [sys.executable, "-m", "adr_memory.hook", "guard", "vendor/sub"], cwd=repo, capture_output=True, text=True
    )
    assert hook.returncode == 0 and "ADR-0001" in hook.stdout and "Traceback" not in hook.stderr


def test_a_submodule_named_like_a_record_is_no_record_in_any_commit(repo, capsys):
    """Its commit lives in another repository: read as a record's bytes, it was a missing object
    that failed `list --at` and `check --base`, or a commit's text parsed as a decision."""
    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "one")
    for n, sha in ((5, git(repo, "rev-parse", "HEAD")), (6, "1234567890" * 4)):
        git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},docs/adr/000{n}-sub.md")
    git(repo, "commit", "-q", "-m", "two submodules named like records")
    git(repo, "rm", "-q", "--cached", "docs/adr/0006-sub.md")
    commit(repo, {"docs/adr/0007-new.md": adr_text("New")}, "one gone, a record new: a rename?")
    for ref in ("HEAD", "HEAD~1"):
        listed = json.loads(run(capsys, "list", "--at", ref, "--json").out)
        assert [r["id"] for r in listed] == (["ADR-0001", "ADR-0007"] if ref == "HEAD" else ["ADR-0001"])
    run(capsys, "check", "--base", "HEAD~1")
    run(capsys, "review", "--base", "HEAD~2")
    assert [v["version_id"] is not None for v in json.loads(run(capsys, "list", "--json").out)] == [True, True]
    assert "New" in run(capsys, "log", "7").out


def test_a_submodule_that_did_not_move_is_fresh(repo, tmp_path, capsys):
    _submodule_repo(repo, tmp_path, "vendor/sub")
    run(capsys, "affirm", "1")
    git(repo, "commit", "-qam", "affirm")
    verdicts = json.loads(run(capsys, "stale", "--json").out)["decisions"]
    assert [v["state"] for v in verdicts] == ["fresh"]


NYGARD = "# 2. Use the DB\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n"


@pytest.mark.parametrize("style", ["frontmatter", "nygard"])
def test_a_link_or_a_whitespace_fix_does_not_re_anchor(repo, capsys, style):
    two = adr_text("Use the DB", governs=["src/db/**"]) if style == "frontmatter" else NYGARD
    commit(repo, {"docs/adr/0001-a.md": adr_text("A"), "docs/adr/0002-db.md": two, "src/db/a.py": "1"}, "base")
    if style == "nygard":  # governs lives in frontmatter only: add it without touching the body
        commit(repo, {"docs/adr/0002-db.md": '---\ngoverns: ["src/db/**"]\n---\n' + NYGARD}, "govern")
    commit(repo, {"src/db/a.py": "2"}, "change the db code")
    run(capsys, "new", "Amend the DB", "-l", "2:Amends:Amended by")
    commit(repo, {}, "link")
    text = (repo / "docs/adr/0002-db.md").read_text()
    commit(repo, {"docs/adr/0002-db.md": text.replace("\n\n## Context", "  \n\n## Context")}, "whitespace")
    states = {d["id"]: d["state"] for d in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    assert states["ADR-0002"] == "stale"
    assert "amended by" in text.lower()  # the link was written, and it still did not re-anchor
    run(capsys, "affirm", "2")
    commit(repo, {}, "affirm")
    states = {d["id"]: d["state"] for d in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    assert states["ADR-0002"] == "fresh"


def test_stale_agrees_with_a_git_diff_oracle_on_a_generated_history(tmp_path, monkeypatch, capsys):
    """300 commits, 20 decisions revised over time: for every accepted decision the files
    `adr stale` names are exactly what `git diff --name-only anchor HEAD` names under its globs."""
    bench = Path(__file__).parents[2] / "benchmarks"
    monkeypatch.syspath_prepend(str(bench))
    from bench_stale import git_oracle
    from genrepo import generate

    root = tmp_path / "gen"
    generate(root, files=400, commits=300, adrs=20)
    monkeypatch.chdir(root)
    ours = {d["id"]: sorted(d["changed"]) for d in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    oracle = git_oracle(root)
    assert oracle and sum(bool(v) for v in oracle.values()) >= 3
    assert {k: ours[k] for k in oracle} == oracle


def test_records_kept_in_a_submodule_are_unknown_not_fresh_for_ever(repo, tmp_path, capsys):
    """An ADR folder that is a submodule (a shared decisions repository): the records are in
    the work tree, but no commit of this repository holds them. They were taken for drafts,
    anchored at HEAD, and so fresh whatever changed."""
    shared = tmp_path / "decisions"
    shared.mkdir()
    git(shared, "init", "-q", "-b", "main")
    commit(shared, {"0001-db.md": adr_text("Use Postgres", governs=["src/db/**"])}, "shared")
    commit(repo, {"src/db/a.py": "1"}, "code")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(shared), "docs/adr")
    git(repo, "commit", "-q", "-m", "decisions from the shared repository")
    commit(repo, {"src/db/a.py": "2"}, "change governed code")
    verdict = json.loads(run(capsys, "stale", "--json").out)["decisions"][0]
    assert verdict["state"] == "unknown" and "inside submodule docs/adr" in verdict["reason"]
    data = json.loads(run(capsys, "check", "--base", "HEAD~1", "--format", "json", code=1).out)
    unknown = [f for f in data["findings"] if f["kind"] == "unknown"]
    assert unknown and "--allow-unknown" in unknown[0]["hint"] and "fetch" not in unknown[0]["hint"]
    assert "ADR-0001 is inside submodule docs/adr: its versions are that repository's" in run(capsys, "log", "1").err
    (repo / "docs/adr/0002-new.md").write_text(adr_text("A draft here", governs=["src/db/**"]))
    drafts = {v["id"]: v["state"] for v in json.loads(run(capsys, "stale", "--json").out)["decisions"]}
    assert drafts["ADR-0002"] == "unknown"  # inside the submodule's folder too


# ------------------------------------------------------------------ the verdicts' words, on one history

DAY = 86400
MARCH = 1709294400  # 2024-03-01T12:00:00Z


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """Decisions of every standing, recorded on 2024-03-01; src/db changed on 03-02 and 03-04,
    src/web on 03-03 (a file 0002 does not govern)."""
    root = tmp_path_factory.mktemp("judged") / "repo"
    root.mkdir()
    with sealed_env(tmp_path_factory.mktemp("home")) as mp:

        def on(day: int) -> None:
            for role in ("AUTHOR", "COMMITTER"):
                mp.setenv(f"GIT_{role}_NAME", "Ada Author")
                mp.setenv(f"GIT_{role}_EMAIL", "ada@example.com")
                mp.setenv(f"GIT_{role}_DATE", f"2024-03-{day:02d}T12:00:00Z")

        git(root, "init", "-q", "-b", "main")
        on(1)
        decide = commit(
            root,
            {
                "docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]),
                "docs/adr/0002-web.md": adr_text("Web", governs=["src/web/*.py"], extra="depends-on: [1]"),
                "docs/adr/0003-idea.md": adr_text("Idea", status="proposed", governs=["src/**"]),
                "docs/adr/0004-style.md": adr_text("Style"),
                "docs/adr/0005-ghost.md": adr_text("Ghost", governs=["nowhere/**", "src/web/b.py", "gone.txt"]),
                "docs/adr/0006-old.md": adr_text("Old", status="deprecated"),
                "docs/adr/0007-on-old.md": adr_text("On old", governs=["src/web/*.py"], extra="depends-on: [6]"),
                "docs/adr/0008-was.md": adr_text("Was", status="superseded", extra="superseded-by: [ADR-0009]"),
                "docs/adr/0009-is.md": adr_text("Is", governs=["src/web/*.py"], extra="supersedes: [ADR-0008]"),
                "docs/adr/0010-on-was.md": adr_text("On was", governs=["src/web/*.py"], extra="depends-on: [8]"),
                "src/db/a.py": "1",
                "src/web/b.py": "1",
            },
            "decide",
        )
        on(2)
        first = commit(root, {"src/db/a.py": "2"}, "db: first change")
        on(3)
        commit(root, {"src/web/notes.md": "n"}, "web: notes only")
        on(4)
        second = commit(root, {"src/db/b.py": "new"}, "db: a second file")
    return root, {"decide": decide, "first": first, "second": second}


def _verdicts(root, **kw):
    from adr_memory.history import staleness
    from adr_memory.history.workspace import Workspace

    return {v.id: v for v in staleness.report(Workspace.discover(root), now=MARCH + 10 * DAY + 3600, **kw)}


def test_each_verdict_says_its_state_and_why_in_words(judged):
    from adr_memory.history.staleness import NO_CODE

    root, c = judged
    verdicts = _verdicts(root)
    said = {i: (v.state, v.reason) for i, v in verdicts.items()}
    assert said == {
        "ADR-0001": ("stale", "2 governed file(s) changed since the anchor"),
        "ADR-0002": ("at-risk", "depends on ADR-0001, which is stale"),
        "ADR-0003": ("not-accepted", "status is proposed"),
        "ADR-0004": ("fresh", NO_CODE),
        "ADR-0005": ("scope-missing", "no file at HEAD matches nowhere/**, gone.txt"),
        "ADR-0006": ("not-accepted", "status is deprecated"),
        "ADR-0007": ("at-risk", "depends on ADR-0006, which is deprecated"),
        "ADR-0008": ("not-accepted", "status is superseded"),
        "ADR-0009": ("fresh", "governed code unchanged since the anchor"),
        "ADR-0010": ("at-risk", "depends on ADR-0008, which is superseded by ADR-0009"),
    }
    db = verdicts["ADR-0001"]
    assert db.changed == ("src/db/a.py", "src/db/b.py") and db.anchor == c["decide"]
    assert db.days_since_anchor == 10 and db.stale and db.known
    assert verdicts["ADR-0005"].missing_globs == ("nowhere/**", "gone.txt")
    assert verdicts["ADR-0003"].anchor == c["second"]  # not assessed: HEAD stands in
    assert verdicts["ADR-0001"].commits_since is None  # counted only when asked


def test_commits_since_the_anchor_count_those_that_changed_what_went_stale(judged):
    root, c = judged
    db = _verdicts(root, count=None)["ADR-0001"]
    assert (db.commits_since, db.commits_since_complete) == (2, True)  # web's commit is not counted
    assert db.newest_commit == {"sha": c["second"], "date": "2024-03-04T12:00:00Z", "subject": "db: a second file"}
    short = _verdicts(root, count=1)["ADR-0001"]
    assert (short.commits_since, short.commits_since_complete) == (1, False)  # at least one: the window ended


def test_one_record_s_verdict_is_judged_with_what_it_depends_on(judged):
    root, _c = judged
    assert set(_verdicts(root, paths=["docs/adr/0002-web.md"])) == {"ADR-0001", "ADR-0002"}
    assert set(_verdicts(root, paths=["docs/adr/0010-on-was.md"])) == {"ADR-0008", "ADR-0010"}
    assert _verdicts(root, paths=["docs/adr/0404-none.md"]) == {}


def test_an_uncommitted_change_is_stale_only_with_the_work_tree_and_says_so(judged):
    root, _c = judged
    (root / "src/web/b.py").write_text("dirty")
    try:
        assert _verdicts(root)["ADR-0009"].state == "fresh"
        web = _verdicts(root, worktree=True)["ADR-0009"]
        assert (web.state, web.changed) == ("stale", ("src/web/b.py",))
        assert web.reason == "1 governed file(s) changed since the anchor (uncommitted)"
        # committed changes are said as such, whatever the work tree holds besides
        assert _verdicts(root, worktree=True)["ADR-0001"].reason == "2 governed file(s) changed since the anchor"
    finally:
        git(root, "checkout", "--", "src/web/b.py")


def test_whether_stale_fails_and_which_decisions_govern_a_path(judged):
    from dataclasses import replace

    from adr_memory.history import staleness
    from adr_memory.history.workspace import Workspace

    root, c = judged
    verdicts = _verdicts(root)
    assert staleness.fails(verdicts.values())
    calm = [v for v in verdicts.values() if v.state not in staleness.FAILING]
    assert not staleness.fails(calm)
    unknown = [*calm, replace(verdicts["ADR-0009"], state="unknown")]
    assert staleness.fails(unknown) and not staleness.fails(unknown, allow_unknown=True)
    ws = Workspace.discover(root)
    assert [r.id for r in staleness.governing(ws.catalog, "src/db/a.py")] == ["ADR-0001", "ADR-0003"]
    assert [r.id for r in staleness.governing(ws.catalog, "src/web/b.py")] == [
        "ADR-0002", "ADR-0003", "ADR-0005", "ADR-0007", "ADR-0009", "ADR-0010"
    ]  # fmt: skip
    assert [r.id for r in staleness.governing(ws.catalog, "README.md")] == []
    db = ws.catalog.get("1")
    assert staleness.governed_changes(ws, db, c["decide"], c["first"]) == ["src/db/a.py"]
    assert staleness.governed_changes(ws, db, c["first"], c["first"]) == []
    assert staleness.unmatched(ws, ws.catalog) == {"docs/adr/0005-ghost.md": ("nowhere/**", "gone.txt")}


def test_a_record_not_committed_yet_is_anchored_at_head(repo):
    from adr_memory.history import staleness
    from adr_memory.history.workspace import Workspace

    (repo / "docs/adr").mkdir(parents=True)
    (repo / A).write_text(adr_text("DB", governs=["src/**"]))
    assert staleness.unmatched(Workspace.discover(repo), Workspace.discover(repo).catalog) == {}  # no commit yet
    (repo / A).unlink()
    head = commit(repo, {"src/a.py": "1"}, "code")
    (repo / A).write_text(adr_text("DB", governs=["src/**"]))  # the record left uncommitted
    (verdict,) = staleness.report(Workspace.discover(repo), now=0)
    assert (verdict.state, verdict.anchor, verdict.days_since_anchor) == ("fresh", head, 0)
    assert verdict.to_json()["anchor"] == head and verdict.to_json()["disputed"] == 0
