from __future__ import annotations

import json
import re

import pytest

from adr_memory.history import versions
from adr_memory.history.workspace import Workspace
from tests.helpers import adr_text, commit, git, run, sealed_env

P = "docs/adr/0001-use-x.md"


def _log(capsys, ident="1"):
    return json.loads(run(capsys, "log", ident, "--json").out)["versions"]


def test_status_only_and_crlf_only_commits_are_not_new_versions(repo, capsys):
    commit(repo, {P: adr_text("Use X", status="proposed")}, "propose")
    commit(repo, {P: adr_text("Use X", status="accepted")}, "accept")
    commit(repo, {P: adr_text("Use X", status="accepted").replace("\n", "\r\n")}, "crlf")
    commit(repo, {P: adr_text("Use X", status="accepted").replace("We decided.", "We decided.   ")}, "ws")
    listed = _log(capsys)
    assert len(listed) == 1
    assert listed[0]["message"] == "propose" and listed[0]["status"] == "proposed"
    assert [t["to"] for t in listed[0]["transitions"]] == ["accepted"]


def test_edits_renames_folder_moves_and_a_revert(repo, capsys):
    first = commit(repo, {P: adr_text("Use X", body="one")}, "v1")
    commit(repo, {P: adr_text("Use X", body="two")}, "v2")
    git(repo, "mv", P, "docs/adr/0001-use-x-renamed.md")
    commit(repo, {}, "rename")
    git(repo, "mv", "docs/adr", "docs/decisions")
    commit(repo, {"docs/decisions/0001-use-x-renamed.md": adr_text("Use X", body="one")}, "move + revert")
    listed = _log(capsys)
    assert [v["message"] for v in listed] == ["move + revert", "v2", "v1"]
    assert listed[-1]["commit"] == first
    assert listed[0]["digest"] == listed[2]["digest"]
    assert listed[0]["version_id"] != listed[2]["version_id"]
    # The git CLI agrees on which commits changed the content.
    oracle = git(repo, "log", "--follow", "--format=%s", "--", "docs/decisions/0001-use-x-renamed.md")
    assert oracle.splitlines()[-1] == "v1"


def test_version_ids_chain_and_draft_on_top(repo, capsys):
    commit(repo, {P: adr_text("Use X", body="one")}, "v1")
    (repo / P).write_text(adr_text("Use X", body="draft"))
    listed = _log(capsys)
    assert listed[0]["draft"] is True and listed[0]["commit"] is None
    rec = Workspace.discover().catalog.get("1")
    expected = versions.version_id("ADR-0001", versions.digest(rec), listed[1]["version_id"])
    assert listed[0]["version_id"] == expected


def test_merge_brings_in_a_version(repo, capsys):
    commit(repo, {P: adr_text("Use X", body="one")}, "v1")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {P: adr_text("Use X", body="two")}, "on topic")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"other.txt": "x"}, "main moves")
    git(repo, "merge", "-q", "--no-ff", "topic", "-m", "merge topic")
    listed = _log(capsys)
    assert [v["message"] for v in listed] == ["merge topic", "v1"]


def test_show_version_diff_and_at(repo, capsys):
    commit(repo, {P: adr_text("Use X", body="one")}, "v1")
    commit(repo, {P: adr_text("Use X", body="two")}, "v2")
    assert "one" in json.loads(run(capsys, "show", "1", "--version", "v1", "--json").out)["sections"][0]["text"]
    diff = run(capsys, "diff", "1").out
    assert "-one" in diff and "+two" in diff
    old = json.loads(run(capsys, "show", "1", "--at", "HEAD~1", "--json").out)
    assert old["sections"][0]["text"] == "one"
    assert json.loads(run(capsys, "list", "--at", "HEAD~1", "--json").out)[0]["id"] == "ADR-0001"
    assert "ADR-0001" in run(capsys, "generate", "toc", "--at", "HEAD~1").out


def test_list_shows_version_and_first_recorded_date_from_git_when_undated(repo, capsys, monkeypatch):
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2021-03-04T05:06:07Z")
    commit(repo, {P: adr_text("Use X")}, "v1")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
    commit(repo, {P: adr_text("Use X", body="bulk reformat")}, "bulk")
    out = run(capsys, "list").out
    assert "2021-03-04" in out
    listed = json.loads(run(capsys, "list", "--json").out)
    assert listed[0]["version_id"].startswith("v") and listed[0]["stale"] is False


