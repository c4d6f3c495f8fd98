"""The walk and the history cache: only record folders are diffed, renames are found among
records, governed-path touches are kept and extended, and `list` leaves out a history it has
not read yet."""

from __future__ import annotations

import json

import pytest

from adr_memory.history import versions, walk
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git, run

P = "docs/adr/0001-use-x.md"


def _log(capsys, ident="1"):
    return json.loads(run(capsys, "log", ident, "--json").out)["versions"]


def _cache(repo, name="history"):
    return json.loads((repo / f".adr-cache/{name}.json").read_text())


def _steps(repo):
    return _cache(repo, "steps")["commits"]


def test_a_commit_that_leaves_the_record_folders_alone_is_passed_without_a_diff_below_them(repo, monkeypatch):
    monkeypatch.setenv("ADR_NO_GIT", "1")  # dulwich's own walk (with git, these are not read at all: test_gitwalk.py)
    commit(repo, {P: adr_text("Use X"), "src/a/b/c.py": "1"}, "v1")
    for i in range(4):
        commit(repo, {f"src/a/b/{i}.py": str(i)}, f"code {i}")
    asked: list[list[str] | None] = []
    real = Repo.tree_changes

    def spy(self, old, new, prefixes=None):
        asked.append(prefixes)
        return real(self, old, new, prefixes)

    monkeypatch.setattr(Repo, "tree_changes", spy)
    history = versions.walk(Workspace.discover())
    assert asked and all(p is not None and "src" not in p for p in asked)  # never the whole tree
    assert [t.commit.subject for t in history.touches[P]] == ["v1"]
    steps = _steps(repo)
    assert sum(bool(step[1]) for step in steps.values()) == 0  # code commits changed no record


def test_a_record_moved_in_from_a_folder_nobody_names_keeps_its_history(repo, capsys):
    commit(repo, {"architecture/0001-use-x.md": adr_text("Use X", body="one")}, "v1")
    commit(repo, {"architecture/0001-use-x.md": adr_text("Use X", body="two")}, "v2")
    (repo / "docs").mkdir()
    git(repo, "mv", "architecture", "docs/adr")
    commit(repo, {P: adr_text("Use X", body="two, and a little more said")}, "move with an edit")
    assert [v["message"] for v in _log(capsys)] == ["move with an edit", "v2", "v1"]


def test_a_rename_is_found_among_hundreds_of_large_files_leaving_in_the_same_commit(repo, capsys):
    pages = {f"vendor/handbook/{n:04d}-page.md": f"# Page {n}\n\n" + "words " * 2000 for n in range(200)}
    commit(repo, {P: adr_text("Use X", body="one"), **pages}, "v1")
    git(repo, "mv", P, "docs/adr/0001-use-x-and-y.md")
    commit(repo, {**dict.fromkeys(pages), "docs/adr/0001-use-x-and-y.md": adr_text("Use X and Y", body="one")}, "both")
    assert [v["message"] for v in _log(capsys)] == ["both", "v1"]
    oracle = git(repo, "log", "--follow", "--format=%s", "--", "docs/adr/0001-use-x-and-y.md")
    assert oracle.split() == ["both", "v1"]


def test_a_new_record_like_an_old_one_it_did_not_replace_starts_its_own_history(repo, capsys):
    commit(repo, {P: adr_text("Use X", body="one two three four five six")}, "v1")
    git(repo, "rm", "-q", P)
    unlike = adr_text("Use Y", body="\n".join(f"line {n} of something else" for n in range(40)))
    commit(repo, {"docs/adr/0002-use-y.md": unlike}, "replace")
    assert [v["message"] for v in _log(capsys, "2")] == ["replace"]


