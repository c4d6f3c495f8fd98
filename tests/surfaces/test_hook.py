from __future__ import annotations

import subprocess
import sys

import yaml

from adr_memory.surfaces.hook import main
from tests.helpers import adr_text, commit

ROOT = __import__("pathlib").Path(__file__).parents[2]


def test_lint_passes_a_good_adr_and_fails_a_bad_one(repo, capsys):
    commit(
        repo, {"docs/adr/0001-good.md": adr_text("Good"), "docs/adr/0002-bad.md": "---\nstatus: [oops\n---\n# Bad\n"}
    )
    assert main(["lint", "docs/adr/0001-good.md"]) == 0
    assert main(["lint", "docs/adr/0002-bad.md"]) == 1
    assert "0002-bad.md:3: error: yaml" in capsys.readouterr().out


def test_guard_warns_by_default_and_fails_with_strict(repo, capsys):
    commit(repo, {"docs/adr/0001-db.md": adr_text("DB", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    assert main(["guard", "src/db/a.py"]) == 0
    assert "! src/db/a.py: ADR-0001 DB [accepted, stale]" in capsys.readouterr().out
    assert main(["guard", "--strict", "src/db/a.py"]) == 1


def test_hook_entry_imports_no_typer_rich_or_heavy_modules(repo):
    commit(repo, {"docs/adr/0001-good.md": adr_text("Good")})
    code = (
        "import sys; from adr_memory.surfaces.hook import main; main(['lint', 'docs/adr/0001-good.md']); "
        "print(sorted(m for m in ('typer', 'rich', 'pydantic', 'tantivy', 'fastembed', 'numpy') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True).stdout
    assert out.strip().endswith("[]"), out


def test_pre_commit_hooks_file_names_both_hooks():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"]: h["entry"] for h in hooks} == {"adr-lint": "adr-hook lint", "adr-guard": "adr-hook guard"}


def test_a_bad_hook_argument_is_one_error_and_one_hint(repo):
    done = subprocess.run([sys.executable, "-m", "adr_memory.hook", "bogus"], cwd=repo, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: argument verb: invalid choice: 'bogus' (choose from 'lint', 'guard', 'pre-commit', "
        "'post-commit', 'post-merge', 'agent-guard', 'session-start', 'prompt')",
        "hint: adr-hook -h shows the usage",
    ]


def test_the_guard_hook_reads_each_decision_s_standing(repo, capsys):
    """A decision whose successor is only proposed still binds: not flagged, and said so; one an
    accepted successor retired is flagged, naming what retired it."""
    commit(
        repo,
        {
            "docs/adr/0001-a.md": adr_text("Use MongoDB", governs=["src/**"]),
            "docs/adr/0002-b.md": adr_text("Use PostgreSQL", status="proposed", extra="supersedes: [ADR-0001]"),
            "src/a.py": "1",
        },
    )
    assert main(["guard", "--strict", "src/a.py"]) == 0
    assert "- src/a.py: ADR-0001 Use MongoDB [accepted; ADR-0002 proposed, fresh]" in capsys.readouterr().out
    commit(repo, {"docs/adr/0002-b.md": adr_text("Use PostgreSQL", extra="supersedes: [ADR-0001]")})
    assert main(["guard", "--strict", "src/a.py"]) == 1
    assert "! src/a.py: ADR-0001 Use MongoDB [superseded by ADR-0002" in capsys.readouterr().out


# ---------------------------------------------------------------------------- what the agent guard tells an agent


def _agent(monkeypatch, capsys, call, *flags):
    """`adr-hook agent-guard` in-process: the tool call on stdin; (exit code, stdout, stderr)."""
    import io
    import json

    monkeypatch.setattr("sys.stdin", io.StringIO(call if isinstance(call, str) else json.dumps(call)))
    capsys.readouterr()
    code = main(["agent-guard", *flags])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _context(out):
    import json

    said = json.loads(out)["hookSpecificOutput"]
    assert said["hookEventName"] == "PreToolUse"
    return said


DB = "docs/adr/0001-db.md"


def test_the_agent_guard_tells_the_decision_its_standing_and_where_to_read_it(repo, capsys, monkeypatch):
    commit(
        repo,
        {
            DB: adr_text("Use PostgreSQL", governs=["src/db/**"], body="Orders live in PostgreSQL 16."),
            "src/db/a.py": "1",
        },
    )
    code, out, err = _agent(monkeypatch, capsys, {"tool_name": "Write", "tool_input": {"file_path": "src/db/a.py"}})
    assert (code, err) == (0, "")
    assert _context(out) == {
        "hookEventName": "PreToolUse",
        "additionalContext": "ADR-0001 (accepted; fresh) governs src/db/a.py: Use PostgreSQL. "
        "Decision: Orders live in PostgreSQL 16. Full record: docs/adr/0001-db.md.",
    }


def test_the_agent_guard_reads_every_edit_tool_s_path_and_no_other_tool_s(repo, capsys, monkeypatch):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/**"]), "src/a.ipynb": "{}", "src/b.py": "1"})
    for tool, key, path in (
        ("Edit", "file_path", "src/b.py"),
        ("MultiEdit", "file_path", "src/b.py"),
        ("NotebookEdit", "notebook_path", "src/a.ipynb"),
        ("Write", "path", "src/b.py"),
    ):
        code, out, _ = _agent(monkeypatch, capsys, {"tool_name": tool, "tool_input": {key: path}})
        assert code == 0 and f"governs {path}:" in _context(out)["additionalContext"], tool
    for tool in ("Grep", "WebFetch", "Task"):
        assert _agent(monkeypatch, capsys, {"tool_name": tool, "tool_input": {"file_path": "src/b.py"}}) == (0, "", "")
    # Read is guarded only where `--read` installed a matcher for it: the hook itself reads its path.
    code, out, _ = _agent(monkeypatch, capsys, {"tool_name": "Read", "tool_input": {"file_path": "src/b.py"}})
    assert "ADR-0001" in _context(out)["additionalContext"]


def test_the_agent_guard_reads_only_existing_paths_a_bash_command_names(repo, capsys, monkeypatch):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/**"]), "src/b.py": "1"})
    ran = {"tool_name": "Bash", "tool_input": {"command": "rm -f src/b.py src/gone.py --force"}}
    code, out, _ = _agent(monkeypatch, capsys, ran)
    context = _context(out)["additionalContext"]
    assert code == 0 and "governs src/b.py:" in context and "gone.py" not in context
    for command in ("ls -la", "echo 'unclosed", "rm src/gone.py"):  # no path, a quote shlex cannot read, none there
        assert _agent(monkeypatch, capsys, {"tool_name": "Bash", "tool_input": {"command": command}}) == (0, "", "")


def test_the_agent_guard_says_nothing_when_off_ungoverned_or_given_nothing(repo, capsys, monkeypatch):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1", "README.md": "x"})
    edit = {"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}}
    monkeypatch.setenv("ADR_GUARD", "0")
    assert _agent(monkeypatch, capsys, edit) == (0, "", "")
    monkeypatch.delenv("ADR_GUARD")
    assert _agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "README.md"}}) == (0, "", "")
    assert _agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {}}) == (0, "", "")
    assert _agent(monkeypatch, capsys, "") == (0, "", "")
    assert _agent(monkeypatch, capsys, "{broken") == (0, "", "")  # fails open: an edit is never blocked by a crash


def test_the_agent_guard_outside_a_repository_says_nothing_and_exits_0(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "a.py"}}) == (0, "", "")


def test_a_stale_decision_is_said_and_strict_asks_naming_why(repo, capsys, monkeypatch):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"})
    commit(repo, {"src/db/a.py": "2"})
    edit = {"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}}
    said = _context(_agent(monkeypatch, capsys, edit)[1])
    lines = said["additionalContext"].splitlines()
    assert lines[0].startswith("ADR-0001 (accepted; stale) governs src/db/a.py: Use PostgreSQL.")
    assert lines[1] == (
        "  ADR-0001 is stale: 1 governed file(s) changed since the anchor. Check it still holds before relying on it."
    )
    assert "permissionDecision" not in said
    strict = _context(_agent(monkeypatch, capsys, edit, "--strict")[1])
    assert (strict["permissionDecision"], strict["permissionDecisionReason"]) == ("ask", "ADR-0001 is stale")


def test_strict_lets_an_edit_under_a_fresh_decision_through_without_asking(repo, capsys, monkeypatch):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"})
    said = _context(
        _agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}}, "--strict")[1]
    )
    assert "permissionDecision" not in said and "(accepted; fresh)" in said["additionalContext"]


def test_a_disputed_decision_is_said_with_the_last_report(repo, capsys, monkeypatch):
    from tests.helpers import run

    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"})
    run(capsys, "feedback", "1", "--wrong", "--note", "orders moved to DynamoDB")
    said = _context(_agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "src/db/a.py"}})[1])
    assert "  ADR-0001 is disputed here: orders moved to DynamoDB. A person should review it." in (
        said["additionalContext"].splitlines()
    )


def test_a_conflict_between_governing_decisions_is_said_once_and_strict_asks(repo, capsys, monkeypatch):
    key = "conflict-key: project.primary_database\nvalue: {}"
    commit(
        repo,
        {
            DB: adr_text("Use PostgreSQL", governs=["src/**"], extra=key.format("PostgreSQL")),
            "docs/adr/0002-mongo.md": adr_text("Use MongoDB", governs=["src/**"], extra=key.format("MongoDB")),
            "src/a.py": "1",
            "src/b.py": "1",
        },
    )
    ran = {"tool_name": "Bash", "tool_input": {"command": "sed -i s/x/y/ src/a.py src/b.py"}}
    code, out, _ = _agent(monkeypatch, capsys, ran, "--strict")
    said = _context(out)
    assert code == 0
    conflicts = [line for line in said["additionalContext"].splitlines() if line.startswith("Conflict: ")]
    assert len(conflicts) == 1 and conflicts[0].endswith(", for src/a.py, src/b.py.")
    assert said["permissionDecision"] == "ask"
    assert said["permissionDecisionReason"] == "conflict between ADR-0001 and ADR-0002"


def test_at_most_five_decisions_are_named_for_one_path(repo, capsys, monkeypatch):
    files = {f"docs/adr/000{n}-d.md": adr_text(f"Decision {n}", governs=["src/**"]) for n in range(1, 8)}
    commit(repo, {**files, "src/a.py": "1"})
    said = _context(_agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "src/a.py"}})[1])
    named = [line for line in said["additionalContext"].splitlines() if " governs src/a.py: " in line]
    assert len(named) == 5


def test_the_agent_guard_redacts_a_credential_a_record_holds(repo, capsys, monkeypatch):
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/**"], body=f"Connect with {key}."), "src/a.py": "1"})
    code, out, _ = _agent(monkeypatch, capsys, {"tool_name": "Edit", "tool_input": {"file_path": "src/a.py"}})
    assert code == 0 and "ADR-0001" in out and key not in out


# ---------------------------------------------------------------------------- the plain git hooks


def test_lint_judges_only_records_of_the_adr_folder(repo, capsys):
    commit(repo, {"docs/adr/0001-good.md": adr_text("Good"), "README.md": "---\nstatus: [oops\n---\n"})
    assert main(["lint", "README.md", "notes/other.md"]) == 0
    assert capsys.readouterr().out == ""


def test_pre_commit_lints_staged_records_and_names_what_governs_staged_code(repo, capsys):
    from tests.helpers import git, write

    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"})
    write(repo, {"src/db/a.py": "2"})
    git(repo, "add", "-A")
    capsys.readouterr()
    assert main(["pre-commit"]) == 0  # governed code is named, never refused
    assert capsys.readouterr().out == "- src/db/a.py: ADR-0001 Use PostgreSQL [accepted, fresh]\n"
    write(repo, {"docs/adr/0002-bad.md": "---\nstatus: [oops\n---\n# Bad\n"})
    git(repo, "add", "-A")
    assert main(["pre-commit"]) == 1
    assert "0002-bad.md:3: error: yaml" in capsys.readouterr().out


def test_post_commit_names_each_decision_the_commit_made_stale_once(repo, capsys):
    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1", "src/ui.py": "1"})
    commit(repo, {"src/ui.py": "2"})
    capsys.readouterr()
    assert main(["post-commit"]) == 0 and capsys.readouterr().out == ""  # nothing it governs changed
    commit(repo, {"src/db/a.py": "2"})
    assert main(["post-commit"]) == 0
    assert capsys.readouterr().out == (
        "adr: this commit makes ADR-0001 stale (Use PostgreSQL): src/db/a.py; review it, then `adr affirm ADR-0001`\n"
    )


def test_post_merge_names_what_the_merge_brought_in_and_post_hooks_never_fail(repo, capsys, tmp_path, monkeypatch):
    from tests.helpers import git

    commit(repo, {DB: adr_text("Use PostgreSQL", governs=["src/db/**"]), "src/db/a.py": "1"})
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"src/db/a.py": "2"}, "change the store")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--ff-only", "feature")
    capsys.readouterr()
    assert main(["post-merge"]) == 0
    assert capsys.readouterr().out == (
        "adr: what this merge brought in makes ADR-0001 stale (Use PostgreSQL): src/db/a.py; "
        "review it, then `adr affirm ADR-0001`\n"
    )
    monkeypatch.chdir(tmp_path)  # no repository here: advisory hooks still exit 0, silently
    for verb in ("post-commit", "post-merge", "session-start"):
        assert main([verb]) == 0
    assert capsys.readouterr() == ("", "")


def test_session_start_gives_the_digest_in_the_hook_protocol(repo, capsys):
    import json

    commit(
        repo,
        {
            DB: adr_text("Use PostgreSQL", governs=["src/db/**"], extra="tags: [storage]"),
            "docs/adr/0002-x.md": adr_text("Draft idea", status="proposed"),
            "src/db/a.py": "1",
        },
    )
    capsys.readouterr()
    assert main(["session-start"]) == 0
    said = json.loads(capsys.readouterr().out)["hookSpecificOutput"]
    assert said == {
        "hookEventName": "SessionStart",
        "additionalContext": "Architecture decisions in force here (1; `adr show ID` or MCP `get` for one):\n"
        "- storage: ADR-0001 Use PostgreSQL",
    }


def test_a_prompt_of_fewer_than_three_words_gets_nothing(repo, capsys, monkeypatch):
    import io

    commit(repo, {DB: adr_text("Use PostgreSQL")})
    for prompt in ('{"prompt": "fix it"}', '{"prompt": "   "}', "{}", ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(prompt))
        assert main(["prompt"]) == 0
    assert capsys.readouterr() == ("", "")