def test_second_walk_reads_the_cache(repo, capsys, monkeypatch):
    commit(repo, {P: adr_text("Use X")}, "v1")
    for i in range(5):
        commit(repo, {f"src/{i}.txt": "x"}, f"c{i}")
    first = versions.walk(Workspace.discover())
    steps = json.loads((repo / ".adr-cache/steps.json").read_text())
    assert len(steps["commits"]) == 6
    from adr_memory.history.repo import Repo

    def no_diffs(*_a, **_k):
        raise AssertionError("a warm walk must not diff trees")

    with monkeypatch.context() as patch:
        patch.setattr(Repo, "tree_changes", no_diffs)
        warm = versions.walk(Workspace.discover())
    assert warm.touches == first.touches
    (repo / ".adr-cache/history.json").write_text("{corrupt")
    (repo / ".adr-cache/steps.json").write_text("[]")
    assert versions.walk(Workspace.discover()).touches == first.touches  # ignored, then rebuilt


def test_log_shows_who_changed_a_status_and_why_and_the_timeline_lists_every_event(repo, capsys, monkeypatch):
    import json

    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0001-db.md": adr_text("Use PostgreSQL"),
            "docs/adr/0002-api.md": "# 2. REST API\n\n## Status\n\nAccepted\n\n## Context\n\nc\n",
        },
        "add",
    )
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bea Reviewer")
    run(capsys, "deprecate", "1", "--reason", "the orders service is gone")
    run(capsys, "deprecate", "2", "--reason", "GraphQL won")
    commit(repo, {}, "deprecate both")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Cy Linker")
    run(capsys, "link", "2", "Relates to", "1")
    commit(repo, {}, "link")
    versions = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    step = versions[0]["transitions"][0]
    assert (step["from"], step["to"], step["reason"]) == ("accepted", "deprecated", "the orders service is gone")
    assert step["author"].startswith("Bea Reviewer") and versions[0]["author"].startswith("Ada Author")
    nygard = json.loads(run(capsys, "log", "2", "--json").out)["versions"]
    assert len(nygard) == 1 and nygard[0]["transitions"][0]["reason"] == "GraphQL won"
    table = run(capsys, "log", "1").out
    assert "Bea Reviewer" in table and "the orders service is gone" in table
    events = json.loads(run(capsys, "log", "--json").out)["events"]
    kinds = [(e["id"], e["kind"], e["author"].split(" <")[0]) for e in events]
    assert kinds[0] == ("ADR-0002", "link", "Cy Linker")
    assert ("ADR-0001", "status", "Bea Reviewer") in kinds and ("ADR-0001", "new", "Ada Author") in kinds
    status = next(e for e in events if e["id"] == "ADR-0001" and e["kind"] == "status")
    assert status["detail"] == "accepted → deprecated: the orders service is gone"
    assert json.loads(run(capsys, "log", "--since", "2999-01-01", "--json").out)["events"] == []


def test_show_lists_the_records_that_link_to_this_one(repo, capsys):
    import json

    from tests.helpers import adr_text, commit, run

    commit(
        repo,
        {
            "docs/adr/0001-base.md": adr_text("Base"),
            "docs/adr/0002-dep.md": adr_text("Dep", extra="depends-on: [ADR-0001]"),
            "docs/adr/0003-rel.md": adr_text("Rel", extra="relates-to: [ADR-0001]"),
        },
    )
    shown = json.loads(run(capsys, "show", "1", "--json").out)
    assert shown["backlinks"] == [{"rel": "depends-on", "id": "ADR-0002"}, {"rel": "relates-to", "id": "ADR-0003"}]
    shown_text = run(capsys, "show", "1").out
    assert re.search(r"needed by +ADR-0002", shown_text) and re.search(r"relates-to +ADR-0003", shown_text)


def test_show_reads_a_relation_another_record_states_from_this_ones_side(repo, capsys):
    """`adr show` on a successor printed `← superseded-by ADR-0002`, which reads backwards."""
    commit(
        repo,
        {
            "docs/adr/0001-base.md": adr_text("Base", status="superseded", extra="superseded-by: [ADR-0002]"),
            "docs/adr/0002-next.md": adr_text("Next"),
            "docs/adr/0003-amend.md": adr_text("Amend", extra="amends: [ADR-0002]"),
        },
    )
    shown = run(capsys, "show", "2").out
    assert re.search(r"^supersedes +ADR-0001", shown, re.MULTILINE)
    assert re.search(r"^amended by +ADR-0003", shown, re.MULTILINE)
    assert "superseded-by" not in shown and "←" not in shown
    old = run(capsys, "show", "1").out
    assert re.search(r"^standing +superseded by ADR-0002", old, re.MULTILINE)


