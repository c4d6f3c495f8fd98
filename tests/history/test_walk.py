"""The walk and the history cache: only record folders are diffed, renames are found among
records, governed-path touches are kept and extended, and `list` leaves out a history it has
not read yet."""

from __future__ import annotations

import json

import pytest

from adr_memory.history import versions, walk
from adr_memory.history.repo import Repo
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git, run, sealed_env

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


# ------------------------------------------------------------------ one linear history, walked many ways

X, Y = "docs/adr/0001-use-x.md", "docs/adr/0002-use-y.md"


@pytest.fixture(scope="module")
def line(tmp_path_factory):
    """X (accepted, governing src/db) and Y (proposed) recorded with code; code commits to
    src/db and src/web; X edited; more code. Returns the root and the commits, oldest first."""
    root = tmp_path_factory.mktemp("line") / "repo"
    root.mkdir()
    with sealed_env(tmp_path_factory.mktemp("home")) as mp:
        for role in ("AUTHOR", "COMMITTER"):
            mp.setenv(f"GIT_{role}_NAME", "Ada Author")
            mp.setenv(f"GIT_{role}_EMAIL", "ada@example.com")
        git(root, "init", "-q", "-b", "main")
        shas = [
            commit(
                root,
                {
                    X: adr_text("Use X", governs=["src/db/**"]),
                    Y: adr_text("Use Y", status="proposed"),
                    "src/db/a.py": "0",
                    "src/web/b.py": "0",
                },
                "record",
            ),
            commit(root, {"src/db/a.py": "1"}, "db 1"),
            commit(root, {"src/web/b.py": "1"}, "web 1"),
            commit(root, {X: adr_text("Use X", governs=["src/db/**"], body="Edited.")}, "edit X"),
            commit(root, {"src/db/a.py": "2", "src/db/new.py": "n"}, "db 2"),
            commit(root, {"src/web/b.py": "2"}, "web 2"),
        ]
    return root, shas


def _fresh(root) -> Workspace:
    import shutil

    shutil.rmtree(root / ".adr-cache", ignore_errors=True)
    return Workspace.discover(root)


def test_a_whole_walk_names_the_chain_from_head_and_each_record_s_touches_newest_first(line):
    root, shas = line
    history = walk.walk(_fresh(root))
    assert history.chain == shas[::-1] and history.head == shas[-1]
    assert history.position() == {sha: len(shas) - 1 - i for i, sha in enumerate(shas)}
    assert [(t.commit.sha, t.path) for t in history.touches[X]] == [(shas[3], X), (shas[0], X)]
    assert [t.commit.sha for t in history.touches[Y]] == [shas[0]]
    assert history.touches[X][0].blob == git(root, "rev-parse", f"HEAD:{X}")
    assert not (history.truncated or history.stopped)


def test_a_walk_stopped_at_a_commit_lets_it_stand_for_every_older_touch(line):
    root, shas = line
    history = walk.walk(_fresh(root), stop_at=shas[2])
    assert history.stopped and not history.truncated
    assert history.chain == [shas[5], shas[4], shas[3], shas[2]]
    assert [t.commit.sha for t in history.touches[X]] == [shas[3], shas[2]]
    assert [t.commit.sha for t in history.touches[Y]] == [shas[2]]
    assert history.following == {X, Y}  # neither record's start was reached


def test_a_walk_ends_once_the_caller_has_enough(line):
    root, shas = line
    asked: list[int] = []

    def enough(history):
        asked.append(len(history.chain))
        return bool(history.touches[X])

    history = walk.walk(_fresh(root), enough=enough)
    assert history.stopped and history.chain == [shas[5], shas[4], shas[3], shas[2]]
    assert [t.commit.sha for t in history.touches[X]] == [shas[3], shas[2]]
    assert asked[0] == 1  # asked at HEAD first, then again after each commit that touched a record