def test_commits_since_the_anchor_are_kept_and_extended_as_head_moves(repo, capsys):
    commit(repo, {P: adr_text("Use X", governs=["src/**"]), "src/a.py": "1"}, "v1")
    commit(repo, {"src/a.py": "2"}, "one")
    commit(repo, {"docs/other.txt": "x"}, "elsewhere")

    def stale():
        (decision,) = json.loads(run(capsys, "stale", "--json", code=0).out)["decisions"]
        return decision["commits_since"], decision["newest_commit"]["subject"]

    assert stale() == (1, "one")
    assert _cache(repo)["counts"]["src"][1] == 2  # the two newest commits were read
    commit(repo, {"src/b.py": "3"}, "two")
    assert stale() == (2, "two")
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # a chain that no longer holds the cached top
    commit(repo, {"src/a.py": "4"}, "rewritten")
    assert stale() == (2, "rewritten")
    assert stale() == (2, "rewritten")  # warm, the same


def test_commits_are_counted_among_the_newest_and_an_older_anchor_says_at_least(repo, capsys, monkeypatch):
    from adr_memory.history import staleness

    commit(repo, {P: adr_text("Use X", governs=["src/**"]), "src/a.py": "0"}, "v1")
    for n in range(1, 6):
        commit(repo, {"src/a.py": str(n)}, f"touch {n}")
    monkeypatch.setattr(staleness, "COUNT_WINDOW", 2)

    def stale():
        (decision,) = json.loads(run(capsys, "stale", "--json", code=0).out)["decisions"]
        return decision["commits_since"], decision["commits_since_complete"]

    monkeypatch.setenv("COLUMNS", "200")
    row = run(capsys, "stale", code=0).out.splitlines()[3]
    assert row.split()[:2] == ["ADR-0001", "stale"] and " 2+ " in row  # among the two newest: at least two
    assert stale() == (2, False) and stale() == (2, False)  # a function of the commit, not of runs before
    monkeypatch.setattr(staleness, "COUNT_WINDOW", 6)
    assert stale() == (5, True)  # the anchor within the window: all five since it


def test_a_warm_list_reads_no_record_from_git(repo, capsys, monkeypatch):
    commit(repo, {P: adr_text("Use X", status="proposed")}, "v1")
    commit(repo, {P: adr_text("Use X")}, "accept")
    cold = json.loads(run(capsys, "list", "--json").out)
    monkeypatch.setattr(versions, "_parse_blob", lambda *a: pytest.fail("a committed record was parsed"))
    monkeypatch.setattr(Repo, "blob", lambda *a, **k: pytest.fail("a blob was read from git"))
    assert json.loads(run(capsys, "list", "--json").out) == cold


def test_the_first_list_reads_a_long_history_whole_says_so_and_later_runs_reuse_it(repo, capsys, monkeypatch):
    """A run that read part of a long history and left the rest made every run pay for a
    cold walk and never showed versions (issue 56): the first one reads it all, once."""
    from adr_memory.surfaces import app

    commit(repo, {P: adr_text("Use X")}, "v1")
    for i in range(6):
        commit(repo, {f"src/{i}.py": str(i)}, f"c{i}")
    monkeypatch.setattr(app, "LONG_READ", 3)
    first = run(capsys, "list", "--json")
    assert json.loads(first.out)[0]["version_id"].startswith("v")
    assert "git history once; later runs reuse them" in first.err
    assert len(_steps(repo)) == 7
    read, skeleton = [], Repo.skeleton
    monkeypatch.setattr(Repo, "skeleton", lambda self, sha: read.append(sha) or skeleton(self, sha))
    again = run(capsys, "list", "--json", "--history")  # the old flag is still taken, and changes nothing
    assert json.loads(again.out) == json.loads(first.out) and again.err == ""
    assert len(set(read)) <= 1  # HEAD's own tree, not the history behind it


def test_each_walk_over_budget_keeps_what_it_read(repo, capsys):
    commit(repo, {P: adr_text("Use X")}, "v1")
    for i in range(7):
        commit(repo, {f"src/{i}.py": str(i)}, f"c{i}")
    runs = 0
    while True:
        try:
            walk.walk(Workspace.discover(repo), budget=3)
            break
        except walk.Uncached:
            runs += 1
            assert runs < 5
    assert runs == 2 and len(_steps(repo)) == 8