def test_log_since_needs_a_date(repo, capsys):
    from tests.helpers import run

    assert run(capsys, "log", "--since", "yesterday", code=2).err.startswith("error: cannot read the date")


def test_a_version_merged_without_fast_forward_credits_who_wrote_it(repo, capsys, monkeypatch):
    """`git merge --no-ff` by a maintainer: the version is Bea's, who wrote it on her branch
    (as `git log --follow` without `--first-parent` says); the merge is where it reached main."""
    import json

    from tests.helpers import adr_text, commit, git, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A")}, "first")
    git(repo, "checkout", "-q", "-b", "bea")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bea Writer")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-03-04T10:00:00Z")
    written = commit(repo, {"docs/adr/0001-a.md": adr_text("A", body="Bea's reasons.")}, "Bea's edit")
    commit(repo, {"src/x.py": "1"}, "Bea goes on")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Max Merger")
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-05-06T10:00:00Z")
    git(repo, "merge", "-q", "--no-ff", "bea", "-m", "Merge Bea's branch")
    merge = git(repo, "rev-parse", "HEAD")
    newest = json.loads(run(capsys, "log", "1", "--json").out)["versions"][0]
    assert (newest["commit"], newest["written_in"]) == (merge, written)
    assert newest["author"].startswith("Bea Writer") and newest["date"] == "2026-03-04T10:00:00Z"
    first = json.loads(run(capsys, "log", "1", "--json").out)["versions"][1]
    assert first["written_in"] is None and first["author"].startswith("Ada Author")