def test_a_walk_over_its_budget_says_how_to_read_the_history_once(line):
    root, shas = line
    with pytest.raises(walk.Uncached) as over:
        walk.walk(_fresh(root), budget=2)
    assert over.value.message == "this clone's history is not read yet (more than 2 commits to go)"
    assert over.value.hint == "`adr list --history` reads them once, in seconds, for every later run"
    steps = json.loads((root / ".adr-cache/steps.json").read_text())
    assert set(steps["commits"]) == {shas[5], shas[4]} and steps["schema"] == walk.CACHE_SCHEMA
    assert walk.walk(Workspace.discover(root), budget=4).chain == shas[::-1]  # 2 read, 4 to go: within it


def test_the_commits_touching_each_governed_prefix_are_git_log_s(line):
    root, shas = line
    ws = _fresh(root)
    history = walk.walk(ws)
    found = walk.touching(ws.repo, history, {"src/db": 6, "src/web": 6, "src": 3, "": 6})
    position = history.position()

    def oracle(prefix, limit):
        listed = git(root, "log", "--first-parent", "--format=%H", "--", prefix or ".").split()
        # among the newest `limit`; the root commit has nothing to diff against
        return {position[sha] for sha in listed if sha != shas[0] and position[sha] < limit}

    assert set(found["src/db"]) == oracle("src/db", 6) == {position[shas[4]], position[shas[1]]}
    assert sorted(found["src/db"][position[shas[4]]]) == ["src/db/a.py", "src/db/new.py"]
    assert set(found["src/web"]) == oracle("src/web", 6)
    assert set(found["src"]) == oracle("src", 3) == {0, 1}  # among the newest three only
    assert set(found[""]) == set(range(5))
    again = walk.touching(ws.repo, history, {"src/db": 6})
    assert again == {"src/db": found["src/db"]}


def test_a_diff_and_an_ancestry_asked_again_are_answered_from_the_cache(line, monkeypatch):
    root, shas = line
    ws = _fresh(root)
    history = walk.walk(ws)
    repo, cache = ws.repo, history.cache
    old, new = repo.commit(shas[0]).tree, repo.commit(shas[5]).tree
    first = walk.changed_paths(repo, cache, old, new, ["src/db"])
    assert first == {"src/db/a.py", "src/db/new.py"}
    assert walk.is_ancestor(repo, shas[0], shas[5]) and not walk.is_ancestor(repo, shas[5], shas[0])
    with monkeypatch.context() as mp:
        mp.setattr(Repo, "changed_paths", lambda *_a: pytest.fail("diffed again"))
        mp.setattr(Repo, "is_ancestor", lambda *_a: pytest.fail("walked again"))
        assert walk.changed_paths(repo, cache, old, new, ["src/db"]) == first
        assert walk.is_ancestor(repo, shas[0], shas[5]) and not walk.is_ancestor(repo, shas[5], shas[0])
    walk.changed_paths(repo, cache, old, repo.commit(shas[4]).tree, ["src/web"])  # HEAD moved: a new tree
    assert list(cache.diffs) == [" ".join([old, repo.commit(shas[4]).tree, "src/web"])]  # the old tree's answers go


def test_the_folders_a_step_diffs_are_the_record_folders_and_where_a_followed_record_lives():
    assert walk._folders(["docs/adr"], ["docs/adr/0001-x.md", "old/place/0002-y.md"]) == ["docs/adr", "old/place"]
    assert walk._folders(["docs/adr"], ["0003-at-the-root.md"]) == ["", "docs/adr"]
    assert walk._folders([""], ["anything/0001-x.md"]) == [""]


def test_a_cache_of_another_schema_is_read_as_empty_and_written_anew(line):
    root, shas = line
    walk.walk(_fresh(root))
    kept = root / ".adr-cache/history.json"
    data = json.loads(kept.read_text())
    assert data["schema"] == walk.CACHE_SCHEMA and set(data) >= {"counts", "info", "blobs", "walks"}
    kept.write_text(json.dumps({**data, "schema": walk.CACHE_SCHEMA - 1}))
    assert walk._read(kept) == {}
    history = walk.walk(Workspace.discover(root))
    assert [t.commit.sha for t in history.touches[X]] == [shas[3], shas[0]]
    assert json.loads(kept.read_text())["schema"] == walk.CACHE_SCHEMA