@pytest.mark.parametrize(
    "damage",
    [
        lambda c, s: c.update(info={key: ["x"] for key in c["info"]}),
        lambda c, s: c.update(blobs={key: [1, 2, 3, 4, 5, 6] for key in c["blobs"]}),
        lambda c, s: c.update(diffs=dict.fromkeys(c["diffs"], "src")),
        lambda c, s: c.update(counts={key: ["x", 1, {"y": 2}] for key in c["counts"]}),
        lambda c, s: s.update(folders=[]),
        lambda c, s: s.update(commits={key: [1] for key in s["commits"]}),
    ],
)
def test_a_damaged_entry_is_worked_out_again(repo, capsys, damage):
    commit(repo, {P: adr_text("Use X", governs=["src/**"]), "src/a.py": "1"}, "v1")
    commit(repo, {"src/a.py": "2"}, "code")
    expected = json.loads(run(capsys, "stale", "--json", code=0).out)
    listed = json.loads(run(capsys, "list", "--json").out)
    cache, steps = _cache(repo), _cache(repo, "steps")
    damage(cache, steps)
    (repo / ".adr-cache/history.json").write_text(json.dumps(cache))
    (repo / ".adr-cache/steps.json").write_text(json.dumps(steps))
    assert json.loads(run(capsys, "stale", "--json", code=0).out) == expected
    assert json.loads(run(capsys, "list", "--json").out) == listed


def test_git_s_commit_graph_gives_the_same_history_and_a_damaged_one_is_passed_by(repo, capsys):
    commit(repo, {P: adr_text("Use X", body="one", governs=["src/**"])}, "v1")
    for i in range(80):  # past the 64 commits a walk reads before it opens the graph
        commit(repo, {f"src/{i}.py": str(i)}, f"c{i}")
        if i == 40:
            commit(repo, {P: adr_text("Use X", body="two", governs=["src/**"])}, "v2")
    expected = json.loads(run(capsys, "stale", "--json", code=0).out), _log(capsys)
    git(repo, "commit-graph", "write", "--reachable")
    graph = repo / ".git/objects/info/commit-graph"
    assert graph.is_file()
    for state in ("written", "damaged"):
        if state == "damaged":
            graph.write_bytes(graph.read_bytes()[:200])
        (repo / ".adr-cache/history.json").unlink()
        assert (json.loads(run(capsys, "stale", "--json", code=0).out), _log(capsys)) == expected, state


def _walked(repo):
    history = versions.walk(Workspace.discover())  # a workspace of its own: the cache is read from disk
    return history.touches, history.following, history.truncated, history.chain


def test_the_next_walk_at_the_same_head_reads_the_answer_back_without_replaying_a_step(repo, monkeypatch):
    commit(repo, {"architecture/0001-use-x.md": adr_text("Use X", body="one")}, "v1")
    git(repo, "mv", "architecture", "docs")
    commit(repo, {"docs/0002-use-y.md": adr_text("Use Y")}, "moved")
    commit(repo, {"src/a.py": "1"}, "code")
    first = _walked(repo)
    with monkeypatch.context() as patched:
        patched.setattr(walk, "_step", lambda *a: pytest.fail("a step was replayed"))
        assert _walked(repo) == first
    commit(repo, {"src/a.py": "2"}, "more code")  # a new HEAD walks again, from the cached steps
    assert _walked(repo)[0] == first[0] and len(_walked(repo)[3]) == len(first[3]) + 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda entry, steps: entry.__setitem__(3, "many"),
        lambda entry, steps: entry[0].popitem(),
        lambda entry, steps: steps.pop(next(iter(steps))),  # a step the chain stood on
    ],
)
def test_a_damaged_kept_answer_is_walked_again(repo, damage):
    commit(repo, {P: adr_text("Use X", body="one")}, "v1")
    commit(repo, {P: adr_text("Use X", body="two")}, "v2")
    commit(repo, {"src/a.py": "1"}, "code")
    first = _walked(repo)
    data, steps = _cache(repo), _cache(repo, "steps")
    damage(next(iter(data["walks"].values())), steps["commits"])
    (repo / ".adr-cache/history.json").write_text(json.dumps(data))
    (repo / ".adr-cache/steps.json").write_text(json.dumps(steps))
    assert _walked(repo) == first