def test_the_log_of_a_decision_shows_its_reviews(repo, capsys):
    import json

    from tests.helpers import adr_text, commit, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", governs=["src/**"]), "src/a.py": "1"}, "first")
    run(capsys, "affirm", "1", "--note", "still right after the move")
    reviewed = commit(repo, {}, "affirm A")
    (version,) = json.loads(run(capsys, "log", "1", "--json").out)["versions"]
    assert [(r["commit"], r["note"]) for r in version["reviews"]] == [(reviewed, "still right after the move")]
    table = run(capsys, "log", "1").out
    assert "affirmed" in table and "still right after the move" in table


def test_a_status_change_review_and_link_merged_without_fast_forward_credit_who_made_them(repo, capsys, monkeypatch):
    """Bob accepts, affirms and links on his branch; Alice merges with GitHub's merge button
    (`--no-ff`): the log and the timeline credit Bob at the merge, never Alice."""
    import json

    from tests.helpers import adr_text, commit, git, run

    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("A"),
            "docs/adr/0002-b.md": adr_text("B", status="proposed", governs=["src/**"]),
            "src/x.py": "1",
        },
        "first",
    )
    git(repo, "checkout", "-q", "-b", "bob")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Bob Builder")
    run(capsys, "accept", "2")
    accepted = commit(repo, {}, "Accept B")
    run(capsys, "affirm", "2", "--note", "holds")
    affirmed = commit(repo, {}, "Affirm B")
    run(capsys, "link", "2", "Amends", "1", "Amended by")
    commit(repo, {}, "Link B to A")
    git(repo, "checkout", "-q", "main")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Alice Merger")
    git(repo, "merge", "-q", "--no-ff", "bob", "-m", "Merge pull request #4 from bob")
    merge = git(repo, "rev-parse", "HEAD")

    (version,) = json.loads(run(capsys, "log", "2", "--json").out)["versions"]
    (step,) = version["transitions"]
    assert (step["commit"], step["written_in"], step["to"]) == (merge, accepted, "accepted")
    assert step["author"].startswith("Bob Builder")
    (review,) = version["reviews"]
    assert review["author"].startswith("Bob Builder") and review["written_in"] == affirmed
    events = json.loads(run(capsys, "log", "--json").out)["events"]
    merged = [e for e in events if e["commit"] == merge]
    assert {e["kind"] for e in merged} >= {"status", "affirm", "link"}
    assert all(e["author"].startswith("Bob Builder") for e in merged), merged
    assert "Alice" not in json.dumps(events) and "Alice" not in run(capsys, "log", "2").out
    # Every surface that says what holds says who made it so, from the one standing.
    (listed,) = [r for r in json.loads(run(capsys, "list", "--json").out) if r["id"] == "ADR-0002"]
    shown = json.loads(run(capsys, "show", "2", "--json").out)
    (guarded,) = json.loads(run(capsys, "guard", "--json", "src/x.py").out)["paths"][0]["decisions"]
    for said in (listed["standing"]["changed"], shown["standing"]["changed"], guarded["standing"]["changed"]):
        assert (said["id"], said["to"], said["commit"], said["written_in"]) == ("ADR-0002", "accepted", merge, accepted)
        assert said["author"].startswith("Bob Builder")


def test_a_merge_whose_branch_a_shallow_clone_lacks_is_credited_to_the_merge(repo, tmp_path, capsys, monkeypatch):
    """`adr list` exited 2 ("commit ... is missing") in a shallow clone: looking for the commit
    on the merged branch that made a change, it read commits the clone does not hold."""
    from tests.helpers import adr_text, commit, git, run

    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="proposed")}, "propose")
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"docs/adr/0001-a.md": adr_text("A", status="accepted")}, "accept on a branch")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "topic", "-m", "merge")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    monkeypatch.chdir(shallow)
    listed = run(capsys, "list", "--json")
    assert listed.json[0]["status"] == "accepted" and "shallow clone" in listed.err


# ------------------------------------------------------------------ one decision's life, read through the API


X = "docs/adr/0001-use-x.md"
FEB = 1706788800  # 2024-02-01T12:00:00Z


@pytest.fixture(scope="module")
def life(tmp_path_factory):
    """Ada proposes X (02-01) and accepts it with a reason (02-02); Bob rewrites it on a branch
    (02-03) that Carol merges --no-ff (02-04); Dan affirms it (02-05)."""
    root = tmp_path_factory.mktemp("life") / "repo"
    root.mkdir()
    c: dict[str, str] = {}
    with sealed_env(tmp_path_factory.mktemp("home")) as mp:

        def by(name: str, day: int) -> None:
            for role in ("AUTHOR", "COMMITTER"):
                mp.setenv(f"GIT_{role}_NAME", name)
                mp.setenv(f"GIT_{role}_EMAIL", f"{name.lower()}@example.com")
                mp.setenv(f"GIT_{role}_DATE", f"2024-02-{day:02d}T12:00:00Z")

        git(root, "init", "-q", "-b", "main")
        by("Ada", 1)
        c["propose"] = commit(root, {X: adr_text("Use X", status="proposed", body="one")}, "Propose X")
        by("Ada", 2)
        c["accept"] = commit(
            root, {X: adr_text("Use X", extra="status-reason: the team agreed", body="one")}, "Accept X"
        )
        git(root, "checkout", "-q", "-b", "rewrite")
        by("Bob", 3)
        c["bob"] = commit(root, {X: adr_text("Use X", extra="status-reason: the team agreed", body="two")}, "Rewrite X")
        git(root, "checkout", "-q", "main")
        by("Carol", 4)
        git(root, "merge", "-q", "--no-ff", "rewrite", "-m", "Merge the rewrite")
        c["merge"] = git(root, "rev-parse", "HEAD")
        by("Dan", 5)
        review = f'reviewed: {{commit: {c["merge"]}, note: "still right"}}'
        c["affirm"] = commit(
            root, {X: adr_text("Use X", extra=f"status-reason: the team agreed\n{review}", body="two")}, "Affirm X"
        )
    return root, c


def _listed(root):
    ws = Workspace.discover(root)
    rec = ws.catalog.get("1")
    return ws, rec, versions.versions(ws, rec)


def test_each_version_credits_who_wrote_it_and_carries_its_status_changes_and_reviews(life):
    root, c = life
    _ws, rec, listed = _listed(root)
    newest, oldest = listed
    assert (oldest.commit, oldest.author, oldest.date, oldest.message, oldest.status, oldest.written_in) == (
        c["propose"], "Ada <ada@example.com>", FEB, "Propose X", "proposed", None
    )  # fmt: skip
    assert oldest.transitions == (
        versions.Transition(
            c["accept"], FEB + 86400, "proposed", "accepted", "Ada <ada@example.com>", "the team agreed"
        ),
    )
    assert (newest.commit, newest.author, newest.date, newest.written_in) == (
        c["merge"], "Bob <bob@example.com>", FEB + 2 * 86400, c["bob"]
    )  # fmt: skip
    assert newest.message == "Merge the rewrite" and newest.status == "accepted" and not newest.draft
    assert newest.reviews == (versions.Review(c["affirm"], FEB + 4 * 86400, "Dan <dan@example.com>", "still right"),)
    assert newest.transitions == ()
    assert newest.version_id == versions.version_id(rec.id, newest.digest, oldest.version_id)
    assert oldest.version_id == versions.version_id(rec.id, oldest.digest, None)


def test_a_version_is_named_by_number_id_prefix_or_commit_and_a_wrong_name_says_where_to_look(life):
    from adr_memory.errors import UsageError

    root, c = life
    ws, rec, (newest, oldest) = _listed(root)
    history = versions.walk(ws)
    ref = lambda name: versions.version_ref(ws, rec, name, history)  # noqa: E731
    assert ref("v1") == oldest and ref("v2") == newest
    assert ref(newest.version_id) == newest and ref(oldest.version_id[:6]) == oldest
    assert ref(c["accept"]) == oldest  # a commit names the version in force there
    assert ref(c["bob"]) == oldest  # off the first-parent line, before the merge brought the rewrite
    assert ref("HEAD") == newest and ref("HEAD~2") == oldest
    for wrong in ("v3", "v0", "vabc"):
        with pytest.raises(UsageError, match=f"^ADR-0001 has no version '{wrong}'$") as said:
            ref(wrong)
        assert said.value.hint == "`adr log ADR-0001` lists them"


def test_a_version_s_content_is_the_record_as_its_commit_holds_it(life):
    root, _c = life
    ws, _rec, (newest, oldest) = _listed(root)
    assert "one" in versions.content_at(ws, oldest).body and "two" not in versions.content_at(ws, oldest).body
    assert versions.content_at(ws, oldest).status == "proposed"
    assert versions.digest(versions.content_at(ws, newest)) == newest.digest


def test_an_edit_in_the_work_tree_is_a_draft_on_top_and_a_status_change_there_a_transition(life):
    root, _c = life
    before = (root / X).read_bytes()
    try:
        (root / X).write_text(before.decode().replace("two", "three"))
        draft, newest, _oldest = _listed(root)[2]
        assert (draft.draft, draft.commit, draft.author, draft.status) == (True, None, None, "accepted")
        assert draft.version_id == versions.version_id("ADR-0001", draft.digest, newest.version_id)
        (root / X).write_text(before.decode().replace("status: accepted", "status: deprecated"))
        newest, _oldest = _listed(root)[2]
        assert [(t.commit, t.before, t.after, t.author) for t in newest.transitions] == [
            ("", "accepted", "deprecated", "")
        ]  # uncommitted: no commit, no author
    finally:
        (root / X).write_bytes(before)


def test_what_lifecycle_commands_write_is_not_the_decision_s_content():
    body = "Intro.\n\n## Status\n\nAccepted\n\nAmended by [2](0002.md)\n\n## Decision\n\nUse X.  \n"
    assert versions.content_lines(body) == ["Intro.", "", "## Decision", "", "Use X.", ""]
    setext = "Status\n------\n\nProposed\n\nContext\n-------\n\nWhy.\n"
    assert versions.content_lines(setext) == ["Context", "-------", "", "Why.", ""]
    rst = "Title\n=====\n\n:status: accepted\n:date: 2024-01-01\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\nWhy.\n"
    # the title stays; its field list's status and date and the Status section go
    assert versions.rst_content_lines(rst) == ["Title", "=====", "", "", "Context", "-------", "", "Why.", ""]


def test_summaries_are_worked_out_within_a_budget_and_each_run_gets_further(life):
    import shutil

    from adr_memory.history.walk import Uncached

    root, _c = life
    shutil.rmtree(root / ".adr-cache", ignore_errors=True)
    ws = Workspace.discover(root)
    history = versions.walk(ws)  # four touches: proposed, accepted, merged, affirmed
    with pytest.raises(Uncached) as over:
        versions.prime(ws.repo, history, 1)
    assert over.value.message == "this clone's history is not read yet (3 record versions to go)"
    again = Workspace.discover(root)  # a later command reads what was kept
    later = versions.walk(again)
    with pytest.raises(Uncached, match=r"\(1 record versions to go\)"):
        versions.prime(again.repo, later, 2)
    versions.prime(again.repo, later, 1)  # the last one: within budget, nothing raised
    assert [v.status for v in versions.versions(again, again.catalog.get("1"), later)] == ["accepted", "proposed"]
